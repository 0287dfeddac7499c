#!/usr/bin/env bash
# A round on the H200 for the H200 issue, from the repository root with .dev carried (make
# device-bundle). STAGES picks, in order, from:
#   build   every fatbin (or those of BUILD_SRCS, kernels/build.sh's arguments) rebuilt from a
#           scratch copy of kernels/ with the machine's nvcc
#           (kernels/build.sh: sm_80, sm_89, sm_90, sm_120, compute_80 PTX); the rebuilt
#           fatbins and MANIFEST come back as fatbins.tgz, the ptxas report as kernels_build.log.gz and the
#           sm_90 lines and any spill as kernels_resources.txt. The later stages use them.
#   suite   the conformance suite with -tags cuda (every queue, every family pinned and
#           Auto), as five parallel shards (SUITE_RUN instead: one process with that
#           -test.run pattern): suite.log.gz, and the counts printed.
#   census  the suite built with -tags "cuda novendor", sharded the same way, writing its
#           coverage rows: census_cov.jsonl (here: go run ./vendorfree -from it), census.log.gz.
#   bench   the batchbench runs in BENCH (';'-separated lines of flags), each cut at
#           BENCH_TIMEOUT seconds (150): bench.jsonl, bench.txt.
# STAGES="suite census" runs them one after the other; "suite+census" runs them together.
# Without build, the stages run on the committed fatbins (kernels/). Binaries in .dev may
# come gzipped (the working tree that travels is limited): they are unpacked first.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
# The build stage's fatbins, in a fixed folder, serve its later stages and later runs of this
# script (KERNELS=/tmp/h200_kernels/kernels); the committed ones otherwise.
export BATCHLAS_CUDA_KERNELS=${KERNELS:-$PWD/kernels}
for z in .dev/*.gz; do [ -e "$z" ] && gunzip -f "$z"; done
chmod +x .dev/*.test .dev/batchbench 2>/dev/null
# shards BIN NAME: the suite binary .dev/BIN as parallel shards (the pinned-family test split
# by op, the rest in one more process, then the memory-cycle test alone; one process over everything runs past a call's
# limit), or as one process over SUITE_RUN's pattern; logs into $OUT/NAME.log, coverage rows
# (census.test) into $OUT/NAME_cov.jsonl, exit codes into rcs.
shards() {
	local pin=TestRouteEveryFamilyPinned/sm_90 i
	local parts=("-test.run $pin/^(potrf|posv|potrs|getrf|getrs|gesv|getri)\$/"
		"-test.run $pin/^(geqrf|orgqr|ormqr|trsm|gels|gemm|gemv|spmm)\$/"
		"-test.run $pin/^(syev|gesvd)\$/"
		"-test.run $pin/^(syrk|herk|syr2k|her2k|trmm|symm|hemm)\$/"
		"-test.skip ^(TestRouteEveryFamilyPinned|TestCUDAQueueCycles)\$")
	[ -n "${SUITE_RUN:-}" ] && parts=("-test.run $SUITE_RUN")
	for i in "${!parts[@]}"; do
		(cd tests && BATCHLAS_COVERAGE_OUT="$OUT/$2_cov_$i.jsonl" timeout "${SUITE_TIMEOUT:-420}" \
			"../.dev/$1" -test.v -test.count=1 -test.timeout 30m ${parts[$i]}) >"$OUT/$2_$i.log" 2>&1 &
	done
	rcs=""
	for job in $(jobs -p); do wait "$job"; rcs="$rcs $?"; done
	# Alone: it compares the device's free memory before and after, which other processes move.
	if [ -z "${SUITE_RUN:-}" ]; then
		(cd tests && "../.dev/$1" -test.v -test.count=1 -test.run '^TestCUDAQueueCycles$') >"$OUT/$2_9.log" 2>&1
		rcs="$rcs $?"
	fi
	cat "$OUT/$2"_[0-9]*.log >"$OUT/$2.log" && rm "$OUT/$2"_[0-9]*.log
	cat "$OUT/$2"_cov_*.jsonl >"$OUT/$2_cov.jsonl" 2>/dev/null; rm -f "$OUT/$2"_cov_*.jsonl
	[ "$1" = census.test ] || rm -f "$OUT/$2_cov.jsonl"
}
for stage in ${STAGES:-build suite census}; do
	start=$(date +%s)
	case $stage in
	build)
		scratch=/tmp/h200_kernels
		rm -rf "$scratch" && mkdir -p "$scratch"
		cp -r kernels "$scratch/kernels" && rm -rf "$scratch/kernels/emu"
		touch "$scratch/kernels/MANIFEST.before" && sleep 1
		if ! (cd "$scratch/kernels" && ./build.sh ${BUILD_SRCS:-}) >"$OUT/kernels_build.log" 2>&1; then
			grep -B2 -A8 -i "error" "$OUT/kernels_build.log" | head -60
			gzip -f "$OUT/kernels_build.log"
			exit 1
		fi
		export KERNELS=$scratch/kernels BATCHLAS_CUDA_KERNELS=$scratch/kernels
		# Only what this build made comes back (all fatbins together exceed a file's limit).
		built=$(cd "$scratch/kernels" && find . -maxdepth 1 -name '*.fatbin' -newer MANIFEST.before -printf '%P\n')
		tar czf "$OUT/fatbins.tgz" -C "$scratch/kernels" $built MANIFEST
		grep -E "^== |spill|Used|Compiling" "$OUT/kernels_build.log" |
			awk '/^== /{src=$2} /Compiling entry/{fn=$7; arch=$9} /spill/{if ($5+0 > 0 || $9+0 > 0) print "SPILL", src, fn, arch, $5, "stores", $9, "loads"} /Used/{if (arch ~ /sm_90/) print src, fn, $5, "registers"}' \
			>"$OUT/kernels_resources.txt"
		echo "build: $(grep -c '^==' "$OUT/kernels_build.log") sources, spills: $(grep -c '^SPILL' "$OUT/kernels_resources.txt") ($(grep '^SPILL' "$OUT/kernels_resources.txt" | grep -c "'sm_90'") on sm_90)"
		gzip -f "$OUT/kernels_build.log"
		;;
	suite)
		shards tests.test suite
		echo "suite: rc=$rcs pass=$(grep -c -- '--- PASS' "$OUT/suite.log") fail=$(grep -c -- '--- FAIL' "$OUT/suite.log") skip=$(grep -c -- '--- SKIP' "$OUT/suite.log")"
		grep -- "--- FAIL" "$OUT/suite.log" | head -20
		gzip -f "$OUT/suite.log"
		;;
	census)
		shards census.test census
		echo "census: rc=$rcs rows=$(wc -l <"$OUT/census_cov.jsonl") misses=$(grep -c '"miss"' "$OUT/census_cov.jsonl")"
		gzip -f "$OUT/census.log"
		;;
	suite+census)
		STAGES=census bash "$0" >"$OUT/census_stage.txt" 2>&1 &
		STAGES=suite bash "$0"
		wait
		cat "$OUT/census_stage.txt" && rm "$OUT/census_stage.txt"
		;;
	bench)
		IFS=';' read -ra runs <<<"${BENCH:-}"
		for r in "${runs[@]}"; do
			[ -n "$r" ] || continue
			echo "== batchbench $r" >>"$OUT/bench.txt"
			# Each line under its own limit, so that one slow line cannot eat the call.
			timeout "${BENCH_TIMEOUT:-150}" .dev/batchbench -backend cuda $r -json "$OUT/bench.jsonl" >>"$OUT/bench.txt" 2>&1 ||
				echo "(exit $?: $r)" >>"$OUT/bench.txt"
		done
		;;
	*)
		echo "h200.sh: unknown stage $stage"; exit 1
		;;
	esac
	echo "($stage: $(($(date +%s) - start)) s)"
done
true
