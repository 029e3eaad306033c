// SPDX-License-Identifier: MIT
/*
 * Call trees of histogram entries: one node per distinct call path
 * prefix, so memory grows with the unique paths, not with the samples.
 * Chains are merged frame by frame; two frames are the same node when they
 * are in the same symbol (same DSO and symbol start), or, when one is
 * unresolved, at the same DSO and address, or, when one is an inlined
 * frame, of the same name, as perf compares them.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "hist_internal.h"
#include "rbidx.h"
/* pk_dso.serial: the order DSOs were created in */
#include "session/session_internal.h"

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* perf orders DSOs by address, which follows their creation order */
static int64_t rank_of(const struct pk_dso *d)
{
	return d ? (int64_t)d->serial : -1;
}

/* perf's match_chain: a frame in an inlined symbol (whose range is its
 * function's) is told apart by name alone, whatever its DSO or the
 * function it was inlined into; other frames by DSO, then symbol start,
 * or address when unresolved. */
static bool by_name(const struct pk_symbol *sa, const struct pk_symbol *sb)
{
	return sa && sb && (sa->inlined || sb->inlined);
}

static int cmp_frame(const struct pk_dso *da, const struct pk_symbol *sa, uint64_t ipa,
		     const struct pk_dso *db, const struct pk_symbol *sb, uint64_t ipb)
{
	if (by_name(sa, sb)) {
		int c = strcmp(sa->name, sb->name);

		return c < 0 ? -1 : c > 0;
	}
	if (da != db) {
		int64_t ra = rank_of(da), rb = rank_of(db);

		return ra < rb ? -1 : ra > rb;
	}
	if (sa && sb)
		return cmp_u64(sa->start, sb->start);
	return cmp_u64(ipa, ipb);
}

/* !cmp_frame(), without its rank lookups: distinct DSOs never have the
 * same rank, so only equality matters here (the hot path of merging). */
static bool same_frame(const struct pk_callchain_node *n, const struct pk_location *loc)
{
	if (by_name(n->sym, loc->sym))
		return !strcmp(n->sym->name, loc->sym->name);
	if (n->dso != loc->dso)
		return false;
	if (n->sym && loc->sym)
		return n->sym->start == loc->sym->start;
	return n->ip == loc->ip;
}

/*
 * Nodes live in the arena of their hist and are never freed one by one:
 * trees only grow while the hist is built and all go together.  Each node
 * keeps, beside its children, their lookup keys in a plain array, so
 * finding a child scans contiguous words instead of visiting every child.
 *
 * perf keeps a node's children in a red-black tree ordered by
 * cmp_frame(), which is no total order once one DSO has children with a
 * symbol and without one (the first compare by symbol start among
 * themselves, by address with the others): a lookup may then miss an
 * equal child and add a second one beside it.  From the first such mix
 * on, a node's children are kept in perf's tree too (struct cc_rb) and
 * looked up through it.
 */
struct cc_node {
	struct pk_callchain_node pub;
	uint64_t *keys;	       /* per child: symbol start, or address */
	struct cc_node *last;  /* the child found last: mostly the next one */
	union {
		uint32_t *index;  /* once many children: child + 1 by key hash */
		struct cc_rb *rb; /* mixed: the children in perf's tree */
	};
	uint32_t index_mask;
	uint16_t kinds;		   /* kind_bit() of every child */
	bool inlined_children : 1; /* some child is an inlined frame */
	bool partial : 1;	   /* a root whose chains are not kept */
	bool mixed : 1;		   /* children looked up in rb */
};

/* perf's tree of a mixed node's children: slot i is the i-th child made
 * (perf's insertion order), whatever order the children array is in. */
struct cc_rb {
	struct pki_rbidx t;
	struct cc_node **by_slot;
	uint32_t cap;
};

/* Children scanned in a row up to this many; beyond, found by hash (an
 * entry's root can have thousands: every garbage frame is one). */
#define INDEX_FROM 16

