// SPDX-License-Identifier: MIT
/*
 * The build ids a recording lists, as perf buildid-list sees them.  Its
 * list of DSOs holds the BUILD_ID feature's entries first, then, when it
 * reads the records, every DSO in the order a mapping first named it; a
 * HEADER_BUILD_ID record (pipe mode) gives an id to the DSO of its name.
 * With hits, only the DSOs a sample's IP landed in are kept (perf 6.1 marks
 * the sample IP's DSO only, not callchain entries), those without a build
 * id too, with an empty one.  Hits are implied in pipe mode and for a file
 * without BUILD_ID, as perf does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "buildid_internal.h"
#include <perfkit/reader.h>
#include <perfkit/session.h>

struct pk_buildid_list {
	struct pk_build_id_entry *v;
	bool *hit;
	size_t n, cap;
	char err[1024];
};

static int push(struct pk_buildid_list *l, const struct pk_build_id_entry *e)
{
	struct pk_build_id_entry *slot;

	if (l->n == l->cap) {
		size_t ncap = l->cap ? l->cap * 2 : 16;
		struct pk_build_id_entry *nv = realloc(l->v, ncap * sizeof(*nv));
		bool *nh;

		if (!nv)
			return -ENOMEM;
		l->v = nv;
		nh = realloc(l->hit, ncap * sizeof(*nh));
		if (!nh)
			return -ENOMEM;
		l->hit = nh;
		l->cap = ncap;
	}
	slot = &l->v[l->n];
	*slot = *e;
	slot->filename = strdup(e->filename ? e->filename : "");
	if (!slot->filename)
		return -ENOMEM;
	l->hit[l->n++] = false;
	return 0;
}

static long find(const struct pk_buildid_list *l, const char *name)
{
	for (size_t i = l->n; i-- > 0;)
		if (!strcmp(l->v[i].filename, name))
			return (long)i;
	return -1;
}

/* A DSO named by a mapping: known, or added without a build id. */
static int named(struct pk_buildid_list *l, const char *name, uint16_t misc)
{
	struct pk_build_id_entry e = {.misc = misc, .pid = -1, .filename = (char *)name};

	return find(l, name) >= 0 ? 0 : push(l, &e);
}

static int take_header(struct pk_buildid_list *l, const struct pk_header *h)
{
	int err = 0;

	for (uint32_t i = 0; !err && i < h->nr_build_ids; i++)
		err = push(l, &h->build_ids[i]);
	return err;
}

