/* SPDX-License-Identifier: MIT */
/* Histogram internals shared by the report module's files. */
#ifndef PK_HIST_INTERNAL_H
#define PK_HIST_INTERNAL_H

#include <pthread.h>
#include <perfkit/report.h>
#include <perfkit/session.h>
#include "rbidx.h"

struct pki_hist_filter {
	char **comms, **dsos, **symbols;
	size_t nr_comms, nr_dsos, nr_symbols;
	/* --symbols entries that read as hex numbers: addresses (perf) */
	uint64_t *sym_addrs;
	size_t nr_sym_addrs;
	bool has_symbols; /* --symbols given, whatever it holds */
	int32_t *pids, *tids;
	size_t nr_pids, nr_tids;
};

int pki_hist_filter_init(struct pki_hist_filter *f, const struct pk_hist_opts *opts);
void pki_hist_filter_free(struct pki_hist_filter *f);
bool pki_hist_filter_thread(const struct pki_hist_filter *f, const char *comm, int32_t pid,
			    int32_t tid);
bool pki_hist_filter_location(const struct pki_hist_filter *f, const struct pk_location *loc);

/* Interned strings (hist_strtab.c): the same string, the same pointer. */
struct pki_strtab {
	char **slots;
	size_t nr, nr_slots;
};

/* s's interned copy (owned by t), NULL when out of memory. */
const char *pki_strtab_intern(struct pki_strtab *t, const char *s);
void pki_strtab_free(struct pki_strtab *t);

/* Sort entries the way perf prints them. */
void pki_hist_sort(struct pk_hist_entry *v, uint64_t n, const enum pk_hist_key *keys,
		   uint32_t nr_keys, bool children, int callchain);
/* How many of perf's grouping trees an entry goes through: the input
 * tree, and the collapsed one when a key needs it. */
int pki_hist_grouping_passes(const enum pk_hist_key *keys, uint32_t nr_keys);
/* The group view's steps of the same: passes of perf's grouping trees
 * over entries in creation order (0: none, 1: input tree, 2: and
 * collapsed tree),
 * pki_hist_link() (hist_sort.c), then the output order, where group
 * entries' members break ties. */
void pki_hist_sort_input(struct pk_hist_entry *v, uint64_t n, const enum pk_hist_key *keys,
			 uint32_t nr_keys, int passes);
void pki_hist_sort_output(struct pk_hist_entry *v, uint64_t n, const enum pk_hist_key *keys,
			  uint32_t nr_keys, bool children, int callchain, uint32_t nr_members);
/*
 * perf's last grouping tree of a group leader with its members linked in:
 * v[0, start[1]) are the leader's entries in the order they enter it,
 * v[start[m], start[m + 1]) member m's in the order of its last tree.  Sets
 * node[i] to the tree entry v[i] landed in (i itself for the leader's and
 * for those new to the tree), and order[] to the tree's entries in order
 * (*nr_order of them).  node and order: start[nr_members] each.
 */
int pki_hist_link(const struct pk_hist_entry *v, const uint64_t *start, uint32_t nr_members,
		  const enum pk_hist_key *keys, uint32_t nr_keys, uint32_t *node, uint32_t *order,
		  uint64_t *nr_order);

/* One event's entries, for the group view (hist_group.c). */
struct pki_hist_part {
	struct pk_hist_entry *v;	/* creation order; reordered */
	uint64_t nr;
};

/*
 * A group leader's entries in perf's group view: parts[0] the leader's,
 * then each member's.  *out gets the new entries in output order (the
 * leader's callchains move there; parts[0].v is freed), *values their
 * members' values (*nr_out * nr_members).
 */
int pki_hist_group(struct pki_hist_part *parts, uint32_t nr_members,
		   const enum pk_hist_key *keys, uint32_t nr_keys, bool children, int callchain,
		   struct pk_hist_entry **out, uint64_t *nr_out, struct pk_hist_value **values);

/* The view's options that shape the histogram (hist_view.c): the frames
 * of a callchain --max-stack uses, and the frames -U leaves (how many). */
size_t pki_hist_max_stack(int32_t opt, size_t dflt);
size_t pki_frames_drop_unresolved(struct pk_frame *frames, size_t n);
/* The callchain of ev as the histogram uses it: at most max_stack frames,
 * the outermost ones in caller order. */
