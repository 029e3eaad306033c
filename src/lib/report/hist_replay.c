// SPDX-License-Identifier: MIT
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
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>
#include "hist_build.h"

#include "hist_replay.h"


static int rp_node_idx(struct rp_event *re, uint32_t node, uint32_t idx)
{
	if (node >= re->alloc_idx) {
		size_t n = re->t.alloc > node ? re->t.alloc : (size_t)node + 1;

		if (pki_resize_array((void **)&re->node_idx, n, sizeof(*re->node_idx)))
			return -ENOMEM;
		re->alloc_idx = n;
	}
	re->node_idx[node] = idx;
	return 0;
}

static int rp_grow_prim(struct rp_event *re)
{
	size_t n = re->alloc_prim ? re->alloc_prim * 2 : 256;

	if (re->nr_prim < re->alloc_prim)
		return 0;
	if (pki_resize_array((void **)&re->prim, n, sizeof(*re->prim)) ||
	    (re->ident && pki_resize_array((void **)&re->ident, n, sizeof(*re->ident))))
		return -ENOMEM;
	re->alloc_prim = n;
	return 0;
}

struct prim_ctx {
	const struct pk_hist *h;
	const struct rp_event *re;
};

static uint64_t prim_hash(const void *ctx, uint32_t i)
{
	const struct prim_ctx *c = ctx;

	return pki_hist_entry_hash(c->h, &c->re->t.keys[c->re->prim[i].node]);
}

static int rp_slots(struct pk_hist *h, struct rp_event *re)
{
	struct prim_ctx c = {h, re};

	return pki_slots_grow(&re->slots, &re->nr_slots, re->nr_prim, 1024, prim_hash, &c);
}

/* pki_hist_entry_same() of primary i's key and key. */
static bool rp_same(const struct pk_hist *h, const struct rp_event *re, uint32_t i,
		    const struct pk_hist_entry *key)
{
	const struct rp_ident *id = re->ident ? &re->ident[i] : NULL;

	if (!id)
		return pki_hist_entry_same(h, &re->t.keys[re->prim[i].node], key);
	return (!(h->key_mask & (1u << PK_HIST_KEY_COMM)) || id->comm == key->comm) &&
	       (!(h->key_mask & (1u << PK_HIST_KEY_DSO)) || id->dso == key->dso) &&
	       (!(h->key_mask & (1u << PK_HIST_KEY_SYM)) ||
		(id->sym == key->sym && id->addr == key->addr));
}

int64_t pki_replay_lookup(struct pk_hist *h, struct rp_event *re, const struct pk_hist_entry *key,
			  size_t *slot)
{
	size_t j;

	if (!pki_slots_room(re->nr_prim, re->nr_slots) && rp_slots(h, re))
		return -ENOMEM;
	for (j = pki_hist_entry_hash(h, key) & (re->nr_slots - 1); re->slots[j];
	     j = (j + 1) & (re->nr_slots - 1)) {
		uint32_t i = re->slots[j] - 1;

		if (rp_same(h, re, i, key))
			return i;
	}
	*slot = j;
	return -1;
}

/* A key's first lookup: its primary node (group: rp_group + 1, or 0). */
static int64_t rp_new_prim(struct replay *rp, struct rp_event *re,
			   const struct pk_hist_entry *key, size_t slot, uint32_t group)
{
	struct pki_gkey g;
	bool ins;
	int64_t node;

	pki_replay_gkey(rp, key, &g);
	node = pki_itree_findnew(&re->t, &g, key, group, &ins);
	size_t i = re->nr_prim;

	if (node < 0)
		return node;
	if (!ins)
		re->broken = true;
	if (rp_grow_prim(re))
		return -ENOMEM;
	if (ins && rp_node_idx(re, (uint32_t)node, (uint32_t)i))
		return -ENOMEM;
	re->prim[i] = (struct rp_prim){
		.ver = pki_itree_version(&re->t, group),
		.last_dso = re->t.keys[node].dso,
		.node = (uint32_t)node,
		.last = (uint32_t)node,
	};
	if (re->ident)
		re->ident[i] =
			(struct rp_ident){key->comm, re->t.keys[node].dso, key->sym, key->addr};
	re->slots[slot] = (uint32_t)++re->nr_prim;
	return (int64_t)i;
}

