/* SPDX-License-Identifier: MIT */
/* The counter set's layout, shared by the counting files. */
#ifndef PK_COUNTER_INTERNAL_H
#define PK_COUNTER_INTERNAL_H

#include <perfkit/counter.h>

struct pk_counter_set {
	const struct pk_event_list *list;
	int nr_ev, nr_cpus, nr_threads;
	int *cpus;		/* -1: any CPU */
	pid_t *tids;		/* 0: the caller, -1: all (system-wide) */
	int *fds;		/* [ev][cpu][thread]; -1 when not opened there */
	void **pages;		/* user pages (mmap_self), same index */
	unsigned char *state;	/* enum pk_count_state per event */
	bool group_read;
	/* tool events (duration_time): the time the set ran */
	bool running;
	uint64_t run_start, run_total;	/* CLOCK_MONOTONIC ns */
	uint64_t user_ns, system_ns;	/* of pk_counter_set_tool_rusage() */
	char errmsg[256];
};

static inline size_t pki_counter_slot(const struct pk_counter_set *s, int ev, int c, int t)
{
	return ((size_t)ev * (size_t)s->nr_cpus + (size_t)c) * (size_t)s->nr_threads + (size_t)t;
}

static inline int *pki_counter_fd(struct pk_counter_set *s, int ev, int c, int t)
{
	return &s->fds[pki_counter_slot(s, ev, c, t)];
}

/* The value of tool event kind tool (PK_EVENT_TOOL_*) now. */
uint64_t pki_counter_set_tool_value(const struct pk_counter_set *s, unsigned int tool);

#endif
