#!/bin/bash
# perfkit record with no command records the whole system until SIGINT, as
# perf does: started in the background, stopped once its file has samples,
# then read by perf.
set -u
PERF=${PERF:-perf}
command -v "$PERF" >/dev/null || { echo "perf not installed: skip"; exit 77; }
PK=${PERFKIT:?}
T=$(mktemp -d /tmp/pk-record-sys.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; rm -rf "$T"' EXIT
failed=0

"$PK" record -q -e cpu-clock -F 500 -o "$T/s.data" 2>"$T/err" &
pid=$!
# poll until the file holds samples (the reader takes the unfinished file)
n=0
for _ in $(seq 200); do
	kill -0 "$pid" 2>/dev/null || break
	n=$("$PK" report --stats -i "$T/s.data" 2>/dev/null |
		awk '/SAMPLE events:/ {print $3; exit}')
	[ "${n:-0}" -gt 0 ] && break
	sleep 0.05
done
if [ "${n:-0}" -eq 0 ]; then
	echo "FAIL: no samples while recording: $(head -c 300 "$T/err")"
	exit 1
fi
kill -INT "$pid"
wait "$pid"
rc=$?
pid=
# perf record -a stopped by SIGINT raises it again: 128 + 2
[ "$rc" = 130 ] && echo "ok: exit 130 after SIGINT" || { echo "FAIL: exit $rc"; failed=1; }
if ! "$PERF" report --stats -i "$T/s.data" >"$T/stats" 2>"$T/perr" || [ -s "$T/perr" ]; then
	echo "FAIL: perf report --stats: $(head -c 300 "$T/perr")"; exit 1
fi
samples=$(awk '/SAMPLE events:/ {print $3; exit}' "$T/stats")
[ "${samples:-0}" -gt 0 ] && echo "ok: perf counts $samples samples" ||
	{ echo "FAIL: perf counts no samples"; failed=1; }
# system-wide: the samples carry a CPU and come from more than one task
"$PERF" script -F comm,pid,cpu -i "$T/s.data" >"$T/script" 2>"$T/perr"
tasks=$(awk '{print $2}' "$T/script" | sort -u | wc -l)
if grep -q '\[[0-9]*\]' "$T/script" && [ "$tasks" -gt 1 ]; then
	echo "ok: perf script: $tasks tasks, with CPUs"
else
	echo "FAIL: perf script: $tasks tasks: $(head -3 "$T/script")"; failed=1
fi
exit $failed