size_t pki_hist_callchain(bool caller, struct pk_session *s, const struct pk_session_sample *ev,
			  struct pk_frame *frames, size_t cap, size_t max_stack);

/* Memory of the call trees, all freed together. */
struct arena_chunk;
struct pki_arena {
	struct arena_chunk *chunks;	/* the current one first */
	char *cur;
	size_t left;
	/* while another thread sorts the trees: merges into them, noted */
	bool defer;
	struct pki_merge {
		struct pk_callchain_node *dst;
		const struct pk_callchain_node *src;
	} *deferred;
	size_t nr_deferred, alloc_deferred;
};

/* Add the frames first, first + step, ... (count of them) of a chain with
 * its period to the tree *root (created when NULL). */
int pki_callchain_append(struct pki_arena *a, struct pk_callchain_node **root,
			 const struct pk_frame *frames, size_t first, size_t count, int step,
			 uint64_t period);
/* A root that keeps no chains, only the longest one's depth (max_depth
 * at least); later appends to it only raise that (*root made when NULL). */
int pki_callchain_partial(struct pki_arena *a, struct pk_callchain_node **root, uint32_t max_depth);
/* A partial root keeps its chains again from now on. */
void pki_callchain_whole(struct pk_callchain_node *root);
/* Order every node's children as perf prints them. */
void pki_callchain_sort(struct pk_callchain_node *n);
/* root's max_depth made that of the chains it still holds (those whose
 * end has a period left): samples taken out of a whole tree leave their
 * nodes behind, empty. */
void pki_callchain_redepth(struct pk_callchain_node *root);
/* Add the tree src into *dst (created when NULL); the result is sorted
 * again.  *dst keeps its
 * max_depth, as perf's merge of collapsed entries does. */
int pki_callchain_merge(struct pki_arena *a, struct pk_callchain_node **dst,
			const struct pk_callchain_node *src);
/* Frees every tree built in the arena. */
void pki_arena_free(struct pki_arena *a);
/* The merges noted while a->defer, made (merged trees sorted again); defer
 * ends.  0 or -ENOMEM. */
int pki_arena_merge_deferred(struct pki_arena *a);

/* A distinct stack and what its samples add up to (hist_stacks.c). */
struct pki_stack {
	const struct pk_attr *attr;
	const char *comm;		/* interned: the comm at sample time */
	const char *trace;		/* interned: the trace key's, or NULL */
	const char *parent;		/* interned: the parent key's, or NULL */
	uint64_t time;			/* the time key's, or 0 */
	const struct pk_thread *thread;	/* NULL unless a key or filter needs it */
	const struct pk_thread *first_thread;	/* of its first sample */
	uint64_t period, count;
	uint64_t hash;
	uint32_t cpu;			/* 0 unless the cpu key is used */
	uint32_t first_cpu;
	uint32_t loc;			/* the sample ip's location (index) */
	uint32_t leaf;			/* its callchain: a trie node, 0 = none */
	bool unresolved;		/* a location without a symbol in it, or
					 * unwound frames: every sample is logged */
};

/* Samples of one stack in a row, with the same period. */
struct pki_stack_run {
	uint32_t stack;
	uint32_t nr;
	uint64_t period;
};

/* The replay's last key at a location (hist_replay.c): its entry for
 * this comm and event, which the next stack there with them finds without
 * a lookup. */
struct pki_key_memo {
	uint32_t entry;
	uint32_t event;			/* attr index + 1, 0: none */
	const char *comm;
};

struct pki_stack_node {
	struct pk_location loc;
	uint32_t parent;		/* towards the outermost caller */
	uint32_t depth;			/* frames from the root, this one's too */
	struct pki_key_memo memo;	/* fills the node's cache line */
};

struct pki_idtab {
	uint64_t *slots;		/* hash tag, index + 1; open addressing */
	size_t nr_slots;
};

#define PKI_PATH_CACHE 64
#define PKI_PATH_MAX 127

/* The stack last added for a thread (its trie leaf): the thread's next
 * sample mostly shares a long prefix of its path, which a new stack then
 * reuses without lookups. */
struct pki_path_cache {
	const struct pk_thread *thread;
	uint32_t leaf;
};

