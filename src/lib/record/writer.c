// SPDX-License-Identifier: MIT
/*
 * perf.data writer: file mode (header, ids, attrs, data, then the feature
 * sections; the header is rewritten at finish) and pipe mode (a short
 * header, then HEADER_ATTR and HEADER_FEATURE records ahead of the data).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"
#include "writer_internal.h"

#define PERF_MAGIC2	 0x32454c4946524550ULL /* "PERFILE2" */
#define FILE_HEADER_SIZE 104
#define ATTR_SIZE	 sizeof(struct perf_event_attr)

int pki_writer_fail(struct pk_writer *w, int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(w->err, sizeof(w->err), "%s: ", w->path ? w->path : "output");
	if (n < 0 || (size_t)n >= sizeof(w->err))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(w->err + n, sizeof(w->err) - n, fmt, ap);
	va_end(ap);
	return err;
}

const char *pk_writer_error(const struct pk_writer *w)
{
	return w && w->err[0] ? w->err : "no error";
}

static struct pk_writer *writer_new(const char *name, const struct pk_writer_opts *opts)
{
	struct pk_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->fd = -1;
	w->time_pos = -1;
	w->path = strdup(name ? name : "output");
	w->buf_cap = 256 * 1024;
	if (opts && opts->sz >= offsetof(struct pk_writer_opts, buffer_size) + sizeof(size_t)) {
		w->pipe = opts->pipe;
		w->keep_old = opts->keep_old;
		w->compress_level = opts->compress_level;
		w->mmap_len = opts->mmap_len;
		if (opts->buffer_size >= 65536 && opts->buffer_size <= (64u << 20))
			w->buf_cap = opts->buffer_size;
	}
	w->buf = malloc(w->buf_cap);
	if (!w->path || !w->buf) {
		free(w->path);
		free(w->buf);
		free(w);
		return NULL;
	}
	return w;
}

static int check_opts(struct pk_writer *w)
{
	if (w->compress_level < 0 || w->compress_level > 22)
		return pki_writer_fail(w, -EINVAL, "compression level %d is not in 1..22",
				       w->compress_level);
	return 0;
}

/* Move an existing non-empty regular file aside, as perf does. */
static int keep_old_file(struct pk_writer *w)
{
	struct stat st;
	char *old;
	int err = 0;

	if (lstat(w->path, &st) || !S_ISREG(st.st_mode) || st.st_size == 0)
		return 0;
	if (asprintf(&old, "%s.old", w->path) < 0)
		return -ENOMEM;
	if (rename(w->path, old))
		err = pki_writer_fail(w, -errno, "cannot rename the old file to %s: %s", old,
				      strerror(errno));
	else
		w->moved_old = true;
	free(old);
	return err;
}

/* A temporary file in the target's directory: O_EXCL, so a symlink planted
 * under the name is never followed. */
static int open_temp(struct pk_writer *w)
{
	char *copy = strdup(w->path), *dir, *base;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	dir = dirname(copy);
	base = strrchr(w->path, '/');
	base = base ? base + 1 : w->path;
	if (asprintf(&w->tmp_path, "%s/.%s.perfkit-XXXXXX", dir, base) < 0) {
		w->tmp_path = NULL;
		free(copy);
		return -ENOMEM;
	}
	free(copy);
	w->fd = mkostemp(w->tmp_path, O_CLOEXEC);
	if (w->fd < 0) {
		err = pki_writer_fail(w, -errno, "cannot create the file: %s", strerror(errno));
		free(w->tmp_path);
		w->tmp_path = NULL;
		return err;
	}
	w->own_fd = true;
	return 0;
}

static int check_directory(struct pk_writer *w)
{
	char *copy = strdup(w->path);
	int err = 0;

	if (!copy)
		return -ENOMEM;
	if (access(dirname(copy), W_OK | X_OK))
		err = pki_writer_fail(w, -errno, "cannot create the file: %s", strerror(errno));
	free(copy);
	return err;
}

