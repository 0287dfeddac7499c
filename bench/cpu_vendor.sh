#!/usr/bin/env bash
# The host vendor family (system LAPACK through purego) against the pure-Go host family:
# float64 and complex128, n = 16, 64, 256, arms interleaved in one process in
# both orders, every timed output verified. Appends JSON lines to $OUT_DIR/<op>.jsonl
# (default bench/results/cpu) and the machine's load before and after each op to
# $OUT_DIR/load.txt.
# Usage: bench/cpu_vendor.sh [op ...]   (default: potrf getrf geqrf syev gesvd)
# Environment: REPS (15); BIN, a prebuilt `go build -tags host ./cmd/batchbench` for a
# machine without Go; SIZES_FACTOR and SIZES_DECOMP, n:batch lists for the factorizations
# (potrf, getrf, geqrf) and the decompositions (syev, gesvd).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/cpu_env.sh
for op in ${@:-potrf getrf geqrf syev gesvd}; do
	# Batches that keep one call between a few ms and a few s on a small machine.
	case $op in
	potrf | getrf | geqrf) sizes=${SIZES_FACTOR:-16:4096 64:512 256:32} ;;
	*) sizes=${SIZES_DECOMP:-16:1024 64:128 256:8} ;;
	esac
	echo "$(date -u +%FT%TZ) $op start: $(uptime)" >>"$out/load.txt"
	for nb in $sizes; do
		"$bin" -op "$op" -dtype f64,c128 -n "${nb%:*}" -batch "${nb#*:}" \
			-arms vendor,host -reps "$reps" -json "$out/$op.jsonl"
	done
	echo "$(date -u +%FT%TZ) $op end:   $(uptime)" >>"$out/load.txt"
done
