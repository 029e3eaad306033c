// SPDX-License-Identifier: MIT
/*
 * pk_sample_decode() on hand-built samples: every PERF_SAMPLE_* field, in
 * both byte orders; every read_format; branch stacks with and without
 * hw_idx; WEIGHT_STRUCT; truncated and overflowing inputs.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "rec_builder.h"

#define FULL_TYPE                                                                                  \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |            \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |             \
	 PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |         \
	 PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |               \
	 PK_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION |                \
	 PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PHYS_ADDR | PK_SAMPLE_CGROUP |                        \
	 PK_SAMPLE_DATA_PAGE_SIZE | PK_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_AUX)

#define FULL_READ                                                                                  \
	(PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |                     \
	 PERF_FORMAT_TOTAL_TIME_RUNNING | PK_FORMAT_LOST)

static int decode(const struct pk_record *rec, struct pk_sample *s)
{
	const char *why = NULL;
	int err = pk_sample_decode(rec, s, &why);

	if (err == -EINVAL)
		assert_non_null(why);
	return err;
}

static struct pk_attr full_attr(void)
{
	struct pk_attr a = {0};

	a.attr.sample_type = FULL_TYPE;
	a.attr.read_format = FULL_READ;
	a.attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX;
	a.attr.sample_regs_user = 0x7;
	a.attr.sample_regs_intr = 0x401;
	return a;
}

/* Branch flags as the writer's compiler lays out the bitfield:
 * mispred:1 predicted:1 in_tx:1 abort:1 cycles:16 type:4, from bit 0 on
 * little endian, from bit 63 down on big endian. */
static uint64_t writer_flags(bool be, unsigned int mispred, unsigned int predicted,
			     unsigned int cycles, unsigned int type)
{
	if (!be)
		return mispred | predicted << 1 | (uint64_t)cycles << 4 | (uint64_t)type << 20;
	return (uint64_t)mispred << 63 | (uint64_t)predicted << 62 | (uint64_t)cycles << 44 |
	       (uint64_t)type << 40;
}

/* WEIGHT_STRUCT fields in the writer's struct order. */
static void put_weight_struct(struct rb *b, uint32_t var1, uint16_t var2, uint16_t var3)
{
	if (b->be) {
		rb_u16(b, var3);
		rb_u16(b, var2);
		rb_u32(b, var1);
	} else {
		rb_u32(b, var1);
		rb_u16(b, var2);
		rb_u16(b, var3);
	}
}

static void put_full_head(struct rb *b)
{
	rb_u64(b, 77);	     /* IDENTIFIER */
	rb_u64(b, 0x401000); /* IP */
	rb_u32(b, 10);	     /* TID */
	rb_u32(b, 11);
	rb_u64(b, 5000);   /* TIME */
	rb_u64(b, 0xdead); /* ADDR */
	rb_u64(b, 77);	   /* ID */
	rb_u64(b, 78);	   /* STREAM_ID */
	rb_u32(b, 2);	   /* CPU */
	rb_u32(b, 0);
	rb_u64(b, 1000); /* PERIOD */
	rb_u64(b, 2);	 /* READ: nr, enabled, running, 2 x {value, id, lost} */
	rb_u64(b, 100);
	rb_u64(b, 90);
	rb_u64(b, 1);
	rb_u64(b, 77);
	rb_u64(b, 0);
	rb_u64(b, 2);
	rb_u64(b, 79);
	rb_u64(b, 3);
	rb_u64(b, 3); /* CALLCHAIN */
	rb_u64(b, (uint64_t)PERF_CONTEXT_USER);
	rb_u64(b, 0x401000);
	rb_u64(b, 0x402000);
	rb_u32(b, 12); /* RAW: 4 + 12 bytes keeps the u64 alignment */
	rb_bytes(b, "\x01\x02\x03\x04tracepoint", 12);
}

