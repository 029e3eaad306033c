// SPDX-License-Identifier: MIT
/*
 * Writer and ring unit tests: every record type the writer emits goes
 * through our reader and must come back byte for byte; file mode, pipe
 * mode, -z, a run killed before finish, a full disk, a planted symlink;
 * the ring's wrap-around copy and tail release.
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
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <perfkit/perfkit.h>
#include <perfkit/recorder.h>
#include <perfkit/ring.h>
#include <perfkit/writer.h>

#define ST                                                                                         \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |            \
	 PERF_SAMPLE_PERIOD)

static char tmpdir[] = "/tmp/pk-writer-test-XXXXXX";

static void path_in_tmp(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", tmpdir, name);
}

struct recbuf {
	uint8_t b[512];
	size_t len;
};

static void rb_start(struct recbuf *r, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = {.type = type, .misc = misc};

	memset(r, 0, sizeof(*r));
	memcpy(r->b, &h, sizeof(h));
	r->len = 8;
}

static void rb_put(struct recbuf *r, const void *p, size_t n)
{
	memcpy(r->b + r->len, p, n);
	r->len += n;
}

static void rb_u32(struct recbuf *r, uint32_t v)
{
	rb_put(r, &v, 4);
}

static void rb_u64(struct recbuf *r, uint64_t v)
{
	rb_put(r, &v, 8);
}

static void rb_str(struct recbuf *r, const char *s)
{
	size_t n = strlen(s) + 1;

	rb_put(r, s, n);
	r->len = (r->len + 7) & ~(size_t)7;
}

/* sample_id_all trailer: TID, TIME, IDENTIFIER */
static void rb_trailer(struct recbuf *r, uint32_t pid, uint64_t time, uint64_t id)
{
	rb_u32(r, pid);
	rb_u32(r, pid);
	rb_u64(r, time);
	rb_u64(r, id);
}

static void rb_finish(struct recbuf *r)
{
	uint16_t sz = (uint16_t)r->len;

	memcpy(r->b + 6, &sz, 2);
}

#define NR_KINDS 9

