// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdio.h>
#include "builder.h"

void buf_init(struct buf *b, bool big_endian)
{
	memset(b, 0, sizeof(*b));
	b->big_endian = big_endian;
}

void buf_free(struct buf *b)
{
	free(b->p);
	b->p = NULL;
}

static uint8_t *grow(struct buf *b, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	b->len += n;
	return b->p + b->len - n;
}

static void put_ordered(struct buf *b, uint64_t v, int n)
{
	uint8_t *p = grow(b, n);

	for (int i = 0; i < n; i++) {
		int shift = b->big_endian ? 8 * (n - 1 - i) : 8 * i;

		p[i] = v >> shift;
	}
}

void put8(struct buf *b, uint8_t v)
{
	put_ordered(b, v, 1);
}

void put16(struct buf *b, uint16_t v)
{
	put_ordered(b, v, 2);
}

void put32(struct buf *b, uint32_t v)
{
	put_ordered(b, v, 4);
}

void put64(struct buf *b, uint64_t v)
{
	put_ordered(b, v, 8);
}

void put_bytes(struct buf *b, const void *p, size_t n)
{
	memcpy(grow(b, n), p, n);
}

void put_zero(struct buf *b, size_t n)
{
	memset(grow(b, n), 0, n);
}

void patch64(struct buf *b, size_t off, uint64_t v)
{
	size_t len = b->len;

	b->len = off;
	put64(b, v);
	b->len = len;
}

void patch16(struct buf *b, size_t off, uint16_t v)
{
	size_t len = b->len;

	b->len = off;
	put16(b, v);
	b->len = len;
}

static uint64_t bit_reverse64(uint64_t v)
{
	uint64_t r = 0;

	for (int i = 0; i < 64; i++)
		if (v & (1ull << i))
			r |= 1ull << (63 - i);
	return r;
}

void put_attr(struct buf *b, const struct perf_event_attr *a, uint32_t attr_size)
{
	size_t start = b->len;
	uint64_t flags;

	memcpy(&flags, (const uint8_t *)a + 40, 8);
	put32(b, a->type);
	put32(b, attr_size);
	put64(b, a->config);
	put64(b, a->sample_period);
	put64(b, a->sample_type);
	put64(b, a->read_format);
	/* a big-endian compiler allocates bitfields from the top bit */
	put64(b, b->big_endian ? bit_reverse64(flags) : flags);
	put32(b, a->wakeup_events);
	put32(b, a->bp_type);
	put64(b, a->config1);
	if (attr_size > 64)
		put64(b, a->config2);
	if (attr_size > 72)
		put64(b, a->branch_sample_type);
	if (attr_size > 80) {
		put64(b, a->sample_regs_user);
		put32(b, a->sample_stack_user);
		put32(b, (uint32_t)a->clockid);
	}
	if (attr_size > 96)
		put64(b, a->sample_regs_intr);
	if (attr_size > 104) {
		put32(b, a->aux_watermark);
		put16(b, a->sample_max_stack);
		put16(b, 0);
	}
	/* anything longer: a tail we do not know, non-zero on purpose */
	while (b->len - start < attr_size)
		put8(b, 0xa5);
}

size_t begin_record(struct buf *b, uint32_t type, uint16_t misc)
{
	size_t start = b->len;

	put32(b, type);
	put16(b, misc);
	put16(b, 0);
	return start;
}

void end_record(struct buf *b, size_t start)
{
	patch16(b, start + 6, (uint16_t)(b->len - start));
}

void put_sample(struct buf *b, uint64_t ip, uint32_t pid, uint32_t tid, uint64_t time,
		uint64_t id, uint32_t cpu, uint64_t period)
{
	put64(b, ip);
	put32(b, pid);
	put32(b, tid);
	put64(b, time);
	put64(b, id);
	put32(b, cpu);
	put32(b, 0);
	put64(b, period);
}

void put_sample_id(struct buf *b, uint32_t pid, uint32_t tid, uint64_t time, uint64_t id,
		   uint32_t cpu)
{
	put32(b, pid);
	put32(b, tid);
	put64(b, time);
	put64(b, id);
	put32(b, cpu);
	put32(b, 0);
}

const char *write_temp(const struct buf *b)
{
	static char path[64];
	FILE *f;
	int fd;

	strcpy(path, "/tmp/pk-test-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		abort();
	f = fdopen(fd, "wb");
	if (!f || fwrite(b->p, 1, b->len, f) != b->len)
		abort();
	fclose(f);
	return path;
}
