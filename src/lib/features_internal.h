/* SPDX-License-Identifier: MIT */
/*
 * Shared by the feature section decoders (features*.c).  Every decoder
 * reads through a bounded cursor, fills its fields of struct pk_header and
 * returns 0, or -EINVAL with *why saying what is wrong (static string), or
 * -ENOMEM.  On failure the caller clears whatever the decoder allocated.
 */
#ifndef PK_FEATURES_INTERNAL_H
#define PK_FEATURES_INTERNAL_H

#include <errno.h>
#include <perfkit/header.h>
#include "cursor.h"

/* Smallest perf_header_string: the u32 length and one NUL byte. */
#define PKI_STRING_MIN 5

typedef int (*pki_feat_decoder)(struct pk_header *h, struct pki_cursor *c, const char **why);

/* True when nr entries of at least min_size bytes each fit in what is left. */
static inline bool pki_feat_fits(const struct pki_cursor *c, uint64_t nr, size_t min_size)
{
	return min_size == 0 || nr <= pki_cursor_left(c) / min_size;
}

/* A perf_header_string into a fresh heap copy. */
int pki_feat_string(struct pki_cursor *c, char **out, const char **why);
/* A perf_header_string_list (u32 nr, then nr strings). */
int pki_feat_string_list(struct pki_cursor *c, struct pk_string_list *l, const char **why);
void pki_string_list_free(struct pk_string_list *l);
/* An array of nr u32 values (nr already checked against the bytes left). */
int pki_feat_u32_array(struct pki_cursor *c, uint32_t nr, uint32_t **out);

/* features_topology.c */
int pki_feat_cpu_topology(struct pk_header *h, struct pki_cursor *c, const char **why);
int pki_feat_numa_topology(struct pk_header *h, struct pki_cursor *c, const char **why);
int pki_feat_cache(struct pk_header *h, struct pki_cursor *c, const char **why);
int pki_feat_mem_topology(struct pk_header *h, struct pki_cursor *c, const char **why);
int pki_feat_hybrid_topology(struct pk_header *h, struct pki_cursor *c, const char **why);
void pki_feat_topology_clear(struct pk_header *h, unsigned int feat);

/* features_events.c */
int pki_feat_build_id(struct pk_header *h, struct pki_cursor *c, const char **why);
int pki_feat_event_desc(struct pk_header *h, struct pki_cursor *c, const char **why);
int pki_feat_pmu_mappings(struct pk_header *h, struct pki_cursor *c, const char **why);
int pki_feat_group_desc(struct pk_header *h, struct pki_cursor *c, const char **why);
int pki_feat_auxtrace(struct pk_header *h, struct pki_cursor *c, const char **why);
int pki_feat_cpu_pmu_caps(struct pk_header *h, struct pki_cursor *c, const char **why);
int pki_feat_pmu_caps(struct pk_header *h, struct pki_cursor *c, const char **why);
void pki_feat_events_clear(struct pk_header *h, unsigned int feat);

#endif
