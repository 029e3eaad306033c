// SPDX-License-Identifier: MIT
/*
 * The columns of perfkit report --stdio as perf 6.1 lays them out: the
 * percentages (one per group member), -n's Samples, --show-total-period's
 * Period, then the sort keys; -F picks and orders them, -t separates them
 * with a string instead of padding.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <perfkit/session.h>
#include "cli.h"
#include "report_stdio.h"

#define UNRESOLVED_WIDTH 16 /* hex digits of an unresolved address */
#define PERCENT_WIDTH	 8  /* per member */
#define NUMBER_WIDTH	 12 /* Samples and Period, per member */

static const char *key_header(enum pk_hist_key k)
{
	switch (k) {
	case PK_HIST_KEY_COMM:
		return "Command";
	case PK_HIST_KEY_PID:
		return "    Pid:Command";
	case PK_HIST_KEY_DSO:
		return "Shared Object";
	case PK_HIST_KEY_SYM:
		return "Symbol";
	case PK_HIST_KEY_CPU:
		return "CPU";
	case PK_HIST_KEY_TRACE:
		return "Trace output";
	case PK_HIST_KEY_PARENT:
		return "Parent symbol";
	case PK_HIST_KEY_TIME:
		return "Time";
	default:
		return "?";
	}
}

static const char *column_header(const struct report_layout *l, const struct report_column *c)
{
	switch (c->kind) {
	case REPORT_COL_CHILDREN:
		return "Children";
	case REPORT_COL_SELF:
		/* perf's default children columns name it Self; -F's not */
		return l->children && !l->fields_set ? "Self" : "Overhead";
	case REPORT_COL_SAMPLES:
		return "Samples";
	case REPORT_COL_PERIOD:
		return "Period";
	case REPORT_COL_SYS:
		return "sys";
	case REPORT_COL_USR:
		return "usr";
	default:
		return key_header(c->key);
	}
}

static int column_width(const struct report_layout *l, const struct report_column *c)
{
	switch (c->kind) {
	case REPORT_COL_CHILDREN:
	case REPORT_COL_SELF:
	case REPORT_COL_SYS:
	case REPORT_COL_USR:
		return PERCENT_WIDTH * (int)l->nr_members;
	case REPORT_COL_SAMPLES:
	case REPORT_COL_PERIOD:
		return NUMBER_WIDTH * (int)l->nr_members;
	default:
		return l->width[c->key];
	}
}

static void add_column(struct report_layout *l, enum report_column_kind kind, enum pk_hist_key k)
{
	if (l->nr_cols < REPORT_MAX_COLUMNS)
		l->cols[l->nr_cols++] = (struct report_column){kind, k};
}

void report_columns_default(struct report_layout *l, const struct report_stdio_opts *o)
{
	l->nr_cols = 0;
	if (l->children)
		add_column(l, REPORT_COL_CHILDREN, 0);
	add_column(l, REPORT_COL_SELF, 0);
	if (o->show_cpu_util) {
		add_column(l, REPORT_COL_SYS, 0);
		add_column(l, REPORT_COL_USR, 0);
	}
	if (o->show_nr_samples)
		add_column(l, REPORT_COL_SAMPLES, 0);
	if (o->show_total_period)
		add_column(l, REPORT_COL_PERIOD, 0);
	for (uint32_t i = 0; i < l->nr_keys; i++)
		if (!l->elide[l->keys[i]])
			add_column(l, REPORT_COL_KEY, l->keys[i]);
}

uint64_t report_total(const struct report_layout *l, const struct pk_hist_event *ev, uint32_t m)
{
	uint64_t n, period;

	if (l->relative) {
		pk_hist_event_kept(ev, m, &n, &period);
		return period;
	}
	if (ev->nr_members < 2 || !ev->members)
		return ev->total_period;
	return ev->members[m].total_period;
}

static void grow(int *w, int len)
{
	if (len > *w)
		*w = len;
}

/* perf formats an entry's trace output when it first compares the entry
 * with another (or a later sample's key), and sizes the column by the
 * outputs formatted by then: the entry of a lone sample is not, unless its
 * callchain's entries were compared with it (children), and prints cut to
 * the header's width. */
static bool trace_known(const struct report_layout *l, const struct pk_hist_event *ev)
{
	return ev->nr_entries > 1 || ev->nr_samples > 1 ||
	       (l->accumulate && (ev->attr->attr.sample_type & PERF_SAMPLE_CALLCHAIN));
}

