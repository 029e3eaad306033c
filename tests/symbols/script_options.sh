#!/bin/sh
# perfkit script's filters and output options against perf script, run
# at test time on corpus files and on recordings made here: --comms,
# --pid, --tid, -C, -S, --dsos, --time (seconds, several ranges,
# percentages), -G, --max-stack, --reltime, --deltatime, --header-only,
# -I, -F iregs/uregs, and the messages and exit codes of bad values.
# Each output must be byte for byte perf's, with perf's exit status.
# recordings this machine refuses are skipped; exit statuses are compared
cmp_missing=skip cmp_status=1
# shellcheck source=SCRIPTDIR/compare_lib.sh
. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"
work='i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done; ls -R /usr/lib >/dev/null 2>&1; cat /etc/passwd | wc -l'

perf record -q -o "$tmp/graph.data" -g -e cpu-clock -F 2000 -- sh -c "$work" \
	>/dev/null 2>&1 || { echo "perf record not permitted"; exit 77; }
# several processes and both CPUs, but only the workload's: a system-wide
# recording holds whatever else runs on the machine, whose symbols may not
# resolve the same way (the regs recording is printed without symbols)
# the CPU filters need samples on both CPUs: pin a copy of the work to each
# (the scheduler alone may keep it on one when the machine is busy)
both=$tmp/both.sh
if command -v taskset >/dev/null 2>&1 && [ "$(nproc)" -ge 2 ]; then
	printf '%s\n' '#!/bin/sh' "taskset -c 0 sh -c '$work' &" "taskset -c 1 sh -c '$work' &" \
		'wait' >"$both"
else
	printf '%s\n' '#!/bin/sh' "$work" >"$both"
fi
chmod +x "$both"
perf record -q -o "$tmp/sys.data" --sample-cpu -g -e cpu-clock -F 1000 -- "$both" \
	>/dev/null 2>&1 || rm -f "$tmp/sys.data"
perf record -q -o "$tmp/regs.data" -a -g --user-regs=ax,bx,sp,ip,r15 \
	--intr-regs=ax,cx,ip,flags -e cpu-clock -F 1000 -- sh -c "$work" \
	>/dev/null 2>&1 || rm -f "$tmp/regs.data"
perf record -q -o "$tmp/allregs.data" --user-regs -e cpu-clock -F 1000 -- sh -c "$work" \
	>/dev/null 2>&1 || rm -f "$tmp/allregs.data"
perf inject -i "$tmp/graph.data" -o - >"$tmp/graph.pipe" 2>/dev/null || rm -f "$tmp/graph.pipe"

# check NAME FILE ARGS...: same stdout and exit status; perf must print
# something, so that two empty outputs never pass
check() { check_script "$@"; }

# check_err NAME MESSAGE FILE ARGS...: perf fails with MESSAGE on stderr;
# perfkit must print the same stdout, the same status and that line
check_err() {
	name=$1 msg=$2 file=$3
	shift 3
	[ -f "$file" ] || { echo "skip $name (no recording)"; return 0; }
	cmp_run script "$file" "$@"
	if ! grep -qxF "$msg" "$tmp/perf.err"; then
		echo "FAIL $name: perf did not say '$msg' (status $prc)"
		fail=1
	elif ! grep -qxF "$msg" "$tmp/err"; then
		echo "FAIL $name: perfkit did not say '$msg' (status $krc)"
		head -3 "$tmp/err"
		fail=1
	else
		# perf prints nothing on these errors: its message stands in
		cmp_allow_empty=1
		cmp_judge "$name: script${*:+ $*}" && cmp_pass
		cmp_allow_empty=0
	fi
}

# Values to filter on, taken from perf's own output of each file.
most() { # FILE FIELDS COLUMN: the most frequent value of a column
	perf script -i "$1" -G -F "$2" 2>/dev/null | awk -v c="$3" '{print $c}' |
		sort | uniq -c | sort -rn | awk 'NR == 1 {print $2}'
}
second() { # same, the second most frequent
	perf script -i "$1" -G -F "$2" 2>/dev/null | awk -v c="$3" '{print $c}' |
		sort | uniq -c | sort -rn | awk 'NR == 2 {print $2}'
}
span() { # FILE: the first and last sample times, in seconds
	perf script -i "$1" -F time 2>/dev/null | tr -d ': ' | sed -n '1p;$p' | tr '\n' ' '
}

