#!/usr/bin/env bash
# Issue 21's blocked gesvd on the H200: blocked:qr=0:gram=1 (block Jacobi sweeps through the
# public Gemm and Syev, then blocked's kernel as the finishing pass; gesvd_gram_cuda.go)
# against blocked:qr=0:gram=0 (the kernel alone), jacobi:qr=0 where it fits (n = 128 in
# float32) and the vendor, square thin SVDs of order 128, 256 and 512, float32 and float64,
# 15 repetitions, arms interleaved in both orders and every output verified, on the
# committed fatbins: run from the repository root with .dev carried (make device-bundle), as
# bench/issue26.sh. The rows say where gram=1 goes ahead of gram=0 in tuned/gesvd.sm_90.txt and
# whether gesvdGramSweeps needs tuning. JSON lines and the table go to $OUT.
set -euo pipefail
R="-reps 15"
runs=(
	"$R -op gesvd -dtype f32 -n 128 -batch 64 -arms blocked:qr=0:gram=1,blocked:qr=0:gram=0,jacobi:qr=0,vendor"
	"$R -op gesvd -dtype f64 -n 128 -batch 64 -arms blocked:qr=0:gram=1,blocked:qr=0:gram=0,vendor"
	"$R -op gesvd -dtype f32,f64 -n 256 -batch 64 -arms blocked:qr=0:gram=1,blocked:qr=0:gram=0,vendor"
	"$R -op gesvd -dtype f32,f64 -n 512 -batch 16 -arms blocked:qr=0:gram=1,blocked:qr=0:gram=0,vendor"
)
bench=$(printf '%s;' "${runs[@]}")
STAGES=bench BENCH="$bench" bash bench/h200.sh
