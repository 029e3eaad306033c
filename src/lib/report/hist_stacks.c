// SPDX-License-Identifier: MIT
/*
 * Unique stacks.  A profile has millions of samples but far fewer
 * distinct (event, thread, resolved location, resolved callchain)
 * combinations; the histogram only needs each combination's period and
 * sample count.  Samples are folded into this table as they are read and
 * the histogram is built from it afterwards, in the order each stack was
 * first seen, which creates entries and call-tree nodes in the same order
 * as adding every sample would.  Memory grows with unique stacks, not
 * with samples, and the costly per-entry call-tree work runs once per
 * stack.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hist_internal.h"

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h += 0x9e3779b97f4a7c15ULL;
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
	return h ^ (h >> 31);
}

/* Cheap per-word step (one multiply); stack_hash finishes with a full mix.
 * Equal stacks are still told apart by comparing every field. */
static inline uint64_t step(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3ULL;
}

static inline uint64_t loc_hash(uint64_t h, const struct pk_location *l)
{
	h = step(h, l->ip);
	return step(h, (uintptr_t)l->sym ^ l->cpumode);
}

static bool loc_same(const struct pk_location *a, const struct pk_location *b)
{
	return a->ip == b->ip && a->addr == b->addr && a->dso == b->dso && a->sym == b->sym &&
	       a->cpumode == b->cpumode;
}

static uint64_t stack_hash(const struct pki_stack *k, const struct pk_frame *frames)
{
	uint64_t h = mix((uintptr_t)k->attr, (uintptr_t)k->comm);

	h = mix(h, (uintptr_t)k->thread);
	h = mix(h, k->cpu);
	h = loc_hash(h, &k->loc);
	for (uint32_t i = 0; i < k->nr_frames; i++)
		h = loc_hash(h, &frames[i].loc);
	return mix(mix(h, h >> 29), k->nr_frames);
}

static bool stack_same(const struct pki_stack *a, const struct pki_stack *k,
		       const struct pk_frame *frames)
{
	if (a->hash != k->hash || a->attr != k->attr || a->comm != k->comm ||
	    a->thread != k->thread || a->cpu != k->cpu || a->nr_frames != k->nr_frames ||
	    !loc_same(&a->loc, &k->loc))
		return false;
	for (uint32_t i = 0; i < k->nr_frames; i++)
		if (!loc_same(&a->frames[i].loc, &frames[i].loc))
			return false;
	return true;
}

static int grow(struct pki_stacks *t)
{
	size_t n = t->nr_slots ? t->nr_slots * 2 : 4096;
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr; i++) {
		size_t j = t->v[i].hash & (n - 1);

		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = (uint32_t)i + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->nr_slots = n;
	return 0;
}

static int append(struct pki_stacks *t, const struct pki_stack *k, const struct pk_frame *frames,
		  size_t slot)
{
	struct pki_stack *s;

	if (t->nr == t->alloc) {
		size_t n = t->alloc ? t->alloc * 2 : 1024;
		struct pki_stack *v = realloc(t->v, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->v = v;
		t->alloc = n;
	}
	s = &t->v[t->nr];
	*s = *k;
	/* first_thread and first_cpu are not part of the key: they come
	 * from the first sample, as the entries' do */
	s->frames = NULL;
	if (k->nr_frames) {
		s->frames = malloc(k->nr_frames * sizeof(*frames));
		if (!s->frames)
			return -ENOMEM;
		memcpy(s->frames, frames, k->nr_frames * sizeof(*frames));
	}
	t->slots[slot] = (uint32_t)++t->nr;
	return 0;
}

int pki_stacks_add(struct pki_stacks *t, struct pki_stack *k, const struct pk_frame *frames)
{
	size_t j;

	if ((t->nr + 1) * 2 > t->nr_slots && grow(t))
		return -ENOMEM;
	if (t->nr >= UINT32_MAX - 1)
		return -EOVERFLOW;
	k->hash = stack_hash(k, frames);
	for (j = k->hash & (t->nr_slots - 1); t->slots[j]; j = (j + 1) & (t->nr_slots - 1)) {
		struct pki_stack *s = &t->v[t->slots[j] - 1];

		if (stack_same(s, k, frames)) {
			s->period += k->period;
			s->count += k->count;
			return 0;
		}
	}
	return append(t, k, frames, j);
}

void pki_stacks_free(struct pki_stacks *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->v[i].frames);
	free(t->v);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}