/* One record of each kind the recorder emits. */
static void make_record(struct recbuf *r, int kind, uint64_t t)
{
	switch (kind) {
	case 0: /* MMAP: the kernel map */
		rb_start(r, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);
		rb_u32(r, UINT32_MAX);
		rb_u32(r, 0);
		rb_u64(r, 0xffffffff81000000ULL);
		rb_u64(r, 0x1000000);
		rb_u64(r, 0xffffffff81000000ULL);
		rb_str(r, "[kernel.kallsyms]_text");
		rb_trailer(r, UINT32_MAX, 0, 7);
		break;
	case 1: /* MMAP2 */
		rb_start(r, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
		rb_u32(r, 42);
		rb_u32(r, 42);
		rb_u64(r, 0x400000);
		rb_u64(r, 0x1000);
		rb_u64(r, 0);
		rb_u32(r, 8);
		rb_u32(r, 1);
		rb_u64(r, 1234);
		rb_u64(r, 0);
		rb_u32(r, 5);
		rb_u32(r, 2);
		rb_str(r, "/usr/bin/true");
		rb_trailer(r, 42, t, 7);
		break;
	case 2: /* COMM */
		rb_start(r, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
		rb_u32(r, 42);
		rb_u32(r, 42);
		rb_str(r, "true");
		rb_trailer(r, 42, t, 7);
		break;
	case 3: /* FORK */
	case 4: /* EXIT */
		rb_start(r, kind == 3 ? PERF_RECORD_FORK : PERF_RECORD_EXIT, 0);
		rb_u32(r, 43);
		rb_u32(r, 42);
		rb_u32(r, 43);
		rb_u32(r, 42);
		rb_u64(r, t);
		rb_trailer(r, 43, t, 7);
		break;
	case 5: /* LOST */
		rb_start(r, PERF_RECORD_LOST, 0);
		rb_u64(r, 7);
		rb_u64(r, 3);
		rb_trailer(r, 42, t, 7);
		break;
	case 6: /* SWITCH */
		rb_start(r, PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT);
		rb_trailer(r, 42, t, 7);
		break;
	case 7: /* THROTTLE */
		rb_start(r, PERF_RECORD_THROTTLE, 0);
		rb_u64(r, t);
		rb_u64(r, 7);
		rb_u64(r, 7);
		rb_trailer(r, 42, t, 7);
		break;
	default: /* SAMPLE: IDENTIFIER IP TID TIME PERIOD */
		rb_start(r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		rb_u64(r, 7);
		rb_u64(r, 0x400123);
		rb_u32(r, 42);
		rb_u32(r, 42);
		rb_u64(r, t);
		rb_u64(r, 250000);
		break;
	}
	rb_finish(r);
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

#define PAGE 4096
#define DATA 4096

static void ring_put(uint8_t *data, uint64_t pos, const void *rec, size_t n)
{
	for (size_t i = 0; i < n; i++)
		data[(pos + i) % DATA] = ((const uint8_t *)rec)[i];
}

static void test_ring_wrap(void **state)
{
	static uint8_t mem[PAGE + DATA] __attribute__((aligned(8)));
	struct perf_event_mmap_page *pc = (struct perf_event_mmap_page *)mem;
	const struct perf_event_header *ev;
	struct pk_ring *ring;
	uint64_t pos = DATA - 48; /* the first record straddles the end */
	struct recbuf r;
	int seen = 0;

	(void)state;
	memset(mem, 0, sizeof(mem));
	pc->data_head = pc->data_tail = pos;
	assert_int_equal(pk_ring_attach(&ring, mem, PAGE, DATA, false), 0);
	assert_int_equal(pk_ring_begin(ring), 0);
	pk_ring_end(ring);
	for (int i = 0; i < 3; i++) {
		make_record(&r, 1, 100 + i); /* MMAP2: 104 bytes */
		ring_put(mem + PAGE, pos, r.b, r.len);
		pos += r.len;
	}
	pc->data_head = pos;
	assert_int_equal(pk_ring_begin(ring), 3 * r.len);
	while (pk_ring_next(ring, &ev) > 0) {
		make_record(&r, 1, 100 + seen);
		assert_int_equal(ev->size, r.len);
		assert_memory_equal(ev, r.b, r.len);
		seen++;
	}
	assert_int_equal(seen, 3);
	assert_int_not_equal(pc->data_tail, pos); /* released only at end */
	pk_ring_end(ring);
	assert_int_equal(pc->data_tail, pos);
	assert_int_equal(pk_ring_begin(ring), 0);
	pk_ring_unmap(ring);
}

static void test_ring_corrupt(void **state)
{
	static uint8_t mem[PAGE + DATA] __attribute__((aligned(8)));
	struct perf_event_mmap_page *pc = (struct perf_event_mmap_page *)mem;
	const struct perf_event_header *ev;
	struct perf_event_header bad = {.type = 9, .size = 4};
	struct pk_ring *ring;

	(void)state;
	memset(mem, 0, sizeof(mem));
	memcpy(mem + PAGE, &bad, sizeof(bad));
	pc->data_head = 64;
	assert_int_equal(pk_ring_attach(&ring, mem, PAGE, DATA, false), 0);
	assert_int_equal(pk_ring_begin(ring), 64);
	assert_int_equal(pk_ring_next(ring, &ev), -EINVAL);
	assert_int_equal(pk_ring_next(ring, &ev), 0);
	pk_ring_end(ring);
	assert_int_equal(pc->data_tail, 64);
	assert_int_equal(pk_ring_bad_bytes(ring), 64);
	pk_ring_unmap(ring);
	assert_int_equal(pk_ring_attach(&ring, mem, PAGE, 3000, false), -EINVAL);
}

static void test_ring_backward(void **state)
{
	static uint8_t mem[PAGE + DATA] __attribute__((aligned(8)));
	struct perf_event_mmap_page *pc = (struct perf_event_mmap_page *)mem;
	const struct perf_event_header *ev;
	struct pk_ring *ring;
	uint64_t head = 0;
	struct recbuf r;
	int seen = 0;

	(void)state;
	memset(mem, 0, sizeof(mem));
	/* the kernel writes backwards: newest record at the lowest address */
	for (int i = 0; i < 2; i++) {
		make_record(&r, 2, 100 + i);
		head -= r.len;
		ring_put(mem + PAGE, head, r.b, r.len);
	}
	pc->data_head = head;
	assert_int_equal(pk_ring_attach(&ring, mem, PAGE, DATA, true), 0);
	assert_true(pk_ring_begin(ring) > 0);
	while (pk_ring_next(ring, &ev) > 0) {
		make_record(&r, 2, 101 - seen);
		assert_memory_equal(ev, r.b, r.len);
		seen++;
	}
	assert_int_equal(seen, 2);
	pk_ring_end(ring);
	pk_ring_unmap(ring);
}

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

/* AUX area, forward mode, on plain memory: a chunk that wraps around the
 * end comes in two pieces, aux_tail moves only at pk_aux_end(). */
static void test_aux_forward(void **state)
{
	static struct perf_event_mmap_page pc;
	static uint8_t area[4096];
	struct pk_aux *a;
	struct pk_aux_chunk c;
	uint8_t got[600];

	(void)state;
	memset(&pc, 0, sizeof(pc));
	for (size_t i = 0; i < sizeof(area); i++)
		area[i] = (uint8_t)(i * 7);
	assert_int_equal(pk_aux_attach(&a, &pc, area, 3000, false), -EINVAL); /* not 2^n */
	assert_int_equal(pk_aux_attach(&a, &pc, area, sizeof(area), false), 0);
	assert_int_equal(pk_aux_begin(a, &c), 0);
	/* the driver wrote 600 bytes from stream offset 3700: wraps at 4096 */
	pc.aux_tail = 3700;
	pc.aux_head = 4300;
	assert_int_equal(pk_aux_begin(a, &c), 600);
	assert_int_equal(c.offset, 3700);
	assert_int_equal(c.len[0], 396);
	assert_int_equal(c.len[1], 204);
	memcpy(got, c.p[0], c.len[0]);
	memcpy(got + c.len[0], c.p[1], c.len[1]);
	for (int i = 0; i < 600; i++)
		assert_int_equal(got[i], (uint8_t)(((3700 + i) % 4096) * 7));
	assert_int_equal(pc.aux_tail, 3700);
	pk_aux_end(a);
	assert_int_equal(pc.aux_tail, 4300);
	assert_int_equal(pk_aux_begin(a, &c), 0);
	/* a head more than one area ahead (corrupt page): the newest area only */
	pc.aux_head = 4300 + 10000;
	assert_int_equal(pk_aux_begin(a, &c), 4096);
	assert_int_equal(c.offset, 4300 + 10000 - 4096);
	pk_aux_unmap(a);
}

/* Overwrite (snapshot) mode: the newest aux_size bytes; aux_tail is never
 * written (the area is read-only to us). */
static void test_aux_overwrite(void **state)
{
	static struct perf_event_mmap_page pc;
	static uint8_t area[1024];
	struct pk_aux *a;
	struct pk_aux_chunk c;

	(void)state;
	memset(&pc, 0, sizeof(pc));
	assert_int_equal(pk_aux_attach(&a, &pc, area, sizeof(area), true), 0);
	pc.aux_head = 100;
	assert_int_equal(pk_aux_begin(a, &c), 100);
	assert_int_equal(c.offset, 0);
	pk_aux_end(a);
	pc.aux_head = 5000;
	assert_int_equal(pk_aux_begin(a, &c), 1024);
	assert_int_equal(c.offset, 5000 - 1024);
	assert_int_equal(c.len[0] + c.len[1], 1024);
	assert_int_equal(c.p[0], area + ((5000 - 1024) % 1024));
	pk_aux_end(a);
	assert_int_equal(pc.aux_tail, 0);
	pk_aux_unmap(a);
}

/* Live: a software event has no AUX output; mapping its AUX area fails
 * cleanly (no AUX-capable PMU exists on this machine). */
static void test_aux_map_refused(void **state)
{
	struct perf_event_attr attr = {.size = sizeof(attr), .type = PERF_TYPE_SOFTWARE,
				       .config = PERF_COUNT_SW_DUMMY, .disabled = 1,
				       .exclude_kernel = 1};
	struct pk_ring_opts ro = {.sz = sizeof(ro), .data_pages = 4};
	struct pk_aux_opts ao = {.sz = sizeof(ao), .pages = 3};
	struct pk_ring *ring;
	struct pk_aux *a;
	int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);

	(void)state;
	if (fd < 0)
		skip();
	assert_int_equal(pk_ring_map(&ring, fd, &ro), 0);
	assert_int_equal(pk_aux_map(&a, ring, &ao), -EINVAL); /* 3 pages: not 2^n */
	ao.pages = 4;
	assert_true(pk_aux_map(&a, ring, &ao) < 0);
	assert_null(a);
	pk_ring_unmap(ring);
	close(fd);
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
		cmocka_unit_test(test_ring_wrap),
		cmocka_unit_test(test_aux_forward),
		cmocka_unit_test(test_aux_overwrite),
		cmocka_unit_test(test_aux_map_refused),
		cmocka_unit_test(test_auxtrace_record),
		cmocka_unit_test(test_ring_corrupt),
		cmocka_unit_test(test_ring_backward),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
