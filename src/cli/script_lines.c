// SPDX-License-Identifier: MIT
/*
 * Callchain lines, formatted once.  A callchain line ("\t<addr> sym+off
 * (dso)") depends only on the printed address, the symbol, the DSO and
 * the event's fields, and a recording prints the same few thousand lines
 * millions of times: so the text is kept in a direct-mapped table, small
 * enough to stay in the CPU's cache, and a hit is one memcpy.  Symbols and
 * DSOs live as long as the session, so their addresses are fair keys.
 */
#include <stdlib.h>
#include "obuf.h"
#include "script.h"

#define LINE_BITS 12
#define LINE_TEXT 100 /* longer lines are formatted each time */

struct line {
	uint64_t addr;
	const struct pk_symbol *sym;
	const struct pk_dso *dso;
	unsigned fields;
	uint16_t len;	/* 0: empty */
	char text[LINE_TEXT];
};

struct script_lines {
	struct line v[1u << LINE_BITS];
};

struct script_lines *script_lines_new(void)
{
	return calloc(1, sizeof(struct script_lines));
}

void script_lines_free(struct script_lines *l)
{
	free(l);
}

static size_t hex_len(uint64_t v, size_t width)
{
	size_t n = put_hex_digits(v);

	return n > width ? n : width;
}

static bool has_symoff(const struct pk_location *l, unsigned f)
{
	return (f & SF_SYMOFF) && l->sym && l->addr < l->sym->end;
}

/* The line's length, and where the symbol's and the DSO's names go. */
static size_t line_len(const struct pk_location *l, uint64_t addr, unsigned f, size_t *sym_len,
		       size_t *dso_len)
{
	size_t n = 1 + hex_len(addr, 16) + 1;

	*sym_len = *dso_len = 0;
	if (f & SF_SYM) {
		*sym_len = l->sym ? strlen(l->sym->name) : strlen("[unknown]");
		n += 1 + *sym_len;
		if (has_symoff(l, f))
			n += 3 + put_hex_digits(l->addr - l->sym->start);
	}
	if (l->sym && l->sym->inlined) {
		n += strlen(" (inlined)");
	} else if (f & SF_DSO) {
		*dso_len = strlen(pk_dso_name(l->dso));
		n += 3 + *dso_len;
	}
	return n;
}

/* As script_print.c's print_sym(), into p, which has room for it. */
static char *put_line(char *p, const struct pk_location *l, uint64_t addr, unsigned f,
		      size_t sym_len, size_t dso_len)
{
	*p++ = '\t';
	p = put_hex(p, addr, 16);
	if (f & SF_SYM) {
		*p++ = ' ';
		memcpy(p, l->sym ? l->sym->name : "[unknown]", sym_len);
		p += sym_len;
		if (has_symoff(l, f)) {
			memcpy(p, "+0x", 3);
			p = put_hex(p + 3, l->addr - l->sym->start, 0);
		}
	}
	if (l->sym && l->sym->inlined) {
		memcpy(p, " (inlined)", 10);
		p += 10;
	} else if (f & SF_DSO) {
		memcpy(p, " (", 2);
		memcpy(p + 2, pk_dso_name(l->dso), dso_len);
		p += 2 + dso_len;
		*p++ = ')';
	}
	*p++ = '\n';
	return p;
}

static struct line *slot(struct script_lines *t, uint64_t addr, const struct pk_location *l)
{
	uint64_t h = (addr ^ ((uintptr_t)l->sym >> 3) ^ ((uintptr_t)l->dso << 7)) *
		     0x9E3779B97F4A7C15ULL;

	return &t->v[h >> (64 - LINE_BITS)];
}

void script_print_frame(struct script_ctx *c, const struct pk_location *l, unsigned f)
{
	/* perf prints kernel and module frames as recorded */
	uint64_t addr = pk_dso_is_kernel(l->dso) ? l->ip : l->addr;
	struct line *e = slot(c->lines, addr, l);
	size_t n, sym_len, dso_len;
	char *p;

	if (e->len && e->addr == addr && e->sym == l->sym && e->dso == l->dso && e->fields == f) {
		obuf_write(c->ob, e->text, e->len);
		return;
	}
	n = line_len(l, addr, f, &sym_len, &dso_len);
	if (n <= LINE_TEXT) {
		put_line(e->text, l, addr, f, sym_len, dso_len);
		e->len = (uint16_t)n;
		e->addr = addr;
		e->sym = l->sym;
		e->dso = l->dso;
		e->fields = f;
		obuf_write(c->ob, e->text, n);
		return;
	}
	if (n <= OBUF_SLACK) {
		p = obuf_reserve(c->ob, n);
		obuf_commit(c->ob, put_line(p, l, addr, f, sym_len, dso_len));
		return;
	}
	/* a name of kilobytes: piece by piece */
	obuf_putc(c->ob, '\t');
	obuf_hex(c->ob, addr, 16);
	script_print_sym(c->ob, l, f);
	obuf_putc(c->ob, '\n');
}
