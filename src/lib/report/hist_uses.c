// SPDX-License-Identifier: MIT
/*
 * The build from the replay's first walks, which found every key's
 * primary (its entry, in creation order).  It runs beside the replay: two
 * builders follow the first walks, each owning the primaries of one
 * parity, and add every stack's whole period and call tree to them, so no
 * key is hashed or compared again.  The samples that landed elsewhere are
 * moved afterwards (pki_uses_apply()).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "hist_replay.h"

/*
 * The replay is the longest of the three threads and the builders wait
 * for it anyway; on two cores, scheduled as equals, they took the
 * replay's core from it a sixth of the time (0.2 s on the bench file).
 * A lower priority for the builders keeps it running; they catch up when
 * it is done.
 */
#define BUILDER_NICE 5

static struct use_val *use_val(struct use_part *p, uint32_t ev, uint32_t prim)
{
	struct use_vals *uv = &p->ev[ev];
	size_t i = prim / p->nr;

	if (pki_room_zeroed((void **)&uv->v, &uv->alloc, i, sizeof(*uv->v), 1024))
		return NULL;
	return &uv->v[i];
}

/* The chains of e that waited, added in the order they came. */
static int use_catch_up(struct use_part *p, struct use_val *e)
{
	struct pk_hist *h = p->h;
	int err = 0;

	pki_callchain_whole(e->callchain);
	for (uint32_t l = e->first; l && !err; l = p->links[l - 1].next) {
		const struct use_link *k = &p->links[l - 1];
		const struct pki_stack *st = &h->stacks.v[k->stack];
		size_t n = pki_stacks_depth(&h->stacks, st);
		/* in caller order the chain ends at the leaf: the frames from
		 * there to its start are all it reads */
		size_t want =
			h->callchain == PK_CALLCHAIN_CALLER ? pki_hist_chain_len(h, n, k->from) : n;

		pki_stacks_frames(&h->stacks, st, p->frames, want);
		err = pki_hist_append_chain(h, &h->trees[p->id], &e->callchain, p->frames, n,
					    k->from, st->period);
	}
	e->first = e->last = 0;
	e->partial = false;
	return err;
}

/* A chain of an entry below the limit waits, its depth noted. */
static int use_wait_chain(struct use_part *p, struct use_val *e, uint32_t s, uint32_t from)
{
	const struct pki_stacks *t = &p->h->stacks;
	size_t len = pki_hist_chain_len(p->h, pki_stacks_depth(t, &t->v[s]), from);

	/* the root now, in this thread: most entries keep only it */
	if (!e->callchain && pki_callchain_partial(&p->h->trees[p->id], &e->callchain, 0))
		return -ENOMEM;
	if (pki_grow_array((void **)&p->links, &p->alloc_links, p->nr_links, sizeof(*p->links)))
		return -ENOMEM;
	p->links[p->nr_links++] = (struct use_link){s, from, 0};
	if (e->last)
		p->links[e->last - 1].next = (uint32_t)p->nr_links;
	else
		e->first = (uint32_t)p->nr_links;
	e->last = (uint32_t)p->nr_links;
	if (len > e->max_depth)
		e->max_depth = (uint32_t)len;
	e->partial = true;
	return 0;
}

/* Stack s's chain from frame `from` into e's tree: at once, or waiting
 * while e is below the limit (*n: the frames fetched, SIZE_MAX for none
 * yet). */
static int use_chain(struct use_part *p, struct use_val *e, uint64_t min, uint32_t s, uint32_t from,
		     size_t *n)
{
	struct pk_hist *h = p->h;
	const struct pki_stack *st = &h->stacks.v[s];
	int err;

	if (e->partial || (!e->callchain && e->children < min)) {
		err = use_wait_chain(p, e, s, from);
		if (err || e->children < min)
			return err;
		*n = SIZE_MAX; /* the frames buffer is reused */
		return use_catch_up(p, e);
	}
	if (*n == SIZE_MAX)
		*n = pki_stacks_frames(&h->stacks, st, p->frames, PKI_HIST_FRAMES);
	return pki_hist_append_chain(h, &h->trees[p->id], &e->callchain, p->frames, *n, from,
				     st->period);
}

static int use_stack(struct use_part *p, size_t s)
{
	struct pk_hist *h = p->h;
	const struct replay *rp = p->rp;
	const struct pki_stack *st = &h->stacks.v[s];
	size_t n = SIZE_MAX; /* frames not fetched yet */
	int err = 0;

	for (size_t u = rp->use_off[s]; u < rp->use_off[s + 1] && !err; u++) {
		const struct rp_use *use = &rp->uses[u];
		struct use_val *e;

		if (use->prim % p->nr != p->id)
			continue;
		e = use_val(p, st->attr->index, use->prim);
		if (!e)
			return -ENOMEM;
		if (use->from & USE_SELF) {
			e->self += st->period;
			e->nr_samples += st->count;
		}
		e->children += st->period;
		if (h->callchain)
			err = use_chain(p, e, p->ev[st->attr->index].min, (uint32_t)s,
					use->from & ~USE_SELF, &n);
	}
	return err;
}

