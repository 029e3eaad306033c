#!/bin/sh
# SIGKILL `perfkit record -o NAME` at several moments, from startup to well
# into the run.  NAME is created with its header before any event is
# enabled, so after each kill either NAME does not exist yet (killed during
# startup, before the header was on disk: the previous file is still there as
# NAME or NAME.old) or `perfkit report --stats -i NAME` reads it, warns that
# it was not finalized, and (for the longer runs) reports the samples
# written before the kill.  A last run checks that a finished recording still
# reads clean and that the one before it was kept as NAME.old.
set -u
: "${PERFKIT:?}"
[ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0 ] || exit 77
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# a duration no other process on the machine has on its command line
workload=30.$$

samples() {
	awk '$1 == "SAMPLE" && $2 == "events:" { print $3; exit }' "$1"
}

# one kill after $1 seconds; $2 = 1 when samples must have been written
kill_after() {
	rm -f "$t/k.data" "$t/k.data.old" "$t"/.k.data.perfkit-*
	# -a -g at a high rate fills the 256 KiB write buffer within a second
	"$PERFKIT" record -a -g -F 4000 -e cpu-clock -o "$t/k.data" -- sleep "$workload" \
		>"$t/out" 2>"$t/err" &
	rec=$!
	sleep "$1"
	kill -0 "$rec" 2>/dev/null || { cat "$t/err"; fail "record exited before ${1}s"; }
	kill -9 "$rec"
	wait "$rec" 2>/dev/null
	# the workload outlives a killed recorder: end it, and only it
	pkill -f "^sleep $workload\$" 2>/dev/null
	stray=$(ls -A "$t" | grep -v -E '^(k\.data|out|err|stats|stats\.err)$')
	if [ ! -e "$t/k.data" ]; then
		[ "$2" = 0 ] || fail "no k.data after ${1}s"
		echo "killed at ${1}s: before the header was written (no k.data)"
		return
	fi
	"$PERFKIT" report --stats -i "$t/k.data" >"$t/stats" 2>"$t/stats.err"
	rc=$?
	[ $rc = 0 ] || { cat "$t/stats.err"; fail "report --stats exited $rc after a kill at ${1}s"; }
	grep -qi "not finalized" "$t/stats.err" || fail "no 'not finalized' warning (${1}s)"
	n=$(samples "$t/stats")
	if [ "$2" = 1 ]; then
		[ -n "$n" ] && [ "$n" -gt 0 ] 2>/dev/null ||
			fail "no samples reported after a kill at ${1}s (got '$n')"
	fi
	echo "killed at ${1}s: $(stat -c %s "$t/k.data") bytes, ${n:-0} samples read back" \
		"${stray:+(also left: $stray)}"
}

for d in 0.01 0.05 0.2 0.6; do
	kill_after "$d" 0
done
kill_after 2.5 1
kill_after 3 1

# a finished run: no warning; the killed one before it became k.data.old
"$PERFKIT" record -e cpu-clock -o "$t/k.data" -- true >"$t/out" 2>"$t/err" ||
	{ cat "$t/err"; fail "record failed"; }
[ -s "$t/k.data.old" ] || fail "the previous k.data was not kept as k.data.old"
"$PERFKIT" report --stats -i "$t/k.data" >"$t/stats" 2>"$t/stats.err" ||
	fail "report --stats failed on a finished file"
! grep -qi "not finalized" "$t/stats.err" || fail "a finished file reads as not finalized"
ls -A "$t" | grep -q '\.perfkit-' && fail "temporary file left behind: $(ls -A "$t")"
echo ok
