#!/bin/sh
# Exporters on recordings of growing length: wall time and peak RSS of
# `perfkit convert --to F` for each format, to show that memory follows
# unique stacks, not samples (the longer recordings repeat the same
# stacks).  Not part of the tests.
#
#   sh bench/export.sh [BUILD_DIR]
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build}
pk=$BUILD/src/cli/perfkit
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/work.c" <<'EOC'
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void a(long n) { for (long i = 0; i < n; i++) sink += i; }
__attribute__((noinline)) void b(long n) { for (long i = 0; i < n; i++) sink ^= i; }
int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 1;
	for (long r = 0; r < rounds; r++) { a(50000000); b(50000000); }
	return 0;
}
EOC
cc -O1 -fno-omit-frame-pointer -o "$tmp/work" "$tmp/work.c"
printf '%-8s %-11s %9s %8s %10s\n' rounds format samples secs maxrss_kb
for rounds in 2 8 32; do
	perf record -q -g -F 20000 -e cpu-clock -o "$tmp/p.data" -- "$tmp/work" $rounds >/dev/null 2>&1
	n=$("$pk" report --stats -i "$tmp/p.data" | sed -n 's/^ *SAMPLE events: *\([0-9]*\).*/\1/p' | head -n 1)
	for f in folded flamegraph pprof speedscope gecko chrome html; do
		/usr/bin/time -f '%e %M' -o "$tmp/t" "$pk" convert -i "$tmp/p.data" --to $f \
			-o /dev/null 2>/dev/null || continue
		read -r secs rss <"$tmp/t"
		printf '%-8s %-11s %9s %8s %10s\n' $rounds $f "$n" "$secs" "$rss"
	done
done
