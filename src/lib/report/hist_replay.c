// SPDX-License-Identifier: MIT
/*
 * perf's grouping and output trees replayed over compact keys.  Where
 * perf's comparisons are no total order the result depends on the trees'
 * shapes, so every entry goes through a red-black tree as it does in perf:
 * a few million comparisons for a big recording.  Made on the entries
 * themselves they cost a cache miss each and, for the many entries of
 * equal periods, strcmp() on comms and names; here each entry's keys are
 * gathered once into a small record with its strings ranked
 * (hist_rank.c), and the passes permute indices, moving the entries once
 * at the end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hist_internal.h"
#include "rbidx.h"

#define NIL PKI_RBIDX_NIL

/* What perf's output comparison looks at (cmp_output() in hist_sort.c). */
struct okey {
	uint64_t children, self;
	const struct pk_thread *thread;
	const struct pk_hist_value *members;
	uint32_t depth; /* of the call tree, when chain */
	bool chain;
	uint32_t k[PK_HIST_KEY_MAX];
};

/* The ranks the keys need: the grouping trees compare DSOs for symbols
 * too, the output order compares symbols by name. */
struct ranks {
	uint32_t *comm, *dso, *sym;
};

static bool has_key(const struct sort_ctx *x, enum pk_hist_key k)
{
	for (uint32_t i = 0; i < x->nr_keys; i++)
		if (x->keys[i] == k)
			return true;
	return false;
}

static int rank_one(const struct pk_hist_entry *v, size_t n, enum pki_rank_field f, uint32_t **out)
{
	*out = malloc((n ? n : 1) * sizeof(**out));
	if (!*out)
		return -ENOMEM;
	return pki_hist_rank(v, n, f, *out);
}

static void ranks_free(struct ranks *r)
{
	free(r->comm);
	free(r->dso);
	free(r->sym);
}

static int ranks_get(struct ranks *r, const struct pk_hist_entry *v, size_t n,
		     const struct sort_ctx *x, bool grouping)
{
	bool sym = has_key(x, PK_HIST_KEY_SYM);
	int err = 0;

	*r = (struct ranks){0};
	if (has_key(x, PK_HIST_KEY_COMM))
		err = rank_one(v, n, PKI_RANK_COMM, &r->comm);
	if (!err && (has_key(x, PK_HIST_KEY_DSO) || (grouping && sym)))
		err = rank_one(v, n, PKI_RANK_DSO, &r->dso);
	if (!err && !grouping && sym)
		err = rank_one(v, n, PKI_RANK_SYM, &r->sym);
	if (err)
		ranks_free(r);
	return err;
}

/* Key k of entry i as an integer ordered as the key is. */
static uint32_t key_value(enum pk_hist_key k, const struct pk_hist_entry *e, const struct ranks *r,
			  size_t i)
{
	switch (k) {
	case PK_HIST_KEY_COMM:
		return r->comm[i];
	case PK_HIST_KEY_PID:
		/* signed order as unsigned */
		return (uint32_t)e->tid ^ 0x80000000u;
	case PK_HIST_KEY_DSO:
		return r->dso[i];
	case PK_HIST_KEY_SYM:
		return r->sym ? r->sym[i] : 0;
	case PK_HIST_KEY_CPU:
		return e->cpu;
	default:
		return 0;
	}
}

static void fill_gkeys(const struct pk_hist_entry *v, size_t n, const struct sort_ctx *x,
		       const struct ranks *r, struct pki_gkey *g)
{
	for (size_t i = 0; i < n; i++) {
		g[i].sym = v[i].sym;
		g[i].addr = v[i].addr;
		g[i].dso = r->dso ? r->dso[i] : 0;
		for (uint32_t j = 0; j < x->nr_keys; j++)
			g[i].k[j] = key_value(x->keys[j], &v[i], r, i);
	}
}

