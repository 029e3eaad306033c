// SPDX-License-Identifier: MIT
/*
 * The record stream in file order: framing and bounds checks, payloads that
 * follow some records, records perf adds in pipe mode (attrs, features,
 * names), COMPRESSED records, and matching each record to its attr and
 * timestamp.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cursor.h"
#include "reader_internal.h"

#define PAYLOAD_MAX      (1ull << 30) /* pipe-mode tracing data we keep in memory */
#define EVENT_UPDATE_NAME 2

static uint64_t rec_u64(const struct pk_record *rec, size_t off)
{
	return pki_load64((const uint8_t *)rec->raw + off, rec->swapped);
}

/* The attr of a record, as perf finds it: the only attr, or by the id at the
 * position all attrs agree on; id 0 (synthesized records) means the first. */
static const struct pk_attr *match_attr(struct pk_reader *r, const struct pk_record *rec)
{
	const struct pk_attr *first;
	uint64_t id;

	if (!r->nr_attrs || rec->type >= 64)
		return NULL;
	first = r->attrs[0];
	if (r->nr_attrs == 1)
		return first;
	if (rec->type == PK_RECORD_SAMPLE) {
		if (first->id_pos < 0)
			return first;
		if (8 + 8 * (size_t)first->id_pos + 8 > rec->size)
			return NULL;
		id = rec_u64(rec, 8 + 8 * first->id_pos);
	} else {
		if (!first->attr.sample_id_all || first->is_pos < 0)
			return first;
		if (8 + 8 * (size_t)first->is_pos > rec->size)
			return NULL;
		id = rec_u64(rec, rec->size - 8 * first->is_pos);
	}
	if (!id)
		return first;
	return pk_reader_attr_by_id(r, id);
}

static uint64_t record_time(const struct pk_record *rec)
{
	const struct pk_attr *a = rec->attr;
	uint64_t t;
	size_t pos;

	if (!a || !(a->attr.sample_type & PERF_SAMPLE_TIME))
		return PK_NO_TIME;
	t = a->attr.sample_type;
	if (rec->type == PK_RECORD_SAMPLE) {
		pos = 8 + 8 * (!!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_IP) +
			       !!(t & PERF_SAMPLE_TID));
		return pos + 8 <= rec->size ? rec_u64(rec, pos) : PK_NO_TIME;
	}
	if (rec->type >= 64 || !a->attr.sample_id_all)
		return PK_NO_TIME;
	pos = (size_t)8 * (1 + !!(t & PERF_SAMPLE_ID) + !!(t & PERF_SAMPLE_STREAM_ID) +
		   !!(t & PERF_SAMPLE_CPU) + !!(t & PERF_SAMPLE_IDENTIFIER));
	return pos + 8 <= rec->size ? rec_u64(rec, rec->size - pos) : PK_NO_TIME;
}

/* Pipe mode: PERF_RECORD_HEADER_ATTR carries an attr and its ids. */
static int take_header_attr(struct pk_reader *r, const struct pk_record *rec)
{
	const uint8_t *p = (const uint8_t *)rec->raw + 8;
	size_t len = rec->size - 8;
	struct perf_event_attr attr;
	uint32_t asize, fsize;
	char name[256];
	int err;

	if (len < PERF_ATTR_SIZE_VER0)
		return pki_reader_fail(r, -EINVAL, rec->file_offset, "ATTR record is too short");
	asize = pki_load32(p + 4, rec->swapped);
	if (!asize)
		asize = PERF_ATTR_SIZE_VER0;
	if (asize < PERF_ATTR_SIZE_VER0 || asize > len || (len - asize) % 8)
		return pki_reader_fail(r, -EINVAL, rec->file_offset,
				       "ATTR record: attr size %u does not fit the record", asize);
	pki_attr_decode(&attr, p, asize, rec->swapped, &fsize);
	err = pki_reader_add_attr(r, &attr, fsize, p + asize, (len - asize) / 8, rec->swapped);
	if (err)
		return err;
	pk_event_attr_name(&attr, name, sizeof(name));
	return pki_reader_set_attr_name(r, r->nr_attrs - 1, name, strlen(name));
}

/* Pipe mode: a feature section as a record (u64 feature id, then data). */
static void take_header_feature(struct pk_reader *r, const struct pk_record *rec)
{
	const char *why = NULL;
	uint64_t feat;

	if (rec->size < 16) {
		pki_reader_warn(r, rec->file_offset, "FEATURE record is too short; ignored");
		return;
	}
	feat = rec_u64(rec, 8);
	if (feat >= PK_FEAT_BITS)
		return;
	if (pki_feature_decode(&r->hdr, feat, (const uint8_t *)rec->raw + 16, rec->size - 16,
			       rec->swapped, &why))
		pki_reader_warn(r, rec->file_offset, "feature %s: %s",
				pk_feature_name(feat) ?: "?", why ? why : "cannot be decoded");
	r->hdr.features[feat / 64] |= 1ull << (feat % 64);
	if (feat == PK_FEAT_EVENT_DESC) {
		for (uint32_t i = 0; i < r->hdr.nr_event_desc && i < r->nr_attrs; i++) {
			const char *n = r->hdr.event_desc[i].name;

			if (n && *n)
				pki_reader_set_attr_name(r, i, n, strlen(n));
		}
	}
}

