#!/bin/sh
# Samples in PLT stubs against perf.  gcc's _init has no size and sits
# just before .plt: perf stretches it to the next ELF symbol before it adds
# the name@plt stubs, so both cover each stub and perf's symbol tree walk
# answers _init+off for some and name@plt for others.  A program calling
# libc through the PLT in a hot loop (built without -fno-plt) is recorded
# here with and without -g; perf script (-F ip,sym,symoff,dso and default)
# and perf report --stdio (default, --no-children) must be identical.
# shellcheck source=SCRIPTDIR/compare_lib.sh
. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"
cc=$(command -v cc || command -v gcc) || { echo "no C compiler"; exit 77; }
[ "$(uname -m)" = x86_64 ] || { echo "PLT layout checked on x86-64 only"; exit 77; }

cat >"$tmp/plt.c" <<'PROG'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int cmp(const void *a, const void *b) { return memcmp(a, b, 4); }
int main(int argc, char **argv)
{
	char buf[256], out[64];
	unsigned long s = 0;
	int n = argc > 1 ? atoi(argv[1]) : 300000;

	for (int i = 0; i < n; i++) {
		for (int j = 0; j < 32; j++)
			buf[j] = (char)(i * 7 + j);
		qsort(buf, 8, 4, cmp);
		snprintf(out, sizeof(out), "%d", i);
		s += strlen(out) + (memchr(buf, 'z', 32) != NULL);
		s += strchr(out, '7') != NULL;
		memmove(buf + 1, buf, (size_t)(i & 15));
		s += (unsigned long)strncmp(out, buf, (size_t)(i & 3));
	}
	printf("%lu\n", s & 1);
	return 0;
}
PROG
$cc -O2 -o "$tmp/plt" "$tmp/plt.c" || { echo "cc failed"; exit 77; }
# the case at hand: _init without a size, and a .plt with stubs
readelf -sW "$tmp/plt" | grep -Eq ' 0 FUNC .* _init$' ||
	{ echo "_init has a size here: nothing overlaps"; exit 77; }
readelf -SW "$tmp/plt" | grep -q ' \.plt ' || { echo "no .plt"; exit 77; }

perf record -q -e cpu-clock -F 20000 -o "$tmp/p.data" -- "$tmp/plt" >/dev/null 2>&1
[ -s "$tmp/p.data" ] || { echo "perf record failed"; exit 77; }
perf record -q -g -e cpu-clock -F 20000 -o "$tmp/g.data" -- "$tmp/plt" >/dev/null 2>&1

for f in p g; do
	check_script "$f" "$tmp/$f.data" -F ip,sym,symoff,dso
	check_script "$f" "$tmp/$f.data"
	check_report "$f" "$tmp/$f.data"
	check_report "$f" "$tmp/$f.data" --no-children
done
# the checks only mean something when stubs were sampled: say what was seen
perf script -i "$tmp/p.data" -F ip,sym,dso 2>/dev/null | grep -F "($tmp/plt)" |
	awk '{ print $2 }' >"$tmp/syms"
echo "samples in the program's stubs: $(grep -c '@plt$' "$tmp/syms") as name@plt," \
	"$(grep -c '^_init$' "$tmp/syms") as _init"
cmp_finish "outputs identical to perf" 8
