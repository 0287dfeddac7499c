#!/usr/bin/env bash
# Builds probe.cu with the machine's nvcc for sm_90 and runs it; the output goes to
# $OUT/probe.txt too. bisect_before.cuh, the tridiagonal solver that probe.cu compares with
# kernels/syev/bisect.cuh, is the latter at commit $BEFORE (default e334ac3) without its
# #pragma once and #include lines; made here with git, or carried ready-made where the
# machine has no repository.
set -euo pipefail
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
if git rev-parse --git-dir >/dev/null 2>&1; then
	git show "${BEFORE:-e334ac3}:kernels/syev/bisect.cuh" | grep -v '^#pragma once\|^#include' >bisect_before.cuh
fi
nvcc -O3 -std=c++17 -arch=sm_90 -Xptxas -v -o /tmp/syevprobe probe.cu >"$OUT/probe_build.log" 2>&1 || { tail -30 "$OUT/probe_build.log"; exit 1; }
grep -A2 "timed\|syev_cta_bisect" "$OUT/probe_build.log" | grep -E "spill|Used" | sort | uniq -c | head -20
/tmp/syevprobe "$@" | tee "$OUT/probe.txt"
