#!/bin/bash
# perf record's options that perfkit took late: the attrs they give match
# perf's (--all-user, --all-kernel, --user-callchains, -D, group :S), and
# what they do is checked on the files: -D, --max-size,
# --timestamp-filename, --switch-output (signal, size, time).
set -u
PERF=${PERF:-perf}
command -v "$PERF" >/dev/null || { echo "perf not installed: skip"; exit 77; }
PK=${PERFKIT:?}
T=$(mktemp -d /tmp/pk-record-opts.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; rm -rf "$T"' EXIT
cd "$T" || exit 1
failed=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; failed=1; }
burn() { "$@" sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done'; }

# the attrs of the events, without what perfkit sets differently on
# purpose (wake-up watermark, IDENTIFIER for ID, no LOST in read_format,
# ksymbol/bpf_event which it does not record, sample_max_stack which it
# always sets with call chains, ADDR|DATA_SRC which perf adds to dwarf call
# graphs and perfkit's --call-graph dwarf does not either)
attrs() {
	"$PERF" report --header-only -i "$1" 2>/dev/null | grep '^# event :' |
		sed -e 's/id = {[^}]*}, //' -e 's/, watermark = 1//' \
		    -e 's/, { wakeup_events, wakeup_watermark } = [0-9]*//' \
		    -e 's/|IDENTIFIER//' \
		    -e 's/\(sample_type = [A-Z_|]*\)|ID|/\1|/' -e 's/|LOST//' \
		    -e 's/, ksymbol = 1//' -e 's/, bpf_event = 1//' \
		    -e 's/, sample_max_stack = [0-9]*//' -e 's/|ADDR|/|/' -e 's/|DATA_SRC//' |
		# the tracking dummy: there, and named; its details are perf's own
		sed -e 's/^\(# event : name = dummy\).*/\1/'
}
for o in "--all-user" "--all-kernel" "--user-callchains -g" "-D 50" \
	"--kernel-callchains -g" "--sample-cpu" "-P --sample-identifier --no-bpf-event" \
	"--no-buffering" "-e cpu-clock/call-graph=fp/" "-g -e cpu-clock/call-graph=no/" \
	"-e cpu-clock/max-stack=10/" "-g -e cpu-clock/stack-size=1024/" \
	"-e cpu-clock/call-graph=dwarf,stack-size=1024/" "-e cpu-clock/no-inherit/" \
	"-e cpu-clock/time,percore,metric-id=x/" "-n" \
	"--running-time -e {cpu-clock,task-clock}:S" "-W" "-R" "--phys-data" \
	"--data-page-size --code-page-size" "--timestamp-boundary" \
	"-e {cpu-clock,task-clock}:S" "-a --all-user"; do
	# shellcheck disable=SC2086
	case " $o " in *" -e "*) e= ;; *) e="-e cpu-clock" ;; esac
	# shellcheck disable=SC2086
	"$PERF" record -q $e $o -o p.data -- true >/dev/null 2>&1
	# shellcheck disable=SC2086
	"$PK" record -q $e $o -o k.data -- true >/dev/null 2>"err" ||
		{ bad "$o: $(head -c 200 err)"; continue; }
	if ! "$PK" script -i k.data >/dev/null 2>err; then
		bad "$o: perfkit script cannot read the file: $(head -c 200 err)"
	elif diff <(attrs p.data) <(attrs k.data) >diff; then
		ok "$o: the attrs perf gives"
	else
		bad "$o: attrs differ from perf's: $(tr '\n' ' ' <diff | head -c 600)"
	fi
done

# --synth: what is read from /proc at the start (records at time 0), as perf
synth_kinds() {
	"$1" record -q -a -e cpu-clock -F 100 --synth="$2" -o sy.data -- true >/dev/null 2>&1
	"$PERF" script --show-task-events --show-mmap-events -i sy.data 2>/dev/null | awk '
		/ 0\.000000: PERF_RECORD_COMM/ {c = 1} / 0\.000000: PERF_RECORD_MMAP2/ {m = 1}
		END {printf "comm:%d mmap2:%d\n", c, m}'
}
for sy in no task mmap all; do
	want=$(synth_kinds "$PERF" $sy)
	got=$(synth_kinds "$PK" $sy)
	[ "$want" = "$got" ] && ok "--synth=$sy: $got as perf" ||
		bad "--synth=$sy: perfkit $got, perf $want"
done

