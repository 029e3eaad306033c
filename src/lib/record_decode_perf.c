// SPDX-License-Identifier: MIT
/*
 * Decoding of the records perf writes itself (types 64..83): attrs and
 * names in pipe mode, build ids, id index, auxtrace, stat, cpu and thread
 * maps, time conversion, features, compressed data.  Layouts whose size
 * changed across perf versions are told apart by the record size.
 */
#include <errno.h>
#include <string.h>
#include <perfkit/record.h>
#include "reader_internal.h"
#include "record_decode.h"

#define EVENT_NAME_MAX	  64
#define AUXTRACE_ERR_MSG  64
#define THREAD_MAP_ENTRY  24 /* u64 pid, char comm[16] */
#define TIME_CONV_V2_SIZE 56 /* with time_cycles, time_mask and caps */

static int decode_attr(const struct pk_record *rec, struct pki_cursor *c,
		       struct pk_record_fields *f, const char **why)
{
	uint32_t asize, fsize;
	size_t len = pki_cursor_left(c);

	if (len < PERF_ATTR_SIZE_VER0)
		return pki_decode_fail(why, "ATTR record is too short");
	asize = pki_load32(c->base + 4, rec->swapped);
	if (!asize)
		asize = PERF_ATTR_SIZE_VER0;
	if (asize < PERF_ATTR_SIZE_VER0 || asize > len || (len - asize) % 8)
		return pki_decode_fail(why, "ATTR record: attr size does not fit the record");
	if (pki_attr_decode(&f->attr.attr, c->base, asize, rec->swapped, &fsize))
		return pki_decode_fail(why, "ATTR record: bad attr");
	f->attr.attr_size = fsize;
	f->attr.nr_ids = (len - asize) / 8;
	f->attr.ids = c->base + asize;
	return 0;
}

/*
 * perf wrote this record cut short to the name's 8-byte aligned length,
 * dropping the NUL when the name filled it: copy and terminate.
 */
static void decode_event_type(struct pki_cursor *c, struct pk_record_fields *f)
{
	size_t n;

	f->event_type.event_id = pki_cursor_u64(c);
	n = pki_cursor_left(c) < EVENT_NAME_MAX ? pki_cursor_left(c) : EVENT_NAME_MAX;
	memcpy(f->event_type.name_buf, c->base + c->pos, n);
	f->event_type.name_buf[n] = '\0';
	f->event_type.name = f->event_type.name_buf;
	pki_cursor_skip(c, n);
}

static int decode_build_id(const struct pk_record *rec, struct pki_cursor *c,
			   struct pk_record_fields *f, const char **why)
{
	const uint8_t *id;

	f->build_id.pid = (int32_t)pki_cursor_u32(c);
	id = pki_cursor_take(c, 24); /* data[20], size u8, 3 reserved */
	if (!id)
		return pki_decode_fail(why, "BUILD_ID record is too short");
	f->build_id.build_id.size = (rec->misc & PK_MISC_BUILD_ID_SIZE) ? id[20] : 20;
	if (f->build_id.build_id.size > 20)
		return pki_decode_fail(why, "BUILD_ID record: build-id size over 20");
	memcpy(f->build_id.build_id.data, id, f->build_id.build_id.size);
	f->build_id.filename = pki_cursor_str_rest(c);
	if (!f->build_id.filename)
		return pki_decode_fail(why, "BUILD_ID file name is not NUL-terminated");
	return 0;
}

/* Entries are 4 u64 (id, idx, cpu, tid), 6 in newer perf (+ machine_pid,
 * vcpu): the record size per entry tells which. */
static int id_index_layout(const struct pk_record *rec, uint64_t *nr, uint32_t *words)
{
	size_t rest;

	if (rec->size < 16)
		return -EINVAL;
	*nr = pki_load64((const uint8_t *)rec->raw + 8, rec->swapped);
	rest = rec->size - 16;
	*words = 4;
	if (!*nr)
		return 0;
	if (*nr > rest / 32)
		return -EINVAL;
	*words = (uint32_t)(rest / 8 / *nr);
	return *words >= 4 ? 0 : -EINVAL;
}

int pk_id_index_entry(const struct pk_record *rec, uint64_t i, struct pk_id_index_entry *out)
{
	struct pki_cursor c;
	uint64_t nr;
	uint32_t words;

	memset(out, 0, sizeof(*out));
	if (rec->type != PK_RECORD_ID_INDEX)
		return -EINVAL;
	if (id_index_layout(rec, &nr, &words) || i >= nr)
		return -EINVAL;
	c = pki_cursor_make((const uint8_t *)rec->raw + 16 + i * words * 8, words * 8,
			    rec->swapped);
	out->id = pki_cursor_u64(&c);
	out->idx = pki_cursor_u64(&c);
	out->cpu = pki_cursor_u64(&c);
	out->tid = pki_cursor_u64(&c);
	if (words >= 6) {
		out->machine_pid = pki_cursor_u64(&c);
		out->vcpu = pki_cursor_u64(&c);
	}
	return c.bad ? -EINVAL : 0;
}

