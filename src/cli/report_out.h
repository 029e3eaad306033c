/* SPDX-License-Identifier: MIT */
/*
 * The text of perfkit report --stdio's entries, built in memory: a big
 * report is hundreds of thousands of lines, and printf() with its format
 * parsing and stdio's locking in a threaded program cost more than the
 * formatting itself.  Strings, padding and numbers are copied in by hand;
 * the percentages, which must round exactly as printf("%.2f") does, are
 * still formatted by snprintf() but remembered, since entries share few
 * distinct values.
 */
#ifndef PK_CLI_REPORT_OUT_H
#define PK_CLI_REPORT_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define REPORT_PCT_MEMO 1024

struct report_pct {
	uint64_t v, total;
	uint8_t len;		/* 0: empty slot */
	char s[23];
};

struct report_out {
	char *p;
	size_t len, cap;
	bool oom;		/* a reservation failed: the text is cut */
	struct report_pct memo[REPORT_PCT_MEMO];
};

void report_out_init(struct report_out *o);
void report_out_free(struct report_out *o);
/* Room for n more bytes at o->p + o->len, NULL when out of memory. */
char *report_out_grow(struct report_out *o, size_t n);

static inline char *report_out_room(struct report_out *o, size_t n)
{
	return o->cap - o->len >= n ? o->p + o->len : report_out_grow(o, n);
}

static inline void report_out_write(struct report_out *o, const char *s, size_t n)
{
	char *d = report_out_room(o, n);

	if (!d)
		return;
	memcpy(d, s, n);
	o->len += n;
}

static inline void report_out_puts(struct report_out *o, const char *s)
{
	report_out_write(o, s, strlen(s));
}

static inline void report_out_putc(struct report_out *o, char c)
{
	char *d = report_out_room(o, 1);

	if (!d)
		return;
	*d = c;
	o->len++;
}

/* n copies of c */
void report_out_fill(struct report_out *o, char c, size_t n);
/* printf("%-*.*s", width, max, s): at most max bytes of s, padded to width */
void report_out_left(struct report_out *o, const char *s, size_t max, size_t width);
/* printf("%*d") and, with digits > 0, printf("%*.*d", width, digits) */
void report_out_int(struct report_out *o, int64_t v, int width, int digits);
/* printf("%*" PRIu64) */
void report_out_u64(struct report_out *o, uint64_t v, int width);
/* printf("%.*" PRIx64, digits), with alt printf("%#.*" PRIx64, digits) */
void report_out_hex(struct report_out *o, uint64_t v, int digits, bool alt);
/* printf("%*.2f", width, 100.0 * v / total) (0 when total is) */
void report_out_pct(struct report_out *o, uint64_t v, uint64_t total, int width);
void report_out_printf(struct report_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Hand the text to f and empty o; -ENOMEM when text was lost for memory
 * (write errors are f's, as with the rest of the report). */
int report_out_flush(struct report_out *o, FILE *f);

#endif
