// SPDX-License-Identifier: MIT
/*
 * ELF symbols through libelf.
 *
 * perf symbolizes user space in file-offset space, so every symbol value
 * is moved by its PT_LOAD's (p_vaddr - p_offset) of the run-time binary.
 * Which files give the symbols and the binary is symsrc.c's business.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <gelf.h>
#include <inttypes.h>
#include <sys/auxv.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "elf_internal.h"
#include "internal.h"

static int load_symbols(struct pk_symtab *st, Elf *elf, Elf_Scn *scn, const GElf_Shdr *shdr,
			Elf *runtime)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n;

	if (!data || !shdr->sh_entsize)
		return 0;
	n = shdr->sh_size / shdr->sh_entsize;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		uint64_t addr;
		int err;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		name = elf_strptr(elf, shdr->sh_link, sym.st_name);
		if (!pki_elf_symbol_wanted(elf, runtime, &sym, name, &addr))
			continue;
		err = pki_symtab_add(st, addr, sym.st_size, name, pki_elf_bind(&sym), 0);
		if (err)
			return err;
		if (GELF_ST_TYPE(sym.st_info) == STT_OBJECT)
			pki_symtab_last_is_object(st);
	}
	return 0;
}

/*
 * perf reads "[vdso]" it has no copy of from its own process: the running
 * kernel's vdso.  The image is copied so libelf works on plain memory.
 */
static int open_own_vdso(struct pki_elf_file *f)
{
	uint64_t base = getauxval(AT_SYSINFO_EHDR), start, end;
	FILE *maps = fopen("/proc/self/maps", "re");
	char line[512];
	size_t size = 0;

	if (!base || !maps) {
		if (maps)
			fclose(maps);
		return -ENOENT;
	}
	while (fgets(line, sizeof(line), maps)) {
		if (sscanf(line, "%" SCNx64 "-%" SCNx64, &start, &end) == 2 && start == base &&
		    strstr(line, "[vdso]")) {
			size = end - start;
			break;
		}
	}
	fclose(maps);
	f->fd = -1;
	if (!size || size > (64u << 20) || !(f->image = malloc(size)))
		return -ENOENT;
	memcpy(f->image, (const void *)(uintptr_t)base, size);
	snprintf(f->path, sizeof(f->path), "[vdso]");
	elf_version(EV_CURRENT);
	f->elf = elf_memory(f->image, size);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF) {
		pki_elf_file_close(f);
		return -EINVAL;
	}
	return 0;
}

/* The running kernel's vdso stands in for a "[vdso]" the caches lack. */
static int find_vdso(struct pki_symsrc *src, const struct pk_build_id *bid)
{
	struct pk_build_id have = {0};

	if (open_own_vdso(&src->runtime))
		return -ENOENT;
	if (bid && bid->size && (pki_elf_read_build_id(src->runtime.elf, &have) ||
				 memcmp(have.data, bid->data, have.size))) {
		pki_elf_file_close(&src->runtime);
		return -ENOENT;
	}
	return 0;
}

/*
 * The table's symbols: the .symtab found, else MiniDebugInfo's added to the
 * binary's .dynsym (it holds only what .dynsym lacks), else .dynsym alone.
 */
static int load_tables(struct pk_symtab *st, struct pki_symsrc *src, const char *path)
{
	struct pki_elf_file mini;
	Elf *rt = src->runtime.elf;
	GElf_Shdr shdr;
	Elf_Scn *scn;
	int err = 0;

	if (src->syms.elf) {
		scn = pki_elf_symbols(src->syms.elf, ".symtab", &shdr);
		return load_symbols(st, src->syms.elf, scn, &shdr, rt);
	}
	scn = pki_elf_symbols(rt, ".symtab", &shdr);
	if (scn)
		return load_symbols(st, rt, scn, &shdr, rt);
	if (!pki_elf_open_debugdata(&mini, rt, path)) {
		scn = pki_elf_symbols(mini.elf, ".symtab", &shdr);
		if (scn)
			err = load_symbols(st, mini.elf, scn, &shdr, rt);
		pki_elf_file_close(&mini);
	}
	scn = pki_elf_symbols(rt, ".dynsym", &shdr);
	if (!err && scn)
		err = load_symbols(st, rt, scn, &shdr, rt);
	return err;
}

int pk_symtab_load_elf(struct pk_symtab **out, const char *path, const struct pk_build_id *bid,
		       const struct pk_symtab_opts *opts)
{
	struct pki_symsrc src;
	struct pk_symtab *st;
	int err;

	*out = NULL;
	err = pki_symsrc_find(&src, path, bid, opts);
	if (err == -ENOENT && !strcmp(path, "[vdso]"))
		err = find_vdso(&src, bid);
	if (err)
		goto out;
	err = -ENOMEM;
	st = pki_symtab_new(opts);
	if (!st)
		goto out;
	err = load_tables(st, &src, path);
	/* perf synthesizes the PLT's symbols after cleaning up the others */
	pki_symtab_mark_late(st);
	if (!err)
		err = pki_elf_add_plt(st, src.runtime.elf);
	if (!err)
		err = pki_symtab_finish(st, PKI_FIXUP_ELF);
	if (err)
		pk_symtab_free(st);
	else
		*out = st;
out:
	pki_symsrc_close(&src);
	return err;
}
