// SPDX-License-Identifier: MIT
/*
 * The profile: everything a sample carries is interned, so memory grows
 * with unique strings, locations, stacks and threads, never with the
 * number of samples.  Per-sample facts (time, CPU) go to a log in an
 * unlinked temporary file for the exporters that draw a time line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perfkit/session.h>
#include "export_internal.h"

#define DEFAULT_BUCKETS 200
#define FIRST_WIDTH	1000000ULL /* 1 ms; doubles as the recording grows */

int pki_profile_fail(struct pk_profile *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->error, sizeof(p->error), fmt, ap);
	va_end(ap);
	return 0;
}

const char *pk_profile_error(const struct pk_profile *p)
{
	return p ? p->error : "out of memory";
}

const char *pki_str(const struct pk_profile *p, uint32_t id)
{
	return id < p->nr_strs ? p->strs[id] : "";
}

int pk_profile_new(struct pk_profile **out, const struct pk_profile_opts *opts)
{
	struct pk_profile *p = calloc(1, sizeof(*p));

	*out = p;
	if (!p)
		return -ENOMEM;
	if (opts)
		memcpy(&p->opts, opts, opts->sz < sizeof(p->opts) ? opts->sz : sizeof(p->opts));
	p->opts.sz = sizeof(p->opts);
	p->nr_buckets = p->opts.timeline_buckets ? p->opts.timeline_buckets : DEFAULT_BUCKETS;
	if (p->nr_buckets > 100000)
		p->nr_buckets = 100000;
	p->width = FIRST_WIDTH;
	p->t0 = PK_NO_TIME;
	p->tmin = PK_NO_TIME;
	p->first_event = PKI_NONE;
	if (!p->opts.no_sample_log)
		p->log = tmpfile(); /* NULL: timelines fall back to aggregates */
	return 0;
}

void pk_profile_free(struct pk_profile *p)
{
	if (!p)
		return;
	pk_unresolved_free(p->unresolved);
	for (size_t i = 0; i < p->nr_strs; i++)
		free(p->strs[i]);
	for (size_t i = 0; i < p->nr_threads; i++)
		free(p->threads[i].buckets);
	for (size_t i = 0; i < p->nr_cpus; i++)
		free(p->cpus[i].buckets);
	free(p->strs);
	free(p->locs);
	free(p->maps);
	free(p->nodes);
	free(p->threads);
	free(p->events);
	free(p->entries);
	free(p->cpus);
	free(p->slices);
	free(p->path);
	pki_itab_free(&p->str_tab);
	pki_itab_free(&p->loc_tab);
	pki_itab_free(&p->map_tab);
	pki_itab_free(&p->node_tab);
	pki_itab_free(&p->thread_tab);
	pki_itab_free(&p->entry_tab);
	if (p->log)
		fclose(p->log);
	free(p->cmdline);
	free(p->hostname);
	free(p->title);
	free(p);
}

static bool str_eq(const void *ctx, uint32_t idx, const void *key)
{
	return !strcmp(((const struct pk_profile *)ctx)->strs[idx], key);
}

int pki_profile_intern(struct pk_profile *p, const char *s, uint32_t *id)
{
	struct pki_islot *slot;
	char *copy;

	if (pki_itab_reserve(&p->str_tab))
		return -ENOMEM;
	slot = pki_itab_find(&p->str_tab, pki_hash_bytes(s, strlen(s), 0), str_eq, p, s);
	if (slot->idx != PKI_NONE) {
		*id = slot->idx;
		return 0;
	}
	if (pki_grow((void **)&p->strs, &p->cap_strs, p->nr_strs, sizeof(*p->strs)))
		return -ENOMEM;
	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	p->strs[p->nr_strs] = copy;
	slot->idx = *id = (uint32_t)p->nr_strs++;
	return pki_itab_added(&p->str_tab);
}

static int intern_opt(struct pk_profile *p, const char *s, uint32_t *id)
{
	*id = PKI_NONE;
	return s ? pki_profile_intern(p, s, id) : 0;
}

