// SPDX-License-Identifier: MIT
/*
 * Addresses covered by more than one symbol, answered as perf does.
 *
 * perf finds a symbol by walking its red-black tree of symbols.  Where
 * symbols overlap (a zero-sized _init whose end was stretched over .plt,
 * whose name@plt stubs were added afterwards; a symbol nested in another)
 * the walk returns the first containing symbol on its path, or none.  The
 * tree is rebuilt here once, in perf's order of insertions and removals,
 * and each overlapping run of symbols is cut at every start and end into
 * spans whose answer is fixed.  Lookups elsewhere never see this.
 */
#include <errno.h>
#include <stdlib.h>
#include "rbsim.h"
#include "symtab_internal.h"

#define NO_SYM UINT32_MAX

/* The last symbol of the run of overlapping symbols that starts at first. */
static size_t run_last(const struct pk_symtab *st, size_t first)
{
	uint64_t end = st->syms[first].pub.end;
	size_t last = first;

	while (last + 1 < st->nr && st->syms[last + 1].pub.start < end) {
		last++;
		if (st->syms[last].pub.end > end)
			end = st->syms[last].pub.end;
	}
	return last;
}

/* Mark the symbols of overlapping runs; false when there are none. */
static bool mark_overlaps(struct pk_symtab *st)
{
	bool any = false;

	for (size_t i = 0; i < st->nr; i++) {
		size_t last = run_last(st, i);

		for (size_t j = i; j <= last; j++)
			st->syms[j].overlaps = last > i;
		any |= last > i;
		i = last;
	}
	return any;
}

/* perf's tree: early symbols in load order, duplicates out, the rest in. */
static int build_tree(const struct pk_symtab *st, const struct pki_dropped *dropped,
		      size_t nr_dropped, struct pki_rbsim *t, uint32_t **sym_of)
{
	size_t total = st->nr + nr_dropped;
	uint64_t *start_of;
	uint32_t *map;

	if (total > INT32_MAX)
		return -EOVERFLOW;
	start_of = malloc((total ? total : 1) * sizeof(*start_of));
	map = malloc((total ? total : 1) * sizeof(*map));
	if (!start_of || !map || pki_rbsim_init(t, total)) {
		free(start_of);
		free(map);
		return -ENOMEM;
	}
	for (size_t i = 0; i < total; i++)
		map[i] = NO_SYM;
	for (size_t i = 0; i < st->nr; i++) {
		start_of[st->syms[i].order] = st->syms[i].pub.start;
		map[st->syms[i].order] = (uint32_t)i;
	}
	for (size_t i = 0; i < nr_dropped; i++)
		start_of[dropped[i].order] = dropped[i].start;
	for (size_t id = 0; id < total && id < st->nr_early; id++)
		pki_rbsim_insert(t, (int32_t)id, start_of[id]);
	for (size_t i = 0; i < nr_dropped; i++)
		pki_rbsim_erase(t, (int32_t)dropped[i].order);
	for (size_t id = st->nr_early; id < total; id++)
		pki_rbsim_insert(t, (int32_t)id, start_of[id]);
	for (size_t i = 0; i < st->nr; i++)
		t->end[st->syms[i].order] = st->syms[i].pub.end;
	free(start_of);
	*sym_of = map;
	return 0;
}

static int span_add(struct pk_symtab *st, uint64_t start, uint64_t end, uint32_t sym)
{
	struct pki_span *last = st->nr_spans ? &st->spans[st->nr_spans - 1] : NULL;

	if (start >= end)
		return 0;
	if (last && last->end == start && last->sym == sym) {
		last->end = end;
		return 0;
	}
	if (st->nr_spans == st->alloc_spans) {
		size_t n = st->alloc_spans ? st->alloc_spans * 2 : 16;
		struct pki_span *p = realloc(st->spans, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		st->spans = p;
		st->alloc_spans = n;
	}
	st->spans[st->nr_spans++] = (struct pki_span){.start = start, .end = end, .sym = sym};
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint32_t answer(const struct pki_rbsim *t, const uint32_t *sym_of, uint64_t ip)
{
	int32_t id = pki_rbsim_find(t, ip);

	return id < 0 ? NO_SYM : sym_of[id];
}

/* The spans of the run of symbols first..last. */
static int run_spans(struct pk_symtab *st, const struct pki_rbsim *t, const uint32_t *sym_of,
		     size_t first, size_t last, uint64_t *bound)
{
	size_t nb = 0, k = 0;
	int err = 0;

	for (size_t i = first; i <= last; i++) {
		bound[nb++] = st->syms[i].pub.start;
		bound[nb++] = st->syms[i].pub.end;
	}
	qsort(bound, nb, sizeof(*bound), cmp_u64);
	for (size_t i = 0; i < nb; i++)
		if (!k || bound[k - 1] != bound[i])
			bound[k++] = bound[i];
	for (size_t i = 0; i + 1 < k && !err; i++) {
		uint64_t at = bound[i];
		uint32_t sym = answer(t, sym_of, at);

		/* a symbol with no size is found at its start only */
		if (sym != NO_SYM && st->syms[sym].pub.start == st->syms[sym].pub.end) {
			err = span_add(st, at, at + 1, sym);
			sym = answer(t, sym_of, ++at);
		}
		if (!err)
			err = span_add(st, at, bound[i + 1], sym);
	}
	return err;
}

int pki_symtab_resolve_overlaps(struct pk_symtab *st, const struct pki_dropped *dropped,
				size_t nr_dropped)
{
	struct pki_rbsim t = {0};
	uint32_t *sym_of = NULL;
	uint64_t *bound = NULL;
	int err;

	if (!mark_overlaps(st))
		return 0;
	err = build_tree(st, dropped, nr_dropped, &t, &sym_of);
	if (err)
		goto out;
	err = -ENOMEM;
	bound = malloc(2 * st->nr * sizeof(*bound));
	if (!bound)
		goto out;
	err = 0;
	for (size_t i = 0; i < st->nr && !err; i++) {
		size_t last = run_last(st, i);

		if (last > i)
			err = run_spans(st, &t, sym_of, i, last, bound);
		i = last;
	}
out:
	free(bound);
	free(sym_of);
	pki_rbsim_free(&t);
	return err;
}

const struct pk_symbol *pki_symtab_span_lookup(const struct pk_symtab *st, uint64_t addr)
{
	size_t lo = 0, hi = st->nr_spans;

	/* first span ending after addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->spans[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == st->nr_spans || addr < st->spans[lo].start || st->spans[lo].sym == NO_SYM)
		return NULL;
	return &st->syms[st->spans[lo].sym].pub;
}
