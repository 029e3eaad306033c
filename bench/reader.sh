#!/bin/sh
# Reader speed: record a perf.data of at least 200 MB (system-wide, with
# callchains), then in one run time a plain sequential read of the file,
# `perfkit report --stats` and `perf report --stats` (best of 3, warm page
# cache), and print the ratios.  Not part of the tests.
#
#   sh bench/reader.sh [FILE]   # FILE: an existing recording to reuse
set -eu
cd "$(dirname "$0")/.."
pk=${PERFKIT:-build/src/cli/perfkit}
file=${1:-${TMPDIR:-/tmp}/perfkit-bench-reader.data}
min_mb=${MIN_MB:-200}

if [ ! -s "$file" ] || [ "$(du -m "$file" | cut -f1)" -lt "$min_mb" ]; then
	echo "recording $file (>= $min_mb MB)..." >&2
	load() { i=0; while [ $i -lt 4000000 ]; do i=$((i + 1)); done; }
	(load & load & load & wait) &
	loadpid=$!
	secs=5
	while :; do
		perf record -q -a -g -F 20000 -e cpu-clock -o "$file" -- sleep "$secs" 2>/dev/null
		[ "$(du -m "$file" | cut -f1)" -ge "$min_mb" ] && break
		secs=$((secs * 2))
	done
	kill $loadpid 2>/dev/null || true
fi
size_mb=$(du -m "$file" | cut -f1)

best() { # best wall time in seconds of 3 runs of "$@"
	b=
	for _ in 1 2 3; do
		s=$(date +%s.%N)
		"$@" >/dev/null 2>&1 || true
		e=$(date +%s.%N)
		t=$(echo "$e - $s" | bc -l)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" = 1 ]; then b=$t; fi
	done
	echo "$b"
}

cat "$file" >/dev/null # warm the page cache
t_cat=$(best cat "$file")
t_pk=$(best "$pk" report --stats -i "$file")
t_perf=$(best perf report --stats -i "$file")
printf 'file: %s (%s MB)\n' "$file" "$size_mb"
printf 'plain read (cat):        %8.3f s\n' "$t_cat"
printf 'perfkit report --stats:  %8.3f s\n' "$t_pk"
printf 'perf report --stats:     %8.3f s\n' "$t_perf"
printf 'perfkit / plain read:    %8.2fx  (target: <= 2x)\n' "$(echo "$t_pk / $t_cat" | bc -l)"
printf 'perf / perfkit:          %8.2fx  (target: > 1x)\n' "$(echo "$t_perf / $t_pk" | bc -l)"
