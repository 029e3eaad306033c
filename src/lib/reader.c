// SPDX-License-Identifier: MIT
/*
 * The perf.data reader: opening a file or a pipe, the file header, the attr
 * and id tables, the feature sections.  The record stream itself is in
 * reader_stream.c, time ordering in reader_order.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cursor.h"
#include "reader_internal.h"

#define PERF_MAGIC2     0x32454c4946524550ULL /* "PERFILE2" little-endian */
#define PERF_MAGIC1     0x454c494646524550ULL /* "PERFFILE" */
#define FILE_HEADER_MIN 104		       /* perf_file_header through flags */
#define PIPE_HEADER_SZ  16
#define DEFAULT_BUFFER  (4u << 20)
#define FEATURE_MAX     (256u << 20) /* a larger feature section is refused */

static void vformat_error(struct pk_reader *r, uint64_t offset, const char *fmt, va_list ap)
{
	int n = snprintf(r->err, sizeof(r->err), "%s: offset 0x%llx: ", r->path ? r->path : "?",
			 (unsigned long long)offset);

	if (n < 0 || (size_t)n >= sizeof(r->err))
		return;
	vsnprintf(r->err + n, sizeof(r->err) - n, fmt, ap);
}

int pki_reader_fail(struct pk_reader *r, int err, uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vformat_error(r, offset, fmt, ap);
	va_end(ap);
	r->last_err = err;
	return err;
}

void pki_reader_warn(struct pk_reader *r, uint64_t offset, const char *fmt, ...)
{
	char saved[sizeof(r->err)];
	va_list ap;

	/* format into err[] then hand it to the print callback; keep the
	 * last real error intact */
	memcpy(saved, r->err, sizeof(saved));
	va_start(ap, fmt);
	vformat_error(r, offset, fmt, ap);
	va_end(ap);
	pki_warn("%s", r->err);
	memcpy(r->err, saved, sizeof(saved));
	r->nr_warnings++;
}

const char *pk_reader_error(const struct pk_reader *r)
{
	if (!r)
		return "no reader";
	return r->err[0] ? r->err : "no error";
}

uint64_t pk_reader_nr_warnings(const struct pk_reader *r)
{
	return r->nr_warnings;
}

uint64_t pk_reader_nr_unknown(const struct pk_reader *r)
{
	return r->nr_unknown;
}

const struct pk_header *pk_reader_header(const struct pk_reader *r)
{
	return &r->hdr;
}

const char *pk_reader_path(const struct pk_reader *r)
{
	return r->path;
}

static bool in_file(const struct pk_reader *r, uint64_t off, uint64_t len)
{
	uint64_t size = r->src.file_size;

	return off <= size && len <= size - off;
}

/* Read the attrs section: attr_size-byte entries, each an attr followed by
 * a perf_file_section pointing at its ids. */
static int read_attrs(struct pk_reader *r)
{
	struct pk_header *h = &r->hdr;
	uint64_t entry = h->attr_size, nr;
	uint8_t *buf = NULL;
	int err = 0;

	if (entry < PERF_ATTR_SIZE_VER0 + 16 || entry > PK_ATTR_FILE_MAX + 16)
		return pki_reader_fail(r, -EINVAL, 16, "attr size %llu is not valid",
				       (unsigned long long)entry);
	if (!in_file(r, h->attrs_offset, h->attrs_size) || h->attrs_size % entry)
		return pki_reader_fail(r, -EINVAL, 24,
				       "attrs section (offset %#llx, size %llu) is outside the file "
				       "or not a multiple of the attr size",
				       (unsigned long long)h->attrs_offset,
				       (unsigned long long)h->attrs_size);
	nr = h->attrs_size / entry;
	buf = malloc(entry);
	if (!buf)
		return -ENOMEM;
	for (uint64_t i = 0; i < nr && !err; i++) {
		uint64_t off = h->attrs_offset + i * entry;
		struct perf_event_attr attr;
		uint64_t ids_off, ids_size;
		uint32_t fsize;
		void *ids = NULL;

		err = pki_source_pread(&r->src, buf, entry, off);
		if (err) {
			err = pki_reader_fail(r, err, off, "cannot read attr %llu",
					      (unsigned long long)i);
			break;
		}
		pki_attr_decode(&attr, buf, entry - 16, h->swapped, &fsize);
		ids_off = pki_load64(buf + entry - 16, h->swapped);
		ids_size = pki_load64(buf + entry - 8, h->swapped);
		if (!in_file(r, ids_off, ids_size) || ids_size % 8 || ids_size > (64u << 20)) {
			err = pki_reader_fail(r, -EINVAL, off + entry - 16,
					      "ids of attr %llu (offset %#llx, size %llu) are not "
					      "valid",
					      (unsigned long long)i, (unsigned long long)ids_off,
					      (unsigned long long)ids_size);
			break;
		}
		if (ids_size) {
			ids = malloc(ids_size);
			if (!ids) {
				err = -ENOMEM;
				break;
			}
			err = pki_source_pread(&r->src, ids, ids_size, ids_off);
		}
		if (!err)
			err = pki_reader_add_attr(r, &attr, fsize, ids, ids_size / 8, h->swapped);
		free(ids);
	}
	free(buf);
	return err;
}

