#!/usr/bin/env bash
# Every performance target of issue 6 (listed in bench/results/sm_90/issue6/README.md,
# "Against the targets") in one round on the GPU machine, measured with 15
# repetitions, arms interleaved in both orders in one process and every output verified, on
# the committed fatbins: run from the repository root with .dev
# carried (make device-bundle). The native arm is "auto", the family the sm_90 tables route
# to; the vendor arm is the cuSOLVER/cuBLAS call the issue names (ref:cublas, cublas
# geqrfBatched, for geqrf). JSON lines and the table go to $OUT (bench.jsonl, bench.txt).
set -euo pipefail
R="-reps 15"
runs=(
	"$R -op potrf -dtype f32,f64 -n 8,16,32,64 -batch 8192,32768 -arms vendor,auto"
	"$R -op getrf -dtype f32,f64 -n 8,16,32,64 -batch 8192,32768 -arms vendor,auto"
	"$R -op geqrf -dtype f32,f64 -n 16,32,64 -batch 8192 -arms ref:cublas,auto"
	"$R -op trsm -dtype f32,f64 -n 16,32,64 -batch 8192 -arms vendor,auto"
	"$R -op potrf,getrf -dtype f32 -n 2,3,4 -batch 1048576 -arms vendor,auto"
	"$R -op potrf,getrf -dtype f64 -n 2,3,4 -batch 262144 -arms vendor,auto"
	"$R -op potrf,getrf,trsm -dtype c64,c128 -n 32 -batch 8192 -arms vendor,auto"
	"$R -op geqrf -dtype c64,c128 -n 32 -batch 8192 -arms ref:cublas,auto"
)
bench=$(printf '%s;' "${runs[@]}")
BUILD=0 TESTS=TestCUDADevice BENCH="$bench" bash bench/device.sh
