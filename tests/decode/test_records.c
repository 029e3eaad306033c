// SPDX-License-Identifier: MIT
/*
 * pk_record_decode() on hand-built records of every non-sample type, each
 * in both byte orders; malformed ones must give -EINVAL.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "rec_builder.h"

#define ID_ATTR_TYPE                                                                               \
	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |                   \
	 PERF_SAMPLE_IDENTIFIER)

static struct pk_attr id_attr(void)
{
	struct pk_attr a = {0};

	a.attr.sample_type = ID_ATTR_TYPE;
	a.attr.sample_id_all = 1;
	return a;
}

static void put_trailer(struct rb *b)
{
	rb_u32(b, 11);	 /* pid */
	rb_u32(b, 12);	 /* tid */
	rb_u64(b, 1000); /* time */
	rb_u64(b, 77);	 /* id */
	rb_u32(b, 3);	 /* cpu */
	rb_u32(b, 0);	 /* res */
	rb_u64(b, 77);	 /* identifier */
}

static void check_trailer(const struct pk_record_fields *f)
{
	assert_int_equal(f->sid.present, ID_ATTR_TYPE);
	assert_int_equal(f->sid.pid, 11);
	assert_int_equal(f->sid.tid, 12);
	assert_int_equal(f->sid.time, 1000);
	assert_int_equal(f->sid.id, 77);
	assert_int_equal(f->sid.cpu, 3);
}

static int decode(const struct pk_record *rec, struct pk_record_fields *f)
{
	const char *why = NULL;
	int err = pk_record_decode(rec, f, &why);

	if (err == -EINVAL)
		assert_non_null(why);
	return err;
}

static void mmap_one(bool be)
{
	struct pk_attr a = id_attr();
	struct pk_record_fields f;
	struct rb b;

	rb_begin(&b, be, PK_RECORD_MMAP, 0);
	rb_u32(&b, 100);
	rb_u32(&b, 101);
	rb_u64(&b, 0x400000);
	rb_u64(&b, 0x1000);
	rb_u64(&b, 0x200);
	rb_str(&b, "/bin/true");
	put_trailer(&b);
	assert_int_equal(decode(rb_end(&b, &a), &f), 0);
	assert_int_equal(f.mmap.pid, 100);
	assert_int_equal(f.mmap.tid, 101);
	assert_int_equal(f.mmap.addr, 0x400000);
	assert_int_equal(f.mmap.len, 0x1000);
	assert_int_equal(f.mmap.pgoff, 0x200);
	assert_string_equal(f.mmap.filename, "/bin/true");
	check_trailer(&f);

	/* file name without its NUL before the trailer */
	rb_begin(&b, be, PK_RECORD_MMAP, 0);
	rb_u32(&b, 100);
	rb_u32(&b, 101);
	rb_u64(&b, 0x400000);
	rb_u64(&b, 0x1000);
	rb_u64(&b, 0x200);
	rb_bytes(&b, "abcdefgh", 8);
	put_trailer(&b);
	assert_int_equal(decode(rb_end(&b, &a), &f), -EINVAL);
}

static void test_mmap(void **state)
{
	(void)state;
	BOTH_ORDERS(mmap_one);
}

static void mmap2_head(struct rb *b, bool be, uint16_t misc)
{
	rb_begin(b, be, PK_RECORD_MMAP2, misc);
	rb_u32(b, 5);
	rb_u32(b, 6);
	rb_u64(b, 0x7f0000);
	rb_u64(b, 0x3000);
	rb_u64(b, 0);
}