/* Old files name tracepoints in an event_types section: u64 id + char[64]. */
static int read_event_types(struct pk_reader *r)
{
	struct pk_header *h = &r->hdr;
	uint8_t ent[72];
	uint64_t nr;

	if (!h->event_types_size)
		return 0;
	if (!in_file(r, h->event_types_offset, h->event_types_size)) {
		pki_reader_warn(r, 88, "event_types section is outside the file; ignored");
		return 0;
	}
	nr = h->event_types_size / sizeof(ent);
	for (uint64_t i = 0; i < nr && i < 65536; i++) {
		uint64_t event_id;

		if (pki_source_pread(&r->src, ent, sizeof(ent), h->event_types_offset + i * 72))
			break;
		event_id = pki_load64(ent, h->swapped);
		for (uint32_t a = 0; a < r->nr_attrs; a++) {
			struct pk_attr *pa = r->attrs[a];

			if (pa->attr.type == PERF_TYPE_TRACEPOINT && pa->attr.config == event_id &&
			    !pa->name)
				pki_reader_set_attr_name(r, a, (const char *)ent + 8,
							 strnlen((const char *)ent + 8, 64));
		}
	}
	return 0;
}

/* Feature section table after the data: one perf_file_section per set bit,
 * in bit order.  A bad section is a warning, not a failure. */
static void read_features(struct pk_reader *r)
{
	struct pk_header *h = &r->hdr;
	uint64_t off = h->feat_offset;

	for (unsigned int feat = 1; feat < PK_FEAT_BITS; feat++) {
		uint8_t sec[16];
		uint64_t s_off, s_size;
		const char *why = NULL;
		void *data;
		int err;

		if (!((h->features[feat / 64] >> (feat % 64)) & 1))
			continue;
		if (pki_source_pread(&r->src, sec, sizeof(sec), off)) {
			pki_reader_warn(r, off, "feature section table is truncated");
			return;
		}
		off += sizeof(sec);
		s_off = pki_load64(sec, h->swapped);
		s_size = pki_load64(sec + 8, h->swapped);
		if (!in_file(r, s_off, s_size) || s_size > FEATURE_MAX) {
			pki_reader_warn(r, off - 16, "feature %u section (offset %#llx, size %llu) "
				        "is outside the file; ignored", feat,
				        (unsigned long long)s_off, (unsigned long long)s_size);
			continue;
		}
		data = malloc(s_size ? s_size : 1);
		if (!data)
			return;
		err = pki_source_pread(&r->src, data, s_size, s_off);
		if (!err)
			err = pki_feature_decode(h, feat, data, s_size, h->swapped, &why);
		if (err)
			pki_reader_warn(r, s_off, "feature %s: %s", pk_feature_name(feat) ?: "?",
				        why ? why : "cannot be decoded");
		free(data);
	}
}

/* Names from HEADER_EVENT_DESC: the i-th description names the i-th attr. */
static void name_from_event_desc(struct pk_reader *r)
{
	const struct pk_header *h = &r->hdr;

	if (!pk_header_has(h, PK_FEAT_EVENT_DESC))
		return;
	for (uint32_t i = 0; i < h->nr_event_desc && i < r->nr_attrs; i++) {
		const char *name = h->event_desc[i].name;

		if (name && *name)
			pki_reader_set_attr_name(r, i, name, strlen(name));
	}
}

