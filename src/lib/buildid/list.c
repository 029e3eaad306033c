// SPDX-License-Identifier: MIT
/*
 * The build ids a recording lists, in its order: the BUILD_ID feature, or
 * in pipe mode the HEADER_BUILD_ID records of the stream.  With hits, only
 * the DSOs a sample's IP landed in, as perf's buildid-list -H (perf 6.1
 * marks the sample IP's DSO only, not callchain entries).
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

static int take_header(struct pk_buildid_list *l, const struct pk_header *h)
{
	int err = 0;

	for (uint32_t i = 0; !err && i < h->nr_build_ids; i++)
		err = push(l, &h->build_ids[i]);
	return err;
}

/* A HEADER_BUILD_ID record of a pipe-mode stream. */
static int take_record(struct pk_buildid_list *l, const struct pk_record *rec)
{
	struct pk_build_id_entry e = {.misc = rec->misc};
	struct pk_record_fields f;

	if (rec->type != PK_RECORD_HEADER_BUILD_ID || pk_record_decode(rec, &f, NULL))
		return 0;
	e.pid = f.build_id.pid;
	e.build_id_size = f.build_id.build_id.size;
	memcpy(e.build_id, f.build_id.build_id.data, sizeof(e.build_id));
	e.filename = (char *)f.build_id.filename;
	return push(l, &e);
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

static int read_plain(struct pk_buildid_list *l, const char *path, bool force)
{
	struct pk_reader_opts ro = {.sz = sizeof(ro), .force = force};
	const struct pk_record *rec;
	struct pk_reader *r;
	int err = pk_reader_open(&r, path, &ro);

	if (!err && !pk_reader_header(r)->pipe)
		err = take_header(l, pk_reader_header(r));
	else if (!err)
		while ((err = pk_reader_next(r, &rec)) > 0 && !(err = take_record(l, rec)))
			;
	if (err < 0)
		snprintf(l->err, sizeof(l->err), "%s", r ? pk_reader_error(r) : strerror(-err));
	pk_reader_close(r);
	return err < 0 ? err : 0;
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
	return hits ? read_hits(l, path, force) : read_plain(l, path, force);
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