int pk_writer_open(struct pk_writer **out, const char *path, const struct pk_writer_opts *opts)
{
	struct pk_writer *w;
	int err;

	*out = NULL;
	if (!path)
		path = "perf.data";
	w = writer_new(path, opts);
	if (!w)
		return -ENOMEM;
	*out = w;
	err = check_opts(w);
	if (err)
		return err;
	if (!strcmp(path, "-")) {
		w->pipe = true;
		w->fd = STDOUT_FILENO;
		return 0;
	}
	if (w->pipe)
		return pki_writer_fail(w, -EINVAL, "pipe mode needs \"-\" or a descriptor");
	/* the file is created at pk_writer_start(), just before its header
	 * is written, so that a kill leaves as little behind as possible;
	 * an unwritable directory is still reported here */
	w->create_at_start = true;
	return check_directory(w);
}

int pk_writer_open_fd(struct pk_writer **out, int fd, const char *name,
		      const struct pk_writer_opts *opts)
{
	struct pk_writer *w;

	*out = NULL;
	w = writer_new(name, opts);
	if (!w)
		return -ENOMEM;
	*out = w;
	w->fd = fd;
	if (lseek(fd, 0, SEEK_CUR) < 0)
		w->pipe = true;
	return check_opts(w);
}

/* Closed without pk_writer_finish(): the caller gave up on the recording,
 * so take it away and put back the file it displaced. */
static void abandon_in_place(struct pk_writer *w)
{
	char *old;

	unlink(w->path);
	if (!w->keep_old || asprintf(&old, "%s.old", w->path) < 0)
		return;
	if (w->moved_old)
		rename(old, w->path);
	free(old);
}

void pk_writer_close(struct pk_writer *w)
{
	if (!w)
		return;
	if (w->own_fd && w->fd >= 0)
		close(w->fd);
	if (w->tmp_path && !w->finished)
		unlink(w->tmp_path);
	else if (w->in_place && !w->finished)
		abandon_in_place(w);
	for (size_t i = 0; i < w->nr_attrs; i++) {
		free(w->attrs[i].name);
		free(w->attrs[i].ids);
	}
	free(w->attrs);
	for (size_t i = 0; i < w->nr_groups; i++)
		free(w->groups[i].name);
	free(w->groups);
	for (size_t i = 0; i < PK_FEAT_KNOWN_MAX; i++)
		pki_wbuf_free(&w->feat[i]);
	pki_wbuf_free(&w->build_ids);
	pki_writer_compress_free(w);
	free(w->buf);
	free(w->tmp_path);
	free(w->path);
	free(w);
}

const char *pk_writer_path(const struct pk_writer *w)
{
	return w->path;
}

void pk_writer_get_stats(const struct pk_writer *w, struct pk_writer_stats *st)
{
	*st = w->st;
	st->bytes = w->pos + w->buf_len;
	st->write_failed = w->failed;
}

/* ---- output ---------------------------------------------------------- */

static int write_all(struct pk_writer *w, const void *data, size_t n)
{
	const uint8_t *p = data;

	while (n) {
		ssize_t k = write(w->fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			int e = k < 0 ? errno : EIO;

			w->failed = true;
			w->fail_err = -e;
			return pki_writer_fail(w, -e, "write failed: %s", strerror(e));
		}
		p += k;
		n -= (size_t)k;
		w->pos += (uint64_t)k;
	}
	return 0;
}

int pk_writer_flush(struct pk_writer *w)
{
	int err;

	if (w->failed)
		return w->fail_err;
	if (!w->buf_len)
		return 0;
	err = write_all(w, w->buf, w->buf_len);
	w->buf_len = 0;
	if (!err) {
		w->committed = w->pos;
		w->st.nr_samples += w->pending_samples;
	}
	w->pending_samples = 0;
	return err;
}

/* The buffer only ever holds whole records, so that after a failed
 * write the file can be cut back to a record boundary. */
int pki_writer_emit(struct pk_writer *w, const void *data, size_t n)
{
	int err;

	if (w->failed)
		return w->fail_err;
	if (n > w->buf_cap - w->buf_len) {
		err = pk_writer_flush(w);
		if (err)
			return err;
		if (n > w->buf_cap) {
			err = write_all(w, data, n);
			if (!err) {
				w->committed = w->pos;
				w->st.nr_samples += w->pending_samples;
			}
			w->pending_samples = 0;
			return err;
		}
	}
	memcpy(w->buf + w->buf_len, data, n);
	w->buf_len += n;
	return 0;
}

