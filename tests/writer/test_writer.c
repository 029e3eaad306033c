// SPDX-License-Identifier: MIT
/*
 * Writer unit tests: every record type the writer emits goes through our
 * reader and must come back byte for byte; file mode, pipe mode, -z, a run
 * killed before finish, a full disk, a planted symlink, AUXTRACE records.
 * (The ring buffer's tests are in test_ring.c.)
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <perfkit/perfkit.h>
#include <perfkit/recorder.h>
#include <perfkit/ring.h>
#include <perfkit/writer.h>
#include "test_records.h"

#define ST                                                                                         \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |            \
	 PERF_SAMPLE_PERIOD)

static char tmpdir[] = "/tmp/pk-writer-test-XXXXXX";

static void path_in_tmp(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", tmpdir, name);
}

static struct perf_event_attr test_attr(void)
{
	struct perf_event_attr a = {0};

	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.size = sizeof(a);
	a.sample_type = ST;
	a.sample_freq = 4000;
	a.freq = 1;
	a.sample_id_all = 1;
	a.mmap = a.comm = a.task = a.mmap2 = 1;
	return a;
}

static struct pk_writer *open_writer(const char *path, const struct pk_writer_opts *o)
{
	struct perf_event_attr a = test_attr();
	uint64_t ids[2] = {7, 8};
	struct pk_writer *w;
	char *argv[] = {"test_writer", "record", NULL};

	assert_int_equal(pk_writer_open(&w, path, o), 0);
	assert_int_equal(pk_writer_add_attr(w, &a, "cpu-clock", ids, 2), 0);
	assert_int_equal(pk_writer_add_host_features(w, 2, argv), 0);
	return w;
}

/* Write n records cycling over the kinds; the expected bytes in *exp. */
static size_t write_records(struct pk_writer *w, int n, uint8_t **exp, bool rounds)
{
	size_t len = 0, cap = 0;
	struct recbuf r;

	*exp = NULL;
	for (int i = 0; i < n; i++) {
		make_record(&r, i % NR_KINDS, 1000 + i);
		assert_int_equal(pk_writer_write(w, r.b, r.len), 0);
		if (len + r.len + 8 > cap) {
			cap = (cap + r.len + 8) * 2;
			*exp = realloc(*exp, cap);
		}
		memcpy(*exp + len, r.b, r.len);
		len += r.len;
		if (rounds && i % 5 == 4) {
			struct perf_event_header h = {.type = 68, .size = 8};

			assert_int_equal(pk_writer_finish_round(w), 0);
			memcpy(*exp + len, &h, 8);
			len += 8;
		}
	}
	return len;
}

/* Read every record back (compressed ones skipped: their contents come
 * next) and compare with exp. */
static void check_records(const char *path, const uint8_t *exp, size_t len, uint64_t *nr)
{
	struct pk_reader *rd;
	const struct pk_record *rec;
	size_t off = 0;
	int rc;

	*nr = 0;
	assert_int_equal(pk_reader_open(&rd, path, NULL), 0);
	while ((rc = pk_reader_next(rd, &rec)) > 0) {
		if (rec->type == PK_RECORD_COMPRESSED ||
		    (rec->type >= PK_RECORD_HEADER_ATTR && rec->type != PK_RECORD_FINISHED_ROUND))
			continue;
		assert_true(off + rec->size <= len);
		assert_memory_equal(rec->raw, exp + off, rec->size);
		off += rec->size;
		(*nr)++;
	}
	if (rc < 0)
		fail_msg("%s", pk_reader_error(rd));
	assert_int_equal(off, len);
	pk_reader_close(rd);
}

