/* SPDX-License-Identifier: MIT */
/*
 * A red-black tree over caller-owned index arrays, rebalanced by the
 * Linux kernel's rules (rbidx.c).  perf's results depend on the shapes of
 * its trees wherever its comparisons are no total order, so every tree
 * perfkit replays grows and shrinks here; callers keep their own
 * comparisons and searches and only say where a new node hangs.
 */
#ifndef PK_RBIDX_H
#define PK_RBIDX_H

#include <stdbool.h>
#include <stdint.h>

#define PKI_RBIDX_NIL UINT32_MAX /* no node */
#define PKI_RBIDX_TURNS 6	 /* 2 nodes a rotation, 3 rotations at most */

/* Node i's links are left[i], right[i], parent[i], red[i]. */
struct pki_rbidx {
	uint32_t *left, *right, *parent;
	bool *red;
	uint32_t root; /* PKI_RBIDX_NIL: empty */
	/* the nodes the last link or erase rotated (both ends of each
	 * rotation): the only ones whose ancestors changed */
	uint32_t turned[PKI_RBIDX_TURNS];
	uint32_t nr_turned;
};

/*
 * Hang node z under parent (on its left when left; PKI_RBIDX_NIL for the
 * root of an empty tree) and rebalance, as rb_link_node() and
 * rb_insert_color() do.
 */
void pki_rbidx_link(struct pki_rbidx *t, uint32_t z, uint32_t parent, bool left);

/* Remove node z, which is in the tree; its successor takes its place. */
void pki_rbidx_erase(struct pki_rbidx *t, uint32_t z);

/* In-order walk: the first node and the one after x (PKI_RBIDX_NIL: none). */
uint32_t pki_rbidx_first(const struct pki_rbidx *t);
uint32_t pki_rbidx_next(const struct pki_rbidx *t, uint32_t x);

#endif
