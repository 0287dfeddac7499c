#!/usr/bin/env bash
# A round on the H200 for the H200 issue, from the repository root with .dev carried (make
# device-bundle). STAGES picks, in order, from:
#   build   every fatbin (or those of BUILD_SRCS, kernels/build.sh's arguments) rebuilt from a
#           scratch copy of kernels/ with the machine's nvcc
#           (kernels/build.sh: sm_80, sm_89, sm_90, sm_120, compute_80 PTX); the fatbins and
#           MANIFEST come back as fatbins.tgz, the ptxas report as kernels_build.log.gz and the
#           sm_90 lines and any spill as kernels_resources.txt. The later stages use them.
#   suite   the conformance suite with -tags cuda (every queue, every family pinned and
#           Auto; SUITE_RUN narrows it as -test.run does): suite.log.gz, and the counts printed.
#   census  the suite built with -tags "cuda novendor" writing its coverage rows:
#           census_cov.jsonl (here: go run ./vendorfree -from it).
#   bench   the batchbench runs in BENCH (';'-separated lines of flags): bench.jsonl, bench.txt.
# Without build, the stages run on the committed fatbins (kernels/).
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export BATCHLAS_CUDA_KERNELS=$PWD/kernels
for stage in ${STAGES:-build suite census}; do
	start=$(date +%s)
	case $stage in
	build)
		scratch=$(mktemp -d)
		cp -r kernels "$scratch/kernels" && rm -rf "$scratch/kernels/emu"
		if ! (cd "$scratch/kernels" && ./build.sh ${BUILD_SRCS:-}) >"$OUT/kernels_build.log" 2>&1; then
			grep -B2 -A8 -i "error" "$OUT/kernels_build.log" | head -60
			gzip -f "$OUT/kernels_build.log"
			exit 1
		fi
		export BATCHLAS_CUDA_KERNELS=$scratch/kernels
		tar czf "$OUT/fatbins.tgz" -C "$scratch/kernels" $(cd "$scratch/kernels" && ls *.fatbin) MANIFEST
		grep -E "^== |spill|Used|Compiling" "$OUT/kernels_build.log" |
			awk '/^== /{src=$2} /Compiling entry/{fn=$7; arch=$9} /spill/{if ($5+0 > 0 || $9+0 > 0) print "SPILL", src, fn, arch, $5, "stores", $9, "loads"} /Used/{if (arch ~ /sm_90/) print src, fn, $5, "registers"}' \
			>"$OUT/kernels_resources.txt"
		echo "build: $(grep -c '^==' "$OUT/kernels_build.log") sources, spills: $(grep -c '^SPILL' "$OUT/kernels_resources.txt") ($(grep '^SPILL' "$OUT/kernels_resources.txt" | grep -c "'sm_90'") on sm_90)"
		gzip -f "$OUT/kernels_build.log"
		;;
	suite)
		(cd tests && timeout "${SUITE_TIMEOUT:-420}" ../.dev/tests.test -test.v -test.timeout 30m -test.run "${SUITE_RUN:-.}") >"$OUT/suite.log" 2>&1
		echo "suite: rc=$? pass=$(grep -c -- '--- PASS' "$OUT/suite.log") fail=$(grep -c -- '--- FAIL' "$OUT/suite.log") skip=$(grep -c -- '--- SKIP' "$OUT/suite.log")"
		grep -- "--- FAIL" "$OUT/suite.log" | head -20
		gzip -f "$OUT/suite.log"
		;;
	census)
		(cd tests && BATCHLAS_COVERAGE_OUT="$OUT/census_cov.jsonl" timeout "${CENSUS_TIMEOUT:-300}" ../.dev/census.test -test.timeout 30m) >"$OUT/census.log" 2>&1
		echo "census: rc=$? rows=$(wc -l <"$OUT/census_cov.jsonl") misses=$(grep -c '"miss"' "$OUT/census_cov.jsonl")"
		gzip -f "$OUT/census.log"
		;;
	bench)
		IFS=';' read -ra runs <<<"${BENCH:-}"
		for r in "${runs[@]}"; do
			[ -n "$r" ] || continue
			echo "== batchbench $r" >>"$OUT/bench.txt"
			.dev/batchbench -backend cuda $r -json "$OUT/bench.jsonl" >>"$OUT/bench.txt" 2>&1
		done
		;;
	*)
		echo "h200.sh: unknown stage $stage"; exit 1
		;;
	esac
	echo "($stage: $(($(date +%s) - start)) s)"
done
true