filters() { # NAME FILE: every filter on one recording
	n=$1 f=$2
	[ -f "$f" ] || { echo "skip $n (no recording)"; return 0; }
	comm=$(most "$f" comm 1) comm2=$(second "$f" comm 1)
	pid=$(most "$f" pid 1) tid=$(most "$f" tid 1)
	sym=$(perf script -i "$f" -G -F ip,sym 2>/dev/null | grep -v unknown |
		awk '{print $2}' | sort | uniq -c | sort -rn | awk 'NR == 1 {print $2}')
	dso=$(most "$f" ip,dso 2 | tr -d '()')
	ip=$(most "$f" ip 1)
	set -- $(span "$f")
	t0=$1 t1=$2
	mid=$(echo "$t0 $t1" | awk '{printf "%.6f", ($1 + $2) / 2}')
	q1=$(echo "$t0 $t1" | awk '{printf "%.6f", $1 + ($2 - $1) / 4}')
	q3=$(echo "$t0 $t1" | awk '{printf "%.6f", $1 + 3 * ($2 - $1) / 4}')
	check "$n-comms" "$f" --comms "$comm"
	check "$n-comms2" "$f" -c "$comm,$comm2"
	check "$n-pid" "$f" --pid "$pid"
	check "$n-tid" "$f" --tid "$tid,1"
	check "$n-dsos" "$f" --dsos "$dso"
	check "$n-symbols" "$f" -S "$sym"
	check "$n-symbol-addr" "$f" -S "0x$ip,$sym" -G
	check "$n-time-from" "$f" --time "$mid,"
	check "$n-time-to" "$f" --time ",$mid"
	check "$n-time-range" "$f" --time "$q1,$mid"
	check "$n-time-ranges" "$f" --time "$t0,$q1 $mid,$q3"
	check "$n-time-pct" "$f" --time 10%/2
	check "$n-time-pcts" "$f" --time 10%/2,10%/5
	check "$n-time-pct-range" "$f" --time 0%-20%,50%-60%
	check "$n-time-pct-one" "$f" --time 25%
	check "$n-reltime-time" "$f" --reltime --time 0.01,0.1
	check "$n-filters" "$f" --comms "$comm" --time 0%-50% -F comm,tid,time,ip,sym
}

filters graph "$tmp/graph.data"
filters sys "$tmp/sys.data"
check sys-cpu "$tmp/sys.data" -C 0
check sys-cpus "$tmp/sys.data" -C 0-1 --comms sh
check sys-cpu-hex "$tmp/sys.data" -C 0x1,x
# all filters at once may leave nothing on a busy machine (no ls on CPU 1 in
# the first half): then both must print nothing, with the same status
cmp_allow_empty=1
check sys-all-filters "$tmp/sys.data" -C 1 --time 0%-50% --comms ls -G
cmp_allow_empty=0
check_err graph-no-cpu "File does not contain CPU events. Remove -C option to proceed." \
	"$tmp/graph.data" -C 0
