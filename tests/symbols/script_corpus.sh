#!/bin/sh
# perfkit script against perf script on the corpus, line for line.  perf is
# run live: on this machine's kernel its output for pipe-mode files depends
# on the local kallsyms and vdso, so stored copies would not travel.
# Intentional or known differences are listed in SKIP with the reason.
# shellcheck source=SCRIPTDIR/compare_lib.sh
. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"
[ -d "$PERFKIT_CORPUS" ] || { echo "FAIL: no corpus at $PERFKIT_CORPUS"; exit 1; }

# file: reason
SKIP='perf.data.intel_pt-4.14: intel_pt synthesized events are not decoded
perf.data.piped.corrupted.zero_size_sample-3.2: corrupt: both refuse it
sleep.data: perf 6.1 refuses this file format
sleep.compressed.data: perf 6.1 refuses this file format
fibo.compressed2.pipe.data: perf 6.1 cannot read COMPRESSED2'

for f in "$PERFKIT_CORPUS"/quipper/* "$PERFKIT_CORPUS"/linux-perf-data/*; do
	b=$(basename "$f")
	if printf '%s\n' "$SKIP" | grep -q "^$b:"; then
		continue
	fi
	check_script "$b" "$f"
done
cmp_finish "corpus files identical to perf script" 11