static void test_file_round_trip(void **state)
{
	char path[256];
	struct pk_writer_opts o = {.sz = sizeof(o)};
	struct pk_writer *w;
	struct pk_reader *rd;
	const struct pk_header *h;
	const struct pk_attr *attr;
	uint8_t *exp;
	uint8_t bid[20] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
	uint64_t nr;
	size_t len;

	(void)state;
	path_in_tmp(path, sizeof(path), "file.data");
	w = open_writer(path, &o);
	assert_int_equal(
		pk_writer_add_build_id(w, PERF_RECORD_MISC_USER, -1, bid, 20, "/usr/bin/true"), 0);
	assert_int_equal(pk_writer_add_clock_features(w, 1), 0);
	assert_int_equal(pk_writer_start(w), 0);
	len = write_records(w, 50, &exp, true);
	assert_int_equal(pk_writer_finish(w), 0);
	pk_writer_close(w);

	check_records(path, exp, len, &nr);
	assert_int_equal(nr, 50 + 10);
	assert_int_equal(pk_reader_open(&rd, path, NULL), 0);
	h = pk_reader_header(rd);
	assert_false(h->pipe);
	assert_int_equal(h->data_size, len);
	assert_int_equal(pk_reader_nr_attrs(rd), 1);
	attr = pk_reader_attr(rd, 0);
	assert_int_equal(attr->attr.sample_type, ST);
	assert_int_equal(attr->nr_ids, 2);
	assert_int_equal(attr->ids[1], 8);
	assert_non_null(pk_reader_attr_by_id(rd, 8));
	assert_true(pk_header_has(h, PK_FEAT_HOSTNAME));
	assert_true(pk_header_has(h, PK_FEAT_EVENT_DESC));
	assert_true(pk_header_has(h, PK_FEAT_CMDLINE));
	assert_true(pk_header_has(h, PK_FEAT_SAMPLE_TIME));
	assert_true(pk_header_has(h, PK_FEAT_BUILD_ID));
	assert_true(pk_header_has(h, PK_FEAT_CLOCKID));
	assert_true(pk_header_has(h, PK_FEAT_CLOCK_DATA));
	assert_true(pk_header_has(h, PK_FEAT_NRCPUS));
	assert_int_equal(h->nr_build_ids, 1);
	assert_memory_equal(h->build_ids[0].build_id, bid, 20);
	assert_string_equal(h->build_ids[0].filename, "/usr/bin/true");
	assert_int_equal(h->cmdline.nr, 2);
	assert_string_equal(h->cmdline.str[1], "record");
	assert_int_equal(h->nr_event_desc, 1);
	assert_string_equal(h->event_desc[0].name, "cpu-clock");
	/* samples were records 8, 17, ..., 44: times 1008 ... 1044 */
	assert_int_equal(h->sample_time_first, 1008);
	assert_int_equal(h->sample_time_last, 1044);
	pk_reader_close(rd);
	free(exp);
}

static void test_pipe_round_trip(void **state)
{
	char path[256];
	struct pk_writer_opts o = {.sz = sizeof(o), .pipe = true};
	struct pk_writer *w;
	struct pk_reader *rd;
	uint8_t *exp;
	uint64_t nr;
	size_t len;
	int fd;

	(void)state;
	path_in_tmp(path, sizeof(path), "pipe.data");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	{
		struct perf_event_attr a = test_attr();
		uint64_t id = 7;

		assert_int_equal(pk_writer_open_fd(&w, fd, path, &o), 0);
		assert_int_equal(pk_writer_add_attr(w, &a, "cpu-clock", &id, 1), 0);
		assert_int_equal(pk_writer_add_host_features(w, 0, NULL), 0);
		/* any blob: pipe mode carries it after a HEADER_TRACING_DATA */
		assert_int_equal(
			pk_writer_set_feature(w, PK_FEAT_TRACING_DATA, "0123456789abc", 13), 0);
		assert_int_equal(pk_writer_add_build_id(w, PERF_RECORD_MISC_USER, -1,
							(const uint8_t *)"01234567890123456789", 20,
							"/bin/true"),
				 0);
	}
	assert_int_equal(pk_writer_start(w), 0);
	len = write_records(w, 30, &exp, true);
	assert_int_equal(pk_writer_finish(w), 0);
	pk_writer_close(w);
	close(fd);

	check_records(path, exp, len, &nr);
	assert_int_equal(nr, 30 + 6);
	assert_int_equal(pk_reader_open(&rd, path, NULL), 0);
	{
		const struct pk_record *rec;
		int nr_attr = 0, nr_feat = 0, nr_tracing = 0, nr_bid = 0;

		while (pk_reader_next(rd, &rec) > 0) {
			nr_attr += rec->type == PK_RECORD_HEADER_ATTR;
			nr_feat += rec->type == PK_RECORD_HEADER_FEATURE;
			nr_bid += rec->type == PK_RECORD_HEADER_BUILD_ID;
			if (rec->type == PK_RECORD_HEADER_TRACING_DATA) {
				nr_tracing++;
				assert_int_equal(rec->extra_size, 16);
				assert_non_null(rec->extra);
				assert_memory_equal(rec->extra, "0123456789abc\0\0\0", 16);
			}
		}
		assert_int_equal(nr_attr, 1);
		assert_true(nr_feat >= 5);
		assert_int_equal(nr_tracing, 1);
		assert_int_equal(nr_bid, 1);
	}
	assert_true(pk_reader_header(rd)->pipe);
	assert_int_equal(pk_reader_nr_attrs(rd), 1);
	assert_true(pk_header_has(pk_reader_header(rd), PK_FEAT_HOSTNAME));
	pk_reader_close(rd);
	free(exp);
}

