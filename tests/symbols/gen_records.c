// SPDX-License-Identifier: MIT
#include <string.h>
#include "gen_records.h"

void put(struct rec *r, const void *p, size_t n)
{
	if (r->n + n <= sizeof(r->b)) {
		memcpy(r->b + r->n, p, n);
		r->n += n;
	}
}

void u64(struct rec *r, uint64_t v)
{
	put(r, &v, 8);
}

void u32x2(struct rec *r, uint32_t a, uint32_t b)
{
	put(r, &a, 4);
	put(r, &b, 4);
}

void str(struct rec *r, const char *s)
{
	size_t n = strlen(s) + 1;
	static const uint8_t zero[8];

	put(r, s, n);
	put(r, zero, (8 - n % 8) % 8);
}

void start(struct rec *r, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = {.type = type, .misc = misc};

	r->n = 0;
	put(r, &h, sizeof(h));
}

int emit(struct pk_writer *w, struct rec *r)
{
	struct perf_event_header *h = (struct perf_event_header *)r->b;

	h->size = (uint16_t)r->n;
	return pk_writer_write(w, r->b, r->n);
}

static uint64_t rnd_state = 88172645463325252ULL;

void rnd_seed(uint64_t seed)
{
	rnd_state = seed;
}

uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}