struct pki_stacks {
	struct pki_path_cache *paths;	/* PKI_PATH_CACHE, by thread */
	struct pki_stack *v;		/* in the order first seen */
	size_t nr, alloc;
	struct pki_idtab stack_tab;
	struct pk_location *locs;	/* each distinct sample location once */
	size_t nr_locs, alloc_locs;
	struct pki_idtab loc_tab;
	struct pki_stack_node *nodes;	/* the callchain trie */
	size_t nr_nodes, alloc_nodes;
	struct pki_idtab node_tab;
	uint64_t *node_hash; /* each node's path's, while folding */
	size_t alloc_node_hash;
	/* every DSO of the locations and nodes, by address (open
	 * addressing, NULL: free) */
	const struct pk_dso **dsos;
	size_t nr_dsos, nr_dso_slots;
	const struct pk_dso *last_dso; /* the one noted last */
	/* the samples' order, for replaying perf's lookups: the first sample
	 * of every stack and, by log_mode, every sample of stacks with an
	 * unresolved location (1; its callchain's too when log_frames) or
	 * every sample (2) */
	int log_mode;
	bool log_frames;
	bool has_inlined; /* a location or node in an inlined symbol */
	struct pki_stack_run *log;
	size_t nr_log, alloc_log;
	size_t nr_walk_keys;	/* over all stacks, frames + 1: the most keys
				 * walking them can give */
};

/* Whether a table of nr_slots slots, kept at most half full, has room
 * for an element beside nr others (the open-addressing tables' rule). */
static inline bool pki_slots_room(size_t nr, size_t nr_slots)
{
	return (nr + 1) * 2 <= nr_slots;
}

/* Room in *slots (*nr_slots, a power of two, first when none yet) for an
 * element beside nr others, at most half full: when it grows, elements
 * 0 .. nr - 1 are placed again by hash(ctx, i) (hist_slots.c). */
int pki_slots_grow(uint32_t **slots, size_t *nr_slots, size_t nr, size_t first,
		   uint64_t (*hash)(const void *ctx, uint32_t i), const void *ctx);

/* Room for element nr of *v (*alloc of elem bytes), doubling; 0, -ENOMEM,
 * or -EOVERFLOW past 2^32 - 2 elements (indices are 32-bit). */
int pki_grow_array(void **v, size_t *alloc, size_t nr, size_t elem);
/* Room for element i of *v (*alloc of elem bytes, first when none yet,
 * doubling), the new elements zeroed: 0 or -ENOMEM. */
int pki_room_zeroed(void **v, size_t *alloc, size_t i, size_t elem, size_t first);
/* *v resized to n elements of elem bytes, as it was if that fails: 0 or
 * -ENOMEM.  Arrays that grow together are resized one after the other;
 * those already larger than their count when one fails are harmless. */
int pki_resize_array(void **v, size_t n, size_t elem);
/* calloc() for a table written soon: its pages are mapped writable at
 * once, not through the zero page (hist_mem.c) */
void *pki_calloc_hot(size_t n, size_t size);
/* The same for len bytes at p (a hint: nothing if it fails). */
void pki_populate(void *p, size_t len);
/* Arrays to map so in a thread of their own (hist_mem.c); without a
 * thread their pages fault in as they are written. */
#define PKI_POPULATE_MAX 4
struct pki_populate_job {
	void *p[PKI_POPULATE_MAX];
	size_t len[PKI_POPULATE_MAX];
	unsigned nr;
	pthread_t thread;
	bool started;
};
void pki_populate_start(struct pki_populate_job *job);
void pki_populate_join(struct pki_populate_job *job);

/* Add a sample (k: attr, comm, thread, cpu, first_*, period, count, and
 * hash from pki_stacks_hash()) at loc with its callchain (callee first) to
 * the stack it equals, or as a new stack. */
int pki_stacks_add(struct pki_stacks *t, struct pki_stack *k, const struct pk_location *loc,
		   const struct pk_frame *frames, size_t nr_frames);
/* The hash of a sample's stack, for k->hash. */
uint64_t pki_stacks_hash(const struct pki_stack *k, const struct pk_location *loc,
			 const struct pk_frame *frames, size_t nr_frames);
/* Ask the CPU for what adding a stack of this hash reads first: its
 * table slot (step 0), then the stack that slot names (step 1), then
 * that stack's location and leaf node (step 2), each step once the one
 * before is in.  Done for a batch of samples ahead of adding them, the
 * misses overlap. */
