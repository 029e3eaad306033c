#!/bin/sh
# Record small workloads with perf (cpu-clock, with and without -g,
# tracepoints with and without -g) and compare perfkit script with perf script, with default
# and explicit fields.
cmp_missing=skip # the tracepoint recording may not be permitted
# shellcheck source=SCRIPTDIR/compare_lib.sh
. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"
work='i=0; while [ $i -lt 60000 ]; do i=$((i+1)); done; ls -R /usr/lib >/dev/null 2>&1'

perf record -q -o "$tmp/plain.data" -e cpu-clock -F 2000 -- sh -c "$work" \
	>/dev/null 2>&1 || { echo "perf record not permitted"; exit 77; }
perf record -q -o "$tmp/graph.data" -g -e cpu-clock -F 2000 -- sh -c "$work" >/dev/null 2>&1
perf record -q -o "$tmp/fixed.data" -e cpu-clock -c 200000 -- sh -c "$work" >/dev/null 2>&1
perf record -q -o "$tmp/tp.data" -e sched:sched_switch -e sched:sched_process_exec -a \
	-- sh -c "$work" >/dev/null 2>&1 || rm -f "$tmp/tp.data"
# tracepoints with callchains: perf adds ip, sym and dso to their default
# fields (and prints the comm unpadded), unless -F sets them or -G hides
# the chains
perf record -q -o "$tmp/tpg.data" -g -e sched:sched_process_exec -e sched:sched_process_exit \
	-- sh -c 'ls / >/dev/null; sh -c true' >/dev/null 2>&1 || rm -f "$tmp/tpg.data"
# a software event beside tracepoints: -F trace leaves it no field, and
# its samples print nothing, not even an empty line
perf record -q -o "$tmp/mixed.data" -e page-faults -e sched:sched_process_exec \
	-- sh -c 'ls / >/dev/null; sh -c true' >/dev/null 2>&1 || rm -f "$tmp/mixed.data"

check() { check_script "$@"; } # name file args...
check plain "$tmp/plain.data"
check plain-ns "$tmp/plain.data" --ns
check plain-fields "$tmp/plain.data" -F comm,pid,tid,time,ip,sym,dso
check plain-nosymoff "$tmp/plain.data" -F comm,tid,ip,sym
check graph "$tmp/graph.data"
check header "$tmp/graph.data" --header
check graph-fields "$tmp/graph.data" -F comm,tid,ip,sym
check fixed-period "$tmp/fixed.data"
check tracepoints "$tmp/tp.data"
check tracepoints-fields "$tmp/tp.data" -F comm,pid,tid,cpu,event,trace
check tracepoints-g "$tmp/tpg.data"
check tracepoints-g-add "$tmp/tpg.data" -F +period
check tracepoints-g-other "$tmp/tpg.data" -F sw:+period
check tracepoints-g-hidden "$tmp/tpg.data" -G
check mixed-trace "$tmp/mixed.data" -F trace
check mixed-trace-comm "$tmp/mixed.data" -F trace,comm,event
# several -F: each for its type (or all), in turn
check mixed-two-specs "$tmp/mixed.data" -F sw:comm,period -F trace:comm,event
check mixed-spec-then-all "$tmp/mixed.data" -F sw:comm -F comm,tid,event
check mixed-all-then-add "$tmp/mixed.data" -F comm,event -F sw:+period
# pipe input
if [ -f "$tmp/plain.data" ]; then
	perf script -i "$tmp/plain.data" >"$tmp/perf" 2>/dev/null
	perf inject -i "$tmp/plain.data" -o - 2>/dev/null | "$PERFKIT" script -q -i - >"$tmp/pk" 2>&1
	: >"$tmp/err"
	cmp_judge stdin && cmp_pass
fi
cmp_finish "outputs identical to perf script"
