#!/usr/bin/env bash
# Builds every native kernel family into kernels/<name>.fatbin, which the cuda build embeds,
# and rewrites kernels/MANIFEST. Needs nvcc (CUDA 12.8 or newer, for sm_120); run it on the
# GPU machine and commit the fatbins with the MANIFEST. The resource report of ptxas
# (registers, shared memory, stack frame, spills) goes to stdout.
#
# Each fatbin holds machine code for sm_80, sm_89, sm_90 and sm_120 and PTX for compute_80,
# which the driver compiles for any later GPU.
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
"$NVCC" --version | tail -n 2
for src in */*.cu; do
	name=$(basename "$src" .cu)
	echo "== $name"
	"$NVCC" -fatbin -O3 -std=c++17 -Xptxas -v "${GENCODE[@]}" -o "$name.fatbin" "$src" 2>&1
done
./check_manifest.sh --write