void pki_stacks_prefetch(const struct pki_stacks *t, uint64_t hash, int step);
const struct pk_location *pki_stacks_loc(const struct pki_stacks *t, const struct pki_stack *s);
/* The slot of dso in t->dsos, or the free one it would take; SIZE_MAX
 * while the set is empty. */
size_t pki_stacks_dso_slot(const struct pki_stacks *t, const struct pk_dso *dso);
/* The stack's callchain, callee first, into out (at most max frames). */
size_t pki_stacks_frames(const struct pki_stacks *t, const struct pki_stack *s,
			 struct pk_frame *out, size_t max);
/* The number of frames of the stack's callchain. */
static inline size_t pki_stacks_depth(const struct pki_stacks *t, const struct pki_stack *s)
{
	return t->nodes[s->leaf].depth;
}
/*
 * The trie paths of the next stacks of a pass over them in order, asked
 * for a node a stack: the stack PKI_PATH_AHEAD on gets its leaf (and its
 * location) asked for, each stack between it and s the next node up its
 * path.  Each step reads only a node the step before asked for, so the
 * dependent loads of a path overlap with those of the others instead of
 * waiting in turn.  Called before stack s is read, for every s in turn
 * (a zeroed ring to start).
 */
#define PKI_PATH_AHEAD 16
struct pki_path_ahead {
	uint32_t node[PKI_PATH_AHEAD]; /* by stack % PKI_PATH_AHEAD */
};
void pki_stacks_ahead(const struct pki_stacks *t, struct pki_path_ahead *a, size_t s);
/* The same, with each frame's trie node into nodes. */
size_t pki_stacks_path(const struct pki_stacks *t, const struct pki_stack *s,
		       struct pk_frame *out, uint32_t *nodes, size_t max);
/* No more samples: the lookup tables go, the arrays are cut to size (the
 * stacks, their paths and log stay, read-only). */
void pki_stacks_seal(struct pki_stacks *t);
void pki_stacks_free(struct pki_stacks *t);

/* The sample pipeline (hist_pipe.c): samples resolved in the reading
 * thread, folded into stacks by a consumer in a worker thread. */
struct pki_pending {
	struct pki_stack k;
	struct pk_location loc;
	uint32_t first_frame, nr_frames;
};

/* The two threads go at about the same speed, each faster for a while:
 * with 4 batches in the ring they took turns waiting (0.3 s of a core on
 * the bench file), with 16 the other mostly has work; the pages touched
 * are those of the frames used, about 0.3 MB a batch. */
#define PKI_PIPE_BATCHES 16
#define PKI_BATCH_SAMPLES 512
#define PKI_BATCH_FRAMES 32768
#define PKI_BATCH_MAX_CHAIN 1024	/* frames one sample may add (with
					 * DWARF's inlined frames) */

struct pki_batch {
	struct pki_pending *v;
	size_t nr;
	struct pk_frame *frames;
	size_t nr_frames;
	bool early_done; /* its early step has run */
};

typedef int (*pki_pipe_consume_fn)(void *ctx, const struct pki_pending *p,
				   const struct pk_frame *frames);
/* Called on a whole batch before its samples are consumed, in the same
 * thread; may fill in what consuming them needs. */
typedef void (*pki_pipe_prepare_fn)(void *ctx, struct pki_batch *b);

struct pki_pipe {
	pki_pipe_consume_fn consume;
	/* work on a whole batch that may be done in either thread before
	 * it is prepared: by the filling thread when the worker is behind
	 * (half the ring waiting), else by the worker; or NULL */
	pki_pipe_prepare_fn early;
	pki_pipe_prepare_fn prepare;	/* or NULL */
	void *ctx;
	struct pki_batch batch[PKI_PIPE_BATCHES];
	bool threaded;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t produced, consumed;	/* batches */
	bool done;
	int err;			/* the consumer's first error */
};

/* threaded false (or no thread to be had): each full batch is consumed in
 * the caller's thread. */
int pki_pipe_start(struct pki_pipe *p, bool threaded, pki_pipe_consume_fn consume,
		   pki_pipe_prepare_fn early, pki_pipe_prepare_fn prepare, void *ctx);
/* Room for one sample and up to PKI_BATCH_MAX_CHAIN frames; fill both, then
 * commit.  Commit returns the consumer's error, if any so far. */
