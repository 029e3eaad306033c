// SPDX-License-Identifier: MIT
/*
 * perf script -F iregs,uregs: " ABI:2    AX:0x1    BX:0x2 ", each
 * register of the attr's mask with perf's name right-aligned in five
 * columns; nothing for a sample without registers (ABI none, e.g. a
 * kernel thread's user registers).
 */
#include "obuf.h"
#include "script.h"

void script_print_regs(struct script_ctx *c, const struct pk_regs *regs, bool swapped)
{
	struct obuf *o = c->ob;
	uint32_t i = 0;

	if (!regs->abi || !regs->regs)
		return;
	obuf_write(o, " ABI:", 5);
	obuf_u64(o, regs->abi, 0, 0);
	obuf_putc(o, ' ');
	for (uint32_t bit = 0; bit < 64 && i < regs->nr; bit++) {
		const char *name;

		if (!(regs->mask & (1ULL << bit)))
			continue;
		name = pk_reg_name(c->arch, bit);
		/* perf passes a NULL name to printf's %s */
		obuf_pad(o, name ? name : "(null)", 5, 0);
		obuf_write(o, ":0x", 3);
		obuf_hex(o, pk_regs_at(regs, swapped, i++), 0);
		obuf_putc(o, ' ');
	}
}