static int decode_id_index(const struct pk_record *rec, struct pk_record_fields *f,
			   const char **why)
{
	if (id_index_layout(rec, &f->id_index.nr, &f->id_index.entry_words))
		return pki_decode_fail(why, "ID_INDEX entries do not fit the record");
	f->id_index.entries = (const uint8_t *)rec->raw + 16;
	return 0;
}

int pk_thread_map_entry(const struct pk_record *rec, uint64_t i, struct pk_thread_map_entry *out)
{
	const uint8_t *p;
	uint64_t nr;

	memset(out, 0, sizeof(*out));
	if (rec->type != PK_RECORD_THREAD_MAP || rec->size < 16)
		return -EINVAL;
	nr = pki_load64((const uint8_t *)rec->raw + 8, rec->swapped);
	if (nr > (rec->size - 16u) / THREAD_MAP_ENTRY || i >= nr)
		return -EINVAL;
	p = (const uint8_t *)rec->raw + 16 + i * THREAD_MAP_ENTRY;
	out->pid = pki_load64(p, rec->swapped);
	memcpy(out->comm_buf, p + 8, 16);
	out->comm_buf[16] = '\0';
	out->comm = out->comm_buf;
	return 0;
}

static int decode_auxtrace_error(struct pki_cursor *c, struct pk_record_fields *f, const char **why)
{
	f->auxtrace_error.type = pki_cursor_u32(c);
	f->auxtrace_error.code = pki_cursor_u32(c);
	f->auxtrace_error.cpu = pki_cursor_u32(c);
	f->auxtrace_error.pid = pki_cursor_u32(c);
	f->auxtrace_error.tid = pki_cursor_u32(c);
	f->auxtrace_error.fmt = pki_cursor_u32(c);
	f->auxtrace_error.ip = pki_cursor_u64(c);
	/* format 0 has no time: the message comes right after ip */
	if (f->auxtrace_error.fmt >= 1)
		f->auxtrace_error.time = pki_cursor_u64(c);
	f->auxtrace_error.msg = pki_cursor_str(c, AUXTRACE_ERR_MSG);
	if (f->auxtrace_error.fmt >= 2) {
		f->auxtrace_error.machine_pid = pki_cursor_u32(c);
		f->auxtrace_error.vcpu = pki_cursor_u32(c);
	}
	if (c->bad)
		return pki_decode_fail(why, "AUXTRACE_ERROR record is too short for its format "
					    "or its message is not NUL-terminated");
	return 0;
}

static void decode_cpu_mask(struct pki_cursor *c, struct pk_cpu_map_data *m)
{
	const uint8_t *w;

	m->nr_entries = pki_cursor_u16(c);
	m->long_size = pki_cursor_u16(c);
	if (m->long_size == 8)
		pki_cursor_skip(c, 4); /* old perf aligned the u64 words */
	else if (m->long_size != 4)
		c->bad = true;
	w = pki_cursor_take(c, (size_t)m->nr_entries * m->long_size);
	m->data = w;
	if (!w)
		return;
	for (size_t i = 0; i < (size_t)m->nr_entries * m->long_size; i++)
		m->nr += (uint32_t)__builtin_popcount(w[i]);
}

/* perf_record_cpu_map_data: u16 kind, then one of three encodings. */
static void decode_cpu_map(struct pki_cursor *c, struct pk_cpu_map_data *m)
{
	memset(m, 0, sizeof(*m));
	m->kind = pki_cursor_u16(c);
	switch (m->kind) {
	case PK_CPU_MAP_CPUS:
		m->nr_entries = pki_cursor_u16(c);
		m->nr = m->nr_entries;
		m->data = pki_cursor_take(c, (size_t)m->nr_entries * 2);
		break;
	case PK_CPU_MAP_MASK:
		decode_cpu_mask(c, m);
		break;
	case PK_CPU_MAP_RANGE:
		m->any_cpu = pki_cursor_u8(c);
		pki_cursor_skip(c, 1);
		m->start_cpu = pki_cursor_u16(c);
		m->end_cpu = pki_cursor_u16(c);
		if (m->start_cpu > m->end_cpu)
			c->bad = true;
		else
			m->nr = (uint32_t)(m->end_cpu - m->start_cpu) + 1 + !!m->any_cpu;
		break;
	default:
		c->bad = true;
	}
}