static void mmap2_one(bool be)
{
	static const uint8_t id[20] = {0xde, 0xad, 0xbe, 0xef, 1,  2,  3,  4,  5,  6,
				       7,    8,	   9,	 10,   11, 12, 13, 14, 15, 16};
	struct pk_record_fields f;
	struct rb b;

	mmap2_head(&b, be, 0);
	rb_u32(&b, 8);
	rb_u32(&b, 1);
	rb_u64(&b, 123456);
	rb_u64(&b, 42);
	rb_u32(&b, 5); /* PROT_READ|PROT_EXEC */
	rb_u32(&b, 2); /* MAP_PRIVATE */
	rb_str(&b, "/lib/libc.so");
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_false(f.mmap.has_build_id);
	assert_int_equal(f.mmap.maj, 8);
	assert_int_equal(f.mmap.min, 1);
	assert_int_equal(f.mmap.ino, 123456);
	assert_int_equal(f.mmap.ino_generation, 42);
	assert_int_equal(f.mmap.prot, 5);
	assert_int_equal(f.mmap.flags, 2);
	assert_string_equal(f.mmap.filename, "/lib/libc.so");
	assert_int_equal(f.sid.present, 0);

	mmap2_head(&b, be, PK_MISC_MMAP_BUILD_ID);
	rb_u8(&b, 20);
	rb_u8(&b, 0);
	rb_u16(&b, 0);
	rb_bytes(&b, id, 20);
	rb_u32(&b, 5);
	rb_u32(&b, 2);
	rb_str(&b, "/lib/libc.so");
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_true(f.mmap.has_build_id);
	assert_int_equal(f.mmap.build_id.size, 20);
	assert_memory_equal(f.mmap.build_id.data, id, 20);
	assert_int_equal(f.mmap.prot, 5);

	/* a build-id size over 20 */
	b.buf[40] = 21;
	assert_int_equal(decode(&b.rec, &f), -EINVAL);
}

static void test_mmap2(void **state)
{
	(void)state;
	BOTH_ORDERS(mmap2_one);
}

static void task_one(bool be)
{
	struct pk_attr a = id_attr();
	struct pk_record_fields f;
	struct rb b;

	rb_begin(&b, be, PK_RECORD_COMM, PK_MISC_COMM_EXEC);
	rb_u32(&b, 7);
	rb_u32(&b, 8);
	rb_str(&b, "bash");
	put_trailer(&b);
	assert_int_equal(decode(rb_end(&b, &a), &f), 0);
	assert_int_equal(f.comm.pid, 7);
	assert_int_equal(f.comm.tid, 8);
	assert_string_equal(f.comm.comm, "bash");
	check_trailer(&f);

	for (uint32_t type = PK_RECORD_EXIT; type <= PK_RECORD_FORK; type += 3) {
		rb_begin(&b, be, type, 0);
		rb_u32(&b, 1);
		rb_u32(&b, 2);
		rb_u32(&b, 3);
		rb_u32(&b, 4);
		rb_u64(&b, 555);
		assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
		assert_int_equal(f.task.pid, 1);
		assert_int_equal(f.task.ppid, 2);
		assert_int_equal(f.task.tid, 3);
		assert_int_equal(f.task.ptid, 4);
		assert_int_equal(f.task.time, 555);
		/* one byte short */
		b.rec.size--;
		assert_int_equal(decode(&b.rec, &f), -EINVAL);
	}

	/* comm with no room at all: only the trailer */
	rb_begin(&b, be, PK_RECORD_COMM, 0);
	rb_u32(&b, 7);
	rb_u32(&b, 8);
	put_trailer(&b);
	assert_int_equal(decode(rb_end(&b, &a), &f), -EINVAL);
	/* shorter than the trailer */
	rb_begin(&b, be, PK_RECORD_COMM, 0);
	rb_u64(&b, 0);
	assert_int_equal(decode(rb_end(&b, &a), &f), -EINVAL);
}

static void test_task(void **state)
{
	(void)state;
	BOTH_ORDERS(task_one);
}

