/* SPDX-License-Identifier: MIT */
/* Builds perf.data bytes by hand, in either byte order, for reader tests. */
#ifndef TEST_BUILDER_H
#define TEST_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct buf {
	uint8_t *p;
	size_t len, cap;
	bool big_endian;
};

void buf_init(struct buf *b, bool big_endian);
void buf_free(struct buf *b);
void put8(struct buf *b, uint8_t v);
void put16(struct buf *b, uint16_t v);
void put32(struct buf *b, uint32_t v);
void put64(struct buf *b, uint64_t v);
void put_bytes(struct buf *b, const void *p, size_t n);
void put_zero(struct buf *b, size_t n);
void patch64(struct buf *b, size_t off, uint64_t v);
void patch16(struct buf *b, size_t off, uint16_t v);

/* An attr of attr_size bytes (>= 64); bits of the flags word as on x86. */
void put_attr(struct buf *b, const struct perf_event_attr *a, uint32_t attr_size);

/* Start a record; end_record() fills in its size. */
size_t begin_record(struct buf *b, uint32_t type, uint16_t misc);
void end_record(struct buf *b, size_t start);

/* A sample with IP|TID|TIME|ID|CPU|PERIOD. */
void put_sample(struct buf *b, uint64_t ip, uint32_t pid, uint32_t tid, uint64_t time,
		uint64_t id, uint32_t cpu, uint64_t period);
/* A sample_id_all trailer for TID|TIME|ID|CPU. */
void put_sample_id(struct buf *b, uint32_t pid, uint32_t tid, uint64_t time, uint64_t id,
		   uint32_t cpu);

/* Write a file to a temporary path; returns the path (static storage). */
const char *write_temp(const struct buf *b);

#endif
