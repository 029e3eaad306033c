// SPDX-License-Identifier: MIT
/*
 * Unique stacks.  A profile has millions of samples but fewer distinct
 * (event, thread, resolved location, resolved callchain) combinations;
 * the histogram only needs each combination's period and sample count.
 * Samples are folded into this table as they are read and the histogram
 * is built from it afterwards, in the order each stack was first seen,
 * which creates entries and call-tree nodes in the same order as adding
 * every sample would.
 *
 * Storage is shared as far as it can be: each distinct location is kept
 * once, and callchains live in a trie grown from the root (outermost
 * caller), so stacks that differ only near the leaf share every node
 * above it.  A stack is then a handful of words, whatever its depth.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hist_internal.h"

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h += 0x9e3779b97f4a7c15ULL;
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
	return h ^ (h >> 31);
}

/* The tables are open-addressing sets of ids (struct pki_idtab) whose
 * keys live in the arrays; hash() gives an id's hash for rehashing.  A
 * slot holds the id + 1 in its low half and the top half of the key's hash
 * in its high half, so a probe past another key mostly needs no visit to
 * that key's (cold) array element. */
static inline uint64_t slot_make(uint64_t hash, uint32_t id)
{
	return (hash & 0xffffffff00000000ULL) | (id + 1);
}

static inline bool slot_tag_is(uint64_t slot, uint64_t hash)
{
	return (slot >> 32) == (hash >> 32);
}

static inline uint32_t slot_id(uint64_t slot)
{
	return (uint32_t)slot - 1;
}