int pk_profile_add_event(struct pk_profile *p, const char *name, uint32_t *idx)
{
	uint32_t sid;

	if (pki_profile_intern(p, name ? name : "samples", &sid))
		return -ENOMEM;
	for (size_t i = 0; i < p->nr_events; i++) {
		if (p->events[i].name == sid) {
			*idx = (uint32_t)i;
			return 0;
		}
	}
	if (pki_grow((void **)&p->events, &p->cap_events, p->nr_events, sizeof(*p->events)))
		return -ENOMEM;
	p->events[p->nr_events] = (struct pki_event){.name = sid};
	*idx = (uint32_t)p->nr_events++;
	return 0;
}

static bool map_eq(const void *ctx, uint32_t idx, const void *key)
{
	const struct pki_mapping *a = &((const struct pk_profile *)ctx)->maps[idx], *b = key;

	return a->dso == b->dso && a->start == b->start && a->end == b->end && a->pgoff == b->pgoff;
}

/* Mappings are keyed by DSO and range: pprof wants one per loaded image. */
static int intern_mapping(struct pk_profile *p, const struct pk_profile_frame *f, uint32_t dso,
			  uint32_t *id)
{
	struct pki_mapping m = {
		.dso = dso, .start = f->map_start, .end = f->map_end, .pgoff = f->map_pgoff};
	struct pki_islot *slot;

	*id = PKI_NONE;
	if (dso == PKI_NONE)
		return 0;
	if (f->build_id && f->build_id->size <= sizeof(m.build_id.data))
		m.build_id = *f->build_id;
	if (pki_itab_reserve(&p->map_tab))
		return -ENOMEM;
	slot = pki_itab_find(&p->map_tab, pki_hash_bytes(&m.start, 24, dso), map_eq, p, &m);
	if (slot->idx != PKI_NONE) {
		*id = slot->idx;
		if (!p->maps[*id].build_id.size && m.build_id.size)
			p->maps[*id].build_id = m.build_id;
		return 0;
	}
	if (pki_grow((void **)&p->maps, &p->cap_maps, p->nr_maps, sizeof(*p->maps)))
		return -ENOMEM;
	p->maps[p->nr_maps] = m;
	slot->idx = *id = (uint32_t)p->nr_maps++;
	return pki_itab_added(&p->map_tab);
}

static bool loc_eq(const void *ctx, uint32_t idx, const void *key)
{
	const struct pki_location *a = &((const struct pk_profile *)ctx)->locs[idx], *b = key;

	return a->name == b->name && a->dso == b->dso && a->addr == b->addr && a->ip == b->ip &&
	       a->kernel == b->kernel && a->mapping == b->mapping;
}

static int intern_location(struct pk_profile *p, const struct pk_profile_frame *f, uint32_t *id)
{
	struct pki_location l = {
		.addr = f->addr, .ip = f->ip ? f->ip : f->addr, .kernel = f->kernel};
	struct pki_islot *slot;
	uint32_t h;

	if (intern_opt(p, f->function, &l.name) || intern_opt(p, f->dso, &l.dso) ||
	    intern_mapping(p, f, l.dso, &l.mapping) || pki_itab_reserve(&p->loc_tab))
		return -ENOMEM;
	h = pki_hash_bytes(&l.addr, sizeof(l.addr), l.name * 31 + l.dso + l.mapping * 7);
	slot = pki_itab_find(&p->loc_tab, h, loc_eq, p, &l);
	if (slot->idx != PKI_NONE) {
		*id = slot->idx;
		return 0;
	}
	if (pki_grow((void **)&p->locs, &p->cap_locs, p->nr_locs, sizeof(*p->locs)))
		return -ENOMEM;
	p->locs[p->nr_locs] = l;
	slot->idx = *id = (uint32_t)p->nr_locs++;
	return pki_itab_added(&p->loc_tab);
}

static bool node_eq(const void *ctx, uint32_t idx, const void *key)
{
	const struct pki_node *a = &((const struct pk_profile *)ctx)->nodes[idx], *b = key;

	return a->parent == b->parent && a->loc == b->loc;
}