/* Stacks walked so far: more than done, or done when the walks are over. */
static size_t use_wait(struct rp_progress *pg, size_t done)
{
	size_t walked;

	if (!pg)
		return SIZE_MAX;
	pthread_mutex_lock(&pg->lock);
	while (pg->walked <= done && !pg->done)
		pthread_cond_wait(&pg->cond, &pg->lock);
	walked = pg->walked;
	pthread_mutex_unlock(&pg->lock);
	return walked;
}

/* The depths of the partial roots, in this thread, once it has them. */
static int use_depths(struct use_part *p)
{
	for (uint32_t i = 0; i < p->h->nr_events_alloc; i++)
		for (size_t k = 0; k < p->ev[i].alloc; k++) {
			struct use_val *v = &p->ev[i].v[k];

			if (v->partial &&
			    pki_callchain_partial(&p->h->trees[p->id], &v->callchain, v->max_depth))
				return -ENOMEM;
		}
	return 0;
}

static void *use_walk(void *arg)
{
	struct use_part *p = arg;
	size_t nr = p->h->stacks.nr, s = 0;

	while (s < nr && !p->err) {
		size_t walked = use_wait(p->rp->progress, s);

		if (walked <= s)
			break; /* the replay stopped */
		for (; s < walked && s < nr && !p->err; s++)
			p->err = use_stack(p, s);
	}
	if (!p->err && s == nr)
		p->err = use_depths(p);
	return NULL;
}

/* A builder in its own thread: a lower priority for this thread alone
 * (a Linux thread has its own). */
static void *use_thread(void *arg)
{
	(void)setpriority(PRIO_PROCESS, (id_t)gettid(), BUILDER_NICE);
	return use_walk(arg);
}

/* The period from which event i's entries get their whole call tree as
 * they are built: the limit perf report draws branches from, computed as
 * it computes it. */
static uint64_t uses_min_period(const struct pk_hist *h, uint32_t i)
{
	/* a group view reads its members' trees into its leader's entries */
	for (uint32_t k = 0; k < h->groups.nr_attrs; k++)
		if (h->groups.nr_members[k] > 1)
			return 0;
	if (h->callchain_min_percent <= 0)
		return 0;
	return (uint64_t)((double)h->events[i].pub.total_period *
			  (h->callchain_min_percent / 100.0));
}

int pki_uses_start(struct use_part *parts, unsigned nr, struct pk_hist *h, const struct replay *rp)
{
	for (unsigned k = 0; k < nr; k++) {
		parts[k] = (struct use_part){.h = h, .rp = rp, .id = k, .nr = nr};
		parts[k].ev =
			calloc(h->nr_events_alloc ? h->nr_events_alloc : 1, sizeof(*parts[k].ev));
		parts[k].frames = malloc(PKI_HIST_FRAMES * sizeof(*parts[k].frames));
		if (!parts[k].ev || !parts[k].frames)
			return -ENOMEM;
		for (uint32_t i = 0; i < h->nr_events_alloc; i++)
			parts[k].ev[i].min = uses_min_period(h, i);
	}
	/* without a replay thread beside them (or a thread at all), they
	 * run after it */
	for (unsigned k = 0; k < nr && rp->progress; k++)
		parts[k].started = !pthread_create(&parts[k].thread, NULL, use_thread, &parts[k]);
	return 0;
}

/* Waits for the builders, or runs those that had no thread (after a
 * failed replay they stop at once); 0 or the first error. */
int pki_uses_join(struct use_part *parts, unsigned nr)
{
	int err = 0;

	for (unsigned k = 0; k < nr; k++) {
		if (parts[k].started)
			pthread_join(parts[k].thread, NULL);
		else if (parts[k].ev && parts[k].frames)
			use_walk(&parts[k]);
		err = err ? err : parts[k].err;
	}
	return err;
}

void pki_uses_free(struct use_part *parts, unsigned nr, uint32_t nr_ev)
{
	for (unsigned k = 0; k < nr; k++) {
		for (uint32_t i = 0; parts[k].ev && i < nr_ev; i++)
			free(parts[k].ev[i].v);
		free(parts[k].ev);
		free(parts[k].frames);
		free(parts[k].links);
	}
}