static void test_compressed(void **state)
{
	char path[256];
	struct pk_writer_opts o = {.sz = sizeof(o), .compress_level = 3};
	struct pk_writer_stats st;
	struct pk_writer *w;
	struct pk_reader *rd;
	uint8_t *exp;
	uint64_t nr;
	size_t len;

	(void)state;
	path_in_tmp(path, sizeof(path), "z.data");
	w = open_writer(path, &o);
	assert_int_equal(pk_writer_start(w), 0);
	/* enough for several chunks */
	len = write_records(w, 20000, &exp, false);
	assert_int_equal(pk_writer_finish(w), 0);
	pk_writer_get_stats(w, &st);
	assert_true(st.data_bytes * 2 < st.raw_bytes);
	pk_writer_close(w);
	check_records(path, exp, len, &nr);
	assert_int_equal(nr, 20000);
	assert_int_equal(pk_reader_open(&rd, path, NULL), 0);
	assert_true(pk_header_has(pk_reader_header(rd), PK_FEAT_COMPRESSED));
	pk_reader_close(rd);
	free(exp);
}

/* A run killed before finish: the temporary file has data size 0 and the
 * reader recovers every record. */
static void test_killed_run(void **state)
{
	char path[256], tmp[300];
	struct pk_writer_opts o = {.sz = sizeof(o)};
	struct pk_writer *w;
	uint8_t *exp;
	uint64_t nr;
	size_t len;
	pid_t pid;
	int status;
	int pfd[2];

	(void)state;
	path_in_tmp(path, sizeof(path), "killed.data");
	assert_int_equal(pipe(pfd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		w = open_writer(path, &o);
		if (pk_writer_start(w))
			_exit(1);
		len = write_records(w, 40, &exp, true);
		pk_writer_flush(w);
		if (write(pfd[1], &len, sizeof(len)) != sizeof(len))
			_exit(1);
		pause();
		_exit(0);
	}
	close(pfd[1]);
	assert_int_equal(read(pfd[0], &len, sizeof(len)), sizeof(len));
	close(pfd[0]);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	/* the file took its name when its header was written, before the
	 * kill; no temporary file is left */
	{
		char cmd[600];
		FILE *p;

		snprintf(cmd, sizeof(cmd), "ls -d %s/.killed.data.perfkit-* 2>/dev/null", tmpdir);
		p = popen(cmd, "r");
		assert_non_null(p);
		assert_null(fgets(tmp, sizeof(tmp), p));
		pclose(p);
	}
	assert_int_equal(access(path, F_OK), 0);
	{
		struct pk_writer *w2;
		char p2[256];

		path_in_tmp(p2, sizeof(p2), "scratch.data");
		w2 = open_writer(p2, &o);
		assert_int_equal(pk_writer_start(w2), 0);
		assert_int_equal(write_records(w2, 40, &exp, true), len);
		pk_writer_close(w2);
	}
	check_records(path, exp, len, &nr);
	assert_int_equal(nr, 48);
	unlink(path);
	free(exp);
}

/* A finished recording without records (the disk was full before the
 * first one) has data size 0 like a killed one, but it is complete: it must
 * read as empty, without the "not finalized" warning and without taking
 * its feature table for records. */
static void test_finished_empty(void **state)
{
	char path[256];
	struct pk_writer_opts o = {.sz = sizeof(o)};
	struct pk_writer *w;
	struct pk_reader *rd;
	const struct pk_record *rec;

	(void)state;
	path_in_tmp(path, sizeof(path), "empty.data");
	w = open_writer(path, &o);
	assert_int_equal(pk_writer_start(w), 0);
	assert_int_equal(pk_writer_finish(w), 0);
	pk_writer_close(w);
	assert_int_equal(pk_reader_open(&rd, path, NULL), 0);
	assert_int_equal(pk_reader_header(rd)->data_size, 0);
	assert_int_equal(pk_reader_next(rd, &rec), 0);
	assert_int_equal(pk_reader_nr_warnings(rd), 0);
	assert_true(pk_reader_header(rd)->features[0] != 0);
	pk_reader_close(rd);
	unlink(path);
}

/* The disk fills up (RLIMIT_FSIZE stands in for it): the writer stops and
 * the file still reads cleanly, every record in it whole. */
static void test_disk_full(void **state)
{
	char path[256];
	struct pk_writer_opts o = {.sz = sizeof(o), .buffer_size = 65536};
	struct rlimit old, lim = {.rlim_cur = 200000, .rlim_max = RLIM_INFINITY};
	struct pk_writer *w;
	struct pk_reader *rd;
	const struct pk_record *rec;
	struct recbuf r;
	int err = 0, rc, i;
	uint64_t n = 0;

	(void)state;
	path_in_tmp(path, sizeof(path), "full.data");
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim.rlim_max = old.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	w = open_writer(path, &o);
	assert_int_equal(pk_writer_start(w), 0);
	for (i = 0; i < 100000 && !err; i++) {
		make_record(&r, i % NR_KINDS, 1000 + i);
		err = pk_writer_write(w, r.b, r.len);
	}
	assert_int_not_equal(err, 0);
	assert_int_not_equal(pk_writer_finish(w), 0);
	pk_writer_close(w);
	setrlimit(RLIMIT_FSIZE, &old);

	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(pk_reader_open(&rd, path, NULL), 0);
	assert_true(pk_reader_header(rd)->data_size > 0);
	while ((rc = pk_reader_next(rd, &rec)) > 0)
		n++;
	assert_int_equal(rc, 0);
	assert_true(n > 100);
	pk_reader_close(rd);
}

/* A symlink planted at the output name is replaced, never followed. */
static void test_symlink_not_followed(void **state)
{
	char path[256], victim[256], buf[8] = {0};
	struct pk_writer_opts o = {.sz = sizeof(o)};
	struct pk_writer *w;
	struct stat st;
	int fd;

	(void)state;
	path_in_tmp(path, sizeof(path), "link.data");
	path_in_tmp(victim, sizeof(victim), "victim");
	fd = open(victim, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "keep", 4), 4);
	close(fd);
	assert_int_equal(symlink(victim, path), 0);
	w = open_writer(path, &o);
	assert_int_equal(pk_writer_start(w), 0);
	assert_int_equal(pk_writer_finish(w), 0);
	pk_writer_close(w);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	fd = open(victim, O_RDONLY);
	assert_int_equal(read(fd, buf, sizeof(buf)), 4);
	close(fd);
	assert_string_equal(buf, "keep");
}

