// SPDX-License-Identifier: MIT
/*
 * Time ordering.  perf writes per-CPU buffers one after another and puts a
 * FINISHED_ROUND after each pass over them; no record after a round marker
 * is older than the newest record of the round before the previous one.
 * So at each marker we sort what is queued and deliver everything up to the
 * newest timestamp seen before the previous marker.  Memory is bounded by
 * two rounds; a stream with no markers is capped and flushed by halves.
 *
 * Records without a timestamp, and perf's own records, are delivered at
 * once, as perf does.
 *
 * The queue stays in arrival order; what is sorted is a separate array of
 * (time, index) keys, with a natural merge sort: a round is a handful of
 * runs already in order (one per CPU buffer, and what the last round
 * left), so sorting it takes a few linear passes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "reader_internal.h"

#define QUEUE_BYTES_MAX (256u << 20)

struct queued {
	uint64_t time;
	size_t off;		/* record bytes in the arena */
	struct pk_record rec;	/* raw fixed up on delivery */
};

/* Arrival order breaks ties in time: the index does, as entries are
 * queued in arrival order and compact() keeps them in delivery order. */
struct okey {
	uint64_t time;
	size_t idx;
};

struct pki_order {
	struct queued *q;	/* in arrival order */
	struct queued *spare;	/* compact()'s next q */
	struct okey *keys;	/* q sorted, from release_upto() */
	struct okey *tmp;	/* the sort's other half */
	size_t nr, cap;
	uint8_t *arena;
	size_t arena_len, arena_cap;
	uint64_t max_time;	/* newest queued so far */
	uint64_t flush_limit;	/* deliver up to this at the next marker */
	size_t ready;		/* keys[0, ready) may go */
	size_t next;		/* next of them to deliver */
	bool draining;		/* end of stream: everything may go */
	struct pk_record out;
	struct pk_record pass;	/* a record delivered without queueing */
	bool have_pass;
	int end;		/* what the stream returned when it ended */
	bool ended;
};

