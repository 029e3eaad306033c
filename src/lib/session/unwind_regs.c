// SPDX-License-Identifier: MIT
/*
 * The sample's user registers (perf_regs numbering, packed by the
 * sample_regs_user mask) as the DWARF registers libdw starts unwinding
 * from.
 */
#include <string.h>
#include <sys/utsname.h>
#include "unwind_internal.h"
#include "internal.h"

/* perf_regs numbers (asm/perf_regs.h) */
enum { X86_AX, X86_BX, X86_CX, X86_DX, X86_SI, X86_DI, X86_BP, X86_SP, X86_IP, X86_R8 = 16 };
#define ARM64_SP 31
#define ARM64_PC 32

/* DWARF register i of x86-64 (rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip)
 * is perf register x86_dwarf[i] */
static const unsigned char x86_dwarf[17] = {
	X86_AX,	    X86_DX,	X86_CX,	    X86_BX,	X86_SI,	    X86_DI,
	X86_BP,	    X86_SP,	X86_R8,	    X86_R8 + 1, X86_R8 + 2, X86_R8 + 3,
	X86_R8 + 4, X86_R8 + 5, X86_R8 + 6, X86_R8 + 7, X86_IP,
};

enum pki_unwind_arch pki_unwind_arch(struct pk_session *s)
{
	const struct pk_header *h = s->reader ? pk_reader_header(s->reader) : NULL;
	const char *arch = h && h->arch ? h->arch : NULL;
	struct utsname u;

	/* a pipe without the header's arch: the machine reading it */
	if (!arch && !uname(&u))
		arch = u.machine;
	if (!arch)
		return PKI_ARCH_NONE;
	if (!strcmp(arch, "x86_64"))
		return PKI_ARCH_X86_64;
	if (!strcmp(arch, "aarch64") || !strcmp(arch, "arm64"))
		return PKI_ARCH_AARCH64;
	return PKI_ARCH_NONE;
}

/* Value of perf register r, 0 when the mask leaves it out. */
static uint64_t perf_reg(const struct pk_sample *s, unsigned r)
{
	uint64_t mask = s->regs_user.mask;

	if (r >= 64 || !(mask & (1ULL << r)))
		return 0;
	return pk_regs_at(&s->regs_user, s->swapped,
			  (uint32_t)__builtin_popcountll(mask & ((1ULL << r) - 1)));
}

static bool has_reg(const struct pk_sample *s, unsigned r)
{
	return r < 64 && (s->regs_user.mask & (1ULL << r));
}

bool pki_unwind_regs(enum pki_unwind_arch arch, const struct pk_sample *s, uint64_t *regs,
		     unsigned *nr, uint64_t *pc, uint64_t *sp)
{
	/* PERF_SAMPLE_REGS_ABI_64: a 32-bit task's registers are another set */
	if (s->regs_user.abi != 2 || !s->regs_user.regs)
		return false;
	switch (arch) {
	case PKI_ARCH_X86_64:
		if (!has_reg(s, X86_IP) || !has_reg(s, X86_SP))
			return false;
		for (unsigned i = 0; i < PK_ARRAY_SIZE(x86_dwarf); i++)
			regs[i] = perf_reg(s, x86_dwarf[i]);
		*nr = PK_ARRAY_SIZE(x86_dwarf);
		*pc = perf_reg(s, X86_IP);
		*sp = perf_reg(s, X86_SP);
		return true;
	case PKI_ARCH_AARCH64:
		if (!has_reg(s, ARM64_PC) || !has_reg(s, ARM64_SP))
			return false;
		for (unsigned i = 0; i <= ARM64_SP; i++)
			regs[i] = perf_reg(s, i);
		*nr = ARM64_SP + 1;
		*pc = perf_reg(s, ARM64_PC);
		*sp = perf_reg(s, ARM64_SP);
		return true;
	default:
		return false;
	}
}