/* A later lookup of primary i's key: the node it lands in. */
static int64_t rp_search(struct rp_event *re, const struct rp_key *k)
{
	struct pk_hist_entry key;
	struct rp_prim *p = &re->prim[k->prim];
	bool ins;
	int64_t node;
	struct pki_gkey g;

	/* nothing in the group changed since (not even that node's DSO) */
	if (p->ver == pki_itree_version(&re->t, k->group) && p->last_dso == k->dso)
		return p->last;
	key = re->t.keys[p->node];
	key.level = k->level;
	key.hidden = k->hidden;
	key.dso = k->dso;
	/* the same name as the primary's DSO: the same rank */
	g = re->t.g[p->node];
	node = pki_itree_findnew(&re->t, &g, &key, k->group, &ins);
	if (node < 0)
		return node;
	if (ins && rp_node_idx(re, (uint32_t)node, DUP | re->nr_dups++))
		return -ENOMEM;
	/* the duplicate merges with the primary in perf's collapsed tree */
	p->keep = p->keep || ins;
	if (!ins && re->t.keys[node].dso != k->dso) {
		/* perf's entry takes the map of the sample that found it,
		 * and with it its place in later comparisons */
		re->t.keys[node].dso = k->dso;
		if (re->ident && !(re->node_idx[node] & DUP))
			re->ident[re->node_idx[node]].dso = k->dso;
		pki_itree_changed(&re->t, (uint32_t)node);
	}
	p->ver = pki_itree_version(&re->t, k->group);
	p->last = (uint32_t)node;
	p->last_dso = re->t.keys[node].dso;
	return node;
}

/* A later lookup of key k by the current sample: a redirection when it
 * lands elsewhere than its primary.  Only a key searched again can: the
 * others land where their first lookup created them. */
static int rp_land(struct replay *rp, struct rp_event *re, const struct rp_key *k)
{
	int64_t node;

	if (!k->search && !(k->group && rp->groups[k->group - 1].danger))
		return 0;
	node = rp_search(re, k);
	if (node < 0)
		return (int)node;
	if ((uint32_t)node == re->prim[k->prim].node)
		return 0;
	/* the sample moves between two entries: their trees stay whole */
	re->prim[k->prim].keep = true;
	if (!(re->node_idx[node] & DUP))
		re->prim[re->node_idx[node]].keep = true;
	if (pki_grow_array((void **)&rp->redir, &rp->alloc_redir, rp->nr_redir, sizeof(*rp->redir)))
		return -ENOMEM;
	rp->redir[rp->nr_redir++] = (struct rp_redir){k->ordinal, (uint32_t)node};
	return 0;
}

struct rp_walk {
	struct pk_hist *h;
	struct replay *rp;
};

#define WRAPS (1ULL << 63)	/* a signed difference this far apart wraps */

static uint64_t group_hash(const char *comm, uint32_t name)
{
	uint64_t x = ((uintptr_t)comm ^ ((uint64_t)name << 40)) * 0x9e3779b97f4a7c15ULL;

	return x ^ (x >> 29);
}

static uint64_t group_hash_id(const void *ctx, uint32_t g)
{
	const struct rp_group *v = ctx;

	return group_hash(v[g].comm, v[g].name);
}

static int group_slots_grow(struct replay *rp)
{
	return pki_slots_grow(&rp->group_slots, &rp->nr_group_slots, rp->nr_groups, 256,
			      group_hash_id, rp->groups);
}

/* The group of an unresolved key, its address added: group + 1, or a
 * negative errno. */
