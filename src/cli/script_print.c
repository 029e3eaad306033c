// SPDX-License-Identifier: MIT
/*
 * perf script's default line: comm, tid, cpu, time, period, event, then
 * the trace fields or ip/sym+off/dso, or the indented callchain.  Field
 * widths follow perf's so outputs can be diffed line by line.  Printed
 * through obuf: millions of lines, no printf.
 */
#include <inttypes.h>
#include <stdio.h>
#include <time.h>
#include "obuf.h"
#include "script.h"

void script_print_sym(struct obuf *o, const struct pk_location *loc, unsigned f)
{
	if (f & SF_SYM) {
		obuf_putc(o, ' ');
		if (!loc->sym) {
			obuf_puts(o, "[unknown]");
		} else {
			obuf_puts(o, loc->sym->name);
			if ((f & SF_SYMOFF) && loc->addr < loc->sym->end) {
				obuf_write(o, "+0x", 3);
				obuf_hex(o, loc->addr - loc->sym->start, 0);
			}
		}
	}
	/* an inlined frame says so instead of naming its DSO */
	if (loc->sym && loc->sym->inlined) {
		obuf_puts(o, " (inlined)");
	} else if (f & SF_DSO) {
		obuf_write(o, " (", 2);
		obuf_puts(o, pk_dso_name(loc->dso));
		obuf_putc(o, ')');
	}
}

/* --reltime: from the first line printed; --deltatime: from the last one */
static uint64_t shown_time(struct script_ctx *c, uint64_t t)
{
	uint64_t prev = c->prev_time;

	switch (c->time_mode) {
	case TIME_REL:
		if (!c->first_time)
			c->first_time = t;
		return t - c->first_time;
	case TIME_DELTA:
		c->prev_time = t;
		return prev ? t - prev : 0;
	default:
		return t;
	}
}

static char *put_time(struct script_ctx *c, char *p, uint64_t time)
{
	uint64_t t = shown_time(c, time);
	uint64_t sec = t / 1000000000ULL, ns = t % 1000000000ULL;

	if (c->nanosecs) {
		p = put_u64(p, sec, 5, ' ');
		*p++ = '.';
		p = put_u64(p, ns, 9, '0');
	} else {
		/* "%12s" of "sec.usec": the seconds take what the 7
		 * characters of ".usec" leave */
		p = put_u64(p, sec, 12 - 7, ' ');
		*p++ = '.';
		p = put_u64(p, ns / 1000, 6, '0');
	}
	memcpy(p, ": ", 2);
	return p + 2;
}

/* perf's misc column: the cpumode letters (each tested as a whole value
 * against the misc bits, as perf does: a hypervisor sample shows KUH),
 * then the record type's own bit, padded to six. */
static char *put_misc(char *p, uint16_t misc, uint32_t type)
{
	static const struct {
		uint16_t v;
		char c;
	} modes[] = {{1, 'K'}, {2, 'U'}, {3, 'H'}, {4, 'G'}, {5, 'g'}};
	char *start = p;

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if ((misc & modes[i].v) == modes[i].v)
			*p++ = modes[i].c;
	switch (type) {
	case PK_RECORD_MMAP:
	case PK_RECORD_MMAP2:
		if (misc & (1 << 13))	/* MMAP_DATA */
			*p++ = 'M';
		break;
	case PK_RECORD_COMM:
		if (misc & PK_MISC_COMM_EXEC)
			*p++ = 'E';
		break;
	case PK_RECORD_SWITCH:
	case PK_RECORD_SWITCH_CPU_WIDE:
		if (misc & PK_MISC_SWITCH_OUT) {
			*p++ = 'S';
			if (misc & PK_MISC_SWITCH_PREEMPT)
				*p++ = 'p';
		}
		break;
	default:
		break;
	}
	/* "%*s" of " " with 6 - letters: at least the one space */
	return put_pad(p, ' ', p - start < 6 ? (int)(6 - (p - start)) : 1, 0);
}