static int32_t mask_bit_at(const struct pk_cpu_map_data *m, bool swapped, uint32_t i)
{
	uint32_t seen = 0;

	for (uint32_t w = 0; w < m->nr_entries; w++) {
		const uint8_t *p = (const uint8_t *)m->data + (size_t)w * m->long_size;
		uint64_t word = m->long_size == 8 ? pki_load64(p, swapped) : pki_load32(p, swapped);

		for (uint32_t b = 0; b < 8u * m->long_size; b++) {
			if (!(word & (1ull << b)))
				continue;
			if (seen++ == i)
				return (int32_t)(w * 8u * m->long_size + b);
		}
	}
	return -1;
}

int32_t pk_cpu_map_at(const struct pk_cpu_map_data *m, bool swapped, uint32_t i)
{
	uint16_t cpu;

	if (i >= m->nr)
		return -1;
	switch (m->kind) {
	case PK_CPU_MAP_CPUS:
		cpu = pki_load16((const uint8_t *)m->data + 2 * (size_t)i, swapped);
		return cpu == UINT16_MAX ? -1 : cpu;
	case PK_CPU_MAP_MASK:
		return mask_bit_at(m, swapped, i);
	case PK_CPU_MAP_RANGE:
		/* the any-cpu entry, like -1 in a sorted map, comes first */
		if (m->any_cpu)
			return i == 0 ? -1 : m->start_cpu + (int32_t)i - 1;
		return m->start_cpu + (int32_t)i;
	default:
		return -1;
	}
}

static int decode_event_update(struct pki_cursor *c, struct pk_record_fields *f, const char **why)
{
	uint64_t bits;

	f->event_update.type = pki_cursor_u64(c);
	f->event_update.id = pki_cursor_u64(c);
	if (c->bad)
		return pki_decode_fail(why, "EVENT_UPDATE record is too short");
	switch (f->event_update.type) {
	case PK_EVENT_UPDATE_UNIT:
	case PK_EVENT_UPDATE_NAME:
		f->event_update.name = pki_cursor_str_rest(c);
		break;
	case PK_EVENT_UPDATE_SCALE:
		bits = pki_cursor_u64(c);
		memcpy(&f->event_update.scale, &bits, sizeof(bits));
		break;
	case PK_EVENT_UPDATE_CPUS:
		decode_cpu_map(c, &f->event_update.cpus);
		break;
	default:
		break; /* a newer kind: the fixed part is all we know */
	}
	if (c->bad)
		return pki_decode_fail(why, "EVENT_UPDATE payload is malformed or unterminated");
	return 0;
}

static int decode_auxtrace(const struct pk_record *rec, struct pki_cursor *c,
			   struct pk_record_fields *f, const char **why)
{
	switch (rec->type) {
	case PK_RECORD_AUXTRACE_INFO:
		f->auxtrace_info.type = pki_cursor_u32(c);
		pki_cursor_skip(c, 4);
		f->auxtrace_info.nr_priv = pki_cursor_left(c) / 8;
		f->auxtrace_info.priv = pki_cursor_take(c, f->auxtrace_info.nr_priv * 8);
		return 0;
	case PK_RECORD_AUXTRACE:
		f->auxtrace.size = pki_cursor_u64(c);
		f->auxtrace.offset = pki_cursor_u64(c);
		f->auxtrace.reference = pki_cursor_u64(c);
		f->auxtrace.idx = pki_cursor_u32(c);
		f->auxtrace.tid = pki_cursor_u32(c);
		f->auxtrace.cpu = pki_cursor_u32(c);
		return 0;
	case PK_RECORD_AUXTRACE_ERROR:
		return decode_auxtrace_error(c, f, why);
	default:
		return -ENOTSUP;
	}
}

