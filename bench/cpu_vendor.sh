#!/usr/bin/env bash
# The host vendor family (system LAPACK through purego) against the pure-Go host family, as
# issue 4 asks: float64 and complex128, n = 16, 64, 256, arms interleaved in one process in
# both orders, every timed output verified. Appends JSON lines to bench/results/cpu/<op>.jsonl
# and the machine's load before and after each op to bench/results/cpu/load.txt.
# Usage: bench/cpu_vendor.sh [op ...]   (default: potrf getrf geqrf syev gesvd)
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/results/cpu
reps=${REPS:-15}
go build -tags host -o /tmp/batchbench-host ./cmd/batchbench
for op in "${@:-potrf getrf geqrf syev gesvd}"; do
	for op1 in $op; do
		# Batches that keep one call between a few ms and a few s on a small machine.
		case $op1 in
		potrf | getrf | geqrf) sizes="16:4096 64:512 256:32" ;;
		*) sizes="16:1024 64:128 256:8" ;;
		esac
		echo "$(date -u +%FT%TZ) $op1 start: $(uptime)" >>$out/load.txt
		for nb in $sizes; do
			/tmp/batchbench-host -op "$op1" -dtype f64,c128 -n "${nb%:*}" -batch "${nb#*:}" \
				-arms vendor,host -reps "$reps" -json "$out/$op1.jsonl"
		done
		echo "$(date -u +%FT%TZ) $op1 end:   $(uptime)" >>$out/load.txt
	done
done
