// SPDX-License-Identifier: MIT
/*
 * Output order of perf report: by period (children first when
 * accumulating), then by each sort key; entries perf considers equal keep
 * the order of its grouping tree, which for unresolved symbols is by
 * address.
 */
#include <stdlib.h>
#include <string.h>
#include "hist_internal.h"

struct sort_ctx {
	const enum pk_hist_key *keys;
	uint32_t nr_keys;
	bool children;
};

static _Thread_local struct sort_ctx ctx;

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b;
}

static int cmp_sym(const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	if (!a->sym || !b->sym) {
		if (!a->sym && !b->sym)
			return 0;
		return a->sym ? -1 : 1;
	}
	return strcmp(a->sym->name, b->sym->name);
}

static int cmp_key(enum pk_hist_key k, const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	switch (k) {
	case PK_HIST_KEY_COMM:
		return strcmp(a->comm, b->comm);
	case PK_HIST_KEY_PID:
		return a->tid < b->tid ? -1 : a->tid > b->tid;
	case PK_HIST_KEY_DSO:
		/* entries in no map come after the others */
		if (!a->dso || !b->dso)
			return !a->dso - !b->dso;
		return strcmp(pk_dso_short_name(a->dso), pk_dso_short_name(b->dso));
	case PK_HIST_KEY_SYM:
		return cmp_sym(a, b);
	case PK_HIST_KEY_CPU:
		return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
	default:
		return 0;
	}
}

static int cmp_entries(const void *pa, const void *pb)
{
	const struct pk_hist_entry *a = pa, *b = pb;
	int c;

	if (ctx.children) {
		c = cmp_u64_desc(a->children, b->children);
		if (c)
			return c;
	}
	c = cmp_u64_desc(a->self, b->self);
	if (c)
		return c;
	for (uint32_t i = 0; i < ctx.nr_keys; i++) {
		c = cmp_key(ctx.keys[i], a, b);
		if (c)
			return c;
	}
	/* perf's grouping order for what the sort keys call equal: by the
	 * signed difference of the addresses */
	if (a->addr != b->addr)
		return (int64_t)(b->addr - a->addr) > 0 ? -1 : 1;
	return 0;
}

void pki_hist_sort(struct pk_hist_entry *v, uint64_t n, const enum pk_hist_key *keys,
		   uint32_t nr_keys, bool children)
{
	ctx.keys = keys;
	ctx.nr_keys = nr_keys;
	ctx.children = children;
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_entries);
}
