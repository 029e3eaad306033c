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
#include "rbidx.h"

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
	case PK_HIST_KEY_TRACE:
		return strcmp(a->trace, b->trace);
	case PK_HIST_KEY_PARENT:
		/* none ("[other]") after the names */
		if (!a->parent || !b->parent)
			return !a->parent - !b->parent;
		return strcmp(a->parent, b->parent);
	case PK_HIST_KEY_TIME:
		return a->time < b->time ? -1 : a->time > b->time;
	default:
		return 0;
	}
}

/* perf puts a caller above its callees when their children periods are
 * equal: the caller's tree is deeper in caller order, shallower in callee
 * order (within one thread). */
static int cmp_caller_first(const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	int64_t d;

	if (ctx.callchain == PK_CALLCHAIN_NONE || a->thread != b->thread || !a->callchain ||
	    !b->callchain)
		return 0;
	d = (int64_t)b->callchain->max_depth - (int64_t)a->callchain->max_depth;
	if (ctx.callchain == PK_CALLCHAIN_CALLEE)
		d = -d;
	return d < 0 ? -1 : d > 0;
}

/* perf's group view breaks ties of the self period with the members'
 * self periods, in group order (not their children periods) */
static int cmp_members(const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	int c = 0;

	if (ctx.nr_members < 2 || !a->members || !b->members)
		return 0;
	for (uint32_t i = 1; i < ctx.nr_members && !c; i++)
		c = cmp_u64_desc(a->members[i].self, b->members[i].self);
	return c;
}

/* One step of a given output order (pk_hist_opts.order). */
static int cmp_by(const struct pk_hist_by *by, const struct pk_hist_entry *a,
		  const struct pk_hist_entry *b)
{
	int c;

	switch (by->what) {
	case PK_HIST_BY_CHILDREN:
		/* nothing to order by when nothing was accumulated */
		if (!ctx.children)
			return 0;
		c = cmp_u64_desc(a->children, b->children);
		return c ? c : cmp_caller_first(a, b);
	case PK_HIST_BY_SELF:
		c = cmp_u64_desc(a->self, b->self);
		return c ? c : cmp_members(a, b);
	case PK_HIST_BY_SAMPLES:
		return cmp_u64_desc(a->nr_samples, b->nr_samples);
	default:
		return ctx.out.elided & (1u << by->key) ? 0 : cmp_key(by->key, a, b);
	}
}

/* perf's output comparison: a < 0 puts a first, 0 leaves the order */
static int cmp_output(const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	int c;

	if (ctx.out.nr_by) {
		for (uint32_t i = 0; i < ctx.out.nr_by; i++)
			if ((c = cmp_by(&ctx.out.by[i], a, b)))
				return c;
		return 0;
	}

	if (ctx.children) {
		c = cmp_u64_desc(a->children, b->children);
		if (c)
			return c;
		c = cmp_caller_first(a, b);
		if (c)
			return c;
	}
	c = cmp_u64_desc(a->self, b->self);
	if (c)
		return c;
	c = cmp_members(a, b);
	if (c)
		return c;
	for (uint32_t i = 0; i < ctx.nr_keys; i++) {
		if (ctx.out.elided & (1u << ctx.keys[i]))
			continue;
		c = cmp_key(ctx.keys[i], a, b);
		if (c)
			return c;
	}
	return 0;
}

static int cmp_entries(const void *pa, const void *pb)
{
	const struct pk_hist_entry *a = pa, *b = pb;
	int c = cmp_output(a, b);

	if (c)
		return c;
	/* perf's grouping order for what the sort keys call equal: by the
	 * signed difference of the addresses */
	if (a->addr != b->addr)
		return (int64_t)(b->addr - a->addr) > 0 ? -1 : 1;
	return 0;
}

/* The sign of perf's int64 comparison results. */
static int sign64(int64_t v)
{
	return v < 0 ? -1 : v > 0;
}

/* perf's cmp_null(l, r): equal when both are missing, else l missing
 * first */
static int cmp_null(const void *l, const void *r)
{
	if (!l && !r)
		return 0;
	return !l ? -1 : 1;
}

/* perf's dso comparison (left, right): it compares right's name to
 * left's */
static int perf_dso_cmp(const struct pk_hist_entry *l, const struct pk_hist_entry *r)
{
	if (l->dso == r->dso)
		return 0;
	if (!l->dso || !r->dso)
		return cmp_null(l->dso, r->dso);
	return strcmp(pk_dso_short_name(r->dso), pk_dso_short_name(l->dso));
}