/* perf's tod field: the sample's time as local wall-clock time, from the
 * recording's CLOCK_DATA, then a space */
static char *put_tod(struct script_ctx *c, char *p, uint64_t t)
{
	uint64_t tod = c->tod_wall_ns;
	char date[64];
	struct tm tm;
	time_t sec;
	unsigned long ns;

	if (t > c->tod_clock_ns)
		tod += t - c->tod_clock_ns;
	else
		tod -= c->tod_clock_ns - t;
	sec = (time_t)(tod / 1000000000ULL);
	ns = (unsigned long)(tod % 1000000000ULL);
	if (!localtime_r(&sec, &tm))
		return p + sprintf(p, "failed ");
	strftime(date, sizeof(date), "%F %H:%M:%S", &tm);
	if (c->nanosecs)
		return p + sprintf(p, "%s.%09lu ", date, ns);
	return p + sprintf(p, "%s.%06lu ", date, ns / 1000);
}

/* The comm is the one piece of unbounded length (a thread name is at
 * most 16 bytes, but a file can say anything). */
#define START_MAX_COMM 1024

void script_print_start(struct script_ctx *c, const struct script_start *st, unsigned f,
			bool chain)
{
	size_t comm_len = strlen(st->comm);
	char *p;

	if ((f & SF_COMM) && comm_len > START_MAX_COMM) {
		obuf_pad(c->ob, st->comm, chain ? 0 : 16, 0);
		obuf_putc(c->ob, ' ');
		f &= ~SF_COMM;
	}
	/* what follows the comm (ids, cpu, misc, tod, time) takes less than 160 bytes */
	p = obuf_reserve(c->ob, 16 + START_MAX_COMM + 160);
	if (f & SF_COMM) {
		if (!chain)
			p = put_pad(p, ' ', 16, (unsigned)comm_len);
		memcpy(p, st->comm, comm_len);
		p += comm_len;
		*p++ = ' ';
	}
	if ((f & SF_PID) && (f & SF_TID)) {
		p = put_i64(p, st->pid, 5, 0);
		*p++ = '/';
		p = put_i64(p, st->tid, 5, 1);
		*p++ = ' ';
	} else if (f & (SF_PID | SF_TID)) {
		p = put_i64(p, (f & SF_PID) ? st->pid : st->tid, 5, 0);
		*p++ = ' ';
	}
	if (f & SF_CPU) {
		*p++ = '[';
		p = put_u64(p, st->cpu, 3, '0');
		memcpy(p, "] ", 2);
		p += 2;
	}
	if (f & SF_MISC)
		p = put_misc(p, st->misc, st->type);
	if (f & SF_TOD)
		p = put_tod(c, p, st->time);
	if (f & SF_TIME)
		p = put_time(c, p, st->time);
	obuf_commit(c->ob, p);
}

/* perf resolves the data address of page faults only */
static bool addr_has_sym(const struct pk_attr *a)
{
	return a->attr.type == PERF_TYPE_SOFTWARE &&
	       (a->attr.config == PERF_COUNT_SW_PAGE_FAULTS ||
		a->attr.config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		a->attr.config == PERF_COUNT_SW_PAGE_FAULTS_MAJ);
}

/*
 * The data address, and for page faults its symbol and DSO: looked up in
 * the sample's mode first, then in the mode the address belongs to (a
 * fault taken in the kernel on a user address), as perf does.
 */
static void print_addr(struct script_ctx *c, const struct pk_session_sample *ev, unsigned f)
{
	uint8_t mode = ev->rec->misc & PK_MISC_CPUMODE_MASK;
	uint8_t addr_mode = ev->sample.addr >= (1ULL << 63) ? PERF_RECORD_MISC_KERNEL
							    : PERF_RECORD_MISC_USER;
	struct pk_location loc;

	obuf_hex(c->ob, ev->sample.addr, 16);
	if (!addr_has_sym(ev->attr))
		return;
	pk_session_resolve(c->session, ev->thread, mode, ev->sample.addr, &loc);
	if (!loc.dso && addr_mode != mode)
		pk_session_resolve(c->session, ev->thread, addr_mode, ev->sample.addr, &loc);
	script_print_sym(c->ob, &loc, f);
}

