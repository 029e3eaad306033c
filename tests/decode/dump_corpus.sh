#!/bin/sh
# perfkit report -D over every corpus file: exit 0 on the good files, one
# error line and a non-zero exit on the corrupt one, and as many
# PERF_RECORD_SAMPLE lines as perf report --stats counts samples (for the
# files perf can read).
set -u
corpus=${PERFKIT_CORPUS:?}
perfkit=${PERFKIT:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
checked=0
compared=0

for f in "$corpus"/quipper/perf.data.* "$corpus"/linux-perf-data/*.data; do
	[ -f "$f" ] || continue
	name=$(basename "$f")
	"$perfkit" report -D -i "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	checked=$((checked + 1))
	case "$name" in
	*corrupted*)
		lines=$(wc -l <"$tmp/err")
		if [ "$rc" -eq 0 ] || [ "$lines" -ne 1 ]; then
			echo "FAIL $name: want non-zero exit and 1 error line, got rc=$rc, $lines lines"
			cat "$tmp/err"
			fail=1
		fi
		continue
		;;
	esac
	if [ "$rc" -ne 0 ]; then
		echo "FAIL $name: exit $rc"
		head -3 "$tmp/err"
		fail=1
		continue
	fi
	command -v perf >/dev/null 2>&1 || continue
	perf report --stats -i "$f" >"$tmp/stats" 2>"$tmp/perr" || continue
	# perf 6.1 cannot unpack some newer files and says so, exit 0 or not
	grep -q 'failed to process\|Couldn' "$tmp/perr" && continue
	# the first SAMPLE line is in the aggregated section (absent: 0)
	want=$(awk '/^ *SAMPLE events:/ { print $3; exit }' "$tmp/stats")
	want=${want:-0}
	got=$(grep -c ': PERF_RECORD_SAMPLE' "$tmp/out")
	compared=$((compared + 1))
	if [ "$got" != "$want" ]; then
		echo "FAIL $name: $got PERF_RECORD_SAMPLE lines, perf counts $want samples"
		fail=1
	fi
done

if [ "$checked" -eq 0 ]; then
	echo "no corpus files in $corpus"
	exit 77
fi
echo "$checked files dumped, $compared sample counts compared with perf"
exit $fail