static int intern_node(struct pk_profile *p, uint32_t parent, uint32_t loc, uint32_t *id)
{
	struct pki_node n = {.parent = parent, .loc = loc};
	struct pki_islot *slot;

	if (pki_itab_reserve(&p->node_tab))
		return -ENOMEM;
	slot = pki_itab_find(&p->node_tab, pki_hash_bytes(&n, 8, 0), node_eq, p, &n);
	if (slot->idx != PKI_NONE) {
		*id = slot->idx;
		return 0;
	}
	if (pki_grow((void **)&p->nodes, &p->cap_nodes, p->nr_nodes, sizeof(*p->nodes)))
		return -ENOMEM;
	n.depth = parent == PKI_NONE ? 1 : p->nodes[parent].depth + 1;
	p->nodes[p->nr_nodes] = n;
	slot->idx = *id = (uint32_t)p->nr_nodes++;
	return pki_itab_added(&p->node_tab);
}

/* The trie node of a leaf-first stack; PKI_NONE for an empty stack. */
static int intern_stack(struct pk_profile *p, const struct pk_profile_sample *s, uint32_t *id)
{
	uint32_t node = PKI_NONE;

	for (size_t i = s->nr_frames; i-- > 0;) {
		uint32_t loc;

		if (intern_location(p, &s->frames[i], &loc) || intern_node(p, node, loc, &node))
			return -ENOMEM;
	}
	*id = node;
	return 0;
}

struct thread_key {
	int32_t pid, tid;
	uint32_t comm;
};

static bool thread_eq(const void *ctx, uint32_t idx, const void *key)
{
	const struct pki_thread *a = &((const struct pk_profile *)ctx)->threads[idx];
	const struct thread_key *b = key;

	return a->pid == b->pid && a->tid == b->tid && a->comm == b->comm;
}

static int intern_thread(struct pk_profile *p, const struct pk_profile_sample *s, uint32_t *id)
{
	struct thread_key k = {.pid = s->pid, .tid = s->tid};
	struct pki_islot *slot;
	char buf[32];

	snprintf(buf, sizeof(buf), ":%d", (int)s->tid);
	if (pki_profile_intern(p, s->comm ? s->comm : buf, &k.comm) ||
	    pki_itab_reserve(&p->thread_tab))
		return -ENOMEM;
	slot = pki_itab_find(&p->thread_tab, pki_hash_bytes(&k, sizeof(k), 0), thread_eq, p, &k);
	if (slot->idx != PKI_NONE) {
		*id = slot->idx;
		return 0;
	}
	if (pki_grow((void **)&p->threads, &p->cap_threads, p->nr_threads, sizeof(*p->threads)))
		return -ENOMEM;
	p->threads[p->nr_threads] = (struct pki_thread){.pid = k.pid, .tid = k.tid, .comm = k.comm};
	slot->idx = *id = (uint32_t)p->nr_threads++;
	return pki_itab_added(&p->thread_tab);
}

static bool entry_eq(const void *ctx, uint32_t idx, const void *key)
{
	const struct pki_entry *a = &((const struct pk_profile *)ctx)->entries[idx], *b = key;

	return a->thread == b->thread && a->node == b->node && a->event == b->event;
}

static int count_entry(struct pk_profile *p, uint32_t thread, uint32_t node, uint32_t event,
		       uint64_t period)
{
	struct pki_entry e = {.thread = thread, .node = node, .event = event};
	struct pki_islot *slot;

	if (pki_itab_reserve(&p->entry_tab))
		return -ENOMEM;
	slot = pki_itab_find(&p->entry_tab, pki_hash_bytes(&e, 12, 0), entry_eq, p, &e);
	if (slot->idx == PKI_NONE) {
		if (pki_grow((void **)&p->entries, &p->cap_entries, p->nr_entries,
			     sizeof(*p->entries)))
			return -ENOMEM;
		p->entries[p->nr_entries] = e;
		slot->idx = (uint32_t)p->nr_entries++;
		pki_itab_added(&p->entry_tab);
	}
	p->entries[slot->idx].samples++;
	p->entries[slot->idx].period += period;
	return 0;
}

/* Twice as wide buckets, half as many in use: keeps the array fixed. */
static void merge_buckets(uint32_t *b, uint32_t n)
{
	if (!b)
		return;
	for (uint32_t i = 0; i < n; i++)
		b[i] = (2 * i < n ? b[2 * i] : 0) + (2 * i + 1 < n ? b[2 * i + 1] : 0);
}

