#!/bin/sh
# perfkit stat -x, against perf stat -x, on the same workload (touch N pages).
# Tolerances: page-faults within 5% + 20 of perf's (and >= N); task-clock
# medians within a factor of 4 of perf's (a loaded 2-CPU VM is noisy).
set -u
W=$1
N=4000
command -v perf >/dev/null 2>&1 || { echo "no perf"; exit 77; }
perf stat -x, -e task-clock true >/dev/null 2>&1 || { echo "perf stat cannot count here"; exit 77; }
"$PERFKIT" stat -x, -e task-clock true >/dev/null 2>&1 || { echo "perfkit stat cannot count"; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# field 1 of the line whose event (field 3) is $2
field() { awk -F, -v ev="$2" '$3 == ev { print $1 }' "$1"; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

for i in 1 2 3; do
	"$PERFKIT" stat -x, -e task-clock,page-faults -o "$TMP/k$i" "$W" $N || exit 1
	perf stat -x, -e task-clock,page-faults -o "$TMP/p$i" "$W" $N || exit 1
done
for f in "$TMP"/k1 "$TMP"/p1; do
	# CSV layout: value,unit,event,runtime,pcnt,metric,metric-unit
	awk -F, '$3 == "task-clock" && ($2 != "msec" || NF != 7 || $7 != "CPUs utilized") { exit 1 }
		 $3 == "page-faults" && ($2 != "" || NF != 7) { exit 1 }' "$f" || {
		echo "bad CSV line layout in $f:"; cat "$f"; exit 1; }
done
kpf=$(for i in 1 2 3; do field "$TMP/k$i" page-faults; done | median)
ppf=$(for i in 1 2 3; do field "$TMP/p$i" page-faults; done | median)
ktc=$(for i in 1 2 3; do field "$TMP/k$i" task-clock; done | median)
ptc=$(for i in 1 2 3; do field "$TMP/p$i" task-clock; done | median)
echo "page-faults: perfkit $kpf perf $ppf; task-clock ms: perfkit $ktc perf $ptc"
awk -v k="$kpf" -v p="$ppf" -v n=$N 'BEGIN { d = k - p; if (d < 0) d = -d;
	exit !(k >= n && d <= p * 0.05 + 20) }' || { echo "page-faults disagree"; exit 1; }
awk -v k="$ktc" -v p="$ptc" 'BEGIN { exit !(k > 0 && p > 0 && k < p * 4 && p < k * 4) }' ||
	{ echo "task-clock disagrees"; exit 1; }
# The -o file starts with perf's "# started on" line.
head -1 "$TMP/k1" | grep -q '^# started on ' || { echo "no '# started on' in -o file"; exit 1; }
echo ok
