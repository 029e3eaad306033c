// SPDX-License-Identifier: MIT
/*
 * Fuzz the record decoders on one record at a time.  The first 40 bytes
 * make the attr (sample_type, read_format, regs masks, branch flags,
 * sample_id_all, byte order); the rest is the record, header included.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <perfkit/perfkit.h>
#include "reader_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ATTR_BYTES 40

static uint64_t take_u64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static void make_attr(struct pk_attr *a, const uint8_t *p)
{
	memset(a, 0, sizeof(*a));
	a->attr.size = sizeof(a->attr);
	a->attr.sample_type = take_u64(p) & ((PERF_SAMPLE_MAX << 1) - 1);
	a->attr.read_format = take_u64(p + 8) & 0x1f;
	a->attr.sample_regs_user = take_u64(p + 16);
	a->attr.sample_regs_intr = take_u64(p + 24);
	a->attr.branch_sample_type = p[32] & 1 ? PERF_SAMPLE_BRANCH_HW_INDEX : 0;
	if (p[32] & 2)
		a->attr.branch_sample_type |= 1ULL << 19; /* branch counters */
	a->attr.sample_id_all = !!(p[32] & 4);
	a->attr.sample_period = 1;
	pki_attr_layout(a);
}

static void consume(const struct pk_record *rec)
{
	struct pk_record_fields f;
	struct pk_sample s;
	const char *why;

	if (rec->type == PK_RECORD_SAMPLE) {
		if (!pk_sample_decode(rec, &s, &why)) {
			for (uint64_t i = 0; i < s.callchain_nr; i++)
				(void)pk_sample_callchain_at(&s, i);
			for (uint64_t i = 0; i < s.branch_nr; i++)
				(void)pk_sample_branch_at(&s, i);
		}
	} else {
		(void)pk_record_decode(rec, &f, &why);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pk_record rec = {0};
	struct pk_attr attr;
	uint16_t type;
	uint8_t *copy;

	if (size < ATTR_BYTES + 8 || size - ATTR_BYTES > UINT16_MAX)
		return 0;
	make_attr(&attr, data);
	rec.swapped = !!(data[32] & 8);
	size -= ATTR_BYTES;
	data += ATTR_BYTES;
	copy = malloc(size);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	memcpy(&type, data, 2);
	rec.type = type;
	memcpy(&rec.misc, data + 4, 2);
	rec.size = (uint16_t)size;
	rec.raw = copy;
	rec.attr = &attr;
	rec.time = PK_NO_TIME;
	consume(&rec);
	free(copy);
	return 0;
}
