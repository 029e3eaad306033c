// SPDX-License-Identifier: MIT
/*
 * Histogram building: every sample lands in the entry of its sort keys
 * (hash table per event); with children, every distinct entry of its
 * callchain also gets the sample's period once.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "hist_internal.h"

#define MAX_STACK 127	/* perf's default --max-stack */
/* room for inlined frames of DWARF callchains too */
#define MAX_FRAMES PKI_BATCH_MAX_CHAIN
#define NR_PARTS 2	/* workers building entries from the stacks */

struct hist_event {
	struct pk_hist_event pub;
	struct pk_hist_entry *v;
	uint64_t *last_sample;	/* per entry: sample that last added children */
	uint64_t *created;	/* per entry: when, in the single-thread order */
	size_t nr, alloc;
	uint32_t *slots;	/* entry index + 1, open addressing */
	size_t nr_slots;
	struct replay *rp;		/* perf's input tree, replayed */
	uint32_t *order;		/* its entries in that tree's order */
	uint32_t *node_order;		/* and in the order they entered it */
	uint64_t nr_order;
	struct pk_hist_member *members;	/* pub.members */
	struct pk_hist_value *values;	/* the entries' members, in groups */
};

struct replay;

struct pk_hist {
	struct hist_event *events;	/* by attr index */
	uint32_t nr_events_alloc;
	struct pk_hist_event **shown;	/* events with samples */
	uint32_t nr_shown;
	enum pk_hist_key keys[PK_HIST_KEY_MAX];
	uint32_t nr_keys;
	unsigned key_mask;
	bool children;
	int callchain;			/* PK_CALLCHAIN_* */
	struct pki_hist_filter filter;
	struct pki_strtab comms;	/* interned comm strings */
	uint64_t lost;
	struct pki_stacks stacks;	/* samples folded by stack */
	struct pki_arena trees[NR_PARTS]; /* the entries' call trees */
	uint32_t nr_threads;
	struct pki_pipe pipe;		/* samples on their way to stacks */
	bool stack_thread;		/* the thread is part of a stack's identity */
	size_t max_stack;		/* frames of a callchain used */
	bool hide_unresolved;
	struct pki_groups groups;	/* the group view's groups */
};

/*
 * Entries are built from the stacks by up to two workers, each owning the
 * entries whose key hash has its bit: both walk every stack, each creates
 * and updates only its own entries (and their call trees, in its own
 * arena), so they share nothing that changes.  Each entry remembers when
 * a single walk would have created it; merging the parts by that order
 * gives exactly the entries, in the order, of a single walk.
 */
struct hist_part {
	struct pk_hist *h;
	unsigned id, nr;		/* this part of nr */
	struct hist_event *events;	/* by attr index */
	struct pki_arena *trees;
	uint64_t sample_seq;		/* the stack being walked, + 1 */
	struct pk_frame *frames;
	pthread_t thread;
	int err;
};

/* splitmix64 steps: pointers and addresses have poor low bits */
static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h += 0x9e3779b97f4a7c15ULL;
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
	return h ^ (h >> 31);
}

static bool has_key(const struct pk_hist *h, enum pk_hist_key k)
{
	return h->key_mask & (1u << k);
}

/* The entry a sample or frame goes to: only the sort keys matter. */
static void make_key(const struct pk_hist *h, struct pk_hist_entry *e, const char *comm,
		     const struct pk_session_sample *ev, const struct pk_location *loc)
{
	memset(e, 0, sizeof(*e));
	e->comm = comm;
	e->thread = ev->thread;
	e->pid = pk_thread_pid(ev->thread);
	e->tid = pk_thread_tid(ev->thread);
	e->cpu = ev->sample.cpu;
	e->dso = loc->dso;
	e->sym = loc->sym;
	e->addr = loc->sym ? 0 : loc->addr;
	e->first_addr = loc->addr;
	e->level = loc->cpumode == PERF_RECORD_MISC_KERNEL ||
				   loc->cpumode == PERF_RECORD_MISC_GUEST_KERNEL
			   ? 'k'
		   : loc->cpumode == PERF_RECORD_MISC_HYPERVISOR ? 'H'
								  : '.';
	if (!has_key(h, PK_HIST_KEY_SYM))
		e->addr = 0;
}

static uint64_t entry_hash(const struct pk_hist *h, const struct pk_hist_entry *e)
{
	uint64_t x = 0;

	if (has_key(h, PK_HIST_KEY_COMM))
		x = mix(x, (uintptr_t)e->comm);
	if (has_key(h, PK_HIST_KEY_PID))
		x = mix(x, (uintptr_t)e->thread);
	if (has_key(h, PK_HIST_KEY_CPU))
		x = mix(x, e->cpu);
	if (has_key(h, PK_HIST_KEY_DSO))
		x = mix(x, (uintptr_t)e->dso);
	if (has_key(h, PK_HIST_KEY_SYM))
		x = mix(mix(x, (uintptr_t)e->sym), e->addr);
	return mix(x, 0);
}

static bool entry_same(const struct pk_hist *h, const struct pk_hist_entry *a,
		       const struct pk_hist_entry *b)
{
	if (has_key(h, PK_HIST_KEY_COMM) && a->comm != b->comm)
		return false;
	if (has_key(h, PK_HIST_KEY_PID) && a->thread != b->thread)
		return false;
	if (has_key(h, PK_HIST_KEY_CPU) && a->cpu != b->cpu)
		return false;
	if (has_key(h, PK_HIST_KEY_DSO) && a->dso != b->dso)
		return false;
	if (has_key(h, PK_HIST_KEY_SYM) && (a->sym != b->sym || a->addr != b->addr))
		return false;
	return true;
}

static int grow_slots(const struct pk_hist *h, struct hist_event *he)
{
	size_t n = he->nr_slots ? he->nr_slots * 2 : 1024;
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < he->nr; i++) {
		size_t j = entry_hash(h, &he->v[i]) & (n - 1);

		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = (uint32_t)i + 1;
	}
	free(he->slots);
	he->slots = slots;
	he->nr_slots = n;
	return 0;
}

static struct pk_hist_entry *findnew(struct pk_hist *h, struct hist_event *he,
				     const struct pk_hist_entry *key, uint64_t hash,
				     uint64_t created, uint64_t **last)
{
	size_t j;

	if ((he->nr + 1) * 2 > he->nr_slots && grow_slots(h, he))
		return NULL;
	for (j = hash & (he->nr_slots - 1); he->slots[j];
	     j = (j + 1) & (he->nr_slots - 1)) {
		uint32_t i = he->slots[j] - 1;

		if (entry_same(h, &he->v[i], key)) {
			*last = &he->last_sample[i];
			return &he->v[i];
		}
	}
	if (he->nr == he->alloc) {
		size_t n = he->alloc ? he->alloc * 2 : 256;
		struct pk_hist_entry *v = realloc(he->v, n * sizeof(*v));
		uint64_t *l;

		if (!v)
			return NULL;
		he->v = v;
		l = realloc(he->last_sample, n * sizeof(*l));
		if (!l)
			return NULL;
		he->last_sample = l;
		l = realloc(he->created, n * sizeof(*l));
		if (!l)
			return NULL;
		he->created = l;
		he->alloc = n;
	}
	he->v[he->nr] = *key;
	he->last_sample[he->nr] = 0;
	he->created[he->nr] = created;
	he->slots[j] = (uint32_t)++he->nr;
	*last = &he->last_sample[he->nr - 1];
	return &he->v[he->nr - 1];
}