static int64_t rp_group(struct replay *rp, const struct pk_hist_entry *key)
{
	const char *comm = rp->comm_first ? key->comm : NULL;
	uint32_t name = key->dso ? pki_replay_dso_name(rp, key->dso) : 0;
	struct rp_group *g;
	size_t j, mask;

	if (group_slots_grow(rp))
		return -ENOMEM;
	mask = rp->nr_group_slots - 1;
	for (j = group_hash(comm, name) & mask; rp->group_slots[j]; j = (j + 1) & mask) {
		g = &rp->groups[rp->group_slots[j] - 1];
		if (g->comm == comm && g->name == name)
			goto found;
	}
	if (pki_grow_array((void **)&rp->groups, &rp->alloc_groups, rp->nr_groups,
			   sizeof(*rp->groups)))
		return -ENOMEM;
	rp->group_slots[j] = (uint32_t)++rp->nr_groups;
	g = &rp->groups[rp->nr_groups - 1];
	*g = (struct rp_group){.comm = comm, .name = name, .lo = key->addr, .hi = key->addr};
found:
	if (key->sym) {
		/* a symbol of a DSO with inlined ones (rp_inline_names()) */
		g->danger = true;
		return g - rp->groups + 1;
	}
	g->lo = key->addr < g->lo ? key->addr : g->lo;
	g->hi = key->addr > g->hi ? key->addr : g->hi;
	g->danger = g->danger || g->hi - g->lo >= WRAPS;
	return g - rp->groups + 1;
}

/* The group of a key that has one (unresolved, or of a DSO with inlined
 * symbols; groups in use): group + 1, 0, or a negative errno. */
static int64_t rp_key_group(struct replay *rp, const struct pk_hist_entry *key)
{
	if (rp->all)
		return 0;
	if (!key->sym ||
	    (rp->name_inlined && key->dso && rp->name_inlined[pki_replay_dso_name(rp, key->dso)]))
		return rp_group(rp, key);
	return 0;
}

/*
 * The memo that can stand for a key's lookup: a key's identity is its
 * location's (a trie node's own for a frame, one of the sample locations
 * for the sample's), the comm's and the event's, unless the thread or CPU
 * is a key too.
 */
static struct pki_key_memo *rp_memo(struct pk_hist *h, const struct replay *rp,
				     const struct pki_walk *w, size_t from)
{
	if (!rp->memo)
		return NULL;
	/* the sample's own location is no node, but one of the locations */
	if (from >= w->n)
		return &rp->loc_memo[w->st->loc];
	return &h->stacks.nodes[w->nodes[from]].memo;
}

/* A stack's first sample: keys are found (or created) by their value. */
/*
 * Whether primary i had a key earlier in the walk: perf looks a key up
 * once a sample.  The walk's own short list answers, not a stamp in the
 * primary's state, which a key found through its memo need not read.
 */
static bool rp_walk_seen(struct replay *rp, uint32_t i)
{
	uint64_t bit = 1ULL << (i % 64);

	if (rp->walk_filter & bit) {
		for (uint32_t k = 0; k < rp->nr_walk; k++)
			if (rp->walk_prims[k] == i)
				return true;
	}
	rp->walk_filter |= bit;
	rp->walk_prims[rp->nr_walk++] = i;
	return false;
}

