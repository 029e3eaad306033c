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

/* Room for one more primary in the classes' table, at most half full. */
static int classes_grow(struct rp_event *re, const struct sort_ctx *x)
{
	size_t n = re->nr_class_slots ? re->nr_class_slots * 2 : 1024;
	uint32_t *v;

	if ((re->nr_classes + 1) * 2 <= re->nr_class_slots)
		return 0;
	v = calloc(n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < re->nr_class_slots; i++) {
		size_t j;

		if (!re->classes[i])
			continue;
		j = class_hash(x, prim_gkey(re, re->classes[i] - 1)) & (n - 1);
		while (v[j])
			j = (j + 1) & (n - 1);
		v[j] = re->classes[i];
	}
	free(re->classes);
	re->classes = v;
	re->nr_class_slots = n;
	return 0;
}

/* Primary prim (unresolved) into its class. */
static int keep_class(struct rp_event *re, uint32_t prim, const struct sort_ctx *x)
{
	const struct pki_gkey *g = prim_gkey(re, prim);
	size_t j, mask;

	if (classes_grow(re, x))
		return -ENOMEM;
	mask = re->nr_class_slots - 1;
	for (j = class_hash(x, g) & mask; re->classes[j]; j = (j + 1) & mask) {
		uint32_t other = re->classes[j] - 1;

		if (!pki_gkey_cmp(x, prim_gkey(re, other), g)) {
			re->prim[other].keep = true;
			re->prim[prim].keep = true;
		}
	}
	re->classes[j] = prim + 1;
	re->nr_classes++;
	return 0;
}

int pki_replay_keep(struct rp_event *re)
{
	const struct sort_ctx *x = pki_hist_sort_ctx();
	int err = 0;

	for (uint32_t i = 0; i < re->nr_prim && !err; i++)
		if (!re->t.keys[re->prim[i].node].sym)
			err = keep_class(re, i, x);
	free(re->classes);
	re->classes = NULL;
	re->nr_classes = re->nr_class_slots = 0;
	return err;
}
