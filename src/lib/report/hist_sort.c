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
	int callchain;		/* PK_CALLCHAIN_* */
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

/* perf's output comparison: a < 0 puts a first, 0 leaves the order */
static int cmp_output(const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	int c;

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
	for (uint32_t i = 0; i < ctx.nr_keys; i++) {
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

static int cmp_signed(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) < 0 ? -1 : a != b;
}

static int group_dso(const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	if (!a->dso || !b->dso)
		return !b->dso - !a->dso;
	return strcmp(pk_dso_short_name(a->dso), pk_dso_short_name(b->dso));
}

static int group_sym(const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	int c;

	if (!a->sym && !b->sym)
		return cmp_signed(a->addr, b->addr);
	c = group_dso(a, b);
	if (c)
		return c;
	if (!a->sym || !b->sym)
		return a->sym ? -1 : 1;
	if (a->sym == b->sym)
		return 0;
	if (a->sym->start != b->sym->start)
		return cmp_signed(a->sym->start, b->sym->start);
	return cmp_signed(a->sym->end, b->sym->end);
}

/* The order of perf's grouping tree (its collapse comparison). */
static int cmp_group(const void *pa, const void *pb)
{
	const struct pk_hist_entry *a = pa, *b = pb;
	int c = 0;

	for (uint32_t i = 0; i < ctx.nr_keys && !c; i++) {
		switch (ctx.keys[i]) {
		case PK_HIST_KEY_COMM:
			c = strcmp(a->comm, b->comm);
			break;
		case PK_HIST_KEY_PID:
			c = a->tid < b->tid ? -1 : a->tid > b->tid;
			break;
		case PK_HIST_KEY_DSO:
			c = group_dso(a, b);
			break;
		case PK_HIST_KEY_SYM:
			c = group_sym(a, b);
			break;
		case PK_HIST_KEY_CPU:
			c = a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
			break;
		default:
			break;
		}
	}
	return c;
}

/*
 * With children and call trees perf's comparison puts a caller above its
 * callees only within one thread, which is no total order: the result
 * depends on its red-black tree, so it is replayed here.  Entries go in
 * in grouping order; the tree is an index array.
 */
struct rb {
	uint32_t *left, *right, *parent;	/* UINT32_MAX: none */
	bool *red;
	uint32_t root;
};

#define NIL UINT32_MAX

static void rotate(struct rb *t, uint32_t x, bool to_left)
{
	uint32_t *down = to_left ? t->right : t->left, *up = to_left ? t->left : t->right;
	uint32_t y = down[x], p = t->parent[x];

	down[x] = up[y];
	if (up[y] != NIL)
		t->parent[up[y]] = x;
	t->parent[y] = p;
	if (p == NIL)
		t->root = y;
	else if (t->left[p] == x)
		t->left[p] = y;
	else
		t->right[p] = y;
	up[y] = x;
	t->parent[x] = y;
}

static void fix_insert(struct rb *t, uint32_t z)
{
	while (t->parent[z] != NIL && t->red[t->parent[z]]) {
		uint32_t p = t->parent[z], g = t->parent[p];
		bool p_left = t->left[g] == p;
		uint32_t uncle = p_left ? t->right[g] : t->left[g];

		if (uncle != NIL && t->red[uncle]) {
			t->red[p] = t->red[uncle] = false;
			t->red[g] = true;
			z = g;
			continue;
		}
		if (z == (p_left ? t->right[p] : t->left[p])) {
			z = p;
			rotate(t, z, p_left);
			p = t->parent[z];
		}
		t->red[p] = false;
		t->red[g] = true;
		rotate(t, g, !p_left);
	}
	t->red[t->root] = false;
}

static void insert(struct rb *t, const struct pk_hist_entry *v, uint32_t z)
{
	uint32_t *link = &t->root, p = NIL;

	while (*link != NIL) {
		p = *link;
		link = cmp_output(&v[z], &v[p]) < 0 ? &t->left[p] : &t->right[p];
	}
	*link = z;
	t->parent[z] = p;
	t->left[z] = t->right[z] = NIL;
	t->red[z] = true;
	fix_insert(t, z);
}

static int replay_tree(struct pk_hist_entry *v, uint64_t n)
{
	struct rb t = {.root = NIL};
	struct pk_hist_entry *out = malloc(n * sizeof(*out));
	uint32_t *stack = malloc(n * sizeof(*stack));
	size_t sp = 0, k = 0;
	uint32_t x;
	int err = -1;

	t.left = malloc(n * sizeof(uint32_t));
	t.right = malloc(n * sizeof(uint32_t));
	t.parent = malloc(n * sizeof(uint32_t));
	t.red = malloc(n * sizeof(bool));
	if (!out || !stack || !t.left || !t.right || !t.parent || !t.red)
		goto out;
	qsort(v, n, sizeof(*v), cmp_group);
	for (uint32_t i = 0; i < n; i++)
		insert(&t, v, i);
	for (x = t.root; x != NIL || sp;) {
		if (x != NIL) {
			stack[sp++] = x;
			x = t.left[x];
			continue;
		}
		x = stack[--sp];
		out[k++] = v[x];
		x = t.right[x];
	}
	memcpy(v, out, n * sizeof(*v));
	err = 0;
out:
	free(out);
	free(stack);
	free(t.left);
	free(t.right);
	free(t.parent);
	free(t.red);
	return err;
}

void pki_hist_sort(struct pk_hist_entry *v, uint64_t n, const enum pk_hist_key *keys,
		   uint32_t nr_keys, bool children, int callchain)
{
	ctx.callchain = callchain;
	ctx.keys = keys;
	ctx.nr_keys = nr_keys;
	ctx.children = children;
	if (n > 1 && children && callchain != PK_CALLCHAIN_NONE && n < UINT32_MAX &&
	    !replay_tree(v, n))
		return;
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_entries);
}
