// SPDX-License-Identifier: MIT
/* Reading counters: plain, per group in one read(), and through the mmap page. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "counter_internal.h"

#define MAX_GROUP 64

static bool valid(const struct pk_counter_set *set, int ev, int c, int t)
{
	return set && ev >= 0 && ev < set->nr_ev && c >= 0 && c < set->nr_cpus && t >= 0 &&
	       t < set->nr_threads;
}

static int read_fd(struct pk_counter_set *set, int fd, uint64_t *buf, size_t words)
{
	ssize_t n = read(fd, buf, words * sizeof(uint64_t));

	if (n < 0) {
		int err = errno;
		snprintf(set->errmsg, sizeof(set->errmsg), "read counter: %s", strerror(err));
		return -err;
	}
	if ((size_t)n < 3 * sizeof(uint64_t)) {
		snprintf(set->errmsg, sizeof(set->errmsg), "short counter read (%zd bytes)", n);
		return -EIO;
	}
	return (int)(n / (ssize_t)sizeof(uint64_t));
}

int pk_counter_read_group(struct pk_counter_set *set, int leader, int cpu_i, int thread_i,
			  struct pk_count *out, int nr)
{
	uint64_t buf[3 + MAX_GROUP];
	int fd, words;
	uint64_t n;

	if (!valid(set, leader, cpu_i, thread_i) || !out)
		return -EINVAL;
	if (!set->group_read || set->list->ev[leader].leader != leader ||
	    set->list->ev[leader].group_size < 2) {
		snprintf(set->errmsg, sizeof(set->errmsg), "event %d does not lead a group read",
			 leader);
		return -EINVAL;
	}
	fd = *pki_counter_fd(set, leader, cpu_i, thread_i);
	if (fd < 0)
		return -ENOENT;
	words = read_fd(set, fd, buf, sizeof(buf) / sizeof(buf[0]));
	if (words < 0)
		return words;
	/* { nr, time_enabled, time_running, value[nr] } */
	n = buf[0];
	if (n > (uint64_t)words - 3)
		return -EIO;
	for (int i = 0; i < nr; i++) {
		out[i].ena = buf[1];
		out[i].run = buf[2];
		out[i].val = (uint64_t)i < n ? buf[3 + i] : 0;
	}
	return (int)n;
}

int pk_counter_read_one(struct pk_counter_set *set, int ev, int cpu_i, int thread_i,
			struct pk_count *out)
{
	uint64_t buf[3];
	int fd, leader, ret;

	if (!valid(set, ev, cpu_i, thread_i) || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (set->state[ev] == PK_COUNT_NOT_SUPPORTED)
		return 0;
	if (set->list->ev[ev].tool) {
		/* one value for the whole set: on its first CPU and thread */
		if (!cpu_i && !thread_i)
			out->val = out->ena = out->run =
				pki_counter_set_tool_value(set, set->list->ev[ev].tool);
		return 0;
	}
	leader = set->list->ev[ev].leader;
	if (set->group_read && set->list->ev[leader].group_size > 1) {
		struct pk_count g[MAX_GROUP];
		int idx = ev - leader;

		if (idx >= MAX_GROUP)
			return -E2BIG;
		ret = pk_counter_read_group(set, leader, cpu_i, thread_i, g, idx + 1);
		if (ret == -ENOENT)
			return 0;
		if (ret < 0)
			return ret;
		*out = g[idx];
		return 0;
	}
	fd = *pki_counter_fd(set, ev, cpu_i, thread_i);
	if (fd < 0)
		return 0;
	ret = read_fd(set, fd, buf, 3);
	if (ret < 0)
		return ret;
	out->val = buf[0];
	out->ena = buf[1];
	out->run = buf[2];
	return 0;
}

int pk_counter_read(struct pk_counter_set *set, int ev, struct pk_count *out)
{
	struct pk_count one;

	if (!set || !out || ev < 0 || ev >= set->nr_ev)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	for (int c = 0; c < set->nr_cpus; c++) {
		for (int t = 0; t < set->nr_threads; t++) {
			int ret = pk_counter_read_one(set, ev, c, t, &one);

			if (ret)
				return ret;
			out->val += one.val;
			out->ena += one.ena;
			out->run += one.run;
		}
	}
	return 0;
}

#if defined(__x86_64__) || defined(__i386__)
static inline uint64_t rdpmc(unsigned int counter)
{
	uint32_t lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return lo | (uint64_t)hi << 32;
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return lo | (uint64_t)hi << 32;
}
#define HAVE_RDPMC 1
#else
#define HAVE_RDPMC 0
#endif

#define barrier() __asm__ volatile("" ::: "memory")

/*
 * The seqlock protocol of perf_event_mmap_page: retry while the kernel
 * updated the page under us.  Returns false when rdpmc cannot be used.
 */
static bool read_page(volatile struct perf_event_mmap_page *pc, struct pk_count *out)
{
#if HAVE_RDPMC
	uint32_t seq, idx;
	uint64_t count, ena, run;

	do {
		seq = pc->lock;
		barrier();
		ena = pc->time_enabled;
		run = pc->time_running;
		idx = pc->index;
		count = (uint64_t)pc->offset;
		if (!pc->cap_user_rdpmc || !idx)
			return false;
		if (pc->cap_user_time) {
			/* Time since the kernel last updated the page; the counter is
			 * on the PMU (idx != 0), so it ran all that time too. */
			uint64_t cyc = rdtsc(), shift = pc->time_shift, mult = pc->time_mult;
			uint64_t quot = cyc >> shift, rem = cyc & (((uint64_t)1 << shift) - 1);
			uint64_t delta = pc->time_offset + quot * mult + ((rem * mult) >> shift);

			ena += delta;
			run += delta;
		}
		{
			unsigned int width = pc->pmc_width;
			uint64_t raw = rdpmc(idx - 1);
			int64_t pmc = (int64_t)raw;

			/* Sign-extend the counter's width-bit value. */
			if (width && width < 64)
				pmc = (int64_t)(raw << (64 - width)) >> (64 - width);
			count += (uint64_t)pmc;
		}
		barrier();
	} while (pc->lock != seq);
	out->val = count;
	out->ena = ena;
	out->run = run;
	return true;
#else
	(void)pc;
	(void)out;
	return false;
#endif
}

int pk_counter_read_self(struct pk_counter_set *set, int ev, struct pk_count *out,
			 bool *used_rdpmc)
{
	void *page;

	if (!valid(set, ev, 0, 0) || !out)
		return -EINVAL;
	page = set->pages[pki_counter_slot(set, ev, 0, 0)];
	if (used_rdpmc)
		*used_rdpmc = false;
	if (page && read_page(page, out)) {
		if (used_rdpmc)
			*used_rdpmc = true;
		return 0;
	}
	return pk_counter_read_one(set, ev, 0, 0, out);
}
