// SPDX-License-Identifier: MIT
/*
 * The entries' string keys as ranks: the sorts replay perf's trees with
 * millions of comparisons, mostly between entries of equal periods, which
 * then fall to strcmp() on comms, DSO and symbol names.  The entries share
 * a few thousand such strings, so each distinct pointer is ranked once and
 * the comparisons become integer ones.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perfkit/session.h>
#include "hist_internal.h"

/* A distinct pointer, its string, and (once sorted) its rank. */
struct uniq {
	const void *ptr;
	const char *str; /* NULL ranks after every string */
};

struct ptr_set {
	uint32_t *slots; /* index into uniq + 1; 0: free */
	size_t nr_slots;
	struct uniq *uniq;
	size_t nr, alloc;
};

static uint64_t ptr_hash(const void *p)
{
	return (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ULL >> 32;
}

static uint64_t uniq_hash(const void *ctx, uint32_t u)
{
	return ptr_hash(((const struct uniq *)ctx)[u].ptr);
}

/* p's index among the distinct pointers, added when new; -ENOMEM. */
static int64_t set_add(struct ptr_set *s, const void *p, const char *str)
{
	size_t i;

	if (pki_slots_grow(&s->slots, &s->nr_slots, s->nr, 1024, uniq_hash, s->uniq))
		return -ENOMEM;
	for (i = ptr_hash(p) & (s->nr_slots - 1); s->slots[i]; i = (i + 1) & (s->nr_slots - 1))
		if (s->uniq[s->slots[i] - 1].ptr == p)
			return s->slots[i] - 1;
	if (pki_grow_array((void **)&s->uniq, &s->alloc, s->nr, sizeof(*s->uniq)))
		return -ENOMEM;
	s->uniq[s->nr] = (struct uniq){p, str};
	s->slots[i] = (uint32_t)++s->nr;
	return (int64_t)s->nr - 1;
}

static int cmp_str(const char *a, const char *b)
{
	if (!a || !b)
		return !a - !b;
	return strcmp(a, b);
}

static int cmp_uniq(const void *pa, const void *pb)
{
	return cmp_str(((const struct uniq *)pa)->str, ((const struct uniq *)pb)->str);
}

static const void *field_ptr(const struct pk_hist_entry *e, enum pki_rank_field f)
{
	switch (f) {
	case PKI_RANK_COMM:
		return e->comm;
	case PKI_RANK_DSO:
		return e->dso;
	case PKI_RANK_TRACE:
		return e->trace;
	case PKI_RANK_PARENT:
		return e->parent;
	default:
		return e->sym;
	}
}

static const char *field_str(const struct pk_hist_entry *e, enum pki_rank_field f)
{
	switch (f) {
	case PKI_RANK_COMM:
		return e->comm;
	case PKI_RANK_DSO:
		return e->dso ? pk_dso_short_name(e->dso) : NULL;
	case PKI_RANK_TRACE:
		return e->trace;
	case PKI_RANK_PARENT:
		return e->parent;
	default:
		return e->sym ? e->sym->name : NULL;
	}
}

/* rank[i] is the distinct pointer's index; its rank once they are
 * sorted by string (equal strings, equal ranks). */
static int rank_uniq(struct ptr_set *s, uint32_t *rank, size_t n)
{
	uint32_t *of = malloc((s->nr ? s->nr : 1) * sizeof(*of));
	uint32_t r = 0;

	if (!of)
		return -ENOMEM;
	/* the pointer goes with its string through the sort: the set's
	 * slots are not needed any more */
	for (size_t u = 0; u < s->nr; u++)
		s->uniq[u].ptr = (const void *)(uintptr_t)u;
	qsort(s->uniq, s->nr, sizeof(*s->uniq), cmp_uniq);
	for (size_t u = 0; u < s->nr; u++) {
		if (u && cmp_str(s->uniq[u - 1].str, s->uniq[u].str))
			r++;
		of[(uintptr_t)s->uniq[u].ptr] = r;
	}
	for (size_t i = 0; i < n; i++)
		rank[i] = of[rank[i]];
	free(of);
	return 0;
}

int pki_hist_rank(const struct pk_hist_entry *v, size_t n, enum pki_rank_field f, uint32_t *rank)
{
	struct ptr_set s = {0};
	int err = 0;

	for (size_t i = 0; i < n && !err; i++) {
		int64_t u = set_add(&s, field_ptr(&v[i], f), field_str(&v[i], f));

		if (u < 0)
			err = (int)u;
		else
			rank[i] = (uint32_t)u;
	}
	free(s.slots);
	s.slots = NULL;
	if (!err)
		err = rank_uniq(&s, rank, n);
	free(s.uniq);
	return err;
}