static int rp_first_key(void *arg, const struct pki_walk *w, const struct pk_hist_entry *key,
			uint32_t pos, size_t from)
{
	struct rp_walk *rw = arg;
	struct replay *rp = rw->rp;
	struct rp_event *re = &rp->ev[w->st->attr->index];
	struct pki_key_memo *memo = rp_memo(rw->h, rp, w, from);
	bool memo_hit = memo && memo->comm == w->st->comm && memo->event == w->st->attr->index + 1;
	size_t slot = 0;
	int64_t i = memo_hit ? memo->entry : pki_replay_lookup(rw->h, re, key, &slot);
	bool created = i == -1;
	/* a key seen again this sample adds nothing to its group */
	int64_t g = rp_key_group(rp, key);
	struct rp_key *k;
	uint32_t ordinal;

	if (g < 0)
		return (int)g;
	if (created) {
		i = rp_new_prim(rp, re, key, slot, (uint32_t)g);
		if (i < 0)
			return (int)i;
	} else if (i < 0) {
		return (int)i;
	}
	if (rp->nr_walk > PKI_HIST_FRAMES)
		return -EOVERFLOW;	/* more keys than frames: cannot be */
	if (rp_walk_seen(rp, (uint32_t)i))
		return 0;
	if (memo && !memo_hit)
		*memo = (struct pki_key_memo){(uint32_t)i, w->st->attr->index + 1, w->st->comm};
	if (rp->nr_uses == rp->alloc_uses)
		return -EOVERFLOW;	/* more keys than frames: cannot be */
	rp->uses[rp->nr_uses++] = (struct rp_use){(uint32_t)i, (uint32_t)from | (pos ? 0 : USE_SELF)};
	ordinal = rp->ordinal++;
	if (!rp->all && !g) {
		/* resolved: it lands where its first lookup created it */
		return 0;
	}
	/* kept for the stack's later samples, which look it up again */
	if (pki_grow_array((void **)&rp->pool, &rp->alloc_pool, rp->nr_pool, sizeof(*rp->pool)))
		return -ENOMEM;
	k = &rp->pool[rp->nr_pool++];
	*k = (struct rp_key){.dso = key->dso,
			     .prim = (uint32_t)i,
			     .ordinal = ordinal,
			     .group = (uint32_t)g,
			     .search = rp->all,
			     .hidden = key->hidden,
			     .level = key->level};
	/* a key just created has nothing to look up */
	return created ? 0 : rp_land(rp, re, k);
}

/* The end of a sample: when it landed elsewhere, an exception to its
 * stack (moved where it landed once the entries are built). */
static int rp_end_sample(struct replay *rp, uint32_t s, uint64_t period)
{
	if (rp->nr_redir == rp->redir_mark)
		return 0;
	if (pki_grow_array((void **)&rp->exc, &rp->alloc_exc, rp->nr_exc, sizeof(*rp->exc)))
		return -ENOMEM;
	rp->exc[rp->nr_exc++] = (struct rp_exc){s, period, rp->redir_mark,
						rp->nr_redir - rp->redir_mark};
	rp->redir_mark = rp->nr_redir;
	return 0;
}

/* Every PUBLISH stacks walked, the builders hear of it. */
#define PUBLISH 1024

static void rp_publish(struct replay *rp, size_t walked, bool done)
{
	struct rp_progress *pg = rp->progress;

	if (!pg || (!done && walked % PUBLISH))
		return;
	pthread_mutex_lock(&pg->lock);
	pg->walked = walked;
	pg->done = done;
	pthread_cond_broadcast(&pg->cond);
	pthread_mutex_unlock(&pg->lock);
}

static int rp_sample(struct pk_hist *h, struct replay *rp, uint32_t s, uint64_t period,
		     bool first, struct pk_frame *frames)
{
	struct rp_seq *q = &rp->seq[s];
	int err = 0;

	rp->occ++;
	rp->ordinal = 0;
	if (first) {
		const struct pki_stack *st = &h->stacks.v[s];
		struct rp_walk rw = {h, rp};

		q->off = (uint32_t)rp->nr_pool;
		q->ev = st->attr->index;
		pki_stacks_ahead(&h->stacks, &rp->ahead, s);
		if ((size_t)s + PKI_PATH_AHEAD < h->stacks.nr)
			__builtin_prefetch(&rp->loc_memo[h->stacks.v[s + PKI_PATH_AHEAD].loc]);
		rp->nr_walk = 0;
		rp->walk_filter = 0;
		err = pki_hist_walk(h, st, frames, rp->nodes, rp_first_key, &rw);
		q->len = (uint32_t)(rp->nr_pool - q->off);
		rp->use_off[s + 1] = rp->nr_uses;
		if (!err)
			rp_publish(rp, (size_t)s + 1, false);
	} else {
		struct rp_event *re = &rp->ev[q->ev];

		for (uint32_t k = 0; k < q->len && !err; k++)
			err = rp_land(rp, re, &rp->pool[q->off + k]);
	}
	return err ? err : rp_end_sample(rp, s, period);
}

