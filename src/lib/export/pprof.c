// SPDX-License-Identifier: MIT
/*
 * pprof: profile.proto packed by protobuf-c and gzip'd by zlib as it is
 * produced.  One sample type per event (unit "count": samples), one Sample
 * per unique (thread, stack, event) with thread labels, one Location per
 * interned location, one Function per frame name, one Mapping per loaded
 * image with its build id.  String i of the profile is string i + 1 of the
 * table (0 is "" as the format wants).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "export_internal.h"
#include "export/profile.pb-c.h"

typedef Perftools__Profiles__Profile PbProfile;
typedef Perftools__Profiles__ValueType PbValueType;
typedef Perftools__Profiles__Sample PbSample;
typedef Perftools__Profiles__Label PbLabel;
typedef Perftools__Profiles__Mapping PbMapping;
typedef Perftools__Profiles__Location PbLocation;
typedef Perftools__Profiles__Line PbLine;
typedef Perftools__Profiles__Function PbFunction;

/* Everything the message points to, allocated in a few arrays. */
struct pb_arena {
	PbValueType *types, **type_ptrs;
	PbSample *samples, **sample_ptrs;
	PbLabel *labels, **label_ptrs;
	uint64_t *loc_ids;
	int64_t *values;
	PbMapping *maps, **map_ptrs;
	PbLocation *locs, **loc_ptrs;
	PbLine *lines, **line_ptrs;
	PbFunction *funcs, **func_ptrs;
	uint32_t *func_of_name;
	uint32_t *names;
	char **strings;
};

#define NR_LABELS 3 /* thread (comm), pid, tid */

struct gz_buffer {
	ProtobufCBuffer base;
	z_stream zs;
	FILE *out;
	int err;
};

static void gz_write(struct gz_buffer *g, const uint8_t *data, size_t len, int flush)
{
	unsigned char chunk[16384];

	g->zs.next_in = (Bytef *)data;
	g->zs.avail_in = (uInt)len;
	do {
		g->zs.next_out = chunk;
		g->zs.avail_out = sizeof(chunk);
		if (deflate(&g->zs, flush) == Z_STREAM_ERROR) {
			g->err = -EIO;
			return;
		}
		if (fwrite(chunk, 1, sizeof(chunk) - g->zs.avail_out, g->out) !=
		    sizeof(chunk) - g->zs.avail_out)
			g->err = -EIO;
	} while (g->zs.avail_out == 0 || g->zs.avail_in > 0);
}

static void gz_append(ProtobufCBuffer *b, size_t len, const uint8_t *data)
{
	struct gz_buffer *g = (struct gz_buffer *)b;

	while (len > 0 && !g->err) {
		size_t n = len > (1u << 30) ? (1u << 30) : len;

		gz_write(g, data, n, Z_NO_FLUSH);
		data += n;
		len -= n;
	}
}

static void arena_free(struct pb_arena *a)
{
	void **all[] = {
		(void **)&a->types,	  (void **)&a->type_ptrs,    (void **)&a->samples,
		(void **)&a->sample_ptrs, (void **)&a->labels,	     (void **)&a->label_ptrs,
		(void **)&a->loc_ids,	  (void **)&a->values,	     (void **)&a->maps,
		(void **)&a->map_ptrs,	  (void **)&a->locs,	     (void **)&a->loc_ptrs,
		(void **)&a->lines,	  (void **)&a->line_ptrs,    (void **)&a->funcs,
		(void **)&a->func_ptrs,	  (void **)&a->func_of_name, (void **)&a->names,
		(void **)&a->strings};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		free(*all[i]);
		*all[i] = NULL;
	}
}

static void *alloc_n(size_t n, size_t elem)
{
	return calloc(n ? n : 1, elem);
}

static int64_t sidx(uint32_t sid)
{
	return sid == PKI_NONE ? 0 : (int64_t)sid + 1;
}

static int build_types(struct pk_profile *p, struct pb_arena *a, PbProfile *m)
{
	uint32_t count;

	if (pki_profile_intern(p, "count", &count))
		return -ENOMEM;
	a->types = alloc_n(p->nr_events + 1, sizeof(*a->types));
	a->type_ptrs = alloc_n(p->nr_events, sizeof(*a->type_ptrs));
	if (!a->types || !a->type_ptrs)
		return -ENOMEM;
	for (size_t i = 0; i < p->nr_events; i++) {
		perftools__profiles__value_type__init(&a->types[i]);
		a->types[i].type = sidx(p->events[i].name);
		a->types[i].unit = sidx(count);
		a->type_ptrs[i] = &a->types[i];
	}
	m->n_sample_type = p->nr_events;
	m->sample_type = a->type_ptrs;
	perftools__profiles__value_type__init(&a->types[p->nr_events]);
	if (p->nr_events) {
		a->types[p->nr_events] = a->types[0];
		m->period_type = &a->types[p->nr_events];
		m->period = 1;
	}
	return 0;
}

