// SPDX-License-Identifier: MIT
/* Feature sections about the events and PMUs: BUILD_ID, EVENT_DESC,
 * PMU_MAPPINGS, GROUP_DESC, AUXTRACE, CPU_PMU_CAPS, PMU_CAPS. */
#include <stdlib.h>
#include <string.h>
#include "features_internal.h"
#include "reader_internal.h"

#define BUILD_ID_EVENT_MIN 36		/* header, pid, 24 id bytes */
#define BUILD_ID_SHORT 20		/* SHA-1 size, used before the size byte */
#define MISC_BUILD_ID_SIZE (1u << 15)	/* the size byte after the id is valid */

static int fail(const char **why, const char *what)
{
	*why = what;
	return -EINVAL;
}

/* Count the build_id_event records, checking each size, before allocating. */
static int count_build_ids(struct pki_cursor c, uint32_t *nr, const char **why)
{
	*nr = 0;
	while (pki_cursor_left(&c)) {
		uint16_t size;

		pki_cursor_skip(&c, 6);
		size = pki_cursor_u16(&c);
		if (c.bad || size < BUILD_ID_EVENT_MIN)
			return fail(why, "build-id record is shorter than its fixed part");
		if (!pki_cursor_skip(&c, size - 8u))
			return fail(why, "build-id record runs past the end of the section");
		(*nr)++;
	}
	return 0;
}

static int decode_build_id(struct pk_build_id_entry *e, struct pki_cursor *c)
{
	uint16_t size;
	const uint8_t *id;
	const char *name;
	size_t name_len;

	pki_cursor_skip(c, 4);
	e->misc = pki_cursor_u16(c);
	size = pki_cursor_u16(c);
	e->pid = (int32_t)pki_cursor_u32(c);
	id = pki_cursor_take(c, 24);
	name_len = size - BUILD_ID_EVENT_MIN;
	name = pki_cursor_take(c, name_len);
	if (!id || !name)
		return -EINVAL; /* not reached: count_build_ids checked the sizes */
	memcpy(e->build_id, id, 20);
	e->build_id_size = BUILD_ID_SHORT;
	if ((e->misc & MISC_BUILD_ID_SIZE) && id[20] <= 20)
		e->build_id_size = id[20];
	e->filename = strndup(name, strnlen(name, name_len));
	return e->filename ? 0 : -ENOMEM;
}

int pki_feat_build_id(struct pk_header *h, struct pki_cursor *c, const char **why)
{
	uint32_t nr;
	int err;

	err = count_build_ids(*c, &nr, why);
	if (err)
		return err;
	h->build_ids = calloc(nr ? nr : 1, sizeof(*h->build_ids));
	if (!h->build_ids)
		return -ENOMEM;
	for (h->nr_build_ids = 0; h->nr_build_ids < nr; h->nr_build_ids++) {
		err = decode_build_id(&h->build_ids[h->nr_build_ids], c);
		if (err)
			return err;
	}
	return 0;
}

static int decode_event_desc(struct pk_event_desc *d, struct pki_cursor *c, uint32_t attr_size,
			     const char **why)
{
	const void *attr = pki_cursor_take(c, attr_size);
	int err;

	if (!attr)
		return fail(why, "event description runs past the end of the section");
	err = pki_attr_decode(&d->attr, attr, attr_size, c->swapped, &d->file_attr_size);
	if (err)
		return fail(why, "event description has a bad attr");
	d->nr_ids = pki_cursor_u32(c);
	err = pki_feat_string(c, &d->name, why);
	if (err)
		return err;
	if (!pki_feat_fits(c, d->nr_ids, 8))
		return fail(why, "event description id count is larger than the section");
	d->ids = calloc(d->nr_ids ? d->nr_ids : 1, sizeof(*d->ids));
	if (!d->ids)
		return -ENOMEM;
	for (uint32_t i = 0; i < d->nr_ids; i++)
		d->ids[i] = pki_cursor_u64(c);
	return 0;
}

