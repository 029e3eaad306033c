// SPDX-License-Identifier: MIT
/*
 * perf script's default line: comm, tid, cpu, time, period, event, then
 * the trace fields or ip/sym+off/dso, or the indented callchain.  Field
 * widths follow perf's so outputs can be diffed line by line.  Printed
 * through obuf: millions of lines, no printf.
 */
#include <inttypes.h>
#include "obuf.h"
#include "script.h"

static void print_sym(struct obuf *o, const struct pk_location *loc, unsigned f)
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
	if (f & SF_DSO) {
		obuf_write(o, " (", 2);
		obuf_puts(o, pk_dso_name(loc->dso));
		obuf_putc(o, ')');
	}
}

static void print_time(struct script_ctx *c, uint64_t t)
{
	struct obuf *o = c->ob;
	uint64_t sec = t / 1000000000ULL, ns = t % 1000000000ULL;

	if (c->nanosecs) {
		obuf_u64(o, sec, 5, 0);
		obuf_putc(o, '.');
		obuf_u64(o, ns, 9, 1);
	} else {
		/* "%12s" of "sec.usec": the seconds take what the 7
		 * characters of ".usec" leave */
		obuf_u64(o, sec, 12 - 7, 0);
		obuf_putc(o, '.');
		obuf_u64(o, ns / 1000, 6, 1);
	}
	obuf_write(o, ": ", 2);
}

static void print_start(struct script_ctx *c, const struct pk_session_sample *ev, unsigned f,
			bool chain)
{
	const struct pk_sample *s = &ev->sample;
	struct obuf *o = c->ob;

	if (f & SF_COMM) {
		obuf_pad(o, pk_thread_comm(ev->thread), chain ? 0 : 16, 0);
		obuf_putc(o, ' ');
	}
	if ((f & SF_PID) && (f & SF_TID)) {
		obuf_i64(o, (int32_t)s->pid, 5, 0);
		obuf_putc(o, '/');
		obuf_i64(o, (int32_t)s->tid, 5, 1);
		obuf_putc(o, ' ');
	} else if (f & (SF_PID | SF_TID)) {
		obuf_i64(o, (int32_t)((f & SF_PID) ? s->pid : s->tid), 5, 0);
		obuf_putc(o, ' ');
	}
	if (f & SF_CPU) {
		obuf_putc(o, '[');
		obuf_u64(o, s->cpu, 3, 1);
		obuf_write(o, "] ", 2);
	}
	if (f & SF_TIME)
		print_time(c, s->time);
}

static void print_chain(struct script_ctx *c, const struct pk_session_sample *ev, unsigned f)
{
	struct obuf *o = c->ob;
	size_t n = pk_session_callchain(c->session, ev, c->frames, SCRIPT_MAX_STACK);

	obuf_putc(o, '\n');
	for (size_t i = 0; i < n; i++) {
		const struct pk_location *l = &c->frames[i].loc;

		/* perf prints kernel and module frames as recorded */
		obuf_putc(o, '\t');
		obuf_hex(o, pk_dso_is_kernel(l->dso) ? l->ip : l->addr, 16);
		print_sym(o, l, f);
		obuf_putc(o, '\n');
	}
}

void script_print_sample(struct script_ctx *c, const struct pk_session_sample *ev)
{
	const struct script_event_fmt *fmt = &c->fmt[ev->attr->index];
	unsigned f = fmt->fields;
	bool chain = fmt->callchain && (f & SF_IP);
	struct obuf *o = c->ob;

	print_start(c, ev, f, chain);
	if (f & SF_PERIOD) {
		obuf_u64(o,
			 (ev->sample.type & PERF_SAMPLE_PERIOD) ? ev->sample.period
								: (uint64_t)ev->attr->attr.sample_period,
			 10, 0);
		obuf_putc(o, ' ');
	}
	if (f & SF_EVENT) {
		obuf_pad(o, ev->attr->name ? ev->attr->name : "[unknown]", c->name_width, 0);
		obuf_write(o, ": ", 2);
	}
	if ((f & SF_TRACE) && ev->sample.raw_size &&
	    pk_session_trace_format(c->session, ev, c->trace_buf, c->trace_len) >= 0)
		obuf_puts(o, c->trace_buf);
	if (f & SF_ADDR)
		obuf_hex(o, ev->sample.addr, 16);
	if (f & SF_IP) {
		if (chain && (ev->sample.type & PERF_SAMPLE_CALLCHAIN)) {
			print_chain(c, ev, f);
		} else {
			obuf_putc(o, ' ');
			obuf_hex(o, ev->sample.ip, 16);
			print_sym(o, &ev->loc, f);
		}
	}
	if (f & (SF_BRSTACK | SF_BRSTACKSYM))
		script_print_brstack(c, ev, f);
	obuf_putc(o, '\n');
}
