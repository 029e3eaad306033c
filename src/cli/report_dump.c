// SPDX-License-Identifier: MIT
/*
 * perfkit report -D: every record with its offset, size, type and decoded
 * fields.  The summary line follows perf report -D:
 *
 *	[cpu] [time] offset [size]: PERF_RECORD_TYPE details
 *
 * where cpu and time appear when the recording has them (and "-1 -1"
 * stands for both when records carry no sample_id trailer).  Each record
 * is preceded by its bytes in hex, and followed by "... field" lines for
 * what does not fit the summary.  Records come in file order.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>
#include "cli.h"
#include "report_dump.h"

struct dump {
	struct pk_reader *r;
	FILE *out;
	uint32_t nr_attrs;    /* attrs seen when the two below were computed */
	uint64_t sample_type; /* OR of every attr's sample_type */
	bool sample_id_all;   /* of the first attr, as perf decides it */
	uint64_t base;	      /* perf counts pipe-mode offsets after the
			       * 16-byte pipe header */
};

/*
 * Pipe mode adds attrs while reading: refresh when their number changes.
 * The reader has taken an ATTR record's attr by the time it delivers the
 * record; perf prints the record before, so leave that attr out.
 */
static void refresh_attrs(struct dump *d, const struct pk_record *rec)
{
	uint32_t n = pk_reader_nr_attrs(d->r);

	if (rec->type == PK_RECORD_HEADER_ATTR && n)
		n--;

	if (n == d->nr_attrs)
		return;
	d->nr_attrs = n;
	d->sample_type = 0;
	for (uint32_t i = 0; i < n; i++)
		d->sample_type |= pk_reader_attr(d->r, i)->attr.sample_type;
	d->sample_id_all = n && pk_reader_attr(d->r, 0)->attr.sample_id_all;
}

/* The record's bytes as stored, 16 a line with their ASCII, as perf does. */
static void print_raw(struct dump *d, const struct pk_record *rec)
{
	const uint8_t *p = rec->raw;
	const struct pk_header *h = pk_reader_header(d->r);

	fprintf(d->out, "%#" PRIx64 "@%s [%#x]: event: %u\n.\n. ... raw event: size %u bytes\n",
		rec->file_offset - d->base, h && h->pipe ? "pipe" : pk_reader_path(d->r), rec->size,
		rec->type, rec->size);
	for (size_t line = 0; line < rec->size; line += 16) {
		fprintf(d->out, ".  %04zx: ", line);
		for (size_t i = line; i < line + 16; i++) {
			if (i < rec->size)
				fprintf(d->out, " %02x", p[i]);
			else
				fputs("   ", d->out);
		}
		fputs("  ", d->out);
		for (size_t i = line; i < line + 16; i++)
			fputc(i >= rec->size ? ' ' : isprint(p[i]) ? p[i] : '.', d->out);
		fputc('\n', d->out);
	}
	fputc('\n', d->out);
}

static void print_prefix(struct dump *d, const struct pk_record *rec, uint32_t cpu, uint64_t time)
{
	if (rec->type != PK_RECORD_SAMPLE && !d->sample_id_all)
		fputs("-1 -1 ", d->out);
	else {
		if (d->sample_type & PERF_SAMPLE_CPU)
			fprintf(d->out, "%u ", cpu);
		if (d->sample_type & PERF_SAMPLE_TIME)
			fprintf(d->out, "%" PRIu64 " ", time);
	}
	fprintf(d->out, "%#" PRIx64 " [%#x]: PERF_RECORD_%s", rec->file_offset - d->base, rec->size,
		pk_record_type_name(rec->type) ?: "UNKNOWN");
}

static void print_cpu_map(FILE *out, const struct pk_cpu_map_data *m, bool swapped)
{
	const char *sep = "";

	for (uint32_t i = 0; i < m->nr;) {
		int32_t first = pk_cpu_map_at(m, swapped, i), last = first;

		/* a run of consecutive cpus prints as first-last */
		while (++i < m->nr && first >= 0 && pk_cpu_map_at(m, swapped, i) == last + 1)
			last++;
		if (last > first)
			fprintf(out, "%s%d-%d", sep, first, last);
		else
			fprintf(out, "%s%d", sep, first);
		sep = ",";
	}
}

