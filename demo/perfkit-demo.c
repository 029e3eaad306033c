// SPDX-License-Identifier: MIT
/*
 * perfkit-demo: a workload with a known call tree, for trying `perfkit
 * record` and for the interop tests.  main() calls, round after round,
 *
 *	work_a	60% of the loop iterations
 *	work_b	30%
 *	work_c	10%
 *
 * each a plain busy loop, until the run time is over (default 1000 ms,
 * or the number of milliseconds given as the first argument).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ROUND 200000UL

static volatile unsigned long sink;
static unsigned long ticks;

/* Called from inside each loop so that the work functions are not leaves:
 * gcc then gives them a frame, and frame-pointer call chains show main. */
__attribute__((noinline)) void tick(void)
{
	ticks++;
	__asm__ volatile("" ::: "memory");
}

/* each function has its own loop, so samples land in it, not in a helper */
#define SPIN(n)                                                                                    \
	do {                                                                                       \
		unsigned long x = sink;                                                            \
		for (unsigned long i = 0; i < (n); i++) {                                          \
			x = x * 2862933555777941757UL + 3037000493UL;                              \
			if (!(i & 0xffff))                                                         \
				tick();                                                            \
		}                                                                                  \
		sink = x;                                                                          \
	} while (0)

__attribute__((noinline)) void work_a(void)
{
	SPIN(6 * ROUND);
}

__attribute__((noinline)) void work_b(void)
{
	SPIN(3 * ROUND);
}

__attribute__((noinline)) void work_c(void)
{
	SPIN(1 * ROUND);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 1000.0;
	double end = now_ms() + (ms > 0 ? ms : 1000.0);
	unsigned long rounds = 0;

	do {
		work_a();
		work_b();
		work_c();
		rounds++;
	} while (now_ms() < end);
	if (argc > 2)
		printf("%lu rounds\n", rounds);
	return 0;
}
