#!/bin/bash
# perfkit record exits as perf record does: the command's exit status, the
# signal that killed it raised again, 255 when the command cannot run, and
# the signal that stopped the recording.  perf 6.1 gives the expected codes.
set -u
PERF=${PERF:-perf}
command -v "$PERF" >/dev/null || { echo "perf not installed: skip"; exit 77; }
PK=${PERFKIT:?}
T=$(mktemp -d /tmp/pk-record-exit.XXXXXX)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
failed=0

if ! "$PK" record -q -e cpu-clock -o probe.data -- true 2>probe.err; then
	grep -q "permission\|paranoid" probe.err && { echo "no perf_event_open: skip"; exit 77; }
	cat probe.err; exit 1
fi

# the exit code of "TOOL record ... -- CMD..."
code() {
	local tool=$1; shift
	"$tool" record -q -e cpu-clock -F 200 -o "$T/x.data" -- "$@" >/dev/null 2>&1
	echo $?
}

check() {
	local want got
	want=$(code "$PERF" "$@")
	got=$(code "$PK" "$@")
	if [ "$want" = "$got" ]; then
		echo "ok: '$*' exits $got as with perf"
	else
		echo "FAIL: '$*': perfkit exits $got, perf $want"; failed=1
	fi
}

check true
check sh -c 'exit 3'
check timeout 1 sleep 5
check sh -c 'kill -TERM $$'
check sh -c 'kill -KILL $$'
check /nonexistent-command
check /etc/passwd

# a signal to the recorder alone, once its file exists (polled): the
# command gets SIGTERM from it, and that signal is raised again
stopped() {
	local tool=$1 sig=$2 p rc
	rm -f "$T/y.data"
	"$tool" record -q -e cpu-clock -F 200 -o "$T/y.data" -- sleep 10 >/dev/null 2>&1 &
	p=$!
	for _ in $(seq 200); do
		[ -s "$T/y.data" ] && break
		sleep 0.05
	done
	kill -"$sig" "$p"
	wait "$p"
	rc=$?
	echo $rc
}
for sig in INT TERM; do
	want=$(stopped "$PERF" "$sig")
	got=$(stopped "$PK" "$sig")
	if [ "$want" = "$got" ]; then
		echo "ok: SIG$sig to the recorder: $got as with perf"
	else
		echo "FAIL: SIG$sig to the recorder: perfkit exits $got, perf $want"; failed=1
	fi
done
exit $failed
