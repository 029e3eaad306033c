// SPDX-License-Identifier: MIT
/*
 * PERF_RECORD_SAMPLE decoding.  The fields come in the kernel's output
 * order (perf_event.h, "PERF_RECORD_SAMPLE"); each is read with its own
 * width through a bounded cursor, so u32 pairs and u16s come out right in
 * byte-swapped files and nothing is read past header.size.  Every count is
 * checked against the bytes left before it is multiplied into a size.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <perfkit/sample.h>
#include <perfkit/reader.h>
#include "cursor.h"

#define READ_GROUP_MAX_WORDS 3 /* value, id, lost */

static int fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EINVAL;
}

uint64_t pk_u64_at(const void *base, bool swapped, uint64_t i)
{
	return pki_load64((const uint8_t *)base + 8 * i, swapped);
}

/* u64 words of one value of a group read */
static unsigned int read_value_words(uint64_t format)
{
	return 1 + !!(format & PERF_FORMAT_ID) + !!(format & PK_FORMAT_LOST);
}

int pk_read_decode(const void *p, size_t len, uint64_t format, bool swapped, struct pk_read *out)
{
	struct pki_cursor c = pki_cursor_make(p, len, swapped);
	unsigned int words = read_value_words(format);

	memset(out, 0, sizeof(*out));
	out->format = format;
	if (format & PERF_FORMAT_GROUP) {
		out->nr = pki_cursor_u64(&c);
		if (format & PERF_FORMAT_TOTAL_TIME_ENABLED)
			out->time_enabled = pki_cursor_u64(&c);
		if (format & PERF_FORMAT_TOTAL_TIME_RUNNING)
			out->time_running = pki_cursor_u64(&c);
		/* nr is untrusted: compare before multiplying */
		if (c.bad || out->nr > pki_cursor_left(&c) / (8 * words))
			return -EINVAL;
		out->group = pki_cursor_take(&c, out->nr * words * 8);
		if (out->nr)
			out->one = pk_read_value_at(out, swapped, 0);
	} else {
		out->nr = 1;
		out->one.value = pki_cursor_u64(&c);
		if (format & PERF_FORMAT_TOTAL_TIME_ENABLED)
			out->time_enabled = pki_cursor_u64(&c);
		if (format & PERF_FORMAT_TOTAL_TIME_RUNNING)
			out->time_running = pki_cursor_u64(&c);
		if (format & PERF_FORMAT_ID)
			out->one.id = pki_cursor_u64(&c);
		if (format & PK_FORMAT_LOST)
			out->one.lost = pki_cursor_u64(&c);
	}
	if (c.bad || c.pos > INT_MAX)
		return -EINVAL;
	return (int)c.pos;
}

struct pk_read_value pk_read_value_at(const struct pk_read *rd, bool swapped, uint64_t i)
{
	struct pk_read_value v = {0};
	unsigned int words = read_value_words(rd->format);
	uint64_t w;

	if (i >= rd->nr)
		return v;
	if (!(rd->format & PERF_FORMAT_GROUP) || !rd->group)
		return i == 0 ? rd->one : v;
	w = i * words;
	v.value = pk_u64_at(rd->group, swapped, w++);
	if (rd->format & PERF_FORMAT_ID)
		v.id = pk_u64_at(rd->group, swapped, w++);
	if (rd->format & PK_FORMAT_LOST)
		v.lost = pk_u64_at(rd->group, swapped, w);
	return v;
}

uint64_t pk_sample_callchain_at(const struct pk_sample *s, uint64_t i)
{
	return i < s->callchain_nr ? pk_u64_at(s->callchain, s->swapped, i) : 0;
}

uint64_t pk_regs_at(const struct pk_regs *regs, bool swapped, uint32_t i)
{
	return i < regs->nr ? pk_u64_at(regs->regs, swapped, i) : 0;
}

/*
 * Branch flags are a bitfield: a big-endian writer allocates it from the
 * most significant bit down.  Move each field to its little-endian place.
 */
static uint64_t branch_flags_from_other_order(uint64_t v)
{
	static const unsigned char widths[] = {1, 1, 1, 1, 16, 4, 2, 4, 3, 31};
	unsigned int off = 0;
	uint64_t out = 0;

	for (size_t k = 0; k < sizeof(widths); k++) {
		unsigned int w = widths[k];
		uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;

		out |= ((v >> (64 - off - w)) & mask) << off;
		off += w;
	}
	return out;
}

struct pk_branch_entry pk_sample_branch_at(const struct pk_sample *s, uint64_t i)
{
	struct pk_branch_entry e = {0};

	if (i >= s->branch_nr)
		return e;
	e.from = pk_u64_at(s->branches, s->swapped, 3 * i);
	e.to = pk_u64_at(s->branches, s->swapped, 3 * i + 1);
	e.flags = pk_u64_at(s->branches, s->swapped, 3 * i + 2);
	if (s->swapped)
		e.flags = branch_flags_from_other_order(e.flags);
	return e;
}