static int build_mappings(struct pk_profile *p, struct pb_arena *a, PbProfile *m)
{
	a->maps = alloc_n(p->nr_maps, sizeof(*a->maps));
	a->map_ptrs = alloc_n(p->nr_maps, sizeof(*a->map_ptrs));
	if (!a->maps || !a->map_ptrs)
		return -ENOMEM;
	for (size_t i = 0; i < p->nr_maps; i++) {
		const struct pki_mapping *mp = &p->maps[i];
		PbMapping *pm = &a->maps[i];
		char hex[2 * sizeof(mp->build_id.data) + 1] = "";
		uint32_t bid = PKI_NONE;

		for (unsigned int j = 0; j < mp->build_id.size; j++)
			snprintf(hex + 2 * j, 3, "%02x", mp->build_id.data[j]);
		if (hex[0] && pki_profile_intern(p, hex, &bid))
			return -ENOMEM;
		perftools__profiles__mapping__init(pm);
		pm->id = i + 1;
		pm->memory_start = mp->start;
		pm->memory_limit = mp->end;
		pm->file_offset = mp->pgoff;
		pm->filename = sidx(mp->dso);
		pm->build_id = sidx(bid);
		pm->has_functions = true;
		a->map_ptrs[i] = pm;
	}
	m->n_mapping = p->nr_maps;
	m->mapping = a->map_ptrs;
	return 0;
}

/* Functions are frame names; locations point to them through a Line. */
static int build_locations(struct pk_profile *p, struct pb_arena *a, PbProfile *m)
{
	size_t nr_funcs = 0;

	a->funcs = alloc_n(p->nr_locs, sizeof(*a->funcs));
	a->func_ptrs = alloc_n(p->nr_locs, sizeof(*a->func_ptrs));
	a->locs = alloc_n(p->nr_locs, sizeof(*a->locs));
	a->loc_ptrs = alloc_n(p->nr_locs, sizeof(*a->loc_ptrs));
	a->lines = alloc_n(p->nr_locs, sizeof(*a->lines));
	a->line_ptrs = alloc_n(p->nr_locs, sizeof(*a->line_ptrs));
	a->func_of_name = alloc_n(p->nr_strs, sizeof(*a->func_of_name));
	if (!a->funcs || !a->func_ptrs || !a->locs || !a->loc_ptrs || !a->lines || !a->line_ptrs ||
	    !a->func_of_name)
		return -ENOMEM;
	for (size_t i = 0; i < p->nr_locs; i++) {
		const struct pki_location *l = &p->locs[i];
		uint32_t name = a->names[i];

		if (!a->func_of_name[name]) {
			PbFunction *f = &a->funcs[nr_funcs];

			perftools__profiles__function__init(f);
			f->id = nr_funcs + 1;
			f->name = f->system_name = sidx(name);
			f->filename = sidx(l->dso);
			a->func_ptrs[nr_funcs++] = f;
			a->func_of_name[name] = (uint32_t)f->id;
		}
		perftools__profiles__line__init(&a->lines[i]);
		a->lines[i].function_id = a->func_of_name[name];
		a->line_ptrs[i] = &a->lines[i];
		perftools__profiles__location__init(&a->locs[i]);
		a->locs[i].id = i + 1;
		a->locs[i].mapping_id = l->mapping == PKI_NONE ? 0 : l->mapping + 1;
		a->locs[i].address = l->ip;
		a->locs[i].n_line = 1;
		a->locs[i].line = &a->line_ptrs[i];
		a->loc_ptrs[i] = &a->locs[i];
	}
	m->n_function = nr_funcs;
	m->function = a->func_ptrs;
	m->n_location = p->nr_locs;
	m->location = a->loc_ptrs;
	return 0;
}

static size_t total_frames(struct pk_profile *p)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nr_entries; i++)
		if (p->entries[i].node != PKI_NONE)
			n += p->nodes[p->entries[i].node].depth;
	return n;
}

static void fill_labels(struct pk_profile *p, PbLabel *l, const struct pki_thread *t,
			const uint32_t *keys)
{
	for (int i = 0; i < NR_LABELS; i++)
		perftools__profiles__label__init(&l[i]);
	l[0].key = sidx(keys[0]);
	l[0].str = sidx(t->comm);
	l[1].key = sidx(keys[1]);
	l[1].num = t->pid;
	l[2].key = sidx(keys[2]);
	l[2].num = t->tid;
	(void)p;
}

