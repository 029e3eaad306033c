// SPDX-License-Identifier: MIT
/* The report's text in memory; see report_out.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include "obuf.h"
#include "report_out.h"

void report_out_init(struct report_out *o)
{
	memset(o, 0, sizeof(*o));
}

void report_out_free(struct report_out *o)
{
	free(o->p);
	report_out_init(o);
}

char *report_out_grow(struct report_out *o, size_t n)
{
	size_t cap = o->cap ? o->cap : 1 << 16;
	char *p;

	while (cap - o->len < n)
		cap *= 2;
	p = realloc(o->p, cap);
	if (!p) {
		o->oom = true;
		return NULL;
	}
	o->p = p;
	o->cap = cap;
	return p + o->len;
}

void report_out_fill(struct report_out *o, char c, size_t n)
{
	char *d = report_out_room(o, n);

	if (!d)
		return;
	memset(d, c, n);
	o->len += n;
}

void report_out_left(struct report_out *o, const char *s, size_t max, size_t width)
{
	size_t n = strnlen(s, max);

	report_out_write(o, s, n);
	if (n < width)
		report_out_fill(o, ' ', width - n);
}

/* The digits of v, in base 16 or 10, into buf (room for 20); how many:
 * script's output buffer's formatting (obuf.h). */
static size_t digits_of(char *buf, uint64_t v, bool hex)
{
	char *end = hex ? put_hex(buf, v, 0) : put_dec_n(buf, v, put_dec_digits(v));

	return (size_t)(end - buf);
}

/* sign, zeros to digits, the digits of m, padded left to width */
static void put_number(struct report_out *o, bool neg, const char *s, size_t n, int width,
		       int digits)
{
	size_t zeros = digits > 0 && (size_t)digits > n ? (size_t)digits - n : 0;
	size_t len = neg + zeros + n;

	if (width > 0 && (size_t)width > len)
		report_out_fill(o, ' ', (size_t)width - len);
	if (neg)
		report_out_putc(o, '-');
	report_out_fill(o, '0', zeros);
	report_out_write(o, s, n);
}

void report_out_int(struct report_out *o, int64_t v, int width, int digits)
{
	uint64_t m = v < 0 ? -(uint64_t)v : (uint64_t)v;
	char buf[24];
	size_t n = digits_of(buf, m, false);

	put_number(o, v < 0, buf, n, width, digits);
}

void report_out_u64(struct report_out *o, uint64_t v, int width)
{
	char buf[24];
	size_t n = digits_of(buf, v, false);

	put_number(o, false, buf, n, width, 0);
}

void report_out_hex(struct report_out *o, uint64_t v, int digits, bool alt)
{
	char buf[24];
	size_t n = digits_of(buf, v, true);

	/* '#' prefixes 0x to all but zero */
	if (alt && v)
		report_out_write(o, "0x", 2);
	if (digits > 0 && (size_t)digits > n)
		report_out_fill(o, '0', (size_t)digits - n);
	report_out_write(o, buf, n);
}

static size_t pct_slot(uint64_t v, uint64_t total)
{
	uint64_t h = (v ^ (total * 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL;

	return (size_t)(h >> 54) % REPORT_PCT_MEMO;
}

void report_out_pct(struct report_out *o, uint64_t v, uint64_t total, int width)
{
	struct report_pct *m = &o->memo[pct_slot(v, total)];

	if (!m->len || m->v != v || m->total != total) {
		double pct = total ? 100.0 * (double)v / (double)total : 0.0;
		int n = snprintf(m->s, sizeof(m->s), "%.2f", pct);

		/* a huge value does not fit: formatted each time */
		if (n < 0 || (size_t)n >= sizeof(m->s)) {
			m->len = 0;
			report_out_printf(o, "%*.2f", width, pct);
			return;
		}
		m->v = v;
		m->total = total;
		m->len = (uint8_t)n;
	}
	if (width > m->len)
		report_out_fill(o, ' ', (size_t)(width - m->len));
	report_out_write(o, m->s, m->len);
}

void report_out_printf(struct report_out *o, const char *fmt, ...)
{
	size_t room = 256;
	va_list ap;
	char *d;
	int n;

	for (;;) {
		d = report_out_room(o, room);
		if (!d)
			return;
		va_start(ap, fmt);
		n = vsnprintf(d, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if ((size_t)n < room)
			break;
		room = (size_t)n + 1;
	}
	o->len += (size_t)n;
}

int report_out_flush(struct report_out *o, FILE *f)
{
	int err = o->oom ? -ENOMEM : 0;

	if (o->len)
		fwrite(o->p, 1, o->len, f);
	o->len = 0;
	o->oom = false;
	return err;
}
