// SPDX-License-Identifier: MIT
/*
 * The red-black tree behind every replay of perf's trees.  The shape
 * after a sequence of insertions and removals is all that matters, so the
 * rebalancing follows the kernel's cases in the kernel's order: on insert
 * the uncle's recolouring, else one or two rotations; on removal a node
 * with two children is replaced by its successor, then the sibling cases.
 */
#include "rbidx.h"

#define NIL PKI_RBIDX_NIL

static bool is_red(const struct pki_rbidx *t, uint32_t n)
{
	return n != NIL && t->red[n];
}

/* Make new take old's place under parent (or at the root). */
static void replace_child(struct pki_rbidx *t, uint32_t parent, uint32_t old, uint32_t new)
{
	if (parent == NIL)
		t->root = new;
	else if (t->left[parent] == old)
		t->left[parent] = new;
	else
		t->right[parent] = new;
	if (new != NIL)
		t->parent[new] = parent;
}

/* Rotate x down to the left (to_left) or right; its child takes its place. */
static void rotate(struct pki_rbidx *t, uint32_t x, bool to_left)
{
	uint32_t *down = to_left ? t->right : t->left, *up = to_left ? t->left : t->right;
	uint32_t y = down[x];

	if (t->nr_turned + 2 <= PKI_RBIDX_TURNS) {
		t->turned[t->nr_turned++] = x;
		t->turned[t->nr_turned++] = y;
	}
	down[x] = up[y];
	if (up[y] != NIL)
		t->parent[up[y]] = x;
	replace_child(t, t->parent[x], x, y);
	up[y] = x;
	t->parent[x] = y;
}

static void insert_fixup(struct pki_rbidx *t, uint32_t z)
{
	while (is_red(t, t->parent[z])) {
		uint32_t p = t->parent[z], g = t->parent[p];
		bool p_left = t->left[g] == p;
		uint32_t uncle = p_left ? t->right[g] : t->left[g];

		if (is_red(t, uncle)) {
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

void pki_rbidx_link(struct pki_rbidx *t, uint32_t z, uint32_t parent, bool left)
{
	t->nr_turned = 0;
	t->parent[z] = parent;
	t->left[z] = t->right[z] = NIL;
	t->red[z] = true;
	if (parent == NIL)
		t->root = z;
	else if (left)
		t->left[parent] = z;
	else
		t->right[parent] = z;
	insert_fixup(t, z);
}

/*
 * Restore the colours after a black node left the subtree of parent on
 * x's side (x may be none: the sibling is then the other, non-empty side).
 */
static void erase_fixup(struct pki_rbidx *t, uint32_t x, uint32_t parent)
{
	while (x != t->root && !is_red(t, x)) {
		bool left = x != t->right[parent];
		uint32_t w = left ? t->right[parent] : t->left[parent];

		if (is_red(t, w)) {
			t->red[w] = false;
			t->red[parent] = true;
			rotate(t, parent, left);
			w = left ? t->right[parent] : t->left[parent];
		}
		if (!is_red(t, t->left[w]) && !is_red(t, t->right[w])) {
			t->red[w] = true;
			x = parent;
			parent = t->parent[x];
			continue;
		}
		if (!is_red(t, left ? t->right[w] : t->left[w])) {
			t->red[left ? t->left[w] : t->right[w]] = false;
			t->red[w] = true;
			rotate(t, w, !left);
			w = left ? t->right[parent] : t->left[parent];
		}
		t->red[w] = t->red[parent];
		t->red[parent] = false;
		t->red[left ? t->right[w] : t->left[w]] = false;
		rotate(t, parent, left);
		x = t->root;
	}
	if (x != NIL)
		t->red[x] = false;
}

void pki_rbidx_erase(struct pki_rbidx *t, uint32_t z)
{
	uint32_t x, parent, y;
	bool was_red;

	t->nr_turned = 0;
	if (t->left[z] == NIL || t->right[z] == NIL) {
		x = t->left[z] == NIL ? t->right[z] : t->left[z];
		parent = t->parent[z];
		was_red = t->red[z];
		replace_child(t, parent, z, x);
	} else {
		/* the successor, leftmost of the right subtree, takes z's place */
		y = t->right[z];
		while (t->left[y] != NIL)
			y = t->left[y];
		was_red = t->red[y];
		x = t->right[y];
		if (t->parent[y] == z) {
			parent = y;
		} else {
			parent = t->parent[y];
			replace_child(t, parent, y, x);
			t->right[y] = t->right[z];
			t->parent[t->right[y]] = y;
		}
		replace_child(t, t->parent[z], z, y);
		t->left[y] = t->left[z];
		t->parent[t->left[y]] = y;
		t->red[y] = t->red[z];
	}
	if (!was_red)
		erase_fixup(t, x, parent);
}

uint32_t pki_rbidx_first(const struct pki_rbidx *t)
{
	uint32_t x = t->root;

	if (x == NIL)
		return NIL;
	while (t->left[x] != NIL)
		x = t->left[x];
	return x;
}

uint32_t pki_rbidx_next(const struct pki_rbidx *t, uint32_t x)
{
	if (t->right[x] != NIL) {
		for (x = t->right[x]; t->left[x] != NIL;)
			x = t->left[x];
		return x;
	}
	while (t->parent[x] != NIL && t->right[t->parent[x]] == x)
		x = t->parent[x];
	return t->parent[x];
}