static void small_kernel_one(bool be)
{
	struct pk_record_fields f;
	struct rb b;

	rb_begin(&b, be, PK_RECORD_LOST, 0);
	rb_u64(&b, 9);
	rb_u64(&b, 1234);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.lost.id, 9);
	assert_int_equal(f.lost.lost, 1234);

	rb_begin(&b, be, PK_RECORD_THROTTLE, 0);
	rb_u64(&b, 10);
	rb_u64(&b, 11);
	rb_u64(&b, 12);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.throttle.time, 10);
	assert_int_equal(f.throttle.id, 11);
	assert_int_equal(f.throttle.stream_id, 12);
	b.rec.type = PK_RECORD_UNTHROTTLE;
	assert_int_equal(decode(&b.rec, &f), 0);
	assert_int_equal(f.throttle.stream_id, 12);

	rb_begin(&b, be, PK_RECORD_AUX, 0);
	rb_u64(&b, 0x100);
	rb_u64(&b, 0x200);
	rb_u64(&b, PERF_AUX_FLAG_TRUNCATED);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.aux.aux_offset, 0x100);
	assert_int_equal(f.aux.aux_size, 0x200);
	assert_int_equal(f.aux.flags, PERF_AUX_FLAG_TRUNCATED);

	rb_begin(&b, be, PK_RECORD_ITRACE_START, 0);
	rb_u32(&b, 21);
	rb_u32(&b, 22);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.itrace_start.pid, 21);
	assert_int_equal(f.itrace_start.tid, 22);

	rb_begin(&b, be, PK_RECORD_LOST_SAMPLES, 0);
	rb_u64(&b, 33);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.lost_samples.lost, 33);

	rb_begin(&b, be, PK_RECORD_SWITCH, PK_MISC_SWITCH_OUT);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);

	rb_begin(&b, be, PK_RECORD_SWITCH_CPU_WIDE, 0);
	rb_u32(&b, 40);
	rb_u32(&b, 41);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.context_switch.next_prev_pid, 40);
	assert_int_equal(f.context_switch.next_prev_tid, 41);

	rb_begin(&b, be, PK_RECORD_AUX_OUTPUT_HW_ID, 0);
	rb_u64(&b, 0xabc);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.aux_output_hw_id.hw_id, 0xabc);
	b.rec.size = 12;
	assert_int_equal(decode(&b.rec, &f), -EINVAL);
}

static void test_small_kernel(void **state)
{
	(void)state;
	BOTH_ORDERS(small_kernel_one);
}

static void bpf_one(bool be)
{
	static const uint8_t tag[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	struct pk_record_fields f;
	struct rb b;

	rb_begin(&b, be, PK_RECORD_KSYMBOL, 0);
	rb_u64(&b, 0xffffffffc0001000ull);
	rb_u32(&b, 313);
	rb_u16(&b, 1);
	rb_u16(&b, 0);
	rb_str(&b, "bpf_prog_x");
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.ksymbol.addr, 0xffffffffc0001000ull);
	assert_int_equal(f.ksymbol.len, 313);
	assert_int_equal(f.ksymbol.ksym_type, 1);
	assert_string_equal(f.ksymbol.name, "bpf_prog_x");

	rb_begin(&b, be, PK_RECORD_BPF_EVENT, 0);
	rb_u16(&b, 1);
	rb_u16(&b, 2);
	rb_u32(&b, 16);
	rb_bytes(&b, tag, 8);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.bpf_event.type, 1);
	assert_int_equal(f.bpf_event.flags, 2);
	assert_int_equal(f.bpf_event.id, 16);
	assert_memory_equal(f.bpf_event.tag, tag, 8);

	rb_begin(&b, be, PK_RECORD_CGROUP, 0);
	rb_u64(&b, 99);
	rb_str(&b, "/sys/fs/cgroup/a");
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.cgroup.id, 99);
	assert_string_equal(f.cgroup.path, "/sys/fs/cgroup/a");

	rb_begin(&b, be, PK_RECORD_TEXT_POKE, 0);
	rb_u64(&b, 0xffffffff81000000ull);
	rb_u16(&b, 2);
	rb_u16(&b, 3);
	rb_bytes(&b, "\x90\x90\xe8\x01\x02", 5);
	rb_bytes(&b, "\0\0\0\0\0\0\0", 7);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.text_poke.old_len, 2);
	assert_int_equal(f.text_poke.new_len, 3);
	assert_memory_equal(f.text_poke.old_bytes, "\x90\x90", 2);
	assert_memory_equal(f.text_poke.new_bytes, "\xe8\x01\x02", 3);
	/* lengths past the record */
	rb_begin(&b, be, PK_RECORD_TEXT_POKE, 0);
	rb_u64(&b, 0);
	rb_u16(&b, 0xffff);
	rb_u16(&b, 0xffff);
	assert_int_equal(decode(rb_end(&b, NULL), &f), -EINVAL);
}