struct pki_pending *pki_pipe_slot(struct pki_pipe *p, struct pk_frame **frames);
int pki_pipe_commit(struct pki_pipe *p, uint32_t nr_frames);
/* Consume what is left and stop the worker; the consumer's first error. */
int pki_pipe_finish(struct pki_pipe *p);
void pki_pipe_free(struct pki_pipe *p);

/* Which events form groups (hist_group.c), by attr index. */
struct pki_groups {
	uint32_t nr_attrs;
	uint32_t *leader;		/* its group's leader, itself if alone */
	uint32_t *nr_members;		/* on a leader: its group's size */
	const char **names;		/* on a leader: the group's name */
	const struct pk_attr **attrs;
	bool forced;			/* one group made of every event */
};

/* From the session's header and mode (enum pk_hist_group). */
int pki_groups_init(struct pki_groups *g, struct pk_session *s, int mode);
void pki_groups_free(struct pki_groups *g);
/* Members of the group attr idx leads; 1 for a member or a lone event. */
uint32_t pki_groups_size(const struct pki_groups *g, uint32_t idx);
bool pki_groups_is_member(const struct pki_groups *g, uint32_t idx);

/* perf's input tree, replayed search by search (hist_itree.c); keys
 * compared as pki_hist_perf_cmp() compares the entries, through their
 * grouping keys. */
struct pki_gkey;
struct pki_itree {
	struct pk_hist_entry *keys;	/* the nodes, in insertion order */
	struct pki_gkey *g;		/* and their grouping keys */
	uint32_t *group;		/* and their groups (0: none) */
	struct pki_rbidx rb;
	size_t n, alloc;
	uint64_t version;		/* changes so far that lookups see */
	uint64_t *group_version;	/* changes so far to each group's nodes */
	size_t nr_groups;		/* room in group_version */
	bool by_group;			/* groups lie side by side in the order */
};

/*
 * Groups are sets of keys that any other key compares alike with (all
 * below it or all above it): the unresolved keys of one comm and DSO name
 * when no other key comes before the symbol.  by_group says the caller's
 * groups are such sets; a lookup then depends only on changes to its
 * group's nodes, and pki_itree_version() tells them apart.
 */
void pki_itree_init(struct pki_itree *t, bool by_group);
/* perf's lookup of key, of group group (0: none): the node it finds,
 * else key is inserted where the lookup ended (*inserted).  -ENOMEM on
 * failure. */
int64_t pki_itree_findnew(struct pki_itree *t, const struct pki_gkey *g,
			  const struct pk_hist_entry *key, uint32_t group, bool *inserted);
/* A value that changes whenever a lookup of a key of group may end
 * elsewhere than it did: lookups at the same value end alike. */
uint64_t pki_itree_version(const struct pki_itree *t, uint32_t group);
/* Node's key changed in a way its lookups see (perf moved its entry to
 * another map). */
void pki_itree_changed(struct pki_itree *t, uint32_t node);
/* The nodes in tree order into out (t->n of them). */
int pki_itree_inorder(const struct pki_itree *t, uint32_t *out);
void pki_itree_free(struct pki_itree *t);

/* The sort keys pki_hist_perf_cmp() compares (this thread's). */
void pki_hist_set_keys(const enum pk_hist_key *keys, uint32_t nr_keys);
/* What a view asks of the final order (pk_hist_opts): the keys it skips
 * (elided_keys), its steps (order; none: the default one), and perf's
 * collapse left out (no_collapse). */
struct pki_output {
	uint32_t elided;
	const struct pk_hist_by *by;
	uint32_t nr_by;
	bool no_collapse;
	bool dso_from_fields;	/* pk_hist_opts.dso_from_fields */
};
/* This thread's for the orders that follow, until set again; NULL for the
 * default (nothing skipped, the default steps, collapse as keys ask). */
void pki_hist_set_output(const struct pki_output *o);
/* perf's grouping comparison, called as perf does: (existing, new). */
int pki_hist_perf_cmp(const struct pk_hist_entry *l, const struct pk_hist_entry *r);
/* The same with this thread's sort context fetched once beforehand. */
struct sort_ctx {
	const enum pk_hist_key *keys;
	uint32_t nr_keys;
	bool children;
	int callchain;		/* PK_CALLCHAIN_* */
	uint32_t nr_members;	/* > 1: a group leader's entries */
	/* perf's symbol key compares the DSOs first only when the DSO is
	 * not a sort key of its own (perf 6.1.y's sort__sym_cmp) */
	bool sym_dso;
	struct pki_output out;	/* pki_hist_set_output() */
};

