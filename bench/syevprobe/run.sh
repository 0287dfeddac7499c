#!/usr/bin/env bash
# Builds probe.cu with the machine's nvcc for sm_90 and runs it; the output goes to
# $OUT/probe.txt too.
set -euo pipefail
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
nvcc -O3 -std=c++17 -arch=sm_90 -Xptxas -v -o /tmp/syevprobe probe.cu >"$OUT/probe_build.log" 2>&1 || { tail -30 "$OUT/probe_build.log"; exit 1; }
grep -A2 "timed" "$OUT/probe_build.log" | grep -E "spill|Used" | sort | uniq -c | head
/tmp/syevprobe "$@" | tee "$OUT/probe.txt"