/* EVENT_UPDATE of type NAME renames the attr owning the id. */
static void take_event_update(struct pk_reader *r, const struct pk_record *rec)
{
	const struct pk_attr *a;
	const char *name;
	size_t len;

	if (rec->size < 24 || rec_u64(rec, 8) != EVENT_UPDATE_NAME)
		return;
	a = pk_reader_attr_by_id(r, rec_u64(rec, 16));
	if (!a)
		return;
	name = (const char *)rec->raw + 24;
	len = strnlen(name, rec->size - 24);
	pki_reader_set_attr_name(r, a->index, name, len);
}

/* Old pipe mode: HEADER_EVENT_TYPE names a tracepoint id. */
static void take_event_type(struct pk_reader *r, const struct pk_record *rec)
{
	uint64_t event_id;
	const char *name;

	if (rec->size < 8 + 8 + 64)
		return;
	event_id = rec_u64(rec, 8);
	name = (const char *)rec->raw + 16;
	for (uint32_t i = 0; i < r->nr_attrs; i++) {
		struct pk_attr *a = r->attrs[i];

		if (a->attr.type == PERF_TYPE_TRACEPOINT && a->attr.config == event_id)
			pki_reader_set_attr_name(r, i, name, strnlen(name, 64));
	}
}

/* Records perf writes for itself change the reader's state. */
static int take_user_record(struct pk_reader *r, const struct pk_record *rec)
{
	switch (rec->type) {
	case PK_RECORD_HEADER_ATTR:
		return take_header_attr(r, rec);
	case PK_RECORD_HEADER_FEATURE:
		take_header_feature(r, rec);
		break;
	case PK_RECORD_EVENT_UPDATE:
		take_event_update(r, rec);
		break;
	case PK_RECORD_HEADER_EVENT_TYPE:
		take_event_type(r, rec);
		break;
	default:
		break;
	}
	return 0;
}

static bool known_type(uint32_t type)
{
	return (type >= 1 && type < PK_RECORD_KERNEL_MAX) ||
	       (type >= 64 && type < PK_RECORD_USER_MAX);
}

/*
 * Bytes that follow some records outside header.size: the AUXTRACE payload
 * (skipped) and the pipe-mode TRACING_DATA blob (kept, 8-byte aligned).
 */
static int take_payload(struct pk_reader *r, struct pk_record *rec)
{
	uint64_t n;
	int err;

	if (rec->type == PK_RECORD_AUXTRACE) {
		if (rec->size < 16)
			return pki_reader_fail(r, -EINVAL, rec->file_offset,
					       "AUXTRACE record is too short");
		n = rec_u64(rec, 8);
		rec->extra_size = n;
		err = rec->unpacked ? -EINVAL : pki_source_skip(&r->src, n);
		if (err)
			return pki_reader_fail(r, err, rec->file_offset,
					       "AUXTRACE payload of %llu bytes runs past the end "
					       "of the data",
					       (unsigned long long)n);
		return 0;
	}
	if (rec->type == PK_RECORD_HEADER_TRACING_DATA && r->hdr.pipe && !rec->unpacked) {
		if (rec->size < 12)
			return pki_reader_fail(r, -EINVAL, rec->file_offset,
					       "TRACING_DATA record is too short");
		n = pki_load32((const uint8_t *)rec->raw + 8, rec->swapped);
		n = (n + 7) & ~7ull;
		if (n > PAYLOAD_MAX)
			return pki_reader_fail(r, -E2BIG, rec->file_offset,
					       "tracing data of %llu bytes is too large",
					       (unsigned long long)n);
		free(r->extra_buf);
		r->extra_buf = malloc(n ? n : 1);
		if (!r->extra_buf)
			return -ENOMEM;
		err = pki_source_read(&r->src, r->extra_buf, n);
		if (err)
			return pki_reader_fail(r, err, rec->file_offset,
					       "tracing data runs past the end of the stream");
		rec->extra = r->extra_buf;
		rec->extra_size = n;
		if (!r->hdr.tracing_data) {
			r->hdr.tracing_data = r->extra_buf;
			r->hdr.tracing_data_size = n;
			r->extra_buf = NULL; /* now owned by the header */
		}
	}
	return 0;
}

