// SPDX-License-Identifier: MIT
/*
 * The kernel's ring buffer of one perf event, seen from user space.
 *
 * Forward rings: the kernel advances data_head; we read [tail, head) and
 * then publish the new tail.  The acquire load of data_head orders the
 * record reads after it, the release store of data_tail orders them
 * before the kernel may overwrite the space.
 *
 * Backward (overwrite) rings: the kernel writes downwards from data_head
 * and never waits for us; we pause it, read from head upwards up to the
 * head of the previous snapshot (or one buffer size), and resume.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <perfkit/ring.h>

#define BOUNCE_SIZE 65536

struct pk_ring {
	int fd;
	bool mapped;
	bool overwrite;
	struct perf_event_mmap_page *pc;
	uint8_t *data;
	size_t size; /* data area, power of two */
	size_t map_len;
	uint64_t start, end; /* snapshot being read */
	uint64_t pos;
	uint64_t prev_head; /* overwrite: head of the previous snapshot */
	bool have_prev;
	uint64_t bad_bytes;
	uint8_t bounce[BOUNCE_SIZE];
};

static bool is_pow2(size_t v)
{
	return v && !(v & (v - 1));
}

int pk_ring_attach(struct pk_ring **out, void *base, size_t page_size, size_t data_size,
		   bool overwrite)
{
	struct pk_ring *r;

	*out = NULL;
	if (!base || !is_pow2(data_size) || page_size < sizeof(struct perf_event_mmap_page))
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->fd = -1;
	r->pc = base;
	r->data = (uint8_t *)base + page_size;
	r->size = data_size;
	r->overwrite = overwrite;
	*out = r;
	return 0;
}

int pk_ring_map(struct pk_ring **out, int fd, const struct pk_ring_opts *opts)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t pages = 128;
	bool overwrite = false;
	size_t len;
	void *base;
	int err;

	*out = NULL;
	if (opts && opts->sz >= offsetof(struct pk_ring_opts, overwrite) + sizeof(bool)) {
		if (opts->data_pages)
			pages = opts->data_pages;
		overwrite = opts->overwrite;
	}
	if (!is_pow2(pages) || pages > (1u << 20) || page <= 0)
		return -EINVAL;
	len = (pages + 1) * (size_t)page;
	base = mmap(NULL, len, PROT_READ | (overwrite ? 0 : PROT_WRITE), MAP_SHARED, fd, 0);
	if (base == MAP_FAILED)
		return -errno;
	err = pk_ring_attach(out, base, (size_t)page, pages * (size_t)page, overwrite);
	if (err) {
		munmap(base, len);
		return err;
	}
	(*out)->fd = fd;
	(*out)->mapped = true;
	(*out)->map_len = len;
	return 0;
}

void pk_ring_unmap(struct pk_ring *r)
{
	if (!r)
		return;
	if (r->mapped)
		munmap(r->pc, r->map_len);
	free(r);
}

int pk_ring_fd(const struct pk_ring *r)
{
	return r->fd;
}

size_t pk_ring_size(const struct pk_ring *r)
{
	return r->size;
}

uint64_t pk_ring_bad_bytes(const struct pk_ring *r)
{
	return r->bad_bytes;
}

struct perf_event_mmap_page *pk_ring_user_page(const struct pk_ring *r)
{
	return r->overwrite ? NULL : r->pc;
}

int pk_ring_redirect(int fd, int target_fd)
{
	return ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, target_fd) ? -errno : 0;
}

static int64_t begin_forward(struct pk_ring *r)
{
	uint64_t head = __atomic_load_n(&r->pc->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->pc->data_tail;

	if (head - tail > r->size) {
		/* cannot happen with a sane kernel; drop what is unreadable */
		r->bad_bytes += head - tail;
		__atomic_store_n(&r->pc->data_tail, head, __ATOMIC_RELEASE);
		return 0;
	}
	r->start = r->pos = tail;
	r->end = head;
	return (int64_t)(head - tail);
}

static int64_t begin_backward(struct pk_ring *r)
{
	uint64_t head;

	if (r->fd >= 0)
		ioctl(r->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1);
	head = __atomic_load_n(&r->pc->data_head, __ATOMIC_ACQUIRE);
	r->start = r->pos = head;
	/* newest records from head upwards, up to what we read last time */
	if (r->have_prev && r->prev_head - head <= r->size)
		r->end = r->prev_head;
	else
		r->end = head + r->size;
	r->prev_head = head;
	r->have_prev = true;
	return (int64_t)(r->end - r->start);
}

int64_t pk_ring_begin(struct pk_ring *r)
{
	return r->overwrite ? begin_backward(r) : begin_forward(r);
}

int pk_ring_next(struct pk_ring *r, const struct perf_event_header **ev)
{
	size_t off = r->pos & (r->size - 1);
	uint64_t left = r->end - r->pos;
	struct perf_event_header h;

	if (left < sizeof(h))
		return 0;
	memcpy(&h, r->data + off, sizeof(h));
	if (h.size == 0 && r->overwrite)
		return 0; /* never-written part of a backward ring */
	if (h.size < sizeof(h) || h.size % 8 || h.size > left) {
		if (r->overwrite)
			return 0; /* oldest record partly overwritten */
		r->bad_bytes += left;
		r->pos = r->end;
		return -EINVAL;
	}
	if (off + h.size <= r->size) {
		*ev = (const struct perf_event_header *)(r->data + off);
	} else {
		size_t first = r->size - off;

		memcpy(r->bounce, r->data + off, first);
		memcpy(r->bounce + first, r->data, h.size - first);
		*ev = (const struct perf_event_header *)r->bounce;
	}
	r->pos += h.size;
	return 1;
}

void pk_ring_end(struct pk_ring *r)
{
	if (r->overwrite) {
		if (r->fd >= 0)
			ioctl(r->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0);
		return;
	}
	__atomic_store_n(&r->pc->data_tail, r->pos, __ATOMIC_RELEASE);
}