# --exclude-perf: the recorder's own sched_switch events are left out (its
# pid is the command's parent); without it they are there
own_switches() {
	"$PK" record -q -a -e sched:sched_switch $1 -o ex.data -- \
		sh -c 'echo $PPID >ppid; sleep 0.3' 2>err
	"$PERF" script -F pid -i ex.data 2>/dev/null | grep -cw "$(cat ppid)"
}
with=$(own_switches "")
without=$(own_switches --exclude-perf)
if [ "$with" -gt 0 ] && [ "$without" = 0 ]; then
	ok "--exclude-perf: $with own events without it, none with it"
else
	bad "--exclude-perf: $with own events without it, $without with it: $(head -c 200 err)"
fi
"$PK" record -e cpu-clock --exclude-perf -o ex.data -- true 2>err &&
	bad "--exclude-perf after cpu-clock: accepted" ||
	ok "--exclude-perf after cpu-clock: $(cat err)"

# perf's options perfkit lacks: one line naming them, exit non-zero
for o in --aio --per-thread -b --tail-synthesize --control=fd:3; do
	"$PK" record "$o" -o n.data -- true >/dev/null 2>err
	rc=$?
	if [ "$rc" != 0 ] && [ "$(wc -l <err)" = 1 ] && grep -q "not implemented" err &&
		[ ! -e n.data ]; then
		ok "$o: refused in one line"
	else
		bad "$o: exit $rc: $(head -c 300 err)"
	fi
done
# --running-time: perf and perfkit read the group samples with their times
"$PK" record -q --running-time -e '{cpu-clock,task-clock}:S' -o rt.data -- \
	sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done' 2>err
a=$("$PERF" script -F event,period -i rt.data 2>&1 | grep -c 'task-clock')
b=$("$PK" script -F event,period -i rt.data 2>/dev/null | grep -c 'cpu-clock')
[ "$a" -gt 0 ] && [ "$b" -gt 0 ] && ok "--running-time: read by perf ($a) and perfkit ($b)" ||
	bad "--running-time: perf $a, perfkit $b: $(head -c 200 err)"

# -r: the recorder runs SCHED_FIFO, the command keeps its policy (as perf)
pol=$("$PK" record -q -r 7 -e cpu-clock -o r.data -- sh -c 'chrt -p $PPID; chrt -p $$' 2>&1 |
	awk '/policy/ {printf "%s ", $NF} /priority/ {printf "%s ", $NF}')
[ "$pol" = "SCHED_FIFO 7 SCHED_OTHER 0 " ] && ok "-r 7: $pol" || bad "-r 7: '$pol'"

# -v says more on stderr
"$PK" record -v -e cpu-clock -o v.data -- true 2>err
grep -q 'opening cpu-clock' err && ok "-v: says what it opens" || bad "-v: $(head -c 200 err)"

# -D 300: no sample in the first 300 ms after the exec (perf's messages too)
"$PK" record -e cpu-clock -D 300 -o d.data -- sh -c \
	'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done' 2>err >/dev/null