static int bucket_of(struct pk_profile *p, uint64_t t, uint32_t *out)
{
	if (t == PK_NO_TIME)
		return -1;
	if (p->t0 == PK_NO_TIME)
		p->t0 = t;
	if (t < p->t0)
		t = p->t0; /* out-of-order stragglers land in the first bucket */
	while ((t - p->t0) / p->width >= p->nr_buckets) {
		if (p->width > UINT64_MAX / 4)
			return -1;
		p->width *= 2;
		for (size_t i = 0; i < p->nr_threads; i++)
			merge_buckets(p->threads[i].buckets, p->nr_buckets);
		for (size_t i = 0; i < p->nr_cpus; i++)
			merge_buckets(p->cpus[i].buckets, p->nr_buckets);
	}
	*out = (uint32_t)((t - p->t0) / p->width);
	return 0;
}

static uint32_t *cpu_buckets(struct pk_profile *p, uint32_t cpu)
{
	size_t i;

	for (i = 0; i < p->nr_cpus; i++)
		if (p->cpus[i].cpu == cpu)
			return p->cpus[i].buckets;
	if (p->nr_cpus >= 4096 ||
	    pki_grow((void **)&p->cpus, &p->cap_cpus, p->nr_cpus, sizeof(*p->cpus)))
		return NULL;
	p->cpus[i].cpu = cpu;
	p->cpus[i].buckets = calloc(p->nr_buckets, sizeof(uint32_t));
	if (!p->cpus[i].buckets)
		return NULL;
	p->nr_cpus++;
	return p->cpus[i].buckets;
}

static void count_time(struct pk_profile *p, struct pki_thread *t, uint32_t cpu, uint64_t time)
{
	uint32_t b, *cb;

	if (bucket_of(p, time, &b))
		return;
	if (!t->buckets)
		t->buckets = calloc(p->nr_buckets, sizeof(uint32_t));
	if (t->buckets)
		t->buckets[b]++;
	if (cpu != UINT32_MAX && (cb = cpu_buckets(p, cpu)))
		cb[b]++;
}

static void log_sample(struct pk_profile *p, const struct pk_profile_sample *s, uint32_t thread,
		       uint32_t node)
{
	struct pki_logrec r = {.time = s->time,
			       .period = s->period,
			       .thread = thread,
			       .node = node,
			       .event = s->event,
			       .cpu = s->cpu};

	if (!p->log)
		return;
	if (p->log_moved) {
		fseek(p->log, 0, SEEK_END);
		p->log_moved = false;
	}
	if (fwrite(&r, sizeof(r), 1, p->log) != 1) {
		fclose(p->log); /* a full disk costs the time line, not the profile */
		p->log = NULL;
		return;
	}
	p->nr_logged++;
}

int pk_profile_add_sample(struct pk_profile *p, const struct pk_profile_sample *s)
{
	uint32_t thread, node;

	if (s->event >= p->nr_events)
		return -EINVAL;
	if (intern_thread(p, s, &thread) || intern_stack(p, s, &node) ||
	    count_entry(p, thread, node, s->event, s->period))
		return -ENOMEM;
	if (p->first_event == PKI_NONE)
		p->first_event = s->event;
	p->events[s->event].nr_samples++;
	p->events[s->event].period += s->period;
	p->threads[thread].nr_samples++;
	p->nr_samples++;
	if (s->time != PK_NO_TIME) {
		if (p->tmin == PK_NO_TIME || s->time < p->tmin)
			p->tmin = s->time;
		if (s->time > p->tmax)
			p->tmax = s->time;
	}
	count_time(p, &p->threads[thread], s->cpu, s->time);
	log_sample(p, s, thread, node);
	return 0;
}

int pk_profile_add_slice(struct pk_profile *p, int32_t pid, int32_t tid, uint32_t cpu,
			 uint64_t start, uint64_t end)
{
	if (p->nr_slices >= PKI_MAX_SLICES) {
		p->nr_slices_dropped++;
		return 0;
	}
	if (pki_grow((void **)&p->slices, &p->cap_slices, p->nr_slices, sizeof(*p->slices)))
		return -ENOMEM;
	p->slices[p->nr_slices++] =
		(struct pki_slice){.start = start, .end = end, .pid = pid, .tid = tid, .cpu = cpu};
	return 0;
}

static int replace_str(char **dst, const char *src)
{
	char *c;

	if (!src)
		return 0;
	c = strdup(src);
	if (!c)
		return -ENOMEM;
	free(*dst);
	*dst = c;
	return 0;
}