static struct hist_event *event_of(struct pk_hist *h, const struct pk_attr *attr)
{
	if (attr->index >= h->nr_events_alloc) {
		uint32_t n = attr->index + 8;
		struct hist_event *v = realloc(h->events, n * sizeof(*v));

		if (!v)
			return NULL;
		memset(v + h->nr_events_alloc, 0, (n - h->nr_events_alloc) * sizeof(*v));
		h->events = v;
		h->nr_events_alloc = n;
	}
	h->events[attr->index].pub.attr = attr;
	return &h->events[attr->index];
}

/*
 * The key of a sample's (pos 0) or a callchain's location, false when
 * filtered out.  Callchain entries are keyed like perf's: an unresolved
 * frame by its address as recorded.
 */
static bool location_key(const struct pk_hist *h, const char *comm,
			 const struct pk_session_sample *ev, const struct pk_location *loc,
			 uint32_t pos, char *level, struct pk_hist_entry *key)
{
	if (!pki_hist_filter_location(&h->filter, loc))
		return false;
	make_key(h, key, comm, ev, loc);
	if (pos) {
		if (!loc->sym && has_key(h, PK_HIST_KEY_SYM))
			key->addr = loc->ip;
		/* a frame in no map keeps the level of the frame before it
		 * in perf's walk (the sample's for the first); an entry keeps
		 * the label it was created with */
		key->level = loc->dso ? (pk_dso_is_kernel(loc->dso) ? 'k' : '.') : *level;
		*level = key->level;
	}
	return true;
}

/* The chain from frame `from` towards the leaf (caller order) or the root
 * (callee order); from == n means the whole chain. */
static int append_chain(const struct pk_hist *h, struct pki_arena *a, struct pk_hist_entry *e,
			const struct pk_frame *frames, size_t n, size_t from, uint64_t period)
{
	if (!n)
		return pki_callchain_append(a, &e->callchain, frames, 0, 0, 1, period);
	if (h->callchain == PK_CALLCHAIN_CALLER)
		return pki_callchain_append(a, &e->callchain, frames, from == n ? n - 1 : from,
					    from == n ? n : from + 1, -1, period);
	if (from == n)
		from = 0;
	return pki_callchain_append(a, &e->callchain, frames, from, n - from, 1, period);
}

/* The worker's half: one resolved sample into the stack table. */
static int fold_sample(void *ctx, const struct pki_pending *p, const struct pk_frame *frames)
{
	struct pk_hist *h = ctx;
	struct pki_stack k = p->k;

	return pki_stacks_add(&h->stacks, &k, &p->loc, frames, p->nr_frames);
}

/* The reading thread's half: everything that needs the session's state
 * as of this sample (thread, comm, maps) is taken here. */
static int add_sample(struct pk_hist *h, struct pk_session *s, const struct pk_session_sample *ev)
{
	struct hist_event *he = event_of(h, ev->attr);
	struct pk_frame *frames;
	struct pki_pending *p;
	size_t n = 0;

	if (!he)
		return -ENOMEM;
	if (h->hide_unresolved && !ev->loc.sym)
		return 0;	/* perf -U: as if never sampled */
	p = pki_pipe_slot(&h->pipe, &frames);
	p->k = (struct pki_stack){.attr = ev->attr, .count = 1};
	p->k.period = (ev->sample.type & PERF_SAMPLE_PERIOD) ? ev->sample.period
							     : ev->attr->attr.sample_period;
	he->pub.nr_samples++;
	he->pub.total_period += p->k.period;
	p->k.comm = pki_strtab_intern(&h->comms, pk_thread_comm(ev->thread));
	if (!p->k.comm)
		return -ENOMEM;
	p->k.thread = h->stack_thread ? ev->thread : NULL;
	p->k.first_thread = ev->thread;
	/* perf's cpu of a sample that does not record one is -1 */
	p->k.first_cpu = (ev->sample.type & PERF_SAMPLE_CPU) ? ev->sample.cpu : UINT32_MAX;
	p->k.cpu = has_key(h, PK_HIST_KEY_CPU) ? p->k.first_cpu : 0;
	p->loc = ev->loc;
	if (h->children || h->callchain)
		n = pki_hist_callchain(h->callchain != PK_CALLCHAIN_CALLEE, s, ev, frames, MAX_FRAMES,
				       h->max_stack);
	if (h->hide_unresolved)
		n = pki_frames_drop_unresolved(frames, n);
	return pki_pipe_commit(&h->pipe, (uint32_t)n);
}

/* A stack's locations in perf's order: the sample's, then (children)
 * its callchain's in the tree's order; fn gets each key that passes the
 * filters, with its frame (n for the sample's own). */
struct walk {
	const struct pki_stack *st;
	struct pk_frame *frames;
	size_t n;
};

typedef int walk_fn(void *arg, const struct walk *w, const struct pk_hist_entry *key,
		    uint32_t pos, size_t from);

static int walk_stack(struct pk_hist *h, const struct pki_stack *st, struct pk_frame *frames,
		      walk_fn *fn, void *arg)
{
	struct pk_session_sample ev = {.attr = st->attr, .thread = st->first_thread,
				       .loc = *pki_stacks_loc(&h->stacks, st)};
	struct walk w = {.st = st, .frames = frames};
	struct pk_hist_entry key;
	char level;
	int err = 0;

	w.n = pki_stacks_frames(&h->stacks, st, frames, MAX_FRAMES);
	ev.sample.cpu = st->first_cpu;
	if (!pki_hist_filter_thread(&h->filter, st->comm, pk_thread_pid(ev.thread),
				    pk_thread_tid(ev.thread)))
		return 0;
	if (location_key(h, st->comm, &ev, &ev.loc, 0, NULL, &key))
		err = fn(arg, &w, &key, 0, w.n);
	if (err || !h->children)
		return err;
	level = ev.loc.cpumode == PERF_RECORD_MISC_KERNEL ? 'k' : '.';
	/* perf walks the chain in the tree's order: with recursion, the
	 * first occurrence that way gets the chain */
	for (size_t j = 0; j < w.n && !err; j++) {
		size_t i = h->callchain != PK_CALLCHAIN_CALLEE ? w.n - 1 - j : j;

		if (location_key(h, st->comm, &ev, &frames[i].loc, (uint32_t)j + 1, &level, &key))
			err = fn(arg, &w, &key, (uint32_t)j + 1, i);
	}
	return err;
}