/*
 * What the runs ahead will read, asked for in steps as each step's
 * addresses become known: a later sample's keys (or a stack's first
 * walk) from PREFETCH runs on, their pool entries halfway there, the
 * primaries they name a quarter of the way.  The log says which stacks
 * come, so their cache misses overlap instead of waiting in turn.
 */
#define PREFETCH 16

static void rp_prefetch(const struct pk_hist *h, const struct replay *rp, size_t r, uint32_t next)
{
	const struct pki_stack_run *log = h->stacks.log;
	size_t nr = h->stacks.nr_log;
	uint32_t s;

	if (r + PREFETCH < nr) {
		s = log[r + PREFETCH].stack;
		__builtin_prefetch(s < next ? (const void *)&rp->seq[s] : &h->stacks.v[s]);
	}
	if (r + PREFETCH / 2 < nr) {
		s = log[r + PREFETCH / 2].stack;
		if (s < next)
			__builtin_prefetch(&rp->pool[rp->seq[s].off]);
		else
			__builtin_prefetch(&h->stacks.nodes[h->stacks.v[s].leaf]);
	}
	if (r + PREFETCH / 4 < nr && (s = log[r + PREFETCH / 4].stack) < next) {
		const struct rp_seq *q = &rp->seq[s];
		const struct rp_event *re = &rp->ev[q->ev];

		for (uint32_t k = 0; k < q->len && k < 4; k++)
			__builtin_prefetch(&re->prim[rp->pool[q->off + k].prim]);
	}
}

/* Sets rp->comm_first; whether the groups of rp_group() lie side by side
 * in the trees' order: when only the keys that make them come before the
 * symbol (pki_itree_init()). */
static bool rp_groups_apart(const struct pk_hist *h, struct replay *rp)
{
	bool apart = !rp->all;

	for (uint32_t i = 0; i < h->nr_keys && h->keys[i] != PK_HIST_KEY_SYM; i++) {
		rp->comm_first = rp->comm_first || h->keys[i] == PK_HIST_KEY_COMM;
		apart = apart && (h->keys[i] == PK_HIST_KEY_COMM || h->keys[i] == PK_HIST_KEY_DSO);
	}
	return apart;
}

static void mark_inlined(struct replay *rp, const struct pk_location *l)
{
	if (l->sym && l->sym->inlined && l->dso)
		rp->name_inlined[pki_replay_dso_name(rp, l->dso)] = true;
}

/*
 * The DSO names with an inlined symbol among the stacks' locations and
 * nodes.  perf compares two symbols by name when one is inlined, else by
 * address: no total order, so a lookup of any symbol of such a DSO can
 * miss its entry, and all of them are replayed as unresolved keys are.
 */
static int rp_inline_names(struct replay *rp)
{
	const struct pki_stacks *t = rp->stacks;

	if (!t->has_inlined)
		return 0;
	/* names are numbered from 1, at most one per DSO */
	rp->name_inlined = calloc(t->nr_dsos + 1, sizeof(*rp->name_inlined));
	if (!rp->name_inlined)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr_locs; i++)
		mark_inlined(rp, &t->locs[i]);
	for (size_t i = 1; i < t->nr_nodes; i++)
		mark_inlined(rp, &t->nodes[i].loc);
	return 0;
}