int pki_feat_event_desc(struct pk_header *h, struct pki_cursor *c, const char **why)
{
	uint32_t nr = pki_cursor_u32(c);
	uint32_t attr_size = pki_cursor_u32(c);
	int err = 0;

	if (c->bad)
		return fail(why, "section is too short for its count and attr size");
	if (attr_size < PERF_ATTR_SIZE_VER0 || attr_size > PK_ATTR_FILE_MAX)
		return fail(why, "attr size is out of range");
	if (!pki_feat_fits(c, nr, attr_size + 4 + PKI_STRING_MIN))
		return fail(why, "event count is larger than the section");
	h->event_desc = calloc(nr ? nr : 1, sizeof(*h->event_desc));
	if (!h->event_desc)
		return -ENOMEM;
	for (h->nr_event_desc = 0; h->nr_event_desc < nr && !err; h->nr_event_desc++) {
		h->event_desc[h->nr_event_desc].attr_index = h->nr_event_desc;
		err = decode_event_desc(&h->event_desc[h->nr_event_desc], c, attr_size, why);
	}
	return err;
}

int pki_feat_pmu_mappings(struct pk_header *h, struct pki_cursor *c, const char **why)
{
	uint32_t nr = pki_cursor_u32(c);
	int err = 0;

	if (c->bad || !pki_feat_fits(c, nr, 4 + PKI_STRING_MIN))
		return fail(why, "PMU count is larger than the section");
	h->pmu_mappings = calloc(nr ? nr : 1, sizeof(*h->pmu_mappings));
	if (!h->pmu_mappings)
		return -ENOMEM;
	for (h->nr_pmu_mappings = 0; h->nr_pmu_mappings < nr && !err; h->nr_pmu_mappings++) {
		struct pk_pmu_mapping *m = &h->pmu_mappings[h->nr_pmu_mappings];

		m->type = pki_cursor_u32(c);
		err = pki_feat_string(c, &m->name, why);
	}
	return err;
}

int pki_feat_group_desc(struct pk_header *h, struct pki_cursor *c, const char **why)
{
	uint32_t nr = pki_cursor_u32(c);
	int err = 0;

	if (c->bad || !pki_feat_fits(c, nr, 8 + PKI_STRING_MIN))
		return fail(why, "group count is larger than the section");
	h->groups = calloc(nr ? nr : 1, sizeof(*h->groups));
	if (!h->groups)
		return -ENOMEM;
	for (h->nr_groups = 0; h->nr_groups < nr && !err; h->nr_groups++) {
		struct pk_group_desc *g = &h->groups[h->nr_groups];

		err = pki_feat_string(c, &g->name, why);
		g->leader_idx = pki_cursor_u32(c);
		g->nr_members = pki_cursor_u32(c);
		if (!err && c->bad)
			err = fail(why, "group description runs past the end of the section");
	}
	return err;
}

int pki_feat_auxtrace(struct pk_header *h, struct pki_cursor *c, const char **why)
{
	uint64_t nr = pki_cursor_u64(c);

	if (c->bad || !pki_feat_fits(c, nr, 16))
		return fail(why, "AUX index count is larger than the section");
	h->auxtrace_index = calloc(nr ? nr : 1, sizeof(*h->auxtrace_index));
	if (!h->auxtrace_index)
		return -ENOMEM;
	h->nr_auxtrace_index = nr;
	for (uint64_t i = 0; i < nr; i++) {
		h->auxtrace_index[i].file_offset = pki_cursor_u64(c);
		h->auxtrace_index[i].size = pki_cursor_u64(c);
	}
	return 0;
}

