#!/usr/bin/env bash
# One round on the GPU machine, from the repository root, with .dev carried (make
# device-bundle, whose binaries leave the fatbins out): builds the fatbins from a scratch copy
# of kernels/ (ARCHS as kernels/build.sh takes it; BUILD=0 takes the committed ones instead),
# runs the conformance suite under every native family's pin with them, then the root
# package's tests matching ROOT_TESTS (if set), then the benchmarks named in BENCH (lines of
# batchbench flags, ';'-separated). Logs and the fatbins (fatbins.tgz, with the MANIFEST) go
# to $OUT; a short summary is printed last.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
if [ "${BUILD:-1}" = 0 ]; then
	export BATCHLAS_CUDA_KERNELS=$PWD/kernels
else
	scratch=$(mktemp -d)
	cp -r kernels "$scratch/kernels" && rm -rf "$scratch/kernels/emu"
	export BATCHLAS_CUDA_KERNELS=$scratch/kernels
	if ! (cd "$BATCHLAS_CUDA_KERNELS" && ./build.sh) >"$OUT/kernels_build.log" 2>&1; then
		grep -B2 -A8 -i "error" "$OUT/kernels_build.log" | head -80
		exit 1
	fi
	tar czf "$OUT/fatbins.tgz" -C "$BATCHLAS_CUDA_KERNELS" $(cd "$BATCHLAS_CUDA_KERNELS" && ls *.fatbin) MANIFEST
	grep -E "^== |spill|Used" "$OUT/kernels_build.log" | grep -B1 -E "sm_90|spill" | grep -vE "^--" >"$OUT/kernels_resources.txt" || true
fi
(cd tests && timeout ${TEST_TIMEOUT:-240} ../.dev/tests.test -test.run "${TESTS:-Test(RouteEveryFamilyPinned|BatchIdenticalItems)/sm_90/.*/(tiny|warp|regs|cta)|TestCUDA}" -test.v) >"$OUT/native_tests.log" 2>&1
echo "tests: rc=$? pass=$(grep -c -- '--- PASS' "$OUT/native_tests.log") fail=$(grep -c -- '--- FAIL' "$OUT/native_tests.log") skip=$(grep -c -- '--- SKIP' "$OUT/native_tests.log")"
grep -- "--- FAIL" "$OUT/native_tests.log" | head -20
if [ -n "${ROOT_TESTS:-}" ]; then
	.dev/root.test -test.run "$ROOT_TESTS" -test.v >"$OUT/root_tests.log" 2>&1
	echo "root tests: rc=$? pass=$(grep -c -- '--- PASS' "$OUT/root_tests.log") fail=$(grep -c -- '--- FAIL' "$OUT/root_tests.log")"
	grep -- "--- FAIL" "$OUT/root_tests.log" | head -20
fi
IFS=';' read -ra runs <<<"${BENCH:-}"
for r in "${runs[@]}"; do
	[ -n "$r" ] || continue
	echo "== batchbench $r" >>"$OUT/bench.txt"
	.dev/batchbench -backend cuda $r -json "$OUT/bench.jsonl" >>"$OUT/bench.txt" 2>&1
done
[ -f "$OUT/bench.txt" ] && grep -vE "^==|^ +op |^batchlas" "$OUT/bench.txt" | awk '{print $1,$2,$3,$4,$6,$7,$8,$11,$13}'
true
