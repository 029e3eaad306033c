/* SPDX-License-Identifier: MIT */
/*
 * Buffered input for the reader: one code path for seekable files and
 * pipes.  Data is read in large chunks into a window; a caller asks for the
 * next n bytes with pki_source_peek() and consumes them.
 */
#ifndef PK_READER_IO_H
#define PK_READER_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pki_source {
	int fd;
	bool seekable;
	uint64_t file_size;	/* when seekable */
	uint8_t *buf;
	size_t cap;
	size_t start, end;	/* valid bytes are buf[start, end) */
	uint64_t buf_offset;	/* stream offset of buf[0] */
	uint64_t limit;		/* no reads at or past this offset */
	bool eof;
	int err;		/* errno of a failed read, 0 */
};

int pki_source_init(struct pki_source *s, int fd, size_t cap);
void pki_source_fini(struct pki_source *s);

/* Stream offset of the next unconsumed byte. */
static inline uint64_t pki_source_offset(const struct pki_source *s)
{
	return s->buf_offset + s->start;
}

/*
 * Make n bytes available at the current offset.  Returns a pointer to them,
 * or NULL when fewer exist before the end (*avail says how many) or on a
 * read error (s->err).  n must not exceed the buffer capacity.
 */
const uint8_t *pki_source_peek(struct pki_source *s, size_t n, size_t *avail);

static inline void pki_source_consume(struct pki_source *s, size_t n)
{
	s->start += n;
}

/* Skip n bytes, seeking when possible.  Returns 0, -EIO/-errno, or -ENODATA
 * when the stream ends first. */
int pki_source_skip(struct pki_source *s, uint64_t n);

/* Read exactly n bytes at the current offset into dst (any size). */
int pki_source_read(struct pki_source *s, void *dst, uint64_t n);

/* Seekable sources only: continue at offset, reading no further than limit
 * (UINT64_MAX: no limit). */
int pki_source_seek(struct pki_source *s, uint64_t offset, uint64_t limit);

/* Seekable sources only: n bytes at offset, into dst, without moving. */
int pki_source_pread(struct pki_source *s, void *dst, size_t n, uint64_t offset);

#endif