/* Where TIME sits in a sample, when every attr puts it at the same place. */
static void find_time_pos(struct pk_writer *w)
{
	const uint64_t lead =
		PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	uint64_t st;

	if (!w->nr_attrs)
		return;
	st = w->attrs[0].attr.sample_type;
	for (size_t i = 1; i < w->nr_attrs; i++)
		if ((w->attrs[i].attr.sample_type & lead) != (st & lead))
			return;
	if (!(st & PERF_SAMPLE_TIME))
		return;
	w->time_pos = 8 + 8 * (!!(st & PERF_SAMPLE_IDENTIFIER) + !!(st & PERF_SAMPLE_IP) +
			       !!(st & PERF_SAMPLE_TID));
}

static void put_file_header(struct pk_writer *w, struct pki_wbuf *b, uint64_t data_size,
			    const uint64_t features[4])
{
	uint64_t attrs_off = FILE_HEADER_SIZE;
	uint64_t nr_ids = 0;

	for (size_t i = 0; i < w->nr_attrs; i++)
		nr_ids += w->attrs[i].nr_ids;
	attrs_off += nr_ids * 8;
	pki_wbuf_u64(b, PERF_MAGIC2);
	pki_wbuf_u64(b, FILE_HEADER_SIZE);
	pki_wbuf_u64(b, ATTR_SIZE + 16);
	pki_wbuf_u64(b, attrs_off);
	pki_wbuf_u64(b, w->nr_attrs * (ATTR_SIZE + 16));
	pki_wbuf_u64(b, w->data_offset);
	pki_wbuf_u64(b, data_size);
	pki_wbuf_u64(b, 0);
	pki_wbuf_u64(b, 0);
	pki_wbuf_put(b, features, 32);
}

/*
 * The file is built under a temporary name and takes its real name as soon
 * as the header and attrs are on disk, before any event is enabled: from
 * then on a SIGKILL leaves NAME readable up to its last complete record,
 * and NAME never holds a file without a header.
 */
static int rename_into_place(struct pk_writer *w)
{
	int err;

	if (!w->tmp_path)
		return 0;
	if (fchmod(w->fd, 0600))
		pki_debug("%s: fchmod: %s", w->tmp_path, strerror(errno));
	if (w->keep_old && (err = keep_old_file(w)))
		return err;
	if (rename(w->tmp_path, w->path))
		return pki_writer_fail(w, -errno, "cannot rename %s to %s: %s", w->tmp_path,
				       w->path, strerror(errno));
	free(w->tmp_path);
	w->tmp_path = NULL;
	w->in_place = true;
	return 0;
}

static int start_file(struct pk_writer *w)
{
	struct pki_wbuf b = {0};
	uint64_t features[4] = {0};
	uint64_t id_off = FILE_HEADER_SIZE;
	int err;

	w->data_offset = FILE_HEADER_SIZE + w->nr_attrs * (ATTR_SIZE + 16);
	for (size_t i = 0; i < w->nr_attrs; i++)
		w->data_offset += w->attrs[i].nr_ids * 8;
	put_file_header(w, &b, 0, features);
	for (size_t i = 0; i < w->nr_attrs; i++)
		pki_wbuf_put(&b, w->attrs[i].ids, w->attrs[i].nr_ids * 8);
	for (size_t i = 0; i < w->nr_attrs; i++) {
		pki_wbuf_put(&b, &w->attrs[i].attr, ATTR_SIZE);
		pki_wbuf_u64(&b, id_off);
		pki_wbuf_u64(&b, w->attrs[i].nr_ids * 8);
		id_off += w->attrs[i].nr_ids * 8;
	}
	err = b.oom ? -ENOMEM : write_all(w, b.p, b.len);
	pki_wbuf_free(&b);
	w->committed = w->pos;
	return err ? err : rename_into_place(w);
}

/* Features that pipe mode cannot or need not carry as records. */
static bool pipe_skips(unsigned int feat)
{
	return feat == PK_FEAT_TRACING_DATA || feat == PK_FEAT_BUILD_ID ||
	       feat == PK_FEAT_SAMPLE_TIME;
}

