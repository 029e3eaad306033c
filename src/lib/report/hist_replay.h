/* SPDX-License-Identifier: MIT */
/*
 * The replay of perf's input tree (hist_replay.c) and the entry build that
 * runs beside it (hist_uses.c): what they share.
 */
#ifndef PK_HIST_REPLAY_H
#define PK_HIST_REPLAY_H

#include <pthread.h>
#include "hist_build.h"

struct rp_key {
	const struct pk_dso *dso;	/* the sample's, perf moves its entry there */
	uint32_t prim;			/* primary index */
	uint32_t ordinal;		/* its place among the sample's keys */
	uint32_t group;			/* rp_group + 1 of an unresolved key */
	bool search;			/* always looked up (--sort sym alone) */
	bool hidden;			/* its samples' (pk_hist_entry.hidden) */
	char level;
};

/*
 * The unresolved keys perf's comparison puts side by side: those of one
 * DSO name and, when the comm is compared first, one comm.  Their order is
 * total, so lookups find their entries, while their addresses lie less
 * than 2^63 apart (signed differences do not wrap); from the key that
 * spreads them further on, the group is in danger and its keys' lookups
 * are replayed one by one.  Keys before that found their entries: the
 * tree held no such pair yet.
 */
struct rp_group {
	const char *comm;
	uint32_t name;			/* rp_dso.name, 0 for no DSO */
	uint64_t lo, hi;
	bool danger;
};

/* A primary's replay state, in one place: a lookup reads it all. */
struct rp_prim {
	uint64_t ver;			/* pki_itree_version() at its last lookup */
	uint64_t stamp;			/* occurrence that looked it up last */
	const struct pk_dso *last_dso;	/* the DSO of that lookup's node then */
	uint32_t node;			/* its primary node */
	uint32_t last;			/* the node that lookup ended in */
	bool keep;			/* its call tree may merge with another */
};

/* What tells a primary's key from others when only the comm, DSO and
 * symbol keys are in use (rp_event.ident): beside the primary's own
 * state, one cache line read instead of two for a lookup. */
struct rp_ident {
	const char *comm;
	const struct pk_dso *dso;	/* the node's, as it changes */
	const struct pk_symbol *sym;
	uint64_t addr;
};