static int decode_stat(const struct pk_record *rec, struct pki_cursor *c,
		       struct pk_record_fields *f, const char **why)
{
	switch (rec->type) {
	case PK_RECORD_THREAD_MAP:
		f->thread_map.nr = pki_cursor_u64(c);
		if (c->bad || f->thread_map.nr > pki_cursor_left(c) / THREAD_MAP_ENTRY)
			return pki_decode_fail(why, "THREAD_MAP entries run past the record");
		f->thread_map.entries = pki_cursor_take(c, f->thread_map.nr * THREAD_MAP_ENTRY);
		return 0;
	case PK_RECORD_CPU_MAP:
		decode_cpu_map(c, &f->cpu_map);
		if (c->bad)
			return pki_decode_fail(why,
					       "CPU_MAP has a bad kind or runs past the record");
		return 0;
	case PK_RECORD_STAT_CONFIG:
		f->stat_config.nr = pki_cursor_u64(c);
		if (c->bad || f->stat_config.nr > pki_cursor_left(c) / 16)
			return pki_decode_fail(why, "STAT_CONFIG entries run past the record");
		f->stat_config.data = pki_cursor_take(c, f->stat_config.nr * 16);
		return 0;
	case PK_RECORD_STAT:
		f->stat.id = pki_cursor_u64(c);
		f->stat.cpu = pki_cursor_u32(c);
		f->stat.thread = pki_cursor_u32(c);
		f->stat.val = pki_cursor_u64(c);
		f->stat.ena = pki_cursor_u64(c);
		f->stat.run = pki_cursor_u64(c);
		return 0;
	case PK_RECORD_STAT_ROUND:
		f->stat_round.type = pki_cursor_u64(c);
		f->stat_round.time = pki_cursor_u64(c);
		return 0;
	case PK_RECORD_EVENT_UPDATE:
		return decode_event_update(c, f, why);
	default:
		return -ENOTSUP;
	}
}

static void decode_time_conv(struct pki_cursor *c, struct pk_record_fields *f)
{
	f->time_conv.time_shift = pki_cursor_u64(c);
	f->time_conv.time_mult = pki_cursor_u64(c);
	f->time_conv.time_zero = pki_cursor_u64(c);
	if (c->len + 8 < TIME_CONV_V2_SIZE)
		return; /* the older, three-field form */
	f->time_conv.has_cycles = true;
	f->time_conv.time_cycles = pki_cursor_u64(c);
	f->time_conv.time_mask = pki_cursor_u64(c);
	f->time_conv.cap_user_time_zero = pki_cursor_u8(c);
	f->time_conv.cap_user_time_short = pki_cursor_u8(c);
}

static int decode_data_records(const struct pk_record *rec, struct pki_cursor *c,
			       struct pk_record_fields *f, const char **why)
{
	switch (rec->type) {
	case PK_RECORD_TIME_CONV:
		decode_time_conv(c, f);
		return 0;
	case PK_RECORD_HEADER_FEATURE:
		f->feature.feat_id = pki_cursor_u64(c);
		f->feature.size = pki_cursor_left(c);
		f->feature.data = pki_cursor_take(c, f->feature.size);
		return 0;
	case PK_RECORD_COMPRESSED:
		f->compressed.size = pki_cursor_left(c);
		f->compressed.data = pki_cursor_take(c, f->compressed.size);
		return 0;
	case PK_RECORD_COMPRESSED2:
		f->compressed.size = pki_cursor_u64(c);
		if (c->bad || f->compressed.size > pki_cursor_left(c))
			return pki_decode_fail(why, "COMPRESSED2 data size exceeds the record");
		f->compressed.data = pki_cursor_take(c, f->compressed.size);
		return 0;
	case PK_RECORD_FINISHED_ROUND:
	case PK_RECORD_FINISHED_INIT:
		return 0;
	default:
		return -ENOTSUP;
	}
}

static int decode_header_records(const struct pk_record *rec, struct pki_cursor *c,
				 struct pk_record_fields *f, const char **why)
{
	switch (rec->type) {
	case PK_RECORD_HEADER_ATTR:
		return decode_attr(rec, c, f, why);
	case PK_RECORD_HEADER_EVENT_TYPE:
		decode_event_type(c, f);
		return 0;
	case PK_RECORD_HEADER_TRACING_DATA:
		f->tracing_data.size = pki_cursor_u32(c);
		return 0;
	case PK_RECORD_HEADER_BUILD_ID:
		return decode_build_id(rec, c, f, why);
	case PK_RECORD_ID_INDEX:
		return decode_id_index(rec, f, why);
	default:
		return -ENOTSUP;
	}
}

int pki_decode_perf_record(const struct pk_record *rec, struct pk_record_fields *f,
			   const char **why)
{
	struct pki_cursor c =
		pki_cursor_make((const uint8_t *)rec->raw + 8, rec->size - 8, rec->swapped);
	int err;

	err = decode_header_records(rec, &c, f, why);
	if (err == -ENOTSUP)
		err = decode_auxtrace(rec, &c, f, why);
	if (err == -ENOTSUP)
		err = decode_stat(rec, &c, f, why);
	if (err == -ENOTSUP)
		err = decode_data_records(rec, &c, f, why);
	if (!err && c.bad)
		return pki_decode_fail(why, "record is shorter than its type needs");
	return err;
}