/* What the samples perf's lookups move (pki_uses_apply()) change in
 * event i's primaries' children periods, by primary (*out; NULL when
 * none move). */
static int moved_periods(const struct pk_hist *h, const struct replay *rp, uint32_t i,
			 uint64_t **out)
{
	const struct rp_event *re = &rp->ev[i];
	uint64_t *d;

	*out = NULL;
	if (!rp->nr_exc)
		return 0;
	d = calloc(re->nr_prim, sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (size_t x = 0; x < rp->nr_exc; x++) {
		const struct rp_exc *exc = &rp->exc[x];

		if (h->stacks.v[exc->stack].attr->index != i)
			continue;
		for (size_t r = 0; r < exc->nr; r++) {
			const struct rp_redir *dr = &rp->redir[exc->first + r];
			size_t u = rp->use_off[exc->stack] + dr->ordinal;
			uint32_t to = rp_entry(re, dr->node);

			/* pki_uses_apply() fails on a use out of its stack */
			if (u >= rp->use_off[exc->stack + 1])
				continue;
			/* modulo 2^64, as the builders' sums */
			d[rp->uses[u].prim] -= exc->period;
			if (to < re->nr_prim)
				d[to] += exc->period;
		}
	}
	*out = d;
	return 0;
}

static bool uses_any_partial(const struct use_part *parts, unsigned nr, uint32_t i)
{
	for (unsigned k = 0; k < nr; k++)
		for (size_t j = 0; j < parts[k].ev[i].alloc; j++)
			if (parts[k].ev[i].v[j].partial)
				return true;
	return false;
}

int pki_uses_trees(struct pk_hist *h, struct replay *rp, struct use_part *parts, unsigned nr)
{
	int err = 0;

	for (uint32_t i = 0; i < rp->nr_ev && i < h->nr_events_alloc && !err; i++) {
		struct rp_event *re = &rp->ev[i];
		uint64_t *moved = NULL;

		if (!h->callchain || !re->nr_prim || !uses_any_partial(parts, nr, i))
			continue;
		err = moved_periods(h, rp, i, &moved);
		for (size_t k = 0; k < re->nr_prim && !err; k++) {
			struct use_part *p = &parts[k % nr];
			struct use_val *v = k / nr < p->ev[i].alloc ? &p->ev[i].v[k / nr] : NULL;
			uint64_t children;

			if (!v || !v->partial)
				continue;
			children = v->children + (moved ? moved[k] : 0);
			if (re->prim[k].keep || children >= p->ev[i].min)
				err = use_catch_up(p, v);
		}
		free(moved);
	}
	return err;
}

/*
 * The tree's keys in entry order, in place: node `node` goes to entry
 * rp_entry(node), a permutation, followed cycle by cycle.  The keys are
 * the entries' size and as many: moving them saves as large a block of
 * fresh memory, which costs more in page faults than the moves.
 */
static int place_keys(const struct rp_event *re, struct pk_hist_entry *v, size_t n)
{
	uint64_t *done = calloc((n + 63) / 64, sizeof(*done));

	if (!done)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		struct pk_hist_entry carry = v[i];
		uint32_t j = i;

		if (done[i / 64] & (1ULL << (i % 64)))
			continue;
		do {
			uint32_t to = rp_entry(re, j);
			struct pk_hist_entry was = v[to];

			v[to] = carry;
			done[to / 64] |= 1ULL << (to % 64);
			carry = was;
			j = to;
		} while (j != i);
	}
	free(done);
	return 0;
}

/* Event i's entries, keys only: primaries then duplicates, keys from
 * perf's tree (taken over: each has the map of its last sample, which
 * perf's entry keeps), and the tree's order of them. */
static int uses_event_keys(struct pk_hist *h, struct replay *rp, uint32_t i)
{
	struct rp_event *re = &rp->ev[i];
	struct hist_event *he = &h->events[i];
	size_t n = re->t.n;
	int err = 0;

	/* every node is a primary or a duplicate: the replay held */
	if (n != re->nr_prim + re->nr_dups)
		return -EINVAL;
	/* which trees must stay whole (read from the keys by node, so
	 * before they move); perf merges equal entries again only with the
	 * comm key */
	if (h->callchain && pki_hist_grouping_passes(h->keys, h->nr_keys) > 1 && rp->shared_names)
		err = pki_replay_keep(re);
	if (!err)
		err = place_keys(re, re->t.keys, n);
	if (err)
		return err;
	he->v = re->t.keys;
	he->alloc = re->t.alloc;
	he->nr = n;
	re->t.keys = NULL;
	return pki_replay_order(re, he);
}

