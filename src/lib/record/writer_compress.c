// SPDX-License-Identifier: MIT
/*
 * -z: records are gathered into chunks of whole records, each chunk
 * compressed into one zstd frame carried by a PERF_RECORD_COMPRESSED.  A
 * frame must fit the 16-bit record size, so a chunk that compresses badly
 * is split at a record boundary and tried again.
 */
#include <errno.h>
#include <string.h>
#include <zstd.h>
#include <perfkit/record.h>
#include "writer_internal.h"

#define CHUNK_MAX   (256 * 1024)
#define PAYLOAD_MAX (PKI_WRITER_REC_MAX - 8) /* after the record's header */

void pki_writer_compress_free(struct pk_writer *w)
{
	ZSTD_freeCCtx(w->cctx);
	w->cctx = NULL;
	pki_wbuf_free(&w->zin);
}

/* Offset of the record boundary nearest to the middle of [p, p+len). */
static size_t middle_boundary(const uint8_t *p, size_t len)
{
	size_t off = 0, best = 0;

	while (off < len) {
		uint16_t sz;

		memcpy(&sz, p + off + 6, 2);
		if (off && off >= len / 2)
			return (best && len / 2 - best < off - len / 2) ? best : off;
		best = off;
		off += sz;
	}
	return best;
}

static int emit_compressed(struct pk_writer *w, const uint8_t *p, size_t len)
{
	uint8_t out[8 + PAYLOAD_MAX];
	struct perf_event_header *h = (struct perf_event_header *)out;
	size_t n, cut;
	int err;

	n = ZSTD_compressCCtx(w->cctx, out + 8, PAYLOAD_MAX, p, len, w->compress_level);
	if (!ZSTD_isError(n)) {
		/* no padding: perf's own records are not 8-aligned either,
		 * and bytes after the frame would not decompress */
		size_t total = 8 + n;

		h->type = PK_RECORD_COMPRESSED;
		h->misc = 0;
		h->size = (uint16_t)total;
		err = pki_writer_emit(w, out, total);
		if (!err)
			w->st.data_bytes += total;
		return err;
	}
	cut = middle_boundary(p, len);
	if (cut == 0) {
		/* one record that does not compress into a record: as is */
		err = pki_writer_emit(w, p, len);
		if (!err)
			w->st.data_bytes += len;
		return err;
	}
	err = emit_compressed(w, p, cut);
	return err ? err : emit_compressed(w, p + cut, len - cut);
}

int pki_writer_compress_flush(struct pk_writer *w)
{
	int err;

	if (!w->zin.len)
		return 0;
	err = emit_compressed(w, w->zin.p, w->zin.len);
	w->zin.len = 0;
	return err;
}

int pki_writer_compress_add(struct pk_writer *w, const void *rec, size_t size)
{
	int err;

	if (!w->cctx) {
		w->cctx = ZSTD_createCCtx();
		if (!w->cctx)
			return -ENOMEM;
	}
	if (w->zin.len + size > CHUNK_MAX && (err = pki_writer_compress_flush(w)))
		return err;
	pki_wbuf_put(&w->zin, rec, size);
	return w->zin.oom ? -ENOMEM : 0;
}
