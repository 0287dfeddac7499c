#!/usr/bin/env bash
# Checks that every fatbin in kernels/MANIFEST was built from the sources now in the tree:
# the recorded hash must equal the sha256 of the family's .cu file, the .cuh headers in its
# folder and in kernels/common, and flags.sh, and the fatbin must exist. Needs no nvcc. Each
# line is "hash  name.fatbin  folder/name.cu  nvcc-RELEASE", the last field the toolkit that
# built it. `check_manifest.sh --write nvcc-RELEASE SRC...` (build.sh's last step) records
# those sources' hashes, keeping the other lines.
set -euo pipefail
cd "$(dirname "$0")"

shopt -s nullglob
srchash() { # the sources of one fatbin: its .cu, the headers beside it and in common/, the
	# headers of other folders it includes (kernels/getrf/lu.cuh in getrs_cta.cu), flags.sh
	local dir other
	dir=$(dirname "$1")
	other=$(sed -n 's|^#include "\(\.\./[^"]*\.cuh\)"|\1|p' "$1" | grep -v '^\.\./common/\|^\.\./'"$dir"'/' | sed "s|^|$dir/|" || true)
	cat "$1" "$dir"/*.cuh common/*.cuh $other flags.sh | sha256sum | cut -d' ' -f1
}

if [ "${1:-}" = --write ]; then
	toolkit=$2
	shift 2
	touch MANIFEST
	for src in "$@"; do
		name=$(basename "$src" .cu)
		grep -v "  $name.fatbin  " MANIFEST >MANIFEST.new || true
		echo "$(srchash "$src")  $name.fatbin  $src  $toolkit" >>MANIFEST.new
		sort -k2 MANIFEST.new >MANIFEST
		rm MANIFEST.new
	done
	exit 0
fi

bad=0
for src in */*.cu; do
	name=$(basename "$src" .cu)
	if ! grep -q "  $name.fatbin  $src  nvcc-" MANIFEST; then
		echo "MANIFEST has no entry for $src: run kernels/build.sh $src"; bad=1; continue
	fi
done
while read -r hash fatbin src toolkit; do
	if [ ! -f "$src" ]; then
		echo "MANIFEST names $src, which is gone"; bad=1; continue
	fi
	if [ ! -s "$fatbin" ]; then
		echo "$fatbin is missing: run kernels/build.sh $src"; bad=1; continue
	fi
	if [ -z "$toolkit" ]; then
		echo "MANIFEST does not say which toolkit built $fatbin"; bad=1
	fi
	if [ "$(srchash "$src")" != "$hash" ]; then
		echo "$fatbin is stale: its sources changed since it was built; run kernels/build.sh $src"; bad=1
	fi
done <MANIFEST
exit $bad
