// SPDX-License-Identifier: MIT
/*
 * perf script --show-*-events: the side-band records between the samples,
 * each as "comm tid [cpu] time: PERF_RECORD_NAME details", with the start
 * of the line formatted as for a sample of the record's event.  Only run
 * when asked for, so plain snprintf is fine here.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/mman.h>
#include "obuf.h"
#include <perfkit/filter.h>
#include "script.h"

static void outf(struct obuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void outf(struct obuf *o, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		obuf_write(o, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/* Which --show-*-events option prints a record type. */
static unsigned shown_by(uint32_t type)
{
	switch (type) {
	case PK_RECORD_COMM:
	case PK_RECORD_FORK:
	case PK_RECORD_EXIT:
		return SHOW_TASK;
	case PK_RECORD_MMAP:
	case PK_RECORD_MMAP2:
		return SHOW_MMAP;
	case PK_RECORD_SWITCH:
	case PK_RECORD_SWITCH_CPU_WIDE:
		return SHOW_SWITCH;
	case PK_RECORD_NAMESPACES:
		return SHOW_NAMESPACE;
	case PK_RECORD_LOST:
		return SHOW_LOST;
	case PK_RECORD_CGROUP:
		return SHOW_CGROUP;
	case PK_RECORD_KSYMBOL:
		return SHOW_BPF | SHOW_TEXT_POKE;
	case PK_RECORD_BPF_EVENT:
		return SHOW_BPF;
	case PK_RECORD_TEXT_POKE:
		return SHOW_TEXT_POKE;
	case PK_RECORD_FINISHED_ROUND:
		return SHOW_ROUND;
	default:
		return 0;
	}
}

static void print_mmap(struct obuf *o, const struct pk_record *rec,
		       const struct pk_record_fields *f)
{
	outf(o, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, (int32_t)f->mmap.pid,
	     (int32_t)f->mmap.tid, f->mmap.addr, f->mmap.len, f->mmap.pgoff);
	if (rec->type == PK_RECORD_MMAP) {
		outf(o, "]: %c %s\n", (rec->misc & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x',
		     f->mmap.filename);
		return;
	}
	if (f->mmap.has_build_id) {
		obuf_write(o, " <", 2);
		for (unsigned int i = 0; i < f->mmap.build_id.size && i < 32; i++)
			outf(o, "%02x", f->mmap.build_id.data[i]);
		obuf_putc(o, '>');
	} else {
		outf(o, " %02x:%02x %" PRIu64 " %" PRIu64, f->mmap.maj, f->mmap.min, f->mmap.ino,
		     f->mmap.ino_generation);
	}
	outf(o, "]: %c%c%c%c %s\n", (f->mmap.prot & PROT_READ) ? 'r' : '-',
	     (f->mmap.prot & PROT_WRITE) ? 'w' : '-', (f->mmap.prot & PROT_EXEC) ? 'x' : '-',
	     (f->mmap.flags & MAP_SHARED) ? 's' : 'p', f->mmap.filename);
}

static void print_switch(struct obuf *o, const struct pk_record *rec,
			 const struct pk_record_fields *f)
{
	bool is_out = rec->misc & PK_MISC_SWITCH_OUT;

	obuf_puts(o, !is_out				    ? " IN         "
		     : (rec->misc & PK_MISC_SWITCH_PREEMPT) ? " OUT preempt"
							    : " OUT        ");
	if (rec->type == PK_RECORD_SWITCH_CPU_WIDE)
		outf(o, "  %s pid/tid: %5d/%-5d", is_out ? "next" : "prev",
		     (int32_t)f->context_switch.next_prev_pid,
		     (int32_t)f->context_switch.next_prev_tid);
	obuf_putc(o, '\n');
}

/* Seven to a first line, then four to a line, as perf wraps them. */
static void print_namespaces(struct obuf *o, const struct pk_record_fields *f, bool swapped)
{
	static const char *const names[] = {"net", "uts", "ipc", "pid", "user", "mnt", "cgroup"};
	uint64_t nr = f->namespaces.nr;

	outf(o, " %d/%d - nr_namespaces: %u\n\t\t[", (int32_t)f->namespaces.pid,
	     (int32_t)f->namespaces.tid, (unsigned)nr);
	for (uint64_t i = 0; i < nr; i++) {
		if (i && i % 4 == 0)
			obuf_write(o, "\n\t\t ", 4);
		outf(o, "%u/%s: %" PRIu64 "/%#" PRIx64 "%s", (unsigned)i,
		     i < 7 ? names[i] : "UNKNOWN",
		     pk_u64_at(f->namespaces.link_info, swapped, 2 * i),
		     pk_u64_at(f->namespaces.link_info, swapped, 2 * i + 1),
		     i + 1 != nr ? ", " : "]\n");
	}
}

static void print_bytes(struct obuf *o, const char *what, const uint8_t *p, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (i % 16 == 0)
			outf(o, "            %s bytes:", what);
		outf(o, " %02x", p[i]);
		if ((i + 1) % 16 == 0 || i + 1 == n)
			obuf_putc(o, '\n');
	}
}

static void print_text_poke(struct script_ctx *c, const struct pk_record_fields *f)
{
	struct pk_location loc;
	struct obuf *o = c->ob;

	outf(o, " %" PRIx64 " ", f->text_poke.addr);
	pk_session_resolve(c->session, NULL, PERF_RECORD_MISC_KERNEL, f->text_poke.addr, &loc);
	if (loc.sym)
		outf(o, "%s+0x%" PRIx64, loc.sym->name, loc.addr - loc.sym->start);
	outf(o, " old len %u new len %u\n", f->text_poke.old_len, f->text_poke.new_len);
	print_bytes(o, "Old", f->text_poke.old_bytes, f->text_poke.old_len);
	print_bytes(o, "New", f->text_poke.new_bytes, f->text_poke.new_len);
}

