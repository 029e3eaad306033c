// SPDX-License-Identifier: MIT
/*
 * pk_record_decode() on the record types perf writes itself (64..83), in
 * both byte orders, including the layouts that changed across versions.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "rec_builder.h"

int test_perf_records(void);

static int decode(const struct pk_record *rec, struct pk_record_fields *f)
{
	const char *why = NULL;
	int err = pk_record_decode(rec, f, &why);

	if (err == -EINVAL)
		assert_non_null(why);
	return err;
}

static void attr_one(bool be)
{
	struct pk_record_fields f;
	struct rb b;

	rb_begin(&b, be, PK_RECORD_HEADER_ATTR, 0);
	rb_u32(&b, PERF_TYPE_SOFTWARE);
	rb_u32(&b, 64); /* attr size VER0 */
	rb_u64(&b, PERF_COUNT_SW_CPU_CLOCK);
	rb_u64(&b, 4000); /* sample_period */
	rb_u64(&b, PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	rb_u64(&b, 0); /* read_format */
	rb_u64(&b, 0); /* flags */
	rb_u32(&b, 0);
	rb_u32(&b, 0);
	rb_u64(&b, 0);	/* config1 */
	rb_u64(&b, 17); /* id 1 */
	rb_u64(&b, 18); /* id 2 */
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.attr.attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(f.attr.attr.sample_period, 4000);
	assert_int_equal(f.attr.attr.sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	assert_int_equal(f.attr.attr_size, 64);
	assert_int_equal(f.attr.nr_ids, 2);
	assert_int_equal(pk_u64_at(f.attr.ids, f.swapped, 1), 18);
	/* an attr size larger than the record */
	b.buf[be ? 15 : 12] = 200;
	assert_int_equal(decode(&b.rec, &f), -EINVAL);
}

static void test_attr(void **state)
{
	(void)state;
	BOTH_ORDERS(attr_one);
}

static void header_types_one(bool be)
{
	static const uint8_t id[20] = {0x63, 0x5d, 0x9e, 0x4f, 0x68};
	struct pk_record_fields f;
	struct rb b;

	rb_begin(&b, be, PK_RECORD_HEADER_EVENT_TYPE, 0);
	rb_u64(&b, 41);
	rb_bytes(&b, "cache-references", 16); /* old perf: no NUL */
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.event_type.event_id, 41);
	assert_string_equal(f.event_type.name, "cache-references");

	rb_begin(&b, be, PK_RECORD_HEADER_TRACING_DATA, 0);
	rb_u32(&b, 12345);
	rb_u32(&b, 0);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.tracing_data.size, 12345);

	rb_begin(&b, be, PK_RECORD_HEADER_BUILD_ID, PK_MISC_BUILD_ID_SIZE | 1);
	rb_u32(&b, (uint32_t)-1);
	rb_bytes(&b, id, 20);
	rb_u8(&b, 5);
	rb_bytes(&b, "\0\0\0", 3);
	rb_str(&b, "[kernel.kallsyms]");
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.build_id.pid, -1);
	assert_int_equal(f.build_id.build_id.size, 5);
	assert_memory_equal(f.build_id.build_id.data, id, 5);
	assert_string_equal(f.build_id.filename, "[kernel.kallsyms]");
	b.rec.misc = 1; /* without the size bit: 20 bytes */
	assert_int_equal(decode(&b.rec, &f), 0);
	assert_int_equal(f.build_id.build_id.size, 20);
	b.rec.size -= 24; /* the file name loses its NUL */
	assert_int_equal(decode(&b.rec, &f), -EINVAL);

	rb_begin(&b, be, PK_RECORD_FINISHED_ROUND, 0);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	rb_begin(&b, be, PK_RECORD_FINISHED_INIT, 0);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
}

static void test_header_types(void **state)
{
	(void)state;
	BOTH_ORDERS(header_types_one);
}

static void id_index_one(bool be)
{
	struct pk_id_index_entry e;
	struct pk_record_fields f;
	struct rb b;

	for (unsigned int words = 4; words <= 6; words += 2) {
		rb_begin(&b, be, PK_RECORD_ID_INDEX, 0);
		rb_u64(&b, 2);
		for (uint64_t i = 0; i < 2; i++) {
			for (unsigned int w = 0; w < words; w++)
				rb_u64(&b, 100 * (i + 1) + w);
		}
		assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
		assert_int_equal(f.id_index.nr, 2);
		assert_int_equal(f.id_index.entry_words, words);
		assert_int_equal(pk_id_index_entry(&b.rec, 1, &e), 0);
		assert_int_equal(e.id, 200);
		assert_int_equal(e.idx, 201);
		assert_int_equal(e.cpu, 202);
		assert_int_equal(e.tid, 203);
		assert_int_equal(e.machine_pid, words == 6 ? 204 : 0);
		assert_int_equal(e.vcpu, words == 6 ? 205 : 0);
		assert_int_equal(pk_id_index_entry(&b.rec, 2, &e), -EINVAL);
	}
	/* nr too large for the record */
	rb_begin(&b, be, PK_RECORD_ID_INDEX, 0);
	rb_u64(&b, 1ull << 60);
	rb_u64(&b, 1);
	assert_int_equal(decode(rb_end(&b, NULL), &f), -EINVAL);
	assert_int_equal(pk_id_index_entry(&b.rec, 0, &e), -EINVAL);
}

