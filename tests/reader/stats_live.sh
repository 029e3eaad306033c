#!/bin/sh
# Record with the real perf in several modes, then compare
# "perfkit report --stats" with "perf report --stats" on each file.
# Needs perf and permission to record (root here); skips otherwise.
set -u
pk=${PERFKIT:?}
command -v perf >/dev/null || exit 77
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
work="sh -c 'i=0; while [ \$i -lt 30000 ]; do i=\$((i+1)); done'"
perf record -q -e cpu-clock -o "$dir/probe.data" true 2>/dev/null || exit 77

fail=0 n=0
check() {
	name=$1
	file=$2
	n=$((n + 1))
	if ! perf report --stats -i "$file" >"$dir/want" 2>/dev/null; then
		echo "skip $name: perf cannot read it"
		return
	fi
	"$pk" report --stats -i "$file" >"$dir/got" 2>"$dir/err" || {
		echo "FAIL $name: perfkit exit $?"
		cat "$dir/err"
		fail=$((fail + 1))
		return
	}
	diff -u "$dir/want" "$dir/got" || { echo "FAIL $name"; fail=$((fail + 1)); }
}

rec() {
	name=$1
	shift
	eval perf record -q -o "$dir/$name.data" "$@" -- "$work" 2>/dev/null &&
		check "$name" "$dir/$name.data"
}

rec plain -e cpu-clock
rec two_events -e cpu-clock -e task-clock
rec modifiers -e cpu-clock:u -e task-clock:k
rec group -e "'{cpu-clock,task-clock}'"
rec callgraph -e cpu-clock -g
rec zstd -e cpu-clock -z
rec switch -e cpu-clock --switch-events
rec period -e cpu-clock -c 1000000 -d -T
rec tracepoint -e sched:sched_process_exec -e sched:sched_process_exit
rec systemwide -a -e cpu-clock -F 999
rec dwarf -e cpu-clock --call-graph dwarf,4096

# pipe mode, read from a file and from stdin
if perf record -q -e cpu-clock -o - -- sh -c "$work" >"$dir/pipe.data" 2>/dev/null; then
	check pipe "$dir/pipe.data"
	n=$((n + 1))
	perf report --stats -i - <"$dir/pipe.data" >"$dir/want" 2>/dev/null
	"$pk" report --stats -i - <"$dir/pipe.data" >"$dir/got" 2>&1
	diff -u "$dir/want" "$dir/got" || { echo "FAIL pipe-stdin"; fail=$((fail + 1)); }
fi
echo "stats_live: $n recordings, $fail failed"
[ $fail -eq 0 ]
