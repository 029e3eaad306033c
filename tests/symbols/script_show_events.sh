#!/bin/sh
# perfkit script --show-*-events against perf script, byte for byte: every
# side-band record type from a file written by gen_script_records, corpus
# files, and live software-event recordings with switch and namespace
# records.  perf is run at test time.
#	script_show_events.sh GEN_SCRIPT_RECORDS
cmp_opts=-f # perf script -f -i FILE ...: files of another user
# shellcheck source=SCRIPTDIR/compare_lib.sh
. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"
gen=$1
all='--show-task-events --show-mmap-events --show-switch-events --show-namespace-events
--show-lost-events --show-cgroup-events --show-bpf-events --show-text-poke-events'

check() { check_script "$@"; } # name file args...

"$gen" side "$tmp/side.data" || { echo "FAIL: gen_script_records"; exit 1; }
# shellcheck disable=SC2086
check side-all "$tmp/side.data" $all
# shellcheck disable=SC2086
check side-rounds "$tmp/side.data" $all --show-round-events
# shellcheck disable=SC2086
check side-fields "$tmp/side.data" $all -F comm,pid,tid,time,event --ns
for opt in $all --show-round-events; do
	check "side$opt" "$tmp/side.data" "$opt"
done

# corpus: old and new kernels, pipe mode, without sample_id_all
for b in perf.data.ctx_switch_namespaces-4.14 perf.data.lost_samples-4.4 \
	perf.data.busy.0-3.4 perf.data.piped.hw_and_sw-3.4 perf.data.branch-4.14; do
	f="$PERFKIT_CORPUS/quipper/$b"
	[ -f "$f" ] || continue
	# shellcheck disable=SC2086
	check "$b" "$f" $all
	check "$b-rounds" "$f" --show-task-events --show-round-events
done

work='ls -R /usr/lib >/dev/null 2>&1; sleep 0.05'
if perf record -q -o "$tmp/sw.data" -e cpu-clock --switch-events --namespaces \
	-- sh -c "$work" >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	check live "$tmp/sw.data" $all
	# shellcheck disable=SC2086
	check live-rounds "$tmp/sw.data" $all --show-round-events
	check live-graphless-fields "$tmp/sw.data" --show-task-events -F comm,tid,event,ip
else
	echo "skip live: perf record not permitted"
fi
# callchains: the comm column is not padded on side-band lines either.  Not
# system-wide: what other processes run would make the test flaky.
if perf record -q -o "$tmp/graph.data" -g -e cpu-clock --switch-events \
	-- sh -c "$work" >/dev/null 2>&1; then
	check live-callchain "$tmp/graph.data" --show-switch-events --show-task-events \
		--show-mmap-events
fi
cmp_finish "outputs identical to perf script"
