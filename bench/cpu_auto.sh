#!/usr/bin/env bash
# Auto under -tags host against every pinned family (host: pure Go; vendor: the system LAPACK
# through purego) at shapes between the rows of tuned/<op>.cpu.txt, arms interleaved in one
# process in both orders, every output verified. Appends JSON lines to
# $OUT_DIR/auto_check.jsonl (default bench/results/cpu) and the load before and after to
# $OUT_DIR/load.txt, then prints, per shape, Auto's time over the best pinned family's
# (issue 23's target: at most 1.05).
# Usage: bench/cpu_auto.sh   Environment: REPS (15), BIN (a prebuilt -tags host batchbench),
# DTYPES (f64,f32), SPECS (below).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/cpu_env.sh
json=$out/auto_check.jsonl
start=0
[ -f "$json" ] && start=$(wc -l <"$json")
echo "$(date -u +%FT%TZ) auto check start: $(uptime)" >>"$out/load.txt"
# op n:batch ...: between the tables' rows (gemm 16, 64, 128, 256, 512; the factorizations
# 16, 64, 128, 256, 512; syev 16, 64, 256, 512; gesvd 16, 64, 256).
# SPECS (';'-separated "op n:batch ...") replaces the list.
specs=${SPECS:-"gemm 32:1024 96:256;potrf 32:1024 192:16;getrf 32:1024 192:16;geqrf 32:1024 192:16;syev 32:256 128:32;gesvd 32:256 128:16"}
IFS=';' read -ra specl <<<"$specs"
for spec in "${specl[@]}"; do
	set -- $spec
	op=$1
	shift
	for nb in "$@"; do
		"$bin" -op "$op" -dtype "${DTYPES:-f64,f32}" -n "${nb%:*}" -batch "${nb#*:}" \
			-arms auto,host,vendor -reps "$reps" -json "$json" >/dev/null
	done
done
echo "$(date -u +%FT%TZ) auto check end:   $(uptime)" >>"$out/load.txt"
tail -n +"$((start + 1))" "$json" | python3 -c '
import json, sys, collections
ms = collections.defaultdict(list)
for line in sys.stdin:
    r = json.loads(line)
    ms[(r["op"], r["dtype"], r["n"], r["batch"], r["arm"])].append(r["ms"])
shapes = sorted({k[:4] for k in ms})
print("| op | dtype | n | batch | auto ms | best pinned ms | auto/best |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for s in shapes:
    t = {a: sum(v) / len(v) for (o, d, n, b, a), v in ms.items() if (o, d, n, b) == s and len(v) == 2}
    if "auto" not in t:
        continue
    best = min((v, a) for a, v in t.items() if a != "auto")
    print("| %s | %s | %d | %d | %.4g | %.4g (%s) | %.3f |" % (s + (t["auto"], best[0], best[1], t["auto"] / best[0])))
'
