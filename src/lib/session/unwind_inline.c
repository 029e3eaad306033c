// SPDX-License-Identifier: MIT
/*
 * Inlined frames of unwound user frames.  perf 6.1 asks addr2line -i -f
 * about every address it unwinds and turns each function it names into a
 * frame at that address, innermost first: a name other than the symbol's
 * becomes a symbol of its own, marked inlined, spanning the real one.
 * The same answers come from the debug info through libdw here: the
 * inlined subroutines containing the address, then the function they sit
 * in, each by linkage name (demangled as symbols are) or else by name.
 *
 * Answers are kept per (DSO, address), and the inlined symbols per (real
 * symbol, name), so that equal frames are the same symbol.
 *
 * The innermost function is named as BFD names it: by its linkage name
 * if it has one (a plain name in C and the languages that mangle none);
 * else, the first time that function (that DIE) is asked
 * about, by the ELF symbol at the address, which is the real symbol (so
 * no inlined frame: std::sort's inlined helpers show as the function
 * they sit in), and by its DWARF name at later addresses, unless the
 * symbol starts where the function's first range does, which makes the
 * symbol's name the function's for good.  addr2line lives as long as the
 * DSO in perf, so this holds across the whole session, in its order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include "unwind_internal.h"

#define NODE_BUCKETS 4096
#define SYM_BUCKETS  1024
#define DIE_BUCKETS  1024
#define MAX_DEPTH    64

/* A function without linkage name BFD has named once (see above). */
struct inl_die {
	const struct pk_dso *dso;
	Dwarf_Off off;
	const char *name;	/* the symbol's name for good, or NULL */
	struct inl_die *next;
};

struct inl_sym {
	struct pk_symbol sym;
	const struct pk_symbol *base;
	struct inl_sym *next;
	char name[];
};

struct inl_node {
	const struct pk_dso *dso;
	uint64_t addr;
	unsigned nr;
	struct inl_node *next;
	const struct pk_symbol *syms[];
};

struct pki_inlines {
	struct inl_node *nodes[NODE_BUCKETS];
	struct inl_sym *syms[SYM_BUCKETS];
	struct inl_die *dies[DIE_BUCKETS];
};

static size_t hash(uintptr_t a, uint64_t b)
{
	return (size_t)(((a >> 4) ^ b) * 0x9E3779B97F4A7C15ULL >> 40);
}

static size_t str_hash(const char *s)
{
	size_t h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

/* The symbol perf makes of name inside base. */
static const struct pk_symbol *inline_sym(struct pki_inlines *in, const struct pk_symbol *base,
					  const char *name)
{
	size_t b = (hash((uintptr_t)base, 0) ^ str_hash(name)) % SYM_BUCKETS;
	struct inl_sym *is;
	size_t len = strlen(name);

	if (!strcmp(name, base->name))
		return base;
	for (is = in->syms[b]; is; is = is->next)
		if (is->base == base && !strcmp(is->name, name))
			return &is->sym;
	is = calloc(1, sizeof(*is) + len + 1);
	if (!is)
		return NULL;
	memcpy(is->name, name, len + 1);
	is->base = base;
	is->sym.start = base->start;
	is->sym.end = base->end;
	is->sym.name = is->name;
	is->sym.inlined = true;
	is->next = in->syms[b];
	in->syms[b] = is;
	return &is->sym;
}

static const char *linkage_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &a) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a))
		return dwarf_formstring(&a);
	return NULL;
}

static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	/* addr2line (BFD) names a function by its linkage name if any */
	const char *name = linkage_name(die);

	if (!name && dwarf_attr_integrate(die, DW_AT_name, &a))
		name = dwarf_formstring(&a);
	return name;
}

/* BFD takes the plain name for a linkage name in the languages that
 * mangle none (its non_mangled()) */