static int emit_feature_record(struct pk_writer *w, unsigned int feat)
{
	struct pki_wbuf b = {0};
	struct perf_event_header h = {.type = PK_RECORD_HEADER_FEATURE};
	size_t len = (w->feat[feat].len + 7) & ~(size_t)7;
	int err;

	if (16 + len > PKI_WRITER_REC_MAX) {
		pki_debug("pipe mode: feature %s too large for a record, left out",
			  pk_feature_name(feat));
		return 0;
	}
	h.size = (uint16_t)(16 + len);
	pki_wbuf_put(&b, &h, sizeof(h));
	pki_wbuf_u64(&b, feat);
	pki_wbuf_put(&b, w->feat[feat].p, w->feat[feat].len);
	pki_wbuf_align(&b, 8);
	err = b.oom ? -ENOMEM : pki_writer_emit(w, b.p, b.len);
	pki_wbuf_free(&b);
	return err;
}

/* HEADER_TRACING_DATA: a 12-byte record, then the blob padded to 8 bytes,
 * not counted in the record size. */
static int emit_tracing_record(struct pk_writer *w)
{
	struct pki_wbuf *t = &w->feat[PK_FEAT_TRACING_DATA];
	uint8_t rec[12];
	struct perf_event_header h = {.type = PK_RECORD_HEADER_TRACING_DATA, .size = 12};
	uint32_t size = (uint32_t)t->len;
	static const uint8_t zeros[8];
	int err;

	memcpy(rec, &h, 8);
	memcpy(rec + 8, &size, 4);
	err = pki_writer_emit(w, rec, sizeof(rec));
	if (!err)
		err = pk_writer_flush(w);
	if (!err)
		err = write_all(w, t->p, t->len);
	if (!err && t->len % 8)
		err = write_all(w, zeros, 8 - t->len % 8);
	return err;
}

/*
 * EVENT_UPDATE (NAME) for an attr: the only place a pipe carries an
 * event's name (EVENT_DESC is a file-mode section), so readers need not
 * make one up from the attr.  u64 type, u64 id, the name padded to 8.
 */
static int emit_name_update(struct pk_writer *w, const struct wattr *a)
{
	struct pki_wbuf b = {0};
	struct perf_event_header h = {.type = PK_RECORD_EVENT_UPDATE};
	size_t n;
	int err;

	if (!a->name || !a->name[0] || !a->nr_ids)
		return 0;
	n = (strlen(a->name) + 1 + 7) & ~(size_t)7;
	if (24 + n > PKI_WRITER_REC_MAX)
		return 0; /* absurd name: the reader names the attr itself */
	h.size = (uint16_t)(24 + n);
	pki_wbuf_put(&b, &h, sizeof(h));
	pki_wbuf_u64(&b, PK_EVENT_UPDATE_NAME);
	pki_wbuf_u64(&b, a->ids[0]);
	pki_wbuf_put(&b, a->name, strlen(a->name));
	pki_wbuf_zero(&b, n - strlen(a->name)); /* terminator and padding */
	err = b.oom ? -ENOMEM : pki_writer_emit(w, b.p, b.len);
	pki_wbuf_free(&b);
	return err;
}

static int start_pipe(struct pk_writer *w)
{
	uint64_t hdr[2] = {PERF_MAGIC2, 16};
	int err = pki_writer_emit(w, hdr, sizeof(hdr));

	for (size_t i = 0; !err && i < w->nr_attrs; i++) {
		struct wattr *a = &w->attrs[i];
		struct perf_event_header h = {.type = PK_RECORD_HEADER_ATTR};
		size_t sz = 8 + ATTR_SIZE + a->nr_ids * 8;

		if (sz > PKI_WRITER_REC_MAX)
			return pki_writer_fail(
				w, -E2BIG, "pipe mode: %zu ids of one event do not fit a record",
				a->nr_ids);
		h.size = (uint16_t)sz;
		err = pki_writer_emit(w, &h, sizeof(h));
		if (!err)
			err = pki_writer_emit(w, &a->attr, ATTR_SIZE);
		if (!err && a->nr_ids)
			err = pki_writer_emit(w, a->ids, a->nr_ids * 8);
	}
	for (size_t i = 0; !err && i < w->nr_attrs; i++)
		err = emit_name_update(w, &w->attrs[i]);
	if (!err && w->feat_set[PK_FEAT_TRACING_DATA])
		err = emit_tracing_record(w);
	pki_writer_build_derived(w);
	for (unsigned int f = 1; !err && f < PK_FEAT_KNOWN_MAX; f++)
		if (w->feat_set[f] && !pipe_skips(f))
			err = emit_feature_record(w, f);
	if (!err)
		err = pk_writer_flush(w);
	return err;
}