int pk_sample_id_decode(const struct pk_record *rec, uint64_t sample_type, struct pk_sample_id *out)
{
	static const uint64_t bits[] = {PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
					PERF_SAMPLE_ID,	 PERF_SAMPLE_STREAM_ID,
					PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER};
	struct pki_cursor c;
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	out->time = PK_NO_TIME;
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		n += !!(sample_type & bits[i]);
	if (rec->size < 8 + 8 * n)
		return -EINVAL;
	c = pki_cursor_make((const uint8_t *)rec->raw + rec->size - 8 * n, 8 * n, rec->swapped);
	if (sample_type & PERF_SAMPLE_TID) {
		out->pid = pki_cursor_u32(&c);
		out->tid = pki_cursor_u32(&c);
	}
	if (sample_type & PERF_SAMPLE_TIME)
		out->time = pki_cursor_u64(&c);
	if (sample_type & PERF_SAMPLE_ID)
		out->id = pki_cursor_u64(&c);
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		out->stream_id = pki_cursor_u64(&c);
	if (sample_type & PERF_SAMPLE_CPU) {
		out->cpu = pki_cursor_u32(&c);
		out->res = pki_cursor_u32(&c);
	}
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		out->id = pki_cursor_u64(&c);
	out->present =
		sample_type & (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			       PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER);
	return c.bad ? -EINVAL : 0;
}

/* IDENTIFIER .. PERIOD: fixed-size fields. */
static void decode_fixed(struct pki_cursor *c, uint64_t t, struct pk_sample *s)
{
	if (t & PERF_SAMPLE_IDENTIFIER)
		s->identifier = s->id = pki_cursor_u64(c);
	if (t & PERF_SAMPLE_IP)
		s->ip = pki_cursor_u64(c);
	if (t & PERF_SAMPLE_TID) {
		s->pid = pki_cursor_u32(c);
		s->tid = pki_cursor_u32(c);
	}
	if (t & PERF_SAMPLE_TIME)
		s->time = pki_cursor_u64(c);
	if (t & PERF_SAMPLE_ADDR)
		s->addr = pki_cursor_u64(c);
	if (t & PERF_SAMPLE_ID)
		s->id = pki_cursor_u64(c);
	if (t & PERF_SAMPLE_STREAM_ID)
		s->stream_id = pki_cursor_u64(c);
	if (t & PERF_SAMPLE_CPU) {
		s->cpu = pki_cursor_u32(c);
		s->res = pki_cursor_u32(c);
	}
	if (t & PERF_SAMPLE_PERIOD)
		s->period = pki_cursor_u64(c);
}

/* A u64 count of u64-word elements of 'words' each: check, then take. */
static const void *take_array(struct pki_cursor *c, uint64_t *nr, unsigned int words)
{
	*nr = pki_cursor_u64(c);
	if (c->bad || *nr > pki_cursor_left(c) / (8 * words)) {
		c->bad = true;
		return NULL;
	}
	return pki_cursor_take(c, *nr * words * 8);
}

static void decode_regs(struct pki_cursor *c, uint64_t mask, struct pk_regs *r)
{
	r->mask = mask;
	r->abi = pki_cursor_u64(c);
	if (!r->abi)
		return;
	r->nr = (uint32_t)__builtin_popcountll(mask);
	r->regs = pki_cursor_take(c, (size_t)r->nr * 8);
}

static int decode_read(struct pki_cursor *c, const struct perf_event_attr *attr,
		       struct pk_sample *s, const char **why)
{
	int n = pk_read_decode(c->base + c->pos, pki_cursor_left(c), attr->read_format, c->swapped,
			       &s->read);

	if (n < 0)
		return fail(why, "read values run past the end of the sample");
	pki_cursor_skip(c, (size_t)n);
	return 0;
}

static int decode_callchain_raw(struct pki_cursor *c, uint64_t t, struct pk_sample *s,
				const char **why)
{
	if (t & PERF_SAMPLE_CALLCHAIN) {
		s->callchain = take_array(c, &s->callchain_nr, 1);
		if (c->bad)
			return fail(why, "callchain runs past the end of the sample");
	}
	if (t & PERF_SAMPLE_RAW) {
		/* the size includes the padding that aligns the sample again */
		s->raw_size = pki_cursor_u32(c);
		s->raw = pki_cursor_take(c, s->raw_size);
		if (c->bad)
			return fail(why, "raw data runs past the end of the sample");
	}
	return 0;
}

static int decode_branches(struct pki_cursor *c, const struct perf_event_attr *attr,
			   struct pk_sample *s, const char **why)
{
	uint64_t nr;

	nr = pki_cursor_u64(c);
	if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) {
		s->branch_has_hw_idx = true;
		s->branch_hw_idx = pki_cursor_u64(c);
	}
	if (c->bad || nr > pki_cursor_left(c) / 24)
		return fail(why, "branch stack runs past the end of the sample");
	s->branch_nr = nr;
	s->branches = pki_cursor_take(c, nr * 24);
	if (attr->branch_sample_type & PK_SAMPLE_BRANCH_COUNTERS) {
		/* nr <= left / 24 above, so nr * 8 cannot overflow */
		s->branch_counters = pki_cursor_take(c, nr * 8);
		if (c->bad)
			return fail(why, "branch counters run past the end of the sample");
	}
	return 0;
}

