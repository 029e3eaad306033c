// SPDX-License-Identifier: MIT
/*
 * Symbol tables: collection, perf's clean-up rules, lookup.
 *
 * Names are stored as offsets into one pool while loading (the pool moves
 * when it grows) and become pointers in pki_symtab_finish().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "symtab_internal.h"

#define PAGE 4096ULL

struct pk_symtab *pki_symtab_new(const struct pk_symtab_opts *opts)
{
	struct pk_symtab *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->demangle = !(opts && opts->sz >= offsetof(struct pk_symtab_opts, no_demangle) +
						      sizeof(bool) &&
			 opts->no_demangle);
	st->modules = calloc(1, sizeof(char *));
	if (!st->modules || !(st->modules[0] = strdup(""))) {
		pk_symtab_free(st);
		return NULL;
	}
	st->nr_modules = 1;
	st->nr_early = SIZE_MAX;
	return st;
}

static int pool_add(struct pk_symtab *st, const char *name, size_t *off)
{
	size_t len = strlen(name) + 1;

	if (st->pool_len + len > st->pool_alloc) {
		size_t n = st->pool_alloc ? st->pool_alloc * 2 : 4096;
		char *p;

		while (n < st->pool_len + len)
			n *= 2;
		p = realloc(st->pool, n);
		if (!p)
			return -ENOMEM;
		st->pool = p;
		st->pool_alloc = n;
	}
	memcpy(st->pool + st->pool_len, name, len);
	*off = st->pool_len;
	st->pool_len += len;
	return 0;
}

static int symtab_add(struct pk_symtab *st, uint64_t start, uint64_t size, const char *name,
		      char *dem, uint8_t binding, uint32_t module)
{
	struct pki_sym *s;
	size_t off;
	int err;

	if (st->nr == st->alloc) {
		size_t n = st->alloc ? st->alloc * 2 : 256;
		struct pki_sym *p = realloc(st->syms, n * sizeof(*p));

		if (!p) {
			free(dem);
			return -ENOMEM;
		}
		st->syms = p;
		st->alloc = n;
	}
	err = pool_add(st, dem ? dem : name, &off);
	free(dem);
	if (err)
		return err;
	s = &st->syms[st->nr];
	s->order = (uint32_t)st->nr++;
	s->pub.start = start;
	s->pub.end = start + size;
	if (s->pub.end < start)
		s->pub.end = UINT64_MAX;
	s->pub.name = (const char *)(uintptr_t)off;
	s->pub.object = false;
	s->pub.inlined = false;
	s->binding = binding;
	s->overlaps = false;
	s->module = module;
	return 0;
}

int pki_symtab_add(struct pk_symtab *st, uint64_t start, uint64_t size, const char *name,
		   uint8_t binding, uint32_t module)
{
	return symtab_add(st, start, size, name, st->demangle ? pk_demangle(name) : NULL, binding,
			  module);
}

int pki_symtab_add_raw(struct pk_symtab *st, uint64_t start, uint64_t size, const char *name,
		       uint8_t binding, uint32_t module)
{
	return symtab_add(st, start, size, name, NULL, binding, module);
}

void pki_symtab_last_is_object(struct pk_symtab *st)
{
	if (st->nr)
		st->syms[st->nr - 1].pub.object = true;
}

void pki_symtab_mark_late(struct pk_symtab *st)
{
	st->nr_early = st->nr;
}

uint32_t pki_symtab_module_id(struct pk_symtab *st, const char *name)
{
	char **p;

	for (uint32_t i = 1; i < st->nr_modules; i++)
		if (!strcmp(st->modules[i], name))
			return i;
	p = realloc(st->modules, (st->nr_modules + 1) * sizeof(*p));
	if (!p)
		return 0;
	st->modules = p;
	p[st->nr_modules] = strdup(name);
	if (!p[st->nr_modules])
		return 0;
	return st->nr_modules++;
}

static const char *sym_name(const struct pk_symtab *st, const struct pki_sym *s)
{
	return st->pool + (uintptr_t)s->pub.name;
}

static int cmp_start(const void *a, const void *b)
{
	const struct pki_sym *x = a, *y = b;

	if (x->pub.start != y->pub.start)
		return x->pub.start < y->pub.start ? -1 : 1;
	/* keep the load order among equals, as perf's tree does */
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * The symbols in address order (load order among equals).  kallsyms and
 * most symbol tables come mostly sorted: the sorted run at the start is
 * kept, the rest sorted and merged into it.  0 or -ENOMEM.
 */