static void test_bpf_cgroup_poke(void **state)
{
	(void)state;
	BOTH_ORDERS(bpf_one);
}

static void namespaces_one(bool be)
{
	struct pk_record_fields f;
	struct rb b;

	rb_begin(&b, be, PK_RECORD_NAMESPACES, 0);
	rb_u32(&b, 1);
	rb_u32(&b, 2);
	rb_u64(&b, 2);
	rb_u64(&b, 4);
	rb_u64(&b, 0xf0000001);
	rb_u64(&b, 4);
	rb_u64(&b, 0xf0000002);
	assert_int_equal(decode(rb_end(&b, NULL), &f), 0);
	assert_int_equal(f.namespaces.nr, 2);
	assert_int_equal(pk_u64_at(f.namespaces.link_info, f.swapped, 3), 0xf0000002);

	/* a count that would overflow when multiplied */
	rb_begin(&b, be, PK_RECORD_NAMESPACES, 0);
	rb_u32(&b, 1);
	rb_u32(&b, 2);
	rb_u64(&b, 1ull << 60);
	rb_u64(&b, 4);
	rb_u64(&b, 5);
	assert_int_equal(decode(rb_end(&b, NULL), &f), -EINVAL);
}

static void test_namespaces(void **state)
{
	(void)state;
	BOTH_ORDERS(namespaces_one);
}

static void read_one(bool be)
{
	struct pk_attr a = {0};
	struct pk_record_fields f;
	struct pk_read_value v;
	struct rb b;

	a.attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED;
	rb_begin(&b, be, PK_RECORD_READ, 0);
	rb_u32(&b, 3);
	rb_u32(&b, 4);
	rb_u64(&b, 2);	  /* nr */
	rb_u64(&b, 5000); /* enabled */
	rb_u64(&b, 10);	  /* value, id */
	rb_u64(&b, 100);
	rb_u64(&b, 20);
	rb_u64(&b, 200);
	assert_int_equal(decode(rb_end(&b, &a), &f), 0);
	assert_int_equal(f.read.pid, 3);
	assert_int_equal(f.read.values.nr, 2);
	assert_int_equal(f.read.time_enabled, 5000);
	assert_int_equal(f.read.value, 10);
	assert_int_equal(f.read.id, 100);
	v = pk_read_value_at(&f.read.values, f.swapped, 1);
	assert_int_equal(v.value, 20);
	assert_int_equal(v.id, 200);
	b.rec.size -= 8;
	assert_int_equal(decode(&b.rec, &f), -EINVAL);
}

static void test_read_record(void **state)
{
	(void)state;
	BOTH_ORDERS(read_one);
}

static void decode_err(void **state)
{
	struct pk_record_fields f;
	struct rb b;

	(void)state;
	rb_begin(&b, false, PK_RECORD_SAMPLE, 0);
	assert_int_equal(decode(rb_end(&b, NULL), &f), -ENOTSUP);
	rb_begin(&b, false, 50, 0);
	assert_int_equal(decode(rb_end(&b, NULL), &f), -ENOTSUP);
	rb_begin(&b, false, PK_RECORD_LOST, 0);
	rb_end(&b, NULL);
	b.rec.size = 4;
	assert_int_equal(decode(&b.rec, &f), -EINVAL);
}

int test_perf_records(void);

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mmap),
		cmocka_unit_test(test_mmap2),
		cmocka_unit_test(test_task),
		cmocka_unit_test(test_small_kernel),
		cmocka_unit_test(test_bpf_cgroup_poke),
		cmocka_unit_test(test_namespaces),
		cmocka_unit_test(test_read_record),
		cmocka_unit_test(decode_err),
	};
	int failed;

	if (!host_is_little_endian())
		return 77; /* the builder's "other order" is big endian */
	failed = cmocka_run_group_tests_name("kernel records", tests, NULL, NULL);
	return failed + test_perf_records();
}
