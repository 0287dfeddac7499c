#!/usr/bin/env bash
# Builds the ROCm stand-in (see roc.h): build/libamdhip64.so, build/librocblas.so and
# build/librocsolver.so, on the system's BLAS and LAPACK (libblas.so.3, liblapack.so.3,
# linked by path so that no -dev package is needed). Run the rocm-tagged suite with
# LD_LIBRARY_PATH=<this folder>/build.
set -euo pipefail
cd "$(dirname "$0")"
CXX=${CXX:-g++}
lib=$(dirname "$(ldconfig -p | awk '/liblapack.so.3 /{print $NF; exit}')")
mkdir -p build
flags=(-std=c++17 -O2 -fPIC -shared -Wall)
"$CXX" "${flags[@]}" hip.cc -o build/libamdhip64.so
"$CXX" "${flags[@]}" rocblas.cc -o build/librocblas.so "$lib/libblas.so.3"
"$CXX" "${flags[@]}" rocsolver.cc -o build/librocsolver.so "$lib/liblapack.so.3" "$lib/libblas.so.3"