static void test_id_index(void **state)
{
	(void)state;
	BOTH_ORDERS(id_index_one);
}

static void auxtrace_error_head(struct rb *b, bool be, uint32_t fmt)
{
	rb_begin(b, be, PK_RECORD_AUXTRACE_ERROR, 0);
	rb_u32(b, 1);
	rb_u32(b, 2);
	rb_u32(b, 3);
	rb_u32(b, 4);
	rb_u32(b, 5);
	rb_u32(b, fmt);
	rb_u64(b, 0xfeed);
}

static void put_msg(struct rb *b, const char *msg)
{
	uint8_t m[64] = {0};

	memcpy(m, msg, strlen(msg));
	rb_bytes(b, m, 64);
}

static void auxtrace_one(bool be)
{
	struct pk_record_fields f;
	struct rb b;

	rb_begin(&b, be, PK_RECORD_AUXTRACE_INFO, 0);
	rb_u32(&b, 1);
	rb_u32(&b, 0);
	rb_u64(&b, 7);
	rb_u64(&b, 8);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.auxtrace_info.type, 1);
	assert_int_equal(f.auxtrace_info.nr_priv, 2);
	assert_int_equal(pk_u64_at(f.auxtrace_info.priv, f.swapped, 1), 8);

	rb_begin(&b, be, PK_RECORD_AUXTRACE, 0);
	rb_u64(&b, 0x2fd0);
	rb_u64(&b, 0x10);
	rb_u64(&b, 0xbc4cd519a6ull);
	rb_u32(&b, 1);
	rb_u32(&b, 3174);
	rb_u32(&b, 2);
	rb_u32(&b, 0);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.auxtrace.size, 0x2fd0);
	assert_int_equal(f.auxtrace.offset, 0x10);
	assert_int_equal(f.auxtrace.reference, 0xbc4cd519a6ull);
	assert_int_equal(f.auxtrace.idx, 1);
	assert_int_equal(f.auxtrace.tid, 3174);
	assert_int_equal(f.auxtrace.cpu, 2);

	auxtrace_error_head(&b, be, 0);
	put_msg(&b, "old format");
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.auxtrace_error.fmt, 0);
	assert_int_equal(f.auxtrace_error.ip, 0xfeed);
	assert_int_equal(f.auxtrace_error.time, 0);
	assert_string_equal(f.auxtrace_error.msg, "old format");

	auxtrace_error_head(&b, be, 1);
	rb_u64(&b, 999);
	put_msg(&b, "with time");
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.auxtrace_error.time, 999);
	assert_string_equal(f.auxtrace_error.msg, "with time");
	assert_int_equal(f.auxtrace_error.pid, 4);

	auxtrace_error_head(&b, be, 2);
	rb_u64(&b, 999);
	put_msg(&b, "with vcpu");
	rb_u32(&b, 66);
	rb_u32(&b, 67);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.auxtrace_error.machine_pid, 66);
	assert_int_equal(f.auxtrace_error.vcpu, 67);
	b.rec.size -= 8; /* format 2 without its last fields */
	assert_int_equal(decode(&b.rec, &f), -EINVAL);
}

static void test_auxtrace(void **state)
{
	(void)state;
	BOTH_ORDERS(auxtrace_one);
}

static void thread_map_one(bool be)
{
	struct pk_thread_map_entry e;
	struct pk_record_fields f;
	uint8_t comm[16];
	struct rb b;

	memset(comm, 'x', sizeof(comm)); /* 16 chars, no NUL */
	rb_begin(&b, be, PK_RECORD_THREAD_MAP, 0);
	rb_u64(&b, 2);
	rb_u64(&b, 22943);
	rb_bytes(&b, "perf\0\0\0\0\0\0\0\0\0\0\0\0", 16);
	rb_u64(&b, (uint64_t)-1);
	rb_bytes(&b, comm, 16);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.thread_map.nr, 2);
	assert_int_equal(pk_thread_map_entry(&b.rec, 0, &e), 0);
	assert_int_equal(e.pid, 22943);
	assert_string_equal(e.comm, "perf");
	assert_int_equal(pk_thread_map_entry(&b.rec, 1, &e), 0);
	assert_int_equal((int64_t)e.pid, -1);
	assert_string_equal(e.comm, "xxxxxxxxxxxxxxxx");
	assert_int_equal(pk_thread_map_entry(&b.rec, 2, &e), -EINVAL);
	b.rec.size -= 8;
	assert_int_equal(decode(&b.rec, &f), -EINVAL);
	assert_int_equal(pk_thread_map_entry(&b.rec, 1, &e), -EINVAL);
}