/* perf's comparison of two symbols in one DSO (left, right) */
int pki_hist_sym_cmp(const struct pk_symbol *l, const struct pk_symbol *r)
{
	int c;

	if (!l || !r)
		return cmp_null(l, r);
	if (l == r)
		return 0;
	if (l->inlined || r->inlined) {
		/* inlined symbols share their function's range: by name */
		c = strcmp(l->name, r->name);
		if (c)
			return c < 0 ? -1 : 1;
		if (l->start <= r->end && l->end >= r->start)
			return 0;
	}
	if (l->start != r->start)
		return sign64((int64_t)(r->start - l->start));
	return sign64((int64_t)(r->end - l->end));
}

/* perf's symbol comparison (left, right): unresolved entries by the signed
 * difference of their addresses, which is no total order for addresses
 * more than 2^63 apart: the trees below replay its effect */
static int perf_sym_cmp(const struct pk_hist_entry *l, const struct pk_hist_entry *r)
{
	int c;

	if (!l->sym && !r->sym)
		return sign64((int64_t)(r->addr - l->addr));
	c = ctx.sym_dso ? perf_dso_cmp(l, r) : 0;
	if (c)
		return c;
	return pki_hist_sym_cmp(l->sym, r->sym);
}

/* perf's hist_entry__cmp and __collapse for our keys (they agree on
 * them): called as perf calls them, (existing, new) */
static int entry_cmp(const struct sort_ctx *x, const struct pk_hist_entry *l,
		     const struct pk_hist_entry *r)
{
	int c = 0;

	for (uint32_t i = 0; i < x->nr_keys && !c; i++) {
		switch (x->keys[i]) {
		case PK_HIST_KEY_COMM:
			/* comms are interned: the same one is the same pointer */
			c = l->comm == r->comm ? 0 : strcmp(r->comm, l->comm);
			break;
		case PK_HIST_KEY_PID:
			c = sign64((int64_t)r->tid - l->tid);
			break;
		case PK_HIST_KEY_DSO:
			c = perf_dso_cmp(l, r);
			break;
		case PK_HIST_KEY_SYM:
			c = perf_sym_cmp(l, r);
			break;
		case PK_HIST_KEY_CPU:
			c = sign64((int64_t)r->cpu - (int64_t)l->cpu);
			break;
		case PK_HIST_KEY_TRACE:
			c = l->trace == r->trace ? 0 : strcmp(r->trace, l->trace);
			break;
		case PK_HIST_KEY_PARENT:
			/* perf: a missing parent compares below any */
			if (l->parent == r->parent)
				c = 0;
			else if (!l->parent || !r->parent)
				c = l->parent ? 1 : -1;
			else
				c = strcmp(r->parent, l->parent);
			break;
		case PK_HIST_KEY_TIME:
			c = r->time == l->time ? 0 : r->time > l->time ? 1 : -1;
			break;
		default:
			break;
		}
	}
	return c;
}

static int perf_entry_cmp(const struct pk_hist_entry *l, const struct pk_hist_entry *r)
{
	return entry_cmp(&ctx, l, r);
}

/* The context once per lookup: each access to a thread-local costs a call
 * in a shared library, and the replays compare millions of times. */
const struct sort_ctx *pki_hist_sort_ctx(void)
{
	return &ctx;
}

/*
 * The group view's linked tree (pki_hist_link) is replayed here on the
 * entries themselves; the sorts replay perf's trees over compact keys
 * (hist_order.c).  The trees are rbidx.c's over index arrays.
 */
#define NIL PKI_RBIDX_NIL

/* perf's grouping trees go left where it compares (existing, new) < 0 */
static void insert(struct pki_rbidx *t, const struct pk_hist_entry *v, uint32_t z)
{
	uint32_t x = t->root, p = NIL;
	bool l = false;

	while (x != NIL) {
		p = x;
		l = perf_entry_cmp(&v[p], &v[z]) < 0;
		x = l ? t->left[p] : t->right[p];
	}
	pki_rbidx_link(t, z, p, l);
}

/* The tree's nodes in order into out. */
static uint64_t inorder(const struct pki_rbidx *t, uint32_t *out)
{
	uint64_t k = 0;

	for (uint32_t x = pki_rbidx_first(t); x != NIL; x = pki_rbidx_next(t, x))
		out[k++] = x;
	return k;
}

static void set_ctx(const enum pk_hist_key *keys, uint32_t nr_keys, bool children, int callchain,
		    uint32_t nr_members)
{
	ctx.callchain = callchain;
	ctx.keys = keys;
	ctx.nr_keys = nr_keys;
	ctx.children = children;
	ctx.nr_members = nr_members;
	ctx.sym_dso = true;
	if (ctx.out.dso_from_fields)
		return;
	for (uint32_t i = 0; i < nr_keys; i++)
		ctx.sym_dso = ctx.sym_dso && keys[i] != PK_HIST_KEY_DSO;
}