static int decode_stack(struct pki_cursor *c, struct pk_sample *s, const char **why)
{
	s->stack_user_size = pki_cursor_u64(c);
	if (s->stack_user_size) {
		if (s->stack_user_size > pki_cursor_left(c))
			return fail(why, "user stack runs past the end of the sample");
		s->stack_user = pki_cursor_take(c, s->stack_user_size);
		s->stack_user_dyn_size = pki_cursor_u64(c);
	}
	if (c->bad)
		return fail(why, "user stack runs past the end of the sample");
	return 0;
}

static void decode_weight(struct pki_cursor *c, uint64_t t, struct pk_sample *s)
{
	uint64_t w;

	if (!(t & (PERF_SAMPLE_WEIGHT | PK_SAMPLE_WEIGHT_STRUCT)))
		return;
	/*
	 * WEIGHT_STRUCT is a union with a u64: the writer's struct order
	 * (var1 u32, var2 u16, var3 u16 on little endian, reversed on big
	 * endian) always makes var1 the low 32 bits of the u64, var3 the top
	 * 16.  Reading the u64 in the file's order gives every field.
	 */
	w = pki_cursor_u64(c);
	if (t & PK_SAMPLE_WEIGHT_STRUCT) {
		s->weight = (uint32_t)w;
		s->weight_var2 = (uint16_t)(w >> 32);
		s->weight_var3 = (uint16_t)(w >> 48);
	} else {
		s->weight = w;
	}
}

/* Fields after BRANCH_STACK. */
static int decode_tail(struct pki_cursor *c, const struct perf_event_attr *attr,
		       struct pk_sample *s, const char **why)
{
	uint64_t t = attr->sample_type;

	if (t & PERF_SAMPLE_REGS_USER) {
		decode_regs(c, attr->sample_regs_user, &s->regs_user);
		if (c->bad)
			return fail(why, "user registers run past the end of the sample");
	}
	if ((t & PERF_SAMPLE_STACK_USER) && decode_stack(c, s, why))
		return -EINVAL;
	decode_weight(c, t, s);
	if (t & PERF_SAMPLE_DATA_SRC)
		s->data_src = pki_cursor_u64(c);
	if (t & PERF_SAMPLE_TRANSACTION)
		s->transaction = pki_cursor_u64(c);
	if (t & PERF_SAMPLE_REGS_INTR)
		decode_regs(c, attr->sample_regs_intr, &s->regs_intr);
	if (t & PERF_SAMPLE_PHYS_ADDR)
		s->phys_addr = pki_cursor_u64(c);
	if (t & PK_SAMPLE_CGROUP)
		s->cgroup = pki_cursor_u64(c);
	if (t & PK_SAMPLE_DATA_PAGE_SIZE)
		s->data_page_size = pki_cursor_u64(c);
	if (t & PK_SAMPLE_CODE_PAGE_SIZE)
		s->code_page_size = pki_cursor_u64(c);
	if (c->bad)
		return fail(why, "sample is shorter than its sample_type says");
	if (t & PERF_SAMPLE_AUX) {
		s->aux_size = pki_cursor_u64(c);
		if (c->bad || s->aux_size > pki_cursor_left(c))
			return fail(why, "aux data runs past the end of the sample");
		s->aux = pki_cursor_take(c, s->aux_size);
	}
	return 0;
}

int pk_sample_decode(const struct pk_record *rec, struct pk_sample *s, const char **why)
{
	const struct perf_event_attr *attr;
	struct pki_cursor c;
	uint64_t t;

	if (rec->type != PK_RECORD_SAMPLE || !rec->attr)
		return -ENOTSUP;
	if (rec->size < 8)
		return fail(why, "sample is shorter than its header");
	attr = &rec->attr->attr;
	t = attr->sample_type;
	memset(s, 0, sizeof(*s));
	s->type = t;
	s->misc = rec->misc;
	s->swapped = rec->swapped;
	s->time = PK_NO_TIME;
	c = pki_cursor_make((const uint8_t *)rec->raw + 8, rec->size - 8, rec->swapped);

	decode_fixed(&c, t, s);
	/* a fixed period is not written into each sample: take the attr's */
	if (!(t & PERF_SAMPLE_PERIOD) && !attr->freq)
		s->period = attr->sample_period;
	if (c.bad)
		return fail(why, "sample is shorter than its sample_type says");
	if ((t & PERF_SAMPLE_READ) && decode_read(&c, attr, s, why))
		return -EINVAL;
	if (decode_callchain_raw(&c, t, s, why))
		return -EINVAL;
	if ((t & PERF_SAMPLE_BRANCH_STACK) && decode_branches(&c, attr, s, why))
		return -EINVAL;
	return decode_tail(&c, attr, s, why);
}
