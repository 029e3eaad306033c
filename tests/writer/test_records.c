// SPDX-License-Identifier: MIT
/* Records as the kernel writes them (test_records.h). */
#include <string.h>
#include <linux/perf_event.h>
#include "test_records.h"

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

void make_record(struct recbuf *r, int kind, uint64_t t)
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