const struct sort_ctx *pki_hist_sort_ctx(void);
/* Add src's values and call tree to dst. */
int pki_hist_entry_merge(struct pki_arena *a, struct pk_hist_entry *dst,
			 const struct pk_hist_entry *src);
/* v in the order of perf's input tree (replayed): through the collapsed
 * tree when the keys need it (merging what it finds equal, *n shrinks),
 * then the output order. */
int pki_hist_sort_replayed(struct pki_arena *a, struct pk_hist_entry *v, uint64_t *n,
			   const enum pk_hist_key *keys, uint32_t nr_keys, bool children,
			   int callchain);

/* Ranks of the entries' strings (hist_rank.c): integers that compare as
 * strcmp() compares the strings (equal strings, equal ranks), a missing
 * one (no DSO, no symbol) after all. */
enum pki_rank_field {
	PKI_RANK_COMM,
	PKI_RANK_DSO,	/* by short name */
	PKI_RANK_SYM,	/* by name */
	PKI_RANK_TRACE, /* the trace key's values */
	PKI_RANK_PARENT, /* the parent key's (none after the names) */
};

int pki_hist_rank(const struct pk_hist_entry *v, size_t n, enum pki_rank_field f, uint32_t *rank);

/* perf's comparison of two symbols of one DSO (left, right; hist_sort.c). */
int pki_hist_sym_cmp(const struct pk_symbol *l, const struct pk_symbol *r);

/* An entry's grouping keys with its strings ranked (comms and DSO names by
 * pki_hist_rank()'s rules), compared as pki_hist_perf_cmp() compares the
 * entries. */
struct pki_gkey {
	const struct pk_symbol *sym;
	uint64_t addr;
	uint32_t dso;		     /* rank */
	uint32_t k[PK_HIST_KEY_MAX]; /* by sort key; unused for sym */
};

/* The sign of r - l: perf compares its grouping keys (left, right) so. */
static inline int pki_cmp_rev(uint32_t l, uint32_t r)
{
	return (r > l) - (r < l);
}

static inline int pki_gkey_sym_cmp(const struct sort_ctx *x, const struct pki_gkey *l,
				   const struct pki_gkey *r)
{
	int c;

	if (!l->sym && !r->sym) {
		int64_t d = (int64_t)(r->addr - l->addr);

		return (d > 0) - (d < 0);
	}
	c = x->sym_dso ? pki_cmp_rev(l->dso, r->dso) : 0;
	if (c)
		return c;
	return pki_hist_sym_cmp(l->sym, r->sym);
}

/* inlined into the trees' loops, which make millions of calls */
static inline __attribute__((always_inline)) int
pki_gkey_cmp(const struct sort_ctx *x, const struct pki_gkey *l, const struct pki_gkey *r)
{
	for (uint32_t i = 0; i < x->nr_keys; i++) {
		int c = x->keys[i] == PK_HIST_KEY_SYM ? pki_gkey_sym_cmp(x, l, r)
						      : pki_cmp_rev(l->k[i], r->k[i]);

		if (c)
			return c;
	}
	return 0;
}

/* v through perf's trees under this thread's sort context (hist_order.c):
 * grouping passes of its grouping trees, then its output tree when
 * output; v ends in the last tree's order.  On failure (-ENOMEM) v is as
 * it was. */
int pki_hist_order(struct pk_hist_entry *v, uint64_t n, int grouping, bool output);
/* The same with the last grouping pass perf's collapsed tree: entries it
 * finds equal are merged (*n shrinks).  *sorted when the output pass was
 * made too. */
int pki_hist_order_collapse(struct pki_arena *a, struct pk_hist_entry *v, uint64_t *n,
			     int grouping, bool *sorted);
/* v[0, n) becomes v[from[0]], ... v[from[n - 1]] in place (from: a
 * permutation); done: a zeroed bitmap of n. */
void pki_hist_gather(struct pk_hist_entry *v, const uint32_t *from, size_t n, uint64_t *done);
/* This thread's sort context for a view (hist_sort.c). */
void pki_hist_set_view(const enum pk_hist_key *keys, uint32_t nr_keys, bool children,
		       int callchain);

#endif
