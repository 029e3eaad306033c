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

	if (t->n < t->alloc)
		return 0;
	if (n >= UINT32_MAX)
		return -EOVERFLOW;
	if (pki_resize_array((void **)&t->keys, n, sizeof(*t->keys)) ||
	    pki_resize_array((void **)&t->g, n, sizeof(*t->g)) ||
	    pki_resize_array((void **)&t->rb.left, n, sizeof(*t->rb.left)) ||
	    pki_resize_array((void **)&t->rb.right, n, sizeof(*t->rb.right)) ||
	    pki_resize_array((void **)&t->rb.parent, n, sizeof(*t->rb.parent)) ||
	    pki_resize_array((void **)&t->rb.red, n, sizeof(*t->rb.red)) ||
	    pki_resize_array((void **)&t->group, n, sizeof(*t->group)))
		return -ENOMEM;
	t->alloc = n;
	return 0;
}

void pki_itree_init(struct pki_itree *t, bool by_group)
{
	memset(t, 0, sizeof(*t));
	t->rb.root = NIL;
	t->by_group = by_group;
}

/* Room for group's version (zero until its first change). */
static int group_room(struct pki_itree *t, uint32_t group)
{
	return pki_room_zeroed((void **)&t->group_version, &t->nr_groups, group,
			       sizeof(*t->group_version), 64);
}

static void touch(struct pki_itree *t, uint32_t node)
{
	uint32_t g = t->group[node];

	/* every group in the tree has its room: its nodes' insertions made it */
	if (g)
		t->group_version[g]++;
}

uint64_t pki_itree_version(const struct pki_itree *t, uint32_t group)
{
	if (!t->by_group || !group)
		return t->version;
	return group < t->nr_groups ? t->group_version[group] : 0;
}

void pki_itree_changed(struct pki_itree *t, uint32_t node)
{
	t->version++;
	touch(t, node);
}

/*
 * A node was just inserted: the lookups that may now end elsewhere.  A
 * new leaf is on no path to another node, so only the rotations that
 * rebalanced the tree can change a lookup's end (rbidx.c lists the nodes
 * they turned).  A group's nodes lie side by side in the tree's order, so
 * a lookup of one of its keys meets them in an order set only by which
 * of them is above which, on what side (other nodes on its way send it on
 * towards them): rotations that turn none of them leave it as it was.
 */
static void inserted(struct pki_itree *t)
{
	if (t->rb.nr_turned)
		t->version++;
	for (uint32_t i = 0; i < t->rb.nr_turned; i++)
		touch(t, t->rb.turned[i]);
}

int64_t pki_itree_findnew(struct pki_itree *t, const struct pki_gkey *g,
			  const struct pk_hist_entry *key, uint32_t group, bool *is_new)
{
	const struct sort_ctx *x = pki_hist_sort_ctx();
	uint32_t cur = t->rb.root, p = NIL, z;
	bool left = false;

	*is_new = false;
	while (cur != NIL) {
		int c;

		p = cur;
		c = pki_gkey_cmp(x, &t->g[p], g);
		if (!c)
			return p;
		left = c < 0;
		cur = left ? t->rb.left[p] : t->rb.right[p];
	}
	if (itree_grow(t) || group_room(t, group))
		return -ENOMEM;
	z = (uint32_t)t->n++;
	t->keys[z] = *key;
	t->g[z] = *g;
	t->group[z] = group;
	pki_rbidx_link(&t->rb, z, p, left);
	inserted(t);
	*is_new = true;
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
	free(t->g);
	free(t->rb.left);
	free(t->rb.right);
	free(t->rb.parent);
	free(t->rb.red);
	free(t->group);
	free(t->group_version);
	pki_itree_init(t, false);
}

/*
 * perf's collapsed tree over entries in the input tree's order, when a
 * key needs it (hist_order.c): an entry equal to one already there is
 * merged into it (the first one keeps its place and label).  Then the
 * output order.
 */
int pki_hist_sort_replayed(struct pki_arena *a, struct pk_hist_entry *v, uint64_t *n,
			   const enum pk_hist_key *keys, uint32_t nr_keys, bool children,
			   int callchain)
{
	bool sorted = false;
	int err = 0;

	pki_hist_set_view(keys, nr_keys, children, callchain);
	if (pki_hist_grouping_passes(keys, nr_keys) > 1)
		err = pki_hist_order_collapse(a, v, n, 1, &sorted);
	if (!err && !sorted)
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
