#!/bin/sh
# Regenerate tests/reader/expected/*.stats from the real perf (6.1) for every
# corpus file it can read.  Files perf refuses get no expected file: the test
# checks them against count_records.py instead.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
corpus=${PERFKIT_CORPUS:-$here/../../build/tests/data/corpus}
[ -d "$corpus/quipper" ] || { echo "no corpus at $corpus: build first (tests/data is unpacked there) or set PERFKIT_CORPUS" >&2; exit 1; }
mkdir -p "$here/expected"
for f in "$corpus"/*/*; do
	case $f in *.md) continue ;; esac
	name=$(basename "$f")
	if perf report --stats -i "$f" >"$here/expected/$name.stats.tmp" 2>/dev/null &&
		grep -q "Aggregated stats" "$here/expected/$name.stats.tmp"; then
		mv "$here/expected/$name.stats.tmp" "$here/expected/$name.stats"
		echo "perf: $name"
	else
		rm -f "$here/expected/$name.stats.tmp"
		echo "perf refuses: $name"
	fi
done
