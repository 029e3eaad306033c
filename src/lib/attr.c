// SPDX-License-Identifier: MIT
/*
 * Attributes of a recording: decoding an on-disk perf_event_attr of any size
 * and either byte order, the id -> attr map, and where ids and timestamps
 * sit in records of each attr.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perfkit/event.h>
#include "cursor.h"
#include "reader_internal.h"

/* Reverse the bits of each byte: bitfields are allocated from the other end
 * of the word on big-endian machines. */
static uint64_t swap_bitfield_word(uint64_t raw_le_view)
{
	uint64_t out = 0;

	for (int byte = 0; byte < 8; byte++) {
		uint8_t b = raw_le_view >> (8 * byte);
		uint8_t rev = 0;

		for (int bit = 0; bit < 8; bit++)
			if (b & (1u << bit))
				rev |= 1u << (7 - bit);
		out |= (uint64_t)rev << (8 * byte);
	}
	return out;
}

/*
 * Decode len bytes of an on-disk attr.  Fields past len stay zero; bytes
 * past our struct are ignored.  *file_size receives the attr's own size
 * field (64 when the file says 0, as the oldest perf did).
 */
int pki_attr_decode(struct perf_event_attr *out, const void *p, size_t len, bool swapped,
		    uint32_t *file_size)
{
	uint8_t tmp[sizeof(*out)] = {0};
	struct pki_cursor c;
	uint64_t flags;

	if (len < PERF_ATTR_SIZE_VER0)
		return -EINVAL;
	memcpy(tmp, p, len < sizeof(tmp) ? len : sizeof(tmp));
	memset(out, 0, sizeof(*out));
	c = pki_cursor_make(tmp, sizeof(tmp), swapped);
	out->type = pki_cursor_u32(&c);
	out->size = pki_cursor_u32(&c);
	out->config = pki_cursor_u64(&c);
	out->sample_period = pki_cursor_u64(&c);
	out->sample_type = pki_cursor_u64(&c);
	out->read_format = pki_cursor_u64(&c);
	flags = pki_load64(tmp + 40, false);
	if (swapped)
		flags = swap_bitfield_word(flags);
	pki_cursor_skip(&c, 8);
	memcpy((uint8_t *)out + 40, &flags, 8);
	out->wakeup_events = pki_cursor_u32(&c);
	out->bp_type = pki_cursor_u32(&c);
	out->config1 = pki_cursor_u64(&c);
	out->config2 = pki_cursor_u64(&c);
	out->branch_sample_type = pki_cursor_u64(&c);
	out->sample_regs_user = pki_cursor_u64(&c);
	out->sample_stack_user = pki_cursor_u32(&c);
	out->clockid = (int32_t)pki_cursor_u32(&c);
	out->sample_regs_intr = pki_cursor_u64(&c);
	out->aux_watermark = pki_cursor_u32(&c);
	out->sample_max_stack = pki_cursor_u16(&c);
	out->__reserved_2 = pki_cursor_u16(&c);
	out->aux_sample_size = pki_cursor_u32(&c);
	out->__reserved_3 = pki_cursor_u32(&c);
	out->sig_data = pki_cursor_u64(&c);
	*file_size = out->size ? out->size : PERF_ATTR_SIZE_VER0;
	return 0;
}

static size_t idmap_slot(const struct pki_id_map *m, uint64_t id)
{
	uint64_t h = id * 0x9e3779b97f4a7c15ull;

	return (h >> 17) & (m->cap - 1);
}

static int idmap_grow(struct pki_id_map *m)
{
	size_t ncap = m->cap ? m->cap * 2 : 64;
	struct pki_id_map n = {.cap = ncap};

	n.ids = malloc(ncap * sizeof(*n.ids));
	n.idx = malloc(ncap * sizeof(*n.idx));
	if (!n.ids || !n.idx) {
		free(n.ids);
		free(n.idx);
		return -ENOMEM;
	}
	for (size_t i = 0; i < ncap; i++)
		n.idx[i] = UINT32_MAX;
	for (size_t i = 0; i < m->cap; i++) {
		if (m->idx[i] != UINT32_MAX)
			pki_idmap_add(&n, m->ids[i], m->idx[i]);
	}
	free(m->ids);
	free(m->idx);
	*m = n;
	return 0;
}

/* Map id to attr idx; the first mapping of an id wins, as in perf. */
int pki_idmap_add(struct pki_id_map *m, uint64_t id, uint32_t idx)
{
	size_t s;

	if ((m->nr + 1) * 2 > m->cap && idmap_grow(m))
		return -ENOMEM;
	for (s = idmap_slot(m, id); m->idx[s] != UINT32_MAX; s = (s + 1) & (m->cap - 1)) {
		if (m->ids[s] == id)
			return 0;
	}
	m->ids[s] = id;
	m->idx[s] = idx;
	m->nr++;
	return 0;
}

static uint32_t idmap_find(const struct pki_id_map *m, uint64_t id)
{
	if (!m->cap)
		return UINT32_MAX;
	for (size_t s = idmap_slot(m, id); m->idx[s] != UINT32_MAX; s = (s + 1) & (m->cap - 1)) {
		if (m->ids[s] == id)
			return m->idx[s];
	}
	return UINT32_MAX;
}

