// SPDX-License-Identifier: MIT
/* perfkit stat's output in perf's three layouts: columns, CSV (-x) and JSON (-j). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "cli.h"
#include "stat.h"

#define METRIC_LEN 35	/* width of the "# value unit" column */
#define NAME_LEN 32

static bool is_csv(const struct stat_print *p)
{
	return p->sep != NULL;
}

static const char *const topo_keys[] = {"core", "die", "socket", "node"};

/* "S0-D0-C1   1 ": the topology group and its CPU count, perf's widths. */
static void print_topo_prefix(const struct stat_print *p, int slot, int nr, const char *sep)
{
	const char *name = p->slot_names[slot], *last = strrchr(name, '-');

	if (is_csv(p)) {
		fprintf(p->out, "%s%s%d%s", name, sep, nr, sep);
		return;
	}
	/* the last number is left-aligned: 8 wide after C or D, 5 after S or N */
	last = last ? last + 1 : name;
	fprintf(p->out, "%.*s%c%-*s%s%4d%s", (int)(last - name), name, *last,
		p->aggr == AGGR_CORE || p->aggr == AGGR_DIE ? 8 : 5, last + 1, sep, nr, sep);
}

/* CPUs behind a line: a tool event (duration_time) has one, the set's
 * first, so other groups show 0 and <not counted>, as in perf. */
static int slot_nr_cpus(const struct stat_print *p, int slot, const struct pk_event *ev)
{
	return ev->tool ? slot == p->tool_slot : p->slot_cpus[slot];
}

static void print_prefix(const struct stat_print *p, int slot, const struct pk_event *ev)
{
	const char *sep = is_csv(p) ? p->sep : " ";

	if (p->json) {
		if (p->interval)
			fprintf(p->out, "\"interval\" : %.9f, ", p->ts);
		if (stat_aggr_topo(p->aggr))
			fprintf(p->out, "\"%s\" : \"%s\", \"aggregate-number\" : %d, ",
				topo_keys[p->aggr - AGGR_CORE], p->slot_names[slot],
				slot_nr_cpus(p, slot, ev));
		else if (p->aggr == AGGR_CPU)
			fprintf(p->out, "\"cpu\" : \"%s\", ", p->slot_names[slot] + 3);
		else if (p->aggr == AGGR_THREAD)
			fprintf(p->out, "\"thread\" : \"%s\", ", p->slot_names[slot]);
		return;
	}
	if (p->interval) {
		unsigned long sec = (unsigned long)p->ts;
		unsigned long nsec = (unsigned long)((p->ts - (double)sec) * 1e9 + 0.5);
		if (nsec >= 1000000000UL) {
			sec++;
			nsec -= 1000000000UL;
		}
		fprintf(p->out, "%6lu.%09lu%s", sec, nsec, sep);
	}
	if (stat_aggr_topo(p->aggr)) {
		print_topo_prefix(p, slot, slot_nr_cpus(p, slot, ev), sep);
	} else if (p->aggr == AGGR_CPU) {
		if (is_csv(p))
			fprintf(p->out, "%s%s", p->slot_names[slot], sep);
		else
			fprintf(p->out, "CPU%-7s%s", p->slot_names[slot] + 3, sep);
	} else if (p->aggr == AGGR_THREAD) {
		const char *name = p->slot_names[slot], *dash = strrchr(name, '-');
		if (is_csv(p) || !dash)
			fprintf(p->out, "%s%s", name, sep);
		else
			fprintf(p->out, "%16.*s-%-8s%s", (int)(dash - name), name, dash + 1, sep);
	}
}

/* The metric column; keeps perf's width so the noise column lines up. */
static void print_metric(const struct stat_print *p, const struct pk_stat_metric *m, bool have)
{
	char num[64];
	int n;

	if (p->json) {
		fprintf(p->out, ", \"metric-value\" : %f, \"metric-unit\" : \"%s\"",
			have ? m->value : 0.0, have ? m->unit : "");
		return;
	}
	if (is_csv(p)) {
		char *v = num, *end;

		if (!have) {
			fprintf(p->out, "%s%s", p->sep, p->sep);
			return;
		}
		snprintf(num, sizeof(num), m->fmt, m->value);
		while (isspace((unsigned char)*v))
			v++;
		for (end = v; isdigit((unsigned char)*end) || *end == '.' || *end == '-'; end++)
			;
		*end = 0;
		fprintf(p->out, "%s%s%s%s", p->sep, v, p->sep, m->unit);
		return;
	}
	if (!have) {
		fprintf(p->out, "%-*s", METRIC_LEN, "");
		return;
	}
	n = fprintf(p->out, " # ");
	n += fprintf(p->out, m->fmt, m->value);
	fprintf(p->out, " %-*s", METRIC_LEN - n - 1 > 0 ? METRIC_LEN - n - 1 : 0, m->unit);
}

