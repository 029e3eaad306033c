// SPDX-License-Identifier: MIT
/*
 * perf's grouping and output trees replayed over compact keys (the input
 * tree's lookups are replayed in hist_replay.c).  Where perf's
 * comparisons are no total order the result depends on the trees'
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
	uint64_t children, self, samples;
	const struct pk_thread *thread;
	const struct pk_hist_value *members;
	uint32_t depth; /* of the call tree, when chain */
	bool chain;
	uint32_t k[PK_HIST_KEY_MAX];
};

/* The ranks the keys need: the grouping trees compare DSOs for symbols
 * too, the output order compares symbols by name. */
struct ranks {
	uint32_t *comm, *dso, *sym, *trace, *parent, *time;
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
	free(r->trace);
	free(r->parent);
	free(r->time);
}

static int cmp_time_idx(const void *a, const void *b, void *ctx)
{
	const struct pk_hist_entry *v = ctx;
	uint64_t x = v[*(const uint32_t *)a].time, y = v[*(const uint32_t *)b].time;

	return (x > y) - (x < y);
}

/* The entries' times ranked, equal times equal ranks. */
static int rank_time(const struct pk_hist_entry *v, size_t n, uint32_t **out)
{
	uint32_t *idx = malloc((n ? n : 1) * sizeof(*idx)), r = 0;

	*out = malloc((n ? n : 1) * sizeof(**out));
	if (!idx || !*out) {
		free(idx);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		idx[i] = (uint32_t)i;
	qsort_r(idx, n, sizeof(*idx), cmp_time_idx, (void *)v);
	for (size_t i = 0; i < n; i++) {
		if (i && v[idx[i]].time != v[idx[i - 1]].time)
			r++;
		(*out)[idx[i]] = r;
	}
	free(idx);
	return 0;
}

static int ranks_get(struct ranks *r, const struct pk_hist_entry *v, size_t n,
		     const struct sort_ctx *x, bool grouping, bool output)
{
	bool sym = has_key(x, PK_HIST_KEY_SYM);
	int err = 0;

	*r = (struct ranks){0};
	if (has_key(x, PK_HIST_KEY_COMM))
		err = rank_one(v, n, PKI_RANK_COMM, &r->comm);
	if (!err && (has_key(x, PK_HIST_KEY_DSO) || (grouping && sym)))
		err = rank_one(v, n, PKI_RANK_DSO, &r->dso);
	if (!err && output && sym)
		err = rank_one(v, n, PKI_RANK_SYM, &r->sym);
	if (!err && has_key(x, PK_HIST_KEY_TRACE))
		err = rank_one(v, n, PKI_RANK_TRACE, &r->trace);
	if (!err && has_key(x, PK_HIST_KEY_PARENT))
		err = rank_one(v, n, PKI_RANK_PARENT, &r->parent);
	if (!err && has_key(x, PK_HIST_KEY_TIME))
		err = rank_time(v, n, &r->time);
	if (err) {
		ranks_free(r);
		*r = (struct ranks){0}; /* replay_free() frees them again */
	}
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
	case PK_HIST_KEY_TRACE:
		return r->trace ? r->trace[i] : 0;
	case PK_HIST_KEY_PARENT:
		return r->parent ? r->parent[i] : 0;
	case PK_HIST_KEY_TIME:
		return r->time ? r->time[i] : 0;
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

static bool order_has(const struct sort_ctx *x, enum pk_hist_by_what what)
{
	for (uint32_t i = 0; i < x->out.nr_by; i++)
		if (x->out.by[i].what == what)
			return true;
	return false;
}

/* o[i] for the entries i of perm[0, n) */
static void fill_okeys(const struct pk_hist_entry *v, const uint32_t *perm, uint32_t n,
		       const struct sort_ctx *x, const struct ranks *r, struct okey *o)
{
	bool depth = (x->children || order_has(x, PK_HIST_BY_CHILDREN)) &&
		     x->callchain != PK_CALLCHAIN_NONE;

	for (uint32_t j = 0; j < n; j++) {
		uint32_t i = perm[j];
		const struct pk_hist_entry *e = &v[i];

		/* the entries (over two cache lines) and their trees' roots,
		 * random in memory */
		if (j + 16 < n) {
			__builtin_prefetch(&v[perm[j + 16]].self);
			__builtin_prefetch(&v[perm[j + 16]].callchain);
		}
		if (depth && j + 8 < n)
			__builtin_prefetch(v[perm[j + 8]].callchain);

		o[i] = (struct okey){.children = e->children,
				     .self = e->self,
				     .samples = e->nr_samples,
				     .thread = e->thread,
				     .members = e->members,
				     .chain = e->callchain != NULL};
		/* a cache miss each: only when compared */
		if (e->callchain && depth)
			o[i].depth = e->callchain->max_depth;
		for (uint32_t k = 0; k < x->nr_keys; k++)
			o[i].k[k] = key_value(x->keys[k], e, r, i);
	}
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

/* Position of key k among the sort keys (okey.k). */
static uint32_t key_pos(const struct sort_ctx *x, enum pk_hist_key k)
{
	uint32_t i = 0;

	while (i + 1 < x->nr_keys && x->keys[i] != k)
		i++;
	return i;
}

/* cmp_by() of hist_sort.c */
static int okey_by(const struct sort_ctx *x, const struct pk_hist_by *by, const struct okey *a,
		   const struct okey *b)
{
	uint32_t i;
	int c;

	switch (by->what) {
	case PK_HIST_BY_CHILDREN:
		if (!x->children)
			return 0;
		c = cmp_desc(a->children, b->children);
		return c ? c : okey_caller_first(x, a, b);
	case PK_HIST_BY_SELF:
		c = cmp_desc(a->self, b->self);
		return c ? c : okey_members(x, a, b);
	case PK_HIST_BY_SAMPLES:
		return cmp_desc(a->samples, b->samples);
	default:
		if (x->out.elided & (1u << by->key))
			return 0;
		i = key_pos(x, by->key);
		return a->k[i] == b->k[i] ? 0 : a->k[i] < b->k[i] ? -1 : 1;
	}
}

/* cmp_output() of hist_sort.c over the keys */
static int okey_cmp(const struct sort_ctx *x, const struct okey *a, const struct okey *b)
{
	int c;

	if (x->out.nr_by) {
		for (uint32_t i = 0; i < x->out.nr_by; i++)
			if ((c = okey_by(x, &x->out.by[i], a, b)))
				return c;
		return 0;
	}

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
		if (a->k[i] != b->k[i] && !(x->out.elided & (1u << x->keys[i])))
			return a->k[i] < b->k[i] ? -1 : 1;
	return 0;
}

/*
 * A tree over the entries' indices, rebuilt by each pass: perm[0, n) is
 * the order the next pass inserts them in, the last one's result.  After
 * a collapse it holds fewer than all.
 */
struct replay {
	struct pki_rbidx t;
	uint32_t *perm;
	uint32_t n;
	const struct sort_ctx *x;
	struct ranks ranks;
};

static void inorder(struct replay *r)
{
	uint32_t k = 0;

	for (uint32_t x = pki_rbidx_first(&r->t); x != NIL; x = pki_rbidx_next(&r->t, x))
		r->perm[k++] = x;
	r->n = k;
}

/* Whether perf's tree goes left from node p for the new entry z. */
typedef bool goes_left_fn(const struct replay *r, const void *keys, uint32_t z, uint32_t p);

/* Every entry of r->perm into a fresh tree, in order; r->perm becomes
 * the tree's order.  Inlined with its constant goes_left, so the passes'
 * comparisons are too. */
static inline __attribute__((always_inline)) void tree_pass(struct replay *r, const void *keys,
							     goes_left_fn *goes_left)
{
	r->t.root = NIL;
	for (uint32_t j = 0; j < r->n; j++) {
		uint32_t z = r->perm[j], cur = r->t.root, p = NIL;
		bool left = false;

		while (cur != NIL) {
			p = cur;
			left = goes_left(r, keys, z, p);
			cur = left ? r->t.left[p] : r->t.right[p];
		}
		pki_rbidx_link(&r->t, z, p, left);
	}
	inorder(r);
}

/* perf's grouping trees: it compares (existing, new) and goes left < 0 */
static inline bool grouping_left(const struct replay *r, const void *keys, uint32_t z, uint32_t p)
{
	const struct pki_gkey *g = keys;

	return pki_gkey_cmp(r->x, &g[p], &g[z]) < 0;
}

static void grouping_pass(struct replay *r, const struct pki_gkey *g)
{
	tree_pass(r, g, grouping_left);
}

/* perf's lookup of entry z in its collapsed tree: the node equal to it,
 * else NIL with z inserted where the search ended. */
static uint32_t collapse_findnew(struct replay *r, const struct pki_gkey *g, uint32_t z)
{
	uint32_t cur = r->t.root, p = NIL;
	bool left = false;

	while (cur != NIL) {
		int c = pki_gkey_cmp(r->x, &g[cur], &g[z]);

		if (!c)
			return cur;
		p = cur;
		left = c < 0;
		cur = left ? r->t.left[p] : r->t.right[p];
	}
	pki_rbidx_link(&r->t, z, p, left);
	return NIL;
}

/* perf's collapsed tree: an entry equal to one already there is merged
 * into it (the first keeps its place and label) and leaves the order. */
static int collapse_pass(struct replay *r, const struct pki_gkey *g, struct pki_arena *a,
			 struct pk_hist_entry *v)
{
	int err = 0;

	r->t.root = NIL;
	for (uint32_t j = 0; j < r->n && !err; j++) {
		uint32_t z = r->perm[j], found = collapse_findnew(r, g, z);

		/* stats and call tree go to the entry found */
		if (found != NIL)
			err = pki_hist_entry_merge(a, &v[found], &v[z]);
	}
	inorder(r);
	return err;
}

/* perf's output tree: (new, existing), left < 0 */
static inline bool output_left(const struct replay *r, const void *keys, uint32_t z, uint32_t p)
{
	const struct okey *o = keys;

	return okey_cmp(r->x, &o[z], &o[p]) < 0;
}

static void output_pass(struct replay *r, const struct okey *o)
{
	tree_pass(r, o, output_left);
}

static void replay_free(struct replay *r)
{
	free(r->t.left);
	free(r->t.red);
	ranks_free(&r->ranks);
}

static int replay_init(struct replay *r, const struct pk_hist_entry *v, uint32_t n, bool grouping,
		       bool output)
{
	uint32_t *idx = malloc(4 * (size_t)n * sizeof(*idx));

	*r = (struct replay){.t = {.root = NIL}, .n = n, .x = pki_hist_sort_ctx()};
	r->t.red = malloc(n * sizeof(*r->t.red));
	r->t.left = idx;
	if (!idx || !r->t.red || ranks_get(&r->ranks, v, n, r->x, grouping, output)) {
		replay_free(r);
		return -ENOMEM;
	}
	r->t.right = idx + n;
	r->t.parent = idx + 2 * (size_t)n;
	r->perm = idx + 3 * (size_t)n;
	for (uint32_t i = 0; i < n; i++)
		r->perm[i] = i;
	return 0;
}

/* Grouping passes, the last one collapsing (merging into v) when a is
 * given; nothing is merged unless all their memory was had. */
static int run_grouping(struct replay *r, struct pk_hist_entry *v, int passes, struct pki_arena *a)
{
	struct pki_gkey *g;
	int err = 0;

	if (passes <= 0)
		return 0;
	g = malloc(r->n * sizeof(*g));
	if (!g)
		return -ENOMEM;
	fill_gkeys(v, r->n, r->x, &r->ranks, g);
	for (int i = 0; i < passes && !err; i++) {
		if (a && i == passes - 1)
			err = collapse_pass(r, g, a, v);
		else
			grouping_pass(r, g);
	}
	free(g);
	return err;
}

/* nodes: how many entries the tree's indices go up to */
static int run_output(struct replay *r, const struct pk_hist_entry *v, uint32_t nodes)
{
	struct okey *o = malloc(nodes * sizeof(*o));

	if (!o)
		return -ENOMEM;
	fill_okeys(v, r->perm, r->n, r->x, &r->ranks, o);
	output_pass(r, o);
	free(o);
	return 0;
}

void pki_hist_gather(struct pk_hist_entry *v, const uint32_t *from, size_t n, uint64_t *done)
{
	/* cycle by cycle: each place takes the entry it is to have from the
	 * place that cycle goes on to, the first one's saved */
	for (size_t i = 0; i < n; i++) {
		struct pk_hist_entry first;
		size_t j = i;

		if (done[i / 64] & (1ULL << (i % 64)))
			continue;
		first = v[i];
		while (from[j] != i) {
			v[j] = v[from[j]];
			done[j / 64] |= 1ULL << (j % 64);
			j = from[j];
		}
		v[j] = first;
		done[j / 64] |= 1ULL << (j % 64);
	}
}

/* v[0, m) becomes v[perm[0]], ... v[perm[m - 1]] (perm: m distinct
 * entries of n, room for n); perm grows to a whole permutation of them,
 * the others after.  bits: two zeroed bitmaps of n. */
static void permute(struct pk_hist_entry *v, uint32_t *perm, uint32_t m, uint32_t n, uint64_t *bits)
{
	uint64_t *used = bits, *done = bits + ((size_t)n + 63) / 64;

	for (uint32_t k = 0; k < m; k++)
		used[perm[k] / 64] |= 1ULL << (perm[k] % 64);
	for (uint32_t i = 0, k = m; i < n; i++)
		if (!(used[i / 64] & (1ULL << (i % 64))))
			perm[k++] = i;
	pki_hist_gather(v, perm, n, done);
}

/* Room for permute()'s bitmaps. */
static uint64_t *permute_bits(uint64_t n)
{
	return calloc(2 * ((n + 63) / 64), sizeof(uint64_t));
}

int pki_hist_order(struct pk_hist_entry *v, uint64_t n, int grouping, bool output)
{
	uint64_t *bits;
	struct replay r;
	int err;

	if (n >= UINT32_MAX)
		return -EOVERFLOW;
	if (n < 2)
		return 0;
	bits = permute_bits(n);
	if (!bits)
		return -ENOMEM;
	err = replay_init(&r, v, (uint32_t)n, grouping > 0, output);
	if (!err) {
		err = run_grouping(&r, v, grouping, NULL);
		if (!err && output)
			err = run_output(&r, v, (uint32_t)n);
		if (!err)
			permute(v, r.perm, r.n, (uint32_t)n, bits);
		replay_free(&r);
	}
	free(bits);
	return err;
}

/*
 * Once entries are merged the survivors must move to the front whatever
 * else fails: their memory is had before.  Without memory for the output
 * pass *sorted stays false, the caller's to sort.
 */
int pki_hist_order_collapse(struct pki_arena *a, struct pk_hist_entry *v, uint64_t *n,
			     int grouping, bool *sorted)
{
	uint64_t *bits;
	struct replay r;
	int err;

	*sorted = false;
	if (*n >= UINT32_MAX)
		return -EOVERFLOW;
	if (*n < 2 || grouping <= 0)
		return 0;
	bits = permute_bits(*n);
	if (!bits)
		return -ENOMEM;
	err = replay_init(&r, v, (uint32_t)*n, true, true);
	if (!err) {
		err = run_grouping(&r, v, grouping, a);
		if (!err)
			*sorted = !run_output(&r, v, (uint32_t)*n);
		if (!err) {
			permute(v, r.perm, r.n, (uint32_t)*n, bits);
			*n = r.n;
		}
		replay_free(&r);
	}
	free(bits);
	return err;
}