static void put_full_tail(struct rb *b)
{
	rb_u64(b, 2); /* BRANCH_STACK: nr, hw_idx, entries */
	rb_u64(b, 5);
	rb_u64(b, 0x1000);
	rb_u64(b, 0x2000);
	rb_u64(b, writer_flags(b->be, 1, 0, 7, 3));
	rb_u64(b, 0x3000);
	rb_u64(b, 0x4000);
	rb_u64(b, writer_flags(b->be, 0, 1, 65535, 15));
	rb_u64(b, PERF_SAMPLE_REGS_ABI_64); /* REGS_USER */
	rb_u64(b, 0x11);
	rb_u64(b, 0x22);
	rb_u64(b, 0x33);
	rb_u64(b, 16); /* STACK_USER: size, data, dyn_size */
	rb_bytes(b, "0123456789abcdef", 16);
	rb_u64(b, 12);
	put_weight_struct(b, 0x12345678, 0xabcd, 0x1234);
	rb_u64(b, 0x68100142);		    /* DATA_SRC */
	rb_u64(b, 3);			    /* TRANSACTION */
	rb_u64(b, PERF_SAMPLE_REGS_ABI_64); /* REGS_INTR */
	rb_u64(b, 0x99);
	rb_u64(b, 0xaa);
	rb_u64(b, 0x1234000); /* PHYS_ADDR */
	rb_u64(b, 55);	      /* CGROUP */
	rb_u64(b, 4096);      /* DATA_PAGE_SIZE */
	rb_u64(b, 2097152);   /* CODE_PAGE_SIZE */
	rb_u64(b, 8);	      /* AUX */
	rb_bytes(b, "auxdata!", 8);
}