static uint64_t frame_key(const struct pk_symbol *sym, uint64_t ip)
{
	return sym ? sym->start : ip;
}

#define ARENA_CHUNK (1u << 20)

struct arena_chunk {
	struct arena_chunk *next;
	max_align_t data[];
};

/* Zeroed memory that lives until pki_arena_free(). */
static void *arena_alloc(struct pki_arena *a, size_t size)
{
	/* 8-byte alignment is all the nodes and their arrays need */
	size = (size + 7) & ~(size_t)7;
	if (size > a->left) {
		size_t n = size > ARENA_CHUNK / 4 ? size : ARENA_CHUNK;
		struct arena_chunk *c = pki_calloc_hot(1, sizeof(*c) + n);

		if (!c)
			return NULL;
		if (n != ARENA_CHUNK) {
			/* a large block: its own chunk, the current one goes on */
			c->next = a->chunks ? a->chunks->next : NULL;
			if (a->chunks)
				a->chunks->next = c;
			else
				a->chunks = c;
			return c->data;
		}
		c->next = a->chunks;
		a->chunks = c;
		a->cur = (char *)c->data;
		a->left = n;
	}
	a->cur += size;
	a->left -= size;
	return a->cur - size;
}

/* No merge noted, and none to be. */
static void drop_deferred(struct pki_arena *a)
{
	free(a->deferred);
	a->deferred = NULL;
	a->nr_deferred = a->alloc_deferred = 0;
	a->defer = false;
}

int pki_arena_merge_deferred(struct pki_arena *a)
{
	int err = 0;

	a->defer = false;
	for (size_t i = 0; i < a->nr_deferred && !err; i++)
		err = pki_callchain_merge(a, &a->deferred[i].dst, a->deferred[i].src);
	drop_deferred(a);
	return err;
}

void pki_arena_free(struct pki_arena *a)
{
	while (a->chunks) {
		struct arena_chunk *next = a->chunks->next;

		free(a->chunks);
		a->chunks = next;
	}
	a->cur = NULL;
	a->left = 0;
	drop_deferred(a);
}

