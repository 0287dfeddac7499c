#!/usr/bin/env bash
# Builds every native kernel family into kernels/<name>.fatbin, which the cuda build embeds,
# and rewrites kernels/MANIFEST. Needs nvcc (CUDA 12.8 or newer, for sm_120); run it on the
# GPU machine and commit the fatbins with the MANIFEST. The resource report of ptxas
# (registers, shared memory, stack frame, spills) goes to stdout, one source after another;
# the sources compile in parallel.
#
# Each fatbin holds machine code for sm_80, sm_89, sm_90 and sm_120 and PTX for compute_80,
# which the driver compiles for any later GPU, every image compressed (-compress-all: the
# fully unrolled kernels' machine code shrinks several times over, which keeps the package,
# and a test binary that embeds it, small). ARCHS=90 builds sm_90 machine code alone, for
# quick rounds on an H200; such fatbins are not for committing, and the MANIFEST is left alone.
set -euo pipefail
cd "$(dirname "$0")"
NVCC=${NVCC:-nvcc}
GENCODE=(
	-gencode arch=compute_80,code=sm_80
	-gencode arch=compute_89,code=sm_89
	-gencode arch=compute_90,code=sm_90
	-gencode arch=compute_120,code=sm_120
	-gencode arch=compute_80,code=compute_80
)
if [ -n "${ARCHS:-}" ]; then
	GENCODE=()
	for a in $ARCHS; do GENCODE+=(-gencode "arch=compute_$a,code=sm_$a"); done
fi
"$NVCC" --version | tail -n 2
logs=$(mktemp -d)
pids=()
for src in */*.cu; do
	name=$(basename "$src" .cu)
	"$NVCC" -fatbin -O3 -std=c++17 -Xptxas -v -Xfatbin -compress-all "${GENCODE[@]}" -o "$name.fatbin" "$src" >"$logs/$name" 2>&1 &
	pids+=($!)
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
for src in */*.cu; do
	name=$(basename "$src" .cu)
	echo "== $name"
	cat "$logs/$name"
done
rm -rf "$logs"
[ "$status" = 0 ] || { echo "build.sh: nvcc failed"; exit 1; }
[ -n "${ARCHS:-}" ] || ./check_manifest.sh --write
