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
#include "internal.h"

/* At most this many thread x event sums (128 MiB): a file claiming more
 * threads keeps the first ones (said once in debug output). */
#define MAX_SUMS (1u << 24)

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

static size_t slot_of(int32_t pid, int32_t tid, size_t mask)
{
	uint64_t h = ((uint64_t)(uint32_t)pid << 32 | (uint32_t)tid) * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 32) & mask;
}

/* The rows by pid/tid, open addressing, at most half full: a file of
 * many threads costs no more than one of a few. */
static int grow_slots(struct pki_thread_counts *c)
{
	size_t n = c->nr_slots ? 2 * c->nr_slots : 64;
	uint32_t *slots;

	if (c->nr_threads * 2 < c->nr_slots)
		return 0;
	slots = calloc(n, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < c->nr_threads; i++) {
		size_t j = slot_of(c->pid[i], c->tid[i], n - 1);

		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = (uint32_t)i + 1;
	}
	free(c->slots);
	c->slots = slots;
	c->nr_slots = n;
	return 0;
}

/* The row of pid/tid, added last when new. */
static int thread_row(struct pki_thread_counts *c, int32_t pid, int32_t tid, size_t *row)
{
	size_t j, i;
	int err;

	if ((err = grow_slots(c)))
		return err;
	for (j = slot_of(pid, tid, c->nr_slots - 1); c->slots[j]; j = (j + 1) & (c->nr_slots - 1)) {
		i = c->slots[j] - 1;
		if (c->pid[i] == pid && c->tid[i] == tid) {
			*row = i;
			return 0;
		}
	}
	i = c->nr_threads;
	if ((i + 1) * c->nr_attrs > MAX_SUMS)
		return -E2BIG;
	if (i == c->alloc_threads && (err = grow_threads(c)))
		return err;
	c->pid[i] = pid;
	c->tid[i] = tid;
	memset(c->sums + i * c->nr_attrs, 0, c->nr_attrs * sizeof(*c->sums));
	c->slots[j] = (uint32_t)++c->nr_threads;
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
	if (err == -E2BIG) {
		if (!c->full)
			pki_debug("-T: more than %u thread counts, later threads left out",
				  MAX_SUMS);
		c->full = true;
		return 0;
	}
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
	free(c->slots);
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
