// SPDX-License-Identifier: MIT
/*
 * Non-sample record decoding: the kernel's record types (1..63) here, the
 * types perf writes itself (64..) in record_decode_perf.c.  Each field is
 * read with its own width through a bounded cursor over the payload; the
 * sample_id_all trailer of kernel records is cut off the end first, so a
 * string or array never runs into it.
 */
#include <errno.h>
#include <string.h>
#include <perfkit/reader.h>
#include <perfkit/sample.h>
#include "record_decode.h"

int pki_decode_fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EINVAL;
}

static void decode_mmap2_ids(struct pki_cursor *c, uint16_t misc, struct pk_record_fields *f)
{
	if (misc & PK_MISC_MMAP_BUILD_ID) {
		f->mmap.has_build_id = true;
		f->mmap.build_id.size = pki_cursor_u8(c);
		pki_cursor_skip(c, 3); /* reserved u8 and u16 */
		if (f->mmap.build_id.size > 20)
			c->bad = true;
		else if (pki_cursor_left(c) >= 20)
			memcpy(f->mmap.build_id.data, c->base + c->pos, f->mmap.build_id.size);
		pki_cursor_skip(c, 20);
	} else {
		f->mmap.maj = pki_cursor_u32(c);
		f->mmap.min = pki_cursor_u32(c);
		f->mmap.ino = pki_cursor_u64(c);
		f->mmap.ino_generation = pki_cursor_u64(c);
	}
}

static int decode_mmap(const struct pk_record *rec, struct pki_cursor *c,
		       struct pk_record_fields *f, const char **why)
{
	f->mmap.pid = pki_cursor_u32(c);
	f->mmap.tid = pki_cursor_u32(c);
	f->mmap.addr = pki_cursor_u64(c);
	f->mmap.len = pki_cursor_u64(c);
	f->mmap.pgoff = pki_cursor_u64(c);
	if (rec->type == PK_RECORD_MMAP2) {
		decode_mmap2_ids(c, rec->misc, f);
		f->mmap.prot = pki_cursor_u32(c);
		f->mmap.flags = pki_cursor_u32(c);
	}
	if (c->bad)
		return pki_decode_fail(why, "mmap record is too short or has a bad build-id size");
	f->mmap.filename = pki_cursor_str_rest(c);
	if (!f->mmap.filename)
		return pki_decode_fail(why, "mmap file name is not NUL-terminated");
	return 0;
}

static int decode_read_record(const struct pk_record *rec, struct pki_cursor *c,
			      struct pk_record_fields *f, const char **why)
{
	uint64_t format = rec->attr ? rec->attr->attr.read_format : 0;
	int n;

	f->read.pid = pki_cursor_u32(c);
	f->read.tid = pki_cursor_u32(c);
	if (c->bad)
		return pki_decode_fail(why, "read record is too short");
	n = pk_read_decode(c->base + c->pos, pki_cursor_left(c), format, c->swapped,
			   &f->read.values);
	if (n < 0)
		return pki_decode_fail(why, "read values run past the end of the record");
	pki_cursor_skip(c, (size_t)n);
	f->read.value = f->read.values.one.value;
	f->read.id = f->read.values.one.id;
	f->read.lost = f->read.values.one.lost;
	f->read.time_enabled = f->read.values.time_enabled;
	f->read.time_running = f->read.values.time_running;
	return 0;
}

static int decode_task_records(const struct pk_record *rec, struct pki_cursor *c,
			       struct pk_record_fields *f, const char **why)
{
	switch (rec->type) {
	case PK_RECORD_COMM:
		f->comm.pid = pki_cursor_u32(c);
		f->comm.tid = pki_cursor_u32(c);
		f->comm.comm = pki_cursor_str_rest(c);
		if (!f->comm.comm)
			return pki_decode_fail(why, "comm is missing or not NUL-terminated");
		return 0;
	case PK_RECORD_EXIT:
	case PK_RECORD_FORK:
		f->task.pid = pki_cursor_u32(c);
		f->task.ppid = pki_cursor_u32(c);
		f->task.tid = pki_cursor_u32(c);
		f->task.ptid = pki_cursor_u32(c);
		f->task.time = pki_cursor_u64(c);
		return 0;
	case PK_RECORD_ITRACE_START:
		f->itrace_start.pid = pki_cursor_u32(c);
		f->itrace_start.tid = pki_cursor_u32(c);
		return 0;
	case PK_RECORD_SWITCH:
		return 0;
	case PK_RECORD_SWITCH_CPU_WIDE:
		f->context_switch.next_prev_pid = pki_cursor_u32(c);
		f->context_switch.next_prev_tid = pki_cursor_u32(c);
		return 0;
	case PK_RECORD_NAMESPACES:
		f->namespaces.pid = pki_cursor_u32(c);
		f->namespaces.tid = pki_cursor_u32(c);
		f->namespaces.nr = pki_cursor_u64(c);
		if (c->bad || f->namespaces.nr > pki_cursor_left(c) / 16)
			return pki_decode_fail(why, "namespaces run past the end of the record");
		f->namespaces.link_info = pki_cursor_take(c, f->namespaces.nr * 16);
		return 0;
	case PK_RECORD_CGROUP:
		f->cgroup.id = pki_cursor_u64(c);
		f->cgroup.path = pki_cursor_str_rest(c);
		if (!f->cgroup.path)
			return pki_decode_fail(why, "cgroup path is missing or not NUL-terminated");
		return 0;
	default:
		return -ENOTSUP;
	}
}