/* u32 nr, then nr (name, value) string pairs. */
static int decode_caps(struct pk_pmu_caps *p, struct pki_cursor *c, const char **why)
{
	uint32_t nr = pki_cursor_u32(c);
	int err = 0;

	if (c->bad || !pki_feat_fits(c, nr, 2 * PKI_STRING_MIN))
		return fail(why, "capability count is larger than the section");
	p->names = calloc(nr ? nr : 1, sizeof(*p->names));
	p->values = calloc(nr ? nr : 1, sizeof(*p->values));
	if (!p->names || !p->values)
		return -ENOMEM;
	for (p->nr = 0; p->nr < nr && !err; p->nr++) {
		err = pki_feat_string(c, &p->names[p->nr], why);
		if (!err)
			err = pki_feat_string(c, &p->values[p->nr], why);
	}
	return err;
}

int pki_feat_cpu_pmu_caps(struct pk_header *h, struct pki_cursor *c, const char **why)
{
	return decode_caps(&h->cpu_pmu_caps, c, why);
}

int pki_feat_pmu_caps(struct pk_header *h, struct pki_cursor *c, const char **why)
{
	uint32_t nr = pki_cursor_u32(c);
	int err = 0;

	if (c->bad || !pki_feat_fits(c, nr, 4 + PKI_STRING_MIN))
		return fail(why, "PMU count is larger than the section");
	h->pmu_caps = calloc(nr ? nr : 1, sizeof(*h->pmu_caps));
	if (!h->pmu_caps)
		return -ENOMEM;
	for (h->nr_pmu_caps = 0; h->nr_pmu_caps < nr && !err; h->nr_pmu_caps++) {
		struct pk_pmu_caps *p = &h->pmu_caps[h->nr_pmu_caps];

		err = decode_caps(p, c, why);
		if (!err)
			err = pki_feat_string(c, &p->pmu_name, why);
	}
	return err;
}

static void caps_free(struct pk_pmu_caps *p)
{
	for (uint32_t i = 0; i < p->nr; i++) {
		free(p->names ? p->names[i] : NULL);
		free(p->values ? p->values[i] : NULL);
	}
	free(p->names);
	free(p->values);
	free(p->pmu_name);
	*p = (struct pk_pmu_caps){0};
}

static void clear_event_desc(struct pk_header *h)
{
	for (uint32_t i = 0; h->event_desc && i < h->nr_event_desc; i++) {
		free(h->event_desc[i].name);
		free(h->event_desc[i].ids);
	}
	free(h->event_desc);
	h->event_desc = NULL;
	h->nr_event_desc = 0;
}

void pki_feat_events_clear(struct pk_header *h, unsigned int feat)
{
	switch (feat) {
	case PK_FEAT_BUILD_ID:
		for (uint32_t i = 0; h->build_ids && i < h->nr_build_ids; i++)
			free(h->build_ids[i].filename);
		free(h->build_ids);
		h->build_ids = NULL;
		h->nr_build_ids = 0;
		break;
	case PK_FEAT_EVENT_DESC:
		clear_event_desc(h);
		break;
	case PK_FEAT_PMU_MAPPINGS:
		for (uint32_t i = 0; h->pmu_mappings && i < h->nr_pmu_mappings; i++)
			free(h->pmu_mappings[i].name);
		free(h->pmu_mappings);
		h->pmu_mappings = NULL;
		h->nr_pmu_mappings = 0;
		break;
	case PK_FEAT_GROUP_DESC:
		for (uint32_t i = 0; h->groups && i < h->nr_groups; i++)
			free(h->groups[i].name);
		free(h->groups);
		h->groups = NULL;
		h->nr_groups = 0;
		break;
	case PK_FEAT_AUXTRACE:
		free(h->auxtrace_index);
		h->auxtrace_index = NULL;
		h->nr_auxtrace_index = 0;
		break;
	case PK_FEAT_CPU_PMU_CAPS:
		caps_free(&h->cpu_pmu_caps);
		break;
	case PK_FEAT_PMU_CAPS:
		for (uint32_t i = 0; h->pmu_caps && i < h->nr_pmu_caps; i++)
			caps_free(&h->pmu_caps[i]);
		free(h->pmu_caps);
		h->pmu_caps = NULL;
		h->nr_pmu_caps = 0;
		break;
	}
}
