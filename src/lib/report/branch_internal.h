/* SPDX-License-Identifier: MIT */
/* Branch-mode histogram internals (branch_hist.c, branch_tree.c). */
#ifndef PK_BRANCH_INTERNAL_H
#define PK_BRANCH_INTERNAL_H

#include "hist_internal.h"
#include "rbidx.h"

#define PKI_BRANCH_MAX_KEYS 16

struct pki_branch_sort {
	enum pk_branch_key keys[PKI_BRANCH_MAX_KEYS];
	uint32_t nr_keys;
	bool collapse;			/* perf's need_collapse */
};

/* The entries of one event: perf's input tree while reading, then the
 * visible entries in output order. */
struct pki_branch_tree {
	struct pk_branch_hist_entry *v;	/* in creation order */
	bool *filtered;
	size_t nr, alloc;
	struct pki_rbidx rb;
	struct pk_branch_hist_entry *out;
	size_t nr_out;
};

/* Merge key (count included) into the entry perf's input tree finds for
 * it, or add it. */
int pki_branch_tree_add(struct pki_branch_tree *t, const struct pki_branch_sort *s,
			const struct pk_branch_hist_entry *key, bool filtered);
/* Collapse (when perf does) and sort for output into t->out. */
int pki_branch_tree_finish(struct pki_branch_tree *t, const struct pki_branch_sort *s);
void pki_branch_tree_free(struct pki_branch_tree *t);

struct pki_branch_event {
	struct pk_branch_hist_event pub;
	struct pki_branch_tree tree;
};

struct pk_branch_hist {
	struct pki_branch_event *events;	/* by attr index */
	uint32_t nr_events_alloc;
	struct pk_branch_hist_event **shown;
	uint32_t nr_shown;
	struct pki_branch_sort sort;
	struct pki_hist_filter filter;
	struct pki_strtab comms;	/* interned comm strings */
	uint64_t lost;
};

#endif
