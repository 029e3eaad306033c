/* SPDX-License-Identifier: MIT */
/* Building a struct pk_symtab: shared by the ELF, kallsyms and perf-map
 * loaders. */
#ifndef PK_SYMTAB_INTERNAL_H
#define PK_SYMTAB_INTERNAL_H

#include <perfkit/symbols.h>

/* binding as in ELF: 0 local, 1 global, 2 weak */
enum { PKI_BIND_LOCAL = 0, PKI_BIND_GLOBAL = 1, PKI_BIND_WEAK = 2 };

struct pki_sym {
	struct pk_symbol pub;
	uint8_t binding;
	bool zero_size;		/* had no size: its end was made up */
	uint32_t module;	/* index into modules; 0 = none */
};

struct pk_symtab {
	struct pki_sym *syms;
	size_t nr, alloc;
	char *pool;		/* names, NUL-separated */
	size_t pool_len, pool_alloc;
	char **modules;		/* modules[0] = "" */
	uint32_t nr_modules;
	bool demangle;
};

struct pk_symtab *pki_symtab_new(const struct pk_symtab_opts *opts);

/* Add a symbol; size 0 means "up to the next one".  Returns 0 or -ENOMEM. */
int pki_symtab_add(struct pk_symtab *st, uint64_t start, uint64_t size, const char *name,
		   uint8_t binding, uint32_t module);

/* Index of a module name, added when new; 0 on allocation failure. */
/* Same, with name used as given (no demangling). */
int pki_symtab_add_raw(struct pk_symtab *st, uint64_t start, uint64_t size, const char *name,
		       uint8_t binding, uint32_t module);

/* The symbol added last is a data object. */
void pki_symtab_last_is_object(struct pk_symtab *st);

uint32_t pki_symtab_module_id(struct pk_symtab *st, const char *name);

enum pki_fixup { PKI_FIXUP_ELF, PKI_FIXUP_KALLSYMS };

/* Sort, drop duplicate starts keeping the best name, give zero-sized
 * symbols an end, and make the name pointers final. */
int pki_symtab_finish(struct pk_symtab *st, enum pki_fixup how);

#endif
