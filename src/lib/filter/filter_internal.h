/* SPDX-License-Identifier: MIT */
/* Sample filters: internals shared by their files. */
#ifndef PK_LIB_FILTER_INTERNAL_H
#define PK_LIB_FILTER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parse a CPU list as perf script -C does ("0-3,5", numbers in C notation,
 * parsing stops at the first entry that does not start with a digit); an
 * empty string gives the single CPU -1.  On success *out (free() it) holds
 * *nr CPUs, sorted.  Returns 0, -EINVAL (nothing parsed, a range going
 * down, a CPU given twice), -E2BIG or -ENOMEM.  (Not pk_cpu_list_parse():
 * stat's parser, which takes what perf stat takes.)
 */
int pki_filter_cpu_list(const char *str, int32_t **out, size_t *nr);

#endif