static int sort_by_start(struct pki_sym *v, size_t n)
{
	size_t run = n ? 1 : 0, i = 0, j;
	struct pki_sym *tmp;

	while (run < n && cmp_start(&v[run - 1], &v[run]) <= 0)
		run++;
	if (run == n)
		return 0;
	qsort(v + run, n - run, sizeof(*v), cmp_start);
	tmp = malloc(run * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	memcpy(tmp, v, run * sizeof(*tmp));
	/* merge from the front: v[k] is free once k < i + (j - run) */
	j = run;
	for (size_t k = 0; k < n; k++) {
		if (i < run && (j == n || cmp_start(&tmp[i], &v[j]) <= 0))
			v[k] = tmp[i++];
		else
			v[k] = v[j++];
	}
	free(tmp);
	return 0;
}

static size_t leading_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/*
 * Which of two symbols at the same address perf keeps: one with a size,
 * then a non-weak one, then a global one, then fewer leading underscores,
 * then the longer name, then the first.  Returns true to keep b.
 */
static bool prefer_second(const struct pk_symtab *st, const struct pki_sym *a,
			  const struct pki_sym *b)
{
	bool asz = a->pub.end != a->pub.start, bsz = b->pub.end != b->pub.start;
	const char *an = sym_name(st, a), *bn = sym_name(st, b);
	size_t au, bu, al, bl;

	if (asz != bsz)
		return bsz;
	if ((a->binding == PKI_BIND_WEAK) != (b->binding == PKI_BIND_WEAK))
		return a->binding == PKI_BIND_WEAK;
	if ((a->binding == PKI_BIND_GLOBAL) != (b->binding == PKI_BIND_GLOBAL))
		return b->binding == PKI_BIND_GLOBAL;
	au = leading_underscores(an);
	bu = leading_underscores(bn);
	if (au != bu)
		return bu < au;
	al = strlen(an);
	bl = strlen(bn);
	return bl > al;
}

struct dropped_list {
	struct pki_dropped *d;
	size_t nr, alloc;
};

static int note_dropped(struct dropped_list *l, const struct pki_sym *s)
{
	if (l->nr == l->alloc) {
		size_t n = l->alloc ? l->alloc * 2 : 64;
		struct pki_dropped *p = realloc(l->d, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		l->d = p;
		l->alloc = n;
	}
	l->d[l->nr++] = (struct pki_dropped){.start = s->pub.start, .order = s->order};
	return 0;
}

/*
 * Keep one of the symbols 0..*nr sharing a start, noting the others in
 * the order perf removes them from its tree (the loser of each pair).
 */
static int drop_duplicates(struct pk_symtab *st, size_t *nr, struct dropped_list *dropped)
{
	size_t out = 0;
	int err = 0;

	for (size_t i = 0; i < *nr && !err; i++) {
		struct pki_sym *prev = out ? &st->syms[out - 1] : NULL;

		if (prev && prev->pub.start == st->syms[i].pub.start) {
			if (prefer_second(st, prev, &st->syms[i])) {
				err = note_dropped(dropped, prev);
				*prev = st->syms[i];
			} else {
				err = note_dropped(dropped, &st->syms[i]);
			}
			continue;
		}
		st->syms[out++] = st->syms[i];
	}
	*nr = out;
	return err;
}

static uint64_t page_after(uint64_t addr)
{
	uint64_t up = (addr + PAGE - 1) & ~(PAGE - 1);

	return up + PAGE < up ? UINT64_MAX : up + PAGE;
}

static void fix_ends(struct pk_symtab *st, size_t nr, enum pki_fixup how)
{
	for (size_t i = 0; i + 1 < nr; i++) {
		struct pki_sym *s = &st->syms[i], *next = &st->syms[i + 1];

		if (s->pub.end != s->pub.start)
			continue;
		/* kallsyms: the last symbol before the modules ends at a page */
		if (how == PKI_FIXUP_KALLSYMS && (s->module == 0) != (next->module == 0))
			s->pub.end = page_after(s->pub.start + 1);
		else
			s->pub.end = next->pub.start;
	}
	if (nr && st->syms[nr - 1].pub.end == st->syms[nr - 1].pub.start)
		st->syms[nr - 1].pub.end = page_after(st->syms[nr - 1].pub.start);
}

/*
 * The symbols loaded before pki_symtab_mark_late() are cleaned up alone;
 * the late ones then join them as they are.
 */
int pki_symtab_finish(struct pk_symtab *st, enum pki_fixup how)
{
	size_t early = st->nr_early < st->nr ? st->nr_early : st->nr, kept = early;
	size_t late = st->nr - early;
	struct dropped_list dropped = {0};
	int err;

	err = sort_by_start(st->syms, early);
	if (err)
		return err;
	/*
	 * perf gives an ELF or kallsyms table its ends before dropping
	 * aliases, so of two symbols at one address the one that got a size
	 * (the later one, its end the next symbol's start) can stay: a
	 * global __TMC_END__ of size 0 over a local completed.0 of size 1.
	 */
	if (how != PKI_FIXUP_PERF_MAP)
		fix_ends(st, early, how);
	err = drop_duplicates(st, &kept, &dropped);
	if (err)
		goto out;
	fix_ends(st, kept, how);
	if (late) {
		memmove(st->syms + kept, st->syms + early, late * sizeof(*st->syms));
		st->nr = kept + late;
		qsort(st->syms, st->nr, sizeof(*st->syms), cmp_start);
	} else {
		st->nr = kept;
	}
	for (size_t i = 0; i < st->nr; i++)
		st->syms[i].pub.name = sym_name(st, &st->syms[i]);
	err = pki_symtab_resolve_overlaps(st, dropped.d, dropped.nr);
out:
	free(dropped.d);
	return err;
}

void pk_symtab_free(struct pk_symtab *st)
{
	if (!st)
		return;
	for (uint32_t i = 0; i < st->nr_modules; i++)
		free(st->modules[i]);
	free(st->modules);
	free(st->syms);
	free(st->spans);
	free(st->pool);
	free(st);
}

const struct pk_symbol *pk_symtab_lookup(const struct pk_symtab *st, uint64_t addr)
{
	const struct pk_symbol *s;
	size_t lo = 0, hi;

	if (!st || !st->nr)
		return NULL;
	hi = st->nr;
	/* last symbol starting at or below addr */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->syms[mid].pub.start <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* overlapping symbols: what perf's tree walk finds there */
	if (st->syms[lo].overlaps)
		return pki_symtab_span_lookup(st, addr);
	s = &st->syms[lo].pub;
	/* perf finds a symbol with no size at its start */
	if (s->start <= addr && (addr < s->end || addr == s->start))
		return s;
	return NULL;
}

size_t pk_symtab_count(const struct pk_symtab *st)
{
	return st ? st->nr : 0;
}

const struct pk_symbol *pk_symtab_at(const struct pk_symtab *st, size_t i)
{
	return st && i < st->nr ? &st->syms[i].pub : NULL;
}

const char *pk_symtab_module(const struct pk_symtab *st, size_t i)
{
	if (!st || i >= st->nr || st->syms[i].module >= st->nr_modules)
		return "";
	return st->modules[st->syms[i].module];
}
