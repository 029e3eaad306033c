#!/bin/sh
# The perf.data examples: write_perf_data's file read by the real perf
# (every sample, the right comm/pid, symbols from the example binary, 75/25
# split), and read_perf_data's sample counts equal to perf report --stats
# on corpus files.
set -u
write=$1 read=$2
: "${PERFKIT_CORPUS:?}"
command -v perf >/dev/null || exit 77
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$write" "$t/w.data" 1000 || fail "write_perf_data failed"
perf script -i "$t/w.data" -F comm,pid,ip,sym 2>/dev/null >"$t/script"
[ "$(grep -c . "$t/script")" = 1000 ] || fail "perf script shows $(grep -c . "$t/script") samples"
[ "$(grep -c '^ *synthetic  *4242 *[0-9a-f]* hot_function$' "$t/script")" = 750 ] ||
	fail "hot_function samples: $(grep -c hot_function "$t/script")"
[ "$(grep -c '^ *synthetic  *4242 *[0-9a-f]* cold_function$' "$t/script")" = 250 ] ||
	fail "cold_function samples"
perf report -i "$t/w.data" --stdio 2>/dev/null >"$t/report"
grep -Eq '^ +75\.00% +synthetic +write_perf_data +\[\.\] hot_function' "$t/report" ||
	fail "perf report: no 75% hot_function line"
grep -Eq '^ +25\.00% +synthetic +write_perf_data +\[\.\] cold_function' "$t/report" ||
	fail "perf report: no 25% cold_function line"
echo "ok write_perf_data: perf reads 1000 samples, 75% hot_function / 25% cold_function"

n=0
for f in "$PERFKIT_CORPUS"/quipper/perf.data.callgraph-3.8 \
	"$PERFKIT_CORPUS"/quipper/perf.data.hw_and_sw-3.4 \
	"$PERFKIT_CORPUS"/quipper/perf.data.group_desc-4.14 \
	"$PERFKIT_CORPUS"/quipper/perf.data.piped.hw_and_sw-3.4; do
	[ -f "$f" ] || continue
	want=$(perf report --stats -i "$f" 2>/dev/null |
		awk '$1 == "SAMPLE" && $2 == "events:" { print $3; exit }')
	got=$("$read" -q "$f" 2>/dev/null | awk '$1 == "total:" { print $2 }')
	[ -n "$want" ] && [ "$got" = "$want" ] || fail "$f: read_perf_data $got samples, perf $want"
	n=$((n + 1))
done
echo "ok read_perf_data: sample counts equal perf's on $n corpus files"
