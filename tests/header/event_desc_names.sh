#!/bin/sh
# The reader names attrs from EVENT_DESC: report --stats must use those names
# the way perf report --stats does (checked by hand against perf 6.1).
set -u
corpus=${PERFKIT_CORPUS:-}
perfkit=${PERFKIT:?PERFKIT must name the perfkit binary}
f=$corpus/quipper/perf.data.lost_samples-4.4
[ -f "$f" ] || { echo "FAIL: no corpus file $f"; exit 1; }
out=$("$perfkit" report --stats -i "$f") || exit 1
echo "$out" | grep -qx 'cycles:pp stats:' || { echo "FAIL: no 'cycles:pp stats:' in:"; echo "$out"; exit 1; }
f=$corpus/quipper/perf.data.group_desc-4.14
out=$("$perfkit" report --stats -i "$f") || exit 1
for name in cache-references branch-misses; do
	echo "$out" | grep -qx "$name stats:" || { echo "FAIL: no '$name stats:' in:"; echo "$out"; exit 1; }
done
echo ok