static void print_value(const struct stat_print *p, const struct pk_event *ev, double v,
			const char *special)
{
	bool frac = (double)(long long)ev->scale != ev->scale;
	const char *unit = ev->unit ? ev->unit : "";

	if (is_csv(p)) {
		if (special)
			fprintf(p->out, "%s", special);
		else
			fprintf(p->out, frac ? "%.2f" : "%.0f", v * ev->scale);
		fprintf(p->out, "%s%s%s%s", p->sep, unit, p->sep, ev->name);
		return;
	}
	if (special)
		fprintf(p->out, "%18s", special);
	else if (p->big_num)
		fprintf(p->out, frac ? "%'18.2f" : "%'18.0f", v * ev->scale);
	else
		fprintf(p->out, frac ? "%18.2f" : "%18.0f", v * ev->scale);
	fprintf(p->out, " %-*s %-*s", p->unit_width, unit, NAME_LEN, ev->name);
}

static void print_json_line(const struct stat_print *p, int e, int slot, const char *special,
			    double v, const struct stat_value *sv, double pct,
			    const struct pk_stat_metric *m, bool have)
{
	const struct pk_event *ev = &p->events->ev[e];
	char buf[64];

	if (special)
		snprintf(buf, sizeof(buf), "%s", special);
	else
		snprintf(buf, sizeof(buf), "%f", v * ev->scale);
	fprintf(p->out, "{");
	print_prefix(p, slot, ev);
	fprintf(p->out, "\"counter-value\" : \"%s\", \"unit\" : \"%s\", \"event\" : \"%s\", ",
		buf, ev->unit ? ev->unit : "", ev->name);
	if (p->repeat > 1)
		fprintf(p->out, "\"variance\" : %.2f, ", pk_stat_acc_rel_stddev(&sv->acc));
	fprintf(p->out, "\"event-runtime\" : %llu, \"pcnt-running\" : %.2f",
		(unsigned long long)sv->run, pct);
	if (!have && !special) {
		/* perf 6.1 prints a counted event's missing metric unit so */
		fprintf(p->out, ", \"metric-value\" : %f, \"metric-unit\" : \"(null)\"}\n", 0.0);
		return;
	}
	print_metric(p, m, have);
	fprintf(p->out, "}\n");
}

static void slot_ctx(const struct stat_print *p, int slot, struct pk_stat_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->elapsed_ns = p->elapsed_ns;
	for (size_t e = 0; e < p->events->nr; e++) {
		const struct stat_value *sv = &p->vals[e * (size_t)p->nr_slots + (size_t)slot];

		if (pk_counter_state(p->set, (int)e) == PK_COUNT_OK && sv->counted)
			pk_stat_ctx_add(ctx, &p->events->ev[e].attr, sv->acc.mean);
	}
}

static void print_line(const struct stat_print *p, int e, int slot, const struct pk_stat_ctx *ctx)
{
	const struct pk_event *ev = &p->events->ev[e];
	const struct stat_value *sv = &p->vals[(size_t)e * (size_t)p->nr_slots + (size_t)slot];
	enum pk_count_state st = pk_counter_state(p->set, e);
	const char *special = NULL;
	struct pk_stat_metric m;
	bool have = false;
	double v = sv->acc.mean, pct = 100.0;

	/* a tool event is counted once, on the set's first CPU: with -A perf
	 * shows it on that CPU's line only */
	if (ev->tool && p->aggr == AGGR_CPU && slot != p->tool_slot)
		return;
	if (st == PK_COUNT_NOT_SUPPORTED)
		special = "<not supported>";
	else if (!sv->counted)
		special = "<not counted>";
	if (!special) {
		have = pk_stat_metric(ctx, &ev->attr, v, &m);
		if (sv->ena && sv->run < sv->ena)
			pct = 100.0 * (double)sv->run / (double)sv->ena;
	}
	if (p->json) {
		print_json_line(p, e, slot, special, v, sv, pct, &m, have);
		return;
	}
	print_prefix(p, slot, ev);
	print_value(p, ev, v, special);
	if (is_csv(p)) {
		if (p->repeat > 1)
			fprintf(p->out, "%s%.2f%%", p->sep, pk_stat_acc_rel_stddev(&sv->acc));
		fprintf(p->out, "%s%llu%s%.2f", p->sep, (unsigned long long)sv->run, p->sep, pct);
		print_metric(p, &m, have);
		fputc('\n', p->out);
		return;
	}
	if (special) {
		fprintf(p->out, "%-*s\n", METRIC_LEN - 7, "");
		return;
	}
	print_metric(p, &m, have);
	/* perf leaves the noise out when there is none. */
	if (p->repeat > 1 && pk_stat_acc_rel_stddev(&sv->acc) != 0)
		fprintf(p->out, "  ( +- %5.2f%% )", pk_stat_acc_rel_stddev(&sv->acc));
	if (pct < 100.0)
		fprintf(p->out, "  (%.2f%%)", pct);
	fputc('\n', p->out);
}

