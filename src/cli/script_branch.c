// SPDX-License-Identifier: MIT
/*
 * perf script's brstack, brstacksym and brstackoff fields: every
 * branch-stack entry as "from/to/flags", by address, by symbol or by
 * offset in its DSO, each end with its DSO in parentheses when the dso
 * field is on.
 */
#include <inttypes.h>
#include "obuf.h"
#include "script.h"

/* perf 6.1's names of the PERF_BR_* types; unknown prints nothing */
static const char *type_name(unsigned type)
{
	static const char *const names[] = {
		"",	  "COND",      "UNCOND",   "IND",  "CALL", "IND_CALL", "RET",	"SYSCALL",
		"SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ",  "SERROR",   "NO_TX",
	};

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "";
}

static void print_flags(struct obuf *o, uint64_t flags)
{
	bool mispred = flags & 1, predicted = flags & 2;

	obuf_putc(o, '/');
	obuf_putc(o, predicted ? 'P' : mispred ? 'M' : '-');
	obuf_putc(o, '/');
	obuf_putc(o, flags & 4 ? 'X' : '-');
	obuf_putc(o, '/');
	obuf_putc(o, flags & 8 ? 'A' : '-');
	obuf_putc(o, '/');
	obuf_u64(o, (flags >> 4) & 0xffff, 0, 0);
	obuf_putc(o, '/');
	obuf_puts(o, type_name((unsigned)(flags >> 20) & 0xf));
	obuf_putc(o, ' ');
}

static void print_dso(struct obuf *o, const struct pk_location *l, unsigned f)
{
	if (!(f & SF_DSO))
		return;
	obuf_putc(o, '(');
	obuf_puts(o, pk_dso_name(l->dso));
	obuf_putc(o, ')');
}

static void print_symoff(struct obuf *o, const struct pk_location *l)
{
	if (!l->sym) {
		obuf_puts(o, "[unknown]");
		return;
	}
	obuf_puts(o, l->sym->name);
	obuf_write(o, "+0x", 3);
	obuf_hex(o, l->addr - l->sym->start, 0);
}

enum br_mode { BR_ADDR, BR_SYM, BR_OFF };

static void print_end(struct script_ctx *c, const struct pk_session_sample *ev, uint64_t addr,
		      unsigned f, enum br_mode mode)
{
	struct pk_location l;

	pk_session_resolve_fallback(c->session, ev->thread, ev->rec->misc & PK_MISC_CPUMODE_MASK,
				    addr, &l);
	if (mode == BR_SYM) {
		print_symoff(c->ob, &l);
	} else {
		/* brstackoff: the address in its DSO's terms, when in a map */
		obuf_write(c->ob, "0x", 2);
		obuf_hex(c->ob, mode == BR_OFF && l.dso ? l.addr : addr, 0);
	}
	print_dso(c->ob, &l, f);
}

void script_print_brstack(struct script_ctx *c, const struct pk_session_sample *ev, unsigned f)
{
	/* perf prints one of the three: brstack, else brstacksym, else brstackoff */
	enum br_mode mode = (f & SF_BRSTACK) ? BR_ADDR : (f & SF_BRSTACKSYM) ? BR_SYM : BR_OFF;

	if (!(ev->sample.type & PERF_SAMPLE_BRANCH_STACK))
		return;
	for (uint64_t i = 0; i < ev->sample.branch_nr; i++) {
		struct pk_branch_entry br = pk_sample_branch_at(&ev->sample, i);

		if (mode != BR_SYM)
			obuf_putc(c->ob, ' ');
		print_end(c, ev, br.from, f, mode);
		obuf_putc(c->ob, '/');
		print_end(c, ev, br.to, f, mode);
		print_flags(c->ob, br.flags);
	}
}
