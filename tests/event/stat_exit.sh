#!/bin/sh
# perfkit stat's exit status follows perf's: the command's code, 0 when the
# command was killed, 255 when it cannot be started; Ctrl-C (SIGINT to
# perfkit) reaches the command and the counts are still printed.
set -u
W=$1
fail() { echo "FAIL: $*"; exit 1; }
"$PERFKIT" stat -e task-clock true 2>/dev/null || { echo "cannot count here"; exit 77; }

"$PERFKIT" stat -e task-clock "$W" 10 3 2>/dev/null; rc=$?
[ $rc = 3 ] || fail "exit 3 gave $rc"
"$PERFKIT" stat -e task-clock sh -c 'exit 42' 2>/dev/null; rc=$?
[ $rc = 42 ] || fail "exit 42 gave $rc"
out=$("$PERFKIT" stat -e task-clock /nonexistent/cmd 2>&1); rc=$?
[ $rc = 255 ] || fail "missing command gave $rc"
echo "$out" | grep -q 'No such file or directory' || fail "no clear error: $out"
"$PERFKIT" stat -e task-clock sh -c 'kill -9 $$' 2>/dev/null; rc=$?
[ $rc = 0 ] || fail "killed command gave $rc"
# perf's own status, tried up to five times: perf 6.1 itself sometimes
# returns 0 for a command that exited 42 (3 runs in 20 on this VM, more in
# a busy parallel test run), which is perf's problem, not the rule's
perf_status() { # expected command...
	want=$1
	shift
	for try in 1 2 3 4 5; do
		perf stat -e task-clock "$@" 2>/dev/null
		[ $? = "$want" ] && return 0
	done
	return 1
}
if command -v perf >/dev/null 2>&1; then
	perf_status 42 sh -c 'exit 42' || fail "perf disagrees on 42"
	perf_status 0 sh -c 'kill -9 $$' || fail "perf: killed != 0"
fi

# SIGINT to perfkit: forwarded to the command, counts printed.
TMP=$(mktemp)
trap 'rm -f "$TMP"' EXIT
"$PERFKIT" stat -e task-clock,page-faults sleep 5 2>"$TMP" &
pid=$!
sleep 0.5
kill -INT $pid
wait $pid; rc=$?
[ $rc = 0 ] || fail "after SIGINT rc $rc"
grep -q 'page-faults' "$TMP" || fail "no counts after SIGINT: $(cat "$TMP")"
grep -q 'seconds time elapsed' "$TMP" || fail "no elapsed after SIGINT"
# bad options and events: perf's usage exit code and a pointer at the error
"$PERFKIT" stat -e 'cycles:qq' true 2>"$TMP"; rc=$?
[ $rc = 129 ] || fail "bad event gave $rc"
grep -q "^event syntax error: 'cycles:qq'" "$TMP" || fail "no syntax error line"
grep -q '^      *\\___' "$TMP" || fail "no caret line"
"$PERFKIT" stat 2>/dev/null; [ $? = 129 ] || fail "no command: not 129"
"$PERFKIT" stat --help | grep -q -- '--repeat' || fail "--help"
echo ok