int pk_writer_start(struct pk_writer *w)
{
	int err;

	if (w->started)
		return 0;
	if (w->fd < 0 && w->create_at_start && (err = open_temp(w)))
		return err;
	if (w->fd < 0)
		return pki_writer_fail(w, -EBADF, "not open");
	w->started = true;
	find_time_pos(w);
	err = w->pipe ? start_pipe(w) : start_file(w);
	if (!err)
		w->st.bytes = w->pos;
	return err;
}

static void track_sample(struct pk_writer *w, const uint8_t *rec, size_t size)
{
	uint64_t t;

	w->pending_samples++;
	if (w->time_pos < 0 || (size_t)w->time_pos + 8 > size)
		return;
	memcpy(&t, rec + w->time_pos, 8);
	if (!w->st.first_sample_time || t < w->st.first_sample_time)
		w->st.first_sample_time = t;
	if (t > w->st.last_sample_time)
		w->st.last_sample_time = t;
}

int pk_writer_write(struct pk_writer *w, const void *rec, size_t size)
{
	const struct perf_event_header *h = rec;
	int err;

	if (!w->started)
		return pki_writer_fail(w, -EINVAL, "pk_writer_start() was not called");
	if (w->failed)
		return w->fail_err;
	if (size < sizeof(*h) || size > PKI_WRITER_REC_MAX || h->size != size || size % 8)
		return pki_writer_fail(w, -EINVAL, "record of type %u has a bad size %zu",
				       size >= sizeof(*h) ? h->type : 0, size);
	if (h->type == PERF_RECORD_SAMPLE)
		track_sample(w, rec, size);
	w->st.nr_records++;
	w->st.raw_bytes += size;
	if (w->cctx || w->compress_level > 0)
		err = pki_writer_compress_add(w, rec, size);
	else
		err = pki_writer_emit(w, rec, size);
	if (!err && !(w->cctx || w->compress_level > 0))
		w->st.data_bytes += size;
	return err;
}

int pk_writer_write_auxtrace(struct pk_writer *w, const struct pk_auxtrace_desc *d,
			     const void *data, size_t len)
{
	struct {
		struct perf_event_header h;
		uint64_t size, offset, reference;
		uint32_t idx, tid, cpu, reserved;
	} rec = {
		.h = {.type = PK_RECORD_AUXTRACE, .size = sizeof(rec)},
		.offset = d->offset,
		.reference = d->reference,
		.idx = d->idx,
		.tid = d->tid,
		.cpu = d->cpu,
	};
	static const uint8_t zeros[8];
	size_t padded = (len + 7) & ~(size_t)7;
	int err;

	if (!w->started)
		return pki_writer_fail(w, -EINVAL, "pk_writer_start() was not called");
	if (w->failed)
		return w->fail_err;
	if (len > (1ULL << 32) || (len && !data))
		return pki_writer_fail(w, -EINVAL, "AUX data of %zu bytes", len);
	rec.size = padded;
	err = pki_writer_compress_flush(w);
	if (!err)
		err = pki_writer_emit(w, &rec, sizeof(rec));
	if (!err && len)
		err = pki_writer_emit(w, data, len);
	if (!err && padded > len)
		err = pki_writer_emit(w, zeros, padded - len);
	if (!err) {
		w->st.nr_records++;
		w->st.raw_bytes += sizeof(rec) + padded;
		w->st.data_bytes += sizeof(rec) + padded;
	}
	return err;
}

