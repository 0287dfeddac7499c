#!/usr/bin/env bash
# Builds native kernel families into kernels/<name>.fatbin, which the cuda build embeds, and
# records them in kernels/MANIFEST. `build.sh` builds every kernels/*/*.cu; `build.sh
# potrf/potrf_tiny.cu ...` (paths under kernels/, or from the repository root) builds those
# alone and rewrites only their MANIFEST lines. The flags are in flags.sh.
#
# Any nvcc from 11.8 on builds: the GPU machine's CUDA 13.0 adds sm_120 machine code, which
# 11.8 (Debian's nvidia-cuda-toolkit, for machines without a GPU) cannot make. Each MANIFEST
# line names the toolkit that built its fatbin; commit fatbins with the MANIFEST, and rebuild
# with CUDA 12.8 or newer before a release so that every fatbin carries sm_120.
#
# The resource report of ptxas (registers, shared memory, stack frame, spills) goes to stdout,
# one source after another; the sources compile in parallel (JOBS at a time, default all).
# ARCHS=90 builds sm_90 machine code alone, for quick rounds on an H200; such fatbins are not
# for committing, and the MANIFEST is left alone.
set -euo pipefail
cd "$(dirname "$0")"
NVCC=${NVCC:-nvcc}
source ./flags.sh
release=$("$NVCC" --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p')
[ -n "$release" ] || { echo "build.sh: cannot read the release of $NVCC"; exit 1; }
gencode "$release"
if [ -n "${ARCHS:-}" ]; then
	GENCODE=()
	for a in $ARCHS; do GENCODE+=(-gencode "arch=compute_$a,code=sm_$a"); done
fi
"$NVCC" --version | tail -n 2
srcs=()
for s in "$@"; do srcs+=("${s#kernels/}"); done
[ ${#srcs[@]} -gt 0 ] || srcs=(*/*.cu)
for s in "${srcs[@]}"; do [ -f "$s" ] || { echo "build.sh: no source $s"; exit 1; }; done
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
status=0
pids=()
for src in "${srcs[@]}"; do
	name=$(basename "$src" .cu)
	"$NVCC" "${NVCC_FLAGS[@]}" "${GENCODE[@]}" -o "$name.fatbin" "$src" >"$logs/$name" 2>&1 &
	pids+=($!)
	if [ ${#pids[@]} -ge "${JOBS:-1000}" ]; then
		wait "${pids[0]}" || status=1
		pids=("${pids[@]:1}")
	fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
for src in "${srcs[@]}"; do
	echo "== $(basename "$src" .cu)"
	cat "$logs/$(basename "$src" .cu)"
done
[ "$status" = 0 ] || { echo "build.sh: nvcc failed"; exit 1; }
[ -n "${ARCHS:-}" ] || ./check_manifest.sh --write "nvcc-$release" "${srcs[@]}"
