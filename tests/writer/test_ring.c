// SPDX-License-Identifier: MIT
/*
 * Ring buffer unit tests on plain memory: the wrap-around copy and the
 * tail released only at the end, a corrupt record, a backward (overwrite)
 * ring; the AUX area in forward and overwrite mode, and an AUX mapping
 * the kernel refuses (live, on a software event).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>
#include <linux/perf_event.h>
#include <perfkit/ring.h>
#include "test_records.h"

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
	struct perf_event_attr attr = {.size = sizeof(attr),
				       .type = PERF_TYPE_SOFTWARE,
				       .config = PERF_COUNT_SW_DUMMY,
				       .disabled = 1,
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_wrap),     cmocka_unit_test(test_ring_corrupt),
		cmocka_unit_test(test_ring_backward), cmocka_unit_test(test_aux_forward),
		cmocka_unit_test(test_aux_overwrite), cmocka_unit_test(test_aux_map_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