/*
 * data_src, weight, ins_lat.  perf formats data_src into 100 bytes and
 * pads it to the widest seen so far in the run, so columns after it move
 * as wider values appear.
 */
static void print_mem(struct script_ctx *c, const struct script_fields *s, unsigned f)
{
	struct obuf *o = c->ob;

	if (f & SF_DATA_SRC) {
		char buf[100];
		size_t n;

		obuf_hex(o, s->data_src, 16);
		buf[0] = ' ';
		/* perf's "%16llx %s" into 100 bytes (a u64 never takes more
		 * than 16 digits): what is left for the words */
		n = 1 + pk_data_src_format(s->data_src, buf + 1, sizeof(buf) - 1 - 16);
		if ((int)(n + 16) > c->data_src_width)
			c->data_src_width = (int)n + 16;
		obuf_write(o, buf, n);
		obuf_pad(o, "", c->data_src_width - 16 - (int)n, 0);
	}
	if (f & SF_WEIGHT)
		obuf_u64(o, s->weight, 16, 0);
	if (f & SF_INS_LAT)
		obuf_u64(o, s->weight_var2, 16, 0);
}

static void print_phys(struct obuf *o, const struct script_fields *s, unsigned f)
{
	char buf[32];

	if (f & SF_PHYS_ADDR)
		obuf_hex(o, s->phys_addr, 16);
	if (f & SF_DATA_PAGE_SIZE) {
		obuf_putc(o, ' ');
		obuf_write(o, buf, pk_page_size_format(s->data_page_size, buf, sizeof(buf)));
	}
	if (f & SF_CODE_PAGE_SIZE) {
		obuf_putc(o, ' ');
		obuf_write(o, buf, pk_page_size_format(s->code_page_size, buf, sizeof(buf)));
	}
}

static void print_chain(struct script_ctx *c, const struct pk_frame *frames, size_t n,
			unsigned f)
{
	obuf_putc(c->ob, '\n');
	for (size_t i = 0; i < n; i++)
		script_print_frame(c, &frames[i].loc, f);
}

static bool job_chain(const struct script_ctx *c, const struct script_job *j)
{
	const struct script_event_fmt *fmt = &c->fmt[j->attr->index];

	return fmt->callchain && (fmt->fields & SF_IP) &&
	       (j->s.type & PERF_SAMPLE_CALLCHAIN);
}

/* comm ... event: the start of the line */
static void print_head(struct script_ctx *c, const struct script_job *j, unsigned f)
{
	const struct script_event_fmt *fmt = &c->fmt[j->attr->index];
	struct script_start st = {j->comm, (int32_t)j->s.pid, (int32_t)j->s.tid, j->s.cpu,
				  j->s.time, j->s.misc, PERF_RECORD_SAMPLE};
	struct obuf *o = c->ob;

	script_print_start(c, &st, f, fmt->callchain && (f & SF_IP));
	if (f & SF_PERIOD) {
		obuf_u64(o,
			 (j->s.type & PERF_SAMPLE_PERIOD) ? j->s.period
							      : (uint64_t)j->attr->attr.sample_period,
			 10, 0);
		obuf_putc(o, ' ');
	}
	if (f & SF_EVENT) {
		obuf_pad(o, j->attr->name ? j->attr->name : "[unknown]", c->name_width, 0);
		obuf_write(o, ": ", 2);
	}
	/* perf's "  %-21s " of the branch flags: only AUX-trace decoders
	 * (Intel PT...) set them, so for perfkit they are always empty */
	if (f & SF_FLAGS)
		obuf_pad(o, "", 24, 0);
}