static bool lang_mangles(Dwarf_Die *die)
{
	Dwarf_Die cu;

	if (!dwarf_diecu(die, &cu, NULL, NULL))
		return false;
	switch (dwarf_srclang(&cu)) {
	case DW_LANG_C89:
	case DW_LANG_C:
	case DW_LANG_Ada83:
	case DW_LANG_Cobol74:
	case DW_LANG_Cobol85:
	case DW_LANG_Fortran77:
	case DW_LANG_Pascal83:
	case DW_LANG_C99:
	case DW_LANG_Ada95:
	case DW_LANG_PLI:
	case DW_LANG_UPC:
	case DW_LANG_C11:
	case DW_LANG_Mips_Assembler:
		return false;
	default:
		return true;
	}
}

/* The start of die's first range (BFD's arange.low), false if none. */
static bool first_low(Dwarf_Die *die, Dwarf_Addr *lo)
{
	Dwarf_Addr base, hi;

	return dwarf_ranges(die, 0, &base, lo, &hi) > 0;
}

/*
 * BFD's name of the innermost function die at pc (DWARF address), which
 * has no linkage name: the symbol's the first time, then its own (or the
 * symbol's for good, see the top).  sym_start: the symbol's start as a
 * DWARF address.
 */
static struct inl_die *die_state(struct pki_inlines *in, const struct pk_dso *dso,
				  Dwarf_Die *die)
{
	Dwarf_Off off = dwarf_dieoffset(die);

	for (struct inl_die *d = in->dies[hash((uintptr_t)dso, off) % DIE_BUCKETS]; d; d = d->next)
		if (d->dso == dso && d->off == off)
			return d;
	return NULL;
}

/* A caller's name: BFD's, which the function's first lookup may have
 * made the symbol's */
static const char *caller_name(struct pki_inlines *in, const struct pk_dso *dso, Dwarf_Die *die)
{
	struct inl_die *d = die_state(in, dso, die);

	return d && d->name ? d->name : die_name(die);
}

static const char *first_name(struct pki_inlines *in, const struct pk_location *loc,
			      Dwarf_Die *die, uint64_t sym_start)
{
	Dwarf_Off off = dwarf_dieoffset(die);
	size_t b = hash((uintptr_t)loc->dso, off) % DIE_BUCKETS;
	struct inl_die *d = die_state(in, loc->dso, die);
	Dwarf_Addr lo;

	if (d)
		return d->name ? d->name : die_name(die);
	d = calloc(1, sizeof(*d));
	if (!d)
		return die_name(die);
	d->dso = loc->dso;
	d->off = off;
	if (first_low(die, &lo) && lo == sym_start)
		d->name = loc->sym->name;
	d->next = in->dies[b];
	in->dies[b] = d;
	return loc->sym->name;
}

static bool is_function(int tag)
{
	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
	       tag == DW_TAG_entry_point;
}

/* The function of die's caller: the next function out in the concrete
 * tree, or false at the outermost one. */
static bool caller_of(Dwarf_Die *die)
{
	Dwarf_Die *scopes = NULL;
	int n = dwarf_getscopes_die(die, &scopes);
	bool found = false;

	for (int i = 1; i < n; i++) {
		if (is_function(dwarf_tag(&scopes[i]))) {
			*die = scopes[i];
			found = true;
			break;
		}
	}
	free(scopes);
	return found;
}

static bool range_of(Dwarf_Die *die, Dwarf_Addr *lo, Dwarf_Addr *hi)
{
	return !dwarf_lowpc(die, lo) && !dwarf_highpc(die, hi);
}

/*
 * Of functions with the same range (the aliases of assembler code, each
 * a subprogram of its own) addr2line names the last: move die to it.
 */
static void last_alias(Dwarf_Die *die)
{
	Dwarf_Addr lo, hi, l2, h2;
	Dwarf_Die sib = *die;

	if (dwarf_tag(die) != DW_TAG_subprogram || !range_of(die, &lo, &hi))
		return;
	while (dwarf_siblingof(&sib, &sib) == 0) {
		if (dwarf_tag(&sib) == DW_TAG_subprogram && range_of(&sib, &l2, &h2) && l2 == lo &&
		    h2 == hi)
			*die = sib;
	}
}