/* Frame a record at p (avail bytes there); 0 when more bytes are needed. */
static int frame(struct pk_reader *r, const uint8_t *p, size_t avail, uint64_t offset,
		 struct pk_record *rec)
{
	bool sw = r->hdr.swapped;

	if (avail < 8)
		return 0;
	memset(rec, 0, sizeof(*rec));
	rec->type = pki_load32(p, sw);
	rec->misc = pki_load16(p + 4, sw);
	rec->size = pki_load16(p + 6, sw);
	rec->file_offset = offset;
	rec->swapped = sw;
	rec->raw = p;
	if (rec->size < 8)
		return pki_reader_fail(r, -EINVAL, offset,
				       "record of type %u has size %u, smaller than its header",
				       rec->type, rec->size);
	return avail >= rec->size ? 1 : 0;
}

static int end_of_data(struct pk_reader *r, size_t avail)
{
	uint64_t off = pki_source_offset(&r->src);

	if (r->src.err)
		return pki_reader_fail(r, -r->src.err, off, "read error: %s",
				       strerror(r->src.err));
	if (r->unpack.len > r->unpack.pos)
		pki_reader_warn(r, r->unpack.file_offset,
				"compressed data ends in the middle of a record");
	if (r->data_size_unknown) {
		if (avail)
			pki_reader_warn(r, off, "file ends in the middle of a record; the last "
					"%zu bytes are ignored", avail);
		return 0;
	}
	if (avail)
		return pki_reader_fail(r, -EINVAL, off,
				       "file is truncated: it ends in the middle of a record");
	if (!r->hdr.pipe && off < r->data_end)
		return pki_reader_fail(r, -EINVAL, off,
				       "file is truncated: the data section should end at %#llx",
				       (unsigned long long)r->data_end);
	return 0;
}

/* Next record from the unpacked COMPRESSED data, 1 if there was one. */
static int next_unpacked(struct pk_reader *r, struct pk_record *rec)
{
	struct pki_unpack *u = &r->unpack;
	int ret;

	if (u->len - u->pos < 8)
		return 0;
	ret = frame(r, u->out + u->pos, u->len - u->pos, u->file_offset, rec);
	if (ret <= 0)
		return ret;
	rec->unpacked = true;
	u->pos += rec->size;
	return 1;
}

/* Next record from the file or pipe, 1 if there was one. */
static int next_from_source(struct pk_reader *r, struct pk_record *rec)
{
	uint64_t off = pki_source_offset(&r->src);
	const uint8_t *p;
	size_t avail;
	int ret;

	if (!r->hdr.pipe && off >= r->data_end)
		return end_of_data(r, 0);
	p = pki_source_peek(&r->src, 8, &avail);
	if (!p)
		return end_of_data(r, avail);
	ret = frame(r, p, avail, off, rec);
	if (ret < 0) {
		if (!r->data_size_unknown)
			return ret;
		/* r->err already names file and offset; passing it to
		 * pki_reader_warn() would format it into itself */
		pki_warn("%s", r->err);
		r->nr_warnings++;
		return 0;
	}
	p = pki_source_peek(&r->src, rec->size, &avail);
	if (!p)
		return end_of_data(r, avail);
	rec->raw = p;
	if (!r->hdr.pipe && off + rec->size > r->data_end)
		return pki_reader_fail(r, -EINVAL, off,
				       "record of %u bytes runs past the end of the data section",
				       rec->size);
	pki_source_consume(&r->src, rec->size);
	return 1;
}

static bool is_compressed(uint32_t type)
{
	return type == PK_RECORD_COMPRESSED || type == PK_RECORD_COMPRESSED2;
}

int pki_reader_next_raw(struct pk_reader *r, struct pk_record *rec)
{
	int ret;

	if (r->last_err)
		return r->last_err;
	for (;;) {
		if (r->has_pending_compressed) {
			/* the COMPRESSED record delivered last time: its bytes are
			 * still in the read buffer, unpack them now */
			r->has_pending_compressed = false;
			ret = pki_unpack_feed(r, &r->pending_compressed);
			if (ret)
				return ret;
		}
		ret = next_unpacked(r, rec);
		if (ret == 0 && !r->done)
			ret = next_from_source(r, rec);
		if (ret <= 0) {
			if (ret == 0)
				r->done = true;
			return ret;
		}
		if (!known_type(rec->type)) {
			if (!r->nr_unknown++)
				pki_reader_warn(r, rec->file_offset,
						"record type %u is unknown; skipping such records",
						rec->type);
			continue;
		}
		ret = take_payload(r, rec);
		if (!ret && rec->type >= 64)
			ret = take_user_record(r, rec);
		if (ret)
			return ret;
		rec->attr = match_attr(r, rec);
		rec->time = record_time(rec);
		if (is_compressed(rec->type) && !r->opts.no_decompress) {
			r->pending_compressed = *rec;
			r->has_pending_compressed = true;
		}
		return 1;
	}
}
