// SPDX-License-Identifier: MIT
/*
 * perf script's default line: comm, tid, cpu, time, period, event, then
 * the trace fields or ip/sym+off/dso, or the indented callchain.  Field
 * widths follow perf's so outputs can be diffed line by line.
 */
#include <inttypes.h>
#include "script.h"

static void print_sym(FILE *out, const struct pk_location *loc, unsigned f)
{
	if (f & SF_SYM) {
		fputc(' ', out);
		if (!loc->sym)
			fputs("[unknown]", out);
		else if ((f & SF_SYMOFF) && loc->addr < loc->sym->end)
			fprintf(out, "%s+0x%" PRIx64, loc->sym->name, loc->addr - loc->sym->start);
		else
			fputs(loc->sym->name, out);
	}
	if (f & SF_DSO)
		fprintf(out, " (%s)", pk_dso_name(loc->dso));
}

static void print_start(struct script_ctx *c, const struct pk_session_sample *ev, unsigned f,
			bool chain)
{
	const struct pk_sample *s = &ev->sample;
	FILE *out = c->out;

	if (f & SF_COMM) {
		if (chain)
			fprintf(out, "%s ", pk_thread_comm(ev->thread));
		else
			fprintf(out, "%16s ", pk_thread_comm(ev->thread));
	}
	if ((f & SF_PID) && (f & SF_TID))
		fprintf(out, "%5d/%-5d ", (int)s->pid, (int)s->tid);
	else if (f & SF_PID)
		fprintf(out, "%5d ", (int)s->pid);
	else if (f & SF_TID)
		fprintf(out, "%5d ", (int)s->tid);
	if (f & SF_CPU)
		fprintf(out, "[%03u] ", s->cpu);
	if (f & SF_TIME) {
		uint64_t sec = s->time / 1000000000ULL, ns = s->time % 1000000000ULL;
		char buf[48];

		if (c->nanosecs) {
			fprintf(out, "%5" PRIu64 ".%09" PRIu64 ": ", sec, ns);
		} else {
			snprintf(buf, sizeof(buf), "%" PRIu64 ".%06" PRIu64, sec, ns / 1000);
			fprintf(out, "%12s: ", buf);
		}
	}
}

void script_print_sample(struct script_ctx *c, const struct pk_session_sample *ev)
{
	const struct script_event_fmt *fmt = &c->fmt[ev->attr->index];
	unsigned f = fmt->fields;
	bool chain = fmt->callchain && (f & SF_IP);
	FILE *out = c->out;

	print_start(c, ev, f, chain);
	if (f & SF_PERIOD)
		fprintf(out, "%10" PRIu64 " ",
			(ev->sample.type & PERF_SAMPLE_PERIOD) ? ev->sample.period
								: (uint64_t)ev->attr->attr.sample_period);
	if (f & SF_EVENT)
		fprintf(out, "%*s: ", c->name_width, ev->attr->name ? ev->attr->name : "[unknown]");
	if ((f & SF_TRACE) && ev->sample.raw_size &&
	    pk_session_trace_format(c->session, ev, c->trace_buf, c->trace_len) >= 0)
		fputs(c->trace_buf, out);
	if (f & SF_ADDR)
		fprintf(out, "%16" PRIx64, ev->sample.addr);
	if (f & SF_IP) {
		if (chain && (ev->sample.type & PERF_SAMPLE_CALLCHAIN)) {
			size_t n = pk_session_callchain(c->session, ev, c->frames,
							SCRIPT_MAX_STACK);

			fputc('\n', out);
			for (size_t i = 0; i < n; i++) {
				const struct pk_location *l = &c->frames[i].loc;

				/* perf prints kernel and module frames as recorded */
				fprintf(out, "\t%16" PRIx64, pk_dso_is_kernel(l->dso) ? l->ip : l->addr);
				print_sym(out, &c->frames[i].loc, f);
				fputc('\n', out);
			}
		} else {
			fprintf(out, " %16" PRIx64, ev->sample.ip);
			print_sym(out, &ev->loc, f);
		}
	}
	fputc('\n', out);
}
