// SPDX-License-Identifier: MIT
/*
 * The AUX area of a perf ring buffer.  The user page's aux_head is written
 * by the PMU driver; in forward mode we read [aux_tail, aux_head) and
 * publish the new aux_tail, with the same acquire/release pairing as the
 * data area.  In overwrite mode the driver never waits and a snapshot is
 * the newest aux_size bytes before aux_head.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <perfkit/ring.h>

struct pk_aux {
	struct perf_event_mmap_page *pc;
	uint8_t *area;
	size_t size;		/* power of two */
	bool overwrite;
	bool mapped;
	uint64_t snap_head;	/* aux_head of the snapshot being read */
};

static bool is_pow2(size_t v)
{
	return v && !(v & (v - 1));
}

int pk_aux_attach(struct pk_aux **out, struct perf_event_mmap_page *pc, void *area, size_t size,
		  bool overwrite)
{
	struct pk_aux *a;

	*out = NULL;
	if (!pc || !area || !is_pow2(size))
		return -EINVAL;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->pc = pc;
	a->area = area;
	a->size = size;
	a->overwrite = overwrite;
	*out = a;
	return 0;
}

int pk_aux_map(struct pk_aux **out, struct pk_ring *ring, const struct pk_aux_opts *opts)
{
	struct perf_event_mmap_page *pc = pk_ring_user_page(ring);
	long page = sysconf(_SC_PAGESIZE);
	size_t pages = 64;
	bool overwrite = false;
	void *area;
	int err;

	*out = NULL;
	if (opts && opts->sz >= offsetof(struct pk_aux_opts, overwrite) + sizeof(bool)) {
		if (opts->pages)
			pages = opts->pages;
		overwrite = opts->overwrite;
	}
	if (!pc || pk_ring_fd(ring) < 0 || !is_pow2(pages) || pages > (1u << 20) || page <= 0)
		return -EINVAL;
	/* the AUX area follows the user page and the data area */
	pc->aux_offset = (uint64_t)page + pk_ring_size(ring);
	pc->aux_size = (uint64_t)pages * (uint64_t)page;
	area = mmap(NULL, pc->aux_size, PROT_READ | (overwrite ? 0 : PROT_WRITE), MAP_SHARED,
		    pk_ring_fd(ring), (off_t)pc->aux_offset);
	if (area == MAP_FAILED)
		return -errno;
	err = pk_aux_attach(out, pc, area, pc->aux_size, overwrite);
	if (err) {
		munmap(area, pc->aux_size);
		return err;
	}
	(*out)->mapped = true;
	return 0;
}

void pk_aux_unmap(struct pk_aux *a)
{
	if (!a)
		return;
	if (a->mapped)
		munmap(a->area, a->size);
	free(a);
}

size_t pk_aux_size(const struct pk_aux *a)
{
	return a->size;
}

/* [from, to) of the stream as at most two pieces of the area */
static void fill_chunk(const struct pk_aux *a, uint64_t from, uint64_t to, struct pk_aux_chunk *c)
{
	size_t start = (size_t)(from & (a->size - 1));
	size_t len = (size_t)(to - from);
	size_t first = len < a->size - start ? len : a->size - start;

	c->offset = from;
	c->p[0] = a->area + start;
	c->len[0] = first;
	c->p[1] = a->area;
	c->len[1] = len - first;
}

int64_t pk_aux_begin(struct pk_aux *a, struct pk_aux_chunk *c)
{
	uint64_t head = __atomic_load_n(&a->pc->aux_head, __ATOMIC_ACQUIRE);
	uint64_t tail, from;

	*c = (struct pk_aux_chunk){0};
	a->snap_head = head;
	if (a->overwrite) {
		from = head > a->size ? head - a->size : 0;
	} else {
		tail = a->pc->aux_tail;
		/* the driver never runs past our tail in forward mode; a
		 * head further than one area ahead means a corrupt page */
		from = head - tail > a->size ? head - a->size : tail;
		if (head < tail)
			from = head;
	}
	if (head == from)
		return 0;
	fill_chunk(a, from, head, c);
	return (int64_t)(head - from);
}

void pk_aux_end(struct pk_aux *a)
{
	if (!a->overwrite)
		__atomic_store_n(&a->pc->aux_tail, a->snap_head, __ATOMIC_RELEASE);
}