static int idtab_grow(struct pki_idtab *t, size_t nr, uint64_t (*hash)(const void *, uint32_t),
		      const void *ctx)
{
	size_t n = t->nr_slots ? t->nr_slots * 2 : 4096;
	uint64_t *slots;

	if (pki_slots_room(nr, t->nr_slots))
		return 0;
	slots = pki_calloc_hot(n, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (uint32_t id = 0; id < nr; id++) {
		uint64_t h = hash(ctx, id);
		size_t j = h & (n - 1);

		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = slot_make(h, id);
	}
	free(t->slots);
	t->slots = slots;
	t->nr_slots = n;
	return 0;
}

int pki_resize_array(void **v, size_t n, size_t elem)
{
	void *p = realloc(*v, n * elem);

	if (!p)
		return -ENOMEM;
	*v = p;
	return 0;
}

int pki_grow_array(void **v, size_t *alloc, size_t nr, size_t elem)
{
	size_t n;
	void *p;

	if (nr < *alloc)
		return 0;
	if (nr >= UINT32_MAX - 1)
		return -EOVERFLOW;
	n = *alloc ? *alloc * 2 : 1024;
	p = realloc(*v, n * elem);
	if (!p)
		return -ENOMEM;
	*v = p;
	*alloc = n;
	return 0;
}

int pki_room_zeroed(void **v, size_t *alloc, size_t i, size_t elem, size_t first)
{
	size_t n = *alloc ? *alloc * 2 : first;
	char *p;

	if (i < *alloc)
		return 0;
	while (n <= i)
		n *= 2;
	p = realloc(*v, n * elem);
	if (!p)
		return -ENOMEM;
	memset(p + *alloc * elem, 0, (n - *alloc) * elem);
	*v = p;
	*alloc = n;
	return 0;
}

/* ---- DSOs ------------------------------------------------------------ */

size_t pki_stacks_dso_slot(const struct pki_stacks *t, const struct pk_dso *dso)
{
	size_t mask = t->nr_dso_slots - 1, j = ((uintptr_t)dso >> 4) & mask;

	if (!t->nr_dso_slots)
		return SIZE_MAX;

	while (t->dsos[j] && t->dsos[j] != dso)
		j = (j + 1) & mask;
	return j;
}

static int dsos_grow(struct pki_stacks *t)
{
	size_t n = t->nr_dso_slots ? t->nr_dso_slots * 2 : 64;
	const struct pk_dso **old = t->dsos;
	size_t nr_old = t->nr_dso_slots;

	if (pki_slots_room(t->nr_dsos, t->nr_dso_slots))
		return 0;
	t->dsos = calloc(n, sizeof(*t->dsos));
	if (!t->dsos) {
		t->dsos = old;
		return -ENOMEM;
	}
	t->nr_dso_slots = n;
	for (size_t i = 0; i < nr_old; i++)
		if (old[i])
			t->dsos[pki_stacks_dso_slot(t, old[i])] = old[i];
	free(old);
	return 0;
}

/* A new location's or node's DSO into the set: the replay ranks them by
 * name without going over every node. */
static int note_dso(struct pki_stacks *t, const struct pk_dso *dso)
{
	size_t j;

	if (!dso || dso == t->last_dso)
		return 0;
	if (dsos_grow(t))
		return -ENOMEM;
	j = pki_stacks_dso_slot(t, dso);
	if (!t->dsos[j]) {
		t->dsos[j] = dso;
		t->nr_dsos++;
	}
	t->last_dso = dso;
	return 0;
}

/* ---- locations ---------------------------------------------------- */

/* ip and symbol nearly always decide; the final mix() of the tables'
 * callers spreads the bits */
static inline uint64_t loc_key_hash(const struct pk_location *l)
{
	return mix(l->ip ^ ((uintptr_t)l->sym << 7), l->cpumode);
}

static uint64_t loc_hash_id(const void *ctx, uint32_t id)
{
	return loc_key_hash(&((const struct pki_stacks *)ctx)->locs[id]);
}

static bool loc_same(const struct pk_location *a, const struct pk_location *b)
{
	return a->ip == b->ip && a->addr == b->addr && a->dso == b->dso && a->sym == b->sym &&
	       a->cpumode == b->cpumode;
}

static int64_t loc_id(struct pki_stacks *t, const struct pk_location *l)
{
	uint64_t h, slot;
	size_t j;

	if (idtab_grow(&t->loc_tab, t->nr_locs, loc_hash_id, t))
		return -ENOMEM;
	h = loc_key_hash(l);
	for (j = h & (t->loc_tab.nr_slots - 1); (slot = t->loc_tab.slots[j]);
	     j = (j + 1) & (t->loc_tab.nr_slots - 1))
		if (slot_tag_is(slot, h) && loc_same(&t->locs[slot_id(slot)], l))
			return slot_id(slot);
	if (pki_grow_array((void **)&t->locs, &t->alloc_locs, t->nr_locs, sizeof(*t->locs)) ||
	    note_dso(t, l->dso))
		return -ENOMEM;
	t->locs[t->nr_locs] = *l;
	t->has_inlined = t->has_inlined || (l->sym && l->sym->inlined);
	t->loc_tab.slots[j] = slot_make(h, (uint32_t)t->nr_locs++);
	return t->nr_locs - 1;
}

/* ---- the callchain trie (node 0 is the root) ------------------------ */

/* A node is hashed as its whole path from the root (the root's hash is
 * 0): a new path's hashes come from its frames alone, so the table slots
 * of all its nodes can be asked for at once, not each only after its
 * parent has been found. */
static uint64_t path_hash(uint64_t parent_hash, const struct pk_location *l)
{
	return mix(parent_hash, loc_key_hash(l));
}

static uint64_t node_hash_id(const void *ctx, uint32_t id)
{
	return ((const struct pki_stacks *)ctx)->node_hash[id];
}

static const uint64_t *node_slot(const struct pki_stacks *t, uint64_t h)
{
	return &t->node_tab.slots[h & (t->node_tab.nr_slots - 1)];
}

/* The child of parent at l, whose path hashes to h.  A node keeps its
 * own copy of the location: one lookup per frame, not two. */
static int64_t node_id(struct pki_stacks *t, uint32_t parent, const struct pk_location *l,
		       uint64_t h)
{
	uint64_t slot;
	size_t j;

	if (idtab_grow(&t->node_tab, t->nr_nodes, node_hash_id, t))
		return -ENOMEM;
	for (j = h & (t->node_tab.nr_slots - 1); (slot = t->node_tab.slots[j]);
	     j = (j + 1) & (t->node_tab.nr_slots - 1)) {
		const struct pki_stack_node *n = &t->nodes[slot_id(slot)];

		if (slot_tag_is(slot, h) && n->parent == parent && loc_same(&n->loc, l))
			return slot_id(slot);
	}
	if (pki_grow_array((void **)&t->nodes, &t->alloc_nodes, t->nr_nodes, sizeof(*t->nodes)) ||
	    pki_grow_array((void **)&t->node_hash, &t->alloc_node_hash, t->nr_nodes,
			   sizeof(*t->node_hash)) ||
	    note_dso(t, l->dso))
		return -ENOMEM;
	t->nodes[t->nr_nodes] = (struct pki_stack_node){
		.loc = *l,
		.parent = parent,
		.depth = t->nodes[parent].depth + 1,
	};
	t->node_hash[t->nr_nodes] = h;
	t->has_inlined = t->has_inlined || (l->sym && l->sym->inlined);
	t->node_tab.slots[j] = slot_make(h, (uint32_t)t->nr_nodes++);
	return t->nr_nodes - 1;
}

static int init_root(struct pki_stacks *t)
{
	if (t->nr_nodes)
		return 0;
	if (pki_grow_array((void **)&t->nodes, &t->alloc_nodes, 0, sizeof(*t->nodes)))
		return -ENOMEM;
	if (pki_grow_array((void **)&t->node_hash, &t->alloc_node_hash, 0, sizeof(*t->node_hash)))
		return -ENOMEM;
	/* the root has no parent, so no lookup ever matches it */
	t->nodes[0] = (struct pki_stack_node){.parent = UINT32_MAX};
	t->node_hash[0] = 0;
	t->nr_nodes = 1;
	return 0;
}

static struct pki_path_cache *path_cache(struct pki_stacks *t, const struct pk_thread *thread)
{
	return &t->paths[((uintptr_t)thread >> 6) % PKI_PATH_CACHE];
}

/* The trie node of a whole callchain (callee first in frames), reusing
 * what the thread's previous stack shares with it. */
static int64_t add_path(struct pki_stacks *t, const struct pk_thread *thread,
			const struct pk_frame *frames, size_t n)
{
	struct pki_path_cache *c = path_cache(t, thread);
	uint32_t up[PKI_PATH_MAX], leaf = 0, id;
	uint64_t hash[PKI_BATCH_MAX_CHAIN], h;
	size_t m = 0, same = 0;

	if (n > PKI_BATCH_MAX_CHAIN)
		return -EINVAL;
	/* the previous path, leaf first (none when deeper than up[]) */
	for (id = c->thread == thread ? c->leaf : 0; id && m < PKI_PATH_MAX;
	     id = t->nodes[id].parent)
		up[m++] = id;
	if (id)
		m = 0;
	/* from the outermost caller down: the frames it shares */
	while (same < n && same < m &&
	       loc_same(&t->nodes[up[m - 1 - same]].loc, &frames[n - 1 - same].loc))
		same++;
	leaf = same ? up[m - same] : 0;
	/* the rest of the path: every slot asked for before any is read */
	h = t->node_hash[leaf];
	for (size_t d = same; d < n; d++) {
		hash[d] = h = path_hash(h, &frames[n - 1 - d].loc);
		if (t->node_tab.nr_slots)
			__builtin_prefetch(node_slot(t, h));
	}
	for (size_t d = same; d < n; d++) {
		int64_t child;

		/* the next node, its slot in by now */
		if (d + 1 < n && t->node_tab.nr_slots) {
			uint64_t next = *node_slot(t, hash[d + 1]);

			if (next && slot_tag_is(next, hash[d + 1]))
				__builtin_prefetch(&t->nodes[slot_id(next)]);
		}
		if ((child = node_id(t, leaf, &frames[n - 1 - d].loc, hash[d])) < 0)
			return child;
		leaf = (uint32_t)child;
	}
	c->thread = thread;
	c->leaf = leaf;
	return leaf;
}

/* ---- stacks ------------------------------------------------------------ */

/* One location into a running hash: the recorded address, symbol and
 * cpumode nearly always tell locations apart. */
static inline uint64_t fold_loc(uint64_t h, const struct pk_location *l)
{
	h = (h ^ l->ip ^ ((uintptr_t)l->sym << 7) ^ ((uint64_t)l->cpumode << 61)) *
	    0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

/* A stack is known by its content: key fields, location and every frame,
 * so a stack seen before is found without building its path (most
 * samples repeat one). */
static uint64_t stack_content_hash(const struct pki_stack *k, const struct pk_location *loc,
				   const struct pk_frame *frames, size_t n)
{
	uint64_t h = mix((uintptr_t)k->attr, (uintptr_t)k->comm ^ ((uintptr_t)k->trace << 17) ^
						   ((uintptr_t)k->parent << 29));

	h = mix(h, (uintptr_t)k->thread ^ ((uint64_t)k->cpu << 48) ^ k->time);
	h = fold_loc(h, loc);
	for (size_t i = 0; i < n; i++)
		h = fold_loc(h, &frames[i].loc);
	return mix(h, n);
}

static uint64_t stack_hash_id(const void *ctx, uint32_t id)
{
	return ((const struct pki_stacks *)ctx)->v[id].hash;
}

/* Whether the trie path ending at leaf holds exactly frames (callee
 * first); a stack seen before has its nodes in cache. */
static bool path_is(const struct pki_stacks *t, uint32_t leaf, const struct pk_frame *frames,
		    size_t n)
{
	uint32_t id = leaf;

	for (size_t i = 0; i < n; i++, id = t->nodes[id].parent)
		if (!id || !loc_same(&t->nodes[id].loc, &frames[i].loc))
			return false;
	return !id;
}

static bool stack_is(const struct pki_stacks *t, const struct pki_stack *s,
		     const struct pki_stack *k, const struct pk_location *loc,
		     const struct pk_frame *frames, size_t n)
{
	return s->hash == k->hash && s->attr == k->attr && s->comm == k->comm &&
	       s->trace == k->trace && s->parent == k->parent && s->time == k->time && s->thread == k->thread && s->cpu == k->cpu &&
	       loc_same(&t->locs[s->loc], loc) && path_is(t, s->leaf, frames, n);
}

/* The sample's place in the log (pki_stacks.log). */
static int log_sample(struct pki_stacks *t, uint32_t id, uint64_t period)
{
	struct pki_stack_run *r = t->nr_log ? &t->log[t->nr_log - 1] : NULL;

	if (r && r->stack == id && r->period == period && r->nr < UINT32_MAX) {
		r->nr++;
		return 0;
	}
	if (pki_grow_array((void **)&t->log, &t->alloc_log, t->nr_log, sizeof(*t->log)))
		return -ENOMEM;
	t->log[t->nr_log++] = (struct pki_stack_run){.stack = id, .nr = 1, .period = period};
	return 0;
}

static bool has_unresolved(const struct pki_stacks *t, const struct pk_location *loc,
			   const struct pk_frame *frames, size_t n)
{
	if (!loc->sym)
		return true;
	for (size_t i = 0; t->log_frames && i < n; i++)
		if (!frames[i].loc.sym)
			return true;
	return false;
}

int pki_stacks_add(struct pki_stacks *t, struct pki_stack *k, const struct pk_location *loc,
		   const struct pk_frame *frames, size_t nr_frames)
{
	int64_t id;
	uint64_t slot;
	size_t j;

	if (init_root(t) || idtab_grow(&t->stack_tab, t->nr, stack_hash_id, t))
		return -ENOMEM;
	if (!t->paths && !(t->paths = calloc(PKI_PATH_CACHE, sizeof(*t->paths))))
		return -ENOMEM;
	for (j = k->hash & (t->stack_tab.nr_slots - 1); (slot = t->stack_tab.slots[j]);
	     j = (j + 1) & (t->stack_tab.nr_slots - 1)) {
		struct pki_stack *s = &t->v[slot_id(slot)];

		if (slot_tag_is(slot, k->hash) && stack_is(t, s, k, loc, frames, nr_frames)) {
			*path_cache(t, k->first_thread) = (struct pki_path_cache){k->first_thread,
										  s->leaf};
			s->period += k->period;
			s->count += k->count;
			if (t->log_mode == 2 || (t->log_mode == 1 && s->unresolved))
				return log_sample(t, slot_id(slot), k->period);
			return 0;
		}
	}
	/* a new stack: its path and location are stored once */
	k->leaf = 0;
	if (nr_frames && (id = add_path(t, k->first_thread, frames, nr_frames)) < 0)
		return (int)id;
	if (nr_frames)
		k->leaf = (uint32_t)id;
	if ((id = loc_id(t, loc)) < 0)
		return (int)id;
	k->loc = (uint32_t)id;
	if (pki_grow_array((void **)&t->v, &t->alloc, t->nr, sizeof(*t->v)))
		return -ENOMEM;
	/* first_thread and first_cpu are not part of the key: they stay those
	 * of the first sample, as the entries' do */
	t->v[t->nr] = *k;
	t->v[t->nr].unresolved =
		t->log_mode && (k->unresolved || has_unresolved(t, loc, frames, nr_frames));
	t->nr_walk_keys += nr_frames + 1;
	t->stack_tab.slots[j] = slot_make(k->hash, (uint32_t)t->nr++);
	return t->log_mode ? log_sample(t, (uint32_t)t->nr - 1, k->period) : 0;
}

uint64_t pki_stacks_hash(const struct pki_stack *k, const struct pk_location *loc,
			 const struct pk_frame *frames, size_t nr_frames)
{
	return stack_content_hash(k, loc, frames, nr_frames);
}

void pki_stacks_prefetch(const struct pki_stacks *t, uint64_t hash, int step)
{
	const uint64_t *at;
	const struct pki_stack *s;

	if (!t->stack_tab.nr_slots)
		return;
	at = &t->stack_tab.slots[hash & (t->stack_tab.nr_slots - 1)];
	if (!step) {
		__builtin_prefetch(at);
		return;
	}
	if (!*at || !slot_tag_is(*at, hash))
		return;
	s = &t->v[slot_id(*at)];
	if (step == 1) {
		__builtin_prefetch(s);
		return;
	}
	__builtin_prefetch(&t->locs[s->loc]);
	__builtin_prefetch(&t->nodes[s->leaf]);
}

const struct pk_location *pki_stacks_loc(const struct pki_stacks *t, const struct pki_stack *s)
{
	return &t->locs[s->loc];
}

size_t pki_stacks_frames(const struct pki_stacks *t, const struct pki_stack *s,
			 struct pk_frame *out, size_t max)
{
	size_t n = 0;

	/* leaf to root: callee first, as pk_session_callchain() gives them */
	for (uint32_t id = s->leaf; id != 0 && n < max; id = t->nodes[id].parent)
		out[n++].loc = t->nodes[id].loc;
	return n;
}

size_t pki_stacks_path(const struct pki_stacks *t, const struct pki_stack *s,
		       struct pk_frame *out, uint32_t *nodes, size_t max)
{
	size_t n = 0;

	for (uint32_t id = s->leaf; id != 0 && n < max; id = t->nodes[id].parent) {
		nodes[n] = id;
		out[n++].loc = t->nodes[id].loc;
	}
	return n;
}

void pki_stacks_ahead(const struct pki_stacks *t, struct pki_path_ahead *a, size_t s)
{
	const struct pki_stack *st;

	for (size_t k = 1; k < PKI_PATH_AHEAD; k++) {
		uint32_t *at = &a->node[(s + k) % PKI_PATH_AHEAD];

		if (*at && (*at = t->nodes[*at].parent))
			__builtin_prefetch(&t->nodes[*at]);
	}
	if (s + PKI_PATH_AHEAD >= t->nr)
		return;
	/* stack s's place in the ring, free now */
	st = &t->v[s + PKI_PATH_AHEAD];
	a->node[s % PKI_PATH_AHEAD] = st->leaf;
	__builtin_prefetch(&t->nodes[st->leaf]);
	__builtin_prefetch(&t->locs[st->loc]);
}

/* An array cut to its elements (kept as it is if realloc fails). */
static void trim(void **v, size_t *alloc, size_t nr, size_t elem)
{
	void *p = nr ? realloc(*v, nr * elem) : NULL;

	if (p) {
		*v = p;
		*alloc = nr;
	}
}

void pki_stacks_seal(struct pki_stacks *t)
{
	free(t->paths);
	free(t->stack_tab.slots);
	free(t->loc_tab.slots);
	free(t->node_tab.slots);
	free(t->node_hash);
	t->node_hash = NULL;
	t->alloc_node_hash = 0;
	t->paths = NULL;
	t->stack_tab = t->loc_tab = t->node_tab = (struct pki_idtab){0};
	trim((void **)&t->v, &t->alloc, t->nr, sizeof(*t->v));
	trim((void **)&t->locs, &t->alloc_locs, t->nr_locs, sizeof(*t->locs));
	trim((void **)&t->nodes, &t->alloc_nodes, t->nr_nodes, sizeof(*t->nodes));
	trim((void **)&t->log, &t->alloc_log, t->nr_log, sizeof(*t->log));
}

void pki_stacks_free(struct pki_stacks *t)
{
	free(t->paths);
	free(t->v);
	free(t->stack_tab.slots);
	free(t->locs);
	free(t->loc_tab.slots);
	free(t->nodes);
	free(t->node_tab.slots);
	free(t->node_hash);
	free(t->dsos);
	free(t->log);
	memset(t, 0, sizeof(*t));
}
