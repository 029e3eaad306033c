/* SPDX-License-Identifier: MIT */
/* ELF helpers shared by the files of the symbols area. */
#ifndef PK_ELF_INTERNAL_H
#define PK_ELF_INTERNAL_H

#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>
#include "symtab_internal.h"

/*
 * Whether perf keeps sym (named name, from the symbol table of syms) in a
 * user-space symbol table, and if so its address in file-offset space in
 * *file_addr.  runtime is the binary that runs (syms itself, or the binary
 * a debug file belongs to).
 */
bool pki_elf_symbol_wanted(Elf *syms, Elf *runtime, const GElf_Sym *sym, const char *name,
			   uint64_t *file_addr);

/* "name@plt" symbols for the PLT of elf. */
int pki_elf_add_plt(struct pk_symtab *st, Elf *elf);

#endif