static void test_thread_map(void **state)
{
	(void)state;
	BOTH_ORDERS(thread_map_one);
}

static void check_cpus(const struct pk_cpu_map_data *m, bool swapped, const int32_t *want,
		       uint32_t n)
{
	assert_int_equal(m->nr, n);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(pk_cpu_map_at(m, swapped, i), want[i]);
	assert_int_equal(pk_cpu_map_at(m, swapped, n), -1);
}

static void cpu_map_one(bool be)
{
	static const int32_t list[] = {0, 2, 5};
	static const int32_t mask[] = {1, 3, 33};
	static const int32_t range[] = {-1, 4, 5, 6};
	struct pk_record_fields f;
	struct rb b;

	rb_begin(&b, be, PK_RECORD_CPU_MAP, 0);
	rb_u16(&b, PK_CPU_MAP_CPUS);
	rb_u16(&b, 3);
	rb_u16(&b, 0);
	rb_u16(&b, 2);
	rb_u16(&b, 5);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	check_cpus(&f.cpu_map, f.swapped, list, 3);
	b.rec.size -= 2;
	assert_int_equal(decode(&b.rec, &f), -EINVAL);

	/* 32-bit mask words: bits 1, 3 in word 0, bit 1 in word 1 */
	rb_begin(&b, be, PK_RECORD_CPU_MAP, 0);
	rb_u16(&b, PK_CPU_MAP_MASK);
	rb_u16(&b, 2);
	rb_u16(&b, 4);
	rb_u32(&b, 0xa);
	rb_u32(&b, 0x2);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.cpu_map.long_size, 4);
	check_cpus(&f.cpu_map, f.swapped, mask, 3);

	/* 64-bit mask words, after 4 bytes of legacy padding */
	rb_begin(&b, be, PK_RECORD_CPU_MAP, 0);
	rb_u16(&b, PK_CPU_MAP_MASK);
	rb_u16(&b, 1);
	rb_u16(&b, 8);
	rb_u32(&b, 0);
	rb_u64(&b, 0x20000000aull);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	check_cpus(&f.cpu_map, f.swapped, mask, 3);
	b.buf[be ? 13 : 12] = 3; /* long_size 3 */
	assert_int_equal(decode(&b.rec, &f), -EINVAL);

	rb_begin(&b, be, PK_RECORD_CPU_MAP, 0);
	rb_u16(&b, PK_CPU_MAP_RANGE);
	rb_u8(&b, 1);
	rb_u8(&b, 0);
	rb_u16(&b, 4);
	rb_u16(&b, 6);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	check_cpus(&f.cpu_map, f.swapped, range, 4);

	rb_begin(&b, be, PK_RECORD_CPU_MAP, 0);
	rb_u16(&b, 7); /* unknown encoding */
	rb_u16(&b, 0);
	assert_int_equal(decode(rb_end(&b, NULL), &f), -EINVAL);
}

static void test_cpu_map(void **state)
{
	(void)state;
	BOTH_ORDERS(cpu_map_one);
}

static void stat_one(bool be)
{
	struct pk_record_fields f;
	struct rb b;

	rb_begin(&b, be, PK_RECORD_STAT_CONFIG, 0);
	rb_u64(&b, 2);
	rb_u64(&b, 0);
	rb_u64(&b, 1);
	rb_u64(&b, 2);
	rb_u64(&b, 1000);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.stat_config.nr, 2);
	assert_int_equal(pk_u64_at(f.stat_config.data, f.swapped, 3), 1000);
	b.rec.size -= 8;
	assert_int_equal(decode(&b.rec, &f), -EINVAL);

	rb_begin(&b, be, PK_RECORD_STAT, 0);
	rb_u64(&b, 55);
	rb_u32(&b, 1);
	rb_u32(&b, 2);
	rb_u64(&b, 100);
	rb_u64(&b, 200);
	rb_u64(&b, 150);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.stat.id, 55);
	assert_int_equal(f.stat.cpu, 1);
	assert_int_equal(f.stat.thread, 2);
	assert_int_equal(f.stat.val, 100);
	assert_int_equal(f.stat.ena, 200);
	assert_int_equal(f.stat.run, 150);

	rb_begin(&b, be, PK_RECORD_STAT_ROUND, 0);
	rb_u64(&b, 1);
	rb_u64(&b, 777);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.stat_round.type, 1);
	assert_int_equal(f.stat_round.time, 777);
}

