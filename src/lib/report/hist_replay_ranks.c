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

/* The comms' ranks by string (interned: one pointer a string). */
static int rp_comm_ranks(struct pk_hist *h, struct replay *rp)
{
	const struct pki_strtab *t = &h->comms;
	const char **sorted;
	size_t n = 0;

	rp->comms = malloc((t->nr ? t->nr : 1) * sizeof(*rp->comms));
	rp->comm_rank = malloc((t->nr ? t->nr : 1) * sizeof(*rp->comm_rank));
	sorted = malloc((t->nr ? t->nr : 1) * sizeof(*sorted));
	if (!rp->comms || !rp->comm_rank || !sorted) {
		free(sorted);
		return -ENOMEM;
	}
	for (size_t j = 0; j < t->nr_slots && n < t->nr; j++)
		if (t->slots[j])
			sorted[n++] = t->slots[j];
	qsort(sorted, n, sizeof(*sorted), by_string);
	memcpy(rp->comms, sorted, n * sizeof(*sorted));
	qsort(rp->comms, n, sizeof(*rp->comms), by_address);
	/* comm i's rank: its place in sorted */
	for (size_t i = 0; i < n; i++) {
		const char **at = bsearch(&sorted[i], rp->comms, n, sizeof(*rp->comms), by_address);

		rp->comm_rank[at - rp->comms] = (uint32_t)i;
	}
	rp->nr_comms = n;
	free(sorted);
	return 0;
}

static uint32_t comm_rank(const struct replay *rp, const char *comm)
{
	const char **at = bsearch(&comm, rp->comms, rp->nr_comms, sizeof(*rp->comms), by_address);

	return at ? rp->comm_rank[at - rp->comms] : UINT32_MAX;
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
		default:
			g->k[j] = 0;
			break;
		}
	}
}

int pki_replay_ranks(struct pk_hist *h, struct replay *rp)
{
	int err = rp_comm_ranks(h, rp);

	return err ? err : rp_dso_names(h, rp);
}