int pk_profile_set_meta(struct pk_profile *p, const struct pk_profile_meta *m)
{
	struct pk_profile_meta mm = {0};

	memcpy(&mm, m, m->sz < sizeof(mm) ? m->sz : sizeof(mm));
	if (replace_str(&p->cmdline, mm.cmdline) || replace_str(&p->hostname, mm.hostname) ||
	    replace_str(&p->title, mm.title))
		return -ENOMEM;
	if (mm.start_time)
		p->meta_start = mm.start_time;
	if (mm.end_time)
		p->meta_end = mm.end_time;
	if (mm.nr_lost)
		p->nr_lost = mm.nr_lost;
	return 0;
}

void pk_profile_add_lost(struct pk_profile *p, uint64_t nr)
{
	p->nr_lost += nr;
}

uint64_t pk_profile_nr_samples(const struct pk_profile *p, uint32_t event)
{
	if (event == UINT32_MAX)
		return p->nr_samples;
	return event < p->nr_events ? p->events[event].nr_samples : 0;
}

uint64_t pk_profile_total_period(const struct pk_profile *p, uint32_t event)
{
	uint64_t sum = 0;

	if (event != UINT32_MAX)
		return event < p->nr_events ? p->events[event].period : 0;
	for (size_t i = 0; i < p->nr_events; i++)
		sum += p->events[i].period;
	return sum;
}

uint64_t pk_profile_nr_stacks(const struct pk_profile *p)
{
	return p->nr_entries;
}

int pki_node_path(struct pk_profile *p, uint32_t node)
{
	uint32_t depth = node == PKI_NONE ? 0 : p->nodes[node].depth;

	if (pki_grow((void **)&p->path, &p->cap_path, depth, sizeof(*p->path)))
		return -ENOMEM;
	for (uint32_t i = depth; i-- > 0; node = p->nodes[node].parent)
		p->path[i] = p->nodes[node].loc;
	return (int)depth;
}

const char *pki_loc_label(const struct pk_profile *p, uint32_t loc, char *buf, size_t len)
{
	const struct pki_location *l = &p->locs[loc];
	const char *dso, *slash;

	if (l->name != PKI_NONE)
		return pki_str(p, l->name);
	if (l->dso == PKI_NONE)
		return "[unknown]";
	dso = pki_str(p, l->dso);
	slash = strrchr(dso, '/');
	snprintf(buf, len, "[%s]", slash ? slash + 1 : dso);
	return buf;
}

const char *pki_thread_label(const struct pk_profile *p, uint32_t thread, char *buf, size_t len)
{
	const struct pki_thread *t = &p->threads[thread];

	snprintf(buf, len, "%s (%d/%d)", pki_str(p, t->comm), (int)t->pid, (int)t->tid);
	return buf;
}

int pki_log_rewind(struct pk_profile *p)
{
	if (!p->log)
		return -ENOENT;
	p->log_moved = true;
	if (fflush(p->log) || fseek(p->log, 0, SEEK_SET))
		return -EIO;
	return 0;
}

int pki_log_read(struct pk_profile *p, struct pki_logrec *rec)
{
	if (fread(rec, sizeof(*rec), 1, p->log) == 1)
		return 1;
	if (ferror(p->log))
		return -EIO;
	return 0;
}

static const struct pk_profile *order_p;

static int cmp_entry(const void *a, const void *b)
{
	const struct pki_entry *x = &order_p->entries[*(const uint32_t *)a];
	const struct pki_entry *y = &order_p->entries[*(const uint32_t *)b];

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->event != y->event)
		return x->event < y->event ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

int pki_entry_order(const struct pk_profile *p, uint32_t **order)
{
	uint32_t *o = malloc((p->nr_entries ? p->nr_entries : 1) * sizeof(*o));

	if (!o)
		return -ENOMEM;
	for (size_t i = 0; i < p->nr_entries; i++)
		o[i] = (uint32_t)i;
	order_p = p;
	qsort(o, p->nr_entries, sizeof(*o), cmp_entry);
	*order = o;
	return 0;
}

const struct pk_unresolved *pk_profile_unresolved(const struct pk_profile *p)
{
	return p ? p->unresolved : NULL;
}
