// SPDX-License-Identifier: MIT
/*
 * Which entries keep their whole call tree whatever their size, when
 * small ones may stay partial (pk_hist_opts.callchain_min_percent): those
 * whose tree can end up in another entry's.  perf's collapsed tree merges
 * the entries its comparison finds equal.  Two primaries compare equal
 * only where perf's input tree missed one on the other's first lookup,
 * which takes an unresolved key (addresses too far apart to compare right,
 * see hist_replay.c); duplicates are marked by the replay itself.  So
 * each class of equal unresolved keys with more than one primary keeps
 * all of its trees.
 */
#include <errno.h>
#include <stdlib.h>
#include "hist_replay.h"

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h *= 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 31);
}

/* Equal unresolved keys (pki_gkey_cmp() == 0) hash equal: their symbol
 * key compares the addresses alone. */
static uint64_t class_hash(const struct sort_ctx *x, const struct pki_gkey *g)
{
	uint64_t h = 0;

	for (uint32_t i = 0; i < x->nr_keys; i++) {
		if (x->keys[i] != PK_HIST_KEY_SYM)
			h = mix(h, g->k[i]);
		else
			h = mix(h, g->addr);
	}
	return mix(h, x->nr_keys);
}

static const struct pki_gkey *prim_gkey(const struct rp_event *re, uint32_t prim)
{
	return &re->t.g[re->prim[prim].node];
}

/* The classes: primaries + 1 by the hash of their keys, at most half
 * full (mask + 1 slots). */
struct classes {
	uint32_t *slots;
	size_t mask;
	const struct sort_ctx *x;
};

/* Primary prim (unresolved) into its class, and the class marked kept
 * once it has two. */
static void keep_class(struct rp_event *re, struct classes *c, uint32_t prim)
{
	const struct pki_gkey *g = prim_gkey(re, prim);
	size_t j;

	for (j = class_hash(c->x, g) & c->mask; c->slots[j]; j = (j + 1) & c->mask) {
		uint32_t other = c->slots[j] - 1;

		if (!pki_gkey_cmp(c->x, prim_gkey(re, other), g)) {
			re->prim[other].keep = true;
			re->prim[prim].keep = true;
		}
	}
	c->slots[j] = prim + 1;
}

static bool unresolved(const struct rp_event *re, uint32_t prim)
{
	return !re->t.keys[re->prim[prim].node].sym;
}

int pki_replay_keep(struct rp_event *re)
{
	struct classes c = {.x = pki_hist_sort_ctx()};
	size_t n = 0, size = 64;

	for (uint32_t i = 0; i < re->nr_prim; i++)
		n += unresolved(re, i);
	while (size < 2 * n)
		size *= 2;
	c.slots = calloc(size, sizeof(*c.slots));
	if (!c.slots)
		return -ENOMEM;
	c.mask = size - 1;
	for (uint32_t i = 0; i < re->nr_prim; i++)
		if (unresolved(re, i))
			keep_class(re, &c, i);
	free(c.slots);
	return 0;
}
