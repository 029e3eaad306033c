// SPDX-License-Identifier: MIT
/*
 * sample_self: sample this program's own execution through the ring buffer.
 *
 * Opens a task-clock sampling event on the calling thread (IP, TID and TIME
 * in each sample, 1000 Hz), maps its ring with pk_ring_map(), burns CPU in
 * a loop, and reads the samples as the kernel wrote them, printing the
 * first few and a count.  No perf.data is involved: this is how a program
 * profiles itself.
 *
 *	sample_self [milliseconds]
 *
 * Exits 0 when at least one sample came back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <perfkit/perfkit.h>

/* PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME, in this order */
struct sample {
	struct perf_event_header h;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static volatile unsigned long sink;

static void burn(double ms)
{
	double end = now_ms() + ms;

	while (now_ms() < end)
		for (int i = 0; i < 10000; i++)
			sink += (unsigned long)i * i;
}

/* Read what the ring holds; returns the number of samples seen. */
static long drain(struct pk_ring *ring, long *printed)
{
	const struct perf_event_header *h;
	long n = 0;

	if (pk_ring_begin(ring) <= 0)
		return 0;
	while (pk_ring_next(ring, &h) > 0) {
		struct sample s;

		if (h->type != PERF_RECORD_SAMPLE || h->size < sizeof(s))
			continue;
		memcpy(&s, h, sizeof(s));
		if ((*printed)++ < 5)
			printf("sample: pid %u tid %u time %llu ip %#llx\n", s.pid, s.tid,
			       (unsigned long long)s.time, (unsigned long long)s.ip);
		n++;
	}
	pk_ring_end(ring);
	return n;
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 200;
	struct perf_event_attr attr = {0};
	struct pk_ring_opts ro = {.sz = sizeof(ro), .data_pages = 64};
	struct pk_ring *ring;
	long total = 0, printed = 0;
	int fd, err;

	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.freq = 1;
	attr.sample_freq = 1000;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = pk_evfd_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, NULL);
	if (fd < 0) {
		fprintf(stderr, "sample_self: perf_event_open: %s\n", strerror(-fd));
		return 1;
	}
	err = pk_ring_map(&ring, fd, &ro);
	if (err) {
		fprintf(stderr, "sample_self: mapping the ring: %s\n", strerror(-err));
		return 1;
	}
	pk_evfd_enable(fd, false);
	/* read in slices so a small ring never overflows */
	for (double done = 0; done < ms; done += 20) {
		burn(20);
		total += drain(ring, &printed);
	}
	pk_evfd_disable(fd, false);
	total += drain(ring, &printed);
	printf("%ld samples in %.0f ms\n", total, ms);
	pk_ring_unmap(ring);
	close(fd);
	return total > 0 ? 0 : 1;
}