static int build_samples(struct pk_profile *p, struct pb_arena *a, PbProfile *m)
{
	size_t ne = p->nr_entries, nv = p->nr_events ? p->nr_events : 1, f = 0;
	uint32_t keys[NR_LABELS];

	if (pki_profile_intern(p, "thread", &keys[0]) || pki_profile_intern(p, "pid", &keys[1]) ||
	    pki_profile_intern(p, "tid", &keys[2]))
		return -ENOMEM;
	a->samples = alloc_n(ne, sizeof(*a->samples));
	a->sample_ptrs = alloc_n(ne, sizeof(*a->sample_ptrs));
	a->labels = alloc_n(ne * NR_LABELS, sizeof(*a->labels));
	a->label_ptrs = alloc_n(ne * NR_LABELS, sizeof(*a->label_ptrs));
	a->values = alloc_n(ne * nv, sizeof(*a->values));
	a->loc_ids = alloc_n(total_frames(p), sizeof(*a->loc_ids));
	if (!a->samples || !a->sample_ptrs || !a->labels || !a->label_ptrs || !a->values ||
	    !a->loc_ids)
		return -ENOMEM;
	for (size_t i = 0; i < ne; i++) {
		const struct pki_entry *e = &p->entries[i];
		PbSample *s = &a->samples[i];
		uint32_t n = e->node;

		perftools__profiles__sample__init(s);
		s->location_id = &a->loc_ids[f];
		for (; n != PKI_NONE; n = p->nodes[n].parent) /* leaf first */
			a->loc_ids[f + s->n_location_id++] = p->nodes[n].loc + 1;
		f += s->n_location_id;
		s->value = &a->values[i * nv];
		s->n_value = p->nr_events;
		s->value[e->event] = (int64_t)e->samples;
		fill_labels(p, &a->labels[i * NR_LABELS], &p->threads[e->thread], keys);
		for (int k = 0; k < NR_LABELS; k++)
			a->label_ptrs[i * NR_LABELS + k] = &a->labels[i * NR_LABELS + k];
		s->label = &a->label_ptrs[i * NR_LABELS];
		s->n_label = NR_LABELS;
		a->sample_ptrs[i] = s;
	}
	m->n_sample = ne;
	m->sample = a->sample_ptrs;
	return 0;
}

static int build_strings(struct pk_profile *p, struct pb_arena *a, PbProfile *m)
{
	a->strings = alloc_n(p->nr_strs + 1, sizeof(*a->strings));
	if (!a->strings)
		return -ENOMEM;
	a->strings[0] = "";
	for (size_t i = 0; i < p->nr_strs; i++)
		a->strings[i + 1] = p->strs[i];
	m->n_string_table = p->nr_strs + 1;
	m->string_table = a->strings;
	return 0;
}

static int pack_gzip(PbProfile *m, FILE *out)
{
	struct gz_buffer g = {.base = {.append = gz_append}, .out = out};

	/* windowBits 15 + 16: a gzip wrapper rather than zlib's */
	if (deflateInit2(&g.zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	perftools__profiles__profile__pack_to_buffer(m, &g.base);
	if (!g.err)
		gz_write(&g, NULL, 0, Z_FINISH);
	deflateEnd(&g.zs);
	return g.err;
}

int pk_export_pprof(struct pk_profile *p, FILE *out)
{
	struct pb_arena a = {0};
	PbProfile m;
	int err = -ENOMEM;

	perftools__profiles__profile__init(&m);
	/* every string the message names is interned before the table is made */
	if (pki_loc_names_as(p, &a.names, false) || build_types(p, &a, &m) ||
	    build_mappings(p, &a, &m) || build_locations(p, &a, &m) || build_samples(p, &a, &m) ||
	    build_strings(p, &a, &m))
		goto out;
	/* time_nanos is wall-clock time: only known when the caller says */
	m.time_nanos = (int64_t)p->meta_start;
	if (p->tmin != PK_NO_TIME)
		m.duration_nanos = (int64_t)(p->tmax - p->tmin);
	err = pack_gzip(&m, out);
	if (!err)
		err = pki_export_finish(p, out);
	else
		pki_profile_fail(p, "pprof: write failed");
out:
	if (err == -ENOMEM)
		pki_profile_fail(p, "pprof: out of memory");
	arena_free(&a);
	return err;
}