gap=$("$PERF" script --show-task-events -i d.data 2>/dev/null | awk '
	{t = 0; for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {t = $i + 0; break}}
	/PERF_RECORD_COMM exec: sh/ && !t0 {t0 = t}
	/cpu-clock:/ && t0 && !t1 {t1 = t}
	END {printf "%d\n", (t1 - t0) * 1000}')
if [ "$gap" -ge 290 ] && grep -q '^Events disabled' err && grep -q '^Events enabled' err; then
	ok "-D 300: first sample ${gap} ms after the exec"
else
	bad "-D 300: first sample ${gap} ms after the exec; $(head -c 200 err)"
fi

# --max-size: stops with perf's message, the file is read by perf
"$PK" record -a -e cpu-clock --max-size=40K -o m.data -- sleep 20 2>err >/dev/null
rc=$?
size=$(stat -c %s m.data)
if grep -q 'size limit reached (40 KB), stopping session' err && [ "$rc" = 143 ] &&
	[ "$size" -lt 400000 ] && "$PERF" report --stats -i m.data >/dev/null 2>&1; then
	ok "--max-size=40K: stopped at $size bytes, exit $rc as perf"
else
	bad "--max-size=40K: exit $rc, $size bytes: $(head -c 300 err)"
fi

# --timestamp-filename: perf's name pattern, the file read by perf
rm -f perf.data*
"$PK" record -q -e cpu-clock --timestamp-filename -- true 2>err
f=$(ls perf.data.* 2>/dev/null)
if [[ "$f" =~ ^perf\.data\.[0-9]{16}$ ]] && [ ! -e perf.data ] &&
	"$PERF" report --stats -i "$f" >/dev/null 2>&1; then
	ok "--timestamp-filename: $f"
else
	bad "--timestamp-filename: '$f': $(head -c 200 err)"
fi

# every perf.data.<stamp> is read by perf without a warning, with COMMs
check_files() {
	local what=$1 min=$2 n=0
	for f in perf.data.*; do
		[ -e "$f" ] || continue
		n=$((n + 1))
		if ! "$PERF" report --stats -i "$f" >st 2>perr || [ -s perr ] ||
			! grep -q 'COMM events' st; then
			bad "$what: $f: $(head -c 200 perr)"; return
		fi
	done
	[ "$n" -ge "$min" ] && ok "$what: $n files read by perf" || bad "$what: $n files"
}

rm -f perf.data*
"$PK" record -q -a -e cpu-clock -F 200 --switch-output=1s -- sleep 2.5 2>err
check_files "--switch-output=1s" 3
rm -f perf.data*
"$PK" record -q -a -e cpu-clock -F 1000 --switch-output=30K -- sleep 1.5 2>err
check_files "--switch-output=30K" 2

# --switch-max-files: the oldest files are removed (perf keeps the newest)
rm -f perf.data*
"$PK" record -q -a -e cpu-clock -F 200 --switch-output=1s --switch-max-files=2 \
	-- sleep 3.5 2>err
n=$(find . -maxdepth 1 -name 'perf.data.*' | wc -l)
[ "$n" = 2 ] && ok "--switch-max-files=2: 2 files left" ||
	bad "--switch-max-files=2: $n files: $(head -c 200 err)"
"$PK" record -q -e cpu-clock --switch-output -o - -- true >/dev/null 2>err &&
	bad "--switch-output -o -: accepted" || ok "--switch-output -o -: refused"

# signal: SIGUSR2 closes the file, SIGINT ends the recording
rm -f perf.data*
"$PK" record -a -e cpu-clock -F 200 --switch-output 2>err &
pid=$!
for _ in $(seq 200); do [ -s perf.data ] && break; sleep 0.05; done
kill -USR2 "$pid"
for _ in $(seq 200); do ls perf.data.* >/dev/null 2>&1 && break; sleep 0.05; done
kill -INT "$pid"
wait "$pid"
pid=
grep -q 'Dump perf.data.[0-9]*' err || bad "--switch-output: no Dump line: $(head -c 200 err)"
check_files "--switch-output (SIGUSR2)" 2
# --overwrite: only the newest records are kept (a forward recording of
# this has ~4000 samples), perf reads the file
rm -f perf.data*
"$PK" record -q --overwrite -m 8 -a -F 1000 -e cpu-clock -- sleep 2 2>err
read -r n span < <("$PERF" script -F time -i perf.data 2>/dev/null |
	awk '{t = $1 + 0; if (!a) a = t; b = t; n++} END {printf "%d %d\n", n, (b - a) * 1000}')
# (the span is not checked: an idle CPU's ring keeps older samples)
if [ "${n:-0}" -gt 0 ] && [ "$n" -lt 2000 ]; then
	ok "--overwrite: the newest $n samples, over $span ms"
else
	bad "--overwrite: $n samples over $span ms: $(head -c 200 err)"
fi

# --overwrite --switch-output: SIGUSR2 writes a snapshot, as perf's flight
# recorder (asked again until a snapshot has samples)
samples() { "$PERF" report --stats -i "$1" 2>/dev/null | awk '/SAMPLE events/ {print $3; exit}'; }
rm -f perf.data*
"$PK" record -q --overwrite --switch-output -m 8 -a -F 1000 -e cpu-clock 2>err &
pid=$!
for _ in $(seq 200); do [ -s perf.data ] && break; sleep 0.05; done
got=0
for _ in $(seq 50); do
	kill -USR2 "$pid"
	for _ in $(seq 100); do ls perf.data.* >/dev/null 2>&1 && break; sleep 0.05; done
	for f in perf.data.*; do [ "$(samples "$f")" -gt 0 ] 2>/dev/null && got=1; done
	[ $got = 1 ] && break
	rm -f perf.data.*
done
kill -INT "$pid"
wait "$pid"
pid=
[ $got = 1 ] && ok "--overwrite --switch-output: SIGUSR2 snapshot with samples" ||
	bad "--overwrite --switch-output: no snapshot with samples: $(head -c 200 err)"
check_files "--overwrite --switch-output" 2
exit $failed
