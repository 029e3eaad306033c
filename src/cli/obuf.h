/* SPDX-License-Identifier: MIT */
/*
 * A fast text output buffer for the commands that print millions of lines
 * (script): hand-rolled number formatting instead of printf, and the
 * write(2)s done by a second thread while the next buffer fills, so
 * formatting and the kernel's copying run on both cores.
 */
#ifndef PK_CLI_OBUF_H
#define PK_CLI_OBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct obuf;

/* Write to fd from now on (the caller flushed any stdio buffer on it).
 * NULL when out of memory. */
struct obuf *obuf_open(int fd);
/* Flush, wait for the writer, free.  Returns 0 or the first write error
 * (-errno, e.g. -EPIPE). */
int obuf_close(struct obuf *o);

/* The current buffer has room for n more bytes after this. */
char *obuf_reserve(struct obuf *o, size_t n);
void obuf_commit(struct obuf *o, char *end);

void obuf_write(struct obuf *o, const void *p, size_t n);

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

/* printf("%*s") and printf("%-*s") */
void obuf_pad(struct obuf *o, const char *s, int width, int left);
/* printf("%*llu"), zero-padded when zero is set ("%0*llu") */
void obuf_u64(struct obuf *o, uint64_t v, int width, int zero);
/* printf("%*d") / printf("%-*d") */
void obuf_i64(struct obuf *o, int64_t v, int width, int left);
/* printf("%*llx") */
void obuf_hex(struct obuf *o, uint64_t v, int width);

#endif
