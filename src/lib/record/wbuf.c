// SPDX-License-Identifier: MIT
/* Growable byte buffer used to build feature sections and records. */
#include <stdlib.h>
#include <string.h>
#include "wbuf.h"

#define PERF_NAME_ALIGN 64

void pki_wbuf_free(struct pki_wbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

static bool reserve(struct pki_wbuf *b, size_t n)
{
	size_t ncap;
	uint8_t *np;

	if (b->oom)
		return false;
	if (n <= b->cap - b->len)
		return true;
	if (n > SIZE_MAX / 4 - b->len) {
		b->oom = true;
		return false;
	}
	ncap = b->cap ? b->cap : 256;
	while (ncap - b->len < n)
		ncap *= 2;
	np = realloc(b->p, ncap);
	if (!np) {
		b->oom = true;
		return false;
	}
	b->p = np;
	b->cap = ncap;
	return true;
}

void pki_wbuf_put(struct pki_wbuf *b, const void *data, size_t n)
{
	if (!n || !reserve(b, n))
		return;
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

void pki_wbuf_zero(struct pki_wbuf *b, size_t n)
{
	if (!n || !reserve(b, n))
		return;
	memset(b->p + b->len, 0, n);
	b->len += n;
}

void pki_wbuf_u32(struct pki_wbuf *b, uint32_t v)
{
	pki_wbuf_put(b, &v, sizeof(v));
}

void pki_wbuf_u64(struct pki_wbuf *b, uint64_t v)
{
	pki_wbuf_put(b, &v, sizeof(v));
}

void pki_wbuf_string(struct pki_wbuf *b, const char *s)
{
	size_t n = strlen(s) + 1;
	size_t padded = (n + PERF_NAME_ALIGN - 1) / PERF_NAME_ALIGN * PERF_NAME_ALIGN;

	if (padded > UINT32_MAX) {
		b->oom = true;
		return;
	}
	pki_wbuf_u32(b, (uint32_t)padded);
	pki_wbuf_put(b, s, n);
	pki_wbuf_zero(b, padded - n);
}

void pki_wbuf_align(struct pki_wbuf *b, size_t align)
{
	size_t rem = b->len % align;

	if (rem)
		pki_wbuf_zero(b, align - rem);
}
