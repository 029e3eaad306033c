#!/bin/sh
# perfkit report --header-only [-I] against perf's output (expected/, made by
# regen-expected.sh) for every corpus file perf reads and tests/header/data/.
#
# The "captured on" line is checked against the input's mtime in ctime(3)
# format (as perf prints it) and left out of the comparison, since a checkout
# changes mtimes.
#
# Known differences, each in expected/NAME.known-diff as the exact output of
# `diff expected ours` (reviewed by hand):
#  - perf.data.weight_struct.I: its CPU_TOPOLOGY strings are padded to 8
#    bytes, not perf's 64.  perf 6.1 estimates the bytes it consumed
#    assuming 64-byte padding, concludes the core/socket ids are absent and
#    prints "Core ID and Socket ID information is not available"; perfkit
#    decodes the ids that are there and prints them.
#
# Files perf refuses (newer attr size) must still print a header without
# error.
set -u
export TZ=UTC LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
corpus=${PERFKIT_CORPUS:?PERFKIT_CORPUS must name the corpus (tests/data, unpacked)}
perfkit=${PERFKIT:?PERFKIT must name the perfkit binary}
[ -d "$corpus" ] || { echo "FAIL: no corpus at $corpus"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 nr=0

check_one() { # input name mode
	f=$1 name=$2 mode=$3
	exp="$here/expected/$name${mode:+.I}.txt"
	known="$here/expected/$name${mode:+.I}.known-diff"
	if ! "$perfkit" report --header-only $mode -i "$f" >"$tmp/out" 2>"$tmp/err"; then
		echo "FAIL $name $mode: exit status"; cat "$tmp/err"; fail=1; return
	fi
	want="# captured on    : $(date -d "@$(stat -c %Y "$f")" '+%a %b %e %H:%M:%S %Y')"
	if [ "$(sed -n 2p "$tmp/out")" != "$want" ]; then
		echo "FAIL $name $mode: line 2 is not '$want'"; fail=1
	fi
	grep -v '^# captured on    : ' "$tmp/out" >"$tmp/ours"
	[ -f "$exp" ] || return 0
	nr=$((nr + 1))
	diff "$exp" "$tmp/ours" >"$tmp/diff"
	if [ -f "$known" ]; then
		cmp -s "$known" "$tmp/diff" || { echo "FAIL $name $mode: not the known difference";
			diff "$known" "$tmp/diff" | head -20; fail=1; }
	elif [ -s "$tmp/diff" ]; then
		echo "FAIL $name $mode:"; head -20 "$tmp/diff"; fail=1
	fi
}

for f in "$corpus"/*/* "$here"/data/*.data; do
	name=$(basename "$f")
	case $name in *.md) continue ;; esac
	for mode in "" "-I"; do
		check_one "$f" "$name" "$mode"
	done
done
echo "$nr outputs compared with perf"
[ "$nr" -gt 0 ] || { echo "FAIL: no expected files"; exit 1; }
exit $fail
