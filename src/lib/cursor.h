/* SPDX-License-Identifier: MIT */
/*
 * Bounded little reader over a byte range of the file, with a sticky error
 * flag: a parser reads all its fields and checks ->bad once at the end.
 * Every read past the end yields zero and sets ->bad; nothing ever reads
 * outside [base, base + len).
 */
#ifndef PK_CURSOR_H
#define PK_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "bswap.h"

struct pki_cursor {
	const uint8_t *base;
	size_t len;
	size_t pos;
	bool swapped;
	bool bad;
};

static inline struct pki_cursor pki_cursor_make(const void *p, size_t len, bool swapped)
{
	struct pki_cursor c = {.base = p, .len = len, .swapped = swapped};
	return c;
}

static inline size_t pki_cursor_left(const struct pki_cursor *c)
{
	return c->bad ? 0 : c->len - c->pos;
}

/* Pointer to the next n bytes and advance, or NULL (and ->bad). */
static inline const void *pki_cursor_take(struct pki_cursor *c, size_t n)
{
	const void *p;

	if (c->bad || n > c->len - c->pos) {
		c->bad = true;
		return NULL;
	}
	p = c->base + c->pos;
	c->pos += n;
	return p;
}

static inline bool pki_cursor_skip(struct pki_cursor *c, size_t n)
{
	return pki_cursor_take(c, n) != NULL;
}

static inline uint64_t pki_cursor_u64(struct pki_cursor *c)
{
	const void *p = pki_cursor_take(c, 8);
	return p ? pki_load64(p, c->swapped) : 0;
}

static inline uint32_t pki_cursor_u32(struct pki_cursor *c)
{
	const void *p = pki_cursor_take(c, 4);
	return p ? pki_load32(p, c->swapped) : 0;
}

static inline uint16_t pki_cursor_u16(struct pki_cursor *c)
{
	const void *p = pki_cursor_take(c, 2);
	return p ? pki_load16(p, c->swapped) : 0;
}

static inline uint8_t pki_cursor_u8(struct pki_cursor *c)
{
	const uint8_t *p = pki_cursor_take(c, 1);
	return p ? *p : 0;
}

/*
 * A NUL-terminated string stored in a field of n bytes: returns it, or
 * NULL (and ->bad) when the field has no NUL inside its n bytes.
 */
static inline const char *pki_cursor_str(struct pki_cursor *c, size_t n)
{
	const char *s = pki_cursor_take(c, n);

	if (!s)
		return NULL;
	if (!memchr(s, '\0', n)) {
		c->bad = true;
		return NULL;
	}
	return s;
}

/* The rest of the range up to its end as a NUL-terminated string. */
static inline const char *pki_cursor_str_rest(struct pki_cursor *c)
{
	return pki_cursor_str(c, pki_cursor_left(c));
}

/* Align the position up to a multiple of a (a power of two). */
static inline void pki_cursor_align(struct pki_cursor *c, size_t a)
{
	size_t pos = (c->pos + a - 1) & ~(a - 1);

	if (pos > c->len)
		c->bad = true;
	else
		c->pos = pos;
}

#endif
