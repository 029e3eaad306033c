/* SPDX-License-Identifier: MIT */
/*
 * perfkit/ring.h - read the ring buffer the kernel fills for a perf event
 * (mmap of the event descriptor: a control page, then 2^n data pages).
 *
 *	struct pk_ring *r;
 *	struct pk_ring_opts o = {.sz = sizeof(o), .data_pages = 128};
 *	pk_ring_map(&r, fd, &o);
 *	pk_ring_redirect(other_fd, fd);        (same CPU: one buffer for both)
 *	...poll(pk_ring_fd(r), POLLIN)...
 *	if (pk_ring_begin(r) > 0) {
 *		while (pk_ring_next(r, &ev) > 0)
 *			consume(ev);           (valid until the next call)
 *		pk_ring_end(r);                (hands the space back)
 *	}
 *
 * data_head is read with acquire ordering before the records, data_tail
 * written with release ordering after them, as perf_event_open(2) asks.
 * A record that wraps around the end of the buffer is copied out whole.
 */
#ifndef PERFKIT_RING_H
#define PERFKIT_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pk_ring;

struct pk_ring_opts {
	size_t sz;	   /* sizeof(struct pk_ring_opts) */
	size_t data_pages; /* power of two; 0 = 128 */
	bool overwrite;	   /* backward (write_backward) ring: mapped
			    * read-only, newest records kept */
};

/*
 * Map the ring of an event descriptor (not closed by the ring).  Returns 0
 * or a negative errno (-EPERM: over the mlock limit, see
 * perf_event_mlock_kb; retry with fewer pages).  *out is freed with
 * pk_ring_unmap().
 */
int pk_ring_map(struct pk_ring **out, int fd, const struct pk_ring_opts *opts);

/*
 * A ring over memory already laid out as the kernel does (control page of
 * page_size bytes, then data_size bytes, a power of two): for tests and
 * for rings mapped by someone else.  The memory is not freed.
 */
int pk_ring_attach(struct pk_ring **out, void *base, size_t page_size, size_t data_size,
		   bool overwrite);

void pk_ring_unmap(struct pk_ring *r);

/* The descriptor the ring was mapped from (-1 when attached). */
int pk_ring_fd(const struct pk_ring *r);

/* Bytes of the data area. */
size_t pk_ring_size(const struct pk_ring *r);

/* Send fd's records to the ring of target_fd (PERF_EVENT_IOC_SET_OUTPUT);
 * both on the same CPU.  0 or a negative errno. */
int pk_ring_redirect(int fd, int target_fd);

/*
 * Take a snapshot of what the kernel wrote.  Returns the number of bytes
 * available (> 0), 0 when there is nothing new.  In overwrite mode the
 * ring is paused until pk_ring_end().
 */
int64_t pk_ring_begin(struct pk_ring *r);

/*
 * Next record of the snapshot: 1 and *ev (valid until the next call), 0
 * at the end of the snapshot, -EINVAL when a record header is corrupt
 * (the rest of the snapshot is dropped).
 */
int pk_ring_next(struct pk_ring *r, const struct perf_event_header **ev);

/* Give back the space of the records read (release store of data_tail);
 * in overwrite mode, resume the ring. */
void pk_ring_end(struct pk_ring *r);

/* Bytes dropped because a record header was corrupt. */
uint64_t pk_ring_bad_bytes(const struct pk_ring *r);

#ifdef __cplusplus
}
#endif
#endif
