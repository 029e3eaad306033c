// SPDX-License-Identifier: MIT
/*
 * Which ELF symbols a user-space symbol table holds, and where they land in
 * file-offset space: perf 6.1's rules, so that an address resolves to the
 * same name as in perf.
 *
 * Functions (STT_FUNC, STT_GNU_IFUNC) and data objects (STT_OBJECT) are
 * kept: a garbage callchain frame (a binary built without frame pointers)
 * often points into .data or .rodata, and perf names it after the object
 * there ("vtable for Foo+0x10").  Untyped symbols are kept as labels only
 * in sections whose name has "text" or "data" in it (so .rodata too), and
 * not when hidden or internal.
 * Absolute symbols and those in sections that are not loaded (no SHF_ALLOC)
 * never are.
 */
#include <string.h>
#include "elf_internal.h"

static bool is_label(const GElf_Sym *sym)
{
	int vis = GELF_ST_VISIBILITY(sym->st_other);

	return GELF_ST_TYPE(sym->st_info) == STT_NOTYPE && sym->st_shndx != SHN_ABS &&
	       vis != STV_HIDDEN && vis != STV_INTERNAL;
}

static bool is_kept_type(const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	return type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT;
}

static bool is_arm_mapping_symbol(Elf *elf, const char *name)
{
	GElf_Ehdr eh;

	if (!gelf_getehdr(elf, &eh) || (eh.e_machine != EM_ARM && eh.e_machine != EM_AARCH64))
		return false;
	return name[0] == '$' && name[1] && strchr("adtx", name[1]) &&
	       (name[2] == '\0' || name[2] == '.');
}

/*
 * The header of the symbol's section.  A separate debug file keeps the
 * section table but not the contents (SHT_NOBITS, with a meaningless
 * offset): the binary's own header then describes the section.
 */
static bool symbol_section(Elf *syms, Elf *runtime, size_t shndx, GElf_Shdr *shdr, Elf **owner)
{
	Elf_Scn *scn = elf_getscn(syms, shndx);

	if (!scn || !gelf_getshdr(scn, shdr))
		return false;
	*owner = syms;
	if (shdr->sh_type == SHT_NOBITS && runtime != syms) {
		GElf_Shdr rt;

		scn = elf_getscn(runtime, shndx);
		if (scn && gelf_getshdr(scn, &rt)) {
			*shdr = rt;
			*owner = runtime;
		}
	}
	return true;
}

static bool section_name_has(Elf *elf, const GElf_Shdr *shdr, const char *what)
{
	size_t shstrndx;
	const char *name;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	name = elf_strptr(elf, shstrndx, shdr->sh_name);
	return name && strstr(name, what);
}

/* p_vaddr - p_offset of the loadable segment holding addr. */
static bool segment_delta(Elf *elf, uint64_t addr, uint64_t *delta)
{
	size_t n;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		uint64_t size;

		if (!gelf_getphdr(elf, (int)i, &ph))
			return false;
		if (ph.p_type != PT_LOAD)
			continue;
		size = ph.p_memsz > ph.p_filesz ? ph.p_memsz : ph.p_filesz;
		if (size && addr >= ph.p_vaddr && addr - ph.p_vaddr < size) {
			*delta = ph.p_vaddr - ph.p_offset;
			return true;
		}
	}
	return false;
}

bool pki_elf_symbol_wanted(Elf *syms, Elf *runtime, const GElf_Sym *sym, const char *name,
			   uint64_t *file_addr)
{
	bool label = is_label(sym);
	uint64_t delta;
	GElf_Shdr shdr;
	Elf *owner;

	if (!name || !sym->st_name || sym->st_shndx == SHN_UNDEF || sym->st_shndx == SHN_ABS)
		return false;
	if (!label && !is_kept_type(sym))
		return false;
	if (is_arm_mapping_symbol(syms, name))
		return false;
	if (!symbol_section(syms, runtime, sym->st_shndx, &shdr, &owner))
		return false;
	if (!(shdr.sh_flags & SHF_ALLOC))
		return false;
	if (label && !section_name_has(owner, &shdr, "text") &&
	    !section_name_has(owner, &shdr, "data"))
		return false;
	/* outside every segment (rare: hand-made ELF): the section says */
	if (!segment_delta(runtime, sym->st_value, &delta))
		delta = shdr.sh_addr - shdr.sh_offset;
	*file_addr = sym->st_value - delta;
	return true;
}

uint8_t pki_elf_bind(const GElf_Sym *sym)
{
	switch (GELF_ST_BIND(sym->st_info)) {
	case STB_GLOBAL:
		return PKI_BIND_GLOBAL;
	case STB_WEAK:
		return PKI_BIND_WEAK;
	default:
		return PKI_BIND_LOCAL;
	}
}
