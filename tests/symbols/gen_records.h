/* SPDX-License-Identifier: MIT */
/*
 * Record building for the test generators (gen_script_records.c,
 * gen_replay_records.c): a record is filled field by field, then written
 * with its header's size set.
 */
#ifndef GEN_RECORDS_H
#define GEN_RECORDS_H

#include <stddef.h>
#include <stdint.h>
#include <perfkit/perfkit.h>

struct rec {
	uint8_t b[1024];
	size_t n;
};

/* Bytes past the record's room are dropped (the generators stay far
 * below it). */
void put(struct rec *r, const void *p, size_t n);
void u64(struct rec *r, uint64_t v);
void u32x2(struct rec *r, uint32_t a, uint32_t b);
/* NUL-terminated, padded to 8 bytes */
void str(struct rec *r, const char *s);
/* A new record of this type and misc. */
void start(struct rec *r, uint32_t type, uint16_t misc);
int emit(struct pk_writer *w, struct rec *r);

/* A fixed pseudo-random sequence (xorshift64) from seed. */
void rnd_seed(uint64_t seed);
uint64_t rnd(void);

#endif