void pki_hist_set_output(const struct pki_output *o)
{
	ctx.out = o ? *o : (struct pki_output){0};
}

void pki_hist_set_keys(const enum pk_hist_key *keys, uint32_t nr_keys)
{
	set_ctx(keys, nr_keys, false, PK_CALLCHAIN_NONE, 1);
}

void pki_hist_set_view(const enum pk_hist_key *keys, uint32_t nr_keys, bool children,
		       int callchain)
{
	set_ctx(keys, nr_keys, children, callchain, 1);
}

int pki_hist_perf_cmp(const struct pk_hist_entry *l, const struct pk_hist_entry *r)
{
	return perf_entry_cmp(l, r);
}

/* perf only builds the collapsed tree when a sort key asks for it: of
 * ours, comm */
int pki_hist_grouping_passes(const enum pk_hist_key *keys, uint32_t nr_keys)
{
	if (ctx.out.no_collapse)
		return 1;
	for (uint32_t i = 0; i < nr_keys; i++)
		if (keys[i] == PK_HIST_KEY_COMM)
			return 2;
	return 1;
}

void pki_hist_sort(struct pk_hist_entry *v, uint64_t n, const enum pk_hist_key *keys,
		   uint32_t nr_keys, bool children, int callchain)
{
	set_ctx(keys, nr_keys, children, callchain, 1);
	if (!pki_hist_order(v, n, pki_hist_grouping_passes(keys, nr_keys), true))
		return;
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_entries);
}

void pki_hist_sort_input(struct pk_hist_entry *v, uint64_t n, const enum pk_hist_key *keys,
			 uint32_t nr_keys, int passes)
{
	set_ctx(keys, nr_keys, false, PK_CALLCHAIN_NONE, 1);
	/* without memory the entries keep their creation order: the
	 * output pass still sorts them */
	if (passes > 0)
		pki_hist_order(v, n, passes, false);
}

void pki_hist_sort_output(struct pk_hist_entry *v, uint64_t n, const enum pk_hist_key *keys,
			  uint32_t nr_keys, bool children, int callchain, uint32_t nr_members)
{
	set_ctx(keys, nr_keys, children, callchain, nr_members);
	if (!pki_hist_order(v, n, 0, true))
		return;
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_entries);
}

/* Where v[z] is in the tree, perf's way: NIL when its search fails. */
static uint32_t find(const struct pki_rbidx *t, const struct pk_hist_entry *v, uint32_t z)
{
	uint32_t x = t->root;

	while (x != NIL) {
		int c = perf_entry_cmp(&v[x], &v[z]);

		if (!c)
			return x;
		x = c < 0 ? t->left[x] : t->right[x];
	}
	return NIL;
}

static void link_member(struct pki_rbidx *t, const struct pk_hist_entry *v, uint64_t from,
			uint64_t to, uint32_t *node)
{
	/* perf first pairs every entry the leader has, then adds the
	 * others, each found again first */
	for (uint64_t i = from; i < to; i++)
		node[i] = find(t, v, (uint32_t)i);
	for (uint64_t i = from; i < to; i++) {
		if (node[i] != NIL)
			continue;
		node[i] = find(t, v, (uint32_t)i);
		if (node[i] == NIL) {
			insert(t, v, (uint32_t)i);
			node[i] = (uint32_t)i;
		}
	}
}

int pki_hist_link(const struct pk_hist_entry *v, const uint64_t *start, uint32_t nr_members,
		  const enum pk_hist_key *keys, uint32_t nr_keys, uint32_t *node, uint32_t *order,
		  uint64_t *nr_order)
{
	uint64_t n = start[nr_members];
	uint32_t *idx = malloc(3 * (n ? n : 1) * sizeof(*idx));
	bool *red = malloc((n ? n : 1) * sizeof(*red));
	struct pki_rbidx t = {.root = NIL, .red = red};

	if (!idx || !red || n >= UINT32_MAX) {
		free(idx);
		free(red);
		return -1;
	}
	set_ctx(keys, nr_keys, false, PK_CALLCHAIN_NONE, 1);
	t.left = idx;
	t.right = idx + n;
	t.parent = idx + 2 * n;
	for (uint64_t i = 0; i < start[1]; i++) {
		insert(&t, v, (uint32_t)i);
		node[i] = (uint32_t)i;
	}
	for (uint32_t m = 1; m < nr_members; m++)
		link_member(&t, v, start[m], start[m + 1], node);
	*nr_order = inorder(&t, order);
	free(idx);
	free(red);
	return 0;
}