/* Names of the functions at pc, innermost first, into names; how many. */
static unsigned function_names(struct pki_inlines *in, Dwfl_Module *mod, Dwarf_Addr pc,
			       const struct pk_location *loc, const char **names)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, pc, &bias), *scopes = NULL, die;
	unsigned nr = 0;
	int n, i;

	if (!cu)
		return 0;
	n = dwarf_getscopes(cu, pc - bias, &scopes);
	for (i = 0; i < n && !is_function(dwarf_tag(&scopes[i])); i++)
		;
	if (i >= n) {
		free(scopes);
		return 0;
	}
	die = scopes[i];
	free(scopes);
	last_alias(&die);
	if (!linkage_name(&die) && lang_mangles(&die))
		names[nr++] = first_name(in, loc, &die, loc->sym->start + (pc - bias - loc->addr));
	else
		names[nr++] = die_name(&die);
	if (dwarf_tag(&die) != DW_TAG_inlined_subroutine)
		return nr;
	while (nr < MAX_DEPTH && caller_of(&die)) {
		names[nr++] = caller_name(in, loc->dso, &die);
		if (dwarf_tag(&die) != DW_TAG_inlined_subroutine)
			break;
	}
	return nr;
}

static struct inl_node *node_new(struct pk_session *s, Dwfl_Module *mod, Dwarf_Addr pc,
				 const struct pk_location *loc)
{
	const char *names[MAX_DEPTH];
	unsigned nr = function_names(s->inlines, mod, pc, loc, names);
	struct inl_node *node = calloc(1, sizeof(*node) + nr * sizeof(node->syms[0]));

	if (!node)
		return NULL;
	node->dso = loc->dso;
	node->addr = loc->addr;
	for (unsigned i = 0; i < nr; i++) {
		char *dem = s->opts.no_demangle || !names[i] ? NULL : pk_demangle(names[i]);
		const struct pk_symbol *sym = inline_sym(s->inlines, loc->sym,
							 dem	    ? dem
							 : names[i] ? names[i]
								    : "??");

		free(dem);
		if (sym)
			node->syms[node->nr++] = sym;
	}
	return node;
}

size_t pki_inline_frames(struct pk_session *s, Dwfl_Module *mod, Dwarf_Addr pc,
			 const struct pk_location *loc, struct pk_frame *frames, size_t max)
{
	struct inl_node *node;
	size_t b, n = 0;

	if (!s->inlines && !(s->inlines = calloc(1, sizeof(*s->inlines))))
		return 0;
	b = hash((uintptr_t)loc->dso, loc->addr) % NODE_BUCKETS;
	for (node = s->inlines->nodes[b]; node; node = node->next)
		if (node->dso == loc->dso && node->addr == loc->addr)
			break;
	if (!node) {
		node = node_new(s, mod, pc, loc);
		if (!node)
			return 0;
		node->next = s->inlines->nodes[b];
		s->inlines->nodes[b] = node;
	}
	for (; n < node->nr && n < max; n++) {
		frames[n].loc = *loc;
		frames[n].loc.sym = node->syms[n];
	}
	return n;
}

void pki_inlines_free(struct pk_session *s)
{
	struct pki_inlines *in = s->inlines;

	if (!in)
		return;
	for (size_t i = 0; i < NODE_BUCKETS; i++) {
		for (struct inl_node *n = in->nodes[i], *next; n; n = next) {
			next = n->next;
			free(n);
		}
	}
	for (size_t i = 0; i < SYM_BUCKETS; i++) {
		for (struct inl_sym *is = in->syms[i], *next; is; is = next) {
			next = is->next;
			free(is);
		}
	}
	for (size_t i = 0; i < DIE_BUCKETS; i++) {
		for (struct inl_die *d = in->dies[i], *next; d; d = next) {
			next = d->next;
			free(d);
		}
	}
	free(in);
	s->inlines = NULL;
}
