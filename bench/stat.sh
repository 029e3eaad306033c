#!/bin/sh
# Benchmark perfkit stat against perf stat (not run by the tests).
#
#   bench/stat.sh [BUILD_DIR] [RUNS]
#
# 1. Whole-process wall time of `stat -e task-clock,page-faults true`, RUNS
#    times each, interleaved; prints both means and perfkit/perf (target:
#    at most 0.20).
# 2. ns per counter read through read() and through the mmap page.
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build}
RUNS=${2:-200}
PERFKIT=$BUILD/src/cli/perfkit
[ -x "$PERFKIT" ] || { echo "build first: $PERFKIT missing" >&2; exit 1; }
command -v perf >/dev/null || { echo "perf not installed" >&2; exit 1; }

ns() { date +%s%N; }
kit=0
perf=0
i=0
while [ $i -lt "$RUNS" ]; do
	t=$(ns); "$PERFKIT" stat -e task-clock,page-faults true 2>/dev/null; kit=$((kit + $(ns) - t))
	t=$(ns); perf stat -e task-clock,page-faults true 2>/dev/null; perf=$((perf + $(ns) - t))
	i=$((i + 1))
done
awk -v k=$kit -v p=$perf -v n="$RUNS" 'BEGIN {
	printf "stat -e task-clock,page-faults true, %d runs each\n", n
	printf "  perfkit %8.3f ms/run\n  perf    %8.3f ms/run\n", k / n / 1e6, p / n / 1e6
	printf "  ratio perfkit/perf: %.3f (target <= 0.200)\n", k / p }'

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cc -O2 -I"$SRC/include" "$SRC/bench/stat_read.c" -o "$TMP/stat_read" \
	-L"$BUILD/src/lib" -lperfkit -Wl,-rpath,"$BUILD/src/lib"
echo "counter read cost (calling thread):"
"$TMP/stat_read" 200000
