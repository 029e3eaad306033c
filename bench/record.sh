#!/bin/bash
# Benchmark perfkit record against perf record (not run by the tests).
#
#   bench/record.sh [BUILD_DIR] [SECONDS] [RUNS]
#
# The demo workload runs for SECONDS (default 3) while the whole system is
# recorded at -F 10000 -g, by perfkit, by perf, and by nobody (baseline),
# RUNS times each (default 3), interleaved.  Per recorder it prints:
#   - workload slowdown: demo rounds done without a recorder / with it
#   - the recorder's own CPU time (user + system, post-processing included)
#   - lost samples (perf report's "Total Lost Samples" on the file)
#   - file size and samples
# and the perfkit/perf ratios (target: at most 1.0, and no lost samples).
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build}
SECS=${2:-3}
RUNS=${3:-3}
PK=$BUILD/src/cli/perfkit
DEMO=$BUILD/demo/perfkit-demo
[ -x "$PK" ] && [ -x "$DEMO" ] || { echo "build first: $PK or $DEMO missing" >&2; exit 1; }
command -v perf >/dev/null || { echo "perf not installed" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
MS=$((SECS * 1000))

# CPU seconds (user+sys) of the children of a subshell that runs "$@"
cpu_of() {
	( "$@" >/dev/null 2>&1; times ) | tail -1 |
		awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]); t += a[1] * 60 + a[2] } print t }'
}

# one run: recorder ($1: none|perfkit|perf); prints "rounds cpu lost size samples"
run() {
	local who=$1 f=$T/$1.data rounds cpu lost=0 size=0 samples=0
	"$DEMO" "$MS" x >"$T/rounds" &
	local dp=$!
	sleep 0.2
	case $who in
	none) sleep $((SECS - 1)); cpu=0 ;;
	perfkit) cpu=$(cpu_of "$PK" record -q -a -F 10000 -g -o "$f" -- sleep $((SECS - 1))) ;;
	perf) cpu=$(cpu_of perf record -q -a -F 10000 -g -o "$f" -- sleep $((SECS - 1))) ;;
	esac
	wait $dp
	rounds=$(awk '{print $1}' "$T/rounds")
	if [ "$who" != none ]; then
		perf report --stdio -i "$f" --sort comm >"$T/rep" 2>/dev/null
		lost=$(awk '/Total Lost Samples/ {print $NF}' "$T/rep")
		samples=$(perf report -D -i "$f" 2>/dev/null | awk '/^ *SAMPLE events:/ {print $3; exit}')
		size=$(stat -c %s "$f")
	fi
	echo "$rounds $cpu ${lost:-0} $size ${samples:-0}"
}

for i in $(seq "$RUNS"); do
	for who in none perfkit perf; do
		echo "$who $(run $who)" >>"$T/results"
	done
done

awk -v secs="$SECS" -v runs="$RUNS" '
{ n[$1]++; r[$1] += $2; c[$1] += $3; l[$1] += $4; s[$1] += $5; sm[$1] += $6 }
END {
	printf "system-wide -F 10000 -g, demo workload %ss, %d runs each (means)\n", secs, runs
	base = r["none"] / n["none"]
	printf "%-8s %12s %10s %12s %8s %12s %10s\n", "", "demo rounds", "slowdown", "recorder CPU", "lost", "file MB", "samples"
	printf "%-8s %12.0f %10s\n", "none", base, "-"
	for (k = 0; k < 2; k++) {
		who = k ? "perf" : "perfkit"
		slow[who] = base / (r[who] / n[who])
		printf "%-8s %12.0f %9.3fx %11.3fs %8.0f %12.2f %10.0f\n", who, r[who] / n[who],
			slow[who], c[who] / n[who], l[who] / n[who], s[who] / n[who] / 1048576,
			sm[who] / n[who]
	}
	printf "perfkit/perf: overhead %.3f, recorder CPU %.3f, file size %.3f\n",
		(slow["perfkit"] - 1) / ((slow["perf"] - 1) > 0.0001 ? slow["perf"] - 1 : 0.0001),
		c["perfkit"] / (c["perf"] > 0 ? c["perf"] : 1), s["perfkit"] / (s["perf"] > 0 ? s["perf"] : 1)
}' "$T/results"
