#!/bin/sh
# SIGKILL `perfkit record` mid-run: the file it leaves (the temporary
# .NAME.perfkit-* or NAME itself) must still be readable, with a warning that
# it was not finalized, and hold the samples written before the kill.
set -u
: "${PERFKIT:?}"
[ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0 ] || exit 77
t=$(mktemp -d)
work=
cleanup() {
	[ -n "$work" ] && kill "$work" 2>/dev/null
	rm -rf "$t"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# -a -g at a high rate fills the 256 KiB write buffer within a second
"$PERFKIT" record -a -g -F 4000 -e cpu-clock -o "$t/k.data" -- \
	sh -c 'echo $$ >"$0"; exec sleep 60' "$t/pid" >"$t/out" 2>"$t/err" &
rec=$!
sleep 3
[ -s "$t/pid" ] && work=$(cat "$t/pid")
kill -0 "$rec" 2>/dev/null || { cat "$t/err"; fail "record exited early"; }
kill -9 "$rec"
wait "$rec" 2>/dev/null
left=$(ls -A "$t" | grep -E '^(\.k\.data\.perfkit-.*|k\.data)$' | head -1)
[ -n "$left" ] || fail "no output file left behind: $(ls -A "$t")"
echo "left behind: $left ($(stat -c %s "$t/$left") bytes)"

"$PERFKIT" report --stats -i "$t/$left" >"$t/stats" 2>"$t/stats.err"
rc=$?
cat "$t/stats" "$t/stats.err"
[ $rc = 0 ] || fail "report --stats exited $rc on the killed recording"
grep -qi "not finalized" "$t/stats.err" || fail "no 'not finalized' warning"
# the SAMPLE line of the stats table: "SAMPLE events: N"
n=$(awk '$1 == "SAMPLE" && $2 == "events:" { print $3; exit }' "$t/stats")
[ -n "$n" ] && [ "$n" -gt 0 ] 2>/dev/null || fail "no samples reported (got '$n')"
echo "ok: $n samples recovered"