const struct pk_attr *pk_reader_attr_by_id(const struct pk_reader *r, uint64_t id)
{
	uint32_t idx = idmap_find(&r->idmap, id);

	return idx == UINT32_MAX ? NULL : r->attrs[idx];
}

/* Where the id sits in samples (from the front) and in sample_id trailers
 * (from the back), counted in u64 words. */
void pki_attr_layout(struct pk_attr *a)
{
	uint64_t t = a->attr.sample_type;
	int n;

	if (t & PERF_SAMPLE_IDENTIFIER) {
		a->id_pos = 0;
		a->is_pos = 1;
	} else if (!(t & PERF_SAMPLE_ID)) {
		a->id_pos = -1;
		a->is_pos = -1;
	} else {
		n = 0;
		n += !!(t & PERF_SAMPLE_IP);
		n += !!(t & PERF_SAMPLE_TID);
		n += !!(t & PERF_SAMPLE_TIME);
		n += !!(t & PERF_SAMPLE_ADDR);
		a->id_pos = n;
		n = 1;
		n += !!(t & PERF_SAMPLE_CPU);
		n += !!(t & PERF_SAMPLE_STREAM_ID);
		a->is_pos = n;
	}
	n = 0;
	for (uint64_t bit = PERF_SAMPLE_IP; bit <= PERF_SAMPLE_PERIOD; bit <<= 1) {
		if ((t & bit) && bit != PERF_SAMPLE_READ && bit != PERF_SAMPLE_CALLCHAIN)
			n += 8;
	}
	n += (t & PERF_SAMPLE_STREAM_ID) ? 8 : 0;
	n += (t & PERF_SAMPLE_IDENTIFIER) ? 8 : 0;
	a->sample_size = n;
}

int pki_reader_add_attr(struct pk_reader *r, const struct perf_event_attr *attr,
			uint32_t file_size, const void *ids, uint64_t nr_ids, bool ids_swapped)
{
	struct pk_attr **na, *a;
	uint64_t *idcopy = NULL;
	uint32_t idx = r->nr_attrs;

	if (r->nr_attrs >= 65536)
		return pki_reader_fail(r, -E2BIG, pki_source_offset(&r->src),
				       "more than 65536 event attributes");
	if (nr_ids > (64u << 20) / 8)
		return pki_reader_fail(r, -E2BIG, pki_source_offset(&r->src),
				       "attr %u has %llu ids, too many", idx,
				       (unsigned long long)nr_ids);
	/* each attr is its own allocation: pointers to it stay valid while
	 * pipe-mode HEADER_ATTR records add more */
	na = realloc(r->attrs, (idx + 1) * sizeof(*na));
	if (!na)
		return -ENOMEM;
	r->attrs = na;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	if (nr_ids) {
		idcopy = malloc(nr_ids * sizeof(*idcopy));
		if (!idcopy) {
			free(a);
			return -ENOMEM;
		}
		for (uint64_t i = 0; i < nr_ids; i++)
			idcopy[i] = pki_load64((const uint8_t *)ids + 8 * i, ids_swapped);
	}
	a->attr = *attr;
	a->file_attr_size = file_size;
	a->index = idx;
	a->ids = idcopy;
	a->nr_ids = nr_ids;
	pki_attr_layout(a);
	na[idx] = a;
	r->nr_attrs++;
	for (uint64_t i = 0; i < nr_ids; i++) {
		if (pki_idmap_add(&r->idmap, idcopy[i], idx))
			return -ENOMEM;
	}
	return 0;
}

int pki_reader_set_attr_name(struct pk_reader *r, uint32_t idx, const char *name, size_t len)
{
	char *copy;

	if (idx >= r->nr_attrs)
		return -EINVAL;
	copy = strndup(name, len);
	if (!copy)
		return -ENOMEM;
	free((char *)r->attrs[idx]->name);
	r->attrs[idx]->name = copy;
	return 0;
}

/* Give every attr without a name (from EVENT_DESC or EVENT_UPDATE) the name
 * perf would derive from its type and config. */
void pki_reader_name_attrs(struct pk_reader *r)
{
	char buf[256];

	for (uint32_t i = 0; i < r->nr_attrs; i++) {
		if (r->attrs[i]->name)
			continue;
		pk_event_attr_name(&r->attrs[i]->attr, buf, sizeof(buf));
		pki_reader_set_attr_name(r, i, buf, strlen(buf));
	}
}

void pki_reader_free_attrs(struct pk_reader *r)
{
	for (uint32_t i = 0; i < r->nr_attrs; i++) {
		free((void *)r->attrs[i]->ids);
		free((char *)r->attrs[i]->name);
		free(r->attrs[i]);
	}
	free(r->attrs);
	free(r->idmap.ids);
	free(r->idmap.idx);
	r->attrs = NULL;
	r->nr_attrs = 0;
}

uint32_t pk_reader_nr_attrs(const struct pk_reader *r)
{
	return r->nr_attrs;
}

const struct pk_attr *pk_reader_attr(const struct pk_reader *r, uint32_t idx)
{
	return idx < r->nr_attrs ? r->attrs[idx] : NULL;
}
