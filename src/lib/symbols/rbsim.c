// SPDX-License-Identifier: MIT
/*
 * The shape of perf's red-black tree of symbols.
 *
 * perf keeps a DSO's symbols in a kernel-style red-black tree keyed by
 * start address (equal starts go right) and looks an address up by walking
 * it.  Where symbols overlap, the walk returns whichever one its path meets
 * first, so the answer depends on the tree's shape, which depends on the
 * order of the insertions and removals.  This is a plain red-black tree
 * with the classic rebalancing (uncle recolouring, then one or two
 * rotations on insert; the successor replaces a node with two children on
 * removal), which yields the same shape for the same sequence.
 * Nodes are indices into one array; -1 is "none".
 */
#include <errno.h>
#include <stdlib.h>
#include "rbsim.h"

int pki_rbsim_init(struct pki_rbsim *t, size_t nr)
{
	t->node = calloc(nr ? nr : 1, sizeof(*t->node));
	t->nr = nr;
	t->root = -1;
	return t->node ? 0 : -ENOMEM;
}

void pki_rbsim_free(struct pki_rbsim *t)
{
	free(t->node);
	t->node = NULL;
}

static bool is_red(const struct pki_rbsim *t, int32_t n)
{
	return n >= 0 && t->node[n].red;
}

/* Make new take old's place under parent (or at the root). */
static void replace_child(struct pki_rbsim *t, int32_t parent, int32_t old, int32_t new)
{
	if (parent < 0)
		t->root = new;
	else if (t->node[parent].left == old)
		t->node[parent].left = new;
	else
		t->node[parent].right = new;
	if (new >= 0)
		t->node[new].parent = parent;
}

static void rotate_left(struct pki_rbsim *t, int32_t x)
{
	struct pki_rbnode *n = t->node;
	int32_t y = n[x].right;

	n[x].right = n[y].left;
	if (n[y].left >= 0)
		n[n[y].left].parent = x;
	replace_child(t, n[x].parent, x, y);
	n[y].left = x;
	n[x].parent = y;
}

static void rotate_right(struct pki_rbsim *t, int32_t x)
{
	struct pki_rbnode *n = t->node;
	int32_t y = n[x].left;

	n[x].left = n[y].right;
	if (n[y].right >= 0)
		n[n[y].right].parent = x;
	replace_child(t, n[x].parent, x, y);
	n[y].right = x;
	n[x].parent = y;
}

static void insert_fixup(struct pki_rbsim *t, int32_t z)
{
	struct pki_rbnode *n = t->node;

	while (is_red(t, n[z].parent)) {
		int32_t p = n[z].parent, g = n[p].parent;
		bool left = n[g].left == p;
		int32_t uncle = left ? n[g].right : n[g].left;

		if (is_red(t, uncle)) {
			n[p].red = false;
			n[uncle].red = false;
			n[g].red = true;
			z = g;
			continue;
		}
		if (z == (left ? n[p].right : n[p].left)) {
			z = p;
			if (left)
				rotate_left(t, z);
			else
				rotate_right(t, z);
			p = n[z].parent;
		}
		n[p].red = false;
		n[g].red = true;
		if (left)
			rotate_right(t, g);
		else
			rotate_left(t, g);
	}
	n[t->root].red = false;
}

void pki_rbsim_insert(struct pki_rbsim *t, int32_t z, uint64_t start)
{
	struct pki_rbnode *n = t->node;
	int32_t parent = -1, cur = t->root;

	while (cur >= 0) {
		parent = cur;
		cur = start < n[cur].start ? n[cur].left : n[cur].right;
	}
	n[z] = (struct pki_rbnode){
		.start = start, .left = -1, .right = -1, .parent = parent, .red = true};
	if (parent < 0)
		t->root = z;
	else if (start < n[parent].start)
		n[parent].left = z;
	else
		n[parent].right = z;
	insert_fixup(t, z);
}

/*
 * Restore the colours after a black node left the subtree of parent on
 * x's side (x may be none: then the side is the one that is empty, or
 * the left when neither is).
 */
static void erase_fixup(struct pki_rbsim *t, int32_t x, int32_t parent)
{
	struct pki_rbnode *n = t->node;

	while (x != t->root && !is_red(t, x)) {
		bool left = x != n[parent].right;
		int32_t w = left ? n[parent].right : n[parent].left;

		if (is_red(t, w)) {
			n[w].red = false;
			n[parent].red = true;
			if (left)
				rotate_left(t, parent);
			else
				rotate_right(t, parent);
			w = left ? n[parent].right : n[parent].left;
		}
		if (!is_red(t, n[w].left) && !is_red(t, n[w].right)) {
			n[w].red = true;
			x = parent;
			parent = n[x].parent;
			continue;
		}
		if (!is_red(t, left ? n[w].right : n[w].left)) {
			n[left ? n[w].left : n[w].right].red = false;
			n[w].red = true;
			if (left)
				rotate_right(t, w);
			else
				rotate_left(t, w);
			w = left ? n[parent].right : n[parent].left;
		}
		n[w].red = n[parent].red;
		n[parent].red = false;
		n[left ? n[w].right : n[w].left].red = false;
		if (left)
			rotate_left(t, parent);
		else
			rotate_right(t, parent);
		x = t->root;
	}
	if (x >= 0)
		n[x].red = false;
}

void pki_rbsim_erase(struct pki_rbsim *t, int32_t z)
{
	struct pki_rbnode *n = t->node;
	int32_t x, parent, y;
	bool was_red;

	if (n[z].left < 0 || n[z].right < 0) {
		x = n[z].left < 0 ? n[z].right : n[z].left;
		parent = n[z].parent;
		was_red = n[z].red;
		replace_child(t, parent, z, x);
	} else {
		/* the successor, leftmost of the right subtree, takes z's place */
		y = n[z].right;
		while (n[y].left >= 0)
			y = n[y].left;
		was_red = n[y].red;
		x = n[y].right;
		if (n[y].parent == z) {
			parent = y;
		} else {
			parent = n[y].parent;
			replace_child(t, parent, y, x);
			n[y].right = n[z].right;
			n[n[y].right].parent = y;
		}
		replace_child(t, n[z].parent, z, y);
		n[y].left = n[z].left;
		n[n[y].left].parent = y;
		n[y].red = n[z].red;
	}
	if (!was_red)
		erase_fixup(t, x, parent);
}

int32_t pki_rbsim_find(const struct pki_rbsim *t, uint64_t ip)
{
	int32_t cur = t->root;

	while (cur >= 0) {
		const struct pki_rbnode *n = &t->node[cur];

		if (ip < n->start)
			cur = n->left;
		else if (ip > n->end || (ip == n->end && ip != n->start))
			cur = n->right;
		else
			return cur;
	}
	return -1;
}
