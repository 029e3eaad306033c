/* SPDX-License-Identifier: MIT */
/*
 * The histogram under construction, shared by hist.c (samples, entries,
 * sorting) and hist_replay.c (perf's input-tree lookups replayed).
 */
#ifndef PK_HIST_BUILD_H
#define PK_HIST_BUILD_H

#include <pthread.h>
#include <regex.h>
#include <stdatomic.h>
#include "hist_internal.h"

/* room for inlined frames of DWARF callchains too */
#define PKI_HIST_FRAMES PKI_BATCH_MAX_CHAIN
#define PKI_HIST_PARTS 2	/* workers building entries from the stacks */

/* threads whose comms are remembered (hist.c) */
#define PKI_COMM_MEMO 64

struct hist_event {
	struct pk_hist_event pub;
	struct pk_hist_entry *v;
	uint64_t *last_sample;	/* per entry: sample that last added children */
	uint64_t *created;	/* per entry: when, in the single-thread order */
	size_t nr, alloc;
	uint32_t *slots;	/* entry index + 1, open addressing */
	size_t nr_slots;
	uint32_t *order;		/* its entries in that tree's order */
	uint32_t *node_order;		/* and in the order they entered it */
	uint64_t nr_order;
	struct pk_hist_member *members;	/* pub.members */
	struct pk_hist_value *values;	/* the entries' members, in groups */
};

/* The parent key's matcher (hist_parent.c). */
struct pki_parent_slot {
	const struct pk_symbol *sym;
	uint8_t match;			/* which regexes match */
};

struct pki_parent {
	regex_t re, ignore;
	bool has_parent, has_ignore;
	bool from_caller;		/* walk from the outermost frame */
	struct pki_parent_slot *slots;	/* symbols met, open addressing */
	size_t nr, nr_slots;
};

/* The parent key (regex, NULL: perf's default) when parent, the ignored
 * callees' regex unless NULL: 0, or -EINVAL for a regex that does not
 * compile. */
int pki_parent_init(struct pki_parent *p, bool parent, const char *regex, const char *ignore,
		    bool from_caller);
void pki_parent_free(struct pki_parent *p);
/* Walks frames (callee order, *n of them) in p's order: *out gets the
 * symbol of the first matching the parent regex, or NULL; the last frame
 * matching the ignored callees' regex becomes *loc, the frames on its
 * callee side dropped (*n updated).  0 or -ENOMEM. */
int pki_parent_find(struct pki_parent *p, struct pk_frame *frames, size_t *n,
		    struct pk_location *loc, const struct pk_symbol **out);

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
	/* each sample's comm interned, by thread: a thread's last one (a
	 * cache, checked by content, slot by thread address) */
	struct comm_memo {
		const struct pk_thread *thread;
		const char *comm;
	} comm_memo[PKI_COMM_MEMO];
	struct pki_strtab traces;	/* the trace key's values */
	struct pki_parent *parent;	/* with the parent key or ignored
					 * callees, else NULL */
	struct pki_strtab parents;	/* the parent key's values */
	bool exclude_other;		/* hide entries without a parent */
	uint64_t time_quantum;		/* the time key's unit, ns */
	bool raw_trace;			/* trace values raw */
	char *trace_buf;		/* one sample's, being formatted */
	size_t trace_len;
	uint64_t lost;
	struct pki_stacks stacks;	/* samples folded by stack */
	struct pki_arena trees[PKI_HIST_PARTS]; /* the entries' call trees */
	uint32_t nr_threads;
	struct pki_pipe pipe;		/* samples on their way to stacks */
	bool stack_thread;		/* the thread is part of a stack's identity */
	size_t max_stack;		/* frames of a callchain used */
	bool hide_unresolved;
	double callchain_min_percent;			  /* smaller trees may stay partial */
	const struct pk_sample_filter *keep;		  /* pk_hist_opts.keep, while building */
	struct pk_hist_by order[2 * PK_HIST_KEY_MAX + 4]; /* pk_hist_opts.order */
	struct pki_output out;		/* pk_hist_opts: elided_keys, order, no_collapse */
	struct pki_groups groups;	/* the group view's groups */
};

/* A stack's locations in perf's order: the sample's, then (children)
 * its callchain's in the tree's order; fn gets each key that passes the
 * filters, with its frame (n for the sample's own). */
struct pki_walk {
	const struct pki_stack *st;
	struct pk_frame *frames;
	const uint32_t *nodes;		/* each frame's trie node, or NULL */
	size_t n;
};

typedef int pki_walk_fn(void *arg, const struct pki_walk *w, const struct pk_hist_entry *key,
			uint32_t pos, size_t from);


uint64_t pki_hist_entry_hash(const struct pk_hist *h, const struct pk_hist_entry *e);
bool pki_hist_entry_same(const struct pk_hist *h, const struct pk_hist_entry *a,
			 const struct pk_hist_entry *b);
/* nodes (NULL, or room for PKI_HIST_FRAMES) gets the frames' trie nodes */
int pki_hist_walk(struct pk_hist *h, const struct pki_stack *st, struct pk_frame *frames,
		  uint32_t *nodes, pki_walk_fn *fn, void *arg);
/* A stack's chain (its n frames, callee first) from frame `from` (n: the
 * whole chain) into the call tree *root, in arena a, as the view orders
 * it; period is added modulo 2^64 (a negative one takes a chain out). */
int pki_hist_append_chain(const struct pk_hist *h, struct pki_arena *a,
			  struct pk_callchain_node **root, const struct pk_frame *frames, size_t n,
			  size_t from, uint64_t period);
/* The frames pki_hist_append_chain() adds to a tree (its depth). */
size_t pki_hist_chain_len(const struct pk_hist *h, size_t n, size_t from);
/* The call trees sorted beside the entries' order (hist_trees.c). */
struct pki_tree_sort {
	struct pk_callchain_node **roots;
	size_t nr;
	atomic_size_t next;		/* the first root not yet taken */
	pthread_t thread;
	bool threaded;
};

/* Starts sorting every entry's call tree: in a second thread, the trees'
 * merges deferred until pki_trees_sort_finish(), or at once without one. */
int pki_trees_sort_start(struct pki_tree_sort *t, struct pk_hist *h);
/* Helps with what is left, waits, and makes the merges deferred meanwhile. */
int pki_trees_sort_finish(struct pki_tree_sort *t, struct pk_hist *h);
/* Entries from the stacks, without replaying perf's lookups. */
int pki_hist_build_entries(struct pk_hist *h);
/* Every event's entries in perf's order, handed out (pk_hist_event()),
 * their call trees sorted meanwhile (hist_finish.c): 0 or -ENOMEM. */
int pki_hist_finish(struct pk_hist *h);
/* Entries from the stacks, with perf's input-tree lookups replayed
 * (hist_replay.c, the entries built beside it by hist_uses.c); sets the
 * events' order and node_order. */
int pki_hist_replay(struct pk_hist *h);

#endif
