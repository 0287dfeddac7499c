#!/usr/bin/env bash
# The H200 issue's timings of the native eigensolver, SVD and least squares against every
# vendor route, measured with 15 repetitions, arms interleaved in both orders in one process
# and every output verified, on the committed fatbins: run from the
# repository root with .dev carried (make device-bundle). Arms: auto (the router's choice:
# with no sm_90 table yet, the first native family that can run), each native family pinned,
# and cuSOLVER's routes forced one by one (ref:syevj syevjBatched, ref:xsyev XsyevBatched;
# vendor, the family's own choice, for gesvd and gels). An arm that fails (XsyevBatched's
# workspace at n = 3, say) is recorded with its error. JSON lines and the table go to $OUT.
# PART picks a subset: syev, syevn (NoVectors), gesvd, gels, round3, round4, blocked; the first
# four by default.
set -euo pipefail
R="-reps 15"
syev=(
	"$R -op syev -dtype f32 -n 3 -batch 1048576 -arms auto,ref:syevj,ref:xsyev"
	"$R -op syev -dtype f64 -n 3 -batch 262144 -arms auto,ref:syevj,ref:xsyev"
	"$R -op syev -dtype f32,f64,c64,c128 -n 2,4 -batch 65536 -arms auto,ref:syevj,ref:xsyev"
	"$R -op syev -dtype f32,f64,c64,c128 -n 8,16,32 -batch 8192 -arms auto,jacobi,cta,ref:syevj,ref:xsyev"
	"$R -op syev -dtype f32,f64,c64,c128 -n 48,64 -batch 1024 -arms jacobi,cta,ref:xsyev"
	"$R -op syev -dtype f32,f64,c64,c128 -n 96,128 -batch 512 -arms cta,ref:xsyev"
	"$R -op syev -dtype f32,f64 -n 192 -batch 256 -arms cta,ref:xsyev"
)
syevn=(
	"$R -jobz N -op syev -dtype f32 -n 3 -batch 1048576 -arms auto,ref:syevj,ref:xsyev"
	"$R -jobz N -op syev -dtype f32,f64 -n 32 -batch 8192 -arms jacobi,cta,ref:syevj,ref:xsyev"
	"$R -jobz N -op syev -dtype f32,f64 -n 64,128 -batch 1024 -arms jacobi,cta,ref:xsyev"
)
gesvd=(
	"$R -op gesvd -dtype f32,f64,c64,c128 -n 4,8,16,32 -batch 8192 -arms jacobi:qr=0,vendor"
	"$R -op gesvd -dtype f32 -n 64 -batch 1024 -arms jacobi:qr=0,vendor"
	"$R -op gesvd -dtype f64,c64,c128 -n 64 -batch 256 -arms jacobi:qr=0,vendor"
	"$R -op gesvd -dtype f32,f64 -n 128 -batch 64 -arms jacobi:qr=0,vendor"
)
gels=(
	"$R -op gels -dtype f32,f64,c64,c128 -n 8,16,32 -batch 8192 -arms qr,vendor"
	"$R -op gels -dtype f32,f64 -n 64 -batch 2048 -arms qr,vendor"
)
# The third round: the coalesced tiny family, the parallel tridiagonal solver of cta and
# blocked (TRI_ARMS: their spellings) against XsyevBatched, and the sm_90 rows of gemm and
# spmm (issues 22 and 24).
TRI_ARMS=${TRI_ARMS:-cta:tri=0,cta:tri=1,blocked:tri=1}
round3=(
	"$R -op syev -dtype f32 -n 3 -batch 1048576 -arms tiny,ref:syevj"
	"$R -op syev -dtype f64 -n 3 -batch 262144 -arms tiny,ref:syevj"
	"$R -op syev -dtype f32,f64,c64,c128 -n 4 -batch 65536 -arms tiny,ref:syevj"
	"$R -op syev -dtype f32 -n 8 -batch 65536 -arms tiny,jacobi,ref:syevj"
	"$R -op syev -dtype f32,f64 -n 32 -batch 8192 -arms jacobi,$TRI_ARMS,ref:syevj,ref:xsyev"
	"$R -op syev -dtype f32,f64,c64,c128 -n 64 -batch 1024 -arms $TRI_ARMS,ref:xsyev"
	"$R -jobz N -op syev -dtype f32 -n 64 -batch 1024 -arms $TRI_ARMS,ref:xsyev"
	"$R -op syev -dtype f32,f64 -n 128,256 -batch 256 -arms $TRI_ARMS,ref:xsyev"
	"$R -op syev -dtype f32 -n 512 -batch 256 -arms $TRI_ARMS,ref:xsyev"
	"$R -op gemm -dtype f32,f64 -n 8,32,128,512 -batch 512 -arms small,tiled,vendor"
	"$R -op spmm -dtype f32,f64,c64,c128 -n 16,64,256 -batch 256 -arms direct,vendor"
)
# The fourth round: the cells of tuned/syev.sm_90.txt with the tri=1 members and the tiny
# family (Vectors and NoVectors, every dtype, n from 2 to 256), then gemm's and spmm's sm_90
# rows (issues 22 and 24).
round4=(
	"$R -op syev -dtype f32,f64,c64,c128 -n 2,3,4 -batch 65536 -arms tiny,ref:syevj"
	"$R -op syev -dtype f32,f64,c64,c128 -n 8,16,32 -batch 8192 -arms jacobi,cta:tri=0,cta:tri=1,ref:syevj,ref:xsyev"
	"$R -op syev -dtype f32,f64,c64,c128 -n 48,64 -batch 1024 -arms jacobi,cta:tri=0,cta:tri=1,ref:xsyev"
	"$R -op syev -dtype f32,f64,c64,c128 -n 96,128 -batch 512 -arms cta:tri=0,cta:tri=1,blocked:tri=1,ref:xsyev"
	"$R -op syev -dtype f32,f64 -n 192,256 -batch 256 -arms cta:tri=1,blocked:tri=1,ref:xsyev"
	"$R -jobz N -op syev -dtype f32,f64,c64,c128 -n 4 -batch 65536 -arms tiny,ref:syevj"
	"$R -jobz N -op syev -dtype f32,f64,c64,c128 -n 16,32 -batch 8192 -arms jacobi,cta:tri=0,cta:tri=1,ref:syevj,ref:xsyev"
	"$R -jobz N -op syev -dtype f32,f64,c64,c128 -n 64,128 -batch 1024 -arms cta:tri=0,cta:tri=1,ref:xsyev"
	"$R -op gemm -dtype f32,f64,c64,c128 -n 8,32,128,512 -batch 512 -arms small,tiled,vendor"
	"$R -op spmm -dtype f32,f64,c64,c128 -n 16,64,256 -batch 256 -arms direct,vendor"
)
# Issue 20: the blocked family (latrd panels, the trailing updates by Syr2k, the
# back-transform by Gemm; both tridiagonal solvers) against XsyevBatched, with vectors.
blocked=(
	"$R -op syev -dtype f32,f64 -n 256,512 -batch 256 -arms blocked:tri=0,blocked:tri=1,ref:xsyev"
	"-reps 5 -op syev -dtype f32,f64 -n 1024 -batch 256 -arms blocked:tri=0,blocked:tri=1,ref:xsyev"
)
runs=()
for p in ${PART:-syev syevn gesvd gels}; do
	declare -n set=$p
	runs+=("${set[@]}")
done
bench=$(printf '%s;' "${runs[@]}")
STAGES=bench BENCH="$bench" bash bench/h200.sh
