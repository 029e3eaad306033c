#!/bin/sh
# Live kprobe/uprobe events and tracepoint filters in stat and record.
# $1: probe_target (calls probed_function N times; or close(1234) K times
# and close(4321) M times).  Counts are known exactly; filters are also
# compared with perf stat's counts on the same workload.
set -u
: "${PERFKIT:?}"
bin=$(realpath "$1")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*" >&2; cat "$t/err" 2>/dev/null >&2; exit 1; }
count() { awk -v e="$1" '$2 == e { gsub(",", "", $1); print $1; exit }' "$t/err"; }

# stat and record exit with the workload's status, and a sanitizer build's
# workload cannot always run its leak check with a uprobe in it (LSan stops
# the world as a tracer would): its leaks are not what is tested here
nolsan="env ASAN_OPTIONS=detect_leaks=0"

if [ -d /sys/bus/event_source/devices/uprobe ]; then
	"$PERFKIT" stat -e "uprobe:$bin:probed_function" -e "uretprobe:$bin:probed_function" \
		-- $nolsan "$bin" calls 137 2>"$t/err" || fail "stat with uprobes failed"
	[ "$(count "uprobe:$bin:probed_function")" = 137 ] || fail "uprobe count is not 137"
	[ "$(count "uretprobe:$bin:probed_function")" = 137 ] || fail "uretprobe count is not 137"
	"$PERFKIT" record -e "uprobe:$bin:probed_function" -o "$t/u.data" -- $nolsan "$bin" calls 41 \
		>/dev/null 2>"$t/err" || fail "record with a uprobe failed"
	perf script -i "$t/u.data" 2>/dev/null >"$t/script"
	n=$(grep -c "uprobe:$bin:probed_function: .*probed_function+0x0" "$t/script")
	[ "$n" = 41 ] || fail "perf script shows $n uprobe samples at probed_function, not 41"
	echo "ok uprobe: stat 137/137, record 41 samples read by perf script"
	"$PERFKIT" stat -e "uprobe:$bin:nope" -- true 2>"$t/err" && fail "unknown symbol accepted"
	grep -q "no function 'nope'" "$t/err" || fail "no clear error for an unknown symbol"
else
	echo "no uprobe PMU here: uprobe part skipped"
fi

if [ -d /sys/bus/event_source/devices/kprobe ]; then
	"$PERFKIT" stat -e kprobe:do_nanosleep -- sleep 0.01 2>"$t/err" || fail "kprobe stat failed"
	n=$(count kprobe:do_nanosleep)
	[ "${n:-0}" -ge 1 ] || fail "kprobe:do_nanosleep counted '$n'"
	echo "ok kprobe: $n"
else
	# this kernel was built without kprobes: the error must say so
	"$PERFKIT" stat -e kprobe:do_nanosleep -- true 2>"$t/err" && fail "kprobe accepted"
	grep -q "no kprobe PMU" "$t/err" || fail "no clear error without a kprobe PMU"
	echo "no kprobe PMU here (kernel without CONFIG_KPROBES): error checked, live part skipped"
fi

tp=syscalls:sys_enter_close
if [ -d /sys/kernel/tracing/events/syscalls/sys_enter_close ]; then
	"$PERFKIT" stat -e $tp --filter 'fd == 1234' -- "$bin" close 23 31 2>"$t/err" ||
		fail "stat --filter failed"
	ours=$(count $tp)
	perf stat -e $tp --filter 'fd == 1234' -- "$bin" close 23 31 2>"$t/err"
	theirs=$(count $tp)
	[ "$ours" = 23 ] && [ "$theirs" = 23 ] || fail "filtered count: ours $ours, perf $theirs, want 23"
	"$PERFKIT" record -e $tp --filter 'fd == 4321' -o "$t/f.data" -- "$bin" close 23 31 \
		>/dev/null 2>"$t/err" || fail "record --filter failed"
	n=$(perf script -i "$t/f.data" 2>/dev/null | grep -c 'fd: 0x000010e1')
	all=$(perf script -i "$t/f.data" 2>/dev/null | grep -c sys_enter_close)
	[ "$n" = 31 ] && [ "$all" = 31 ] || fail "record --filter: $n of $all samples with fd 4321, want 31 of 31"
	echo "ok filter: stat 23 (perf 23), record 31 samples"
	"$PERFKIT" record -e $tp --filter 'nosuch == 1' -o "$t/bad.data" -- true 2>"$t/err" &&
		fail "bad filter accepted"
	grep -q 'failed to set filter "nosuch == 1" on event syscalls:sys_enter_close' "$t/err" ||
		fail "bad filter message"
	[ "$(wc -l <"$t/err")" = 1 ] || fail "more than one error line"
	[ -e "$t/bad.data" ] && fail "a file was left behind by a refused record"
fi
"$PERFKIT" stat -e cpu-clock --filter 'x == 1' -- true 2>"$t/err" && fail "filter on cpu-clock accepted"
grep -q -- "--filter option should follow a -e tracepoint" "$t/err" || fail "non-tracepoint message"
echo ok
