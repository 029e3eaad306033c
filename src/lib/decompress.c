// SPDX-License-Identifier: MIT
/*
 * PERF_RECORD_COMPRESSED and COMPRESSED2: zstd frames whose output is a
 * stream of ordinary records.  A record may start in one compressed record
 * and end in the next, so undelivered bytes are kept between feeds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "bswap.h"
#include "reader_internal.h"

#define UNPACK_MAX (256u << 20) /* output of one compressed record, at most */

void pki_unpack_fini(struct pki_unpack *u)
{
	ZSTD_freeDCtx(u->dctx);
	free(u->out);
	memset(u, 0, sizeof(*u));
}

/* Where the zstd bytes of a compressed record are. */
static int compressed_payload(struct pk_reader *r, const struct pk_record *rec,
			      const uint8_t **data, size_t *len)
{
	const uint8_t *p = rec->raw;
	uint64_t n;

	if (rec->type == PK_RECORD_COMPRESSED) {
		*data = p + 8;
		*len = rec->size - 8;
		return 0;
	}
	/* COMPRESSED2: u64 data_size, then the data, padded to 8 bytes */
	if (rec->size < 16)
		return pki_reader_fail(r, -EINVAL, rec->file_offset,
				       "COMPRESSED2 record is too short");
	n = pki_load64(p + 8, rec->swapped);
	if (n > (uint64_t)rec->size - 16)
		return pki_reader_fail(r, -EINVAL, rec->file_offset,
				       "COMPRESSED2 data size %llu exceeds the record",
				       (unsigned long long)n);
	*data = p + 16;
	*len = n;
	return 0;
}

/* Keep the unread tail at the front and make room for more output. */
static int make_room(struct pk_reader *r, struct pki_unpack *u)
{
	size_t ncap;
	uint8_t *n;

	if (u->pos) {
		memmove(u->out, u->out + u->pos, u->len - u->pos);
		u->len -= u->pos;
		u->pos = 0;
	}
	if (u->len < u->cap)
		return 0;
	if (u->cap >= UNPACK_MAX)
		return pki_reader_fail(r, -E2BIG, u->file_offset,
				       "compressed record unpacks to more than %u MiB",
				       UNPACK_MAX >> 20);
	ncap = u->cap ? u->cap * 2 : (256u << 10);
	n = realloc(u->out, ncap);
	if (!n)
		return -ENOMEM;
	u->out = n;
	u->cap = ncap;
	return 0;
}

int pki_unpack_feed(struct pk_reader *r, const struct pk_record *rec)
{
	struct pki_unpack *u = &r->unpack;
	ZSTD_inBuffer in;
	const uint8_t *data = NULL;
	size_t len = 0;
	int err;

	err = compressed_payload(r, rec, &data, &len);
	if (err)
		return err;
	if (!u->dctx) {
		u->dctx = ZSTD_createDCtx();
		if (!u->dctx)
			return -ENOMEM;
	}
	u->file_offset = rec->file_offset;
	in = (ZSTD_inBuffer){data, len, 0};
	for (;;) {
		ZSTD_outBuffer out;
		size_t ret;

		err = make_room(r, u);
		if (err)
			return err;
		out = (ZSTD_outBuffer){u->out + u->len, u->cap - u->len, 0};
		ret = ZSTD_decompressStream(u->dctx, &out, &in);
		if (ZSTD_isError(ret))
			return pki_reader_fail(r, -EINVAL, rec->file_offset,
					       "cannot decompress: %s", ZSTD_getErrorName(ret));
		u->len += out.pos;
		if (in.pos == in.size && out.pos < out.size)
			return 0;
	}
}