static void print_mmap(FILE *out, const struct pk_record *rec, const struct pk_record_fields *f)
{
	fprintf(out, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, (int32_t)f->mmap.pid,
		(int32_t)f->mmap.tid, f->mmap.addr, f->mmap.len, f->mmap.pgoff);
	if (rec->type == PK_RECORD_MMAP) {
		fprintf(out, "]: %c %s\n", (rec->misc & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x',
			f->mmap.filename);
		return;
	}
	if (f->mmap.has_build_id) {
		fputs(" ", out);
		for (unsigned int i = 0; i < f->mmap.build_id.size; i++)
			fprintf(out, "%02x", f->mmap.build_id.data[i]);
	} else {
		fprintf(out, " %02x:%02x %" PRIu64 " %" PRIu64, f->mmap.maj, f->mmap.min,
			f->mmap.ino, f->mmap.ino_generation);
	}
	fprintf(out, "]: %c%c%c%c %s\n", (f->mmap.prot & PROT_READ) ? 'r' : '-',
		(f->mmap.prot & PROT_WRITE) ? 'w' : '-', (f->mmap.prot & PROT_EXEC) ? 'x' : '-',
		(f->mmap.flags & MAP_SHARED) ? 's' : 'p', f->mmap.filename);
}

static void print_switch(FILE *out, const struct pk_record *rec, const struct pk_record_fields *f)
{
	bool is_out = rec->misc & PK_MISC_SWITCH_OUT;

	fprintf(out, " %s", is_out ? "OUT" : "IN ");
	fprintf(out, "%s",
		(is_out && (rec->misc & PK_MISC_SWITCH_PREEMPT)) ? " preempt" : "        ");
	if (rec->type == PK_RECORD_SWITCH_CPU_WIDE)
		fprintf(out, "  %s pid/tid: %5d/%-5d", is_out ? "next" : "prev",
			(int32_t)f->context_switch.next_prev_pid,
			(int32_t)f->context_switch.next_prev_tid);
	fputc('\n', out);
}

static void print_namespaces(FILE *out, const struct pk_record_fields *f, bool swapped)
{
	static const char *const names[] = {"net", "uts", "ipc", "pid", "user", "mnt", "cgroup"};

	fprintf(out, " %d/%d - nr_namespaces: %" PRIu64 "\n", (int32_t)f->namespaces.pid,
		(int32_t)f->namespaces.tid, f->namespaces.nr);
	for (uint64_t i = 0; i < f->namespaces.nr; i++)
		fprintf(out, "... [%" PRIu64 "/%s: %" PRIu64 "/%#" PRIx64 "]\n", i,
			i < 7 ? names[i] : "?", pk_u64_at(f->namespaces.link_info, swapped, 2 * i),
			pk_u64_at(f->namespaces.link_info, swapped, 2 * i + 1));
}

/* Kernel records other than mmaps, samples and switches. */
static void print_kernel(FILE *out, const struct pk_record *rec, const struct pk_record_fields *f)
{
	switch (rec->type) {
	case PK_RECORD_COMM:
		fprintf(out, "%s: %s:%d/%d\n", (rec->misc & PK_MISC_COMM_EXEC) ? " exec" : "",
			f->comm.comm, (int32_t)f->comm.pid, (int32_t)f->comm.tid);
		break;
	case PK_RECORD_EXIT:
	case PK_RECORD_FORK:
		fprintf(out, "(%d:%d):(%d:%d)\n", (int32_t)f->task.pid, (int32_t)f->task.tid,
			(int32_t)f->task.ppid, (int32_t)f->task.ptid);
		break;
	case PK_RECORD_LOST:
		fprintf(out, ": id:%" PRIu64 ": lost:%" PRIu64 "\n", f->lost.id, f->lost.lost);
		break;
	case PK_RECORD_THROTTLE:
	case PK_RECORD_UNTHROTTLE:
		fprintf(out, ": time %" PRIu64 " id %" PRIu64 " stream_id %" PRIu64 "\n",
			f->throttle.time, f->throttle.id, f->throttle.stream_id);
		break;
	case PK_RECORD_READ:
		fprintf(out,
			": %d %d value %" PRIu64 " enabled %" PRIu64 " running %" PRIu64
			" id %" PRIu64 " nr %" PRIu64 "\n",
			(int32_t)f->read.pid, (int32_t)f->read.tid, f->read.value,
			f->read.time_enabled, f->read.time_running, f->read.id, f->read.values.nr);
		break;
	case PK_RECORD_AUX:
		fprintf(out,
			" offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64 " [%s%s%s]\n",
			f->aux.aux_offset, f->aux.aux_size, f->aux.flags,
			(f->aux.flags & PERF_AUX_FLAG_TRUNCATED) ? "T" : "",
			(f->aux.flags & PERF_AUX_FLAG_OVERWRITE) ? "O" : "",
			(f->aux.flags & PERF_AUX_FLAG_PARTIAL) ? "P" : "");
		break;
	case PK_RECORD_ITRACE_START:
		fprintf(out, " pid: %d tid: %d\n", (int32_t)f->itrace_start.pid,
			(int32_t)f->itrace_start.tid);
		break;
	case PK_RECORD_LOST_SAMPLES:
		fprintf(out, ": id:%" PRIu64 ": lost samples :%" PRIu64 "\n", f->sid.id,
			f->lost_samples.lost);
		break;
	case PK_RECORD_KSYMBOL:
		fprintf(out, " addr %" PRIx64 " len %u type %u flags 0x%x name %s\n",
			f->ksymbol.addr, f->ksymbol.len, f->ksymbol.ksym_type, f->ksymbol.flags,
			f->ksymbol.name);
		break;
	case PK_RECORD_BPF_EVENT:
		fprintf(out, " type %u, flags %u, id %u\n", f->bpf_event.type, f->bpf_event.flags,
			f->bpf_event.id);
		break;
	case PK_RECORD_CGROUP:
		fprintf(out, " cgroup: %" PRIu64 " %s\n", f->cgroup.id, f->cgroup.path);
		break;
	case PK_RECORD_TEXT_POKE:
		fprintf(out, " addr %#" PRIx64 " old len %u new len %u\n", f->text_poke.addr,
			f->text_poke.old_len, f->text_poke.new_len);
		break;
	case PK_RECORD_AUX_OUTPUT_HW_ID:
		fprintf(out, " hw_id: %#" PRIx64 "\n", f->aux_output_hw_id.hw_id);
		break;
	default:
		fputc('\n', out);
		break;
	}
}

static void print_id_index(FILE *out, const struct pk_record *rec, const struct pk_record_fields *f)
{
	struct pk_id_index_entry e;

	fprintf(out, " nr: %" PRIu64 "\n", f->id_index.nr);
	for (uint64_t i = 0; i < f->id_index.nr && !pk_id_index_entry(rec, i, &e); i++) {
		fprintf(out,
			"... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64 "  tid: %" PRId64,
			e.id, e.idx, (int64_t)e.cpu, (int64_t)e.tid);
		if (f->id_index.entry_words >= 6)
			fprintf(out, "  machine_pid: %" PRId64 "  vcpu: %" PRId64,
				(int64_t)e.machine_pid, (int64_t)e.vcpu);
		fputc('\n', out);
	}
}

static void print_thread_map(FILE *out, const struct pk_record *rec,
			     const struct pk_record_fields *f)
{
	struct pk_thread_map_entry e;

	fprintf(out, " nr: %" PRIu64 " thread:", f->thread_map.nr);
	for (uint64_t i = 0; i < f->thread_map.nr && !pk_thread_map_entry(rec, i, &e); i++)
		fprintf(out, "%s %d", i ? "," : "", (int32_t)e.pid);
	fputc('\n', out);
}

static void print_event_update(FILE *out, const struct pk_record_fields *f, bool swapped)
{
	const typeof(f->event_update) *u = &f->event_update;

	fprintf(out, "\n... id:    %" PRIu64 "\n", u->id);
	switch (u->type) {
	case PK_EVENT_UPDATE_UNIT:
		fprintf(out, "... unit:  %s\n", u->name);
		break;
	case PK_EVENT_UPDATE_SCALE:
		fprintf(out, "... scale: %f\n", u->scale);
		break;
	case PK_EVENT_UPDATE_NAME:
		fprintf(out, "... name:  %s\n", u->name);
		break;
	case PK_EVENT_UPDATE_CPUS:
		fputs("... ", out);
		print_cpu_map(out, &u->cpus, swapped);
		fputc('\n', out);
		break;
	default:
		fprintf(out, "... unknown type %" PRIu64 "\n", u->type);
		break;
	}
}

static void print_time_conv(FILE *out, const struct pk_record_fields *f)
{
	fprintf(out, "\n... Time Shift      %" PRIu64 "\n", f->time_conv.time_shift);
	fprintf(out, "... Time Muliplier  %" PRIu64 "\n", f->time_conv.time_mult);
	fprintf(out, "... Time Zero       %" PRIu64 "\n", f->time_conv.time_zero);
	if (!f->time_conv.has_cycles)
		return;
	fprintf(out, "... Time Cycles     %" PRIu64 "\n", f->time_conv.time_cycles);
	fprintf(out, "... Time Mask       %#" PRIx64 "\n", f->time_conv.time_mask);
	fprintf(out, "... Cap Time Zero   %u\n", f->time_conv.cap_user_time_zero);
	fprintf(out, "... Cap Time Short  %u\n", f->time_conv.cap_user_time_short);
}

static void print_auxtrace(FILE *out, const struct pk_record *rec, const struct pk_record_fields *f)
{
	if (rec->type == PK_RECORD_AUXTRACE_INFO) {
		fprintf(out, " type: %u\n", f->auxtrace_info.type);
		for (uint64_t i = 0; i < f->auxtrace_info.nr_priv; i++)
			fprintf(out, "... priv[%" PRIu64 "]: %#" PRIx64 "\n", i,
				pk_u64_at(f->auxtrace_info.priv, f->swapped, i));
	} else if (rec->type == PK_RECORD_AUXTRACE) {
		fprintf(out,
			" size: %#" PRIx64 "  offset: %#" PRIx64 "  ref: %#" PRIx64
			"  idx: %u  tid: %d  cpu: %d\n",
			f->auxtrace.size, f->auxtrace.offset, f->auxtrace.reference,
			f->auxtrace.idx, (int32_t)f->auxtrace.tid, (int32_t)f->auxtrace.cpu);
	} else {
		fprintf(out,
			" type: %u code: %u cpu: %d pid: %d tid: %d ip: %#" PRIx64 " time: %" PRIu64
			" fmt: %u msg: %s\n",
			f->auxtrace_error.type, f->auxtrace_error.code,
			(int32_t)f->auxtrace_error.cpu, (int32_t)f->auxtrace_error.pid,
			(int32_t)f->auxtrace_error.tid, f->auxtrace_error.ip,
			f->auxtrace_error.time, f->auxtrace_error.fmt, f->auxtrace_error.msg);
	}
}

static void print_stat(FILE *out, const struct pk_record *rec, const struct pk_record_fields *f)
{
	switch (rec->type) {
	case PK_RECORD_STAT_CONFIG:
		fprintf(out, " nr: %" PRIu64 "\n", f->stat_config.nr);
		for (uint64_t i = 0; i < f->stat_config.nr; i++)
			fprintf(out, "... tag %" PRIu64 " = %" PRIu64 "\n",
				pk_u64_at(f->stat_config.data, f->swapped, 2 * i),
				pk_u64_at(f->stat_config.data, f->swapped, 2 * i + 1));
		break;
	case PK_RECORD_STAT:
		fprintf(out,
			"\n... id %" PRIu64 ", cpu %d, thread %d\n... value %" PRIu64
			", enabled %" PRIu64 ", running %" PRIu64 "\n",
			f->stat.id, (int32_t)f->stat.cpu, (int32_t)f->stat.thread, f->stat.val,
			f->stat.ena, f->stat.run);
		break;
	case PK_RECORD_STAT_ROUND:
		fprintf(out, "\n... time %" PRIu64 ", type %s\n", f->stat_round.time,
			f->stat_round.type ? "FINAL" : "INTERVAL");
		break;
	}
}

static void print_build_id(FILE *out, const struct pk_record_fields *f)
{
	fprintf(out, " pid %d build-id ", f->build_id.pid);
	for (unsigned int i = 0; i < f->build_id.build_id.size; i++)
		fprintf(out, "%02x", f->build_id.build_id.data[i]);
	fprintf(out, " %s\n", f->build_id.filename);
}

static void print_perf(FILE *out, const struct pk_record *rec, const struct pk_record_fields *f)
{
	switch (rec->type) {
	case PK_RECORD_HEADER_ATTR:
		fprintf(out,
			"\n... attr: type %u, config %#" PRIx64 ", sample_type %#" PRIx64
			", read_format %#" PRIx64 ", size %u, ids %" PRIu64 "\n",
			f->attr.attr.type, (uint64_t)f->attr.attr.config,
			(uint64_t)f->attr.attr.sample_type, (uint64_t)f->attr.attr.read_format,
			f->attr.attr_size, f->attr.nr_ids);
		break;
	case PK_RECORD_HEADER_EVENT_TYPE:
		fprintf(out, "\n... event_id %" PRIu64 " name %s\n", f->event_type.event_id,
			f->event_type.name);
		break;
	case PK_RECORD_HEADER_TRACING_DATA:
		fprintf(out, "\n... size %u\n", f->tracing_data.size);
		break;
	case PK_RECORD_HEADER_BUILD_ID:
		print_build_id(out, f);
		break;
	case PK_RECORD_ID_INDEX:
		print_id_index(out, rec, f);
		break;
	case PK_RECORD_AUXTRACE_INFO:
	case PK_RECORD_AUXTRACE:
	case PK_RECORD_AUXTRACE_ERROR:
		print_auxtrace(out, rec, f);
		break;
	case PK_RECORD_THREAD_MAP:
		print_thread_map(out, rec, f);
		break;
	case PK_RECORD_CPU_MAP:
		fputs(": ", out);
		print_cpu_map(out, &f->cpu_map, f->swapped);
		fputc('\n', out);
		break;
	case PK_RECORD_STAT_CONFIG:
	case PK_RECORD_STAT:
	case PK_RECORD_STAT_ROUND:
		print_stat(out, rec, f);
		break;
	case PK_RECORD_EVENT_UPDATE:
		print_event_update(out, f, f->swapped);
		break;
	case PK_RECORD_TIME_CONV:
		print_time_conv(out, f);
		break;
	case PK_RECORD_HEADER_FEATURE:
		fprintf(out, "\n... feature %s, size %" PRIu64 "\n",
			pk_feature_name(f->feature.feat_id) ?: "?", f->feature.size);
		break;
	case PK_RECORD_COMPRESSED:
	case PK_RECORD_COMPRESSED2:
		fprintf(out, "\n... size %" PRIu64 "\n", f->compressed.size);
		break;
	default:
		fputc('\n', out);
		break;
	}
}

static int dump_bad(struct dump *d, const struct pk_record *rec, const char *why)
{
	fputc('\n', d->out);
	fflush(d->out);
	fprintf(stderr, "perfkit: %s: offset %#" PRIx64 ": %s record: %s\n", pk_reader_path(d->r),
		rec->file_offset, pk_record_type_name(rec->type) ?: "?", why ? why : "malformed");
	return -1;
}

static int dump_one_sample(struct dump *d, const struct pk_record *rec)
{
	const char *why = NULL;
	struct pk_sample s;
	int err;

	err = pk_sample_decode(rec, &s, &why);
	if (err == -ENOTSUP) {
		/* no attr matches its id: perf cannot decode it either */
		print_prefix(d, rec, 0, rec->time);
		fputs(": no event matches its id\n", d->out);
		return 0;
	}
	print_prefix(d, rec, (s.type & PERF_SAMPLE_CPU) ? s.cpu : UINT32_MAX,
		     (s.type & PERF_SAMPLE_TIME) ? s.time : UINT64_MAX);
	if (err)
		return dump_bad(d, rec, why);
	dump_sample(d->out, rec, &s);
	return 0;
}

static int dump_record(struct dump *d, const struct pk_record *rec)
{
	struct pk_record_fields f;
	const char *why = NULL;
	int err;

	fputc('\n', d->out);
	refresh_attrs(d, rec);
	print_raw(d, rec);
	if (rec->type == PK_RECORD_SAMPLE)
		return dump_one_sample(d, rec);
	err = pk_record_decode(rec, &f, &why);
	if (rec->type >= 64)
		print_prefix(d, rec, 0, 0); /* perf shows a zeroed sample */
	else
		print_prefix(d, rec, (f.sid.present & PERF_SAMPLE_CPU) ? f.sid.cpu : UINT32_MAX,
			     (f.sid.present & PERF_SAMPLE_TIME) ? f.sid.time : UINT64_MAX);
	if (err == -ENOTSUP) {
		fputc('\n', d->out);
		return 0;
	}
	if (err)
		return dump_bad(d, rec, why);
	if (rec->type == PK_RECORD_MMAP || rec->type == PK_RECORD_MMAP2)
		print_mmap(d->out, rec, &f);
	else if (rec->type == PK_RECORD_SWITCH || rec->type == PK_RECORD_SWITCH_CPU_WIDE)
		print_switch(d->out, rec, &f);
	else if (rec->type == PK_RECORD_NAMESPACES)
		print_namespaces(d->out, &f, f.swapped);
	else if (rec->type < 64)
		print_kernel(d->out, rec, &f);
	else
		print_perf(d->out, rec, &f);
	return 0;
}

int report_dump(struct pk_reader *r, FILE *out)
{
	struct dump d = {.r = r, .out = out, .nr_attrs = UINT32_MAX};
	const struct pk_header *h = pk_reader_header(r);
	const struct pk_record *rec;
	int err;

	if (h && h->pipe)
		d.base = 16;

	while ((err = pk_reader_next(r, &rec)) > 0) {
		if (dump_record(&d, rec))
			return -1;
	}
	fflush(out);
	if (err < 0) {
		fprintf(stderr, "perfkit: %s\n", pk_reader_error(r));
		return err;
	}
	return 0;
}
