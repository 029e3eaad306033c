// SPDX-License-Identifier: MIT
/*
 * The shape of perf's red-black tree of symbols.
 *
 * perf keeps a DSO's symbols in a kernel-style red-black tree keyed by
 * start address (equal starts go right) and looks an address up by walking
 * it.  Where symbols overlap, the walk returns whichever one its path meets
 * first, so the answer depends on the tree's shape, which depends on the
 * order of the insertions and removals.  The tree is the kernel-rules
 * one of rbidx.c, which yields the same shape for the same sequence; only
 * the key (start, equal starts right) and perf's lookup are here.
 */
#include <errno.h>
#include <stdlib.h>
#include "rbsim.h"

int pki_rbsim_init(struct pki_rbsim *t, size_t nr)
{
	size_t n = nr ? nr : 1;

	t->rb.left = calloc(n, sizeof(*t->rb.left));
	t->rb.right = calloc(n, sizeof(*t->rb.right));
	t->rb.parent = calloc(n, sizeof(*t->rb.parent));
	t->rb.red = calloc(n, sizeof(*t->rb.red));
	t->rb.root = PKI_RBIDX_NIL;
	t->start = calloc(n, sizeof(*t->start));
	t->end = calloc(n, sizeof(*t->end));
	t->nr = nr;
	if (!t->rb.left || !t->rb.right || !t->rb.parent || !t->rb.red || !t->start || !t->end) {
		pki_rbsim_free(t);
		return -ENOMEM;
	}
	return 0;
}

void pki_rbsim_free(struct pki_rbsim *t)
{
	free(t->rb.left);
	free(t->rb.right);
	free(t->rb.parent);
	free(t->rb.red);
	free(t->start);
	free(t->end);
	t->rb = (struct pki_rbidx){.root = PKI_RBIDX_NIL};
	t->start = t->end = NULL;
}

void pki_rbsim_insert(struct pki_rbsim *t, int32_t id, uint64_t start)
{
	uint32_t parent = PKI_RBIDX_NIL, cur = t->rb.root;

	while (cur != PKI_RBIDX_NIL) {
		parent = cur;
		cur = start < t->start[cur] ? t->rb.left[cur] : t->rb.right[cur];
	}
	t->start[id] = start;
	t->end[id] = 0;
	pki_rbidx_link(&t->rb, (uint32_t)id, parent,
		       parent != PKI_RBIDX_NIL && start < t->start[parent]);
}

void pki_rbsim_erase(struct pki_rbsim *t, int32_t id)
{
	pki_rbidx_erase(&t->rb, (uint32_t)id);
}

int32_t pki_rbsim_find(const struct pki_rbsim *t, uint64_t ip)
{
	uint32_t cur = t->rb.root;

	while (cur != PKI_RBIDX_NIL) {
		uint64_t start = t->start[cur], end = t->end[cur];

		if (ip < start)
			cur = t->rb.left[cur];
		else if (ip > end || (ip == end && ip != start))
			cur = t->rb.right[cur];
		else
			return (int32_t)cur;
	}
	return -1;
}