/* Column widths as perf computes them, over the entries it keeps. */
void report_columns_widths(struct report_layout *l, const struct pk_hist_event *ev,
			   const struct report_stdio_opts *o)
{
	bool unresolved = false;

	for (int k = 0; k < PK_HIST_KEY_MAX; k++)
		l->width[k] = (int)strlen(key_header((enum pk_hist_key)k));
	/* perf's time column is as wide as a time of 5 digits of seconds */
	l->width[PK_HIST_KEY_TIME] = o->ns ? 16 : 12;
	for (uint64_t i = 0; i < ev->nr_entries; i++) {
		const struct pk_hist_entry *e = &ev->entries[i];

		/* perf sizes the column by the length of the thread's last
		 * comm (cached once the samples are in), not the entry's, and
		 * cuts the entries' comms to that */
		grow(&l->width[PK_HIST_KEY_COMM], (int)strlen(pk_thread_comm(e->thread)));
		grow(&l->width[PK_HIST_KEY_PID], (int)strlen(pk_thread_comm(e->thread)) + 8);
		if (e->dso)
			grow(&l->width[PK_HIST_KEY_DSO], (int)strlen(pk_dso_short_name(e->dso)));
		if (e->parent)
			grow(&l->width[PK_HIST_KEY_PARENT], (int)strlen(e->parent));
		if (e->trace && trace_known(l, ev))
			grow(&l->width[PK_HIST_KEY_TRACE], (int)strlen(e->trace));
		if (e->sym) {
			grow(&l->width[PK_HIST_KEY_SYM], (int)strlen(e->sym->name) + 4);
		} else {
			grow(&l->width[PK_HIST_KEY_SYM], UNRESOLVED_WIDTH + 4 + 2);
			unresolved = true;
		}
	}
	if (unresolved && !o->dsos)
		grow(&l->width[PK_HIST_KEY_DSO], UNRESOLVED_WIDTH);
}

static void dots(FILE *out, int n)
{
	for (int j = 0; j < n; j++)
		fputc('.', out);
}

void report_columns_header(FILE *out, const struct report_layout *l)
{
	const char *sep = l->sep ? l->sep : "  ";

	fputs("# ", out);
	for (uint32_t i = 0; i < l->nr_cols; i++) {
		const struct report_column *c = &l->cols[i];

		fprintf(out, "%s%*s", i ? sep : "",
			c->kind == REPORT_COL_KEY ? -column_width(l, c) : column_width(l, c),
			column_header(l, c));
	}
	fputc('\n', out);
	if (l->sep)
		return;
	fputs("# ", out);
	for (uint32_t i = 0; i < l->nr_cols; i++) {
		fputs(i ? "  " : "", out);
		dots(out, column_width(l, &l->cols[i]));
	}
	fputs("\n#\n", out);
}

static void format_sym(struct report_out *o, const struct pk_hist_entry *e)
{
	const char lead[4] = {'[', e->level, ']', ' '};

	report_out_write(o, lead, sizeof(lead));
	if (e->sym && e->sym->object) {
		report_out_puts(o, e->sym->name);
		report_out_write(o, "+0x", 3);
		report_out_hex(o, e->first_addr - e->sym->start, 0, false);
	} else if (e->sym) {
		report_out_puts(o, e->sym->name);
		if (e->sym->inlined)
			report_out_puts(o, " (inlined)");
	} else {
		report_out_hex(o, e->addr, UNRESOLVED_WIDTH, true);
	}
}