void stat_print_counters(const struct stat_print *p)
{
	struct pk_stat_ctx *ctx = calloc((size_t)p->nr_slots, sizeof(*ctx));

	if (!ctx)
		return;
	for (int s = 0; s < p->nr_slots; s++)
		slot_ctx(p, s, &ctx[s]);
	/* perf lists per-CPU and per-thread lines grouped by event, topology
	 * groups' lines grouped by group */
	if (stat_aggr_topo(p->aggr)) {
		for (int s = 0; s < p->nr_slots; s++)
			for (size_t e = 0; e < p->events->nr; e++)
				print_line(p, (int)e, s, &ctx[s]);
	} else {
		for (size_t e = 0; e < p->events->nr; e++)
			for (int s = 0; s < p->nr_slots; s++)
				print_line(p, (int)e, s, &ctx[s]);
	}
	free(ctx);
}

void stat_print_interval_header(const struct stat_print *p)
{
	if (is_csv(p) || p->json)
		return;
	static const char *const topo_heads[] = {"core            cpus", "die          cpus",
						 "socket cpus", "node   cpus"};

	if (stat_aggr_topo(p->aggr))
		fprintf(p->out, "#           time %s             counts %*s events\n",
			topo_heads[p->aggr - AGGR_CORE], p->unit_width, "unit");
	else if (p->aggr == AGGR_CPU)
		fprintf(p->out, "#           time CPU                    counts %*s events\n",
			p->unit_width, "unit");
	else if (p->aggr == AGGR_THREAD)
		fprintf(p->out, "#           time             comm-pid                  counts %*s events\n",
			p->unit_width, "unit");
	else
		fprintf(p->out, "#           time             counts %*s events\n", p->unit_width,
			"unit");
}

void stat_print_header(const struct stat_print *p, const char *target)
{
	if (is_csv(p) || p->json)
		return;
	fprintf(p->out, "\n Performance counter stats for %s", target);
	if (p->repeat > 1)
		fprintf(p->out, " (%d runs)", p->repeat);
	fprintf(p->out, ":\n\n");
}

/* Decimals perf shows for a mean with this stddev: two past the first digit. */
static int precision_for(double sd)
{
	int digits = 0;

	if (sd > 1 || sd <= 0)
		return 2;
	/* ceil(-log10(sd)), without libm */
	for (double x = sd; x < 1 && digits < 18; x *= 10)
		digits++;
	return digits + 2;
}

void stat_print_footer(const struct stat_print *p, const struct pk_stat_acc *elapsed,
		       const struct rusage *ru, bool show_rusage)
{
	if (is_csv(p) || p->json)
		return;
	if (p->events->nr)	/* -n: the header's blank line is the only one */
		fputc('\n', p->out);
	if (p->repeat > 1) {
		double sd = pk_stat_acc_stddev(elapsed) / 1e9;
		int prec = precision_for(sd);

		fprintf(p->out, "%18.*f +- %.*f seconds time elapsed", prec, elapsed->mean / 1e9,
			prec, sd);
		fprintf(p->out, "  ( +- %5.2f%% )\n", pk_stat_acc_rel_stddev(elapsed));
	} else {
		fprintf(p->out, "%18.9f seconds time elapsed\n", elapsed->mean / 1e9);
	}
	fputc('\n', p->out);
	if (show_rusage && ru && p->repeat <= 1) {
		fprintf(p->out, "%18.9f seconds user\n",
			(double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec / 1e6);
		fprintf(p->out, "%18.9f seconds sys\n",
			(double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec / 1e6);
		fputs("\n\n", p->out);
	}
}
