/* SPDX-License-Identifier: MIT */
/*
 * A fast text output buffer for the commands that print millions of lines
 * (script): hand-rolled number formatting instead of printf, and the
 * write(2)s done by a second thread while the next buffer fills, so
 * formatting and the kernel's copying run on both cores.
 *
 * The fast paths are inline: a line is a dozen small pieces, and a call
 * per piece cost as much as the formatting itself.
 */
#ifndef PK_CLI_OBUF_H
#define PK_CLI_OBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define OBUF_SIZE  (256u << 10)
#define OBUF_SLACK 4096 /* a reserve() never asks for more than this */

/* Only base and len are for the inline functions below; the rest is
 * obuf.c's. */
struct obuf {
	char *base;		/* the buffer being filled */
	size_t len;		/* bytes in it */
	struct obuf_writer *w;
};

/* Write to fd from now on (the caller flushed any stdio buffer on it).
 * NULL when out of memory. */
struct obuf *obuf_open(int fd);
/* Flush, wait for the writer, free.  Returns 0 or the first write error
 * (-errno, e.g. -EPIPE). */
int obuf_close(struct obuf *o);

/* Hand the full buffer to the writer (obuf.c). */
void obuf_hand_over(struct obuf *o);

/* The current buffer has room for n (<= OBUF_SLACK) more bytes after this. */
static inline char *obuf_reserve(struct obuf *o, size_t n)
{
	(void)n;
	if (o->len >= OBUF_SIZE)
		obuf_hand_over(o);
	return o->base + o->len;
}

static inline void obuf_commit(struct obuf *o, char *end)
{
	o->len = (size_t)(end - o->base);
}

void obuf_write_long(struct obuf *o, const void *p, size_t n);

static inline void obuf_write(struct obuf *o, const void *p, size_t n)
{
	char *d;

	if (n > OBUF_SLACK) {
		obuf_write_long(o, p, n);
		return;
	}
	d = obuf_reserve(o, n);
	memcpy(d, p, n);
	obuf_commit(o, d + n);
}

static inline void obuf_puts(struct obuf *o, const char *s)
{
	obuf_write(o, s, strlen(s));
}

static inline void obuf_putc(struct obuf *o, char c)
{
	char *p = obuf_reserve(o, 1);

	*p++ = c;
	obuf_commit(o, p);
}

/*
 * Number formatting into p, which has room for the result (at most 20
 * digits and a sign, plus the padding asked for); each returns the end.
 */
static inline unsigned put_hex_digits(uint64_t v)
{
	return v ? (67u - (unsigned)__builtin_clzll(v)) / 4 : 1;
}

static inline char *put_pad(char *p, char c, int width, unsigned n)
{
	if (width > 0 && (unsigned)width > n) {
		memset(p, c, (unsigned)width - n);
		p += (unsigned)width - n;
	}
	return p;
}

/* printf("%*llx") */
static inline char *put_hex(char *p, uint64_t v, int width)
{
	static const char digits[] = "0123456789abcdef";
	unsigned n = put_hex_digits(v);

	p = put_pad(p, ' ', width, n);
	for (unsigned i = n; i--; v >>= 4)
		p[i] = digits[v & 15];
	return p + n;
}

static inline unsigned put_dec_digits(uint64_t v)
{
	unsigned n = 1;

	for (; v >= 10000; v /= 10000)
		n += 4;
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/* the n digits of v */
static inline char *put_dec_n(char *p, uint64_t v, unsigned n)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324"
				    "25262728293031323334353637383940414243444546474849"
				    "50515253545556575859606162636465666768697071727374"
				    "75767778798081828384858687888990919293949596979899";
	char *e = p + n;

	while (v >= 100) {
		e -= 2;
		memcpy(e, pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10)
		memcpy(e - 2, pairs + 2 * v, 2);
	else
		e[-1] = (char)('0' + v);
	return p + n;
}

/* printf("%*llu"), or "%0*llu" with fill '0' */
static inline char *put_u64(char *p, uint64_t v, int width, char fill)
{
	unsigned n = put_dec_digits(v);

	return put_dec_n(put_pad(p, fill, width, n), v, n);
}

/* printf("%*lld") / printf("%-*lld") */
static inline char *put_i64(char *p, int64_t v, int width, int left)
{
	uint64_t m = v < 0 ? -(uint64_t)v : (uint64_t)v;
	unsigned n = put_dec_digits(m) + (v < 0);

	if (!left)
		p = put_pad(p, ' ', width, n);
	if (v < 0)
		*p++ = '-';
	p = put_dec_n(p, m, n - (v < 0));
	return left ? put_pad(p, ' ', width, n) : p;
}

/* printf("%*s") and printf("%-*s") */
void obuf_pad(struct obuf *o, const char *s, int width, int left);

/* the widths are clamped so that a number always fits a reserve() */
static inline int obuf_width(int width)
{
	return width > OBUF_SLACK / 2 ? OBUF_SLACK / 2 : width;
}

/* printf("%*llu"), zero-padded when zero is set ("%0*llu") */
static inline void obuf_u64(struct obuf *o, uint64_t v, int width, int zero)
{
	char *p = obuf_reserve(o, OBUF_SLACK);

	obuf_commit(o, put_u64(p, v, obuf_width(width), zero ? '0' : ' '));
}

/* printf("%*d") / printf("%-*d") */
static inline void obuf_i64(struct obuf *o, int64_t v, int width, int left)
{
	char *p = obuf_reserve(o, OBUF_SLACK);

	obuf_commit(o, put_i64(p, v, obuf_width(width), left));
}

/* printf("%*llx") */
static inline void obuf_hex(struct obuf *o, uint64_t v, int width)
{
	char *p = obuf_reserve(o, OBUF_SLACK);

	obuf_commit(o, put_hex(p, v, obuf_width(width)));
}

#endif