int pk_writer_finish_round(struct pk_writer *w)
{
	struct perf_event_header h = {.type = PK_RECORD_FINISHED_ROUND, .size = 8};
	int err = pki_writer_compress_flush(w);

	if (err)
		return err;
	w->st.nr_records++;
	w->st.data_bytes += 8;
	err = pki_writer_emit(w, &h, sizeof(h));
	/* a reader at the other end of a pipe gets each round as it ends */
	if (!err && w->pipe)
		err = pk_writer_flush(w);
	return err;
}

/* ---- finish ---------------------------------------------------------- */

static int pwrite_all(struct pk_writer *w, const void *data, size_t n, uint64_t off)
{
	const uint8_t *p = data;

	while (n) {
		ssize_t k = pwrite(w->fd, p, n, (off_t)off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -(k < 0 ? errno : EIO);
		p += k;
		n -= (size_t)k;
		off += (uint64_t)k;
	}
	return 0;
}

/* The feature table then the sections, at off; sets the bits of the
 * features written. */
static int write_features(struct pk_writer *w, uint64_t off, uint64_t features[4])
{
	struct pki_wbuf table = {0}, body = {0};
	unsigned int nr = 0;
	uint64_t sec_off;
	int err;

	for (unsigned int f = 1; f < PK_FEAT_KNOWN_MAX; f++)
		nr += w->feat_set[f];
	sec_off = off + nr * 16ULL;
	for (unsigned int f = 1; f < PK_FEAT_KNOWN_MAX; f++) {
		if (!w->feat_set[f])
			continue;
		pki_wbuf_u64(&table, sec_off + body.len);
		pki_wbuf_u64(&table, w->feat[f].len);
		pki_wbuf_put(&body, w->feat[f].p, w->feat[f].len);
		features[f / 64] |= 1ULL << (f % 64);
	}
	err = table.oom || body.oom ? -ENOMEM : 0;
	if (!err && table.len)
		err = pwrite_all(w, table.p, table.len, off);
	if (!err && body.len)
		err = pwrite_all(w, body.p, body.len, sec_off);
	pki_wbuf_free(&table);
	pki_wbuf_free(&body);
	return err;
}

static int finish_file(struct pk_writer *w)
{
	uint64_t features[4] = {0};
	uint64_t data_size = w->committed > w->data_offset ? w->committed - w->data_offset : 0;
	struct pki_wbuf hdr = {0};
	int err = 0, ferr;

	if (w->failed && ftruncate(w->fd, (off_t)w->committed) == 0)
		w->pos = w->committed;
	pki_writer_build_derived(w);
	ferr = write_features(w, w->committed, features);
	if (ferr) {
		/* keep the records: a file without features is still valid */
		memset(features, 0, sizeof(features));
		if (ftruncate(w->fd, (off_t)w->committed) == 0)
			w->pos = w->committed;
		if (!w->failed)
			err = pki_writer_fail(w, ferr, "cannot write the feature sections: %s",
					      strerror(-ferr));
	}
	put_file_header(w, &hdr, data_size, features);
	if (hdr.oom)
		err = -ENOMEM;
	else if ((ferr = pwrite_all(w, hdr.p, FILE_HEADER_SIZE, 0)))
		err = pki_writer_fail(w, ferr, "cannot rewrite the header: %s", strerror(-ferr));
	pki_wbuf_free(&hdr);
	{
		struct stat st;

		if (!fstat(w->fd, &st))
			w->pos = (uint64_t)st.st_size;
	}
	return err;
}

static int finish_pipe(struct pk_writer *w)
{
	int err = 0;

	/* build ids found during the run go as HEADER_BUILD_ID records */
	if (w->build_ids.len)
		err = pki_writer_emit(w, w->build_ids.p, w->build_ids.len);
	if (!err)
		err = pk_writer_flush(w);
	return err;
}

int pk_writer_finish(struct pk_writer *w)
{
	int err, werr;

	if (w->finished)
		return w->failed ? w->fail_err : 0;
	if (!w->started && (err = pk_writer_start(w)))
		return err;
	werr = pki_writer_compress_flush(w);
	if (!werr)
		werr = pk_writer_flush(w);
	w->finished = true;
	if (w->pipe)
		return werr ? werr : finish_pipe(w);
	err = finish_file(w);
	return werr ? werr : err;
}
