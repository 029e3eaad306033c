// SPDX-License-Identifier: MIT
/*
 * perf report --hierarchy without call graphs: the entries folded level
 * by level, a level per sort key (the first key's values, under each the
 * second's, ...), every level ordered by its overhead, then by its key.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <perfkit/session.h>
#include "report_stdio.h"

#define INDENT 3 /* perf's indent of a level */

struct hctx {
	const struct report_layout *l;
	const struct pk_hist_entry *v;
	uint64_t tree_total;	/* the call trees' percentages are of it */
	uint32_t depth;
};

/* NULL after every string, as perf's sort of these keys */
static int cmp_str(const char *a, const char *b)
{
	if (!a || !b)
		return !a - !b;
	return strcmp(a, b);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

/* Key k of two entries: 0 only when they share the value. */
static int key_cmp(enum pk_hist_key k, const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	int c;

	switch (k) {
	case PK_HIST_KEY_COMM:
		return cmp_str(a->comm, b->comm);
	case PK_HIST_KEY_PID:
		return a->thread == b->thread ? 0 : a->tid != b->tid ? (a->tid > b->tid) - (a->tid < b->tid)
								    : cmp_u64((uintptr_t)a->thread,
									      (uintptr_t)b->thread);
	case PK_HIST_KEY_DSO:
		c = cmp_str(a->dso ? pk_dso_short_name(a->dso) : NULL,
			    b->dso ? pk_dso_short_name(b->dso) : NULL);
		return c ? c : cmp_u64((uintptr_t)a->dso, (uintptr_t)b->dso);
	case PK_HIST_KEY_SYM:
		c = cmp_str(a->sym ? a->sym->name : NULL, b->sym ? b->sym->name : NULL);
		if (!c)
			c = cmp_u64((uintptr_t)a->sym, (uintptr_t)b->sym);
		return c ? c : cmp_u64(a->addr, b->addr);
	case PK_HIST_KEY_CPU:
		return cmp_u64(a->cpu, b->cpu);
	case PK_HIST_KEY_TRACE:
		return cmp_str(a->trace, b->trace);
	case PK_HIST_KEY_PARENT:
		return cmp_str(a->parent, b->parent);
	case PK_HIST_KEY_TIME:
		return cmp_u64(a->time, b->time);
	default:
		return 0;
	}
}

static int by_key(const void *pa, const void *pb, void *arg)
{
	const struct hctx *c = arg;

	return key_cmp(c->l->keys[c->depth], &c->v[*(const uint32_t *)pa],
		       &c->v[*(const uint32_t *)pb]);
}

struct hgroup {
	uint32_t start, n;	/* a run of the sorted indices */
	uint32_t rep;		/* its first entry, which stands for it */
	uint64_t self;
};

static int by_overhead(const void *pa, const void *pb, void *arg)
{
	const struct hgroup *a = pa, *b = pb;
	const struct hctx *c = arg;

	if (a->self != b->self)
		return a->self > b->self ? -1 : 1;
	return key_cmp(c->l->keys[c->depth], &c->v[a->rep], &c->v[b->rep]);
}

/* Width of the overhead block: the percentage indented to the last level. */
static int block_width(const struct report_layout *l)
{
	return 8 + INDENT * (int)(l->nr_keys - 1);
}

static void print_row(FILE *out, const struct hctx *c, const struct pk_hist_entry *e,
		      uint32_t depth, uint64_t self, uint64_t total, struct report_out *o)
{
	const struct report_layout *l = c->l;
	int pad = block_width(l) - 8 - INDENT * (int)depth;
	size_t lead = 0;

	fprintf(out, "  %*s%7.2f%%%*s  %*s", INDENT * (int)depth, "",
		total ? 100.0 * (double)self / (double)total : 0.0, pad, "", INDENT * (int)depth, "");
	o->len = 0;
	report_columns_key(o, l, l->keys[depth], e);
	/* perf trims the value's leading blanks (the pid's padding) */
	while (lead < o->len && o->p[lead] == ' ')
		lead++;
	fwrite(o->p + lead, 1, o->len - lead, out);
	fputc('\n', out);
	/* the last level's entries are the histogram's, with their trees */
	if (depth + 1 == l->nr_keys) {
		o->len = 0;
		report_callchain_print(o, e, c->tree_total, &l->cg);
		fwrite(o->p, 1, o->len, out);
	}
}

/* ix[0, n): entries equal in the keys before depth. */
static void print_level(FILE *out, struct hctx *c, uint32_t *ix, uint32_t n, uint64_t total,
			struct report_out *o)
{
	struct hgroup *g = malloc((n ? n : 1) * sizeof(*g));
	uint32_t nr = 0, depth = c->depth;

	if (!g)
		return;
	qsort_r(ix, n, sizeof(*ix), by_key, c);
	for (uint32_t i = 0; i < n; i++) {
		if (!nr || by_key(&ix[g[nr - 1].start], &ix[i], c))
			g[nr++] = (struct hgroup){.start = i, .rep = ix[i]};
		g[nr - 1].n++;
		g[nr - 1].self += c->v[ix[i]].self;
	}
	qsort_r(g, nr, sizeof(*g), by_overhead, c);
	for (uint32_t j = 0; j < nr; j++) {
		print_row(out, c, &c->v[g[j].rep], depth, g[j].self, total, o);
		if (depth + 1 < c->l->nr_keys) {
			c->depth = depth + 1;
			print_level(out, c, ix + g[j].start, g[j].n, total, o);
			c->depth = depth;
		}
	}
	free(g);
}

static void header(FILE *out, const struct report_layout *l, const struct pk_hist_event *ev)
{
	static const char *const names[PK_HIST_KEY_MAX] = {
		[PK_HIST_KEY_COMM] = "Command",	     [PK_HIST_KEY_PID] = "Pid:Command",
		[PK_HIST_KEY_DSO] = "Shared Object", [PK_HIST_KEY_SYM] = "Symbol",
		[PK_HIST_KEY_CPU] = "CPU",	     [PK_HIST_KEY_TRACE] = "Trace output",
		[PK_HIST_KEY_PARENT] = "Parent symbol", [PK_HIST_KEY_TIME] = "Time",
	};
	int label = 0, dots = 0;

	(void)ev;
	fprintf(out, "# %*s  ", block_width(l), "Overhead");
	for (uint32_t d = 0; d < l->nr_keys; d++) {
		int w = INDENT * (int)d + l->width[l->keys[d]];

		fprintf(out, "%s%s", d ? " / " : "", names[l->keys[d]]);
		label += (d ? 3 : 0) + (int)strlen(names[l->keys[d]]);
		if (w > dots)
			dots = w;
	}
	if (label > dots)
		dots = label;
	fprintf(out, "\n# ");
	for (int i = 0; i < block_width(l); i++)
		fputc('.', out);
	fputs("  ", out);
	for (int i = 0; i < dots; i++)
		fputc('.', out);
	fputs("\n#\n", out);
}

void report_hierarchy_print(FILE *out, const struct report_layout *l, const struct pk_hist_event *ev,
			    bool quiet, uint64_t total)
{
	struct hctx c = {.l = l, .v = ev->entries, .tree_total = ev->total_period};
	uint32_t *ix = malloc((ev->nr_entries ? ev->nr_entries : 1) * sizeof(*ix));
	struct report_out o;

	if (!quiet)
		header(out, l, ev);
	if (!ix)
		return;
	for (uint32_t i = 0; i < ev->nr_entries; i++)
		ix[i] = i;
	report_out_init(&o);
	print_level(out, &c, ix, (uint32_t)ev->nr_entries, total, &o);
	report_out_free(&o);
	free(ix);
}
