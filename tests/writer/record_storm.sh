#!/bin/bash
# perfkit record -a under a storm of short processes: every sample has its
# task's comm, as with perf (which gives none without).  Before the /proc
# read was made under a tracking event, a task that ended during the read
# left samples named ":PID" with no maps.
set -u
PERF=${PERF:-perf}
command -v "$PERF" >/dev/null || { echo "perf not installed: skip"; exit 77; }
PK=${PERFKIT:?}
DEMO=${PERFKIT_DEMO:?}
T=$(mktemp -d /tmp/pk-record-storm.XXXXXX)
trap 'rm -rf "$T"' EXIT
failed=0
storm="for i in \$(seq 400); do /bin/true; done; $DEMO 300"

for run in 1 2 3; do
	if ! "$PK" record -q -a -g -o "$T/s.data" -- sh -c "$storm" 2>"$T/err"; then
		echo "FAIL: record: $(head -c 300 "$T/err")"; exit 1
	fi
	"$PERF" script -F comm,pid,ip -i "$T/s.data" >"$T/script" 2>/dev/null
	total=$(grep -cE '^ *[^ ]+ +[0-9]+ *$' "$T/script")
	nocomm=$(grep -cE '^ *:[0-9]+ +[0-9]+ *$' "$T/script")
	if [ "$total" -gt 0 ] && [ "$nocomm" = 0 ]; then
		echo "ok: run $run: $total samples, all with a comm"
	else
		echo "FAIL: run $run: $nocomm of $total samples without a comm:" \
			"$(grep -m3 -E '^ *:[0-9]+ ' "$T/script" | tr -s ' \n' ' ')"
		failed=1
	fi
done
exit $failed