/* Everything the replay and the builders share, before either starts. */
static int rp_init(struct pk_hist *h, struct replay *rp)
{
	size_t n = h->stacks.nr;
	bool by_group;
	int err;

	if (n >= UINT32_MAX)
		return -EOVERFLOW;
	rp->ev = calloc(h->nr_events_alloc ? h->nr_events_alloc : 1, sizeof(*rp->ev));
	rp->seq = calloc(n ? n : 1, sizeof(*rp->seq));
	rp->use_off = calloc(n + 1, sizeof(*rp->use_off));
	rp->alloc_uses = h->stacks.nr_walk_keys;
	rp->uses = malloc((rp->alloc_uses ? rp->alloc_uses : 1) * sizeof(*rp->uses));
	if (!rp->ev || !rp->seq || !rp->use_off || !rp->uses)
		return -ENOMEM;
	rp->nr_ev = h->nr_events_alloc;
	by_group = rp_groups_apart(h, rp);
	for (uint32_t i = 0; i < rp->nr_ev; i++) {
		pki_itree_init(&rp->ev[i].t, by_group);
		/* the thread, CPU and parent keys are compared as
		 * pki_hist_entry_same() does */
		if (!(h->key_mask & ((1u << PK_HIST_KEY_PID) | (1u << PK_HIST_KEY_CPU) |
				     (1u << PK_HIST_KEY_PARENT))) &&
		    !(rp->ev[i].ident = malloc(sizeof(*rp->ev[i].ident))))
			return -ENOMEM;
	}
	rp->nodes = malloc(PKI_HIST_FRAMES * sizeof(*rp->nodes));
	rp->walk_prims = malloc((PKI_HIST_FRAMES + 1) * sizeof(*rp->walk_prims));
	if (!rp->nodes || !rp->walk_prims)
		return -ENOMEM;
	/* a location's memo knows its comm, not its parent */
	rp->memo = !h->stack_thread &&
		   !(h->key_mask & ((1u << PK_HIST_KEY_CPU) | (1u << PK_HIST_KEY_PARENT)));
	rp->loc_memo =
		pki_calloc_hot(h->stacks.nr_locs ? h->stacks.nr_locs : 1, sizeof(*rp->loc_memo));
	if (!rp->loc_memo)
		return -ENOMEM;
	err = pki_replay_ranks(h, rp);
	return err ? err : rp_inline_names(rp);
}

/* The samples in their order, each stack's first walked whole. */
static int rp_run(struct pk_hist *h, struct replay *rp)
{
	struct pk_frame *frames = malloc(PKI_HIST_FRAMES * sizeof(*frames));
	uint32_t next = 0;
	int err = frames ? 0 : -ENOMEM;

	/* only what the trees' comparisons read of the output's options */
	pki_hist_set_output(&(struct pki_output){.dso_from_fields = h->out.dso_from_fields});
	pki_hist_set_keys(h->keys, h->nr_keys);
	for (size_t r = 0; r < h->stacks.nr_log && !err; r++) {
		const struct pki_stack_run *run = &h->stacks.log[r];

		rp_prefetch(h, rp, r, next);
		for (uint32_t k = 0; k < run->nr && !err; k++) {
			bool first = run->stack == next;

			next += first;
			err = rp_sample(h, rp, run->stack, run->period, first, frames);
		}
	}
	rp_publish(rp, err ? 0 : h->stacks.nr, true);
	pki_hist_set_output(NULL);
	free(frames);
	return err;
}

/* The tree's order of event re's entries (he->order, he->node_order). */
int pki_replay_order(struct rp_event *re, struct hist_event *he)
{
	size_t n = re->t.n;
	uint32_t *order = malloc(n * sizeof(*order));

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
	return 0;
}

static int progress_init(struct replay *rp, bool threaded)
{
	if (!threaded)
		return 0;
	rp->progress = calloc(1, sizeof(*rp->progress));
	if (!rp->progress)
		return -ENOMEM;
	pthread_mutex_init(&rp->progress->lock, NULL);
	pthread_cond_init(&rp->progress->cond, NULL);
	return 0;
}