void report_columns_key(struct report_out *o, const struct report_layout *l, enum pk_hist_key k,
			const struct pk_hist_entry *e)
{
	size_t w = l->width[k] > 0 ? (size_t)l->width[k] : 0, start = o->len;

	switch (k) {
	case PK_HIST_KEY_COMM:
		report_out_left(o, e->comm, w, w);
		break;
	case PK_HIST_KEY_PID:
		/* the thread's last comm, as perf shows it */
		report_out_int(o, e->tid, 7, 0);
		report_out_putc(o, ':');
		report_out_left(o, pk_thread_comm(e->thread), w > 8 ? w - 8 : 0, w > 8 ? w - 8 : 0);
		break;
	case PK_HIST_KEY_DSO:
		report_out_left(o, pk_dso_short_name(e->dso), SIZE_MAX, w);
		break;
	case PK_HIST_KEY_SYM:
		format_sym(o, e);
		break;
	case PK_HIST_KEY_CPU:
		report_out_int(o, (int)e->cpu, (int)w, (int)w);
		break;
	case PK_HIST_KEY_TRACE:
		/* cut to the width, padded only as a column before others */
		report_out_left(o, e->trace ? e->trace : "", w, 0);
		break;
	case PK_HIST_KEY_PARENT:
		report_out_left(o, e->parent ? e->parent : "[other]", w, w);
		break;
	case PK_HIST_KEY_TIME: {
		char t[48];

		if (l->ns)
			snprintf(t, sizeof(t), "%" PRIu64 ".%09" PRIu64, e->time / 1000000000,
				 e->time % 1000000000);
		else
			snprintf(t, sizeof(t), "%" PRIu64 ".%06" PRIu64, e->time / 1000000000,
				 e->time % 1000000000 / 1000);
		/* padded only as a column before others, as trace */
		report_out_left(o, t, SIZE_MAX, 0);
		break;
	}
	default:
		break;
	}
	/* perf keeps the separator out of the fields it prints */
	if (l->sep && *l->sep)
		for (size_t i = start; i < o->len; i++)
			if (o->p[i] == *l->sep)
				o->p[i] = '.';
}

/* The value of a column for group member m. */
static uint64_t member_value(const struct report_column *c, const struct pk_hist_entry *e,
			     uint32_t m)
{
	const struct pk_hist_value *v = e->members ? &e->members[m] : NULL;

	switch (c->kind) {
	case REPORT_COL_CHILDREN:
		return v ? v->children : e->children;
	case REPORT_COL_SELF:
	case REPORT_COL_PERIOD:
		return v ? v->self : e->self;
	case REPORT_COL_SYS:
		/* perf splits the self period by the samples' mode; an entry's
		 * samples have its level's */
		return e->level == 'k' ? (v ? v->self : e->self) : 0;
	case REPORT_COL_USR:
		return e->level == '.' ? (v ? v->self : e->self) : 0;
	default:
		return v ? v->nr_samples : e->nr_samples;
	}
}

/* perf prints " %.2f%%" and " %llu" with the width less the space, or
 * without a width between separators. */
static void format_values(struct report_out *o, const struct report_layout *l,
			  const struct report_column *col, const struct pk_hist_entry *e,
			  const struct pk_hist_event *ev)
{
	bool pct = col->kind == REPORT_COL_CHILDREN || col->kind == REPORT_COL_SELF ||
		   col->kind == REPORT_COL_SYS || col->kind == REPORT_COL_USR;
	int w = l->sep ? 0 : (pct ? PERCENT_WIDTH - 2 : NUMBER_WIDTH - 1);
	uint32_t n = e->members && ev->nr_members > 1 ? ev->nr_members : 1;

	if (col->kind == REPORT_COL_CHILDREN && !l->accumulate) {
		/* perf's words for children it did not accumulate, once */
		report_out_fill(o, ' ', PERCENT_WIDTH - 3);
		report_out_write(o, "N/A", 3);
		return;
	}
	for (uint32_t m = 0; m < n; m++) {
		uint64_t v = member_value(col, e, m);

		report_out_putc(o, ' ');
		if (!pct) {
			report_out_u64(o, v, w);
			continue;
		}
		report_out_pct(o, v, report_total(l, ev, m), w);
		report_out_putc(o, '%');
	}
}

void report_columns_entry(struct report_out *o, const struct report_layout *l,
			  const struct pk_hist_entry *e, const struct pk_hist_event *ev)
{
	if (!l->sep)
		report_out_write(o, "  ", 2);
	for (uint32_t i = 0; i < l->nr_cols; i++) {
		const struct report_column *col = &l->cols[i];
		int w = column_width(l, col);
		size_t start;

		if (i)
			report_out_puts(o, l->sep ? l->sep : "  ");
		start = o->len;
		if (col->kind == REPORT_COL_KEY)
			report_columns_key(o, l, col->key, e);
		else
			format_values(o, l, col, e, ev);
		/* every column but the last is padded to its width */
		if (i + 1 < l->nr_cols && o->len - start < (size_t)(w > 0 ? w : 0))
			report_out_fill(o, ' ', (size_t)w - (o->len - start));
	}
	report_out_putc(o, '\n');
}

