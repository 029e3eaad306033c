/* SPDX-License-Identifier: MIT */
/* A model of the shape of perf's red-black tree of symbols (rbsim.c). */
#ifndef PK_RBSIM_H
#define PK_RBSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rbidx.h"

/* Node i (a caller's id) covers start[i]..end[i]; its links are in rb. */
struct pki_rbsim {
	struct pki_rbidx rb;
	uint64_t *start, *end;
	size_t nr;
};

/* Room for ids 0..nr-1, none in the tree.  0 or -ENOMEM. */
int pki_rbsim_init(struct pki_rbsim *t, size_t nr);
void pki_rbsim_free(struct pki_rbsim *t);

/* Insert node id keyed by start (equal keys go right), as perf does. */
void pki_rbsim_insert(struct pki_rbsim *t, int32_t id, uint64_t start);

/* Remove node id, which is in the tree. */
void pki_rbsim_erase(struct pki_rbsim *t, int32_t id);

/*
 * perf's lookup: left when ip is below a node's start, right when at or
 * past its end (a node with no size matches its own start), else found.
 * Node ends must be set.  Returns the id or -1.
 */
int32_t pki_rbsim_find(const struct pki_rbsim *t, uint64_t ip);

#endif
