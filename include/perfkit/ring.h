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

/* The ring's first page (struct perf_event_mmap_page), for reading the
 * counter fields or, in a forward ring, setting aux_offset/aux_size. */
struct perf_event_mmap_page *pk_ring_user_page(const struct pk_ring *r);

/* ---- the AUX area (Intel PT, ARM SPE/CoreSight, ...) -------------------
 *
 * An AUX-capable PMU writes its trace into a second buffer, the AUX area,
 * mapped from the same descriptor after the data area; the ring's
 * PERF_RECORD_AUX records say which part of it was written (with the
 * PERF_AUX_FLAG_* flags).  Forward mode: read [aux_tail, aux_head) and give
 * the space back.  Overwrite (snapshot) mode: the PMU keeps overwriting;
 * the area is mapped read-only and a snapshot is the newest aux_size bytes.
 */
struct pk_aux;

struct pk_aux_opts {
	size_t sz;		/* sizeof(struct pk_aux_opts) */
	size_t pages;		/* power of two; 0 = 64 */
	bool overwrite;		/* snapshot mode (mapped read-only) */
};

/*
 * Map the AUX area of a forward ring mapped with pk_ring_map(): writes
 * aux_offset (just after the data area) and aux_size into the user page
 * and maps them.  Returns 0 or -errno (-EINVAL: bad size or an overwrite
 * data ring, whose user page cannot be written; -EOPNOTSUPP/-EINVAL from
 * the kernel: the PMU has no AUX output).  Free with pk_aux_unmap().
 */
int pk_aux_map(struct pk_aux **out, struct pk_ring *ring, const struct pk_aux_opts *opts);

/* The same on memory the caller provides (tests, replays): pc is the user
 * page whose aux_head/aux_tail are used, area the AUX buffer of size bytes
 * (a power of two). */
int pk_aux_attach(struct pk_aux **out, struct perf_event_mmap_page *pc, void *area, size_t size,
		  bool overwrite);

void pk_aux_unmap(struct pk_aux *a);
size_t pk_aux_size(const struct pk_aux *a);

/* New AUX data: up to two pieces (the second when it wraps around). */
struct pk_aux_chunk {
	const void *p[2];
	size_t len[2];
	uint64_t offset;	/* position of the first byte in the AUX stream */
};

/*
 * Take a snapshot of the AUX data the PMU wrote since the last
 * pk_aux_end() (forward) or its newest aux_size bytes (overwrite); fills
 * *c.  Returns the number of bytes (0: nothing new).
 */
int64_t pk_aux_begin(struct pk_aux *a, struct pk_aux_chunk *c);

/* Give the space of the snapshot back (release store of aux_tail;
 * nothing to do in overwrite mode). */
void pk_aux_end(struct pk_aux *a);

#ifdef __cplusplus
}
#endif
#endif