/*
 * A data size of 0 means either "killed before the header was rewritten"
 * (records follow the data offset) or "finished with no records" (the
 * feature table follows it).  Only the second has a feature table there
 * whose sections lie after it, end to end, up to the end of the file.
 */
static bool empty_but_finished(struct pk_reader *r, const struct pk_header *h)
{
	uint64_t nr = 0, expect, entry[2];

	for (int i = 0; i < 4; i++)
		nr += (uint64_t)__builtin_popcountll(h->features[i]);
	if (nr == 0)
		return false;
	expect = h->data_offset + nr * 16;
	for (uint64_t i = 0; i < nr; i++) {
		if (pki_source_pread(&r->src, entry, sizeof(entry), h->data_offset + i * 16))
			return false;
		if (h->swapped) {
			entry[0] = __builtin_bswap64(entry[0]);
			entry[1] = __builtin_bswap64(entry[1]);
		}
		if (entry[0] != expect || entry[1] > r->src.file_size - expect)
			return false;
		expect += entry[1];
	}
	return expect == r->src.file_size;
}

static int parse_file_header(struct pk_reader *r, const uint8_t *p)
{
	struct pk_header *h = &r->hdr;
	struct pki_cursor c = pki_cursor_make(p, FILE_HEADER_MIN, h->swapped);

	pki_cursor_skip(&c, 8);
	h->header_size = pki_cursor_u64(&c);
	h->attr_size = pki_cursor_u64(&c);
	h->attrs_offset = pki_cursor_u64(&c);
	h->attrs_size = pki_cursor_u64(&c);
	h->data_offset = pki_cursor_u64(&c);
	h->data_size = pki_cursor_u64(&c);
	h->event_types_offset = pki_cursor_u64(&c);
	h->event_types_size = pki_cursor_u64(&c);
	for (int i = 0; i < 4; i++)
		h->features[i] = pki_cursor_u64(&c);
	if (h->header_size < FILE_HEADER_MIN)
		return pki_reader_fail(r, -EINVAL, 8, "header size %llu is too small",
				       (unsigned long long)h->header_size);
	if (h->data_offset < FILE_HEADER_MIN || h->data_offset > r->src.file_size)
		return pki_reader_fail(r, -EINVAL, 40, "data offset %#llx is outside the file",
				       (unsigned long long)h->data_offset);
	h->feat_offset = h->data_offset + h->data_size;
	if (h->data_size == 0 && !empty_but_finished(r, h)) {
		/* perf was killed before it wrote the header: recover what we can */
		r->data_size_unknown = true;
		pki_reader_warn(r, 48, "data size is 0: the file was not finalized "
				       "(perf record killed?); reading records up to the end");
		memset(h->features, 0, sizeof(h->features));
	}
	return 0;
}

static int open_file_mode(struct pk_reader *r, const uint8_t *p)
{
	struct pk_header *h = &r->hdr;
	int err;

	err = parse_file_header(r, p);
	if (!err)
		err = read_attrs(r);
	if (err)
		return err;
	if (!r->data_size_unknown)
		read_features(r);
	name_from_event_desc(r);
	read_event_types(r);
	pki_reader_name_attrs(r);
	/* a data section past the end of the file is read up to the end, where
	 * the reader reports the truncation */
	if (r->data_size_unknown)
		r->data_end = r->src.file_size;
	else
		r->data_end = h->data_offset + h->data_size;
	return pki_source_seek(&r->src, h->data_offset, r->data_end);
}

