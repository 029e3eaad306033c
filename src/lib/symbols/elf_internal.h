/* SPDX-License-Identifier: MIT */
/* ELF helpers shared by the files of the symbols area. */
#ifndef PK_ELF_INTERNAL_H
#define PK_ELF_INTERNAL_H

#include <gelf.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include "symtab_internal.h"

/* An open ELF file, or an ELF image in memory (image, fd -1). */
struct pki_elf_file {
	int fd;
	Elf *elf;
	void *image;		/* owned: freed on close */
	char path[PATH_MAX];
};

int pki_elf_file_open(struct pki_elf_file *f, const char *path);
void pki_elf_file_close(struct pki_elf_file *f);

/* The first section called want, or NULL. */
Elf_Scn *pki_elf_section(Elf *elf, const char *want, GElf_Shdr *shdr);

/* ".symtab" or ".dynsym" when it is a symbol table with contents, or NULL. */
Elf_Scn *pki_elf_symbols(Elf *elf, const char *name, GElf_Shdr *shdr);

/* Whether elf holds its code (not a separate debug file). */
bool pki_elf_is_image(Elf *elf);

int pki_elf_read_build_id(Elf *elf, struct pk_build_id *out);

/* Whether f has the build id want (true when want is NULL or empty); a
 * file without one never matches.  Says why not under -v. */
bool pki_elf_build_id_matches(const struct pki_elf_file *f, const struct pk_build_id *want);

/* opts->buildid_dir, else $PERF_BUILDID_DIR, else $HOME/.debug (in buf). */
const char *pki_buildid_dir(const struct pk_symtab_opts *opts, char *buf, size_t len);

/* The files that may describe a DSO, in the order they are tried. */
struct pki_symsrc_list {
	char path[12][PATH_MAX];
	int nr;
};

void pki_symsrc_list(struct pki_symsrc_list *c, const char *path, const struct pk_build_id *bid,
		     const struct pk_symtab_opts *opts);

/*
 * The files a DSO's symbols come from: syms (a .symtab, or none) and
 * runtime (the binary or its copy, whose segments place the symbols).
 * Returns 0 when a runtime image was found, -ENOENT otherwise; syms is
 * only ever set together with runtime.  Close with pki_symsrc_close().
 */
struct pki_symsrc {
	struct pki_elf_file syms;
	struct pki_elf_file runtime;
};

/*
 * Take the file at path for the roles of src it can fill and src still
 * lacks, when its build id is bid (none: any).  Returns whether it was
 * kept (src then owns it).
 */
bool pki_symsrc_offer(struct pki_symsrc *src, const char *path, const struct pk_build_id *bid);

int pki_symsrc_find(struct pki_symsrc *src, const char *path, const struct pk_build_id *bid,
		    const struct pk_symtab_opts *opts);
void pki_symsrc_close(struct pki_symsrc *src);

/*
 * The ELF image in runtime's .gnu_debugdata (xz-compressed MiniDebugInfo),
 * opened in out.  Returns 0, -ENOENT when there is none, or a negative errno.
 */
int pki_elf_open_debugdata(struct pki_elf_file *out, Elf *runtime, const char *path);

/*
 * Whether perf keeps sym (named name, from the symbol table of syms) in a
 * user-space symbol table, and if so its address in file-offset space in
 * *file_addr.  runtime is the binary that runs (syms itself, or the binary
 * a debug file belongs to).
 */
bool pki_elf_symbol_wanted(Elf *syms, Elf *runtime, const GElf_Sym *sym, const char *name,
			   uint64_t *file_addr);

/*
 * pk_symtab_load_vmlinux(), also giving where the image's .text ran:
 * [text[0], text[1]), set when it returns 0.
 */
int pki_symtab_load_vmlinux(struct pk_symtab **out, const char *path,
			    const struct pk_build_id *bid, const char *ref_name,
			    uint64_t ref_addr, const struct pk_symtab_opts *opts, uint64_t text[2]);

/* The symbol table's binding (PKI_BIND_*) of an ELF symbol. */
uint8_t pki_elf_bind(const GElf_Sym *sym);

/* "name@plt" symbols for the PLT of elf. */
int pki_elf_add_plt(struct pk_symtab *st, Elf *elf);

#endif
