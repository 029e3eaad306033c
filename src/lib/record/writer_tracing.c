// SPDX-License-Identifier: MIT
/*
 * TRACING_DATA: what perf needs to decode tracepoint samples, copied from
 * tracefs: the ring-buffer page and event headers, the ftrace formats, and
 * the format file of every tracepoint the attrs use (found by id).  Layout:
 * "\x17\x08\x44tracing" "0.6\0", endianness, sizeof(long), page size, then
 * the sections, each file as u64 size + bytes.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"
#include "writer_internal.h"

#define MAX_FORMAT (1u << 20)

static const char *find_tracefs(void)
{
	static const char *const roots[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};

	for (size_t i = 0; i < PK_ARRAY_SIZE(roots); i++) {
		char p[128];

		snprintf(p, sizeof(p), "%s/events/header_page", roots[i]);
		if (!access(p, R_OK))
			return roots[i];
	}
	return NULL;
}

/* Whole small file into b (as u64 size + bytes when sized). */
static int put_file(struct pki_wbuf *b, const char *path, bool sized)
{
	FILE *f = fopen(path, "re");
	char chunk[4096];
	size_t n, start, total = 0;

	if (!f)
		return -errno;
	if (sized)
		pki_wbuf_u64(b, 0);
	start = b->len;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0 && total <= MAX_FORMAT) {
		pki_wbuf_put(b, chunk, n);
		total += n;
	}
	fclose(f);
	if (total > MAX_FORMAT || b->oom)
		return -EFBIG;
	if (sized) {
		uint64_t sz = b->len - start;

		memcpy(b->p + start - 8, &sz, 8);
	}
	return 0;
}

static bool read_id(const char *path, uint64_t *id)
{
	FILE *f = fopen(path, "re");
	unsigned long long v;
	bool ok;

	if (!f)
		return false;
	ok = fscanf(f, "%llu", &v) == 1;
	fclose(f);
	*id = v;
	return ok;
}

static bool wanted(const struct pk_writer *w, uint64_t id)
{
	for (size_t i = 0; i < w->nr_attrs; i++)
		if (w->attrs[i].attr.type == PERF_TYPE_TRACEPOINT && w->attrs[i].attr.config == id)
			return true;
	return false;
}

/* The format files of one system: all of them (ftrace) or those wanted.
 * Returns how many were added. */
static uint32_t put_system(struct pk_writer *w, struct pki_wbuf *b, const char *dir, bool all)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	uint32_t nr = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char path[1024];
		uint64_t id;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/id", dir, de->d_name);
		if (!read_id(path, &id) || (!all && !wanted(w, id)))
			continue;
		snprintf(path, sizeof(path), "%s/%s/format", dir, de->d_name);
		if (!put_file(b, path, true))
			nr++;
	}
	closedir(d);
	return nr;
}

static void put_events(struct pk_writer *w, struct pki_wbuf *b, const char *root)
{
	char dir[512];
	struct dirent *de;
	size_t count_at = b->len;
	uint32_t nr_sys = 0;
	DIR *d;

	pki_wbuf_u32(b, 0);
	snprintf(dir, sizeof(dir), "%s/events", root);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		char sys[1024];
		size_t mark = b->len, nr_at;
		uint32_t nr;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "ftrace") || de->d_type != DT_DIR)
			continue;
		snprintf(sys, sizeof(sys), "%s/%s", dir, de->d_name);
		pki_wbuf_put(b, de->d_name, strlen(de->d_name) + 1);
		nr_at = b->len;
		pki_wbuf_u32(b, 0);
		nr = put_system(w, b, sys, false);
		if (!nr || b->oom) {
			b->len = mark; /* system without a wanted event */
			continue;
		}
		memcpy(b->p + nr_at, &nr, 4);
		nr_sys++;
	}
	closedir(d);
	if (!b->oom)
		memcpy(b->p + count_at, &nr_sys, 4);
}

int pk_writer_add_tracing_data(struct pk_writer *w, const char *tracefs)
{
	static const char magic[] = "\x17\x08\x44tracing0.6";
	struct pki_wbuf b = {0};
	char path[512];
	size_t at;
	uint32_t nr, page = (uint32_t)sysconf(_SC_PAGESIZE);
	int err;

	if (!tracefs && !(tracefs = find_tracefs()))
		return pki_writer_fail(w, -ENOENT,
				       "tracefs is not mounted: tracepoint "
				       "samples cannot be described");
	pki_wbuf_put(&b, magic, sizeof(magic)); /* with its NUL */
	pki_wbuf_put(&b, "\0", 1);		/* little endian */
	pki_wbuf_put(&b, "\x08", 1);		/* sizeof(long) */
	pki_wbuf_u32(&b, page);
	pki_wbuf_put(&b, "header_page", 12);
	snprintf(path, sizeof(path), "%s/events/header_page", tracefs);
	if ((err = put_file(&b, path, true)))
		goto fail;
	pki_wbuf_put(&b, "header_event", 13);
	snprintf(path, sizeof(path), "%s/events/header_event", tracefs);
	if ((err = put_file(&b, path, true)))
		goto fail;
	at = b.len;
	pki_wbuf_u32(&b, 0);
	snprintf(path, sizeof(path), "%s/events/ftrace", tracefs);
	nr = put_system(w, &b, path, true);
	if (!b.oom)
		memcpy(b.p + at, &nr, 4);
	put_events(w, &b, tracefs);
	pki_wbuf_u32(&b, 0); /* kallsyms: none */
	pki_wbuf_u32(&b, 0); /* printk formats: none */
	pki_wbuf_u64(&b, 0); /* saved cmdlines: none */
	if (b.oom) {
		err = -ENOMEM;
		goto fail;
	}
	err = pk_writer_set_feature(w, PK_FEAT_TRACING_DATA, b.p, b.len);
	pki_wbuf_free(&b);
	return err;
fail:
	pki_wbuf_free(&b);
	return pki_writer_fail(w, err, "%s: %s", path, strerror(-err));
}
