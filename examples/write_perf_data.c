// SPDX-License-Identifier: MIT
/*
 * write_perf_data: write a perf.data from synthetic samples with the
 * writer API, one that the real perf reads.
 *
 * The "process" is this program itself: a COMM record names it, an MMAP2
 * record maps its own executable, and N samples of a cpu-clock event land
 * on the address of hot_function (or cold_function for every fourth), so
 * `perf report` shows the two symbols at 75% and 25%.
 *
 *	write_perf_data OUTPUT [samples]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perfkit/perfkit.h>

#define PID 4242
#define SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)

__attribute__((noinline)) int hot_function(int x)
{
	return x * 2;
}

__attribute__((noinline)) int cold_function(int x)
{
	return x + 1;
}

/* sample_id_all trailer for non-sample records: pid, tid, time */
struct id_trailer {
	uint32_t pid, tid;
	uint64_t time;
};

static int write_comm(struct pk_writer *w, uint64_t time)
{
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		char comm[16];
		struct id_trailer id;
	} rec = {.h = {.type = PERF_RECORD_COMM, .size = sizeof(rec)}, .pid = PID, .tid = PID};

	snprintf(rec.comm, sizeof(rec.comm), "synthetic");
	rec.id = (struct id_trailer){PID, PID, time};
	return pk_writer_write(w, &rec, sizeof(rec));
}

/* Map our own text segment where the kernel did, so perf symbolizes the
 * sample addresses with this very file's symbols. */
static int write_mmap(struct pk_writer *w, const char *exe, uint64_t start, uint64_t len,
		      uint64_t pgoff, uint64_t time)
{
	uint8_t buf[512] = {0};
	struct perf_event_header *h = (struct perf_event_header *)buf;
	size_t name_len = strlen(exe) + 1, off = sizeof(*h);
	uint32_t ids[2] = {PID, PID}, prot_flags[2] = {5 /* r-x */, 2 /* MAP_PRIVATE */};
	uint64_t fields[3] = {start, len, pgoff}, dev_ino[3] = {0, 0, 0};
	struct id_trailer id = {PID, PID, time};

	if (name_len > 256)
		return -1;
	memcpy(buf + off, ids, 8), off += 8;
	memcpy(buf + off, fields, 24), off += 24;
	memcpy(buf + off, dev_ino, 24), off += 24;	/* maj, min, ino, ino_generation */
	memcpy(buf + off, prot_flags, 8), off += 8;
	memcpy(buf + off, exe, name_len), off += (name_len + 7) & ~(size_t)7;
	memcpy(buf + off, &id, sizeof(id)), off += sizeof(id);
	h->type = PERF_RECORD_MMAP2;
	h->misc = PERF_RECORD_MISC_USER;
	h->size = (uint16_t)off;
	return pk_writer_write(w, buf, off);
}

static int write_sample(struct pk_writer *w, uint64_t ip, uint64_t time)
{
	struct {
		struct perf_event_header h;
		uint64_t ip;
		uint32_t pid, tid;
		uint64_t time, period;
	} rec = {.h = {.type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER,
		       .size = sizeof(rec)},
		 .ip = ip, .pid = PID, .tid = PID, .time = time, .period = 1000000};

	return pk_writer_write(w, &rec, sizeof(rec));
}

/* Our executable's r-x mapping from /proc/self/maps. */
static int own_text(char *exe, size_t size, uint64_t *start, uint64_t *end, uint64_t *pgoff)
{
	char line[1024], perms[8], path[768];
	FILE *f = fopen("/proc/self/maps", "r");
	ssize_t n = readlink("/proc/self/exe", exe, size - 1);
	int found = -1;

	if (!f || n <= 0) {
		if (f)
			fclose(f);
		return -1;
	}
	exe[n] = 0;
	while (found && fgets(line, sizeof(line), f)) {
		unsigned long long s, e, o;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %767s", &s, &e, perms, &o, path) == 5 &&
		    perms[2] == 'x' && !strcmp(path, exe)) {
			*start = s, *end = e, *pgoff = o;
			found = 0;
		}
	}
	fclose(f);
	return found;
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr = {.size = sizeof(attr), .type = PERF_TYPE_SOFTWARE,
				       .config = PERF_COUNT_SW_CPU_CLOCK};
	struct pk_writer_opts o = {.sz = sizeof(o)};
	int n = argc > 2 ? atoi(argv[2]) : 1000;
	uint64_t start, end, pgoff, id = 1, t = 1000000000ULL;
	char exe[768];
	struct pk_writer *w;
	int err;

	if (argc < 2 || own_text(exe, sizeof(exe), &start, &end, &pgoff)) {
		fprintf(stderr, "usage: write_perf_data OUTPUT [samples]\n");
		return 2;
	}
	attr.sample_period = 1000000;
	attr.sample_type = SAMPLE_TYPE;
	attr.sample_id_all = 1;
	attr.mmap = attr.mmap2 = attr.comm = 1;
	err = pk_writer_open(&w, argv[1], &o);
	if (!err)
		err = pk_writer_add_attr(w, &attr, "cpu-clock", &id, 1);
	if (!err)
		err = pk_writer_add_host_features(w, argc, argv);
	if (!err)
		err = pk_writer_start(w);
	if (!err)
		err = write_comm(w, t) ?: write_mmap(w, exe, start, end - start, pgoff, t);
	for (int i = 0; !err && i < n; i++) {
		void *fn = i % 4 == 3 ? (void *)cold_function : (void *)hot_function;

		err = write_sample(w, (uint64_t)(uintptr_t)fn, t + 1000 + (uint64_t)i * 1000000);
	}
	if (!err)
		err = pk_writer_finish(w);
	if (err)
		fprintf(stderr, "write_perf_data: %s\n", pk_writer_error(w));
	pk_writer_close(w);
	hot_function(1);
	cold_function(1);
	return err ? 1 : 0;
}
