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
	bool overlaps;		/* in a run of overlapping symbols: see spans */
	uint32_t module;	/* index into modules; 0 = none */
	uint32_t order;		/* rank in the order of loading */
};

/* A part of an overlapping run where perf's lookup finds syms[sym]. */
struct pki_span {
	uint64_t start, end;
	uint32_t sym;		/* UINT32_MAX: none */
};

/* A duplicate dropped while finishing, in the order perf removes them. */
struct pki_dropped {
	uint64_t start;
	uint32_t order;
};

struct pk_symtab {
	struct pki_sym *syms;
	size_t nr, alloc;
	char *pool;		/* names, NUL-separated */
	size_t pool_len, pool_alloc;
	char **modules;		/* modules[0] = "" */
	uint32_t nr_modules;
	bool demangle;
	size_t nr_early;	/* symbols loaded before the clean-up */
	struct pki_span *spans;	/* sorted, disjoint */
	size_t nr_spans, alloc_spans;
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

/*
 * Symbols added from now on join after the clean-up of the ones before
 * (no duplicate removal, no end fixing), as perf adds its name@plt
 * symbols to a table it already finished.
 */
void pki_symtab_mark_late(struct pk_symtab *st);

uint32_t pki_symtab_module_id(struct pk_symtab *st, const char *name);

/* How a table is cleaned up: ELF and kallsyms as perf does (zero-sized
 * symbols get their ends first, then duplicates go), a perf-PID.map file
 * the other way round. */
enum pki_fixup { PKI_FIXUP_ELF, PKI_FIXUP_KALLSYMS, PKI_FIXUP_PERF_MAP };

/* Sort, drop duplicate starts keeping the best name, give zero-sized
 * symbols an end, and make the name pointers final. */
int pki_symtab_finish(struct pk_symtab *st, enum pki_fixup how);

/*
 * Find the runs of overlapping symbols of a finished table and which one
 * perf's symbol tree answers for each part of them (overlap.c).  dropped:
 * the duplicates finishing removed.  0 or a negative errno.
 */
int pki_symtab_resolve_overlaps(struct pk_symtab *st, const struct pki_dropped *dropped,
				size_t nr_dropped);

/* The lookup inside overlapping runs. */
const struct pk_symbol *pki_symtab_span_lookup(const struct pk_symtab *st, uint64_t addr);

#endif
