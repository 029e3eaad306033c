// SPDX-License-Identifier: MIT
/* Buffered, bounded input for the reader (see reader_io.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "reader_io.h"

int pki_source_init(struct pki_source *s, int fd, size_t cap)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->limit = UINT64_MAX;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		s->seekable = true;
		s->file_size = st.st_size;
		s->buf_offset = lseek(fd, 0, SEEK_CUR);
		if (s->buf_offset == (uint64_t)-1)
			s->buf_offset = 0;
	}
	s->cap = cap;
	s->buf = malloc(cap);
	return s->buf ? 0 : -ENOMEM;
}

void pki_source_fini(struct pki_source *s)
{
	free(s->buf);
	s->buf = NULL;
}

/* Move the unconsumed bytes to the front and read more after them. */
static int refill(struct pki_source *s)
{
	size_t have = s->end - s->start;
	uint64_t off;
	size_t room;
	ssize_t n;

	if (s->start) {
		memmove(s->buf, s->buf + s->start, have);
		s->buf_offset += s->start;
		s->start = 0;
		s->end = have;
	}
	off = s->buf_offset + s->end;
	room = s->cap - s->end;
	if (s->limit != UINT64_MAX) {
		if (off >= s->limit)
			room = 0;
		else if (s->limit - off < room)
			room = s->limit - off;
	}
	if (!room) {
		s->eof = true;
		return 0;
	}
	do {
		n = read(s->fd, s->buf + s->end, room);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		s->err = errno;
		return -errno;
	}
	if (n == 0)
		s->eof = true;
	s->end += n;
	return 0;
}

const uint8_t *pki_source_peek(struct pki_source *s, size_t n, size_t *avail)
{
	while (s->end - s->start < n) {
		if (n > s->cap || s->eof || s->err)
			break;
		if (refill(s) < 0)
			break;
		if (s->eof && s->end - s->start < n)
			break;
	}
	if (avail)
		*avail = s->end - s->start;
	if (s->end - s->start < n)
		return NULL;
	return s->buf + s->start;
}

int pki_source_skip(struct pki_source *s, uint64_t n)
{
	size_t have = s->end - s->start;
	uint64_t target;

	if (n <= have) {
		s->start += n;
		return 0;
	}
	target = pki_source_offset(s) + n;
	if (s->seekable) {
		if (target > s->file_size || target > s->limit)
			return -ENODATA;
		return pki_source_seek(s, target, s->limit);
	}
	n -= have;
	s->start = s->end;
	while (n) {
		size_t chunk = n < s->cap ? n : s->cap;

		if (!pki_source_peek(s, chunk, NULL))
			return s->err ? -s->err : -ENODATA;
		s->start += chunk;
		n -= chunk;
	}
	return 0;
}

int pki_source_read(struct pki_source *s, void *dst, uint64_t n)
{
	uint8_t *out = dst;

	while (n) {
		size_t chunk = n < s->cap ? n : s->cap;
		const uint8_t *p = pki_source_peek(s, chunk, NULL);

		if (!p)
			return s->err ? -s->err : -ENODATA;
		memcpy(out, p, chunk);
		s->start += chunk;
		out += chunk;
		n -= chunk;
	}
	return 0;
}

int pki_source_seek(struct pki_source *s, uint64_t offset, uint64_t limit)
{
	if (!s->seekable)
		return -ESPIPE;
	if (limit == s->limit && offset >= s->buf_offset && offset <= s->buf_offset + s->end) {
		s->start = offset - s->buf_offset;
		return 0;
	}
	s->limit = limit;
	if (lseek(s->fd, offset, SEEK_SET) == (off_t)-1)
		return -errno;
	s->buf_offset = offset;
	s->start = s->end = 0;
	s->eof = false;
	return 0;
}

int pki_source_pread(struct pki_source *s, void *dst, size_t n, uint64_t offset)
{
	uint8_t *out = dst;

	while (n) {
		ssize_t got = pread(s->fd, out, n, offset);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -errno;
		if (got == 0)
			return -ENODATA;
		out += got;
		offset += got;
		n -= got;
	}
	return 0;
}
