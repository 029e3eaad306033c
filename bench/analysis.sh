#!/bin/sh
# Benchmark perfkit report/script against perf report/script (not run by
# the tests).
#
#   bench/analysis.sh [BUILD_DIR] [WORK_DIR]
#   WORKLOAD=build bench/analysis.sh [BUILD_DIR] [WORK_DIR]
#
# 1. Records system-wide with callchains (perf record -a -g -e cpu-clock
#    -F 10000), unless WORK_DIR already has bench.data:
#    - by default at least 200 MB of synthetic loops (shell loops, a file
#      walker, checksums);
#    - with WORKLOAD=build, a compiler building this project from scratch
#      (meson setup and ninja in a scratch directory, with gcc at -O2):
#      thousands of short processes, deep stacks in cc1, many DSOs.
# 2. Runs perf and perfkit on it, each under /usr/bin/time -v:
#      report --stdio             (children + self, call graphs)
#      report --stdio -g none     (children + self, no graphs)
#      report --stdio --no-children -g none
#      script (timed with its output to /dev/null, compared from a
#    second, untimed run to a file)
#    checks each pair of outputs identical (perf's random "Tip" line
#    dropped) and prints wall time, peak RSS and the perf/perfkit ratios
#    (targets: report >= 10x, script >= 5x, memory no more than perf's).
#    Each command runs RUNS times (default 3), perf's and perfkit's in
#    turn; the median wall time and the largest peak RSS are printed:
#    this VM's times for one command vary by 15% from run to run.
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build}
WORK=${2:-/tmp/perfkit-bench-analysis}
PERFKIT=$BUILD/src/cli/perfkit
RUNS=${RUNS:-3}
MIN_BYTES=$((200 * 1024 * 1024))
[ -x "$PERFKIT" ] || { echo "build first: $PERFKIT missing" >&2; exit 1; }
command -v perf >/dev/null || { echo "perf not installed" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time (GNU time) needed" >&2; exit 1; }
mkdir -p "$WORK"
DATA=$WORK/bench.data

workload() { # seconds
	end=$(($(date +%s) + $1))
	for n in 1 2 3; do
		sh -c "while [ \$(date +%s) -lt $end ]; do i=0; while [ \$i -lt 20000 ]; do i=\$((i+1)); done; done" &
	done
	sh -c "while [ \$(date +%s) -lt $end ]; do find /usr -type f 2>/dev/null | head -20000 | xargs -r cat 2>/dev/null | sha256sum >/dev/null; done" &
	sh -c "while [ \$(date +%s) -lt $end ]; do ls -lR /usr/lib >/dev/null 2>&1; gzip -c /usr/bin/perf >/dev/null; done" &
	wait
}

size_of() { stat -c %s "$1" 2>/dev/null || echo 0; }

# the compiler workload: a clean build of this tree, recorded whole
record_build() {
	scratch=$WORK/build-tree
	rm -rf "$scratch"
	echo "recording a build of perfkit system-wide with callchains..."
	perf record -q -a -g -e cpu-clock -F 10000 -o "$DATA" -- \
		sh -c "meson setup '$scratch' '$SRC' >/dev/null && ninja -C '$scratch' >/dev/null" \
		>/dev/null 2>&1 || { echo "the recorded build failed" >&2; exit 1; }
	rm -rf "$scratch"
}
if [ "${WORKLOAD:-loops}" = build ] && [ ! -s "$DATA" ]; then
	record_build
fi

secs=90
while [ "${WORKLOAD:-loops}" != build ] && [ "$(size_of "$DATA")" -lt $MIN_BYTES ]; do
	echo "recording ${secs}s system-wide with callchains..."
	perf record -q -a -g -e cpu-clock -F 10000 -o "$DATA" -- sleep "$secs" >/dev/null 2>&1 &
	rec=$!
	workload "$secs"
	wait $rec || true
	secs=$((secs * 2))
done
echo "recording: $DATA, $(($(size_of "$DATA") / 1024 / 1024)) MB; each figure: median wall time of $RUNS runs, largest peak RSS"

# run NAME OUT I cmd...: run I's wall seconds and peak KB into
# $WORK/NAME.I.time (report's output goes through grep for perf's random
# Tip line).  script's 800 MB are timed going to /dev/null, then written
# to OUT by an untimed run for the comparison: creating that much file
# costs this VM's kernel a second or more, more after a sync and less when
# a file is rewritten, which would measure the page cache rather than the
# tool.
run() {
	name=$1 out=$2 i=$3
	shift 3
	[ "$i" -gt 1 ] || rm -f "$out"
	sync
	case $name in
	*script*)
		/usr/bin/time -v -o "$WORK/$name.$i.time" "$@" >/dev/null 2>&1 || true
		[ "$i" -gt 1 ] || "$@" >"$out" 2>/dev/null || true
		;;
	*) /usr/bin/time -v -o "$WORK/$name.$i.time" "$@" 2>/dev/null |
		grep -v '^# (Tip:' >"$out" || true ;;
	esac
}
# pair PERF-NAME KIT-NAME args...: both tools RUNS times, in turn
pair() {
	p=$1 k=$2
	shift 2
	rm -f "$WORK/$p".*.time "$WORK/$k".*.time
	for i in $(seq "$RUNS"); do
		run "$p" "$WORK/$p.out" "$i" perf "$@"
		run "$k" "$WORK/$k.out" "$i" "$PERFKIT" "$@"
	done
}
# the median of the runs' wall times, the largest peak RSS
wall() { for f in "$WORK/$1".*.time; do awk -F': ' '/Elapsed \(wall clock\)/ {
	n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$f"
	done | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
rss() { cat "$WORK/$1".*.time | awk -F': ' '/Maximum resident set size/ { if ($2 > m) m = $2 }
	END { print m }'; }

status=0
compare() { # label perf-name kit-name target
	if cmp -s "$WORK/$2.out" "$WORK/$3.out"; then
		same=identical
	else
		same="DIFFERENT in $(diff "$WORK/$2.out" "$WORK/$3.out" | grep -c '^<') of $(wc -l <"$WORK/$2.out") lines"
		status=1
	fi
	awk -v l="$1" -v pw="$(wall "$2")" -v kw="$(wall "$3")" -v pm="$(rss "$2")" \
		-v km="$(rss "$3")" -v t="$4" -v s="$same" 'BEGIN {
		printf "%-34s perf %8.2fs %8d KB | perfkit %8.2fs %8d KB | %6.1fx faster (target %dx), memory %.2f of perf | output %s\n",
			l, pw, pm, kw, km, (kw > 0 ? pw / kw : 0), t, (pm > 0 ? km / pm : 0), s }'
}

pair perf-report-g kit-report-g report -i "$DATA" --stdio
compare "report --stdio (call graphs)" perf-report-g kit-report-g 10

pair perf-report kit-report report -i "$DATA" --stdio -g none
compare "report --stdio -g none" perf-report kit-report 10

pair perf-report-nc kit-report-nc report -i "$DATA" --stdio --no-children -g none
compare "report --stdio --no-children -g none" perf-report-nc kit-report-nc 10

pair perf-script kit-script script -i "$DATA"
compare "script" perf-script kit-script 5
exit $status
