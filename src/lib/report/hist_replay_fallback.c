// SPDX-License-Identifier: MIT
/*
 * The replay's other ending (hist_replay.c): when a first lookup found
 * another key, perf's tree is not the one the builders assumed, so the
 * entries are built the plain way from the stacks (hist.c) and the samples
 * that landed elsewhere are taken out of their stacks and added again one
 * by one, where the replay saw them land.  Also the duplicates' entries
 * for that build.
 */
#include <errno.h>
#include <stdlib.h>
#include "hist_build.h"

#include "hist_replay.h"

static bool rp_usable(const struct rp_event *re, const struct hist_event *he)
{
	return !re->broken && re->nr_prim == he->nr && re->t.n == re->nr_prim + re->nr_dups;
}

/* The duplicates as entries, and the tree's order of them all. */
int pki_replay_entries(struct rp_event *re, struct hist_event *he)
{
	size_t n = re->t.n;
	struct pk_hist_entry *v;

	if (!rp_usable(re, he) || !n)
		return 0;
	v = realloc(he->v, n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	he->v = v;
	he->alloc = n;
	for (uint32_t node = 0; node < n; node++) {
		struct pk_hist_entry *e = &v[rp_entry(re, node)];

		/* perf's entry has the map of its last sample, which its
		 * later comparisons (group members' lookups) see */
		e->dso = re->t.keys[node].dso;
		if (!(re->node_idx[node] & DUP))
			continue;
		*e = re->t.keys[node];
		e->self = e->children = e->nr_samples = 0;
		e->callchain = NULL;
	}
	he->nr = n;
	return pki_replay_order(re, he);
}

struct rp_apply {
	struct pk_hist *h;
	struct replay *rp;
	const struct rp_exc *exc;
};

/* One key of a sample taken out of its stack, where perf put it. */
static int rp_apply_key(void *arg, const struct pki_walk *w, const struct pk_hist_entry *key,
			uint32_t pos, size_t from)
{
	struct rp_apply *ap = arg;
	struct replay *rp = ap->rp;
	struct rp_event *re = &rp->ev[w->st->attr->index];
	struct hist_event *he = &ap->h->events[w->st->attr->index];
	uint64_t period = ap->exc->period;
	struct pk_hist_entry *e;
	size_t slot;
	int64_t i = pki_replay_lookup(ap->h, re, key, &slot);
	uint32_t ordinal, idx;

	if (i < 0)
		return i == -1 ? -EINVAL : (int)i;
	if (re->prim[i].stamp == rp->occ)
		return 0;
	re->prim[i].stamp = rp->occ;
	ordinal = rp->ordinal++;
	idx = (uint32_t)i;
	for (size_t r = 0; r < ap->exc->nr && he->order; r++) {
		const struct rp_redir *d = &rp->redir[ap->exc->first + r];

		if (d->ordinal == ordinal)
			idx = rp_entry(re, d->node);
	}
	if (idx >= he->nr)
		return -EINVAL;
	e = &he->v[idx];
	if (!pos) {
		e->self += period;
		e->nr_samples++;
	}
	e->children += period;
	if (!ap->h->callchain)
		return 0;
	return pki_hist_append_chain(ap->h, &ap->h->trees[0], &e->callchain, w->frames, w->n, from,
				     period);
}

static int rp_apply(struct pk_hist *h, struct replay *rp)
{
	struct pk_frame *frames = calloc(PKI_HIST_FRAMES, sizeof(*frames));
	int err = frames ? 0 : -ENOMEM;

	for (uint32_t i = 0; i < rp->nr_ev && i < h->nr_events_alloc && !err; i++)
		err = pki_replay_entries(&rp->ev[i], &h->events[i]);
	for (size_t x = 0; x < rp->nr_exc && !err; x++) {
		struct rp_apply ap = {h, rp, &rp->exc[x]};

		rp->occ++;
		rp->ordinal = 0;
		err = pki_hist_walk(h, &h->stacks.v[rp->exc[x].stack], frames, NULL, rp_apply_key,
				    &ap);
	}
	free(frames);
	return err;
}

bool pki_replay_usable(const struct replay *rp)
{
	for (uint32_t i = 0; i < rp->nr_ev; i++)
		if (rp->ev[i].broken)
			return false;
	return true;
}

int pki_replay_fallback(struct pk_hist *h, struct replay *rp)
{
	int err;

	for (size_t x = 0; x < rp->nr_exc; x++) {
		struct pki_stack *st = &h->stacks.v[rp->exc[x].stack];

		st->period -= rp->exc[x].period;
		st->count--;
	}
	err = pki_hist_build_entries(h);
	return err ? err : rp_apply(h, rp);
}
