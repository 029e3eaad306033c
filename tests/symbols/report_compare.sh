#!/bin/sh
# perfkit report against perf report --stdio, line for line, on the corpus
# and on recordings made here.  perf ends with a random "# (Tip: ...)" line
# that perfkit does not print: it is dropped before comparing (the one
# intentional difference).  Files and modes not covered yet are in SKIP.
# shellcheck source=SCRIPTDIR/compare_lib.sh
. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"

SKIP='perf.data.intel_pt-4.14: intel_pt synthesized events are not decoded
perf.data.piped.corrupted.zero_size_sample-3.2: corrupt: both refuse it'

check() { check_report "$@"; } # label file args...

if [ -d "${PERFKIT_CORPUS:-}" ]; then
	for f in "$PERFKIT_CORPUS"/quipper/*; do
		b=$(basename "$f")
		printf '%s\n' "$SKIP" | grep -q "^$b:" && continue
		check "$b" "$f" --no-children
	done
	f=$PERFKIT_CORPUS/quipper/perf.data.hw_and_sw-3.4
	check sort-pid "$f" --no-children --sort pid,dso
	check sort-dso-sym "$f" --no-children --sort dso,sym
	check percent-limit "$f" --no-children --percent-limit 0.3
	check comms "$f" --no-children --comms swapper,sleep
	check one-comm "$f" --no-children --comms swapper
	# samples without PERF_SAMPLE_CPU: perf's cpu is -1, printed "-001"
	check sort-cpu-none "$PERFKIT_CORPUS/quipper/perf.data.singleprocess-3.4" --sort cpu
fi

work='i=0; while [ $i -lt 60000 ]; do i=$((i+1)); done; ls -R /usr/lib >/dev/null 2>&1'
if perf record -q -o "$tmp/plain.data" -e cpu-clock -F 2000 -- sh -c "$work" >/dev/null 2>&1; then
	perf record -q -o "$tmp/graph.data" -g -e cpu-clock -F 2000 -- sh -c "$work" \
		>/dev/null 2>&1
	check live "$tmp/plain.data"
	check live-sort "$tmp/plain.data" --sort dso,sym
	check live-sort-pid "$tmp/plain.data" --sort pid
	check live-dsos "$tmp/plain.data" --dsos libc.so.6,dash
	check live-symbols "$tmp/plain.data" --symbols malloc,free
	check live-limit "$tmp/plain.data" --percent-limit 2
	check graph-children "$tmp/graph.data" -g none
	check graph-self "$tmp/graph.data" --no-children -g none
	check graph-self-sort "$tmp/graph.data" --no-children -g none --sort dso
	# A program whose comm changes by exec after its samples: perf sizes
	# the Command column by each entry's thread's last comm ("sleep") and
	# cuts the longer sample-time comm to that width.
	long=$tmp/a-rather-long-command-name
	printf '#!/bin/sh\ni=0; while [ $i -lt 40000 ]; do i=$((i+1)); done\nexec sleep 0.01\n' >"$long"
	chmod +x "$long"
	if perf record -q -o "$tmp/exec.data" -e cpu-clock -F 2000 -- "$long" >/dev/null 2>&1; then
		check exec-comm "$tmp/exec.data"
		check exec-comm-pid "$tmp/exec.data" --sort pid,comm
	fi
	# --json carries the same numbers
	"$PERFKIT" report -i "$tmp/plain.data" --json >"$tmp/json" 2>"$tmp/json.err" || fail=1
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); \
assert d['events'][0]['entries'], 'no entries'" "$tmp/json" 2>/dev/null ||
		{ command -v python3 >/dev/null && { echo "FAIL json"; fail=1; }; }
fi
cmp_finish "reports identical to perf" 6
