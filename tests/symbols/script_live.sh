#!/bin/sh
# Record small workloads with perf (cpu-clock, with and without -g, a
# tracepoint) and compare perfkit script with perf script, with default
# and explicit fields.
set -u
command -v perf >/dev/null 2>&1 || { echo "perf not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
work='i=0; while [ $i -lt 60000 ]; do i=$((i+1)); done; ls -R /usr/lib >/dev/null 2>&1'

perf record -q -o "$tmp/plain.data" -e cpu-clock -F 2000 -- sh -c "$work" \
	>/dev/null 2>&1 || { echo "perf record not permitted"; exit 77; }
perf record -q -o "$tmp/graph.data" -g -e cpu-clock -F 2000 -- sh -c "$work" >/dev/null 2>&1
perf record -q -o "$tmp/fixed.data" -e cpu-clock -c 200000 -- sh -c "$work" >/dev/null 2>&1
perf record -q -o "$tmp/tp.data" -e sched:sched_switch -e sched:sched_process_exec -a \
	-- sh -c "$work" >/dev/null 2>&1 || rm -f "$tmp/tp.data"

fail=0
check() { # name file args...
	name=$1 file=$2
	shift 2
	[ -f "$file" ] || return 0
	perf script -i "$file" "$@" >"$tmp/perf.out" 2>/dev/null
	"$PERFKIT" script -i "$file" "$@" >"$tmp/pk.out" 2>"$tmp/pk.err"
	if [ ! -s "$tmp/perf.out" ]; then
		echo "FAIL $name: perf printed nothing"
		fail=1
	elif cmp -s "$tmp/perf.out" "$tmp/pk.out"; then
		echo "ok   $name ($(wc -l <"$tmp/perf.out") lines)"
	else
		echo "FAIL $name"
		diff "$tmp/perf.out" "$tmp/pk.out" | head -10
		cat "$tmp/pk.err"
		fail=1
	fi
}
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
# pipe input
if [ -f "$tmp/plain.data" ]; then
	perf script -i "$tmp/plain.data" >"$tmp/perf.out" 2>/dev/null
	perf inject -i "$tmp/plain.data" -o - 2>/dev/null | "$PERFKIT" script -i - >"$tmp/pk.out" 2>&1
	if cmp -s "$tmp/perf.out" "$tmp/pk.out"; then
		echo "ok   stdin"
	else
		echo "FAIL stdin"
		diff "$tmp/perf.out" "$tmp/pk.out" | head -5
		fail=1
	fi
fi
exit $fail