int pki_uses_keys(struct pk_hist *h, struct replay *rp)
{
	int err = 0;

	for (uint32_t i = 0; i < rp->nr_ev && i < h->nr_events_alloc && !err; i++)
		if (rp->ev[i].nr_prim)
			err = uses_event_keys(h, rp, i);
	return err;
}

/* Event i's values, from the builders (none for duplicates yet). */
static void uses_event_values(struct pk_hist *h, const struct rp_event *re, struct use_part *parts,
			      unsigned nr, uint32_t i)
{
	struct hist_event *he = &h->events[i];

	for (size_t k = 0; k < he->nr; k++) {
		const struct use_vals *uv = &parts[k % nr].ev[i];
		const struct use_val *val =
			k < re->nr_prim && k / nr < uv->alloc ? &uv->v[k / nr] : NULL;
		struct pk_hist_entry *e = &he->v[k];

		e->self = val ? val->self : 0;
		e->children = val ? val->children : 0;
		e->nr_samples = val ? val->nr_samples : 0;
		e->callchain = val ? val->callchain : NULL;
	}
}

void pki_uses_values(struct pk_hist *h, const struct replay *rp, struct use_part *parts,
		     unsigned nr)
{
	for (uint32_t i = 0; i < rp->nr_ev && i < h->nr_events_alloc; i++)
		if (rp->ev[i].nr_prim)
			uses_event_values(h, &rp->ev[i], parts, nr, i);
}

/* One key of a sample moved from its stack's entry to where perf's lookup
 * put it. */
static int use_move(struct pk_hist *h, struct pk_hist_entry *from, struct pk_hist_entry *to,
		    uint32_t use_from, uint64_t period, struct pk_frame *frames, size_t n)
{
	uint32_t first = use_from & ~USE_SELF;
	int err;

	if (use_from & USE_SELF) {
		from->self -= period;
		from->nr_samples--;
		to->self += period;
		to->nr_samples++;
	}
	from->children -= period;
	to->children += period;
	if (!h->callchain)
		return 0;
	err = pki_hist_append_chain(h, &h->trees[0], &from->callchain, frames, n, first, -period);
	return err ? err
		   : pki_hist_append_chain(h, &h->trees[0], &to->callchain, frames, n, first,
					   period);
}

static int by_address(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t) * (struct pk_hist_entry *const *)a,
		  y = (uintptr_t) * (struct pk_hist_entry *const *)b;

	return (x > y) - (x < y);
}

/* perf's entry has the depth of its own samples' chains, which orders
 * equal entries (and which its collapse keeps): the primaries samples
 * left (left[0, n), repeats among them) get theirs again, each once.
 * Their trees are whole (rp_prim.keep). */
static void redepth_left(struct pk_hist_entry **left, size_t n)
{
	qsort(left, n, sizeof(*left), by_address);
	for (size_t i = 0; i < n; i++)
		if ((!i || left[i] != left[i - 1]) && left[i]->callchain)
			pki_callchain_redepth(left[i]->callchain);
}

/* The samples that landed elsewhere, moved there (in replay order, as
 * perf added them). */
int pki_uses_apply(struct pk_hist *h, struct replay *rp)
{
	struct pk_frame *frames = malloc(PKI_HIST_FRAMES * sizeof(*frames));
	/* the entries samples leave, at most one per redirection */
	struct pk_hist_entry **left =
		h->callchain ? malloc((rp->nr_redir ? rp->nr_redir : 1) * sizeof(*left)) : NULL;
	size_t nr_left = 0;
	int err = frames && (left || !h->callchain) ? 0 : -ENOMEM;

	for (size_t x = 0; x < rp->nr_exc && !err; x++) {
		const struct rp_exc *exc = &rp->exc[x];
		const struct pki_stack *st = &h->stacks.v[exc->stack];
		const struct rp_event *re = &rp->ev[st->attr->index];
		struct hist_event *he = &h->events[st->attr->index];
		size_t n = pki_stacks_frames(&h->stacks, st, frames, PKI_HIST_FRAMES);

		for (size_t r = 0; r < exc->nr && he->order && !err; r++) {
			const struct rp_redir *d = &rp->redir[exc->first + r];
			size_t u = rp->use_off[exc->stack] + d->ordinal;
			uint32_t to = rp_entry(re, d->node);

			if (u >= rp->use_off[exc->stack + 1] || to >= he->nr) {
				err = -EINVAL;
				break;
			}
			err = use_move(h, &he->v[rp->uses[u].prim], &he->v[to], rp->uses[u].from,
				       exc->period, frames, n);
			if (left)
				left[nr_left++] = &he->v[rp->uses[u].prim];
		}
	}
	if (!err && left)
		redepth_left(left, nr_left);
	free(left);
	free(frames);
	return err;
}