int pki_order_create(struct pki_order **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void pki_order_destroy(struct pki_order *o)
{
	if (!o)
		return;
	free(o->q);
	free(o->spare);
	free(o->keys);
	free(o->tmp);
	free(o->arena);
	free(o);
}

static bool key_before(const struct okey *a, const struct okey *b)
{
	return a->time < b->time || (a->time == b->time && a->idx < b->idx);
}

/* The end of the run in order that starts at i. */
static size_t run_end(const struct okey *k, size_t i, size_t n)
{
	while (++i < n && !key_before(&k[i], &k[i - 1]))
		;
	return i;
}

static void merge(const struct okey *a, size_t na, const struct okey *b, size_t nb,
		  struct okey *out)
{
	while (na && nb) {
		if (key_before(b, a)) {
			*out++ = *b++;
			nb--;
		} else {
			*out++ = *a++;
			na--;
		}
	}
	memcpy(out, a, na * sizeof(*a));
	memcpy(out + na, b, nb * sizeof(*b));
}

/* Sort keys[0, n): each pass merges pairs of neighbouring runs into tmp,
 * then the halves swap. */
static void sort_keys(struct pki_order *o, size_t n)
{
	while (run_end(o->keys, 0, n) < n) {
		struct okey *k = o->keys, *swap;

		for (size_t i = 0; i < n;) {
			size_t mid = run_end(k, i, n), end = mid < n ? run_end(k, mid, n) : n;

			merge(k + i, mid - i, k + mid, end - mid, o->tmp + i);
			i = end;
		}
		swap = o->keys;
		o->keys = o->tmp;
		o->tmp = swap;
	}
}

/* Drop delivered entries and their bytes; keep the rest, in delivery
 * order, copied into a fresh arena. */
static int compact(struct pki_order *o)
{
	size_t keep = o->nr - o->next, len = 0;
	uint8_t *fresh = malloc(o->arena_cap ? o->arena_cap : 1);
	struct queued *swap;

	if (!fresh)
		return -ENOMEM;
	for (size_t i = 0; i < keep; i++) {
		struct queued *e = &o->spare[i];

		*e = o->q[o->keys[o->next + i].idx];
		memcpy(fresh + len, o->arena + e->off, e->rec.size);
		e->off = len;
		len += e->rec.size;
	}
	swap = o->q;
	o->q = o->spare;
	o->spare = swap;
	free(o->arena);
	o->arena = fresh;
	o->nr = keep;
	o->arena_len = len;
	o->ready = o->next = 0;
	return 0;
}

/* Room for n entries in q and the arrays that go with it. */
static int grow(struct pki_order *o, size_t n)
{
	struct queued **qs[] = {&o->q, &o->spare};
	struct okey **ks[] = {&o->keys, &o->tmp};

	for (size_t i = 0; i < 2; i++) {
		struct queued *q = realloc(*qs[i], n * sizeof(*q));
		struct okey *k;

		if (!q)
			return -ENOMEM;
		*qs[i] = q;
		k = realloc(*ks[i], n * sizeof(*k));
		if (!k)
			return -ENOMEM;
		*ks[i] = k;
	}
	o->cap = n;
	return 0;
}

static int enqueue(struct pki_order *o, const struct pk_record *rec)
{
	struct queued *e;

	if (o->nr == o->cap && grow(o, o->cap ? o->cap * 2 : 4096))
		return -ENOMEM;
	if (o->arena_len + rec->size > o->arena_cap) {
		size_t ncap = o->arena_cap ? o->arena_cap * 2 : (64u << 10);
		uint8_t *n;

		while (ncap < o->arena_len + rec->size)
			ncap *= 2;
		n = realloc(o->arena, ncap);
		if (!n)
			return -ENOMEM;
		o->arena = n;
		o->arena_cap = ncap;
	}
	e = &o->q[o->nr++];
	e->time = rec->time;
	e->off = o->arena_len;
	e->rec = *rec;
	memcpy(o->arena + o->arena_len, rec->raw, rec->size);
	o->arena_len += rec->size;
	if (rec->time > o->max_time)
		o->max_time = rec->time;
	return 0;
}

/* Sort the queue and mark entries up to limit as ready to deliver. */
static void release_upto(struct pki_order *o, uint64_t limit)
{
	size_t n = 0;

	for (size_t i = 0; i < o->nr; i++)
		o->keys[i] = (struct okey){o->q[i].time, i};
	sort_keys(o, o->nr);
	while (n < o->nr && o->keys[n].time <= limit)
		n++;
	o->ready = n;
	o->next = 0;
}

static bool pass_through(const struct pk_record *rec)
{
	return rec->time == PK_NO_TIME || rec->type >= 64;
}

/* Read from the stream until something can be delivered. */
static int fill(struct pk_reader *r, struct pki_order *o)
{
	struct pk_record rec;
	int ret;

	while (!o->ended) {
		ret = pki_reader_next_raw(r, &rec);
		if (ret <= 0) {
			o->ended = true;
			o->end = ret;
			release_upto(o, UINT64_MAX);
			return 0;
		}
		if (rec.type == PK_RECORD_FINISHED_ROUND || rec.type == PK_RECORD_FINISHED_INIT) {
			uint64_t limit = rec.type == PK_RECORD_FINISHED_INIT ? UINT64_MAX
									     : o->flush_limit;

			o->flush_limit = o->max_time;
			release_upto(o, limit);
		}
		if (pass_through(&rec)) {
			o->pass = rec;
			o->have_pass = true;
			return 0;
		}
		ret = enqueue(o, &rec);
		if (ret)
			return ret;
		if (o->arena_len > QUEUE_BYTES_MAX) {
			/* no round markers: free memory by delivering the older half */
			release_upto(o, UINT64_MAX);
			o->ready = o->nr / 2;
			return 0;
		}
	}
	return 0;
}

int pki_order_next(struct pk_reader *r, struct pki_order *o, const struct pk_record **rec)
{
	int err;

	for (;;) {
		if (o->next < o->ready) {
			struct queued *e = &o->q[o->keys[o->next++].idx];

			o->out = e->rec;
			o->out.raw = o->arena + e->off;
			*rec = &o->out;
			return 1;
		}
		if (o->have_pass) {
			o->have_pass = false;
			r->rec = o->pass;
			*rec = &r->rec;
			return 1;
		}
		if (o->ended)
			return o->end;
		if (o->next) {
			err = compact(o);
			if (err)
				return err;
		}
		err = fill(r, o);
		if (err)
			return err;
	}
}
