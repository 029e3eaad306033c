/* SPDX-License-Identifier: MIT */
/*
 * Hand-built records for the decoder tests, in either byte order: every
 * field is emitted with its own width, big-endian when asked, the way a
 * big-endian machine would have written it.
 */
#ifndef TEST_REC_BUILDER_H
#define TEST_REC_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <perfkit/perfkit.h>

struct rb {
	uint8_t buf[8192];
	size_t len;
	bool be; /* emit big-endian fields */
	struct pk_record rec;
};

static inline bool host_is_little_endian(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 1;
}

static inline void rb_put(struct rb *b, uint64_t v, unsigned int width)
{
	for (unsigned int i = 0; i < width; i++) {
		unsigned int shift = b->be ? 8 * (width - 1 - i) : 8 * i;

		b->buf[b->len++] = (uint8_t)(v >> shift);
	}
}

static inline void rb_u8(struct rb *b, uint8_t v)
{
	rb_put(b, v, 1);
}
static inline void rb_u16(struct rb *b, uint16_t v)
{
	rb_put(b, v, 2);
}
static inline void rb_u32(struct rb *b, uint32_t v)
{
	rb_put(b, v, 4);
}
static inline void rb_u64(struct rb *b, uint64_t v)
{
	rb_put(b, v, 8);
}

static inline void rb_bytes(struct rb *b, const void *p, size_t n)
{
	memcpy(b->buf + b->len, p, n);
	b->len += n;
}

/* A string in a field padded with NULs to a multiple of 8 (at least one). */
static inline void rb_str(struct rb *b, const char *s)
{
	size_t n = strlen(s) + 1;

	rb_bytes(b, s, n);
	while (n++ % 8)
		rb_u8(b, 0);
}

static inline void rb_begin(struct rb *b, bool be, uint32_t type, uint16_t misc)
{
	memset(b, 0, sizeof(*b));
	b->be = be;
	rb_u32(b, type);
	rb_u16(b, misc);
	rb_u16(b, 0); /* size, set by rb_end() */
}

/* Finish: set header.size and fill in the pk_record as the reader would. */
static inline const struct pk_record *rb_end(struct rb *b, const struct pk_attr *attr)
{
	size_t len = b->len;
	bool be = b->be;

	b->len = 6;
	rb_u16(b, (uint16_t)len);
	b->len = len;
	b->be = be;
	b->rec.type = b->buf[be ? 3 : 0] | (uint32_t)b->buf[be ? 2 : 1] << 8;
	b->rec.misc = (uint16_t)(b->buf[be ? 5 : 4] | b->buf[be ? 4 : 5] << 8);
	b->rec.size = (uint16_t)len;
	b->rec.raw = b->buf;
	b->rec.swapped = be == host_is_little_endian();
	b->rec.attr = attr;
	b->rec.time = PK_NO_TIME;
	return &b->rec;
}

#define BOTH_ORDERS(fn)                                                                            \
	do {                                                                                       \
		fn(false);                                                                         \
		fn(true);                                                                          \
	} while (0)

#endif