static void print_ip(struct script_ctx *c, const struct script_job *j, unsigned f)
{
	struct obuf *o = c->ob;

	if (!(f & SF_IP))
		return;
	if (job_chain(c, j)) {
		print_chain(c, j->frames, j->nr_frames, f);
	} else {
		obuf_putc(o, ' ');
		obuf_hex(o, j->s.ip, 16);
		script_print_sym(o, &j->loc, f);
	}
}

bool script_job_needs_session(const struct script_ctx *c, const struct pk_attr *attr)
{
	return c->fmt[attr->index].fields & (SF_TRACE | SF_ADDR | SF_IREGS | SF_UREGS | SF_BRSTACK |
					     SF_BRSTACKSYM | SF_BRSTACKOFF);
}

void script_format_job(struct script_ctx *c, const struct script_job *j)
{
	unsigned f = c->fmt[j->attr->index].fields;

	print_head(c, j, f);
	if (f & (SF_DATA_SRC | SF_WEIGHT | SF_INS_LAT))
		print_mem(c, &j->s, f);
	print_ip(c, j, f);
	if (f & (SF_PHYS_ADDR | SF_DATA_PAGE_SIZE | SF_CODE_PAGE_SIZE))
		print_phys(c->ob, &j->s, f);
	obuf_putc(c->ob, '\n');
}

void script_job_init(struct script_job *j, const struct pk_session_sample *ev)
{
	const struct pk_sample *s = &ev->sample;

	j->attr = ev->attr;
	j->s = (struct script_fields){
		.type = s->type,
		.ip = s->ip,
		.time = s->time,
		.period = s->period,
		.pid = s->pid,
		.tid = s->tid,
		.cpu = s->cpu,
		.weight_var2 = s->weight_var2,
		.misc = ev->rec->misc,
		.data_src = s->data_src,
		.weight = s->weight,
		.phys_addr = s->phys_addr,
		.data_page_size = s->data_page_size,
		.code_page_size = s->code_page_size,
	};
	j->loc = ev->loc;
	j->comm = NULL;
	j->frames = NULL;
	j->nr_frames = 0;
}

size_t script_job_frames(struct script_ctx *c, const struct pk_session_sample *ev,
			 struct pk_frame *frames)
{
	const struct script_event_fmt *fmt = &c->fmt[ev->attr->index];

	if (!fmt->callchain || !(fmt->fields & SF_IP) ||
	    !(ev->sample.type & PERF_SAMPLE_CALLCHAIN))
		return 0;
	return pk_session_callchain_max(c->session, ev, frames, SCRIPT_MAX_FRAMES, c->max_stack);
}

/* A sample printed here and now, with the fields that need the session. */
void script_print_sample(struct script_ctx *c, const struct pk_session_sample *ev)
{
	unsigned f = c->fmt[ev->attr->index].fields;
	struct script_job j;
	struct obuf *o = c->ob;

	script_job_init(&j, ev);
	j.comm = pk_thread_comm(ev->thread);
	j.frames = c->frames;
	j.nr_frames = script_job_frames(c, ev, c->frames);
	print_head(c, &j, f);
	if ((f & SF_TRACE) && ev->sample.raw_size &&
	    pk_session_trace_format(c->session, ev, c->trace_buf, c->trace_len) >= 0)
		obuf_puts(o, c->trace_buf);
	if (f & SF_ADDR)
		print_addr(c, ev, f);
	if (f & (SF_DATA_SRC | SF_WEIGHT | SF_INS_LAT))
		print_mem(c, &j.s, f);
	print_ip(c, &j, f);
	if (f & SF_IREGS)
		script_print_regs(c, &ev->sample.regs_intr, ev->sample.swapped);
	if (f & SF_UREGS)
		script_print_regs(c, &ev->sample.regs_user, ev->sample.swapped);
	if (f & (SF_BRSTACK | SF_BRSTACKSYM | SF_BRSTACKOFF))
		script_print_brstack(c, ev, f);
	if (f & (SF_PHYS_ADDR | SF_DATA_PAGE_SIZE | SF_CODE_PAGE_SIZE))
		print_phys(o, &j.s, f);
	obuf_putc(o, '\n');
}
