#!/bin/sh
# Peak memory (max RSS from /usr/bin/time -v) of `perfkit report --stats`,
# `perfkit report --stdio` and `perfkit convert --to folded` on system-wide
# recordings with callchains of about 50 MB, 200 MB and 1 GB.  Recordings
# are made with perf (perf record -a -g -F 20000 --max-size) and kept in
# $TMPDIR for the next run.  Not part of the tests.
#
#   sh bench/memory.sh [SIZES_MB...]     # default: 50 200 1000
set -eu
cd "$(dirname "$0")/.."
pk=${PERFKIT:-build/src/cli/perfkit}
dir=${TMPDIR:-/tmp}
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (GNU time)" >&2; exit 1; }
[ $# -gt 0 ] || set -- 50 200 1000

record() { # record FILE MB: a recording of about MB megabytes
	load() { i=0; while :; do i=$((i + 1)); done; }
	load &
	l1=$!
	load &
	l2=$!
	perf record -q -a -g -F 20000 -e cpu-clock --max-size="${2}M" -o "$1" \
		-- sleep 3600 >/dev/null 2>&1 || true
	kill $l1 $l2 2>/dev/null || true
}

peak() { # peak KB of "$@", output discarded
	/usr/bin/time -v "$@" >/dev/null 2>"$dir/memory-bench.time" || true
	awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }' \
		"$dir/memory-bench.time"
}

printf '%-8s %-8s %16s %16s %18s\n' size file_mb "report --stats" "report --stdio" \
	"convert folded"
for mb in "$@"; do
	file="$dir/perfkit-bench-mem-$mb.data"
	if [ ! -s "$file" ]; then
		echo "recording $file (about $mb MB)..." >&2
		record "$file" "$mb"
	fi
	real_mb=$(du -m "$file" | cut -f1)
	s=$(peak "$pk" report --stats -i "$file")
	r=$(peak "$pk" report --stdio -i "$file")
	f=$(peak "$pk" convert --to folded -i "$file" -o "$dir/memory-bench.folded")
	rm -f "$dir/memory-bench.folded"
	printf '%-8s %-8s %13s KB %13s KB %15s KB\n' "${mb}M" "$real_mb" "$s" "$r" "$f"
done
rm -f "$dir/memory-bench.time"
