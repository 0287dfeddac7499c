#!/usr/bin/env bash
# variants.sh V...: for each variants/V.cuh (kernels/syev/bisect.cuh with another read-ahead
# depth or L1 prefetch, written beside this script by hand and carried, not committed: the
# header of bench/results/sm_90/issue26/round10_variants.txt says what each of round 10's six
# changed), the syev cta and blocked
# kernels rebuilt for sm_90 alone in a scratch copy of kernels/, then batchbench's
# cta:tri=1 arm on each at the shapes below, the variants alternated in two passes (the
# second in reverse order). From the repository root with .dev carried; output in
# $OUT/variants.txt and $OUT/variants.jsonl.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
for z in .dev/*.gz; do [ -e "$z" ] && gunzip -f "$z"; done
chmod +x .dev/batchbench
for v in "$@"; do
	d=/tmp/variant_$v
	rm -rf "$d" && mkdir -p "$d" && cp -r kernels "$d/" && cp "bench/syevprobe/variants/$v.cuh" "$d/kernels/syev/bisect.cuh"
	(cd "$d/kernels" && ARCHS=90 ./build.sh syev/syev_cta.cu syev/syev_blocked.cu >"$OUT/build_$v.log" 2>&1; echo "$v build rc=$?") &
done
wait
for v in "$@"; do
	echo "$v: $(awk '/Compiling entry/{fn=$7} /spill/{sp=$5"/"$9} /Used/{if (fn ~ /bisect/) printf "%s %s regs spill %s; ", fn, $5, sp}' "$OUT/build_$v.log")"
done | tee "$OUT/variants_regs.txt"
lines=("-dtype f32,f64,c64 -n 64 -batch 1024" "-dtype f32,c128 -n 16,32 -batch 8192" "-dtype f32,f64 -n 128 -batch 512")
order=("$@")
for pass in 1 2; do
	for v in "${order[@]}"; do
		for l in "${lines[@]}"; do
			echo "== $v pass $pass: $l" >>"$OUT/variants.txt"
			BATCHLAS_CUDA_KERNELS=/tmp/variant_$v/kernels timeout 120 .dev/batchbench -backend cuda -op syev $l -reps 15 -arms cta:tri=1 \
				-json "$OUT/variants_$v.jsonl" >>"$OUT/variants.txt" 2>&1 || echo "(exit $?)" >>"$OUT/variants.txt"
		done
	done
	order=($(printf '%s\n' "${order[@]}" | tac))
done
# ms by variant and shape: the two passes' medians.
for v in "$@"; do
	grep -h '"arm":"cta:tri=1"' "$OUT/variants_$v.jsonl" | sed 's/.*"dtype":"\([a-z0-9]*\)".*"ms":\([0-9.]*\).*"n":\([0-9]*\).*/\1 n=\3 \2/' |
		awk -v v="$v" '{k=$1" "$2; a[k]=a[k]" "$3} END {for (k in a) print v, k, a[k]}' | sort
done | tee "$OUT/variants_ms.txt"
