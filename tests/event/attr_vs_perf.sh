#!/bin/sh
# The attrs our parser builds equal the ones perf stat opens (perf stat -vv),
# for modifiers, groups (group modifiers add to the members' own), cache,
# raw and tracepoint events.
set -u
DUMP=$1
command -v perf >/dev/null 2>&1 || { echo "no perf"; exit 77; }
perf stat -vv -e cpu-clock true 2>&1 | grep -q 'perf_event_attr:' || { echo "perf -vv has no attrs"; exit 77; }

# perf's attr blocks as "type N config 0xN ..." lines (absent fields are 0)
perf_attrs() {
	perf stat -vv -e "$1" true 2>&1 >/dev/null | awk '
	function num(v,    n, i, c) {
		if (v !~ /^0x/)
			return v + 0
		n = 0
		for (i = 3; i <= length(v); i++) {
			c = index("0123456789abcdef", tolower(substr(v, i, 1))) - 1
			n = n * 16 + c
		}
		return n
	}
	function flush() {
		if (!inb) return
		printf "type %d config 0x%x config1 0x%x eu %d ek %d eh %d eH %d eG %d eI %d precise %d pinned %d\n",
			f["type"], f["config"], f["config1"], f["exclude_user"], f["exclude_kernel"],
			f["exclude_hv"], f["exclude_host"], f["exclude_guest"], f["exclude_idle"],
			f["precise_ip"], f["pinned"]
		inb = 0
	}
	/^perf_event_attr:/ { flush(); delete f; inb = 1; next }
	inb && /^  [a-z_0-9]+  +[^ ]+$/ { f[$1] = num($2); next }
	inb { flush() }
	END { flush() }'
}

status=0
for e in cycles cycles:u instructions:k cpu-clock:u task-clock:kh faults:G cs:H cpu-clock:p \
	cpu-clock:ppp page-faults:I cpu-clock:D cpu-clock:P cpu-clock:uk cpu-clock:GH cpu-clock:Gu \
	cpu-clock:pG instructions:ukhGH L1-dcache-load-misses LLC-prefetches dTLB-loads:pp \
	branch-load-misses:kH r1234 r1234:u 'sched:sched_switch' 'sched:sched_switch:u' \
	'{cpu-clock,task-clock}:u' '{cs,faults:u}:k' '{cs:G,faults:p}:u' '{cpu-clock:D,cs}:ku' \
	'cycles:u,{cs:H,cpu-clock}:Gk' '{cs:uk,faults}:hH' \
	'cpu-clock/name=foo/' 'cycles/period=1000/u' 'L1-dcache-loads/name=x/'; do
	case $e in sched:*) [ -d /sys/kernel/tracing/events/sched ] || continue ;; esac
	want=$(perf_attrs "$e")
	got=$("$DUMP" "$e")
	if [ "$want" != "$got" ]; then
		echo "FAIL: $e"
		echo "  perf:    $want"
		echo "  perfkit: $got"
		status=1
	fi
done
[ $status = 0 ] && echo "ok"
exit $status
