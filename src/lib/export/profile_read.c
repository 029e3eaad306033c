// SPDX-License-Identifier: MIT
/*
 * Feed a profile from a perf.data: the session delivers samples in time
 * order with their thread, and resolves their callchains to DSO and
 * symbol; this file only turns those into pk_profile_sample, adds the
 * header's facts, and cuts sched_switch tracepoints into run slices.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perfkit/report.h>
#include <perfkit/session.h>
#include "export_internal.h"

#define MAX_FRAMES 1024
#define MAX_CPUS   4096

struct feed {
	struct pk_profile *p;
	struct pk_session *s;
	const struct pk_profile_read_opts *opts;
	uint32_t *event_of; /* attr index -> profile event, PKI_NONE */
	uint32_t nr_attrs;
	struct pk_frame *frames;
	struct pk_profile_frame *pframes;
	struct run {
		int32_t tid; /* -1: nothing known running */
		uint64_t since;
	} * running; /* per CPU, for sched_switch slices */
};

static void frame_from_location(struct pk_profile_frame *f, const struct pk_location *l,
				bool symbols)
{
	memset(f, 0, sizeof(*f));
	f->function = symbols && l->sym ? l->sym->name : NULL;
	f->dso = l->dso ? pk_dso_name(l->dso) : NULL;
	f->addr = l->addr;
	f->ip = l->ip;
	f->kernel = l->cpumode == PERF_RECORD_MISC_KERNEL ||
		    l->cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
}

static int event_index(struct feed *fd, const struct pk_attr *attr, uint32_t *out)
{
	/* pipe-mode files announce attrs as they go: grow with them */
	if (attr->index >= fd->nr_attrs) {
		uint32_t n = attr->index + 1, *e;

		if (n > 1u << 20)
			return -EINVAL;
		e = realloc(fd->event_of, n * sizeof(*e));
		if (!e)
			return -ENOMEM;
		memset(e + fd->nr_attrs, 0xff, (n - fd->nr_attrs) * sizeof(*e));
		fd->event_of = e;
		fd->nr_attrs = n;
	}
	if (fd->event_of[attr->index] == PKI_NONE) {
		if (fd->opts->event && strcmp(fd->opts->event, attr->name)) {
			*out = PKI_NONE;
			return 0;
		}
		if (pk_profile_add_event(fd->p, attr->name, &fd->event_of[attr->index]))
			return -ENOMEM;
	}
	*out = fd->event_of[attr->index];
	return 0;
}

/* "prev_pid=12 ... next_pid=34": the field's value, or -1. */
static int32_t field_pid(const char *text, const char *key)
{
	const char *at = strstr(text, key);

	return at ? (int32_t)strtol(at + strlen(key), NULL, 10) : -1;
}

static int sched_switch(struct feed *fd, const struct pk_session_sample *ev)
{
	char text[512];
	struct run *r;
	int32_t next;

	if (!(ev->sample.type & PERF_SAMPLE_CPU) || !(ev->sample.type & PERF_SAMPLE_TIME) ||
	    ev->sample.cpu >= MAX_CPUS ||
	    pk_session_trace_format(fd->s, ev, text, sizeof(text)) < 0)
		return 0;
	if (!fd->running) {
		fd->running = malloc(MAX_CPUS * sizeof(*fd->running));
		if (!fd->running)
			return -ENOMEM;
		for (int i = 0; i < MAX_CPUS; i++)
			fd->running[i].tid = -1;
	}
	r = &fd->running[ev->sample.cpu];
	if (r->tid > 0 && ev->sample.time >= r->since &&
	    pk_profile_add_slice(fd->p, r->tid, r->tid, ev->sample.cpu, r->since, ev->sample.time))
		return -ENOMEM;
	next = field_pid(text, "next_pid=");
	r->tid = next;
	r->since = ev->sample.time;
	return 0;
}

static int add_one(struct feed *fd, const struct pk_session_sample *ev)
{
	struct pk_profile_sample ps = {0};
	bool symbols = !fd->opts->no_symbols;
	size_t n;
	uint32_t event;
	int err = event_index(fd, ev->attr, &event);

	if (err)
		return err;
	if (event == PKI_NONE)
		return 0;
	if (ev->attr->name && !strcmp(ev->attr->name, "sched:sched_switch") && sched_switch(fd, ev))
		return -ENOMEM;
	n = pk_session_callchain(fd->s, ev, fd->frames, MAX_FRAMES);
	for (size_t i = 0; i < n; i++)
		frame_from_location(&fd->pframes[i], &fd->frames[i].loc, symbols);
	if (n == 0 && !(ev->sample.type & PERF_SAMPLE_CALLCHAIN)) {
		/* no callchain recorded: the sampled address is the stack */
		frame_from_location(&fd->pframes[0], &ev->loc, symbols);
		n = 1;
	}
	ps.frames = fd->pframes;
	ps.nr_frames = n;
	ps.pid = ev->thread ? pk_thread_pid(ev->thread) : -1;
	ps.tid = ev->thread ? pk_thread_tid(ev->thread) : -1;
	ps.comm = ev->thread ? pk_thread_comm(ev->thread) : NULL;
	ps.cpu = ev->sample.type & PERF_SAMPLE_CPU ? ev->sample.cpu : UINT32_MAX;
	ps.time = ev->sample.type & PERF_SAMPLE_TIME ? ev->sample.time : PK_NO_TIME;
	ps.event = event;
	ps.period = ev->sample.period ? ev->sample.period : 1;
	return pk_profile_add_sample(fd->p, &ps);
}

