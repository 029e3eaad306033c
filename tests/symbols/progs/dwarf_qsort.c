// SPDX-License-Identifier: MIT
/*
 * Workload for dwarf_unwind.sh: glibc's qsort.  Its merge sort
 * (msort_with_tmp) is recursive and inlined into itself and into
 * qsort_r, so with libc's debug info installed the chains perf unwinds
 * hold runs of "msort_with_tmp (inlined)" frames, inlined into two
 * different functions, which perf's call trees merge by name.  The
 * numbers come from a generator of our own (rand() would put more libc
 * functions in the histogram), the comparison function is ours.
 * Leaves with _exit(), as dwarf_unwind.c does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static unsigned int seed = 12345;

static int next(void)
{
	seed = seed * 1103515245u + 12345u;
	return (int)(seed >> 1);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 400000;
	int rounds = argc > 2 ? atoi(argv[2]) : 3;
	long sum = 0;
	int *v;

	if (n < 1 || rounds < 1)
		return 2;
	v = malloc((size_t)n * sizeof(*v));
	if (!v)
		return 1;
	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < n; i++)
			v[i] = next();
		qsort(v, (size_t)n, sizeof(*v), cmp_int);
		sum += v[n / 2];
	}
	printf("%ld\n", sum);
	fflush(stdout);
	_exit(0);
}
