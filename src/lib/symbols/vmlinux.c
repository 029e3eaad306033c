// SPDX-License-Identifier: MIT
/*
 * Kernel symbols from a vmlinux image (perf's -k/--vmlinux).
 *
 * The image's .symtab gives the symbols of its .text at their link-time
 * addresses.  A kernel that ran with KASLR sits elsewhere: the recording
 * names a reference symbol and where it was (the kernel MMAP's
 * "[kernel.kallsyms]_text" and pgoff), and the image's own value of that
 * symbol gives the shift.  Kernel symbols stay in run-time address space,
 * as kallsyms' do.  Symbols of other sections (.init.text, data) are not
 * kept: perf puts them in maps of their own, outside the kernel's.
 */
#include <errno.h>
#include <string.h>
#include "elf_internal.h"
#include "internal.h"

/* The value of the first symbol called name in the table, or false. */
static bool find_ref(Elf *elf, Elf_Data *data, const GElf_Shdr *shdr, const char *name,
		     uint64_t *value)
{
	size_t n = shdr->sh_size / shdr->sh_entsize;

	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *s;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		s = elf_strptr(elf, shdr->sh_link, sym.st_name);
		if (s && !strcmp(s, name)) {
			*value = sym.st_value;
			return true;
		}
	}
	return false;
}

static int add_text_symbols(struct pk_symtab *st, Elf *elf, Elf_Data *data,
			    const GElf_Shdr *shdr, size_t text, int64_t shift)
{
	size_t n = shdr->sh_size / shdr->sh_entsize;

	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		uint64_t unused;
		int err;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		if (sym.st_shndx != text)
			continue;
		name = elf_strptr(elf, shdr->sh_link, sym.st_name);
		if (!pki_elf_symbol_wanted(elf, elf, &sym, name, &unused))
			continue;
		err = pki_symtab_add(st, sym.st_value + (uint64_t)shift, sym.st_size, name,
				     pki_elf_bind(&sym), 0);
		if (err)
			return err;
		if (GELF_ST_TYPE(sym.st_info) == STT_OBJECT)
			pki_symtab_last_is_object(st);
	}
	return 0;
}

static int load(struct pk_symtab *st, Elf *elf, const char *ref_name, uint64_t ref_addr,
		uint64_t ran[2])
{
	GElf_Shdr sym_shdr, text_shdr;
	Elf_Scn *symtab = pki_elf_symbols(elf, ".symtab", &sym_shdr);
	Elf_Scn *text = pki_elf_section(elf, ".text", &text_shdr);
	Elf_Data *data;
	uint64_t ref_here;
	int64_t shift = 0;

	if (!symtab || !text || !sym_shdr.sh_entsize)
		return -EINVAL;
	data = elf_getdata(symtab, NULL);
	if (!data)
		return -EINVAL;
	/* no reference symbol in the image: perf leaves it where it was linked */
	if (ref_name && find_ref(elf, data, &sym_shdr, ref_name, &ref_here))
		shift = (int64_t)(ref_addr - ref_here);
	ran[0] = text_shdr.sh_addr + (uint64_t)shift;
	ran[1] = ran[0] + text_shdr.sh_size;
	return add_text_symbols(st, elf, data, &sym_shdr, elf_ndxscn(text), shift);
}

int pki_symtab_load_vmlinux(struct pk_symtab **out, const char *path,
			    const struct pk_build_id *bid, const char *ref_name,
			    uint64_t ref_addr, const struct pk_symtab_opts *opts, uint64_t text[2])
{
	struct pki_elf_file f;
	struct pk_symtab *st;
	int err;

	*out = NULL;
	err = pki_elf_file_open(&f, path);
	if (err) {
		pki_debug("%s: %s", path, err == -EINVAL ? "not an ELF file" : strerror(-err));
		return err;
	}
	err = -ENOENT;
	if (!pki_elf_build_id_matches(&f, bid))
		goto out;
	err = -ENOMEM;
	st = pki_symtab_new(opts);
	if (!st)
		goto out;
	err = load(st, f.elf, ref_name, ref_addr, text);
	if (err)
		pki_debug("%s: no .symtab or no .text: not a vmlinux", path);
	if (!err)
		err = pki_symtab_finish(st, PKI_FIXUP_ELF);
	if (err)
		pk_symtab_free(st);
	else
		*out = st;
out:
	pki_elf_file_close(&f);
	return err;
}

int pk_symtab_load_vmlinux(struct pk_symtab **out, const char *path,
			   const struct pk_build_id *bid, const char *ref_name,
			   uint64_t ref_addr, const struct pk_symtab_opts *opts)
{
	uint64_t text[2];

	return pki_symtab_load_vmlinux(out, path, bid, ref_name, ref_addr, opts, text);
}
