// SPDX-License-Identifier: MIT
/*
 * Open-addressing index tables of the histogram: slots hold an element's
 * index + 1 (0 is free), the elements live in their own array.
 */
#include <errno.h>
#include <stdlib.h>
#include "hist_internal.h"

int pki_slots_grow(uint32_t **slots, size_t *nr_slots, size_t nr, size_t first,
		   uint64_t (*hash)(const void *ctx, uint32_t i), const void *ctx)
{
	size_t n = *nr_slots ? *nr_slots * 2 : first;
	uint32_t *v;

	if (pki_slots_room(nr, *nr_slots))
		return 0;
	if (nr >= UINT32_MAX - 1)
		return -EOVERFLOW;
	v = pki_calloc_hot(n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		size_t j = hash(ctx, (uint32_t)i) & (n - 1);

		while (v[j])
			j = (j + 1) & (n - 1);
		v[j] = (uint32_t)i + 1;
	}
	free(*slots);
	*slots = v;
	*nr_slots = n;
	return 0;
}