/* perf's -F names: the value columns and the sort keys */
static int parse_field(const char *p, size_t n, struct report_column *c)
{
	static const struct {
		const char *name;
		enum report_column_kind kind;
	} values[] = {
		{"overhead", REPORT_COL_SELF},
		{"overhead_children", REPORT_COL_CHILDREN},
		{"sample", REPORT_COL_SAMPLES},
		{"period", REPORT_COL_PERIOD},
	};
	int k;

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		if (strlen(values[i].name) == n && !strncmp(values[i].name, p, n)) {
			*c = (struct report_column){values[i].kind, 0};
			return 0;
		}
	}
	k = pk_hist_key_parse(p, n);
	if (k < 0 && n == 6 && !strncmp(p, "symbol", 6))
		k = PK_HIST_KEY_SYM;
	if (k < 0)
		return -EINVAL;
	*c = (struct report_column){REPORT_COL_KEY, (enum pk_hist_key)k};
	return 0;
}

static bool has_column(const struct report_layout *l, const struct report_column *c)
{
	for (uint32_t i = 0; i < l->nr_cols; i++)
		if (l->cols[i].kind == c->kind &&
		    (c->kind != REPORT_COL_KEY || l->cols[i].key == c->key))
			return true;
	return false;
}

/* perf accumulates children only when -F shows them */
static bool shows_children(const struct report_layout *l)
{
	for (uint32_t i = 0; i < l->nr_cols; i++)
		if (l->cols[i].kind == REPORT_COL_CHILDREN)
			return true;
	return false;
}

/* perf orders by its sort list: the --sort keys (the first nr_sort of
 * l->keys), then what -F names that is not among them, in -F's order. */
static void set_order(struct report_layout *l, uint32_t nr_sort)
{
	static const enum pk_hist_by_what by_kind[] = {
		[REPORT_COL_CHILDREN] = PK_HIST_BY_CHILDREN, [REPORT_COL_SELF] = PK_HIST_BY_SELF,
		[REPORT_COL_SAMPLES] = PK_HIST_BY_SAMPLES,   [REPORT_COL_PERIOD] = PK_HIST_BY_SELF,
		[REPORT_COL_KEY] = PK_HIST_BY_KEY,
	};

	l->nr_order = 0;
	for (uint32_t i = 0; i < nr_sort; i++)
		l->order[l->nr_order++] = (struct pk_hist_by){PK_HIST_BY_KEY, l->keys[i]};
	for (uint32_t i = 0; i < l->nr_cols; i++) {
		const struct report_column *c = &l->cols[i];
		bool sorted = false;

		for (uint32_t j = 0; c->kind == REPORT_COL_KEY && j < nr_sort; j++)
			sorted |= l->keys[j] == c->key;
		if (!sorted)
			l->order[l->nr_order++] = (struct pk_hist_by){by_kind[c->kind], c->key};
	}
}

int report_columns_parse(struct report_layout *l, const char *fields, bool sort_given,
			 bool *children)
{
	const char *p = fields;
	uint32_t nr_sort = sort_given ? l->nr_keys : 0;

	l->nr_cols = 0;
	l->fields_set = true;
	while (*p) {
		size_t n = strcspn(p, ",");
		struct report_column c;

		if (!n || parse_field(p, n, &c)) {
			cli_error("report: unknown -F field '%.*s'", (int)n, p);
			return -EINVAL;
		}
		if (!has_column(l, &c))
			add_column(l, c.kind, c.key);
		p += n + (p[n] == ',');
	}
	*children = shows_children(l);
	set_order(l, nr_sort);
	if (!sort_given) {
		l->nr_keys = 0;
		for (uint32_t i = 0; i < l->nr_cols; i++)
			if (l->cols[i].kind == REPORT_COL_KEY)
				l->keys[l->nr_keys++] = l->cols[i].key;
		return 0;
	}
	/* the histogram keeps -F's keys apart too; perf shows the sort keys
	 * -F leaves out after its fields */
	for (uint32_t i = 0; i < l->nr_cols; i++) {
		bool known = false;

		if (l->cols[i].kind != REPORT_COL_KEY)
			continue;
		for (uint32_t j = 0; j < l->nr_keys; j++)
			known |= l->keys[j] == l->cols[i].key;
		if (!known && l->nr_keys < PK_HIST_KEY_MAX)
			l->keys[l->nr_keys++] = l->cols[i].key;
	}
	for (uint32_t i = 0; i < l->nr_keys; i++) {
		struct report_column c = {REPORT_COL_KEY, l->keys[i]};

		if (!has_column(l, &c))
			add_column(l, c.kind, c.key);
	}
	return 0;
}
