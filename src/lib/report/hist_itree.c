// SPDX-License-Identifier: MIT
/*
 * perf's input tree, replayed search by search.  perf looks every sample
 * (and, with children, every entry of its callchain) up in a red-black
 * tree whose comparison of two unresolved symbols is the signed difference
 * of their addresses: no total order, so a lookup can miss an entry that
 * is in the tree and insert a second one for the same key.  This tree
 * grows as perf's does (rbidx.c, the kernel's rules) so that the same
 * searches miss.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hist_internal.h"
#include "rbidx.h"

#define NIL PKI_RBIDX_NIL

static int itree_grow(struct pki_itree *t)
{
	size_t n = t->alloc ? t->alloc * 2 : 1024;
	struct pk_hist_entry *k;
	uint32_t *l, *r, *p;
	bool *red;

	if (t->n < t->alloc)
		return 0;
	if (n >= UINT32_MAX)
		return -EOVERFLOW;
	k = realloc(t->keys, n * sizeof(*k));
	if (k)
		t->keys = k;
	l = realloc(t->rb.left, n * sizeof(*l));
	if (l)
		t->rb.left = l;
	r = realloc(t->rb.right, n * sizeof(*r));
	if (r)
		t->rb.right = r;
	p = realloc(t->rb.parent, n * sizeof(*p));
	if (p)
		t->rb.parent = p;
	red = realloc(t->rb.red, n * sizeof(*red));
	if (red)
		t->rb.red = red;
	if (!k || !l || !r || !p || !red)
		return -ENOMEM;
	t->alloc = n;
	return 0;
}

void pki_itree_init(struct pki_itree *t)
{
	memset(t, 0, sizeof(*t));
	t->rb.root = NIL;
}

int64_t pki_itree_findnew(struct pki_itree *t, const struct pk_hist_entry *key, bool *inserted)
{
	const struct sort_ctx *x = pki_hist_sort_ctx();
	uint32_t cur = t->rb.root, p = NIL, z;
	bool left = false;

	*inserted = false;
	while (cur != NIL) {
		int c;

		p = cur;
		c = pki_hist_perf_cmp_in(x, &t->keys[p], key);
		if (!c)
			return p;
		left = c < 0;
		cur = left ? t->rb.left[p] : t->rb.right[p];
	}
	if (itree_grow(t))
		return -ENOMEM;
	z = (uint32_t)t->n++;
	t->keys[z] = *key;
	pki_rbidx_link(&t->rb, z, p, left);
	t->version++;
	*inserted = true;
	return z;
}

int pki_itree_inorder(const struct pki_itree *t, uint32_t *out)
{
	size_t k = 0;

	for (uint32_t x = pki_rbidx_first(&t->rb); x != NIL; x = pki_rbidx_next(&t->rb, x))
		out[k++] = x;
	return 0;
}

void pki_itree_free(struct pki_itree *t)
{
	free(t->keys);
	free(t->rb.left);
	free(t->rb.right);
	free(t->rb.parent);
	free(t->rb.red);
	pki_itree_init(t);
}

/* The collapsed tree: nodes are indices into the entries, each compared
 * by its ranked keys (hist_replay.c). */
struct ctree {
	struct pki_rbidx rb;
	const struct pki_gkey *g;
	const struct sort_ctx *x;
};

/* perf's lookup of entry i: the node equal to it, else NIL with i
 * inserted where the search ended. */
static uint32_t ctree_findnew(struct ctree *t, uint32_t i)
{
	uint32_t cur = t->rb.root, p = NIL;
	bool left = false;

	while (cur != NIL) {
		int c = pki_hist_gkey_cmp(t->x, &t->g[cur], &t->g[i]);

		if (!c)
			return cur;
		p = cur;
		left = c < 0;
		cur = left ? t->rb.left[p] : t->rb.right[p];
	}
	pki_rbidx_link(&t->rb, i, p, left);
	return NIL;
}

/* v[0, n) in the tree's order, the merged ones left out; returns how
 * many. */
static uint64_t ctree_compact(const struct ctree *t, struct pk_hist_entry *v,
			      struct pk_hist_entry *out)
{
	uint64_t k = 0;

	for (uint32_t x = pki_rbidx_first(&t->rb); x != NIL; x = pki_rbidx_next(&t->rb, x))
		out[k++] = v[x];
	memcpy(v, out, k * sizeof(*v));
	return k;
}

static int ctree_init(struct ctree *t, const struct pk_hist_entry *v, uint64_t n)
{
	uint32_t *idx = malloc(3 * n * sizeof(*idx));
	struct pki_gkey *g = malloc(n * sizeof(*g));
	int err = idx && g ? 0 : -ENOMEM;

	t->rb = (struct pki_rbidx){.left = idx,
				   .right = idx + n,
				   .parent = idx + 2 * n,
				   .red = malloc(n * sizeof(bool)),
				   .root = NIL};
	t->g = g;
	t->x = pki_hist_sort_ctx();
	if (!err && !t->rb.red)
		err = -ENOMEM;
	if (!err)
		err = pki_hist_gkeys(v, n, g);
	return err;
}

static void ctree_free(struct ctree *t)
{
	free(t->rb.left);
	free(t->rb.red);
	free((void *)t->g);
}

/*
 * perf's collapsed tree over entries in the input tree's order: an entry
 * equal to one already there is merged into it (the first one keeps its
 * place and label).  v is compacted to the collapsed tree's order.
 */
static int collapse(struct pki_arena *a, struct pk_hist_entry *v, uint64_t *n)
{
	struct pk_hist_entry *out;
	struct ctree t;
	int err;

	if (*n < 2)
		return 0;
	if (*n >= UINT32_MAX)
		return -EOVERFLOW;
	out = malloc(*n * sizeof(*out));
	err = out ? ctree_init(&t, v, *n) : -ENOMEM;
	for (uint32_t i = 0; i < *n && !err; i++) {
		uint32_t z = ctree_findnew(&t, i);

		/* merged: stats and call tree go to the entry found */
		if (z != NIL)
			err = pki_hist_entry_merge(a, &v[z], &v[i]);
	}
	if (!err)
		*n = ctree_compact(&t, v, out);
	if (out)
		ctree_free(&t);
	free(out);
	return err;
}

int pki_hist_sort_replayed(struct pki_arena *a, struct pk_hist_entry *v, uint64_t *n,
			   const enum pk_hist_key *keys, uint32_t nr_keys, bool children,
			   int callchain)
{
	int err = 0;

	pki_hist_set_keys(keys, nr_keys);
	if (pki_hist_grouping_passes(keys, nr_keys) > 1)
		err = collapse(a, v, n);
	if (!err)
		pki_hist_sort_output(v, *n, keys, nr_keys, children, callchain, 1);
	return err;
}

int pki_hist_entry_merge(struct pki_arena *a, struct pk_hist_entry *dst,
			 const struct pk_hist_entry *src)
{
	dst->self += src->self;
	dst->children += src->children;
	dst->nr_samples += src->nr_samples;
	if (!src->callchain)
		return 0;
	return pki_callchain_merge(a, &dst->callchain, src->callchain);
}
