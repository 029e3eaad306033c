// SPDX-License-Identifier: MIT
/*
 * perf's input tree, replayed search by search.  perf looks every sample
 * (and, with children, every entry of its callchain) up in a red-black
 * tree whose comparison of two unresolved symbols is the signed difference
 * of their addresses: no total order, so a lookup can miss an entry that
 * is in the tree and insert a second one for the same key.  This tree
 * grows as perf's does (the kernel's insertion and recoloring) so that the
 * same searches miss.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hist_internal.h"

#define NIL UINT32_MAX

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
	l = realloc(t->left, n * sizeof(*l));
	if (l)
		t->left = l;
	r = realloc(t->right, n * sizeof(*r));
	if (r)
		t->right = r;
	p = realloc(t->parent, n * sizeof(*p));
	if (p)
		t->parent = p;
	red = realloc(t->red, n * sizeof(*red));
	if (red)
		t->red = red;
	if (!k || !l || !r || !p || !red)
		return -ENOMEM;
	t->alloc = n;
	return 0;
}

static void rotate(struct pki_itree *t, uint32_t x, bool to_left)
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

/* the kernel's rb_insert_color() */
static void fix_insert(struct pki_itree *t, uint32_t z)
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

void pki_itree_init(struct pki_itree *t)
{
	memset(t, 0, sizeof(*t));
	t->root = NIL;
}

int64_t pki_itree_findnew(struct pki_itree *t, const struct pk_hist_entry *key, bool *inserted)
{
	const struct sort_ctx *x = pki_hist_sort_ctx();
	uint32_t *link = &t->root, p = NIL, z;

	*inserted = false;
	while (*link != NIL) {
		int c;

		p = *link;
		c = pki_hist_perf_cmp_in(x, &t->keys[p], key);
		if (!c)
			return p;
		link = c < 0 ? &t->left[p] : &t->right[p];
	}
	if (itree_grow(t))
		return -ENOMEM;
	/* the arrays may have moved: find the link again from the parent */
	z = (uint32_t)t->n++;
	if (p == NIL)
		t->root = z;
	else if (pki_hist_perf_cmp_in(x, &t->keys[p], key) < 0)
		t->left[p] = z;
	else
		t->right[p] = z;
	t->keys[z] = *key;
	t->parent[z] = p;
	t->left[z] = t->right[z] = NIL;
	t->red[z] = true;
	fix_insert(t, z);
	t->version++;
	*inserted = true;
	return z;
}

int pki_itree_inorder(const struct pki_itree *t, uint32_t *out)
{
	uint32_t *stack = malloc((t->n ? t->n : 1) * sizeof(*stack));
	uint32_t x = t->root;
	size_t sp = 0, k = 0;

	if (!stack)
		return -ENOMEM;
	while (x != NIL || sp) {
		if (x != NIL) {
			stack[sp++] = x;
			x = t->left[x];
			continue;
		}
		x = stack[--sp];
		out[k++] = x;
		x = t->right[x];
	}
	free(stack);
	return 0;
}

void pki_itree_free(struct pki_itree *t)
{
	free(t->keys);
	free(t->left);
	free(t->right);
	free(t->parent);
	free(t->red);
	pki_itree_init(t);
}

/*
 * perf's collapsed tree over entries in the input tree's order: an entry
 * equal to one already there is merged into it (the first one keeps its
 * place and label).  v is compacted to the collapsed tree's order.
 */
static int collapse(struct pki_arena *a, struct pk_hist_entry *v, uint64_t *n)
{
	struct pki_itree t;
	uint32_t *order = malloc((*n ? *n : 1) * sizeof(*order));
	uint32_t *at = malloc((*n ? *n : 1) * sizeof(*at));
	struct pk_hist_entry *out = malloc((*n ? *n : 1) * sizeof(*out));
	int err = order && at && out ? 0 : -ENOMEM;

	pki_itree_init(&t);
	for (uint64_t i = 0; i < *n && !err; i++) {
		bool ins;
		int64_t z = pki_itree_findnew(&t, &v[i], &ins);

		if (z < 0) {
			err = (int)z;
			break;
		}
		if (ins) {
			at[z] = (uint32_t)i;
			continue;
		}
		/* merged: stats and call tree go to the entry found */
		err = pki_hist_entry_merge(a, &v[at[z]], &v[i]);
	}
	if (!err && !(err = pki_itree_inorder(&t, order))) {
		for (size_t k = 0; k < t.n; k++)
			out[k] = v[at[order[k]]];
		memcpy(v, out, t.n * sizeof(*v));
		*n = t.n;
	}
	pki_itree_free(&t);
	free(order);
	free(at);
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