/* Magic, byte order and mode from the first 16 bytes. */
static int open_stream(struct pk_reader *r)
{
	struct pk_header *h = &r->hdr;
	const uint8_t *p;
	size_t avail;
	uint64_t magic, size;

	p = pki_source_peek(&r->src, PIPE_HEADER_SZ, &avail);
	if (!p)
		return pki_reader_fail(r, r->src.err ? -r->src.err : -EINVAL, 0,
				       "%s", r->src.err ? strerror(r->src.err)
							: "too short to be a perf.data file");
	magic = pki_load64(p, false);
	if (magic == PERF_MAGIC2) {
		h->swapped = false;
	} else if (magic == __builtin_bswap64(PERF_MAGIC2)) {
		h->swapped = true;
	} else if (magic == PERF_MAGIC1 || magic == __builtin_bswap64(PERF_MAGIC1)) {
		return pki_reader_fail(r, -ENOTSUP, 0,
				       "version 1 perf.data (PERFFILE) is not supported");
	} else {
		return pki_reader_fail(r, -EINVAL, 0, "not a perf.data file (bad magic)");
	}
	size = pki_load64(p + 8, h->swapped);
	if (size == PIPE_HEADER_SZ) {
		h->pipe = true;
		h->header_size = size;
		pki_source_consume(&r->src, PIPE_HEADER_SZ);
		return 0;
	}
	if (!r->src.seekable)
		return pki_reader_fail(r, -EINVAL, 8,
				       "file-mode perf.data (header size %llu) cannot be read from "
				       "a pipe",
				       (unsigned long long)size);
	p = pki_source_peek(&r->src, FILE_HEADER_MIN, &avail);
	if (!p)
		return pki_reader_fail(r, -EINVAL, avail, "file header is truncated");
	return open_file_mode(r, p);
}

/* Like perf, refuse a file owned by neither us nor root unless forced: a
 * planted file could feed a privileged reader anything. */
static int check_owner(struct pk_reader *r)
{
	struct stat st;

	if (r->opts.force || fstat(r->fd, &st) || !S_ISREG(st.st_mode))
		return 0;
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return pki_reader_fail(r, -EPERM, 0,
				       "file is owned by uid %u, neither you nor root "
				       "(use -f to read it anyway)",
				       (unsigned int)st.st_uid);
	return 0;
}

static int reader_alloc(struct pk_reader **out, const char *name, const struct pk_reader_opts *o)
{
	struct pk_reader *r = calloc(1, sizeof(*r));

	*out = r;
	if (!r)
		return -ENOMEM;
	r->fd = -1;
	r->path = strdup(name ? name : "(fd)");
	if (!r->path)
		return -ENOMEM;
	if (o) {
		size_t n = o->sz < sizeof(r->opts) ? o->sz : sizeof(r->opts);

		memcpy(&r->opts, o, n);
	}
	r->opts.sz = sizeof(r->opts);
	return 0;
}

static int reader_start(struct pk_reader *r)
{
	size_t cap = r->opts.buffer_size ? r->opts.buffer_size : DEFAULT_BUFFER;
	int err;

	if (cap < (1u << 17))
		cap = 1u << 17; /* room for the largest record (64 KiB) twice */
	err = check_owner(r);
	if (err)
		return err;
	err = pki_source_init(&r->src, r->fd, cap);
	if (err)
		return err;
	err = open_stream(r);
	if (err)
		return err;
	if (r->opts.order == PK_ORDER_TIME)
		return pki_order_create(&r->order);
	return 0;
}

int pk_reader_open_fd(struct pk_reader **out, int fd, const char *name,
		      const struct pk_reader_opts *opts)
{
	int err = reader_alloc(out, name, opts);

	if (err)
		return err;
	(*out)->fd = fd;
	return reader_start(*out);
}

int pk_reader_open(struct pk_reader **out, const char *path, const struct pk_reader_opts *opts)
{
	struct pk_reader *r;
	int err;

	if (!path || !strcmp(path, "-"))
		return pk_reader_open_fd(out, STDIN_FILENO, "stdin", opts);
	err = reader_alloc(out, path, opts);
	if (err)
		return err;
	r = *out;
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0)
		return pki_reader_fail(r, -errno, 0, "%s", strerror(errno));
	r->own_fd = true;
	return reader_start(r);
}

void pk_reader_close(struct pk_reader *r)
{
	if (!r)
		return;
	pki_order_destroy(r->order);
	pki_unpack_fini(&r->unpack);
	pki_source_fini(&r->src);
	pki_reader_free_attrs(r);
	pki_header_free(&r->hdr);
	free(r->extra_buf);
	if (r->own_fd)
		close(r->fd);
	free(r->path);
	free(r);
}

int pk_reader_next(struct pk_reader *r, const struct pk_record **rec)
{
	int err;

	if (r->order)
		return pki_order_next(r, r->order, rec);
	err = pki_reader_next_raw(r, &r->rec);
	if (err > 0)
		*rec = &r->rec;
	return err;
}
