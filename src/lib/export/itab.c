// SPDX-License-Identifier: MIT
/*
 * A small open-addressing hash table of indices.  The elements live in
 * arrays owned by the profile; the table only maps a hash and an equality
 * test to their index, so one implementation serves strings, locations,
 * stacks and threads.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "export_internal.h"

uint32_t pki_hash_bytes(const void *p, size_t len, uint32_t seed)
{
	const unsigned char *b = p;
	uint32_t h = 2166136261u ^ seed; /* FNV-1a */

	for (size_t i = 0; i < len; i++) {
		h ^= b[i];
		h *= 16777619u;
	}
	return h;
}

int pki_grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	size_t ncap;
	void *q;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 64;
	while (ncap <= n)
		ncap *= 2;
	if (ncap > SIZE_MAX / elem)
		return -ENOMEM;
	q = realloc(*arr, ncap * elem);
	if (!q)
		return -ENOMEM;
	*arr = q;
	*cap = ncap;
	return 0;
}

static int rehash(struct pki_itab *t, size_t ncap)
{
	struct pki_islot *ns = malloc(ncap * sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	for (size_t i = 0; i < ncap; i++)
		ns[i].idx = PKI_NONE;
	for (size_t i = 0; i < t->cap; i++) {
		size_t j;

		if (t->slots[i].idx == PKI_NONE)
			continue;
		j = t->slots[i].hash & (ncap - 1);
		while (ns[j].idx != PKI_NONE)
			j = (j + 1) & (ncap - 1);
		ns[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = ns;
	t->cap = ncap;
	return 0;
}

/* Keep the load under 1/2 so probes stay short and a free slot exists. */
int pki_itab_reserve(struct pki_itab *t)
{
	if (t->cap && (t->n + 1) * 2 <= t->cap)
		return 0;
	return rehash(t, t->cap ? t->cap * 2 : 256);
}

struct pki_islot *pki_itab_find(struct pki_itab *t, uint32_t hash, pki_itab_eq eq, const void *ctx,
				const void *key)
{
	size_t j = hash & (t->cap - 1);

	for (;;) {
		struct pki_islot *s = &t->slots[j];

		if (s->idx == PKI_NONE) {
			s->hash = hash;
			return s;
		}
		if (s->hash == hash && eq(ctx, s->idx, key))
			return s;
		j = (j + 1) & (t->cap - 1);
	}
}

int pki_itab_added(struct pki_itab *t)
{
	t->n++;
	return 0;
}

void pki_itab_free(struct pki_itab *t)
{
	free(t->slots);
	memset(t, 0, sizeof(*t));
}
