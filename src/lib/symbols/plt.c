// SPDX-License-Identifier: MIT
/*
 * "name@plt" symbols for the PLT slots of a dynamically linked object, in
 * file-offset space like the other user-space symbols.  Slot i of
 * .rela.plt (or .rel.plt) is at .plt.sec + i * entry when the object has
 * that section (IBT), else after the 16-byte PLT header of .plt.
 */
#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "elf_internal.h"

static bool rel_symbol(Elf_Data *data, bool rela, size_t i, size_t *symidx)
{
	if (rela) {
		GElf_Rela r;

		if (!gelf_getrela(data, (int)i, &r))
			return false;
		*symidx = GELF_R_SYM(r.r_info);
	} else {
		GElf_Rel r;

		if (!gelf_getrel(data, (int)i, &r))
			return false;
		*symidx = GELF_R_SYM(r.r_info);
	}
	return true;
}

int pki_elf_add_plt(struct pk_symtab *st, Elf *elf)
{
	GElf_Shdr rel_sh, plt_sh, dyn_sh;
	Elf_Scn *rel, *plt, *dyn;
	Elf_Data *rel_data, *dyn_data;
	bool rela = true, sec = true;
	uint64_t base, entry = 16;
	size_t nr;
	GElf_Ehdr eh;

	if (!gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64)
		return 0; /* other architectures: slot layout differs, skip */
	rel = pki_elf_section(elf, ".rela.plt", &rel_sh);
	if (!rel) {
		rel = pki_elf_section(elf, ".rel.plt", &rel_sh);
		rela = false;
	}
	plt = pki_elf_section(elf, ".plt.sec", &plt_sh);
	if (!plt) {
		plt = pki_elf_section(elf, ".plt", &plt_sh);
		sec = false;
	}
	if (!rel || !plt || !rel_sh.sh_entsize)
		return 0;
	/* a static binary's PLT (IRELATIVE slots) names no symbols: perf adds none */
	dyn = elf_getscn(elf, rel_sh.sh_link);
	if (!dyn || !gelf_getshdr(dyn, &dyn_sh) || dyn_sh.sh_type != SHT_DYNSYM)
		return 0;
	rel_data = elf_getdata(rel, NULL);
	dyn_data = elf_getdata(dyn, NULL);
	if (!rel_data || !dyn_data)
		return 0;
	base = plt_sh.sh_offset + (sec ? 0 : entry);
	nr = rel_sh.sh_size / rel_sh.sh_entsize;
	for (size_t i = 0; i < nr; i++) {
		char name[512];
		const char *sym_name;
		size_t symidx;
		GElf_Sym sym;
		char *dem;
		int err;

		if (!rel_symbol(rel_data, rela, i, &symidx) ||
		    !gelf_getsym(dyn_data, (int)symidx, &sym))
			break;
		sym_name = elf_strptr(elf, dyn_sh.sh_link, sym.st_name);
		/* IRELATIVE slots have no symbol: perf calls them "@plt" */
		if (!sym_name)
			sym_name = "";
		if (base + (i + 1) * entry > plt_sh.sh_offset + plt_sh.sh_size)
			break;
		/* perf demangles the target's name, then adds "@plt" */
		dem = st->demangle ? pk_demangle(sym_name) : NULL;
		snprintf(name, sizeof(name), "%s@plt", dem ? dem : sym_name);
		free(dem);
		err = pki_symtab_add_raw(st, base + i * entry, entry, name, PKI_BIND_GLOBAL, 0);
		if (err)
			return err;
	}
	return 0;
}
