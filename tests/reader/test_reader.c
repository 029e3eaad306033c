// SPDX-License-Identifier: MIT
/*
 * Reader tests on hand-built files: both byte orders, attr sizes old and
 * newer than ours, pipe mode, COMPRESSED records (one record split across
 * two of them), time ordering, and corrupt input.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <zstd.h>
#include <perfkit/perfkit.h>
#include "builder.h"

#define MAGIC      0x32454c4946524550ull
#define ST         (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
		    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

static struct perf_event_attr test_attr(int which)
{
	struct perf_event_attr a = {0};

	a.type = PERF_TYPE_SOFTWARE;
	a.config = which ? PERF_COUNT_SW_TASK_CLOCK : PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 4000;
	a.sample_type = ST;
	a.read_format = PERF_FORMAT_ID;
	a.freq = 1;
	a.disabled = !which;
	a.inherit = 1;
	a.sample_id_all = 1;
	a.exclude_kernel = which;
	a.precise_ip = 2;
	a.mmap2 = 1;
	a.comm_exec = 1;
	a.sample_max_stack = 127;
	return a;
}

/* The data section: COMM, MMAP, samples of both attrs out of time order
 * within a round, FINISHED_ROUND, a later sample. */
static void put_data(struct buf *b)
{
	size_t r;

	r = begin_record(b, PERF_RECORD_COMM, 0);
	put32(b, 42);
	put32(b, 42);
	put_bytes(b, "work\0\0\0\0", 8);
	put_sample_id(b, 42, 42, 50, 11, 0);
	end_record(b, r);

	r = begin_record(b, PERF_RECORD_MMAP, 0);
	put32(b, 42);
	put32(b, 42);
	put64(b, 0x400000);
	put64(b, 0x1000);
	put64(b, 0);
	put_bytes(b, "/bin/work\0\0\0\0\0\0\0", 16);
	put_sample_id(b, 42, 42, 60, 11, 0);
	end_record(b, r);

	r = begin_record(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	put_sample(b, 0x400100, 42, 43, 300, 12, 1, 1000);
	end_record(b, r);

	r = begin_record(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	put_sample(b, 0x400200, 42, 42, 100, 21, 0, 2000);
	end_record(b, r);

	r = begin_record(b, PK_RECORD_FINISHED_ROUND, 0);
	end_record(b, r);

	r = begin_record(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	put_sample(b, 0x400300, 42, 42, 200, 11, 0, 3000);
	end_record(b, r);
}

/* A whole file-mode perf.data with two attrs of attr_size bytes, and the
 * data put_data() writes, or data_fn's. */
static void build_file_with(struct buf *b, bool big_endian, uint32_t attr_size,
			    void (*data_fn)(struct buf *));

static void build_file(struct buf *b, bool big_endian, uint32_t attr_size)
{
	build_file_with(b, big_endian, attr_size, put_data);
}

static void build_file_with(struct buf *b, bool big_endian, uint32_t attr_size,
			    void (*data_fn)(struct buf *))
{
	static const uint64_t ids[2][2] = {{11, 12}, {21, 0}};
	static const int nr_ids[2] = {2, 1};
	size_t attrs_off = 104, entry = attr_size + 16;
	size_t ids_off = attrs_off + 2 * entry, data_off, data_end;

	buf_init(b, big_endian);
	put64(b, MAGIC);
	put64(b, 104);
	put64(b, entry);
	put64(b, attrs_off);
	put64(b, 2 * entry);
	put64(b, 0); /* data, patched below */
	put64(b, 0);
	put64(b, 0);
	put64(b, 0);
	put_zero(b, 32);
	for (int i = 0; i < 2; i++) {
		struct perf_event_attr a = test_attr(i);

		put_attr(b, &a, attr_size);
		put64(b, ids_off + (i ? 16 : 0));
		put64(b, nr_ids[i] * 8);
	}
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < nr_ids[i]; j++)
			put64(b, ids[i][j]);
	data_off = b->len;
	data_fn(b);
	data_end = b->len;
	patch64(b, 40, data_off);
	patch64(b, 48, data_end - data_off);
}

static struct pk_reader *open_buf(const struct buf *b, enum pk_order order)
{
	struct pk_reader_opts o = {.sz = sizeof(o), .order = order};
	struct pk_reader *r = NULL;
	const char *path = write_temp(b);
	int err = pk_reader_open(&r, path, &o);

	unlink(path);
	if (err)
		print_error("open: %s\n", pk_reader_error(r));
	assert_int_equal(err, 0);
	return r;
}

static void check_attrs(struct pk_reader *r, uint32_t attr_size)
{
	const struct pk_attr *a0, *a1;

	assert_int_equal(pk_reader_nr_attrs(r), 2);
	a0 = pk_reader_attr(r, 0);
	a1 = pk_reader_attr(r, 1);
	assert_int_equal(a0->attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(a0->attr.config, PERF_COUNT_SW_CPU_CLOCK);
	assert_int_equal(a1->attr.config, PERF_COUNT_SW_TASK_CLOCK);
	assert_int_equal(a0->attr.sample_type, ST);
	assert_int_equal(a0->attr.sample_period, 4000);
	assert_int_equal(a0->file_attr_size, attr_size);
	/* bitfields survive the byte order */
	assert_int_equal(a0->attr.disabled, 1);
	assert_int_equal(a1->attr.disabled, 0);
	assert_int_equal(a0->attr.freq, 1);
	assert_int_equal(a0->attr.inherit, 1);
	assert_int_equal(a0->attr.sample_id_all, 1);
	assert_int_equal(a0->attr.exclude_kernel, 0);
	assert_int_equal(a1->attr.exclude_kernel, 1);
	assert_int_equal(a0->attr.precise_ip, 2);
	assert_int_equal(a0->attr.mmap2, 1);
	assert_int_equal(a0->attr.comm_exec, 1);
	assert_int_equal(a0->attr.exclude_user, 0);
	if (attr_size > 104)
		assert_int_equal(a0->attr.sample_max_stack, 127);
	assert_int_equal(a0->nr_ids, 2);
	assert_int_equal(a0->ids[1], 12);
	assert_ptr_equal(pk_reader_attr_by_id(r, 21), a1);
	assert_ptr_equal(pk_reader_attr_by_id(r, 12), a0);
	assert_null(pk_reader_attr_by_id(r, 99));
}

struct expect {
	uint32_t type;
	uint64_t time;
	int attr; /* -1: none */
};

static void check_records(struct pk_reader *r, const struct expect *want, int n)
{
	const struct pk_record *rec;
	int i = 0, ret;

	while ((ret = pk_reader_next(r, &rec)) > 0) {
		assert_true(i < n);
		assert_int_equal(rec->type, want[i].type);
		assert_int_equal(rec->time, want[i].time);
		if (want[i].attr < 0)
			assert_null(rec->attr);
		else
			assert_ptr_equal(rec->attr, pk_reader_attr(r, want[i].attr));
		i++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(i, n);
}

static const struct expect file_order[] = {
	{PERF_RECORD_COMM, 50, 0},	    {PERF_RECORD_MMAP, 60, 0},
	{PERF_RECORD_SAMPLE, 300, 0},	    {PERF_RECORD_SAMPLE, 100, 1},
	{PK_RECORD_FINISHED_ROUND, PK_NO_TIME, -1}, {PERF_RECORD_SAMPLE, 200, 0},
};

static void file_mode(bool big_endian, uint32_t attr_size)
{
	struct buf b;
	struct pk_reader *r;

	build_file(&b, big_endian, attr_size);
	r = open_buf(&b, PK_ORDER_FILE);
	assert_int_equal(pk_reader_header(r)->swapped, big_endian);
	assert_false(pk_reader_header(r)->pipe);
	check_attrs(r, attr_size);
	check_records(r, file_order, 6);
	pk_reader_close(r);
	buf_free(&b);
}

static void test_native(void **state)
{
	(void)state;
	file_mode(false, 112);
}

static void test_swapped(void **state)
{
	(void)state;
	file_mode(true, 112);
}

static void test_attr_sizes(void **state)
{
	(void)state;
	file_mode(false, 64);	 /* PERF_ATTR_SIZE_VER0 */
	file_mode(false, 152);	 /* newer than ours: tail skipped */
	file_mode(true, 152);
}

/* The first round holds times 50, 60, 300, 100; the next 200.  Nothing is
 * released at the first marker (the limit starts at 0); the end releases
 * everything in time order. */
static void test_time_order(void **state)
{
	static const struct expect want[] = {
		{PK_RECORD_FINISHED_ROUND, PK_NO_TIME, -1}, {PERF_RECORD_COMM, 50, 0},
		{PERF_RECORD_MMAP, 60, 0},		   {PERF_RECORD_SAMPLE, 100, 1},
		{PERF_RECORD_SAMPLE, 200, 0},		   {PERF_RECORD_SAMPLE, 300, 0},
	};
	struct buf b;
	struct pk_reader *r;

	(void)state;
	build_file(&b, true, 112);
	r = open_buf(&b, PK_ORDER_TIME);
	check_records(r, want, 6);
	pk_reader_close(r);
	buf_free(&b);
}

/* Pipe mode: 16-byte header, attrs as HEADER_ATTR records, read from a pipe. */
static void build_pipe(struct buf *b, bool big_endian)
{
	static const uint64_t ids[2][2] = {{11, 12}, {21, 0}};

	buf_init(b, big_endian);
	put64(b, MAGIC);
	put64(b, 16);
	for (int i = 0; i < 2; i++) {
		struct perf_event_attr a = test_attr(i);
		size_t r = begin_record(b, PK_RECORD_HEADER_ATTR, 0);

		put_attr(b, &a, 120);
		for (int j = 0; j < 2 - i; j++)
			put64(b, ids[i][j]);
		end_record(b, r);
	}
	put_data(b);
}

static struct pk_reader *open_pipe(const struct buf *b)
{
	struct pk_reader_opts o = {.sz = sizeof(o)};
	struct pk_reader *r = NULL;
	int p[2];

	assert_int_equal(pipe(p), 0);
	assert_true(b->len < 65536);
	assert_int_equal(write(p[1], b->p, b->len), (ssize_t)b->len);
	close(p[1]);
	assert_int_equal(pk_reader_open_fd(&r, p[0], "pipe", &o), 0);
	return r;
}

static void pipe_mode(bool big_endian)
{
	static const struct expect want[] = {
		{PK_RECORD_HEADER_ATTR, PK_NO_TIME, -1}, {PK_RECORD_HEADER_ATTR, PK_NO_TIME, -1},
		{PERF_RECORD_COMM, 50, 0},		 {PERF_RECORD_MMAP, 60, 0},
		{PERF_RECORD_SAMPLE, 300, 0},		 {PERF_RECORD_SAMPLE, 100, 1},
		{PK_RECORD_FINISHED_ROUND, PK_NO_TIME, -1}, {PERF_RECORD_SAMPLE, 200, 0},
	};
	struct buf b;
	struct pk_reader *r;

	build_pipe(&b, big_endian);
	r = open_pipe(&b);
	assert_true(pk_reader_header(r)->pipe);
	check_records(r, want, 8);
	check_attrs(r, 120);
	pk_reader_close(r);
	buf_free(&b);
}

static void test_pipe(void **state)
{
	(void)state;
	pipe_mode(false);
	pipe_mode(true);
}

/* Compress src as perf does: one stream, flushed (not ended) per record. */
static void put_compressed(struct buf *b, ZSTD_CCtx *z, const void *src, size_t n, bool v2)
{
	uint8_t out[4096];
	ZSTD_inBuffer in = {src, n, 0};
	ZSTD_outBuffer o = {out, sizeof(out), 0};
	size_t r;

	assert_int_equal(ZSTD_compressStream2(z, &o, &in, ZSTD_e_flush), 0);
	r = begin_record(b, v2 ? PK_RECORD_COMPRESSED2 : PK_RECORD_COMPRESSED, 0);
	if (v2)
		put64(b, o.pos);
	put_bytes(b, out, o.pos);
	if (v2)
		put_zero(b, (8 - o.pos % 8) % 8);
	end_record(b, r);
}

/* The records of put_data() packed in two COMPRESSED records, the cut in
 * the middle of a record. */
static void compressed(bool v2)
{
	struct buf plain, b;
	ZSTD_CCtx *z = ZSTD_createCCtx();
	struct pk_reader *r;
	const struct pk_record *rec;
	int nr_samples = 0, nr_comp = 0, ret;
	size_t cut;

	buf_init(&plain, false);
	put_data(&plain);
	cut = plain.len / 2 + 3;
	build_pipe(&b, false);
	b.len -= plain.len; /* drop the plain data, keep the attrs */
	put_compressed(&b, z, plain.p, cut, v2);
	put_compressed(&b, z, plain.p + cut, plain.len - cut, v2);
	r = open_pipe(&b);
	while ((ret = pk_reader_next(r, &rec)) > 0) {
		nr_samples += rec->type == PERF_RECORD_SAMPLE;
		nr_comp += rec->type == (v2 ? PK_RECORD_COMPRESSED2 : PK_RECORD_COMPRESSED);
		if (rec->type == PERF_RECORD_SAMPLE)
			assert_true(rec->unpacked);
	}
	if (ret)
		print_error("%s\n", pk_reader_error(r));
	assert_int_equal(ret, 0);
	assert_int_equal(nr_samples, 3);
	assert_int_equal(nr_comp, 2);
	pk_reader_close(r);
	ZSTD_freeCCtx(z);
	buf_free(&b);
	buf_free(&plain);
}

static void test_compressed(void **state)
{
	(void)state;
	compressed(false);
	compressed(true);
}

/* Read everything; return the error and the records seen before it. */
static int drain(struct buf *b, int *nr)
{
	struct pk_reader_opts o = {.sz = sizeof(o)};
	struct pk_reader *r = NULL;
	const struct pk_record *rec;
	const char *path = write_temp(b);
	int ret = pk_reader_open(&r, path, &o);

	unlink(path);
	*nr = 0;
	if (!ret) {
		while ((ret = pk_reader_next(r, &rec)) > 0)
			(*nr)++;
	}
	if (ret)
		assert_non_null(strstr(pk_reader_error(r), "offset 0x"));
	pk_reader_close(r);
	return ret;
}

static void test_truncated(void **state)
{
	struct buf b;
	int nr;

	(void)state;
	build_file(&b, false, 112);
	b.len -= 20; /* cut the last sample */
	assert_int_equal(drain(&b, &nr), -EINVAL);
	assert_int_equal(nr, 5);
	b.len = 50; /* cut the header */
	assert_true(drain(&b, &nr) < 0);
	assert_int_equal(nr, 0);
	buf_free(&b);
}

static void test_zero_size_record(void **state)
{
	struct buf b;
	uint64_t data_off;
	uint16_t comm_size;
	int nr;

	(void)state;
	build_file(&b, false, 112);
	memcpy(&data_off, b.p + 40, 8);
	memcpy(&comm_size, b.p + data_off + 6, 2);
	patch16(&b, data_off + comm_size + 6, 0); /* the MMAP after the COMM */
	assert_int_equal(drain(&b, &nr), -EINVAL);
	assert_int_equal(nr, 1);
	buf_free(&b);
}

static void test_unknown_type_skipped(void **state)
{
	struct buf b;
	uint64_t data_off;
	int nr;

	(void)state;
	build_file(&b, false, 112);
	memcpy(&data_off, b.p + 40, 8);
	b.p[data_off] = 60; /* COMM becomes type 60: unknown, skipped */
	assert_int_equal(drain(&b, &nr), 0);
	assert_int_equal(nr, 5);
	buf_free(&b);
}

/* perf killed before finishing leaves data size 0: read what is there. */
static void test_unfinished_file(void **state)
{
	struct buf b;
	int nr;

	(void)state;
	build_file(&b, false, 112);
	patch64(&b, 48, 0);
	b.len -= 20; /* and the last record is half written */
	assert_int_equal(drain(&b, &nr), 0);
	assert_int_equal(nr, 5);
	buf_free(&b);
}

static void test_not_perf_data(void **state)
{
	struct buf b;
	int nr;

	(void)state;
	buf_init(&b, false);
	put_bytes(&b, "hello, this is not perf data", 28);
	assert_int_equal(drain(&b, &nr), -EINVAL);
	b.len = 3;
	assert_true(drain(&b, &nr) < 0);
	buf_free(&b);
}

static void test_bad_attr_section(void **state)
{
	struct buf b;
	int nr;

	(void)state;
	build_file(&b, false, 112);
	patch64(&b, 32, 1ull << 40); /* attrs size far past the end */
	assert_int_equal(drain(&b, &nr), -EINVAL);
	buf_free(&b);
	build_file(&b, true, 112);
	patch64(&b, 16, 8); /* attr size smaller than any attr */
	assert_int_equal(drain(&b, &nr), -EINVAL);
	buf_free(&b);
}

/* Two samples of the first attr, one of the second, LOST_SAMPLES of 118
 * and 7 samples for the first, and a LOST record of 5. */
static void put_lossy_data(struct buf *b)
{
	static const uint64_t lost[2] = {118, 7};
	size_t r;

	for (int i = 0; i < 3; i++) {
		r = begin_record(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put_sample(b, 0x400100, 42, 42, 100 + i, i == 2 ? 21 : 11, 0, 1000);
		end_record(b, r);
	}
	for (int i = 0; i < 2; i++) {
		r = begin_record(b, PK_RECORD_LOST_SAMPLES, 0);
		put64(b, lost[i]);
		put_sample_id(b, 0, 0, 0, 12, 0);
		end_record(b, r);
	}
	r = begin_record(b, PERF_RECORD_LOST, 0);
	put64(b, 21);
	put64(b, 5);
	put_sample_id(b, 0, 0, 0, 21, 0);
	end_record(b, r);
}

static void test_stats(void **state)
{
	struct pk_record_stats st;
	struct pk_reader *r;
	struct buf b;

	(void)state;
	build_file_with(&b, true, 112, put_lossy_data);
	r = open_buf(&b, PK_ORDER_FILE);
	assert_int_equal(pk_record_stats_collect(r, &st), 0);
	assert_int_equal(st.total, 6);
	assert_int_equal(st.nr[PERF_RECORD_SAMPLE], 3);
	assert_int_equal(st.nr[PK_RECORD_LOST_SAMPLES], 2);
	assert_int_equal(st.nr[PERF_RECORD_LOST], 1);
	assert_int_equal(st.nr_attrs, 2);
	assert_int_equal(st.attrs[0].nr_samples, 2);
	assert_int_equal(st.attrs[1].nr_samples, 1);
	/* perf sums the samples lost, per event */
	assert_int_equal(st.attrs[0].nr_lost_samples, 125);
	assert_int_equal(st.attrs[1].nr_lost_samples, 0);
	assert_int_equal(st.lost, 5);
	pk_record_stats_free(&st);
	pk_reader_close(r);
	buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_native),
		cmocka_unit_test(test_swapped),
		cmocka_unit_test(test_attr_sizes),
		cmocka_unit_test(test_time_order),
		cmocka_unit_test(test_pipe),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_zero_size_record),
		cmocka_unit_test(test_unknown_type_skipped),
		cmocka_unit_test(test_unfinished_file),
		cmocka_unit_test(test_not_perf_data),
		cmocka_unit_test(test_bad_attr_section),
		cmocka_unit_test(test_stats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