struct rp_event {
	struct pki_itree t;
	struct rp_ident *ident;		/* per primary, or NULL */
	uint32_t *node_idx;		/* per node: primary index, or dup | DUP */
	size_t alloc_idx;
	struct rp_prim *prim;
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

/* How far the first walks are, shared with the builders. */
struct rp_progress {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	size_t walked;			/* stacks whose uses are complete */
	bool done;			/* no more will come (or the replay failed) */
};

struct replay {
	struct rp_event *ev;		/* by attr index */
	uint32_t nr_ev;
	struct rp_exc *exc;
	size_t nr_exc, alloc_exc;
	struct rp_redir *redir;
	size_t nr_redir, alloc_redir;
	/* by slot of the stacks' DSO set (pki_stacks_dso_slot()), the
	 * number of its DSO's name (perf compares DSOs by name): 1, 2, ...
	 * in name order, its rank in the tree's keys */
	const struct pki_stacks *stacks;
	uint32_t *dso_name;
	bool *name_inlined;		/* by name: it has inlined symbols */
	bool shared_names;		/* two DSOs of the stacks have one name */
	const char **comms;		/* every comm, by address */
	uint32_t *comm_rank;		/* its rank by string */
	size_t nr_comms;
	const char **parents;		/* the same for the parent key */
	uint32_t *parent_rank;
	size_t nr_parents;
	struct rp_group *groups;
	size_t nr_groups, alloc_groups;
	uint32_t *group_slots;		/* group + 1, open addressing */
	size_t nr_group_slots;
	bool comm_first;		/* the comm is compared before the symbol */
	bool memo;			/* frame keys found through trie nodes */
	uint32_t *nodes;		/* the trie nodes of the stack walked */
	struct pki_path_ahead ahead;	/* the next first walks' paths */
	struct pki_key_memo *loc_memo;	/* by sample location */
	struct rp_key *pool;		/* keys of stacks searched again */
	size_t nr_pool, alloc_pool;
	struct rp_seq {			/* per stack: */
		uint32_t off, len;	/* its keys in pool */
		uint32_t ev;		/* its event (attr index) */
	} *seq;
	struct rp_use *uses;		/* every stack's keys, for the build */
	size_t nr_uses, alloc_uses;	/* allocated once: the builders read it */
	size_t *use_off;		/* per stack: its first use; [nr] the end */
	struct rp_progress *progress;	/* first walks done, for the builders */
	uint32_t *walk_prims;		/* the primaries of the walk so far */
	uint32_t nr_walk;
	uint64_t walk_filter;		/* bit (prim % 64) of each of them */
	uint64_t occ;			/* samples replayed, + 1 */
	uint32_t ordinal;		/* keys of the current sample */
	bool all;			/* resolved keys can be misplaced too */
	size_t redir_mark;
};

/* Comm and DSO-name ranks of every location of the stacks
 * (hist_replay_ranks.c); 0 or -ENOMEM. */
int pki_replay_ranks(struct pk_hist *h, struct replay *rp);
/* key's grouping keys, its strings ranked, as the tree compares them. */
void pki_replay_gkey(const struct replay *rp, const struct pk_hist_entry *key, struct pki_gkey *g);
/* The number of a DSO's name (one of the stacks'): 1, 2, ... in name order. */
uint32_t pki_replay_dso_name(const struct replay *rp, const struct pk_dso *dso);

/* Marks the primaries of re whose call trees perf may merge with
 * another's (hist_keep.c): 0 or -ENOMEM.  Only needed when perf merges
 * (the comm key) and two DSOs share a name (rp->shared_names): else
 * equal unresolved keys are one primary. */
int pki_replay_keep(struct rp_event *re);

/* The entry a node stands for: primaries are the stacks' entries in
 * creation order, duplicates come after them. */
static inline uint32_t rp_entry(const struct rp_event *re, uint32_t node)
{
	uint32_t v = re->node_idx[node];

	return v & DUP ? (uint32_t)re->nr_prim + (v & ~DUP) : v;
}

/* The primary of key, or -1 and its slot (*slot) when it has none; a
 * negative errno when the table cannot grow. */
int64_t pki_replay_lookup(struct pk_hist *h, struct rp_event *re, const struct pk_hist_entry *key,
			  size_t *slot);
/* Whether every event's replay held (no first lookup found another key):
 * the builders' entries stand (hist_replay_fallback.c). */
bool pki_replay_usable(const struct replay *rp);
/* Else the entries built the plain way, the samples that landed elsewhere
 * taken out of their stacks and added where they landed. */
int pki_replay_fallback(struct pk_hist *h, struct replay *rp);
/* Event re's duplicates as entries of he, and the tree's order of them
 * all (he->order, he->node_order), when its replay held. */
int pki_replay_entries(struct rp_event *re, struct hist_event *he);
/* The tree's order alone: he->v already holds every node's entry. */
int pki_replay_order(struct rp_event *re, struct hist_event *he);

/* What a builder adds to an entry: the values without the keys, under
 * half of an entry's size, so more of them stay in cache.  Below the
 * call-tree limit (pk_hist_opts.callchain_min_percent) an entry's chains
 * wait in a list instead, added only once it reaches the limit. */
struct use_val {
	uint64_t self, children, nr_samples;
	struct pk_callchain_node *callchain;
	uint32_t first, last;		/* waiting chains: link + 1, 0: none */
	uint32_t max_depth;		/* of those chains */
	bool partial;			/* some chains wait */
};

/* A chain waiting: frame `from` of a stack. */
struct use_link {
	uint32_t stack, from, next;	/* next: link + 1, 0: none */
};

struct use_part {
	struct pk_hist *h;
	const struct replay *rp;
	unsigned id, nr;
	struct use_vals {
		struct use_val *v;		/* by primary / nr */
		size_t alloc;
		uint64_t min;			/* complete trees from this
						 * period on (0: all) */
	} *ev;					/* by attr index */
	struct use_link *links;
	size_t nr_links, alloc_links;
	struct pk_frame *frames;
	pthread_t thread;
	bool started;			/* in its own thread */
	int err;
};

/* The builders of nr parts, in threads of their own when the replay
 * publishes its progress (rp->progress), else run by pki_uses_join(). */
int pki_uses_start(struct use_part *parts, unsigned nr, struct pk_hist *h,
		   const struct replay *rp);
/* Waits for the builders, or runs those that had no thread (after a
 * failed replay they stop at once); 0 or the first error. */
int pki_uses_join(struct use_part *parts, unsigned nr);
/* The entries in primary order, then the duplicates, with their keys
 * from perf's tree (which keeps none), and the tree's order of them; the
 * primaries whose trees must stay whole marked.  Needs only the replay:
 * done while the builders finish. */
int pki_uses_keys(struct pk_hist *h, struct replay *rp);
/* The call trees of the entries that are to have them whole, their
 * waiting chains added (those big enough after the samples perf's
 * lookups moved, and those that may merge); the others keep the partial
 * root their builder made, with its depth. */
int pki_uses_trees(struct pk_hist *h, struct replay *rp, struct use_part *parts, unsigned nr);
/* The entries' values from their builders (pki_uses_keys() first). */
void pki_uses_values(struct pk_hist *h, const struct replay *rp, struct use_part *parts,
		     unsigned nr);
/* The samples perf's lookups put elsewhere, moved there (in replay
 * order, as perf added them). */
int pki_uses_apply(struct pk_hist *h, struct replay *rp);
void pki_uses_free(struct use_part *parts, unsigned nr, uint32_t nr_ev);

#endif
