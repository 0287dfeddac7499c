#!/usr/bin/env bash
# The H200 issue's timings of the native eigensolver, SVD and least squares against every
# vendor route, measured with 15 repetitions, arms interleaved in both orders in one process
# and every output verified, on the committed fatbins: run from the
# repository root with .dev carried (make device-bundle). Arms: auto (the router's choice:
# with no sm_90 table yet, the first native family that can run), each native family pinned,
# and cuSOLVER's routes forced one by one (ref:syevj syevjBatched, ref:xsyev XsyevBatched;
# vendor, the family's own choice, for gesvd and gels). An arm that fails (XsyevBatched's
# workspace at n = 3, say) is recorded with its error. JSON lines and the table go to $OUT.
# PART picks a subset: syev, syevn (NoVectors), gesvd, gels; all by default.
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
runs=()
for p in ${PART:-syev syevn gesvd gels}; do
	declare -n set=$p
	runs+=("${set[@]}")
done
bench=$(printf '%s;' "${runs[@]}")
STAGES=bench BENCH="$bench" bash bench/h200.sh
