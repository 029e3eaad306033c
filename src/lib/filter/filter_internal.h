/* SPDX-License-Identifier: MIT */
/* Sample filters: internals shared by their files. */
#ifndef PK_LIB_FILTER_INTERNAL_H
#define PK_LIB_FILTER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pk_location;

/*
 * Parse a CPU list as perf script -C does ("0-3,5", numbers in C notation,
 * parsing stops at the first entry that does not start with a digit); an
 * empty string gives the single CPU -1.  On success *out (free() it) holds
 * *nr CPUs, sorted.  Returns 0, -EINVAL (nothing parsed, a range going
 * down, a CPU given twice), -E2BIG or -ENOMEM.  (Not pk_cpu_list_parse():
 * stat's parser, which takes what perf stat takes.)
 */
int pki_filter_cpu_list(const char *str, int32_t **out, size_t *nr);

/*
 * perf's reading of a --symbols list (report and script): the entries of
 * v[0, *nr) that read whole as hex numbers (strtoul with base 16, blanks
 * around allowed: "0x7f1a", but also "add" or "cafe") are addresses of
 * samples, not names.  They move to *addrs (calloc'd, *nr_addrs of them;
 * NULL when v is empty) and are freed from v, whose names keep their
 * order.  0 or -ENOMEM (then v is as it was).
 */
int pki_filter_split_addresses(char **v, size_t *nr, uint64_t **addrs, size_t *nr_addrs);

/*
 * perf's --symbols test of a sample's location (report and script): its
 * symbol's name among names, or its own address, when it is in a map,
 * among addrs (the entries pki_filter_split_addresses() took out).  perf
 * also compares the names with its symbol's start as "0x...", which can
 * never match: such an entry reads as a number, so it is an address.
 */
bool pki_filter_symbol_passes(char *const *names, size_t nr_names, const uint64_t *addrs,
			      size_t nr_addrs, const struct pk_location *loc);

#endif
