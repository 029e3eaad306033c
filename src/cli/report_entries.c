// SPDX-License-Identifier: MIT
/*
 * The entry lines and call trees of one event, formatted in memory by two
 * threads and written in order: a big report is hundreds of thousands of
 * entries whose formatting is independent, so blocks of them alternate
 * between this thread and a helper.  The helper formats into two buffers
 * by turns, each reused once its text is written.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include "report_stdio.h"

#define BLOCK	     2048 /* entries per block */
#define MIN_THREADED 8	  /* blocks: fewer are not worth a thread */

struct entries {
	FILE *out;
	const struct report_layout *l;
	const struct pk_hist_event *ev;
	double percent_limit;
	uint64_t total;
	uint64_t nr_blocks;
	/* the helper's, for its blocks 1, 3, 5, ... by turns */
	struct report_out *buf[2];
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t formatted; /* helper blocks done */
	uint64_t written;   /* helper blocks written out */
};

/*
 * The call trees' roots lie scattered in the library's arena, and most
 * entries only need a look at a root and its first child to find nothing
 * to print: three dependent cache misses per entry, which were most of
 * the time printing took.  They are fetched a few entries ahead, each
 * step once the one before it has arrived.  (Inlined: gcc finds a
 * function that only prefetches free of side effects and drops the calls
 * to it.)
 */
static inline __attribute__((always_inline)) void prefetch_trees(const struct pk_hist_event *ev,
								 uint64_t i, uint64_t end)
{
	const struct pk_callchain_node *r;

	if (i + 16 < end)
		__builtin_prefetch(ev->entries[i + 16].callchain);
	if (i + 8 < end && (r = ev->entries[i + 8].callchain))
		__builtin_prefetch(r->children);
	if (i + 4 < end && (r = ev->entries[i + 4].callchain) && r->nr_children)
		__builtin_prefetch(r->children[0]);
}

static void format_block(const struct entries *j, uint64_t block, struct report_out *b)
{
	const struct report_layout *l = j->l;
	uint64_t end = (block + 1) * BLOCK;

	if (end > j->ev->nr_entries)
		end = j->ev->nr_entries;
	for (uint64_t i = block * BLOCK; i < end; i++) {
		const struct pk_hist_entry *e = &j->ev->entries[i];
		uint64_t v = l->children ? e->children : e->self;

		if (l->cg.mode != REPORT_GRAPH_NONE)
			prefetch_trees(j->ev, i, end);
		if (j->percent_limit > 0 && j->total &&
		    100.0 * (double)v / (double)j->total < j->percent_limit)
			continue;
		report_columns_entry(b, l, e, j->ev);
		/* the trees are of all samples, even with --percentage
		 * relative */
		report_callchain_print(b, e, j->ev->total_period, &l->cg);
	}
}

/* The helper: block 2k + 1 into buf[k % 2], once block 2k - 3's text,
 * there before, is written. */
static void *helper(void *arg)
{
	struct entries *j = arg;

	for (uint64_t k = 0; 2 * k + 1 < j->nr_blocks; k++) {
		pthread_mutex_lock(&j->lock);
		while (j->written + 2 <= k)
			pthread_cond_wait(&j->cond, &j->lock);
		pthread_mutex_unlock(&j->lock);
		format_block(j, 2 * k + 1, j->buf[k % 2]);
		pthread_mutex_lock(&j->lock);
		j->formatted = k + 1;
		pthread_cond_broadcast(&j->cond);
		pthread_mutex_unlock(&j->lock);
	}
	return NULL;
}

/* Write the helper's block 2k + 1 once it is formatted. */
static int write_helper_block(struct entries *j, uint64_t k)
{
	int err;

	pthread_mutex_lock(&j->lock);
	while (j->formatted <= k)
		pthread_cond_wait(&j->cond, &j->lock);
	pthread_mutex_unlock(&j->lock);
	err = report_out_flush(j->buf[k % 2], j->out);
	pthread_mutex_lock(&j->lock);
	j->written = k + 1;
	pthread_cond_broadcast(&j->cond);
	pthread_mutex_unlock(&j->lock);
	return err;
}

/* Every block, the helper's taken in turn when there is one. */
static int run(struct entries *j, struct report_out *own, bool threaded)
{
	int err = 0;

	for (uint64_t b = 0; b < j->nr_blocks; b++) {
		int e;

		if (threaded && b % 2) {
			e = write_helper_block(j, b / 2);
		} else {
			format_block(j, b, own);
			e = report_out_flush(own, j->out);
		}
		/* the helper is waited for to the end even so */
		if (!err)
			err = e;
	}
	return err;
}

static struct report_out *out_new(void)
{
	struct report_out *b = malloc(sizeof(*b));

	if (b)
		report_out_init(b);
	return b;
}

static void out_free(struct report_out *b)
{
	if (!b)
		return;
	report_out_free(b);
	free(b);
}

int report_entries_print(FILE *out, const struct report_layout *l, const struct pk_hist_event *ev,
			 double percent_limit, uint64_t total)
{
	struct entries j = {.out = out,
			    .l = l,
			    .ev = ev,
			    .percent_limit = percent_limit,
			    .total = total,
			    .nr_blocks = (ev->nr_entries + BLOCK - 1) / BLOCK};
	struct report_out *own = out_new();
	bool threaded = false;
	pthread_t thread;
	int err;

	if (!own)
		return -ENOMEM;
	pthread_mutex_init(&j.lock, NULL);
	pthread_cond_init(&j.cond, NULL);
	if (j.nr_blocks >= MIN_THREADED) {
		j.buf[0] = out_new();
		j.buf[1] = out_new();
		/* without a second thread (or its memory) one does it all */
		threaded = j.buf[0] && j.buf[1] && !pthread_create(&thread, NULL, helper, &j);
	}
	err = run(&j, own, threaded);
	if (threaded)
		pthread_join(thread, NULL);
	out_free(j.buf[0]);
	out_free(j.buf[1]);
	out_free(own);
	pthread_mutex_destroy(&j.lock);
	pthread_cond_destroy(&j.cond);
	return err;
}
