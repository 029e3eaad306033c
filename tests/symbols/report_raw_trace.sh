#!/bin/sh
# perf report --raw-trace against perf on tracepoint recordings made here:
# the trace key's values are the event's own fields, each " name=value"
# (numbers as numbers: prev_state=1 where the print line says S, no
# "==>"), printed as perf 6.1's own libtraceevent does (target_cpu=1
# where a newer one follows the print line's %03d), the column as wide
# as the longest.  With -a (a dummy event beside the tracepoints) the
# default keys stay comm,dso,sym.
# shellcheck source=SCRIPTDIR/compare_lib.sh
. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"
n=0
run() { # label file args...
	check_report "$@"
	n=$((n + 1))
}
work="ls / >/dev/null; sh -c true; ls /usr >/dev/null"
perf record -q -g -e sched:sched_switch -e sched:sched_wakeup -e sched:sched_process_exec \
	-e sched:sched_process_exit -o "$tmp/tp.data" -- sh -c "$work" >/dev/null 2>&1 ||
	{ echo "perf record of tracepoints not permitted"; exit 77; }
f=$tmp/tp.data
# a file of tracepoints alone, without --sort: perf's default is then a
# column per field (trace_fields), which perfkit refuses in one line
"$PERFKIT" report -i "$f" --stdio --raw-trace >"$tmp/out" 2>"$tmp/err"
st=$?
if [ $st -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q trace_fields "$tmp/err"; then
	same=$((same + 1))
else
	echo "FAIL --raw-trace without --sort: status $st"
	head -3 "$tmp/err" "$tmp/out"
	fail=1
fi
n=$((n + 1))
for a in "-s trace --raw-trace" \
	"-s trace --raw-trace --no-children -g none" "-s trace,comm --raw-trace -n" \
	"-s comm,dso --raw-trace"; do
	# shellcheck disable=SC2086 # a is words
	run raw-trace "$f" $a
done
# system-wide, where this machine allows it: every task's switches
cmp_missing=skip
perf record -q -e sched:sched_switch -a -o "$tmp/sw.data" -- sh -c "$work" >/dev/null 2>&1 ||
	echo "note: perf record -a not permitted, system-wide checks skipped"
for a in "--raw-trace" "-s trace --raw-trace" "-s trace"; do
	# shellcheck disable=SC2086
	run raw-trace-a "$tmp/sw.data" $a
done
cmp_finish "outputs identical to perf" $n
