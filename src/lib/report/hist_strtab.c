// SPDX-License-Identifier: MIT
/*
 * Interned strings: each distinct string is kept once, so that entries and
 * stacks compare comms by pointer.  An open-addressing set, kept at most
 * half full, since it is asked once per sample.
 */
#include <stdlib.h>
#include <string.h>
#include "hist_internal.h"

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static int grow(struct pki_strtab *t)
{
	size_t n = t->nr_slots ? t->nr_slots * 2 : 256, i;
	char **v = calloc(n, sizeof(*v));

	if (!v)
		return -1;
	for (size_t j = 0; j < t->nr_slots; j++) {
		if (!t->slots[j])
			continue;
		for (i = str_hash(t->slots[j]) % n; v[i]; i = (i + 1) % n)
			;
		v[i] = t->slots[j];
	}
	free(t->slots);
	t->slots = v;
	t->nr_slots = n;
	return 0;
}

const char *pki_strtab_intern(struct pki_strtab *t, const char *s)
{
	size_t i;

	if (t->nr * 2 >= t->nr_slots && grow(t))
		return NULL;
	for (i = str_hash(s) % t->nr_slots; t->slots[i]; i = (i + 1) % t->nr_slots)
		if (!strcmp(t->slots[i], s))
			return t->slots[i];
	t->slots[i] = strdup(s);
	if (!t->slots[i])
		return NULL;
	t->nr++;
	return t->slots[i];
}

void pki_strtab_free(struct pki_strtab *t)
{
	for (size_t i = 0; i < t->nr_slots; i++)
		free(t->slots[i]);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}