static const struct pk_record *build_full(struct rb *b, bool be, const struct pk_attr *a)
{
	rb_begin(b, be, PK_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	put_full_head(b);
	put_full_tail(b);
	return rb_end(b, a);
}

static void check_full_head(const struct pk_sample *s)
{
	struct pk_read_value v;

	assert_int_equal(s->identifier, 77);
	assert_int_equal(s->ip, 0x401000);
	assert_int_equal(s->pid, 10);
	assert_int_equal(s->tid, 11);
	assert_int_equal(s->time, 5000);
	assert_int_equal(s->addr, 0xdead);
	assert_int_equal(s->id, 77);
	assert_int_equal(s->stream_id, 78);
	assert_int_equal(s->cpu, 2);
	assert_int_equal(s->period, 1000);
	assert_int_equal(s->read.nr, 2);
	assert_int_equal(s->read.time_enabled, 100);
	assert_int_equal(s->read.time_running, 90);
	v = pk_read_value_at(&s->read, s->swapped, 1);
	assert_int_equal(v.value, 2);
	assert_int_equal(v.id, 79);
	assert_int_equal(v.lost, 3);
	assert_int_equal(s->read.one.id, 77);
	assert_int_equal(s->callchain_nr, 3);
	assert_int_equal(pk_sample_callchain_at(s, 0), (uint64_t)PERF_CONTEXT_USER);
	assert_int_equal(pk_sample_callchain_at(s, 2), 0x402000);
	assert_int_equal(s->raw_size, 12);
	assert_memory_equal(s->raw, "\x01\x02\x03\x04tracepoint", 12); /* never swapped */
}

static void check_full_tail(const struct pk_sample *s)
{
	struct pk_branch_entry e;

	assert_true(s->branch_has_hw_idx);
	assert_int_equal(s->branch_hw_idx, 5);
	assert_int_equal(s->branch_nr, 2);
	e = pk_sample_branch_at(s, 0);
	assert_int_equal(e.from, 0x1000);
	assert_int_equal(e.to, 0x2000);
	assert_int_equal(e.flags, 1 | 7 << 4 | 3 << 20);
	e = pk_sample_branch_at(s, 1);
	assert_int_equal(e.flags, 2 | 65535 << 4 | 15ull << 20);
	assert_int_equal(s->regs_user.abi, PERF_SAMPLE_REGS_ABI_64);
	assert_int_equal(s->regs_user.nr, 3);
	assert_int_equal(pk_regs_at(&s->regs_user, s->swapped, 2), 0x33);
	assert_int_equal(s->stack_user_size, 16);
	assert_memory_equal(s->stack_user, "0123456789abcdef", 16);
	assert_int_equal(s->stack_user_dyn_size, 12);
	assert_int_equal(s->weight, 0x12345678);
	assert_int_equal(s->weight_var2, 0xabcd);
	assert_int_equal(s->weight_var3, 0x1234);
	assert_int_equal(s->data_src, 0x68100142);
	assert_int_equal(s->transaction, 3);
	assert_int_equal(s->regs_intr.nr, 2);
	assert_int_equal(pk_regs_at(&s->regs_intr, s->swapped, 1), 0xaa);
	assert_int_equal(s->phys_addr, 0x1234000);
	assert_int_equal(s->cgroup, 55);
	assert_int_equal(s->data_page_size, 4096);
	assert_int_equal(s->code_page_size, 2097152);
	assert_int_equal(s->aux_size, 8);
	assert_memory_equal(s->aux, "auxdata!", 8);
}

static void full_one(bool be)
{
	struct pk_attr a = full_attr();
	struct pk_sample s;
	struct rb b;

	assert_int_equal(decode(build_full(&b, be, &a), &s), 0);
	assert_int_equal(s.swapped, be);
	check_full_head(&s);
	check_full_tail(&s);
}

static void test_full(void **state)
{
	(void)state;
	BOTH_ORDERS(full_one);
}

/* Every field is needed up to the last byte: any shorter size must fail. */
static void truncated_one(bool be)
{
	struct pk_attr a = full_attr();
	struct pk_sample s;
	struct rb b;
	uint16_t size = build_full(&b, be, &a)->size;

	for (uint16_t sz = 0; sz < size; sz++) {
		b.rec.size = sz;
		assert_int_equal(decode(&b.rec, &s), -EINVAL);
	}
}

static void test_truncated(void **state)
{
	(void)state;
	BOTH_ORDERS(truncated_one);
}

static void read_format_case(bool be, uint64_t format)
{
	struct pk_attr a = {0};
	unsigned int nr = (format & PERF_FORMAT_GROUP) ? 3 : 1;
	struct pk_sample s;
	struct rb b;

	a.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN;
	a.attr.read_format = format;
	rb_begin(&b, be, PK_RECORD_SAMPLE, 0);
	rb_u64(&b, 0x10);
	if (format & PERF_FORMAT_GROUP)
		rb_u64(&b, nr);
	else
		rb_u64(&b, 1000);
	if (format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		rb_u64(&b, 500);
	if (format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		rb_u64(&b, 400);
	for (unsigned int i = 0; i < nr; i++) {
		if (format & PERF_FORMAT_GROUP)
			rb_u64(&b, 1000 + i);
		if (format & PERF_FORMAT_ID)
			rb_u64(&b, 50 + i);
		if (format & PK_FORMAT_LOST)
			rb_u64(&b, 7 + i);
	}
	rb_u64(&b, 1); /* callchain after the read block */
	rb_u64(&b, 0xc0ffee);
	assert_int_equal(decode(rb_end(&b, &a), &s), 0);
	assert_int_equal(s.read.nr, nr);
	assert_int_equal(s.read.format, format);
	assert_int_equal(s.read.time_enabled, (format & PERF_FORMAT_TOTAL_TIME_ENABLED) ? 500 : 0);
	assert_int_equal(s.read.time_running, (format & PERF_FORMAT_TOTAL_TIME_RUNNING) ? 400 : 0);
	for (unsigned int i = 0; i < nr; i++) {
		struct pk_read_value v = pk_read_value_at(&s.read, s.swapped, i);

		assert_int_equal(v.value, 1000 + i);
		assert_int_equal(v.id, (format & PERF_FORMAT_ID) ? 50 + i : 0);
		assert_int_equal(v.lost, (format & PK_FORMAT_LOST) ? 7 + i : 0);
	}
	assert_int_equal(s.callchain_nr, 1);
	assert_int_equal(pk_sample_callchain_at(&s, 0), 0xc0ffee);
	b.rec.size -= 16; /* no callchain: the read block must not take it */
	assert_int_equal(decode(&b.rec, &s), -EINVAL);
}

static void test_read_formats(void **state)
{
	(void)state;
	for (uint64_t format = 0; format < 32; format++) {
		read_format_case(false, format);
		read_format_case(true, format);
	}
}

static void branch_case(bool be, bool hw_idx)
{
	struct pk_attr a = {0};
	struct pk_branch_entry e;
	struct pk_sample s;
	struct rb b;

	a.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_PERIOD;
	a.attr.branch_sample_type =
		PERF_SAMPLE_BRANCH_ANY | (hw_idx ? PERF_SAMPLE_BRANCH_HW_INDEX : 0);
	rb_begin(&b, be, PK_RECORD_SAMPLE, 0);
	rb_u64(&b, 0x10);
	rb_u64(&b, 4000); /* PERIOD comes before the branch stack */
	rb_u64(&b, 1);
	if (hw_idx)
		rb_u64(&b, (uint64_t)-1);
	rb_u64(&b, 0xa);
	rb_u64(&b, 0xb);
	rb_u64(&b, writer_flags(be, 0, 1, 20, 2));
	assert_int_equal(decode(rb_end(&b, &a), &s), 0);
	assert_int_equal(s.period, 4000);
	assert_int_equal(s.branch_has_hw_idx, hw_idx);
	assert_int_equal(s.branch_hw_idx, hw_idx ? (uint64_t)-1 : 0);
	assert_int_equal(s.branch_nr, 1);
	e = pk_sample_branch_at(&s, 0);
	assert_int_equal(e.from, 0xa);
	assert_int_equal(e.to, 0xb);
	assert_int_equal(e.flags, 2 | 20 << 4 | 2 << 20);
	/* an entry cut short */
	b.rec.size -= 8;
	assert_int_equal(decode(&b.rec, &s), -EINVAL);
}

static void counters_one(bool be)
{
	struct pk_attr a = {0};
	struct pk_sample s;
	struct rb b;

	a.attr.sample_type = PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_DATA_SRC;
	a.attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PK_SAMPLE_BRANCH_COUNTERS;
	rb_begin(&b, be, PK_RECORD_SAMPLE, 0);
	rb_u64(&b, 1);
	rb_u64(&b, 0xa);
	rb_u64(&b, 0xb);
	rb_u64(&b, 0);
	rb_u64(&b, 0x3); /* counters of entry 0 */
	rb_u64(&b, 0x77);
	assert_int_equal(decode(rb_end(&b, &a), &s), 0);
	assert_non_null(s.branch_counters);
	assert_int_equal(pk_u64_at(s.branch_counters, s.swapped, 0), 3);
	assert_int_equal(s.data_src, 0x77);
	b.rec.size -= 16;
	assert_int_equal(decode(&b.rec, &s), -EINVAL);
}

static void test_branch(void **state)
{
	(void)state;
	branch_case(false, false);
	branch_case(true, false);
	branch_case(false, true);
	branch_case(true, true);
	BOTH_ORDERS(counters_one);
}

static void weight_case(bool be, bool as_struct)
{
	struct pk_attr a = {0};
	struct pk_sample s;
	struct rb b;

	a.attr.sample_type = PERF_SAMPLE_IP |
			     (as_struct ? PK_SAMPLE_WEIGHT_STRUCT : PERF_SAMPLE_WEIGHT) |
			     PERF_SAMPLE_DATA_SRC;
	rb_begin(&b, be, PK_RECORD_SAMPLE, 0);
	rb_u64(&b, 0x10);
	if (as_struct)
		put_weight_struct(&b, 225, 0x1, 0xfffe);
	else
		rb_u64(&b, 0x123456789ull);
	rb_u64(&b, 0x42);
	assert_int_equal(decode(rb_end(&b, &a), &s), 0);
	if (as_struct) {
		assert_int_equal(s.weight, 225);
		assert_int_equal(s.weight_var2, 1);
		assert_int_equal(s.weight_var3, 0xfffe);
	} else {
		assert_int_equal(s.weight, 0x123456789ull);
	}
	assert_int_equal(s.data_src, 0x42);
}

static void test_weight(void **state)
{
	(void)state;
	weight_case(false, false);
	weight_case(true, false);
	weight_case(false, true);
	weight_case(true, true);
}

/* Counts and sizes read from the file that would overflow or run past the
 * record must be rejected, never multiplied or followed. */
static void expect_rejected(bool be, uint64_t type, uint64_t value, const struct pk_attr *base)
{
	struct pk_attr a = *base;
	struct pk_sample s;
	struct rb b;

	a.attr.sample_type = type;
	rb_begin(&b, be, PK_RECORD_SAMPLE, 0);
	if (type & PERF_SAMPLE_RAW)
		rb_u32(&b, (uint32_t)value);
	else
		rb_u64(&b, value);
	for (int i = 0; i < 8; i++)
		rb_u64(&b, 0);
	assert_int_equal(decode(rb_end(&b, &a), &s), -EINVAL);
}

static void overflow_one(bool be)
{
	struct pk_attr a = {0};

	expect_rejected(be, PERF_SAMPLE_CALLCHAIN, 1ull << 60, &a);
	expect_rejected(be, PERF_SAMPLE_CALLCHAIN, UINT64_MAX, &a);
	expect_rejected(be, PERF_SAMPLE_BRANCH_STACK, 1ull << 60, &a);
	expect_rejected(be, PERF_SAMPLE_BRANCH_STACK, 0x0aaaaaaaaaaaaaabull, &a); /* *24 wraps */
	expect_rejected(be, PERF_SAMPLE_RAW, UINT32_MAX, &a);
	expect_rejected(be, PERF_SAMPLE_STACK_USER, 1ull << 63, &a);
	expect_rejected(be, PERF_SAMPLE_AUX, UINT64_MAX, &a);
	a.attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	expect_rejected(be, PERF_SAMPLE_READ, 1ull << 62, &a);
	a.attr.sample_regs_user = UINT64_MAX; /* 64 regs do not fit */
	expect_rejected(be, PERF_SAMPLE_REGS_USER, PERF_SAMPLE_REGS_ABI_64, &a);
}

static void test_overflow(void **state)
{
	(void)state;
	BOTH_ORDERS(overflow_one);
}

static void optional_one(bool be)
{
	struct pk_attr a = {0};
	struct pk_sample s;
	struct rb b;

	/* REGS_USER with abi 0 has no registers; STACK_USER of size 0 has no
	 * dyn_size; a fixed period comes from the attr */
	a.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
			     PERF_SAMPLE_PHYS_ADDR;
	a.attr.sample_regs_user = 0xff;
	a.attr.sample_period = 100003;
	rb_begin(&b, be, PK_RECORD_SAMPLE, 0);
	rb_u64(&b, 0x10);
	rb_u64(&b, PERF_SAMPLE_REGS_ABI_NONE);
	rb_u64(&b, 0);
	rb_u64(&b, 0xabc000);
	assert_int_equal(decode(rb_end(&b, &a), &s), 0);
	assert_int_equal(s.regs_user.abi, 0);
	assert_int_equal(s.regs_user.nr, 0);
	assert_int_equal(s.stack_user_size, 0);
	assert_int_equal(s.phys_addr, 0xabc000);
	assert_int_equal(s.period, 100003);
	assert_int_equal(s.time, PK_NO_TIME);
}

static void test_optional(void **state)
{
	(void)state;
	BOTH_ORDERS(optional_one);
}

static void sample_id_one(bool be)
{
	struct pk_sample_id id;
	struct rb b;

	rb_begin(&b, be, PK_RECORD_LOST_SAMPLES, 0);
	rb_u64(&b, 3);
	rb_u32(&b, 100);
	rb_u32(&b, 101);
	rb_u64(&b, 123456789);
	rb_u64(&b, 88);
	rb_u32(&b, 7);
	rb_u32(&b, 0);
	rb_end(&b, NULL);
	assert_int_equal(pk_sample_id_decode(&b.rec,
					     PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
						     PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
						     PERF_SAMPLE_IP,
					     &id),
			 0);
	assert_int_equal(id.pid, 100);
	assert_int_equal(id.tid, 101);
	assert_int_equal(id.time, 123456789);
	assert_int_equal(id.stream_id, 88);
	assert_int_equal(id.cpu, 7);
	assert_int_equal(id.present, PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_STREAM_ID |
					     PERF_SAMPLE_CPU);
	b.rec.size = 16;
	assert_int_equal(pk_sample_id_decode(&b.rec, PERF_SAMPLE_TID | PERF_SAMPLE_TIME, &id),
			 -EINVAL);
}

static void test_sample_id(void **state)
{
	(void)state;
	BOTH_ORDERS(sample_id_one);
}

static void test_not_a_sample(void **state)
{
	struct pk_attr a = {0};
	struct pk_sample s;
	struct rb b;

	(void)state;
	rb_begin(&b, false, PK_RECORD_SAMPLE, 0);
	rb_u64(&b, 0);
	assert_int_equal(pk_sample_decode(rb_end(&b, NULL), &s, NULL), -ENOTSUP);
	rb_begin(&b, false, PK_RECORD_MMAP, 0);
	assert_int_equal(pk_sample_decode(rb_end(&b, &a), &s, NULL), -ENOTSUP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full),	     cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_read_formats), cmocka_unit_test(test_branch),
		cmocka_unit_test(test_weight),	     cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_optional),     cmocka_unit_test(test_sample_id),
		cmocka_unit_test(test_not_a_sample),
	};

	if (!host_is_little_endian())
		return 77;
	return cmocka_run_group_tests_name("samples", tests, NULL, NULL);
}