int pki_hist_gkeys(const struct pk_hist_entry *v, size_t n, struct pki_gkey *g)
{
	const struct sort_ctx *x = pki_hist_sort_ctx();
	struct ranks r;
	int err = ranks_get(&r, v, n, x, true);

	if (err)
		return err;
	fill_gkeys(v, n, x, &r, g);
	ranks_free(&r);
	return 0;
}

/* The sign of r - l: perf compares its grouping keys (left, right) so. */
static int cmp_rev(uint32_t l, uint32_t r)
{
	return (r > l) - (r < l);
}

static int gkey_sym_cmp(const struct pki_gkey *l, const struct pki_gkey *r)
{
	int c;

	if (!l->sym && !r->sym) {
		int64_t d = (int64_t)(r->addr - l->addr);

		return (d > 0) - (d < 0);
	}
	c = cmp_rev(l->dso, r->dso);
	if (c)
		return c;
	return pki_hist_sym_cmp(l->sym, r->sym);
}

int pki_hist_gkey_cmp(const struct sort_ctx *x, const struct pki_gkey *l, const struct pki_gkey *r)
{
	for (uint32_t i = 0; i < x->nr_keys; i++) {
		int c = x->keys[i] == PK_HIST_KEY_SYM ? gkey_sym_cmp(l, r)
						      : cmp_rev(l->k[i], r->k[i]);

		if (c)
			return c;
	}
	return 0;
}

static int fill_okeys(const struct pk_hist_entry *v, size_t n, const struct sort_ctx *x,
		      struct okey *o)
{
	struct ranks r;
	int err = ranks_get(&r, v, n, x, false);

	if (err)
		return err;
	for (size_t i = 0; i < n; i++) {
		const struct pk_hist_entry *e = &v[i];

		o[i] = (struct okey){.children = e->children,
				     .self = e->self,
				     .thread = e->thread,
				     .members = e->members,
				     .chain = e->callchain != NULL};
		if (e->callchain)
			o[i].depth = e->callchain->max_depth;
		for (uint32_t j = 0; j < x->nr_keys; j++)
			o[i].k[j] = key_value(x->keys[j], e, &r, i);
	}
	ranks_free(&r);
	return 0;
}

static int cmp_desc(uint64_t a, uint64_t b)
{
	return (a < b) - (a > b);
}

/* cmp_caller_first() of hist_sort.c */
static int okey_caller_first(const struct sort_ctx *x, const struct okey *a, const struct okey *b)
{
	int64_t d;

	if (x->callchain == PK_CALLCHAIN_NONE || a->thread != b->thread || !a->chain || !b->chain)
		return 0;
	d = (int64_t)b->depth - (int64_t)a->depth;
	if (x->callchain == PK_CALLCHAIN_CALLEE)
		d = -d;
	return (d > 0) - (d < 0);
}

/* cmp_members() of hist_sort.c */
static int okey_members(const struct sort_ctx *x, const struct okey *a, const struct okey *b)
{
	int c = 0;

	if (x->nr_members < 2 || !a->members || !b->members)
		return 0;
	for (uint32_t i = 1; i < x->nr_members && !c; i++)
		c = cmp_desc(a->members[i].self, b->members[i].self);
	return c;
}

/* cmp_output() of hist_sort.c over the keys */
static int okey_cmp(const struct sort_ctx *x, const struct okey *a, const struct okey *b)
{
	int c;

	if (x->children) {
		c = cmp_desc(a->children, b->children);
		if (c)
			return c;
		c = okey_caller_first(x, a, b);
		if (c)
			return c;
	}
	c = cmp_desc(a->self, b->self);
	if (c)
		return c;
	c = okey_members(x, a, b);
	if (c)
		return c;
	for (uint32_t i = 0; i < x->nr_keys; i++)
		if (a->k[i] != b->k[i])
			return a->k[i] < b->k[i] ? -1 : 1;
	return 0;
}

/* A tree over the entries' indices, rebuilt by each pass; perm is the
 * order the next pass inserts them in, the last one's result. */
struct replay {
	struct pki_rbidx t;
	uint32_t *perm;
	uint32_t n;
};

