// SPDX-License-Identifier: MIT
/*
 * The maps of a process: non-overlapping ranges sorted by start.  A new
 * map cuts away what it overlaps of older ones, keeping their pieces on
 * either side (with the file offset of the right piece moved along).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "session_internal.h"
#include "unwind_internal.h"

struct pki_maps *pki_maps_new(void)
{
	struct pki_maps *m = calloc(1, sizeof(*m));

	if (m)
		m->refs = 1;
	return m;
}

struct pki_maps *pki_maps_clone(const struct pki_maps *from)
{
	struct pki_maps *m = pki_maps_new();

	if (!m || !from->nr)
		return m;
	m->v = malloc(from->nr * sizeof(*m->v));
	if (!m->v) {
		free(m);
		return NULL;
	}
	memcpy(m->v, from->v, from->nr * sizeof(*m->v));
	m->nr = m->alloc = from->nr;
	return m;
}

void pki_maps_put(struct pki_maps *m)
{
	if (!m || --m->refs > 0)
		return;
	pki_unwinder_free(m->unwinder);
	free(m->v);
	free(m);
}

static int reserve(struct pki_maps *m, size_t extra)
{
	size_t n;
	struct pki_map *v;

	if (m->nr + extra <= m->alloc)
		return 0;
	n = m->alloc ? m->alloc * 2 : 16;
	while (n < m->nr + extra)
		n *= 2;
	v = realloc(m->v, n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	m->v = v;
	m->alloc = n;
	return 0;
}

/* First index whose map ends after addr. */
static size_t first_ending_after(const struct pki_maps *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int pki_maps_insert(struct pki_maps *m, const struct pki_map *map)
{
	struct pki_map left = {0}, right = {0};
	bool has_left = false, has_right = false;
	size_t i, j, n_new;

	if (map->end <= map->start || reserve(m, 3))
		return map->end <= map->start ? -EINVAL : -ENOMEM;
	i = first_ending_after(m, map->start);
	j = i;
	while (j < m->nr && m->v[j].start < map->end)
		j++;
	/* v[i..j) overlap the new map */
	if (i < j && m->v[i].start < map->start) {
		left = m->v[i];
		left.end = map->start;
		has_left = true;
	}
	if (i < j && m->v[j - 1].end > map->end) {
		right = m->v[j - 1];
		right.pgoff += map->end - right.start;
		right.start = map->end;
		has_right = true;
	}
	m->gen++;
	n_new = 1 + has_left + has_right;
	memmove(&m->v[i + n_new], &m->v[j], (m->nr - j) * sizeof(*m->v));
	m->nr = m->nr - (j - i) + n_new;
	if (has_left)
		m->v[i++] = left;
	m->v[i++] = *map;
	if (has_right)
		m->v[i] = right;
	return 0;
}

const struct pki_map *pki_maps_find(const struct pki_maps *m, uint64_t addr)
{
	size_t i;

	if (!m)
		return NULL;
	i = first_ending_after(m, addr);
	if (i < m->nr && m->v[i].start <= addr)
		return &m->v[i];
	return NULL;
}