/* One key of a stack into this part's entries (when it owns it). */
static int part_key(void *arg, const struct walk *w, const struct pk_hist_entry *key,
		    uint32_t pos, size_t from)
{
	struct hist_part *p = arg;
	struct pk_hist *h = p->h;
	struct hist_event *he = &p->events[w->st->attr->index];
	uint64_t *last, hash = entry_hash(h, key);
	struct pk_hist_entry *e;

	if (p->nr > 1 && (hash >> 63) != p->id)
		return 0;	/* another part's entry */
	e = findnew(h, he, key, hash, (p->sample_seq << 8) | pos, &last);
	if (!e)
		return -ENOMEM;
	if (!pos) {
		e->self += w->st->period;
		e->nr_samples += w->st->count;
	}
	if (*last == p->sample_seq)
		return 0;
	*last = p->sample_seq;
	e->children += w->st->period;
	if (!h->callchain)
		return 0;
	return append_chain(h, p->trees, e, w->frames, w->n, from, w->st->period);
}

/* A stack's samples into the histogram, as one sample of their summed
 * period. */
static int add_stack(struct hist_part *p, const struct pki_stack *st)
{
	return walk_stack(p->h, st, p->frames, part_key, p);
}

static void *part_walk(void *arg)
{
	struct hist_part *p = arg;

	for (size_t i = 0; i < p->h->stacks.nr && !p->err; i++) {
		p->sample_seq = i + 1;
		p->err = add_stack(p, &p->h->stacks.v[i]);
	}
	return NULL;
}

static void part_free(struct hist_part *p)
{
	if (p->events) {
		for (uint32_t i = 0; i < p->h->nr_events_alloc; i++) {
			free(p->events[i].v);
			free(p->events[i].slots);
			free(p->events[i].last_sample);
			free(p->events[i].created);
		}
	}
	free(p->events);
	free(p->frames);
}

/* Event i's entries of all parts, in the order a single walk creates them. */
static int merge_event(struct pk_hist *h, struct hist_part *parts, unsigned nr, uint32_t i)
{
	struct hist_event *he = &h->events[i];
	size_t total = 0, at[NR_PARTS] = {0};

	for (unsigned k = 0; k < nr; k++)
		total += parts[k].events[i].nr;
	he->v = malloc((total ? total : 1) * sizeof(*he->v));
	if (!he->v)
		return -ENOMEM;
	for (he->nr = 0; he->nr < total; he->nr++) {
		unsigned best = nr;

		for (unsigned k = 0; k < nr; k++) {
			const struct hist_event *pe = &parts[k].events[i];

			if (at[k] < pe->nr &&
			    (best == nr || pe->created[at[k]] < parts[best].events[i].created[at[best]]))
				best = k;
		}
		he->v[he->nr] = parts[best].events[i].v[at[best]++];
	}
	he->alloc = total;
	return 0;
}

/*
 * perf's input tree, lookup by lookup (see hist_itree.c).  Entries are
 * built from stacks, each adding its samples at once; here the samples are
 * replayed in their order (pki_stacks.log), each looking its keys up in
 * the tree as perf does.  A key's first lookup creates its entry (its
 * primary node, the entry the stacks build); a lookup of an unresolved key
 * (any key when resolved ones can be misplaced too) may miss it and create
 * a duplicate, or land in one.  Such samples are taken out of their
 * stacks and added one by one afterwards, where they landed.  A key whose
 * tree has not changed since its last lookup lands where it did then.
 */
struct rp_key {
	const struct pk_dso *dso;	/* the sample's, perf moves its entry there */
	uint32_t prim;			/* primary index */
	uint32_t ordinal;		/* its place among the sample's keys */
	bool search;
	char level;
};

/* Unresolved addresses of the DSOs of one name (perf compares DSOs by
 * name), to tell whether perf's comparison of them is a total order. */
struct rp_dso {
	const struct pk_dso *dso;	/* NULL: a free slot */
	uint64_t lo, hi;
	bool danger;
};

struct rp_event {
	struct pki_itree t;
	uint32_t *node_idx;		/* per node: primary index, or dup | DUP */
	size_t alloc_idx;
	uint32_t *prim_node;		/* per primary: its node */
	uint64_t *ver;			/* per primary: tree version at last lookup */
	uint32_t *last;			/* per primary: node of that lookup */
	uint64_t *stamp;		/* per primary: occurrence that looked it up */
	size_t nr_prim, alloc_prim;
	uint32_t *slots;		/* primary + 1 by key hash */
	size_t nr_slots;
	uint32_t nr_dups;
	bool broken;			/* a first lookup found another key */
};

#define DUP 0x80000000u

/* A sample that landed elsewhere than its stack's entries. */
struct rp_exc {
	uint32_t stack;
	uint64_t period;
	size_t first, nr;		/* its redirections */
};

struct rp_redir {
	uint32_t ordinal;		/* the key's place in the sample's walk */
	uint32_t node;
};

/* A key of a stack's walk as the build uses it: its primary (entry) and
 * the frame its call tree starts from, USE_SELF for the sample's own. */
struct rp_use {
	uint32_t prim;
	uint32_t from;
};

#define USE_SELF 0x80000000u

struct replay {
	struct rp_event *ev;		/* by attr index */
	uint32_t nr_ev;
	struct rp_exc *exc;
	size_t nr_exc, alloc_exc;
	struct rp_redir *redir;
	size_t nr_redir, alloc_redir;
	struct rp_dso *dsos;		/* open addressing by pointer */
	size_t nr_dso_slots;
	uint64_t null_lo, null_hi;	/* the keys in no DSO */
	bool null_danger;
	struct rp_key *pool;		/* keys of stacks searched again */
	size_t nr_pool, alloc_pool;
	uint32_t *seq_off, *seq_len;	/* per stack: its keys in pool */
	struct rp_use *uses;		/* every stack's keys, for the build */
	size_t nr_uses, alloc_uses;
	size_t *use_off;		/* per stack: its first use; [nr] the end */
	uint64_t occ;			/* samples replayed, + 1 */
	uint32_t ordinal;		/* keys of the current sample */
	bool all;			/* resolved keys can be misplaced too */
	size_t redir_mark;
};

static int grow(void **v, size_t *alloc, size_t nr, size_t elem)
{
	size_t n = *alloc ? *alloc * 2 : 256;
	void *p;

	if (nr < *alloc)
		return 0;
	p = realloc(*v, n * elem);
	if (!p)
		return -ENOMEM;
	*v = p;
	*alloc = n;
	return 0;
}

