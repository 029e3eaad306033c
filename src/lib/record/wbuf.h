/* SPDX-License-Identifier: MIT */
/*
 * A growable byte buffer for building feature sections and records, with a
 * sticky out-of-memory flag: builders append everything and check ->oom
 * once at the end.
 */
#ifndef PK_WBUF_H
#define PK_WBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pki_wbuf {
	uint8_t *p;
	size_t len, cap;
	bool oom;
};

void pki_wbuf_free(struct pki_wbuf *b);
void pki_wbuf_put(struct pki_wbuf *b, const void *data, size_t n);
void pki_wbuf_zero(struct pki_wbuf *b, size_t n);
void pki_wbuf_u32(struct pki_wbuf *b, uint32_t v);
void pki_wbuf_u64(struct pki_wbuf *b, uint64_t v);
/* perf_header_string: u32 length (NUL included, padded to 64), then the
 * bytes padded with zeros. */
void pki_wbuf_string(struct pki_wbuf *b, const char *s);
/* Pad with zeros to a multiple of align. */
void pki_wbuf_align(struct pki_wbuf *b, size_t align);

#endif
