#!/bin/sh
# perfkit script against perf script on the corpus, line for line.  perf is
# run live: on this machine's kernel its output for pipe-mode files depends
# on the local kallsyms and vdso, so stored copies would not travel.
# Intentional or known differences are listed in SKIP with the reason.
set -u
command -v perf >/dev/null 2>&1 || { echo "perf not installed"; exit 77; }
[ -d "$PERFKIT_CORPUS" ] || { echo "no corpus"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# file: reason
SKIP='perf.data.intel_pt-4.14: intel_pt synthesized events are not decoded
perf.data.piped.corrupted.zero_size_sample-3.2: corrupt: both refuse it
sleep.data: perf 6.1 refuses this file format
sleep.compressed.data: perf 6.1 refuses this file format
fibo.compressed2.pipe.data: perf 6.1 cannot read COMPRESSED2'

fail=0 same=0
for f in "$PERFKIT_CORPUS"/quipper/* "$PERFKIT_CORPUS"/linux-perf-data/*; do
	b=$(basename "$f")
	if printf '%s\n' "$SKIP" | grep -q "^$b:"; then
		continue
	fi
	perf script -i "$f" >"$tmp/perf" 2>/dev/null
	"$PERFKIT" script -i "$f" >"$tmp/pk" 2>"$tmp/err"
	if cmp -s "$tmp/perf" "$tmp/pk"; then
		same=$((same + 1))
	else
		echo "DIFF $b:"
		diff "$tmp/perf" "$tmp/pk" | head -5
		fail=1
	fi
done
echo "$same corpus files identical to perf script"
[ "$same" -gt 10 ] || fail=1
exit $fail