check graph-hide "$tmp/graph.data" -G
check graph-hide-fields "$tmp/graph.data" -G -F comm,tid,ip,sym,dso
check graph-max-stack "$tmp/graph.data" --max-stack 2
check graph-max-stack-0 "$tmp/graph.data" --max-stack 0
check sys-max-stack "$tmp/sys.data" --max-stack=5
check graph-reltime "$tmp/graph.data" --reltime
check graph-deltatime "$tmp/graph.data" --deltatime
check sys-reltime-ns "$tmp/sys.data" --reltime --ns
check sys-deltatime-ns "$tmp/sys.data" --deltatime --ns -G
check sys-reltime-events "$tmp/sys.data" --reltime --show-task-events --show-mmap-events
check sys-deltatime-events "$tmp/sys.data" --deltatime --show-task-events
check sys-cpu-events "$tmp/sys.data" -C 1 --show-task-events --show-mmap-events
check graph-header-only "$tmp/graph.data" --header-only
check graph-header-only-info "$tmp/graph.data" --header-only -I
check graph-header-info "$tmp/graph.data" --header -I
check graph-kallsyms "$tmp/graph.data" --kallsyms /proc/kallsyms
check graph-source-path "$tmp/graph.data" --full-source-path
check_err graph-no-vmlinux "Invalid file: /nonexistent/vmlinux" "$tmp/graph.data" -k /nonexistent/vmlinux
check pipe-comms "$tmp/graph.pipe" --comms sh --reltime
check pipe-time "$tmp/graph.pipe" --time 1,
check regs "$tmp/regs.data" -G -F comm,tid,cpu,ip,iregs,uregs
check regs-one "$tmp/regs.data" -F comm,uregs
check regs-all "$tmp/allregs.data" -F ip,sym,uregs
check regs-add "$tmp/allregs.data" -F +uregs
check_err regs-no-iregs "Samples for 'cpu-clock' event do not have IREGS attribute set. Cannot print 'iregs' field." \
	"$tmp/allregs.data" -F ip,iregs,uregs

# the corpus: old files (no first/last sample time), pipe mode, no CPU
if [ -d "${PERFKIT_CORPUS:-}" ]; then
	q=$PERFKIT_CORPUS/quipper
	check cg-cpu "$q/perf.data.callgraph-3.8" -C 0
	check cg-symbol-addr "$q/perf.data.callgraph-3.8" -S 0xffffffff96613abf
	check cg-max-stack "$q/perf.data.callgraph-3.8" --max-stack 3
	check cg-reltime "$q/perf.data.callgraph-3.8" --reltime --show-task-events
	check cg-time "$q/perf.data.callgraph-3.8" --time 346832.5,346833
	check sw5-cpus "$q/perf.data.systemwide.5-3.4" -C 1 --deltatime
	check sw5-comms "$q/perf.data.systemwide.5-3.4" --comms perf,swapper -G
	check sw5-dsos "$q/perf.data.systemwide.5-3.4" --dsos '[kernel.kallsyms]'
	check forkexit-pid "$q/perf.data.forkexit-3.4" --pid 0 --show-task-events
	check hwsw-cpu "$q/perf.data.hw_and_sw-3.4" -C 0 --reltime
	check_err cg-time-pct "HINT: no first/last sample time found in perf data." \
		"$q/perf.data.callgraph-3.8" --time 10%/2
	check_err single-no-cpu "File does not contain CPU events. Remove -C option to proceed." \
		"$q/perf.data.singleprocess-3.4" -C 0
	check_err piped-cpu "Requested CPU 0 too large. Consider raising MAX_NR_CPUS" \
		"$q/perf.data.piped.hw_and_sw-3.4" -C 0
fi

# bad values: perf's message, status and (empty) output
g=$tmp/graph.data
check_err bad-field "Invalid field requested." "$g" -F comm,nosuch
check_err bad-type "Invalid event type in field string." "$g" -F xx:ip
check_err no-iregs "Samples for 'cpu-clock' event do not have IREGS attribute set. Cannot print 'iregs' field." \
	"$g" -F ip,iregs
check_err bad-time "Invalid time string" "$g" --time 12.5
check_err bad-time-order "Invalid time string" "$g" --time 2,1
check_err bad-time-overlap "Invalid time string" "$g" --time '1,3 2,4'
check_err bad-time-pct "Invalid time string" "$g" --time 200%
check_err bad-cpu "Invalid cpu_list" "$tmp/sys.data" -C x
check_err bad-cpu-twice "Invalid cpu_list" "$tmp/sys.data" -C 0,0
check_err big-cpu "Requested CPU 4096 too large. Consider raising MAX_NR_CPUS" \
	"$tmp/sys.data" -C 4096
check_err bad-pid "problems parsing pid list" "$g" --pid 12x
check_err bad-tid "problems parsing tid list" "$g" --tid x
check_err rel-delta "reltime and deltatime - the two don't get along well. Please limit to --reltime or --deltatime." \
	"$g" --reltime --deltatime
cmp_finish "outputs identical to perf script"
