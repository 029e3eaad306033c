// SPDX-License-Identifier: MIT
/*
 * Call trees of histogram entries: one node per distinct call path
 * prefix, so memory grows with the unique paths, not with the samples.
 * Chains are merged frame by frame; two frames are the same node when they
 * are in the same symbol (same DSO and symbol start), or, when one is
 * unresolved, at the same DSO and address, as perf compares them.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "hist_internal.h"
/* the session's DSO list, read to know the order DSOs were created in */
#include "session/session_internal.h"

/* perf orders DSOs by address, which follows their creation order */
struct dso_rank {
	const struct pk_dso *dso;
	int64_t rank;
};

static _Thread_local struct {
	struct dso_rank *v;
	size_t n;
} ranks;

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int64_t rank_of(const struct pk_dso *d)
{
	size_t lo = 0, hi = ranks.n;

	if (!d)
		return -1;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (ranks.v[mid].dso == d)
			return ranks.v[mid].rank;
		if ((uintptr_t)ranks.v[mid].dso < (uintptr_t)d)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (int64_t)(uintptr_t)d; /* not in the session: keep some order */
}

static int cmp_frame(const struct pk_dso *da, const struct pk_symbol *sa, uint64_t ipa,
		     const struct pk_dso *db, const struct pk_symbol *sb, uint64_t ipb)
{
	if (da != db) {
		int64_t ra = rank_of(da), rb = rank_of(db);

		return ra < rb ? -1 : ra > rb;
	}
	/* perf tells inlined frames, which share their function's start,
	 * by name */
	if (sa && sb && (sa->inlined || sb->inlined)) {
		int c = strcmp(sa->name, sb->name);

		return c < 0 ? -1 : c > 0;
	}
	if (sa && sb)
		return cmp_u64(sa->start, sb->start);
	return cmp_u64(ipa, ipb);
}

static bool same_frame(const struct pk_callchain_node *n, const struct pk_location *loc)
{
	return !cmp_frame(n->dso, n->sym, n->ip, loc->dso, loc->sym, loc->ip);
}

/* Children arrays grow by doubling: capacity is the next power of two. */
static int add_child(struct pk_callchain_node *parent, struct pk_callchain_node *child)
{
	uint32_t n = parent->nr_children;

	if (!(n & (n - 1))) {
		struct pk_callchain_node **v = realloc(parent->children, (n ? n * 2 : 1) * sizeof(*v));

		if (!v)
			return -ENOMEM;
		parent->children = v;
	}
	parent->children[parent->nr_children++] = child;
	return 0;
}

static struct pk_callchain_node *child_of(struct pk_callchain_node *parent,
					  const struct pk_location *loc)
{
	struct pk_callchain_node *c;

	for (uint32_t i = 0; i < parent->nr_children; i++)
		if (same_frame(parent->children[i], loc))
			return parent->children[i];
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->sym = loc->sym;
	c->dso = loc->dso;
	c->ip = loc->ip;
	c->parent = parent;
	if (add_child(parent, c)) {
		free(c);
		return NULL;
	}
	return c;
}

int pki_callchain_append(struct pk_callchain_node **root, const struct pk_frame *frames,
			 size_t first, size_t count, int step, uint64_t period)
{
	struct pk_callchain_node *n = *root;

	if (!n) {
		n = calloc(1, sizeof(*n));
		if (!n)
			return -ENOMEM;
		*root = n;
	}
	if (count > n->max_depth)
		n->max_depth = (uint32_t)count;
	for (size_t i = 0, f = first; i < count; i++, f += (size_t)(ptrdiff_t)step) {
		n->children_hit += period;
		n = child_of(n, &frames[f].loc);
		if (!n)
			return -ENOMEM;
	}
	n->hit += period;
	return 0;
}

static uint64_t cumul(const struct pk_callchain_node *n)
{
	return n->hit + n->children_hit;
}


/* perf's tree order: the higher frame first */
static int cmp_tree_order(const void *pa, const void *pb)
{
	const struct pk_callchain_node *a = *(const struct pk_callchain_node *const *)pa;
	const struct pk_callchain_node *b = *(const struct pk_callchain_node *const *)pb;

	return -cmp_frame(a->dso, a->sym, a->ip, b->dso, b->sym, b->ip);
}

static int cmp_nodes(const void *pa, const void *pb)
{
	const struct pk_callchain_node *a = *(const struct pk_callchain_node *const *)pa;
	const struct pk_callchain_node *b = *(const struct pk_callchain_node *const *)pb;

	if (cumul(a) != cumul(b))
		return cumul(a) > cumul(b) ? -1 : 1;
	return a->tree_rank < b->tree_rank ? -1 : a->tree_rank > b->tree_rank;
}

static void sort_tree(struct pk_callchain_node *n)
{
	if (n->nr_children > 1) {
		qsort(n->children, n->nr_children, sizeof(*n->children), cmp_tree_order);
		for (uint32_t i = 0; i < n->nr_children; i++)
			n->children[i]->tree_rank = i;
		qsort(n->children, n->nr_children, sizeof(*n->children), cmp_nodes);
	}
	for (uint32_t i = 0; i < n->nr_children; i++)
		sort_tree(n->children[i]);
}

static int cmp_rank_ptr(const void *pa, const void *pb)
{
	const struct dso_rank *a = pa, *b = pb;

	return (uintptr_t)a->dso < (uintptr_t)b->dso ? -1 : (uintptr_t)a->dso > (uintptr_t)b->dso;
}

int pki_callchain_sort_begin(struct pk_session *s)
{
	size_t n = 0, i = 0;

	for (const struct pk_dso *d = s->dsos; d; d = d->next)
		n++;
	ranks.v = calloc(n ? n : 1, sizeof(*ranks.v));
	if (!ranks.v)
		return -ENOMEM;
	/* the list is newest first */
	for (const struct pk_dso *d = s->dsos; d; d = d->next, i++) {
		ranks.v[i].dso = d;
		ranks.v[i].rank = (int64_t)(n - 1 - i);
	}
	ranks.n = n;
	qsort(ranks.v, n, sizeof(*ranks.v), cmp_rank_ptr);
	return 0;
}

void pki_callchain_sort_end(void)
{
	free(ranks.v);
	ranks.v = NULL;
	ranks.n = 0;
}

void pki_callchain_sort(struct pk_callchain_node *n)
{
	if (n)
		sort_tree(n);
}

void pki_callchain_free(struct pk_callchain_node *n)
{
	if (!n)
		return;
	for (uint32_t i = 0; i < n->nr_children; i++)
		pki_callchain_free(n->children[i]);
	free(n->children);
	free(n);
}
