// SPDX-License-Identifier: MIT
/*
 * Cost of one counter read with libperfkit: read() on the fd versus the
 * self-monitoring mmap page (rdpmc when the PMU allows it; software events
 * fall back to read()).  Prints "name ns_per_read how".
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <perfkit/perfkit.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void bench(const char *event, long iters)
{
	struct pk_counter_opts o = {.sz = sizeof(o), .mmap_self = true, .start_enabled = true};
	struct pk_event_list ev = {0};
	struct pk_counter_set *set;
	struct pk_count c;
	bool rdpmc = false;
	double t0, t_read, t_self;

	if (pk_event_list_parse(&ev, event, NULL, NULL) || pk_counter_set_open(&set, &ev, &o) ||
	    pk_counter_state(set, 0) != PK_COUNT_OK) {
		printf("%-12s not supported here\n", event);
		pk_event_list_free(&ev);
		return;
	}
	t0 = now();
	for (long i = 0; i < iters; i++)
		pk_counter_read_one(set, 0, 0, 0, &c);
	t_read = (now() - t0) / (double)iters;
	t0 = now();
	for (long i = 0; i < iters; i++)
		pk_counter_read_self(set, 0, &c, &rdpmc);
	t_self = (now() - t0) / (double)iters;
	printf("%-12s read(): %7.1f ns   mmap page: %7.1f ns (%s)\n", event, t_read, t_self,
	       rdpmc ? "rdpmc" : "read() fallback: no PMU index");
	pk_counter_set_close(set);
	pk_event_list_free(&ev);
}

int main(int argc, char **argv)
{
	long iters = argc > 1 ? strtol(argv[1], NULL, 10) : 200000;

	bench("task-clock", iters);
	bench("page-faults", iters);
	bench("instructions", iters);
	return 0;
}