static void print_details(struct script_ctx *c, const struct pk_record *rec,
			  const struct pk_record_fields *f)
{
	struct obuf *o = c->ob;

	switch (rec->type) {
	case PK_RECORD_COMM:
		outf(o, "%s: %s:%d/%d\n", (rec->misc & PK_MISC_COMM_EXEC) ? " exec" : "",
		     f->comm.comm, (int32_t)f->comm.pid, (int32_t)f->comm.tid);
		break;
	case PK_RECORD_FORK:
	case PK_RECORD_EXIT:
		outf(o, "(%d:%d):(%d:%d)\n", (int32_t)f->task.pid, (int32_t)f->task.tid,
		     (int32_t)f->task.ppid, (int32_t)f->task.ptid);
		break;
	case PK_RECORD_MMAP:
	case PK_RECORD_MMAP2:
		print_mmap(o, rec, f);
		break;
	case PK_RECORD_SWITCH:
	case PK_RECORD_SWITCH_CPU_WIDE:
		print_switch(o, rec, f);
		break;
	case PK_RECORD_NAMESPACES:
		print_namespaces(o, f, f->swapped);
		break;
	case PK_RECORD_LOST:
		outf(o, " lost %" PRIu64 "\n", f->lost.lost);
		break;
	case PK_RECORD_CGROUP:
		outf(o, " cgroup: %" PRIu64 " %s\n", f->cgroup.id, f->cgroup.path);
		break;
	case PK_RECORD_KSYMBOL:
		outf(o, " addr %" PRIx64 " len %u type %u flags 0x%x name %s\n", f->ksymbol.addr,
		     f->ksymbol.len, f->ksymbol.ksym_type, f->ksymbol.flags, f->ksymbol.name);
		break;
	case PK_RECORD_BPF_EVENT:
		outf(o, " type %u, flags %u, id %u\n", f->bpf_event.type, f->bpf_event.flags,
		     f->bpf_event.id);
		break;
	case PK_RECORD_TEXT_POKE:
		print_text_poke(c, f);
		break;
	default:
		obuf_putc(o, '\n');
		break;
	}
}

/*
 * The thread perf names a record after: the one the record is about for
 * task, mmap and namespace records, else the one of its sample_id.  Without
 * sample_id_all, perf takes the cpu as 0 and the time from the record.
 */
static void record_start(const struct pk_record *rec, const struct pk_record_fields *f,
			 struct script_start *st, int32_t *pid, int32_t *tid)
{
	uint64_t time = 0;

	*pid = st->pid = f->sid.present & PERF_SAMPLE_TID ? (int32_t)f->sid.pid : -1;
	*tid = st->tid = f->sid.present & PERF_SAMPLE_TID ? (int32_t)f->sid.tid : -1;
	st->cpu = f->sid.present & PERF_SAMPLE_CPU ? f->sid.cpu : UINT32_MAX;
	st->time = f->sid.present & PERF_SAMPLE_TIME ? f->sid.time : UINT64_MAX;
	st->misc = rec->misc;
	st->type = rec->type;
	switch (rec->type) {
	case PK_RECORD_COMM:
		*pid = (int32_t)f->comm.pid, *tid = (int32_t)f->comm.tid;
		break;
	case PK_RECORD_FORK:
	case PK_RECORD_EXIT:
		*pid = (int32_t)f->task.pid, *tid = (int32_t)f->task.tid;
		time = f->task.time;
		break;
	case PK_RECORD_MMAP:
	case PK_RECORD_MMAP2:
		*pid = (int32_t)f->mmap.pid, *tid = (int32_t)f->mmap.tid;
		break;
	case PK_RECORD_NAMESPACES:
		*pid = (int32_t)f->namespaces.pid, *tid = (int32_t)f->namespaces.tid;
		break;
	default:
		break;
	}
	if (rec->attr && !rec->attr->attr.sample_id_all) {
		st->cpu = 0;
		st->time = time;
		st->pid = *pid;
		st->tid = *tid;
	}
}

void script_print_record(struct script_ctx *c, const struct pk_record *rec)
{
	struct pk_record_fields f;
	struct script_start st;
	int32_t pid, tid;

	if (!(shown_by(rec->type) & c->show))
		return;
	if (rec->type == PK_RECORD_FINISHED_ROUND) {
		obuf_puts(c->ob, "PERF_RECORD_FINISHED_ROUND\n");
		return;
	}
	if (pk_record_decode(rec, &f, NULL))
		return;
	if (rec->attr && rec->attr->index < c->nr_attrs) {
		const struct script_event_fmt *fmt = &c->fmt[rec->attr->index];
		const struct pk_thread *t = NULL;

		record_start(rec, &f, &st, &pid, &tid);
		/* perf filters the side-band records by CPU only */
		if (c->filter && !pk_sample_filter_cpu(c->filter, st.cpu))
			return;
		if (tid != -1)
			t = pk_session_thread(c->session, pid, tid);
		st.comm = t ? pk_thread_comm(t) : ":-1";
		script_print_start(c, &st, fmt->fields, fmt->callchain && (fmt->fields & SF_IP));
	}
	obuf_write(c->ob, "PERF_RECORD_", 12);
	obuf_puts(c->ob, pk_record_type_name(rec->type));
	print_details(c, rec, &f);
}
