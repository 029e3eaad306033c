#!/bin/sh
# Like perf, a perf.data owned by neither the user nor root is refused
# unless -f is given.  Needs root to chown; skips otherwise.
set -u
pk=${PERFKIT:?}
corpus=${PERFKIT_CORPUS:?}
[ "$(id -u)" -eq 0 ] || exit 77
src="$corpus/quipper/perf.data.singleprocess-3.4"
[ -f "$src" ] || exit 77
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp "$src" "$dir/other.data"
chown 65534:65534 "$dir/other.data"
if "$pk" report --stats -i "$dir/other.data" >/dev/null 2>"$dir/err"; then
	echo "FAIL: a file owned by uid 65534 was read without -f"
	exit 1
fi
grep -q "owned by uid 65534" "$dir/err" || { echo "FAIL: message"; cat "$dir/err"; exit 1; }
"$pk" report --stats -f -i "$dir/other.data" >/dev/null || { echo "FAIL: -f refused"; exit 1; }
cp "$src" "$dir/mine.data"
"$pk" report --stats -i "$dir/mine.data" >/dev/null || { echo "FAIL: own file refused"; exit 1; }
echo "owner: ok"