static void test_stat(void **state)
{
	(void)state;
	BOTH_ORDERS(stat_one);
}

static void event_update_one(bool be)
{
	static const int32_t cpus[] = {0, 1};
	struct pk_record_fields f;
	double scale = 0.5;
	uint64_t bits;
	struct rb b;

	rb_begin(&b, be, PK_RECORD_EVENT_UPDATE, 0);
	rb_u64(&b, PK_EVENT_UPDATE_UNIT);
	rb_u64(&b, 767);
	rb_str(&b, "msec");
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.event_update.id, 767);
	assert_string_equal(f.event_update.name, "msec");

	rb_begin(&b, be, PK_RECORD_EVENT_UPDATE, 0);
	rb_u64(&b, PK_EVENT_UPDATE_NAME);
	rb_u64(&b, 767);
	rb_bytes(&b, "cpu-cloc", 8); /* no NUL */
	assert_int_equal(decode(rb_end(&b, NULL), &f), -EINVAL);

	memcpy(&bits, &scale, sizeof(bits));
	rb_begin(&b, be, PK_RECORD_EVENT_UPDATE, 0);
	rb_u64(&b, PK_EVENT_UPDATE_SCALE);
	rb_u64(&b, 1);
	rb_u64(&b, bits);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_true(f.event_update.scale == 0.5);

	rb_begin(&b, be, PK_RECORD_EVENT_UPDATE, 0);
	rb_u64(&b, PK_EVENT_UPDATE_CPUS);
	rb_u64(&b, 1);
	rb_u16(&b, PK_CPU_MAP_CPUS);
	rb_u16(&b, 2);
	rb_u16(&b, 0);
	rb_u16(&b, 1);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	check_cpus(&f.event_update.cpus, f.swapped, cpus, 2);
}

static void test_event_update(void **state)
{
	(void)state;
	BOTH_ORDERS(event_update_one);
}

static void data_records_one(bool be)
{
	struct pk_record_fields f;
	struct rb b;

	rb_begin(&b, be, PK_RECORD_TIME_CONV, 0);
	rb_u64(&b, 31);
	rb_u64(&b, 1000);
	rb_u64(&b, 5);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.time_conv.time_shift, 31);
	assert_int_equal(f.time_conv.time_mult, 1000);
	assert_int_equal(f.time_conv.time_zero, 5);
	assert_false(f.time_conv.has_cycles);

	rb_u64(&b, 77);	    /* time_cycles */
	rb_u64(&b, 0xffff); /* time_mask */
	rb_u8(&b, 1);
	rb_u8(&b, 0);
	rb_bytes(&b, "\0\0\0\0\0\0", 6);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_true(f.time_conv.has_cycles);
	assert_int_equal(f.time_conv.time_cycles, 77);
	assert_int_equal(f.time_conv.time_mask, 0xffff);
	assert_int_equal(f.time_conv.cap_user_time_zero, 1);
	assert_int_equal(f.time_conv.cap_user_time_short, 0);

	rb_begin(&b, be, PK_RECORD_HEADER_FEATURE, 0);
	rb_u64(&b, 2);
	rb_u64(&b, 0x1122);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.feature.feat_id, 2);
	assert_int_equal(f.feature.size, 8);

	rb_begin(&b, be, PK_RECORD_COMPRESSED, 0);
	rb_bytes(&b, "\x28\xb5\x2f\xfd", 4);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.compressed.size, 4);

	rb_begin(&b, be, PK_RECORD_COMPRESSED2, 0);
	rb_u64(&b, 5);
	rb_bytes(&b, "\x28\xb5\x2f\xfd\x00\0\0\0", 8);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.compressed.size, 5);
	assert_ptr_equal(f.compressed.data, b.buf + 16);
	b.rec.size = 16;
	assert_int_equal(decode(&b.rec, &f), -EINVAL);
}

static void test_data_records(void **state)
{
	(void)state;
	BOTH_ORDERS(data_records_one);
}

int test_perf_records(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attr),	     cmocka_unit_test(test_header_types),
		cmocka_unit_test(test_id_index),     cmocka_unit_test(test_auxtrace),
		cmocka_unit_test(test_thread_map),   cmocka_unit_test(test_cpu_map),
		cmocka_unit_test(test_stat),	     cmocka_unit_test(test_event_update),
		cmocka_unit_test(test_data_records),
	};

	return cmocka_run_group_tests_name("perf records", tests, NULL, NULL);
}
