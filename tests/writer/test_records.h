/* SPDX-License-Identifier: MIT */
/* Records as the kernel writes them, for the writer's and the ring's tests. */
#ifndef PK_TEST_RECORDS_H
#define PK_TEST_RECORDS_H

#include <stddef.h>
#include <stdint.h>

struct recbuf {
	uint8_t b[512];
	size_t len;
};

#define NR_KINDS 9

/* One record of each kind the recorder emits (kind 0 .. NR_KINDS - 1: MMAP
 * of the kernel, MMAP2, COMM, FORK, EXIT, LOST, SWITCH, THROTTLE, SAMPLE),
 * t its time. */
void make_record(struct recbuf *r, int kind, uint64_t t);

#endif
