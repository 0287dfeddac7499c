#!/usr/bin/env bash
# Builds the CPU emulator: every kernel source kernels/*/*.cu and driver.cc, compiled by g++
# with cuda_emu.h, into build/libcuda.so.1, plus an empty build/<name>.fatbin for each
# source so that BATCHLAS_CUDA_KERNELS=build finds a module image for every kernel family.
# See README.md.
set -euo pipefail
cd "$(dirname "$0")"
CXX=${CXX:-g++}
mkdir -p build
objs=()
for src in ../*/*.cu; do
	name=$(basename "$src" .cu)
	"$CXX" -std=c++17 -O1 -g -fPIC -w -include cuda_emu.h -x c++ -c "$src" -o "build/$name.o"
	echo emu >"build/$name.fatbin"
	objs+=("build/$name.o")
done
"$CXX" -std=c++17 -O1 -g -fPIC -c driver.cc -o build/driver.o
"$CXX" -shared -o build/libcuda.so.1 build/driver.o "${objs[@]}" -ldl