static void rp_free(struct replay *rp)
{
	for (uint32_t i = 0; rp->ev && i < rp->nr_ev; i++) {
		struct rp_event *re = &rp->ev[i];

		pki_itree_free(&re->t);
		free(re->node_idx);
		free(re->prim);
		free(re->ident);
		free(re->slots);
	}
	free(rp->ev);
	free(rp->exc);
	free(rp->redir);
	free(rp->pool);
	free(rp->dso_name);
	free(rp->name_inlined);
	free(rp->comms);
	free(rp->comm_rank);
	free(rp->parents);
	free(rp->parent_rank);
	free(rp->nodes);
	free(rp->walk_prims);
	free(rp->loc_memo);
	free(rp->groups);
	free(rp->group_slots);
	free(rp->seq);
	free(rp->uses);
	free(rp->use_off);
	if (rp->progress) {
		pthread_mutex_destroy(&rp->progress->lock);
		pthread_cond_destroy(&rp->progress->cond);
		free(rp->progress);
	}
}

/* The CPUs the replay may keep busy: those the process may use, or the
 * caller's thread limit. */
static unsigned usable_cpus(const struct pk_hist *h)
{
	cpu_set_t set;
	int cpus;

	if (h->nr_threads)
		return h->nr_threads;
	cpus = sched_getaffinity(0, sizeof(set), &set) ? 0 : CPU_COUNT(&set);
	if (cpus <= 0)
		cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	return cpus > 0 ? (unsigned)cpus : 1;
}

/*
 * How many builders run beside the replay: one for each CPU it leaves (at
 * most PKI_HIST_PARTS).  Each builder goes over every stack and takes its
 * own primaries' keys, so two on the one CPU the replay leaves did much of
 * that twice and took turns with it and each other: one alone is 6%
 * faster on the benchmark file with two CPUs.
 */
static unsigned builders(unsigned cpus)
{
	return cpus > PKI_HIST_PARTS ? PKI_HIST_PARTS : 1;
}

/* The arrays the first walks write, one stack after the other, mapped by a
 * thread of their own when a CPU is left beside the replay and its
 * builders; on two CPUs that thread only took turns with them (the replay
 * phase was 10 to 40 ms faster without it in three sets of runs). */
static void fill_start(struct pki_populate_job *fill, const struct pk_hist *h,
		       const struct replay *rp)
{
	*fill = (struct pki_populate_job){
		.p = {rp->uses, rp->seq, rp->use_off},
		.len = {rp->alloc_uses * sizeof(*rp->uses), h->stacks.nr * sizeof(*rp->seq),
			(h->stacks.nr + 1) * sizeof(*rp->use_off)},
		.nr = 3,
	};
	pki_populate_start(fill);
}

int pki_hist_replay(struct pk_hist *h)
{
	/* with one thread (the caller's) the builders run after the replay */
	bool threaded = h->nr_threads != 1;
	unsigned cpus = threaded ? usable_cpus(h) : 1, nr = threaded ? builders(cpus) : 1;
	struct use_part parts[PKI_HIST_PARTS] = {0};
	struct replay rp = {.all = h->stacks.log_mode == 2};
	struct pki_populate_job fill = {0};
	int err = rp_init(h, &rp), berr;
	bool usable;

	if (!err && threaded && cpus > 1 + nr)
		fill_start(&fill, h, &rp);
	if (!err)
		err = progress_init(&rp, threaded);
	if (!err)
		err = pki_uses_start(parts, nr, h, &rp);
	if (!err)
		err = rp_run(h, &rp);
	else
		rp_publish(&rp, 0, true);	/* the builders stop */
	usable = !err && pki_replay_usable(&rp);
	/* while the builders finish the last stacks */
	if (usable)
		err = pki_uses_keys(h, &rp);
	berr = pki_uses_join(parts, nr);
	pki_populate_join(&fill);
	err = err ? err : berr;
	if (!err && usable) {
		err = pki_uses_trees(h, &rp, parts, nr);
		pki_uses_values(h, &rp, parts, nr);
		if (!err)
			err = pki_uses_apply(h, &rp);
	} else if (!err) {
		err = pki_replay_fallback(h, &rp);
	}
	pki_uses_free(parts, nr, h->nr_events_alloc);
	rp_free(&rp);
	return err;
}