static uint32_t key_slot(uint64_t key, uint32_t mask)
{
	return (uint32_t)((key * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

static void index_put(struct cc_node *p, uint32_t i)
{
	uint32_t j = key_slot(p->keys[i], p->index_mask);

	while (p->index[j])
		j = (j + 1) & p->index_mask;
	p->index[j] = i + 1;
}

/* The hash index of p's children, kept at most a quarter full; rebuilt
 * twice as large when it fills (old ones stay in the arena). */
static int index_add(struct pki_arena *a, struct cc_node *p)
{
	uint32_t n = p->pub.nr_children, cap = 64;

	if (n < INDEX_FROM || p->mixed)
		return 0;
	if (p->index && n * 4 <= p->index_mask + 1) {
		index_put(p, n - 1);
		return 0;
	}
	while (cap < n * 8)
		cap *= 2;
	p->index = arena_alloc(a, cap * sizeof(*p->index));
	if (!p->index)
		return -ENOMEM;
	p->index_mask = cap - 1;
	for (uint32_t i = 0; i < n; i++)
		index_put(p, i);
	return 0;
}

/* ---- mixed nodes: children in perf's tree ------------------------------ */

/* A child's DSO (three bits of its rank) in the low byte when it has a
 * symbol, in the high byte when not: a DSO with both has a bit in each. */
static uint16_t kind_bit(const struct pk_dso *dso, const struct pk_symbol *sym)
{
	uint32_t bit = (uint32_t)(rank_of(dso) & 7);

	return (uint16_t)(1u << (bit + (sym ? 0 : 8)));
}

/* Beyond this many children a likely mix is taken as one: kept in perf's
 * tree while their comparisons still agree, lookups end where they do in
 * a plain search. */
#define MIX_SCAN 64

/* Whether loc's frame, new to p, would make p mixed: beside an inlined
 * frame (compared by name with frames that have a symbol, which compare
 * by address among themselves), or in a DSO with the other kind. */
static bool mixes(const struct cc_node *p, const struct pk_location *loc)
{
	uint16_t bit = kind_bit(loc->dso, loc->sym);

	if (p->pub.nr_children && (p->inlined_children || (loc->sym && loc->sym->inlined)))
		return true;
	uint16_t other = loc->sym ? (uint16_t)(bit << 8) : (uint16_t)(bit >> 8);

	if (!(p->kinds & other))
		return false;
	if (p->pub.nr_children > MIX_SCAN)
		return true;
	for (uint32_t i = 0; i < p->pub.nr_children; i++) {
		const struct pk_callchain_node *c = p->pub.children[i];

		if (c->dso == loc->dso && !c->sym != !loc->sym)
			return true;
	}
	return false;
}

/* Room for slots [0, need) in rb; the old arrays stay in the arena. */
static int rb_room(struct pki_arena *a, struct cc_rb *rb, uint32_t need)
{
	uint32_t cap = rb->cap ? rb->cap : 8, *idx;
	struct cc_node **by;
	bool *red;

	while (cap < need)
		cap *= 2;
	if (cap == rb->cap)
		return 0;
	idx = arena_alloc(a, 3 * (size_t)cap * sizeof(*idx));
	red = arena_alloc(a, cap * sizeof(*red));
	by = arena_alloc(a, cap * sizeof(*by));
	if (!idx || !red || !by)
		return -ENOMEM;
	if (rb->cap) {
		memcpy(idx, rb->t.left, rb->cap * sizeof(*idx));
		memcpy(idx + cap, rb->t.right, rb->cap * sizeof(*idx));
		memcpy(idx + 2 * (size_t)cap, rb->t.parent, rb->cap * sizeof(*idx));
		memcpy(red, rb->t.red, rb->cap * sizeof(*red));
		memcpy(by, rb->by_slot, rb->cap * sizeof(*by));
	}
	rb->t.left = idx;
	rb->t.right = idx + cap;
	rb->t.parent = idx + 2 * (size_t)cap;
	rb->t.red = red;
	rb->by_slot = by;
	rb->cap = cap;
	return 0;
}

/*
 * perf's lookup of frame (dso, sym, ip) among the children: it compares
 * each child met with the new frame, cmp_frame(child, new), and goes left
 * when that is negative.  Returns the equal child met (unless
 * past_equal: then it goes on to the right), else NULL with *at and *left
 * where a new child hangs.
 */
static struct cc_node *rb_find(const struct cc_rb *rb, const struct pk_dso *dso,
			       const struct pk_symbol *sym, uint64_t ip, bool past_equal,
			       uint32_t *at, bool *left)
{
	uint32_t cur = rb->t.root;

	*at = PKI_RBIDX_NIL;
	*left = false;
	while (cur != PKI_RBIDX_NIL) {
		struct cc_node *c = rb->by_slot[cur];
		int cmp = cmp_frame(c->pub.dso, c->pub.sym, c->pub.ip, dso, sym, ip);

		if (!cmp && !past_equal)
			return c;
		*at = cur;
		*left = cmp < 0;
		cur = *left ? rb->t.left[cur] : rb->t.right[cur];
	}
	return NULL;
}

static int rb_insert(struct pki_arena *a, struct cc_rb *rb, struct cc_node *c, uint32_t slot,
		     uint32_t at, bool left)
{
	if (rb_room(a, rb, slot + 1))
		return -ENOMEM;
	rb->by_slot[slot] = c;
	pki_rbidx_link(&rb->t, slot, at, left);
	return 0;
}

/* p becomes mixed: its children go into perf's tree in the order they
 * were made, the order perf inserted them in, with comparisons that
 * agreed so far (the same tree perf has). */
static int rb_build(struct pki_arena *a, struct cc_node *p)
{
	struct cc_rb *rb = arena_alloc(a, sizeof(*rb));

	if (!rb)
		return -ENOMEM;
	rb->t.root = PKI_RBIDX_NIL;
	for (uint32_t i = 0; i < p->pub.nr_children; i++) {
		struct cc_node *c = (struct cc_node *)p->pub.children[i];
		uint32_t at;
		bool left;

		rb_find(rb, c->pub.dso, c->pub.sym, c->pub.ip, true, &at, &left);
		if (rb_insert(a, rb, c, i, at, left))
			return -ENOMEM;
	}
	p->rb = rb; /* the hash index is no longer read */
	p->mixed = true;
	return 0;
}

/* The children's tree_rank: their place in perf's tree. */
static void rb_ranks(const struct cc_rb *rb)
{
	uint32_t k = 0;

	for (uint32_t x = pki_rbidx_first(&rb->t); x != PKI_RBIDX_NIL;
	     x = pki_rbidx_next(&rb->t, x))
		rb->by_slot[x]->pub.tree_rank = k++;
}

/* Children arrays grow by doubling: capacity is the next power of two.
 * The old arrays stay in the arena (at most as much again). */
static int add_child(struct pki_arena *a, struct cc_node *parent, struct cc_node *child,
		     uint64_t key)
{
	uint32_t n = parent->pub.nr_children;

	if (!(n & (n - 1))) {
		uint32_t cap = n ? n * 2 : 1;
		struct pk_callchain_node **v = arena_alloc(a, cap * sizeof(*v));
		uint64_t *k = arena_alloc(a, cap * sizeof(*k));

		if (!v || !k)
			return -ENOMEM;
		if (n) {
			memcpy(v, parent->pub.children, n * sizeof(*v));
			memcpy(k, parent->keys, n * sizeof(*k));
		}
		parent->pub.children = v;
		parent->keys = k;
	}
	parent->pub.children[n] = &child->pub;
	parent->keys[n] = key;
	parent->pub.nr_children = n + 1;
	parent->kinds |= kind_bit(child->pub.dso, child->pub.sym);
	return index_add(a, parent);
}

/* The child that is loc's frame: by key first, the common case; a frame
 * told apart by name may also be a child of another key (the same
 * function inlined into another one, or its real symbol). */
static struct cc_node *find_child(struct cc_node *parent, const struct pk_location *loc,
				  uint64_t key)
{
	bool inl = loc->sym && loc->sym->inlined;

	/* without inlined frames (told apart by name) a frame equals one
	 * child at most, so the last one found can be tried first: its node
	 * is read next anyway, the children's arrays need not be */
	if (parent->last && !inl && !parent->inlined_children && same_frame(&parent->last->pub, loc))
		return parent->last;
	if (parent->index) {
		uint32_t j = key_slot(key, parent->index_mask), v;

		for (; (v = parent->index[j]); j = (j + 1) & parent->index_mask)
			if (parent->keys[v - 1] == key && same_frame(parent->pub.children[v - 1], loc))
				return (struct cc_node *)parent->pub.children[v - 1];
	} else {
		for (uint32_t i = 0; i < parent->pub.nr_children; i++)
			if (parent->keys[i] == key && same_frame(parent->pub.children[i], loc))
				return (struct cc_node *)parent->pub.children[i];
	}
	if (!loc->sym || (!inl && !parent->inlined_children))
		return NULL;
	for (uint32_t i = 0; i < parent->pub.nr_children; i++) {
		const struct pk_callchain_node *c = parent->pub.children[i];

		if ((inl || (c->sym && c->sym->inlined)) && same_frame(c, loc))
			return (struct cc_node *)c;
	}
	return NULL;
}

/* A new child of parent for frame (dso, sym, ip), last of its children. */
static struct cc_node *new_child(struct pki_arena *a, struct cc_node *parent,
				 const struct pk_dso *dso, const struct pk_symbol *sym, uint64_t ip)
{
	struct cc_node *c = arena_alloc(a, sizeof(*c));

	if (!c)
		return NULL;
	c->pub.sym = sym;
	c->pub.dso = dso;
	c->pub.ip = ip;
	c->pub.parent = &parent->pub;
	if (add_child(a, parent, c, frame_key(sym, ip)))
		return NULL;
	if (sym && sym->inlined)
		parent->inlined_children = true;
	return c;
}

/* The child of a mixed node that perf's lookup of loc's frame gives: the
 * one it meets, or a new one where its search ends. */
static struct cc_node *rb_child(struct pki_arena *a, struct cc_node *p,
				const struct pk_location *loc)
{
	uint32_t at, slot = p->pub.nr_children;
	bool left;
	struct cc_node *c = rb_find(p->rb, loc->dso, loc->sym, loc->ip, false, &at, &left);

	if (c)
		return c;
	c = new_child(a, p, loc->dso, loc->sym, loc->ip);
	if (!c || rb_insert(a, p->rb, c, slot, at, left))
		return NULL;
	return c;
}

/* The child of parent for loc's frame, made when there is none.  Until a
 * node is mixed perf's lookups find what a search for an equal one does. */
static struct cc_node *child_of(struct pki_arena *a, struct cc_node *parent,
				const struct pk_location *loc)
{
	uint64_t key;
	struct cc_node *c;

	if (parent->mixed)
		return parent->last = rb_child(a, parent, loc);
	key = frame_key(loc->sym, loc->ip);
	c = find_child(parent, loc, key);
	if (!c && mixes(parent, loc))
		c = rb_build(a, parent) ? NULL : rb_child(a, parent, loc);
	else if (!c)
		c = new_child(a, parent, loc->dso, loc->sym, loc->ip);
	return parent->last = c;
}

/* *root, made when it is NULL. */
static struct pk_callchain_node *callchain_root(struct pki_arena *a,
					       struct pk_callchain_node **root)
{
	struct cc_node *n = (struct cc_node *)*root;

	if (!n && (n = arena_alloc(a, sizeof(*n))))
		*root = &n->pub;
	return n ? &n->pub : NULL;
}

int pki_callchain_partial(struct pki_arena *a, struct pk_callchain_node **root, uint32_t max_depth)
{
	struct cc_node *n = (struct cc_node *)callchain_root(a, root);

	if (!n)
		return -ENOMEM;
	n->partial = true;
	if (max_depth > n->pub.max_depth)
		n->pub.max_depth = max_depth;
	return 0;
}

void pki_callchain_whole(struct pk_callchain_node *root)
{
	((struct cc_node *)root)->partial = false;
}

int pki_callchain_append(struct pki_arena *a, struct pk_callchain_node **root,
			 const struct pk_frame *frames, size_t first, size_t count, int step,
			 uint64_t period)
{
	struct cc_node *n = (struct cc_node *)callchain_root(a, root);

	if (!n)
		return -ENOMEM;
	if (count > n->pub.max_depth)
		n->pub.max_depth = (uint32_t)count;
	if (n->partial)
		return 0;
	for (size_t i = 0, f = first; i < count; i++, f += (size_t)(ptrdiff_t)step) {
		n->pub.children_hit += period;
		n = child_of(a, n, &frames[f].loc);
		if (!n)
			return -ENOMEM;
	}
	n->pub.hit += period;
	return 0;
}

static uint64_t cumul(const struct pk_callchain_node *n)
{
	return n->hit + n->children_hit;
}

/* perf's tree order: the higher frame first */
static int cmp_tree_order(const void *pa, const void *pb)
{
	const struct pk_callchain_node *a = *(const struct pk_callchain_node *const *)pa;
	const struct pk_callchain_node *b = *(const struct pk_callchain_node *const *)pb;

	return -cmp_frame(a->dso, a->sym, a->ip, b->dso, b->sym, b->ip);
}

static int cmp_nodes(const void *pa, const void *pb)
{
	const struct pk_callchain_node *a = *(const struct pk_callchain_node *const *)pa;
	const struct pk_callchain_node *b = *(const struct pk_callchain_node *const *)pb;

	if (cumul(a) != cumul(b))
		return cumul(a) > cumul(b) ? -1 : 1;
	return a->tree_rank < b->tree_rank ? -1 : a->tree_rank > b->tree_rank;
}

static void sort_tree(struct pk_callchain_node *n)
{
	const struct cc_node *c = (const struct cc_node *)n;

	if (n->nr_children > 1) {
		if (c->mixed) {
			rb_ranks(c->rb);
		} else {
			qsort(n->children, n->nr_children, sizeof(*n->children), cmp_tree_order);
			for (uint32_t i = 0; i < n->nr_children; i++)
				n->children[i]->tree_rank = i;
		}
		qsort(n->children, n->nr_children, sizeof(*n->children), cmp_nodes);
	}
	for (uint32_t i = 0; i < n->nr_children; i++)
		sort_tree(n->children[i]);
}

void pki_callchain_sort(struct pk_callchain_node *n)
{
	if (n)
		sort_tree(n);
}

/* A child of n equal to c, found without the lookup keys: those no longer
 * follow the children once a tree is sorted. */
static struct cc_node *merge_child(struct pki_arena *a, struct cc_node *n,
				   const struct pk_callchain_node *c)
{
	struct pk_location loc = {.dso = c->dso, .sym = c->sym, .ip = c->ip};

	if (n->mixed)
		return rb_child(a, n, &loc);
	for (uint32_t i = 0; i < n->pub.nr_children; i++)
		if (same_frame(n->pub.children[i], &loc))
			return (struct cc_node *)n->pub.children[i];
	/* a sorted node's children are no longer in the order they were
	 * made: a tree built from them now is only near perf's */
	if (mixes(n, &loc))
		return rb_build(a, n) ? NULL : rb_child(a, n, &loc);
	/* keys are only read by child_of(), never again for this tree */
	return new_child(a, n, c->dso, c->sym, c->ip);
}

static int merge_into(struct pki_arena *a, struct cc_node *d, const struct pk_callchain_node *s)
{
	d->pub.hit += s->hit;
	d->pub.children_hit += s->children_hit;
	for (uint32_t i = 0; i < s->nr_children; i++) {
		struct cc_node *m = merge_child(a, d, s->children[i]);

		if (!m || merge_into(a, m, s->children[i]))
			return -ENOMEM;
	}
	return 0;
}

/* The merge noted to be made later: dst's root is made now; its depth,
 * which orders the entries, stays its own (pki_callchain_merge()). */
static int defer_merge(struct pki_arena *a, struct cc_node *d, const struct pk_callchain_node *src)
{
	if (pki_grow_array((void **)&a->deferred, &a->alloc_deferred, a->nr_deferred,
			   sizeof(*a->deferred)))
		return -ENOMEM;
	a->deferred[a->nr_deferred++] = (struct pki_merge){&d->pub, src};
	return 0;
}

static uint32_t held_depth(const struct pk_callchain_node *n, uint32_t depth)
{
	uint32_t best = n->hit ? depth : 0;

	for (uint32_t i = 0; i < n->nr_children; i++) {
		uint32_t d = held_depth(n->children[i], depth + 1);

		if (d > best)
			best = d;
	}
	return best;
}

void pki_callchain_redepth(struct pk_callchain_node *root)
{
	root->max_depth = held_depth(root, 0);
}

int pki_callchain_merge(struct pki_arena *a, struct pk_callchain_node **dst,
			const struct pk_callchain_node *src)
{
	struct cc_node *d = (struct cc_node *)callchain_root(a, dst);
	int err;

	if (!d)
		return -ENOMEM;
	/* perf's merge keeps dst's depth: equal entries are ordered by the
	 * depth of the one its collapsed tree met first, not the merged one */
	if (a->defer)
		return defer_merge(a, d, src);
	err = merge_into(a, d, src);
	if (!err)
		sort_tree(&d->pub);
	return err;
}