static void test_bad_record_rejected(void **state)
{
	char path[256];
	struct pk_writer_opts o = {.sz = sizeof(o)};
	struct pk_writer *w;
	struct perf_event_header h = {.type = 9, .size = 12};

	(void)state;
	path_in_tmp(path, sizeof(path), "bad.data");
	w = open_writer(path, &o);
	assert_int_equal(pk_writer_start(w), 0);
	assert_int_equal(pk_writer_write(w, &h, 12), -EINVAL);
	h.size = 16;
	assert_int_equal(pk_writer_write(w, &h, 8), -EINVAL);
	pk_writer_close(w);
	assert_int_not_equal(access(path, F_OK), 0);
}

/* ---- recorder ---------------------------------------------------------- */

/* Record `true` through the library; our reader must read every record
 * and count the samples the summary reports.  Skipped without
 * perf_event_open permission. */
static void test_recorder_api(void **state)
{
	char path[256];
	char *const argv[] = {"sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done", NULL};
	struct pk_recorder_opts o = {.sz = sizeof(o), .argv = argv, .freq = 1000};
	struct pk_recorder_summary sum;
	struct pk_recorder *rec;
	struct pk_reader *rd;
	const struct pk_record *r;
	uint64_t samples = 0, kernel_maps = 0, comms = 0, rounds = 0;
	int err, rc;

	(void)state;
	path_in_tmp(path, sizeof(path), "rec.data");
	o.output = path;
	err = pk_recorder_open(&rec, &o);
	if (err == -EACCES || err == -EPERM) {
		pk_recorder_close(rec);
		skip();
	}
	if (err)
		fail_msg("%s", pk_recorder_error(rec));
	assert_int_equal(pk_recorder_run(rec), 0);
	assert_int_equal(pk_recorder_finish(rec, &sum), 0);
	assert_true(sum.command_ran);
	pk_recorder_close(rec);

	assert_int_equal(pk_reader_open(&rd, path, NULL), 0);
	while ((rc = pk_reader_next(rd, &r)) > 0) {
		samples += r->type == PK_RECORD_SAMPLE;
		kernel_maps += r->type == PK_RECORD_MMAP;
		comms += r->type == PK_RECORD_COMM;
		rounds += r->type == PK_RECORD_FINISHED_ROUND;
	}
	if (rc < 0)
		fail_msg("%s", pk_reader_error(rd));
	assert_int_equal(samples, sum.samples);
	assert_true(comms >= 1); /* the exec of sh */
	assert_true(rounds >= 1);
	assert_true(kernel_maps <= 1 + 1000);
	assert_true(pk_header_has(pk_reader_header(rd), PK_FEAT_EVENT_DESC));
	assert_true(pk_header_has(pk_reader_header(rd), PK_FEAT_CMDLINE) == false);
	pk_reader_close(rd);
}

