#!/bin/sh
# Regenerate tests/header/expected/ from the real perf (6.1):
# NAME.txt is `perf report --header-only`, NAME.I.txt the same with -I, for
# every corpus file perf reads and every file in tests/header/data/.  The
# "captured on" line (the input's mtime, which a checkout changes) is left
# out; header_compare.sh checks it on its own.  Known differences
# (NAME*.known-diff) are written by hand, not by this script.
set -eu
# the reference time of CLOCK_DATA is printed in local time
export TZ=UTC LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
corpus=${PERFKIT_CORPUS:-$here/../../build/tests/data/corpus}
[ -d "$corpus/quipper" ] || { echo "no corpus at $corpus: build first (tests/data is unpacked there) or set PERFKIT_CORPUS" >&2; exit 1; }
mkdir -p "$here/expected"
for f in "$corpus"/*/* "$here"/data/*.data; do
	name=$(basename "$f")
	case $name in *.md) continue ;; esac
	for mode in "" "-I"; do
		out="$here/expected/$name${mode:+.I}.txt"
		if perf report --header-only $mode -i "$f" >"$out.tmp" 2>/dev/null &&
			head -n 1 "$out.tmp" | grep -q '^# ========$'; then
			grep -v '^# captured on    : ' "$out.tmp" >"$out"
			echo "perf: $name $mode"
		else
			echo "perf refuses: $name $mode"
		fi
		rm -f "$out.tmp"
	done
done