/* HEADER_BUILD_ID records give their DSO an id; MMAP records name DSOs. */
static int take_record(struct pk_buildid_list *l, const struct pk_record *rec)
{
	struct pk_build_id_entry e = {.misc = rec->misc};
	struct pk_record_fields f;
	bool kernel = (rec->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
	long i;

	if (rec->type == PK_RECORD_MMAP || rec->type == PK_RECORD_MMAP2) {
		if (pk_record_decode(rec, &f, NULL) || !f.mmap.filename)
			return 0;
		if (!kernel)
			return named(l, f.mmap.filename, PERF_RECORD_MISC_USER);
		if (!strncmp(f.mmap.filename, PK_BUILDID_KALLSYMS, 17))
			return named(l, PK_BUILDID_KALLSYMS, PERF_RECORD_MISC_KERNEL);
		return 0; /* modules: not followed */
	}
	if (rec->type != PK_RECORD_HEADER_BUILD_ID || pk_record_decode(rec, &f, NULL))
		return 0;
	e.pid = f.build_id.pid;
	e.build_id_size = f.build_id.build_id.size;
	memcpy(e.build_id, f.build_id.build_id.data, sizeof(e.build_id));
	e.filename = (char *)f.build_id.filename;
	i = find(l, e.filename);
	if (i < 0)
		return push(l, &e);
	l->v[i].build_id_size = e.build_id_size;
	memcpy(l->v[i].build_id, e.build_id, sizeof(e.build_id));
	return 0;
}

static void mark_hit(struct pk_buildid_list *l, const struct pk_dso *d)
{
	const char *name = pk_dso_name(d);
	bool kernel = pk_dso_is_kernel(d) && !strncmp(name, PK_BUILDID_KALLSYMS, 17);

	for (size_t i = 0; i < l->n; i++) {
		if (l->hit[i])
			continue;
		if (!strcmp(l->v[i].filename, name) ||
		    (kernel && !strcmp(l->v[i].filename, PK_BUILDID_KALLSYMS)))
			l->hit[i] = true;
	}
}

/* File mode: the BUILD_ID feature, without reading the records. */
static int read_plain(struct pk_buildid_list *l, const char *path, bool force, bool *need_hits)
{
	struct pk_reader_opts ro = {.sz = sizeof(ro), .force = force};
	const struct pk_header *h;
	struct pk_reader *r;
	int err = pk_reader_open(&r, path, &ro);

	if (err) {
		snprintf(l->err, sizeof(l->err), "%s", r ? pk_reader_error(r) : strerror(-err));
		pk_reader_close(r);
		return err;
	}
	h = pk_reader_header(r);
	*need_hits =
		h->pipe || !(h->features[PK_FEAT_BUILD_ID / 64] >> (PK_FEAT_BUILD_ID % 64) & 1);
	if (!*need_hits)
		err = take_header(l, h);
	pk_reader_close(r);
	return err;
}

static int read_hits(struct pk_buildid_list *l, const char *path, bool force)
{
	struct pk_session_opts so = {.sz = sizeof(so), .force = force};
	struct pk_session_sample ev;
	const struct pk_record *other;
	struct pk_session *s;
	int err = pk_session_open(&s, path, &so);

	if (!err && !pk_reader_header(pk_session_reader(s))->pipe)
		err = take_header(l, pk_reader_header(pk_session_reader(s)));
	while (!err && (err = pk_session_next_any(s, &ev, &other)) > 0) {
		if (other)
			err = take_record(l, other);
		else if (ev.loc.dso)
			mark_hit(l, ev.loc.dso);
		err = err > 0 ? 0 : err;
	}
	if (err < 0)
		snprintf(l->err, sizeof(l->err), "%s", s ? pk_session_error(s) : strerror(-err));
	pk_session_close(s);
	if (err >= 0) { /* keep the entries hit, in order */
		size_t n = 0;

		for (size_t i = 0; i < l->n; i++) {
			if (l->hit[i])
				l->v[n++] = l->v[i];
			else
				free(l->v[i].filename);
		}
		l->n = n;
	}
	return err < 0 ? err : 0;
}

int pk_buildid_list_open(struct pk_buildid_list **out, const char *path,
			 const struct pk_buildid_list_opts *opts)
{
	struct pk_buildid_list *l = calloc(1, sizeof(*l));
	bool force = false, hits = false;

	*out = l;
	if (!l)
		return -ENOMEM;
	if (opts && opts->sz > offsetof(struct pk_buildid_list_opts, force))
		force = opts->force;
	if (opts && opts->sz > offsetof(struct pk_buildid_list_opts, with_hits))
		hits = opts->with_hits;
	/* standard input cannot be read twice: read the records at once */
	if (!hits && strcmp(path, "-")) {
		int err = read_plain(l, path, force, &hits);

		if (err || !hits)
			return err;
	}
	return read_hits(l, path, force);
}

size_t pk_buildid_list_count(const struct pk_buildid_list *l)
{
	return l->n;
}

const struct pk_build_id_entry *pk_buildid_list_entry(const struct pk_buildid_list *l, size_t i)
{
	return i < l->n ? &l->v[i] : NULL;
}

const char *pk_buildid_list_error(const struct pk_buildid_list *l)
{
	return l ? l->err : "out of memory";
}

void pk_buildid_list_close(struct pk_buildid_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].filename);
	free(l->v);
	free(l->hit);
	free(l);
}