/* ---- ring ------------------------------------------------------------ */

static int setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* AUXTRACE records carry their data after the record: our reader skips it
 * by the size field, and so does perf 6.1 (checked when perf is here). */
static void test_auxtrace_record(void **state)
{
	char path[256], cmd[512], line[256];
	struct pk_writer_opts o = {.sz = sizeof(o)};
	struct pk_auxtrace_desc d = {.offset = 4096, .reference = 77, .idx = 1, .tid = 42,
				     .cpu = (uint32_t)-1};
	uint8_t payload[1001];
	struct pk_writer *w;
	struct pk_reader *rd;
	const struct pk_record *rec;
	struct recbuf r;
	int types[8] = {0}, n = 0, rc;
	bool perf_ok = false;
	FILE *p;

	(void)state;
	memset(payload, 0xa5, sizeof(payload));
	path_in_tmp(path, sizeof(path), "aux.data");
	w = open_writer(path, &o);
	assert_int_equal(pk_writer_start(w), 0);
	make_record(&r, 0, 1000);
	assert_int_equal(pk_writer_write(w, r.b, r.len), 0);
	assert_int_equal(pk_writer_write_auxtrace(w, &d, payload, sizeof(payload)), 0);
	make_record(&r, 0, 1001);
	assert_int_equal(pk_writer_write(w, r.b, r.len), 0);
	assert_int_equal(pk_writer_finish(w), 0);
	pk_writer_close(w);

	assert_int_equal(pk_reader_open(&rd, path, NULL), 0);
	while ((rc = pk_reader_next(rd, &rec)) > 0 && n < 8) {
		types[n++] = (int)rec->type;
		if (rec->type == PK_RECORD_AUXTRACE) {
			struct pk_record_fields f;

			assert_int_equal(pk_record_decode(rec, &f, NULL), 0);
			assert_int_equal(f.auxtrace.size, 1008); /* padded */
			assert_int_equal(f.auxtrace.offset, 4096);
			assert_int_equal(f.auxtrace.reference, 77);
			assert_int_equal(f.auxtrace.idx, 1);
			assert_int_equal(f.auxtrace.tid, 42);
		}
	}
	assert_int_equal(rc, 0);
	assert_int_equal(n, 3);
	assert_int_equal(types[1], PK_RECORD_AUXTRACE);
	assert_int_equal(types[0], types[2]);
	pk_reader_close(rd);

	snprintf(cmd, sizeof(cmd), "perf report --stats -i %s 2>/dev/null", path);
	p = popen(cmd, "r");
	if (p) {
		while (fgets(line, sizeof(line), p))
			if (strstr(line, "AUXTRACE events:") && strstr(line, " 1 "))
				perf_ok = true;
		if (pclose(p) == -1 || !perf_ok)
			print_message("perf did not report the AUXTRACE record (perf missing?)\n");
	}
	if (access("/usr/bin/perf", X_OK) == 0)
		assert_true(perf_ok);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_round_trip),
		cmocka_unit_test(test_pipe_round_trip),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_killed_run),
		cmocka_unit_test(test_disk_full),
		cmocka_unit_test(test_symlink_not_followed),
		cmocka_unit_test(test_finished_empty),
		cmocka_unit_test(test_bad_record_rejected),
		cmocka_unit_test(test_recorder_api),
		cmocka_unit_test(test_auxtrace_record),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