static int rp_node_idx(struct rp_event *re, uint32_t node, uint32_t idx)
{
	if (node >= re->alloc_idx) {
		size_t n = re->t.alloc > node ? re->t.alloc : (size_t)node + 1;
		uint32_t *v = realloc(re->node_idx, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		re->node_idx = v;
		re->alloc_idx = n;
	}
	re->node_idx[node] = idx;
	return 0;
}

static int rp_grow_prim(struct rp_event *re)
{
	size_t n = re->alloc_prim ? re->alloc_prim * 2 : 256;
	uint32_t *pn, *last;
	uint64_t *ver, *stamp;

	if (re->nr_prim < re->alloc_prim)
		return 0;
	pn = realloc(re->prim_node, n * sizeof(*pn));
	if (pn)
		re->prim_node = pn;
	last = realloc(re->last, n * sizeof(*last));
	if (last)
		re->last = last;
	ver = realloc(re->ver, n * sizeof(*ver));
	if (ver)
		re->ver = ver;
	stamp = realloc(re->stamp, n * sizeof(*stamp));
	if (stamp)
		re->stamp = stamp;
	if (!pn || !last || !ver || !stamp)
		return -ENOMEM;
	re->alloc_prim = n;
	return 0;
}

static int rp_slots(struct pk_hist *h, struct rp_event *re)
{
	size_t n = re->nr_slots ? re->nr_slots * 2 : 1024;
	uint32_t *slots;

	if ((re->nr_prim + 1) * 2 <= re->nr_slots)
		return 0;
	slots = calloc(n, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < re->nr_prim; i++) {
		size_t j = entry_hash(h, &re->t.keys[re->prim_node[i]]) & (n - 1);

		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = (uint32_t)i + 1;
	}
	free(re->slots);
	re->slots = slots;
	re->nr_slots = n;
	return 0;
}

/* The primary of key, or its slot (*slot) when it has none. */
static int64_t rp_lookup(struct pk_hist *h, struct rp_event *re, const struct pk_hist_entry *key,
			 size_t *slot)
{
	size_t j;

	if (rp_slots(h, re))
		return -ENOMEM;
	for (j = entry_hash(h, key) & (re->nr_slots - 1); re->slots[j];
	     j = (j + 1) & (re->nr_slots - 1)) {
		uint32_t i = re->slots[j] - 1;

		if (entry_same(h, &re->t.keys[re->prim_node[i]], key))
			return i;
	}
	*slot = j;
	return -1;
}

/* A key's first lookup: its primary node. */
static int64_t rp_new_prim(struct rp_event *re, const struct pk_hist_entry *key, size_t slot)
{
	bool ins;
	int64_t node = pki_itree_findnew(&re->t, key, &ins);
	size_t i = re->nr_prim;

	if (node < 0)
		return node;
	if (!ins)
		re->broken = true;
	if (rp_grow_prim(re))
		return -ENOMEM;
	if (ins && rp_node_idx(re, (uint32_t)node, (uint32_t)i))
		return -ENOMEM;
	re->prim_node[i] = (uint32_t)node;
	re->ver[i] = re->t.version;
	re->last[i] = (uint32_t)node;
	re->stamp[i] = 0;
	re->slots[slot] = (uint32_t)++re->nr_prim;
	return (int64_t)i;
}

/* A later lookup of primary i's key: the node it lands in. */
static int64_t rp_search(struct rp_event *re, const struct rp_key *k)
{
	struct pk_hist_entry key;
	uint32_t i = k->prim;
	bool ins;
	int64_t node;

	if (re->ver[i] == re->t.version && re->t.keys[re->last[i]].dso == k->dso)
		return re->last[i];
	key = re->t.keys[re->prim_node[i]];
	key.level = k->level;
	key.dso = k->dso;
	node = pki_itree_findnew(&re->t, &key, &ins);
	if (node < 0)
		return node;
	if (ins && rp_node_idx(re, (uint32_t)node, DUP | re->nr_dups++))
		return -ENOMEM;
	if (!ins && re->t.keys[node].dso != k->dso) {
		/* perf's entry takes the map of the sample that found it,
		 * and with it its place in later comparisons */
		re->t.keys[node].dso = k->dso;
		re->t.version++;
	}
	re->ver[i] = re->t.version;
	re->last[i] = (uint32_t)node;
	return node;
}

/* A later lookup of key k by the current sample: a redirection when it
 * lands elsewhere than its primary. */
static int rp_land(struct replay *rp, struct rp_event *re, const struct rp_key *k)
{
	int64_t node = k->search ? rp_search(re, k) : re->prim_node[k->prim];

	if (node < 0)
		return (int)node;
	if ((uint32_t)node == re->prim_node[k->prim])
		return 0;
	if (grow((void **)&rp->redir, &rp->alloc_redir, rp->nr_redir, sizeof(*rp->redir)))
		return -ENOMEM;
	rp->redir[rp->nr_redir++] = (struct rp_redir){k->ordinal, (uint32_t)node};
	return 0;
}

struct rp_walk {
	struct pk_hist *h;
	struct replay *rp;
};

/*
 * Whether a later lookup of an unresolved key in dso can land elsewhere
 * than its entry.  With the DSO compared first, perf's comparison is a
 * total order within each DSO name when that name's unresolved addresses
 * lie less than 2^63 apart (their signed differences then never wrap):
 * its lookups then always find their entry.
 */
static bool rp_danger(const struct replay *rp, const struct pk_dso *dso)
{
	size_t mask = rp->nr_dso_slots - 1;

	if (!dso)
		return rp->null_danger;
	for (size_t j = ((uintptr_t)dso >> 4) & mask; rp->dsos[j].dso; j = (j + 1) & mask)
		if (rp->dsos[j].dso == dso)
			return rp->dsos[j].danger;
	return false;	/* no unresolved address in it */
}

static int rp_dso_grow(struct replay *rp, size_t nr)
{
	size_t n = rp->nr_dso_slots ? rp->nr_dso_slots * 2 : 64;
	struct rp_dso *v;

	if ((nr + 1) * 2 <= rp->nr_dso_slots)
		return 0;
	v = calloc(n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < rp->nr_dso_slots; i++) {
		size_t j = ((uintptr_t)rp->dsos[i].dso >> 4) & (n - 1);

		if (!rp->dsos[i].dso)
			continue;
		while (v[j].dso)
			j = (j + 1) & (n - 1);
		v[j] = rp->dsos[i];
	}
	free(rp->dsos);
	rp->dsos = v;
	rp->nr_dso_slots = n;
	return 0;
}

static void span(uint64_t *lo, uint64_t *hi, uint64_t a)
{
	*lo = a < *lo ? a : *lo;
	*hi = a > *hi ? a : *hi;
}

/* An unresolved location's addresses (the sample's key uses one, a
 * callchain frame's the other) into its DSO's span. */
static int rp_note(struct replay *rp, const struct pk_location *loc, size_t *nr)
{
	size_t j, mask;

	if (loc->sym)
		return 0;
	if (!loc->dso) {
		span(&rp->null_lo, &rp->null_hi, loc->ip);
		span(&rp->null_lo, &rp->null_hi, loc->addr);
		return 0;
	}
	if (rp_dso_grow(rp, *nr))
		return -ENOMEM;
	mask = rp->nr_dso_slots - 1;
	for (j = ((uintptr_t)loc->dso >> 4) & mask; rp->dsos[j].dso && rp->dsos[j].dso != loc->dso;
	     j = (j + 1) & mask)
		;
	if (!rp->dsos[j].dso) {
		rp->dsos[j] = (struct rp_dso){.dso = loc->dso, .lo = UINT64_MAX};
		++*nr;
	}
	span(&rp->dsos[j].lo, &rp->dsos[j].hi, loc->ip);
	span(&rp->dsos[j].lo, &rp->dsos[j].hi, loc->addr);
	return 0;
}

static int by_dso_name(const void *a, const void *b)
{
	const struct rp_dso *const *x = a, *const *y = b;

	return strcmp(pk_dso_short_name((*x)->dso), pk_dso_short_name((*y)->dso));
}

#define WRAPS (1ULL << 63)	/* a signed difference this far apart wraps */

/* Which DSO names' unresolved keys perf's lookups can miss (rp_danger). */
static int rp_dangers(struct pk_hist *h, struct replay *rp)
{
	const struct pki_stacks *t = &h->stacks;
	struct rp_dso **byname;
	size_t nr = 0, k = 0;
	int err = 0;

	rp->null_lo = UINT64_MAX;
	for (size_t i = 0; i < t->nr_locs && !err; i++)
		err = rp_note(rp, &t->locs[i], &nr);
	/* node 0 is the trie's root, no frame */
	for (size_t i = 1; i < t->nr_nodes && !err; i++)
		err = rp_note(rp, &t->nodes[i].loc, &nr);
	if (err || rp_dso_grow(rp, nr))
		return -ENOMEM;
	rp->null_danger = rp->null_lo <= rp->null_hi && rp->null_hi - rp->null_lo >= WRAPS;
	byname = malloc((nr ? nr : 1) * sizeof(*byname));
	if (!byname)
		return -ENOMEM;
	for (size_t j = 0; j < rp->nr_dso_slots; j++)
		if (rp->dsos[j].dso)
			byname[k++] = &rp->dsos[j];
	qsort(byname, nr, sizeof(*byname), by_dso_name);
	for (size_t i = 0, e; i < nr; i = e) {
		uint64_t lo = UINT64_MAX, hi = 0;

		for (e = i; e < nr && !by_dso_name(&byname[i], &byname[e]); e++)
			span(&lo, &hi, byname[e]->lo), span(&lo, &hi, byname[e]->hi);
		for (size_t j = i; j < e; j++)
			byname[j]->danger = hi - lo >= WRAPS;
	}
	free(byname);
	return 0;
}

/* A stack's first sample: keys are found (or created) by their value. */
static int rp_first_key(void *arg, const struct walk *w, const struct pk_hist_entry *key,
			uint32_t pos, size_t from)
{
	struct rp_walk *rw = arg;
	struct replay *rp = rw->rp;
	struct rp_event *re = &rp->ev[w->st->attr->index];
	struct rp_key k = {.dso = key->dso, .level = key->level};
	size_t slot = 0;
	int64_t i = rp_lookup(rw->h, re, key, &slot);
	bool created = i == -1;
	int err;

	if (created) {
		i = rp_new_prim(re, key, slot);
		if (i < 0)
			return (int)i;
	} else if (i < 0) {
		return (int)i;
	} else if (re->stamp[i] == rp->occ) {
		return 0;	/* perf looks a key up once a sample */
	}
	re->stamp[i] = rp->occ;
	if (grow((void **)&rp->uses, &rp->alloc_uses, rp->nr_uses, sizeof(*rp->uses)))
		return -ENOMEM;
	rp->uses[rp->nr_uses++] = (struct rp_use){(uint32_t)i, (uint32_t)from | (pos ? 0 : USE_SELF)};
	k.prim = (uint32_t)i;
	k.ordinal = rp->ordinal++;
	k.search = rp->all || (!key->sym && rp_danger(rp, key->dso));
	/* a key just created has nothing to look up */
	if (!created && (err = rp_land(rp, re, &k)))
		return err;
	if (!k.search)
		return 0;	/* no later lookup can land elsewhere */
	if (grow((void **)&rp->pool, &rp->alloc_pool, rp->nr_pool, sizeof(*rp->pool)))
		return -ENOMEM;
	rp->pool[rp->nr_pool++] = k;
	return 0;
}

/* The end of a sample: when it landed elsewhere, it leaves its stack. */
static int rp_end_sample(struct pk_hist *h, struct replay *rp, uint32_t s, uint64_t period)
{
	struct pki_stack *st = &h->stacks.v[s];

	if (rp->nr_redir == rp->redir_mark)
		return 0;
	if (grow((void **)&rp->exc, &rp->alloc_exc, rp->nr_exc, sizeof(*rp->exc)))
		return -ENOMEM;
	rp->exc[rp->nr_exc++] = (struct rp_exc){s, period, rp->redir_mark,
						rp->nr_redir - rp->redir_mark};
	rp->redir_mark = rp->nr_redir;
	st->period -= period;
	st->count--;
	return 0;
}

static int rp_sample(struct pk_hist *h, struct replay *rp, uint32_t s, uint64_t period,
		     bool first, struct pk_frame *frames)
{
	struct pki_stack *st = &h->stacks.v[s];
	struct rp_event *re = &rp->ev[st->attr->index];
	int err = 0;

	rp->occ++;
	rp->ordinal = 0;
	if (first) {
		struct rp_walk rw = {h, rp};

		rp->use_off[s] = rp->nr_uses;
		rp->seq_off[s] = (uint32_t)rp->nr_pool;
		err = walk_stack(h, st, frames, rp_first_key, &rw);
		rp->seq_len[s] = (uint32_t)(rp->nr_pool - rp->seq_off[s]);
	} else {
		for (uint32_t k = 0; k < rp->seq_len[s] && !err; k++)
			err = rp_land(rp, re, &rp->pool[rp->seq_off[s] + k]);
	}
	return err ? err : rp_end_sample(h, rp, s, period);
}

static int rp_run(struct pk_hist *h, struct replay *rp)
{
	struct pk_frame *frames = calloc(MAX_FRAMES, sizeof(*frames));
	size_t n = h->stacks.nr ? h->stacks.nr : 1;
	uint32_t next = 0;
	int err = 0;

	rp->ev = calloc(h->nr_events_alloc ? h->nr_events_alloc : 1, sizeof(*rp->ev));
	rp->seq_off = calloc(n, sizeof(uint32_t));
	rp->seq_len = calloc(n, sizeof(uint32_t));
	rp->use_off = calloc(n + 1, sizeof(*rp->use_off));
	if (!frames || !rp->ev || !rp->seq_off || !rp->seq_len || !rp->use_off ||
	    h->stacks.nr >= UINT32_MAX)
		err = -ENOMEM;
	rp->nr_ev = h->nr_events_alloc;
	for (uint32_t i = 0; i < rp->nr_ev; i++)
		pki_itree_init(&rp->ev[i].t);
	pki_hist_set_keys(h->keys, h->nr_keys);
	if (!err && !rp->all)
		err = rp_dangers(h, rp);
	for (size_t r = 0; r < h->stacks.nr_log && !err; r++) {
		const struct pki_stack_run *run = &h->stacks.log[r];

		for (uint32_t k = 0; k < run->nr && !err; k++) {
			bool first = run->stack == next;

			next += first;
			err = rp_sample(h, rp, run->stack, run->period, first, frames);
		}
	}
	rp->use_off[h->stacks.nr] = rp->nr_uses;
	free(frames);
	return err;
}

/* The entry a node stands for: primaries are the stacks' entries in
 * creation order, duplicates come after them. */
static uint32_t rp_entry(const struct rp_event *re, uint32_t node)
{
	uint32_t v = re->node_idx[node];

	return v & DUP ? (uint32_t)re->nr_prim + (v & ~DUP) : v;
}

static bool rp_usable(const struct rp_event *re, const struct hist_event *he)
{
	return !re->broken && re->nr_prim == he->nr && re->t.n == re->nr_prim + re->nr_dups;
}

/* The duplicates as entries, and the tree's order of them all. */
static int rp_entries(struct pk_hist *h, struct rp_event *re, struct hist_event *he)
{
	size_t n = re->t.n;
	struct pk_hist_entry *v;
	uint32_t *order;

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
	order = malloc(n * sizeof(*order));
	if (!order || pki_itree_inorder(&re->t, order)) {
		free(order);
		return -ENOMEM;
	}
	for (size_t k = 0; k < n; k++)
		order[k] = rp_entry(re, order[k]);
	he->order = order;
	he->node_order = malloc(n * sizeof(*he->node_order));
	if (!he->node_order)
		return -ENOMEM;
	for (uint32_t node = 0; node < n; node++)
		he->node_order[node] = rp_entry(re, node);
	he->nr_order = n;
	(void)h;
	return 0;
}

struct rp_apply {
	struct pk_hist *h;
	struct replay *rp;
	const struct rp_exc *exc;
};

/* One key of a sample taken out of its stack, where perf put it. */
static int rp_apply_key(void *arg, const struct walk *w, const struct pk_hist_entry *key,
			uint32_t pos, size_t from)
{
	struct rp_apply *ap = arg;
	struct replay *rp = ap->rp;
	struct rp_event *re = &rp->ev[w->st->attr->index];
	struct hist_event *he = &ap->h->events[w->st->attr->index];
	uint64_t period = ap->exc->period;
	struct pk_hist_entry *e;
	size_t slot;
	int64_t i = rp_lookup(ap->h, re, key, &slot);
	uint32_t ordinal, idx;

	if (i < 0)
		return i == -1 ? -EINVAL : (int)i;
	if (re->stamp[i] == rp->occ)
		return 0;
	re->stamp[i] = rp->occ;
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
	return append_chain(ap->h, &ap->h->trees[0], e, w->frames, w->n, from, period);
}

static int rp_apply(struct pk_hist *h, struct replay *rp)
{
	struct pk_frame *frames = calloc(MAX_FRAMES, sizeof(*frames));
	int err = frames ? 0 : -ENOMEM;

	for (uint32_t i = 0; i < rp->nr_ev && i < h->nr_events_alloc && !err; i++)
		err = rp_entries(h, &rp->ev[i], &h->events[i]);
	for (size_t x = 0; x < rp->nr_exc && !err; x++) {
		struct rp_apply ap = {h, rp, &rp->exc[x]};

		rp->occ++;
		rp->ordinal = 0;
		err = walk_stack(h, &h->stacks.v[rp->exc[x].stack], frames, rp_apply_key, &ap);
	}
	free(frames);
	return err;
}

/*
 * The build from the replay's first walks, which found every key's
 * primary (its entry, in creation order): entries are made up front from
 * the keys in perf's tree, then two workers split them by primary parity,
 * each adding the stacks' periods and call trees to its own, so no key is
 * hashed or compared again.
 */
struct use_part {
	struct pk_hist *h;
	const struct replay *rp;
	unsigned id, nr;
	struct pk_frame *frames;
	pthread_t thread;
	int err;
};

static bool uses_usable(const struct replay *rp)
{
	for (uint32_t i = 0; i < rp->nr_ev; i++)
		if (rp->ev[i].broken)
			return false;
	return true;
}

static int use_stack(struct use_part *p, size_t s)
{
	struct pk_hist *h = p->h;
	const struct replay *rp = p->rp;
	const struct pki_stack *st = &h->stacks.v[s];
	struct hist_event *he = &h->events[st->attr->index];
	size_t n = SIZE_MAX;	/* frames not fetched yet */
	int err = 0;

	for (size_t u = rp->use_off[s]; u < rp->use_off[s + 1] && !err; u++) {
		const struct rp_use *use = &rp->uses[u];
		struct pk_hist_entry *e;

		if (use->prim % p->nr != p->id)
			continue;
		e = &he->v[use->prim];
		if (use->from & USE_SELF) {
			e->self += st->period;
			e->nr_samples += st->count;
		}
		e->children += st->period;
		if (!h->callchain)
			continue;
		if (n == SIZE_MAX)
			n = pki_stacks_frames(&h->stacks, st, p->frames, MAX_FRAMES);
		err = append_chain(h, &h->trees[p->id], e, p->frames, n, use->from & ~USE_SELF,
				   st->period);
	}
	return err;
}

static void *use_walk(void *arg)
{
	struct use_part *p = arg;

	for (size_t s = 0; s < p->h->stacks.nr && !p->err; s++)
		p->err = use_stack(p, s);
	return NULL;
}

static int use_entries(struct pk_hist *h, const struct replay *rp)
{
	for (uint32_t i = 0; i < rp->nr_ev && i < h->nr_events_alloc; i++) {
		const struct rp_event *re = &rp->ev[i];
		struct hist_event *he = &h->events[i];

		if (!re->nr_prim)
			continue;
		he->v = malloc(re->nr_prim * sizeof(*he->v));
		if (!he->v)
			return -ENOMEM;
		for (size_t k = 0; k < re->nr_prim; k++)
			he->v[k] = re->t.keys[re->prim_node[k]];
		he->nr = he->alloc = re->nr_prim;
	}
	return 0;
}

static int build_from_uses(struct pk_hist *h, const struct replay *rp)
{
	unsigned nr = h->nr_threads == 1 ? 1 : NR_PARTS, started = 0;
	struct use_part parts[NR_PARTS] = {0};
	int err = use_entries(h, rp);

	for (unsigned k = 0; k < nr && !err; k++) {
		parts[k] = (struct use_part){.h = h, .rp = rp, .id = k, .nr = nr};
		parts[k].frames = malloc(MAX_FRAMES * sizeof(*parts[k].frames));
		if (!parts[k].frames)
			err = -ENOMEM;
	}
	for (unsigned k = 1; k < nr && !err; k++) {
		if (pthread_create(&parts[k].thread, NULL, use_walk, &parts[k]))
			break;
		started = k;
	}
	if (!err) {
		use_walk(&parts[0]);
		for (unsigned k = started + 1; k < nr; k++)
			use_walk(&parts[k]);
	}
	for (unsigned k = 1; k <= started; k++)
		pthread_join(parts[k].thread, NULL);
	for (unsigned k = 0; k < nr; k++) {
		err = err ? err : parts[k].err;
		free(parts[k].frames);
	}
	return err;
}

static void rp_free(struct replay *rp)
{
	for (uint32_t i = 0; rp->ev && i < rp->nr_ev; i++) {
		struct rp_event *re = &rp->ev[i];

		pki_itree_free(&re->t);
		free(re->node_idx);
		free(re->prim_node);
		free(re->ver);
		free(re->last);
		free(re->stamp);
		free(re->slots);
	}
	free(rp->ev);
	free(rp->exc);
	free(rp->redir);
	free(rp->pool);
	free(rp->dsos);
	free(rp->seq_off);
	free(rp->seq_len);
	free(rp->uses);
	free(rp->use_off);
}

/* perf's lookups replayed before the stacks build the entries (which
 * then miss the samples that landed elsewhere), those samples added
 * after. */
static int build_entries(struct pk_hist *h);

static int add_stacks(struct pk_hist *h)
{
	struct replay rp = {0};
	int err = 0;

	if (!h->stacks.log_mode)
		return build_entries(h);
	rp.all = h->stacks.log_mode == 2;
	err = rp_run(h, &rp);
	if (!err)
		err = uses_usable(&rp) ? build_from_uses(h, &rp) : build_entries(h);
	if (!err)
		err = rp_apply(h, &rp);
	rp_free(&rp);
	pki_stacks_free(&h->stacks);
	return err;
}

static int build_entries(struct pk_hist *h)
{
	unsigned nr = h->nr_threads == 1 ? 1 : NR_PARTS;
	struct hist_part parts[NR_PARTS] = {0};
	unsigned started = 0;
	int err = 0;

	for (unsigned k = 0; k < nr && !err; k++) {
		parts[k] = (struct hist_part){.h = h, .id = k, .nr = nr, .trees = &h->trees[k]};
		parts[k].events = calloc(h->nr_events_alloc ? h->nr_events_alloc : 1,
					 sizeof(*parts[k].events));
		parts[k].frames = calloc(MAX_FRAMES, sizeof(*parts[k].frames));
		if (!parts[k].events || !parts[k].frames)
			err = -ENOMEM;
	}
	/* part 0 in this thread, the others in their own (or here, when no
	 * thread can be had) */
	for (unsigned k = 1; k < nr && !err; k++) {
		if (pthread_create(&parts[k].thread, NULL, part_walk, &parts[k]))
			break;
		started = k;
	}
	if (!err) {
		part_walk(&parts[0]);
		for (unsigned k = started + 1; k < nr; k++)
			part_walk(&parts[k]);
	}
	for (unsigned k = 1; k <= started; k++)
		pthread_join(parts[k].thread, NULL);
	for (unsigned k = 0; k < nr && !err; k++)
		err = parts[k].err;
	for (uint32_t i = 0; i < h->nr_events_alloc && !err; i++)
		err = merge_event(h, parts, nr, i);
	for (unsigned k = 0; k < nr; k++)
		part_free(&parts[k]);
	return err;
}

/* The members' own totals, for the leader lead of nr of them. */
static int set_members(struct pk_hist *h, uint32_t lead, uint32_t nr)
{
	struct hist_event *he = &h->events[lead];

	he->members = calloc(nr, sizeof(*he->members));
	if (!he->members)
		return -ENOMEM;
	for (uint32_t m = 0; m < nr; m++) {
		uint32_t i = lead + m;

		he->members[m].attr = m ? h->groups.attrs[i] : he->pub.attr;
		if (m && i < h->nr_events_alloc) {
			he->members[m].nr_samples = h->events[i].pub.nr_samples;
			he->members[m].total_period = h->events[i].pub.total_period;
		}
	}
	he->members[0].nr_samples = he->pub.nr_samples;
	he->members[0].total_period = he->pub.total_period;
	he->pub.members = he->members;
	he->pub.nr_members = nr;
	he->pub.group_name = nr > 1 ? h->groups.names[lead] : NULL;
	he->pub.group_forced = nr > 1 && h->groups.forced;
	return 0;
}

static int by_node_order(struct hist_event *he)
{
	struct pk_hist_entry *v = malloc((he->nr ? he->nr : 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (uint64_t k = 0; k < he->nr; k++)
		v[k] = he->v[he->node_order[k]];
	free(he->v);
	he->v = v;
	free(he->node_order);
	he->node_order = NULL;
	return 0;
}

/* A group leader's histogram merged with its members' (hist_group.c). */
static int sort_group(struct pk_hist *h, uint32_t lead, uint32_t nr)
{
	struct hist_event *he = &h->events[lead];
	struct pki_hist_part *parts = calloc(nr, sizeof(*parts));
	struct pk_hist_entry *v;
	uint64_t n;
	int err;

	if (!parts)
		return -ENOMEM;
	for (uint32_t m = 0; m < nr && lead + m < h->nr_events_alloc; m++) {
		struct hist_event *me = &h->events[lead + m];

		/* with duplicates, in the order they entered perf's tree:
		 * inserted again that way, they make its shape */
		if (me->node_order && by_node_order(me)) {
			free(parts);
			return -ENOMEM;
		}
		parts[m].v = me->v;
		parts[m].nr = me->nr;
	}
	err = pki_hist_group(parts, nr, h->keys, h->nr_keys, h->children, h->callchain, &v, &n,
			     &he->values);
	free(parts);
	if (err)
		return err;
	he->v = v;
	he->nr = n;
	return 0;
}

/* Entries in the order of perf's input tree as replayed, then sorted
 * on from there. */
static int sort_replayed(struct pk_hist *h, struct hist_event *he)
{
	struct pk_hist_entry *v = malloc((he->nr_order ? he->nr_order : 1) * sizeof(*v));
	uint64_t n = he->nr_order;
	int err;

	if (!v)
		return -ENOMEM;
	for (uint64_t k = 0; k < n; k++)
		v[k] = he->v[he->order[k]];
	free(he->v);
	he->v = v;
	err = pki_hist_sort_replayed(&h->trees[0], v, &n, h->keys, h->nr_keys, h->children,
				     h->callchain);
	he->nr = n;
	return err;
}

static int finish_event(struct pk_hist *h, uint32_t i)
{
	struct hist_event *he = &h->events[i];
	uint32_t nr = pki_groups_size(&h->groups, i);
	int err = 0;

	/* the call trees are sorted already (sort_all_trees) */
	if (nr > 1)
		err = sort_group(h, i, nr);
	else if (he->order)
		err = sort_replayed(h, he);
	else
		pki_hist_sort(he->v, he->nr, h->keys, h->nr_keys, h->children, h->callchain);
	if (!err)
		err = set_members(h, i, nr);
	he->pub.entries = he->v;
	he->pub.nr_entries = he->nr;
	return err;
}

/* Sorting the call trees, every other entry in a second thread; the
 * comparisons read the session's DSO list, which no longer changes. */
struct tree_sort {
	struct pk_hist *h;
	struct pk_session *s;
	unsigned first, step;
	pthread_t thread;
	int err;
};

static void *sort_trees(void *arg)
{
	struct tree_sort *t = arg;
	struct pk_hist *h = t->h;

	t->err = pki_callchain_sort_begin(t->s);
	for (uint32_t i = 0; i < h->nr_events_alloc && !t->err; i++)
		for (size_t j = t->first; j < h->events[i].nr; j += t->step)
			pki_callchain_sort(h->events[i].v[j].callchain);
	pki_callchain_sort_end();
	return NULL;
}

static int sort_all_trees(struct pk_hist *h, struct pk_session *s)
{
	struct tree_sort t[2] = {{h, s, 0, 1}, {h, s, 1, 2}};
	bool threaded = h->callchain && h->nr_threads != 1;

	if (threaded) {
		t[0].step = 2;
		threaded = !pthread_create(&t[1].thread, NULL, sort_trees, &t[1]);
		if (!threaded)
			t[0].step = 1;
	}
	sort_trees(&t[0]);
	if (threaded)
		pthread_join(t[1].thread, NULL);
	return t[0].err ? t[0].err : t[1].err;
}

static int finish(struct pk_hist *h)
{
	h->shown = calloc(h->nr_events_alloc ? h->nr_events_alloc : 1, sizeof(*h->shown));
	if (!h->shown)
		return -ENOMEM;
	for (uint32_t i = 0; i < h->nr_events_alloc; i++) {
		struct hist_event *he = &h->events[i];

		free(he->slots);
		he->slots = NULL;
		free(he->last_sample);
		he->last_sample = NULL;
	}
	/* members are shown in their leader's; perf skips a group whose
	 * leader has no samples */
	for (uint32_t i = 0; i < h->nr_events_alloc; i++) {
		struct hist_event *he = &h->events[i];
		int err;

		if (!he->pub.nr_samples || pki_groups_is_member(&h->groups, i))
			continue;
		err = finish_event(h, i);
		if (err)
			return err;
		h->shown[h->nr_shown++] = &he->pub;
	}
	return 0;
}

static int set_keys(struct pk_hist *h, const struct pk_hist_opts *opts)
{
	static const enum pk_hist_key defaults[] = {PK_HIST_KEY_COMM, PK_HIST_KEY_DSO,
						    PK_HIST_KEY_SYM};
	const enum pk_hist_key *keys = opts->keys ? opts->keys : defaults;
	uint32_t nr = opts->keys ? opts->nr_keys : 3;

	if (nr > PK_HIST_KEY_MAX)
		return -EINVAL;
	for (uint32_t i = 0; i < nr; i++) {
		if ((unsigned)keys[i] >= PK_HIST_KEY_MAX)
			return -EINVAL;
		h->keys[i] = keys[i];
		h->key_mask |= 1u << keys[i];
	}
	h->nr_keys = nr;
	return 0;
}

/* perf's comparison of unresolved symbols is no total order: its lookups
 * are replayed when the symbol is a key.  With the DSO compared before
 * it, only unresolved keys can miss their entry; else any can. */
static void set_replay(struct pk_hist *h)
{
	for (uint32_t i = 0; i < h->nr_keys; i++) {
		if (h->keys[i] == PK_HIST_KEY_DSO) {
			h->stacks.log_mode = 1;
			break;
		}
		if (h->keys[i] == PK_HIST_KEY_SYM) {
			h->stacks.log_mode = 2;
			break;
		}
	}
	if (!has_key(h, PK_HIST_KEY_SYM))
		h->stacks.log_mode = 0;
	h->stacks.log_frames = h->children;
}

int pk_hist_build(struct pk_hist **out, struct pk_session *s, const struct pk_hist_opts *opts)
{
	struct pk_hist_opts o = {.sz = sizeof(o)};
	struct pk_hist *h = calloc(1, sizeof(*h));
	struct pk_session_sample ev;
	int err;

	*out = NULL;
	if (opts)
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	err = !h ? -ENOMEM : set_keys(h, &o);
	if (!err)
		err = pki_hist_filter_init(&h->filter, &o);
	if (err)
		goto fail;
	h->children = o.children;
	h->callchain = o.callchain;
	h->nr_threads = o.nr_threads;
	h->max_stack = pki_hist_max_stack(o.max_stack, MAX_STACK);
	h->hide_unresolved = o.hide_unresolved;
	h->stack_thread = has_key(h, PK_HIST_KEY_PID) || h->filter.nr_pids || h->filter.nr_tids;
	set_replay(h);
	err = pki_pipe_start(&h->pipe, o.nr_threads != 1, fold_sample, h);
	if (err)
		goto fail;
	while ((err = pk_session_next(s, &ev)) > 0) {
		err = add_sample(h, s, &ev);
		if (err)
			break;
	}
	/* the worker stops before anything else touches the stacks */
	err = err < 0 ? (pki_pipe_finish(&h->pipe), err) : pki_pipe_finish(&h->pipe);
	pki_pipe_free(&h->pipe);
	if (err < 0)
		goto fail;
	err = add_stacks(h);
	pki_stacks_free(&h->stacks);
	if (err < 0)
		goto fail;
	h->lost = pk_session_lost_samples(s);
	/* after the samples: a pipe's header comes in the stream */
	err = pki_groups_init(&h->groups, s, o.group);
	err = sort_all_trees(h, s);
	if (err)
		goto fail;
	err = pki_callchain_sort_begin(s);
	if (err)
		goto fail;
	err = finish(h);
	pki_callchain_sort_end();
	if (err)
		goto fail;
	*out = h;
	return 0;
fail:
	pk_hist_free(h);
	return err;
}

void pk_hist_free(struct pk_hist *h)
{
	if (!h)
		return;
	for (uint32_t i = 0; i < h->nr_events_alloc; i++) {
		free(h->events[i].v);
		free(h->events[i].slots);
		free(h->events[i].last_sample);
		free(h->events[i].members);
		free(h->events[i].values);
		free(h->events[i].created);
		free(h->events[i].order);
		free(h->events[i].node_order);
	}
	pki_pipe_free(&h->pipe);
	free(h->events);
	pki_groups_free(&h->groups);
	free(h->shown);
	for (int k = 0; k < NR_PARTS; k++)
		pki_arena_free(&h->trees[k]);
	pki_stacks_free(&h->stacks);
	pki_strtab_free(&h->comms);
	pki_hist_filter_free(&h->filter);
	free(h);
}

uint32_t pk_hist_nr_events(const struct pk_hist *h)
{
	return h ? h->nr_shown : 0;
}

const struct pk_hist_event *pk_hist_event(const struct pk_hist *h, uint32_t i)
{
	return h && i < h->nr_shown ? h->shown[i] : NULL;
}

uint64_t pk_hist_lost_samples(const struct pk_hist *h)
{
	return h ? h->lost : 0;
}

int pk_hist_key_parse(const char *name, size_t len)
{
	static const char *const names[PK_HIST_KEY_MAX] = {
		[PK_HIST_KEY_COMM] = "comm", [PK_HIST_KEY_PID] = "pid",
		[PK_HIST_KEY_DSO] = "dso",   [PK_HIST_KEY_SYM] = "sym",
		[PK_HIST_KEY_CPU] = "cpu",
	};

	for (int i = 0; i < PK_HIST_KEY_MAX; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], name, len))
			return i;
	return -1;
}
