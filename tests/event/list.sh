#!/bin/bash
# perfkit list against perf list: software events, tracepoints (all, and a
# glob), and PMU events from the fake sysfs tree.
set -u
status=0
fail() { echo "FAIL: $*"; status=1; }
if command -v perf >/dev/null 2>&1; then
	"$PERFKIT" list sw | diff -u <(perf list sw 2>/dev/null) - || fail "list sw"
	for o in --no-desc -d -v --deprecated --details; do
		"$PERFKIT" list $o sw | diff -u <(perf list $o sw 2>/dev/null) - || fail "list $o sw"
	done
	"$PERFKIT" list --cputype=core sw >/dev/null 2>&1 && fail "list --cputype accepted"
	if [ -d /sys/kernel/tracing/events ] || [ -d /sys/kernel/debug/tracing/events ]; then
		"$PERFKIT" list tracepoint | diff -u <(perf list tracepoint 2>/dev/null) - >/dev/null ||
			fail "list tracepoint"
		"$PERFKIT" list 'sched:sched_sw*' | diff -u <(perf list 'sched:sched_sw*' 2>/dev/null) - ||
			fail "list glob"
	fi
fi
out=$(PERFKIT_SYSFS="$PERFKIT_SRC/tests/event/data/sysfs" \
	PERFKIT_TRACEFS="$PERFKIT_SRC/tests/event/data/tracefs" "$PERFKIT" list pmu)
expect='  cpu/cycles-t/                                      [Kernel PMU event]
  cpu/mem-loads/                                     [Kernel PMU event]
  cpu/slots/                                         [Kernel PMU event]
       [Topdown slots of the core]
  uncore_imc_0/data_reads/                           [Kernel PMU event]'
[ "$out" = "$expect" ] || fail "fake sysfs pmu list: $out"
out=$(PERFKIT_SYSFS="$PERFKIT_SRC/tests/event/data/sysfs" "$PERFKIT" list --no-desc pmu)
[ "$out" = "$(echo "$expect" | grep -v Topdown)" ] || fail "--no-desc: $out"
out=$(PERFKIT_TRACEFS="$PERFKIT_SRC/tests/event/data/tracefs" "$PERFKIT" list tracepoint)
[ "$(echo "$out" | wc -l)" = 4 ] || fail "fake tracefs list: $out"
echo "$out" | head -1 | grep -q '^  irq:irq_handler_entry  *\[Tracepoint event\]$' || fail "tp line: $out"
"$PERFKIT" list --help | grep -q usage || fail "--help"
# an event of a PMU this machine lacks is <not supported>, not an error
out=$(PERFKIT_SYSFS="$PERFKIT_SRC/tests/event/data/sysfs" "$PERFKIT" stat -x, \
	-e 'uncore_imc_0/data_reads/,task-clock' true 2>&1)
echo "$out" | grep -q '^<not supported>,MiB,uncore_imc_0/data_reads/' || fail "uncore: $out"
exit $status
