#!/bin/sh
# perfkit report --stats against the real perf on every corpus file.
#  - files perf 6.1 reads: our output must equal tests/reader/expected/*.stats,
#    produced by perf (regen-expected.sh);
#  - files perf 6.1 refuses (attr size 152, pipe-mode zstd, COMPRESSED2):
#    our per-type counts must equal those of count_records.py, a separate
#    small implementation that unpacks compressed data with the zstd tool;
#  - the corrupt file: one error line naming the offset, non-zero exit.
set -u
here=$(cd "$(dirname "$0")" && pwd)
corpus=${PERFKIT_CORPUS:?}
[ -d "$corpus" ] || { echo "FAIL: no corpus at $corpus"; exit 1; }
pk=${PERFKIT:?}
fail=0 n=0
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

for f in "$corpus"/*/*; do
	case $f in *.md) continue ;; esac
	name=$(basename "$f")
	n=$((n + 1))
	"$pk" report --stats -i "$f" >"$out" 2>"$err"
	rc=$?
	case $name in
	*corrupted*)
		if [ $rc -eq 0 ] || ! grep -q "offset 0x" "$err"; then
			echo "FAIL $name: expected an error naming the offset (rc=$rc)"
			cat "$err"
			fail=$((fail + 1))
		fi
		continue
		;;
	esac
	if [ $rc -ne 0 ]; then
		echo "FAIL $name: exit $rc"
		cat "$err"
		fail=$((fail + 1))
		continue
	fi
	if [ -f "$here/expected/$name.stats" ]; then
		if ! diff -u "$here/expected/$name.stats" "$out"; then
			echo "FAIL $name: differs from perf"
			fail=$((fail + 1))
		fi
		continue
	fi
	# perf cannot read it: compare the counts by type with the Python reader
	want=$(python3 "$here/count_records.py" "$f" | awk '{s += $2; print} END {print "TOTAL", s}' | sort)
	got=$(awk '/events:.*%/ || $1 == "TOTAL" {print $1, $3}' "$out" |
		python3 -c '
import sys
names = {"MMAP":1,"LOST":2,"COMM":3,"EXIT":4,"THROTTLE":5,"UNTHROTTLE":6,"FORK":7,"READ":8,
"SAMPLE":9,"MMAP2":10,"AUX":11,"ITRACE_START":12,"LOST_SAMPLES":13,"SWITCH":14,
"SWITCH_CPU_WIDE":15,"NAMESPACES":16,"KSYMBOL":17,"BPF_EVENT":18,"CGROUP":19,"TEXT_POKE":20,
"ATTR":64,"EVENT_TYPE":65,"TRACING_DATA":66,"BUILD_ID":67,"FINISHED_ROUND":68,"ID_INDEX":69,
"AUXTRACE_INFO":70,"AUXTRACE":71,"AUXTRACE_ERROR":72,"THREAD_MAP":73,"CPU_MAP":74,
"STAT_CONFIG":75,"STAT":76,"STAT_ROUND":77,"EVENT_UPDATE":78,"TIME_CONV":79,"FEATURE":80,
"COMPRESSED":81,"FINISHED_INIT":82,"COMPRESSED2":83}
for line in sys.stdin:
    k, v = line.split()
    print(names.get(k, k), v)' | sort)
	if [ "$want" != "$got" ]; then
		echo "FAIL $name: counts differ from count_records.py"
		echo "want: $want" | tr '\n' ' '
		echo
		echo "got:  $got" | tr '\n' ' '
		echo
		fail=$((fail + 1))
	fi
done
echo "stats_corpus: $n files, $fail failed"
[ $fail -eq 0 ]
