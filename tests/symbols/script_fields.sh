#!/bin/sh
# perfkit script's -F flags, misc, ipc and brstackoff, --per-event-dump,
# and the fields it refuses, against perf script at test time on
# recordings made here (software events, switch records) and on the corpus
# file with branch stacks.
cmp_missing=skip cmp_status=1
# shellcheck source=SCRIPTDIR/compare_lib.sh
. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"
work='ls -R /usr/lib >/dev/null 2>&1; sleep 0.01; cat /etc/passwd | wc -l'

perf record -q -o "$tmp/two.data" -e cpu-clock/period=250000,name=clk/ \
	-e page-faults/period=3,name=pf/ --switch-events \
	-- sh -c "$work" >/dev/null 2>&1 || { echo "perf record not permitted"; exit 77; }
perf record -q -o "$tmp/graph.data" -g -e cpu-clock -F 2000 -- sh -c "$work" \
	>/dev/null 2>&1 || rm -f "$tmp/graph.data"
side='--show-task-events --show-mmap-events --show-switch-events'

check() { check_script "$@"; }
# flags: always empty here (AUX-trace decoders fill them), a fixed column
check flags "$tmp/two.data" -F comm,tid,time,event,flags,ip,sym
check flags-add "$tmp/two.data" -F +flags
check flags-time "$tmp/two.data" -F flags,time
cmp_allow_empty=1
check flags-alone "$tmp/two.data" -F flags
cmp_allow_empty=0
check callindent-alone "$tmp/two.data" -F callindent
check misc "$tmp/two.data" -F comm,tid,misc,time,event
# shellcheck disable=SC2086
check misc-side "$tmp/two.data" -F comm,tid,misc,time,event,ip $side
check misc-add "$tmp/graph.data" -F +misc,+flags,+ipc
check ipc "$tmp/two.data" -F comm,tid,ipc,ip
check aux-only "$tmp/two.data" -F comm,tid,ip,sym,callindent,synth,metric
check aux-only-add "$tmp/graph.data" -F +callindent,+synth,+metric
# tod: wall-clock time from the recording's clock data (record -k)
if perf record -q -k CLOCK_MONOTONIC -o "$tmp/tod.data" -e cpu-clock -F 2000 \
	-- sh -c "$work" >/dev/null 2>&1; then
	check tod "$tmp/tod.data" -F comm,tid,tod,time,ip
	check tod-ns "$tmp/tod.data" -F comm,tod,time --ns
	check tod-side "$tmp/tod.data" -F comm,tod,time --show-task-events
	check tod-add "$tmp/tod.data" -F +tod
fi
# without clock data: perf's message and status
"$PERFKIT" script -i "$tmp/two.data" -F comm,tod >/dev/null 2>"$tmp/err"
rc=$?
perf script -i "$tmp/two.data" -F comm,tod >/dev/null 2>&1
if [ $rc != $? ] || ! grep -q "missing clock data" "$tmp/err"; then
	echo "FAIL: tod without clock data: status $rc, $(cat "$tmp/err")"
	fail=1
fi
hwi=${PERFKIT_CORPUS:-/nonexistent}/quipper/perf.data.branch_stack_hw_index
check brstackoff "$hwi" -F brstackoff
check brstackoff-dso "$hwi" -F ip,brstackoff,dso
check brstackoff-add "$hwi" -F +brstackoff

# --per-event-dump: a file per event named after the input, the side-band
# lines and the "Wrote" lines on stdout
dump() { # DIR FILE: run in DIR on a copy of FILE
	mkdir -p "$tmp/$1"
	cp "$2" "$tmp/$1/in.data"
	(cd "$tmp/$1" && $3 script ${4:-} -i in.data --per-event-dump --show-task-events >out 2>err)
}
dump_cmp() { # NAME FILE
	dump "p$1" "$2" perf
	# -q: no hint about ls, stripped, on perfkit's stderr (perf has no -q)
	dump "k$1" "$2" "$PERFKIT" -q
	sed 's/^\[ perf script:/[ perfkit script:/' "$tmp/p$1/out" >"$tmp/p$1/out.k"
	mv "$tmp/p$1/out.k" "$tmp/p$1/out"
	if [ "$(cd "$tmp/p$1" && ls)" != "$(cd "$tmp/k$1" && ls)" ] ||
		! diff -r "$tmp/p$1" "$tmp/k$1" >/dev/null; then
		echo "FAIL: per-event-dump $1"
		diff -r "$tmp/p$1" "$tmp/k$1" | head -20
		fail=1
	else
		echo "ok: per-event-dump $1 ($(cd "$tmp/k$1" && ls | tr '\n' ' '))"
		same=$((same + 1))
	fi
}
dump_cmp two "$tmp/two.data"
[ -f "$tmp/graph.data" ] && dump_cmp graph "$tmp/graph.data"
# pipe input: perf names the files "(null).EVENT.dump" (a recording with
# perf's own event names: perf script reads no name= names from a pipe)
mkdir "$tmp/pipe-p" "$tmp/pipe-k"
perf record -q -o - -e cpu-clock -e page-faults -- sh -c "$work" 2>/dev/null >"$tmp/two.pipe"
(cd "$tmp/pipe-p" && perf script -i - --per-event-dump <"$tmp/two.pipe" >/dev/null 2>&1)
(cd "$tmp/pipe-k" && "$PERFKIT" script -i - --per-event-dump <"$tmp/two.pipe" >/dev/null 2>&1)
if [ -n "$(ls "$tmp/pipe-p")" ] && [ "$(ls "$tmp/pipe-p")" = "$(ls "$tmp/pipe-k")" ] &&
	diff -r "$tmp/pipe-p" "$tmp/pipe-k" >/dev/null; then
	echo "ok: per-event-dump pipe"
	same=$((same + 1))
else
	echo "FAIL: per-event-dump pipe: perf [$(ls "$tmp/pipe-p")] perfkit [$(ls "$tmp/pipe-k")]"
	fail=1
fi

# an event name with a '/' makes no file name: both give up
perf record -q -o "$tmp/slash.data" -e cpu-clock/period=250000/ -- true >/dev/null 2>&1
if [ -f "$tmp/slash.data" ]; then
	(cd "$tmp" && perf script -i slash.data --per-event-dump >/dev/null 2>&1)
	prc=$?
	(cd "$tmp" && "$PERFKIT" script -i slash.data --per-event-dump >/dev/null 2>&1)
	krc=$?
	[ $prc != 0 ] && [ $krc != 0 ] || { echo "FAIL: slash: perf $prc perfkit $krc"; fail=1; }
fi

# fields perf has and perfkit does not print: refused, one line, status 129
for f in srcline srccode insn insnlen brstackinsn bpf-output; do
	"$PERFKIT" script -i "$tmp/two.data" -F "comm,$f" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc != 129 ] || [ "$(wc -l <"$tmp/err")" != 1 ]; then
		echo "FAIL: -F $f: status $rc, $(cat "$tmp/err")"
		fail=1
	fi
done
# -k (a file that is no vmlinux: no kernel symbols, as perf) is vmlinux.sh's
# perf's options perfkit does not implement: refused by name, status 129
for o in --itrace=i100 --inline -D -sfoo.py -gpython --stop-bt=main --xed; do
	"$PERFKIT" script -i "$tmp/two.data" "$o" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc != 129 ] || [ "$(wc -l <"$tmp/err")" != 1 ]; then
		echo "FAIL: $o: status $rc, $(cat "$tmp/err")"
		fail=1
	fi
done
check demangle "$tmp/graph.data" --demangle
cmp_finish "outputs identical to perf"
