// SPDX-License-Identifier: MIT
/*
 * Every entry's call tree sorted in a second thread while the calling
 * thread puts the entries themselves in order (finish() in hist.c): the
 * two take about as long, and neither needs the other's result.  The one
 * exception, the trees that perf's collapsed tree merges, waits: while
 * the sort runs, their arena only notes the merges (pki_arena.defer),
 * made once it is done.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include "hist_build.h"

/* trees taken at a time from the shared list */
#define GRAIN 256

/* Sorts trees from the list until none is left. */
static void sort_some(struct pki_tree_sort *t)
{
	for (size_t i; (i = atomic_fetch_add(&t->next, GRAIN)) < t->nr;)
		for (size_t j = i; j < i + GRAIN && j < t->nr; j++)
			pki_callchain_sort(t->roots[j]);
}

static void *sort_thread(void *arg)
{
	sort_some(arg);
	return NULL;
}

int pki_trees_sort_start(struct pki_tree_sort *t, struct pk_hist *h)
{
	size_t n = 0;

	*t = (struct pki_tree_sort){0};
	if (!h->callchain)
		return 0;
	for (uint32_t i = 0; i < h->nr_events_alloc; i++)
		n += h->events[i].nr;
	t->roots = malloc((n ? n : 1) * sizeof(*t->roots));
	if (!t->roots)
		return -ENOMEM;
	for (uint32_t i = 0; i < h->nr_events_alloc; i++)
		for (size_t j = 0; j < h->events[i].nr; j++)
			if (h->events[i].v[j].callchain)
				t->roots[t->nr++] = h->events[i].v[j].callchain;
	atomic_init(&t->next, 0);
	if (h->nr_threads != 1)
		t->threaded = !pthread_create(&t->thread, NULL, sort_thread, t);
	if (!t->threaded) {
		sort_some(t); /* all of them, now */
		return 0;
	}
	for (uint32_t k = 0; k < PKI_HIST_PARTS; k++)
		h->trees[k].defer = true;
	return 0;
}

int pki_trees_sort_finish(struct pki_tree_sort *t, struct pk_hist *h)
{
	int err = 0;

	if (t->threaded) {
		sort_some(t); /* the calling thread helps with what is left */
		pthread_join(t->thread, NULL);
		for (uint32_t k = 0; k < PKI_HIST_PARTS; k++) {
			int merr = pki_arena_merge_deferred(&h->trees[k]);

			err = err ? err : merr;
		}
	}
	free(t->roots);
	t->roots = NULL;
	return err;
}
