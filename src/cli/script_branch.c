// SPDX-License-Identifier: MIT
/*
 * perf script's brstack and brstacksym fields: every branch-stack entry
 * as "from/to/flags", by address or by symbol, each end with its DSO in
 * parentheses when the dso field is on.
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

static void print_end(struct script_ctx *c, const struct pk_session_sample *ev, uint64_t addr,
		      unsigned f, bool sym)
{
	struct pk_location l;

	pk_session_resolve_fallback(c->session, ev->thread, ev->rec->misc & PK_MISC_CPUMODE_MASK,
				    addr, &l);
	if (sym) {
		print_symoff(c->ob, &l);
	} else {
		obuf_write(c->ob, "0x", 2);
		obuf_hex(c->ob, addr, 0);
	}
	print_dso(c->ob, &l, f);
}

void script_print_brstack(struct script_ctx *c, const struct pk_session_sample *ev, unsigned f)
{
	/* perf prints one of the two, brstack first */
	bool sym = !(f & SF_BRSTACK);

	if (!(ev->sample.type & PERF_SAMPLE_BRANCH_STACK))
		return;
	for (uint64_t i = 0; i < ev->sample.branch_nr; i++) {
		struct pk_branch_entry br = pk_sample_branch_at(&ev->sample, i);

		if (!sym)
			obuf_putc(c->ob, ' ');
		print_end(c, ev, br.from, f, sym);
		obuf_putc(c->ob, '/');
		print_end(c, ev, br.to, f, sym);
		print_flags(c->ob, br.flags);
	}
}
