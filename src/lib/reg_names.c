// SPDX-License-Identifier: MIT
/*
 * Register names of PERF_SAMPLE_REGS_USER/INTR bits, as perf script
 * prints them (the kernel's perf_regs.h order for each architecture).
 */
#include <string.h>
#include <perfkit/sample.h>

static const char *const x86_names[] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP",  "SP",  "IP",	 "FLAGS", "CS",	 "SS",
	"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13",	  "R14", "R15",
};

static const char *const xmm_names[] = {
	"XMM0", "XMM1", "XMM2",	 "XMM3",  "XMM4",  "XMM5",  "XMM6",  "XMM7",
	"XMM8", "XMM9", "XMM10", "XMM11", "XMM12", "XMM13", "XMM14", "XMM15",
};

static const char *const arm64_names[] = {
	"x0",  "x1",  "x2",  "x3",  "x4",  "x5",  "x6",	 "x7",	"x8",  "x9",  "x10", "x11",
	"x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21", "x22", "x23",
	"x24", "x25", "x26", "x27", "x28", "x29", "lr",	 "sp",	"pc",  "vg",
};

static const char *const arm_names[] = {
	"r0", "r1", "r2",  "r3", "r4", "r5", "r6", "r7",
	"r8", "r9", "r10", "fp", "ip", "sp", "lr", "pc",
};

#define PICK(tab, i) ((i) < sizeof(tab) / sizeof(tab[0]) ? tab[i] : NULL)

/* perf's names for uname machines: x86_64 and i686 are "x86", ... */
static int arch_of(const char *arch)
{
	if (!arch || !strcmp(arch, "x86_64") || !strcmp(arch, "x86") ||
	    (arch[0] == 'i' && !strcmp(arch + 2, "86")))
		return 'x';
	if (!strcmp(arch, "aarch64") || !strcmp(arch, "arm64"))
		return 'A';
	if (!strncmp(arch, "arm", 3))
		return 'a';
	return 0;
}

const char *pk_reg_name(const char *arch, uint32_t idx)
{
	switch (arch_of(arch)) {
	case 'x':
		/* XMM registers take two bits each; perf names the first */
		if (idx >= 32 && idx < 64)
			return idx % 2 ? NULL : xmm_names[(idx - 32) / 2];
		return PICK(x86_names, idx);
	case 'A':
		return PICK(arm64_names, idx);
	case 'a':
		return PICK(arm_names, idx);
	default:
		return NULL;
	}
}
