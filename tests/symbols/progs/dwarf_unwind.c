// SPDX-License-Identifier: MIT
/*
 * Workload for dwarf_unwind.sh: nested calls, recursion, calls into a
 * shared library (and back out of it), libc and a system call, so that
 * perf record --call-graph dwarf has user stacks to unwind in the program,
 * the library, libm, libc and from kernel samples.  Built with and without
 * frame pointers; static inline helpers give inlined frames with -g.
 * It leaves with _exit(): see the end of main.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

double dwl_work(double x, int n);
double dwl_callback(double (*fn)(double), double x);

static volatile double sink;

static inline double step(double x)
{
	return x * 1.0000001 + 0.5 / (x + 1.0);
}

__attribute__((noinline)) double leaf(double x)
{
	for (int i = 0; i < 3000; i++)
		x = step(x);
	return x;
}

__attribute__((noinline)) double recurse(double x, int d)
{
	if (d == 0)
		return leaf(x) + dwl_work(x, 150) + dwl_callback(leaf, x);
	return recurse(x + 1, d - 1) * 0.5;
}

__attribute__((noinline)) double deep(double x, int d)
{
	if (d == 0)
		return leaf(x);
	return deep(x + 0.5, d - 1) + 1.0;
}

__attribute__((noinline)) void sys(void)
{
	char buf[256];

	memset(buf, 'x', sizeof(buf));
	for (int i = 0; i < 50; i++)
		if (getppid() < 0 || write(-1, buf, sizeof(buf)) > 0)
			sink++;
}

__attribute__((noinline)) double middle(double x, int i)
{
	if (i % 16 == 0)
		sys();
	if (i % 8 == 0)
		return deep(x, 150);
	return recurse(x, 4) + leaf(x * 2);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 6000;

	for (int i = 0; i < n; i++)
		sink = middle(i, i);
	printf("%f\n", sink);
	fflush(stdout);
	/* not through exit(): a sample in _fini (no CFI) is unwound by
	 * perf 6.1's libunwind with a guess that goes astray */
	_exit(0);
}
