// SPDX-License-Identifier: MIT
/*
 * Per-thread counter totals from PERF_RECORD_READ (perf record -s: each
 * inherited counter's count is written when its thread exits, one record
 * per thread and counter), summed per thread and event as perf report -T
 * shows them: threads and events in the order they first came.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "session_internal.h"

static int grow_threads(struct pki_thread_counts *c)
{
	size_t n = c->alloc_threads ? 2 * c->alloc_threads : 16;
	int32_t *pid = realloc(c->pid, n * sizeof(*pid)), *tid;
	uint64_t *sums;

	if (!pid)
		return -ENOMEM;
	c->pid = pid;
	tid = realloc(c->tid, n * sizeof(*tid));
	if (!tid)
		return -ENOMEM;
	c->tid = tid;
	sums = realloc(c->sums, n * c->nr_attrs * sizeof(*sums));
	if (!sums)
		return -ENOMEM;
	c->sums = sums;
	c->alloc_threads = n;
	return 0;
}

/* The row of pid/tid, added last when new. */
static int thread_row(struct pki_thread_counts *c, int32_t pid, int32_t tid, size_t *row)
{
	size_t i = 0;
	int err;

	while (i < c->nr_threads && (c->pid[i] != pid || c->tid[i] != tid))
		i++;
	if (i == c->nr_threads) {
		if (i == c->alloc_threads && (err = grow_threads(c)))
			return err;
		c->pid[i] = pid;
		c->tid[i] = tid;
		memset(c->sums + i * c->nr_attrs, 0, c->nr_attrs * sizeof(*c->sums));
		c->nr_threads++;
	}
	*row = i;
	return 0;
}

int pki_thread_counts_add(struct pk_session *s, const struct pk_attr *attr, int32_t pid,
			  int32_t tid, uint64_t value)
{
	struct pki_thread_counts *c = &s->counts;
	size_t row;
	int err;

	if (!c->order) {
		c->nr_attrs = pk_reader_nr_attrs(s->reader);
		c->order = calloc(c->nr_attrs ? c->nr_attrs : 1, sizeof(*c->order));
		c->seen = calloc(c->nr_attrs ? c->nr_attrs : 1, sizeof(*c->seen));
		if (!c->order || !c->seen)
			return -ENOMEM;
	}
	/* a record of no event of the file counts for none */
	if (!attr || attr->index >= c->nr_attrs)
		return 0;
	err = thread_row(c, pid, tid, &row);
	if (err)
		return err;
	if (!c->seen[attr->index]) {
		c->seen[attr->index] = true;
		c->order[c->nr_order++] = attr->index;
	}
	c->sums[row * c->nr_attrs + attr->index] += value;
	return 0;
}

void pki_thread_counts_free(struct pki_thread_counts *c)
{
	free(c->pid);
	free(c->tid);
	free(c->sums);
	free(c->order);
	free(c->seen);
	free(c->counters);
	free(c->values);
	memset(c, 0, sizeof(*c));
}

int pk_session_thread_counts(struct pk_session *s, struct pk_thread_counts *out)
{
	struct pki_thread_counts *c = &s->counts;
	size_t nt = c->nr_threads, nc = c->nr_order;

	memset(out, 0, sizeof(*out));
	free(c->counters);
	free(c->values);
	c->counters = calloc(nc ? nc : 1, sizeof(*c->counters));
	c->values = calloc(nt && nc ? nt * nc : 1, sizeof(*c->values));
	if (!c->counters || !c->values)
		return -ENOMEM;
	for (size_t k = 0; k < nc; k++)
		c->counters[k] = pk_reader_attr(s->reader, c->order[k]);
	for (size_t t = 0; t < nt; t++)
		for (size_t k = 0; k < nc; k++)
			c->values[t * nc + k] = c->sums[t * c->nr_attrs + c->order[k]];
	*out = (struct pk_thread_counts){.nr_threads = nt,
					 .nr_counters = nc,
					 .pid = c->pid,
					 .tid = c->tid,
					 .counter = c->counters,
					 .value = c->values};
	return 0;
}