static char *join_cmdline(const struct pk_string_list *l)
{
	size_t len = 1;
	char *s;

	for (uint32_t i = 0; i < l->nr; i++)
		len += strlen(l->str[i]) + 1;
	s = calloc(1, len);
	if (!s)
		return NULL;
	for (uint32_t i = 0; i < l->nr; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, l->str[i]);
	}
	return s;
}

static int add_meta(struct pk_profile *p, struct pk_reader *r, const char *path)
{
	const struct pk_header *h = pk_reader_header(r);
	struct pk_profile_meta m = {.sz = sizeof(m), .title = path};
	char *cmdline = h ? join_cmdline(&h->cmdline) : NULL;
	int err;

	m.cmdline = cmdline && cmdline[0] ? cmdline : NULL;
	m.hostname = h ? h->hostname : NULL;
	err = pk_profile_set_meta(p, &m);
	free(cmdline);
	return err;
}

/* Build ids come from the header's BUILD_ID section, by file name. */
static void attach_build_ids(struct pk_profile *p, const struct pk_header *h)
{
	if (!h)
		return;
	for (size_t m = 0; m < p->nr_maps; m++) {
		const char *dso = pki_str(p, p->maps[m].dso);

		for (uint32_t i = 0; i < h->nr_build_ids && !p->maps[m].build_id.size; i++) {
			const struct pk_build_id_entry *b = &h->build_ids[i];

			if (!b->filename || strcmp(b->filename, dso) ||
			    b->build_id_size > sizeof(p->maps[m].build_id.data))
				continue;
			p->maps[m].build_id.size = b->build_id_size;
			memcpy(p->maps[m].build_id.data, b->build_id, b->build_id_size);
		}
	}
}

/* LOST records are not samples: count them in a second, cheap pass. */
static void count_lost(struct pk_profile *p, const char *path, bool force)
{
	struct pk_reader_opts ro = {.sz = sizeof(ro), .force = force};
	struct pk_record_stats st = {0};
	struct pk_reader *r = NULL;

	if (!strcmp(path, "-") || pk_reader_open(&r, path, &ro)) {
		pk_reader_close(r);
		return;
	}
	if (pk_record_stats_collect(r, &st) == 0)
		pk_profile_add_lost(p, st.lost);
	pk_record_stats_free(&st);
	pk_reader_close(r);
}

static int feed_all(struct feed *fd)
{
	struct pk_session_sample ev;
	int err;

	while ((err = pk_session_next(fd->s, &ev)) > 0) {
		if (!ev.attr)
			continue;
		err = add_one(fd, &ev);
		if (err) {
			pki_profile_fail(fd->p, "%s: offset %#llx: %s",
					 pk_reader_path(pk_session_reader(fd->s)),
					 (unsigned long long)ev.rec->file_offset,
					 err == -ENOMEM ? "out of memory"
							: "sample of an unusable event");
			return err;
		}
	}
	if (err < 0)
		pki_profile_fail(fd->p, "%s", pk_session_error(fd->s));
	return err;
}

int pk_profile_from_file(struct pk_profile **out, const char *path,
			 const struct pk_profile_read_opts *opts)
{
	struct pk_profile_read_opts o = {.sz = sizeof(o)};
	struct pk_session_opts so = {.sz = sizeof(so)};
	struct feed fd = {.opts = &o};
	int err;

	if (opts)
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	err = pk_profile_new(out, o.profile);
	if (err)
		return err;
	fd.p = *out;
	if (o.session)
		memcpy(&so, o.session,
		       o.session->sz < sizeof(so) ? o.session->sz : sizeof(so));
	so.sz = sizeof(so);
	so.force = o.force;
	err = pk_session_open(&fd.s, path, &so);
	if (err) {
		pki_profile_fail(fd.p, "%s", pk_session_error(fd.s));
		goto out;
	}
	fd.nr_attrs = pk_reader_nr_attrs(pk_session_reader(fd.s));
	fd.event_of = malloc((fd.nr_attrs + 1) * sizeof(*fd.event_of));
	fd.frames = malloc(MAX_FRAMES * sizeof(*fd.frames));
	fd.pframes = malloc(MAX_FRAMES * sizeof(*fd.pframes));
	err = -ENOMEM;
	if (!fd.event_of || !fd.frames || !fd.pframes ||
	    add_meta(fd.p, pk_session_reader(fd.s), path)) {
		pki_profile_fail(fd.p, "%s: out of memory", path);
		goto out;
	}
	memset(fd.event_of, 0xff, (fd.nr_attrs + 1) * sizeof(*fd.event_of));
	err = feed_all(&fd);
	if (!err) {
		attach_build_ids(fd.p, pk_reader_header(pk_session_reader(fd.s)));
		/* without it the profile only lacks the hint: not an error */
		if (pk_session_unresolved(fd.s, &fd.p->unresolved))
			fd.p->unresolved = NULL;
		/* one reader at a time keeps the peak down */
		pk_session_close(fd.s);
		fd.s = NULL;
		count_lost(fd.p, path, o.force);
	}
out:
	pk_session_close(fd.s);
	free(fd.event_of);
	free(fd.frames);
	free(fd.pframes);
	free(fd.running);
	return err;
}
