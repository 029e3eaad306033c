// SPDX-License-Identifier: MIT
/*
 * The replay's ranks of the strings perf's input tree compares (comms by
 * string, DSOs by name), so that its comparisons are of integers, and the
 * grouping keys made of them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hist_replay.h"

static int by_dso_name(const void *a, const void *b)
{
	const struct pk_dso *const *const *x = a, *const *const *y = b;

	return strcmp(pk_dso_short_name(**x), pk_dso_short_name(**y));
}

/* Every DSO of the stacks, numbered by name. */
static int rp_dso_names(struct pk_hist *h, struct replay *rp)
{
	const struct pki_stacks *t = &h->stacks;
	const struct pk_dso *const **byname =
		malloc((t->nr_dsos ? t->nr_dsos : 1) * sizeof(*byname));
	size_t nr = 0;
	uint32_t name = 0;

	rp->stacks = t;
	rp->dso_name = calloc(t->nr_dso_slots ? t->nr_dso_slots : 1, sizeof(*rp->dso_name));
	if (!byname || !rp->dso_name) {
		free(byname);
		return -ENOMEM;
	}
	for (size_t j = 0; j < t->nr_dso_slots; j++)
		if (t->dsos[j])
			byname[nr++] = &t->dsos[j];
	qsort(byname, nr, sizeof(*byname), by_dso_name);
	for (size_t i = 0; i < nr; i++) {
		if (!i || by_dso_name(&byname[i - 1], &byname[i]))
			name++;
		rp->dso_name[byname[i] - t->dsos] = name;
	}
	rp->shared_names = name < nr;
	free(byname);
	return 0;
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int by_address(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t) * (const char *const *)a,
		  y = (uintptr_t) * (const char *const *)b;

	return (x > y) - (x < y);
}

/* The ranks by string of an interned table's strings (one pointer a
 * string): *strs by address, (*rank)[i] that of (*strs)[i]. */
static int strtab_ranks(const struct pki_strtab *t, const char ***strs, uint32_t **rank,
			size_t *nr)
{
	const char **sorted;
	size_t n = 0;

	*strs = malloc((t->nr ? t->nr : 1) * sizeof(**strs));
	*rank = malloc((t->nr ? t->nr : 1) * sizeof(**rank));
	sorted = malloc((t->nr ? t->nr : 1) * sizeof(*sorted));
	if (!*strs || !*rank || !sorted) {
		free(sorted);
		return -ENOMEM;
	}
	for (size_t j = 0; j < t->nr_slots && n < t->nr; j++)
		if (t->slots[j])
			sorted[n++] = t->slots[j];
	qsort(sorted, n, sizeof(*sorted), by_string);
	memcpy(*strs, sorted, n * sizeof(*sorted));
	qsort(*strs, n, sizeof(**strs), by_address);
	/* string i's rank: its place in sorted */
	for (size_t i = 0; i < n; i++) {
		const char **at = bsearch(&sorted[i], *strs, n, sizeof(**strs), by_address);

		(*rank)[at - *strs] = (uint32_t)i;
	}
	*nr = n;
	free(sorted);
	return 0;
}

/* s's rank among strs, UINT32_MAX (after all) for none */
static uint32_t str_rank(const char *const *strs, const uint32_t *rank, size_t nr, const char *s)
{
	const char *const *at = s ? bsearch(&s, strs, nr, sizeof(*strs), by_address) : NULL;

	return at ? rank[at - strs] : UINT32_MAX;
}

static uint32_t comm_rank(const struct replay *rp, const char *comm)
{
	return str_rank(rp->comms, rp->comm_rank, rp->nr_comms, comm);
}

uint32_t pki_replay_dso_name(const struct replay *rp, const struct pk_dso *dso)
{
	size_t j = pki_stacks_dso_slot(rp->stacks, dso);

	return j != SIZE_MAX && rp->stacks->dsos[j] ? rp->dso_name[j] : 0;
}

/* A DSO's rank: by name, in no map after every name. */
static uint32_t dso_rank(const struct replay *rp, const struct pk_dso *dso)
{
	return dso ? pki_replay_dso_name(rp, dso) : UINT32_MAX;
}

/* key's grouping keys, its strings ranked, as the tree compares them. */
void pki_replay_gkey(const struct replay *rp, const struct pk_hist_entry *key, struct pki_gkey *g)
{
	const struct sort_ctx *x = pki_hist_sort_ctx();

	g->sym = key->sym;
	g->addr = key->addr;
	g->dso = dso_rank(rp, key->dso);
	for (uint32_t j = 0; j < x->nr_keys; j++) {
		switch (x->keys[j]) {
		case PK_HIST_KEY_COMM:
			g->k[j] = comm_rank(rp, key->comm);
			break;
		case PK_HIST_KEY_PID:
			g->k[j] = (uint32_t)key->tid ^ 0x80000000u; /* signed order */
			break;
		case PK_HIST_KEY_DSO:
			g->k[j] = g->dso;
			break;
		case PK_HIST_KEY_CPU:
			g->k[j] = key->cpu;
			break;
		case PK_HIST_KEY_PARENT:
			/* perf: no parent compares as after every name */
			g->k[j] = str_rank(rp->parents, rp->parent_rank, rp->nr_parents,
					   key->parent);
			break;
		default:
			g->k[j] = 0;
			break;
		}
	}
}

int pki_replay_ranks(struct pk_hist *h, struct replay *rp)
{
	int err = strtab_ranks(&h->comms, &rp->comms, &rp->comm_rank, &rp->nr_comms);

	if (!err && (h->key_mask & (1u << PK_HIST_KEY_PARENT)))
		err = strtab_ranks(&h->parents, &rp->parents, &rp->parent_rank, &rp->nr_parents);
	return err ? err : rp_dso_names(h, rp);
}