static void inorder(struct replay *r)
{
	uint32_t k = 0;

	for (uint32_t x = pki_rbidx_first(&r->t); x != NIL; x = pki_rbidx_next(&r->t, x))
		r->perm[k++] = x;
}

/* perf's grouping trees: it compares (existing, new) and goes left < 0 */
static void grouping_pass(struct replay *r, const struct sort_ctx *x, const struct pki_gkey *g)
{
	r->t.root = NIL;
	for (uint32_t j = 0; j < r->n; j++) {
		uint32_t z = r->perm[j], cur = r->t.root, p = NIL;
		bool left = false;

		while (cur != NIL) {
			p = cur;
			left = pki_hist_gkey_cmp(x, &g[p], &g[z]) < 0;
			cur = left ? r->t.left[p] : r->t.right[p];
		}
		pki_rbidx_link(&r->t, z, p, left);
	}
	inorder(r);
}

/* perf's output tree: (new, existing), left < 0 */
static void output_pass(struct replay *r, const struct sort_ctx *x, const struct okey *o)
{
	r->t.root = NIL;
	for (uint32_t j = 0; j < r->n; j++) {
		uint32_t z = r->perm[j], cur = r->t.root, p = NIL;
		bool left = false;

		while (cur != NIL) {
			p = cur;
			left = okey_cmp(x, &o[z], &o[p]) < 0;
			cur = left ? r->t.left[p] : r->t.right[p];
		}
		pki_rbidx_link(&r->t, z, p, left);
	}
	inorder(r);
}

static int replay_init(struct replay *r, uint32_t n)
{
	uint32_t *idx = malloc(4 * (size_t)n * sizeof(*idx));

	*r = (struct replay){.t = {.root = NIL}, .n = n};
	r->t.red = malloc(n * sizeof(*r->t.red));
	if (!idx || !r->t.red) {
		free(idx);
		free(r->t.red);
		return -ENOMEM;
	}
	r->t.left = idx;
	r->t.right = idx + n;
	r->t.parent = idx + 2 * (size_t)n;
	r->perm = idx + 3 * (size_t)n;
	for (uint32_t i = 0; i < n; i++)
		r->perm[i] = i;
	return 0;
}

static void replay_free(struct replay *r)
{
	free(r->t.left);
	free(r->t.red);
}

/* v in the order perm says. */
static int permute(struct pk_hist_entry *v, const uint32_t *perm, uint32_t n)
{
	struct pk_hist_entry *out = malloc(n * sizeof(*out));

	if (!out)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		out[i] = v[perm[i]];
	memcpy(v, out, n * sizeof(*v));
	free(out);
	return 0;
}

static int run_grouping(struct replay *r, const struct pk_hist_entry *v, int passes)
{
	struct pki_gkey *g;
	int err;

	if (passes <= 0)
		return 0;
	g = malloc(r->n * sizeof(*g));
	if (!g)
		return -ENOMEM;
	err = pki_hist_gkeys(v, r->n, g);
	for (int i = 0; i < passes && !err; i++)
		grouping_pass(r, pki_hist_sort_ctx(), g);
	free(g);
	return err;
}

static int run_output(struct replay *r, const struct pk_hist_entry *v)
{
	const struct sort_ctx *x = pki_hist_sort_ctx();
	struct okey *o = malloc(r->n * sizeof(*o));
	int err;

	if (!o)
		return -ENOMEM;
	err = fill_okeys(v, r->n, x, o);
	if (!err)
		output_pass(r, x, o);
	free(o);
	return err;
}

int pki_hist_replay(struct pk_hist_entry *v, uint64_t n, int grouping, bool output)
{
	struct replay r;
	int err;

	if (n >= UINT32_MAX)
		return -EOVERFLOW;
	if (n < 2)
		return 0;
	err = replay_init(&r, (uint32_t)n);
	if (err)
		return err;
	err = run_grouping(&r, v, grouping);
	if (!err && output)
		err = run_output(&r, v);
	if (!err)
		err = permute(v, r.perm, r.n);
	replay_free(&r);
	return err;
}