static int decode_text_poke(struct pki_cursor *c, struct pk_record_fields *f, const char **why)
{
	f->text_poke.addr = pki_cursor_u64(c);
	f->text_poke.old_len = pki_cursor_u16(c);
	f->text_poke.new_len = pki_cursor_u16(c);
	f->text_poke.old_bytes = pki_cursor_take(c, f->text_poke.old_len);
	f->text_poke.new_bytes = pki_cursor_take(c, f->text_poke.new_len);
	if (c->bad)
		return pki_decode_fail(why, "text_poke bytes run past the end of the record");
	return 0;
}

static int decode_event_records(const struct pk_record *rec, struct pki_cursor *c,
				struct pk_record_fields *f, const char **why)
{
	switch (rec->type) {
	case PK_RECORD_LOST:
		f->lost.id = pki_cursor_u64(c);
		f->lost.lost = pki_cursor_u64(c);
		return 0;
	case PK_RECORD_THROTTLE:
	case PK_RECORD_UNTHROTTLE:
		f->throttle.time = pki_cursor_u64(c);
		f->throttle.id = pki_cursor_u64(c);
		f->throttle.stream_id = pki_cursor_u64(c);
		return 0;
	case PK_RECORD_AUX:
		f->aux.aux_offset = pki_cursor_u64(c);
		f->aux.aux_size = pki_cursor_u64(c);
		f->aux.flags = pki_cursor_u64(c);
		return 0;
	case PK_RECORD_LOST_SAMPLES:
		f->lost_samples.lost = pki_cursor_u64(c);
		return 0;
	case PK_RECORD_KSYMBOL:
		f->ksymbol.addr = pki_cursor_u64(c);
		f->ksymbol.len = pki_cursor_u32(c);
		f->ksymbol.ksym_type = pki_cursor_u16(c);
		f->ksymbol.flags = pki_cursor_u16(c);
		f->ksymbol.name = pki_cursor_str_rest(c);
		if (!f->ksymbol.name)
			return pki_decode_fail(why,
					       "ksymbol name is missing or not NUL-terminated");
		return 0;
	case PK_RECORD_BPF_EVENT:
		f->bpf_event.type = pki_cursor_u16(c);
		f->bpf_event.flags = pki_cursor_u16(c);
		f->bpf_event.id = pki_cursor_u32(c);
		if (pki_cursor_left(c) >= 8)
			memcpy(f->bpf_event.tag, c->base + c->pos, 8);
		pki_cursor_skip(c, 8);
		return 0;
	case PK_RECORD_TEXT_POKE:
		return decode_text_poke(c, f, why);
	case PK_RECORD_AUX_OUTPUT_HW_ID:
		f->aux_output_hw_id.hw_id = pki_cursor_u64(c);
		return 0;
	default:
		return -ENOTSUP;
	}
}

static int decode_kernel_payload(const struct pk_record *rec, struct pki_cursor *c,
				 struct pk_record_fields *f, const char **why)
{
	int err;

	switch (rec->type) {
	case PK_RECORD_MMAP:
	case PK_RECORD_MMAP2:
		return decode_mmap(rec, c, f, why);
	case PK_RECORD_READ:
		err = decode_read_record(rec, c, f, why);
		break;
	default:
		err = decode_task_records(rec, c, f, why);
		if (err == -ENOTSUP)
			err = decode_event_records(rec, c, f, why);
		break;
	}
	if (!err && c->bad)
		return pki_decode_fail(why, "record is shorter than its type needs");
	return err;
}

/* Kernel records: payload, then the sample_id_all trailer. */
static int decode_kernel(const struct pk_record *rec, struct pk_record_fields *f, const char **why)
{
	const struct pk_attr *a = rec->attr;
	size_t trailer = 0;
	struct pki_cursor c;

	if (a && a->attr.sample_id_all) {
		if (pk_sample_id_decode(rec, a->attr.sample_type, &f->sid))
			return pki_decode_fail(why,
					       "record is too short for its sample_id trailer");
		trailer = 8 * (size_t)__builtin_popcountll(f->sid.present);
	}
	c = pki_cursor_make((const uint8_t *)rec->raw + 8, rec->size - 8 - trailer, rec->swapped);
	return decode_kernel_payload(rec, &c, f, why);
}

int pk_record_decode(const struct pk_record *rec, struct pk_record_fields *f, const char **why)
{
	memset(f, 0, sizeof(*f));
	f->type = rec->type;
	f->swapped = rec->swapped;
	f->sid.time = PK_NO_TIME;
	if (rec->type == PK_RECORD_SAMPLE)
		return -ENOTSUP;
	if (rec->size < 8)
		return pki_decode_fail(why, "record is shorter than its header");
	if (rec->type >= PK_RECORD_MMAP && rec->type < PK_RECORD_KERNEL_MAX)
		return decode_kernel(rec, f, why);
	if (rec->type >= PK_RECORD_HEADER_ATTR && rec->type < PK_RECORD_USER_MAX)
		return pki_decode_perf_record(rec, f, why);
	return -ENOTSUP;
}
