// SPDX-License-Identifier: MIT
/*
 * perfkit report in branch mode: the branch histogram laid out as perf
 * 6.1's report --stdio prints it when the samples carry branch stacks.
 * The entries and their order come from pk_branch_hist_build(); this file
 * only chooses the columns and formats.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <perfkit/session.h>
#include "cli.h"
#include "report_stdio.h"

#define UNRESOLVED_WIDTH 16 /* hex digits of an unresolved address */
#define MAX_KEYS	 16

struct blayout {
	enum pk_branch_key keys[MAX_KEYS];
	uint32_t nr_keys;
	bool elide[PK_BRANCH_KEY_MAX];
	int width[PK_BRANCH_KEY_MAX];
};

static const char *const headers[PK_BRANCH_KEY_MAX] = {
	[PK_BRANCH_KEY_COMM] = "Command",
	[PK_BRANCH_KEY_PID] = "    Pid:Command",
	[PK_BRANCH_KEY_DSO] = "Shared Object",
	[PK_BRANCH_KEY_SYM] = "Symbol",
	[PK_BRANCH_KEY_CPU] = "CPU",
	[PK_BRANCH_KEY_DSO_FROM] = "Source Shared Object",
	[PK_BRANCH_KEY_DSO_TO] = "Target Shared Object",
	[PK_BRANCH_KEY_SYM_FROM] = "Source Symbol",
	[PK_BRANCH_KEY_SYM_TO] = "Target Symbol",
	[PK_BRANCH_KEY_MISPREDICT] = "Branch Mispredicted",
	[PK_BRANCH_KEY_IN_TX] = "Branch in transaction",
	[PK_BRANCH_KEY_ABORT] = "Transaction abort",
	[PK_BRANCH_KEY_CYCLES] = "Basic Block Cycles",
	[PK_BRANCH_KEY_IPC] = "IPC   [IPC Coverage]",
};

static int add_key(struct blayout *l, enum pk_branch_key k)
{
	if (l->nr_keys >= MAX_KEYS) {
		cli_error("report: too many --sort keys");
		return -EINVAL;
	}
	l->keys[l->nr_keys++] = k;
	return 0;
}

/*
 * perf's branch default, or the --sort list; perf adds its IPC column
 * (ipc_lbr) to every list that names a symbol key.
 */
static int parse_branch_sort(const char *list, struct blayout *l)
{
	static const enum pk_branch_key defaults[] = {
		PK_BRANCH_KEY_COMM,   PK_BRANCH_KEY_DSO_FROM, PK_BRANCH_KEY_SYM_FROM,
		PK_BRANCH_KEY_SYM_TO, PK_BRANCH_KEY_CYCLES,
	};
	const char *p = list;

	if (!list) {
		memcpy(l->keys, defaults, sizeof(defaults));
		l->nr_keys = sizeof(defaults) / sizeof(defaults[0]);
		return 0;
	}
	while (*p) {
		size_t n = strcspn(p, ",");
		int k = pk_branch_key_parse(p, n);

		if (k < 0) {
			cli_error("report: unknown --sort key '%.*s'", (int)n, p);
			return -EINVAL;
		}
		if (add_key(l, (enum pk_branch_key)k))
			return -EINVAL;
		p += n + (p[n] == ',');
	}
	return strstr(list, "symbol") ? add_key(l, PK_BRANCH_KEY_IPC) : 0;
}

static void grow(int *w, size_t len)
{
	if ((int)len > *w)
		*w = (int)len;
}

static void side_widths(struct blayout *l, const struct pk_branch_side *s, enum pk_branch_key dso,
			enum pk_branch_key sym)
{
	if (s->sym) {
		grow(&l->width[sym], strlen(s->sym->name) + 4);
		grow(&l->width[dso], strlen(pk_dso_short_name(s->dso)));
	} else {
		grow(&l->width[sym], UNRESOLVED_WIDTH + 4 + 2);
		grow(&l->width[dso], UNRESOLVED_WIDTH);
	}
}

/* Column widths as perf computes them over the entries it shows. */
static void compute_widths(struct blayout *l, const struct pk_branch_hist_event *ev,
			   const struct report_stdio_opts *o)
{
	for (int k = 0; k < PK_BRANCH_KEY_MAX; k++)
		l->width[k] = (int)strlen(headers[k]);
	for (uint64_t i = 0; i < ev->nr_entries; i++) {
		const struct pk_branch_hist_entry *e = &ev->entries[i];

		grow(&l->width[PK_BRANCH_KEY_COMM], strlen(pk_thread_comm(e->thread)));
		grow(&l->width[PK_BRANCH_KEY_PID], strlen(pk_thread_comm(e->thread)) + 8);
		if (e->to.dso)
			grow(&l->width[PK_BRANCH_KEY_DSO], strlen(pk_dso_short_name(e->to.dso)));
		if (e->to.sym) {
			grow(&l->width[PK_BRANCH_KEY_SYM], strlen(e->to.sym->name) + 4);
		} else {
			grow(&l->width[PK_BRANCH_KEY_SYM], UNRESOLVED_WIDTH + 4 + 2);
			if (!o->dsos)
				grow(&l->width[PK_BRANCH_KEY_DSO], UNRESOLVED_WIDTH);
		}
		side_widths(l, &e->from, PK_BRANCH_KEY_DSO_FROM, PK_BRANCH_KEY_SYM_FROM);
		side_widths(l, &e->to, PK_BRANCH_KEY_DSO_TO, PK_BRANCH_KEY_SYM_TO);
	}
}

/* "[k] name", or "[k] 0x..." unresolved (perf's "%#.16llx": no 0x for 0) */
static int format_sym(char *buf, size_t len, char level, const struct pk_symbol *sym, uint64_t addr,
		      int width)
{
	if (sym)
		return snprintf(buf, len, "[%c] %.*s", level, width > 4 ? width - 4 : 0, sym->name);
	return snprintf(buf, len, "[%c] %#.*" PRIx64, level, UNRESOLVED_WIDTH, addr);
}

static const char *dso_name(const struct pk_dso *d)
{
	return d ? pk_dso_short_name(d) : "[unknown]";
}

/*
 * perf prints the mispredict column from a static that keeps its last
 * value when a branch says neither predicted nor mispredicted.
 */
static const char *mispredict_str(const struct pk_branch_hist_entry *e, const char **last)
{
	if (e->predicted)
		*last = "N";
	else if (e->mispred)
		*last = "Y";
	return *last;
}

static int format_key(char *buf, size_t len, const struct blayout *l, enum pk_branch_key k,
		      const struct pk_branch_hist_entry *e, const char **mispred)
{
	int w = l->width[k];

	switch (k) {
	case PK_BRANCH_KEY_COMM:
		return snprintf(buf, len, "%-*.*s", w, w, e->comm);
	case PK_BRANCH_KEY_PID:
		w = (w < 7 ? 7 : w) - 8;
		return snprintf(buf, len, "%7d:%-*.*s", (int)e->tid, w, w,
				pk_thread_comm(e->thread));
	case PK_BRANCH_KEY_CPU:
		return snprintf(buf, len, "%*.*d", w, w, (int)e->cpu);
	case PK_BRANCH_KEY_DSO:
		return snprintf(buf, len, "%-*.*s", w, w, dso_name(e->to.dso));
	case PK_BRANCH_KEY_SYM:
		/* perf's plain symbol column: the sample's level, the target
		 * address as recorded */
		return format_sym(buf, len, e->level, e->to.sym, e->to.addr, w);
	case PK_BRANCH_KEY_DSO_FROM:
		return snprintf(buf, len, "%-*.*s", w, w, dso_name(e->from.dso));
	case PK_BRANCH_KEY_DSO_TO:
		return snprintf(buf, len, "%-*.*s", w, w, dso_name(e->to.dso));
	case PK_BRANCH_KEY_SYM_FROM:
		return format_sym(buf, len, e->from.level, e->from.sym, e->from.al_addr, w);
	case PK_BRANCH_KEY_SYM_TO:
		return format_sym(buf, len, e->to.level, e->to.sym, e->to.al_addr, w);
	case PK_BRANCH_KEY_MISPREDICT:
		return snprintf(buf, len, "%-*.*s", w, w, mispredict_str(e, mispred));
	case PK_BRANCH_KEY_IN_TX:
		return snprintf(buf, len, "%-*s", w, e->in_tx ? "T" : ".");
	case PK_BRANCH_KEY_ABORT:
		return snprintf(buf, len, "%-*s", w, e->abort ? "A" : ".");
	case PK_BRANCH_KEY_CYCLES:
		if (!e->cycles)
			return snprintf(buf, len, "%-*s", w, "-");
		/* perf prints the 16 bits as a signed short */
		return snprintf(buf, len, "%-*d", w, (int)(int16_t)e->cycles);
	case PK_BRANCH_KEY_IPC:
		/* without annotation data (perfkit has none) perf's IPC is 0 */
		return snprintf(buf, len, "%-*s", w, e->to.sym ? "0.00  [  0.0%]" : "-");
	default:
		return snprintf(buf, len, "?");
	}
}

static uint32_t last_shown(const struct blayout *l)
{
	uint32_t last = 0;

	for (uint32_t i = 0; i < l->nr_keys; i++)
		if (!l->elide[l->keys[i]])
			last = i;
	return last;
}

static void print_header(FILE *out, const struct blayout *l)
{
	fputs("# Overhead", out);
	for (uint32_t i = 0; i < l->nr_keys; i++)
		if (!l->elide[l->keys[i]])
			fprintf(out, "  %-*.*s", l->width[l->keys[i]], l->width[l->keys[i]],
				headers[l->keys[i]]);
	fputs("\n# ........", out);
	for (uint32_t i = 0; i < l->nr_keys; i++) {
		if (l->elide[l->keys[i]])
			continue;
		fputs("  ", out);
		for (int j = 0; j < l->width[l->keys[i]]; j++)
			fputc('.', out);
	}
	fputs("\n#\n", out);
}

static void print_entry(FILE *out, const struct blayout *l, const struct pk_branch_hist_entry *e,
			uint64_t total, const char **mispred)
{
	uint32_t last = last_shown(l);
	char buf[1024];

	fprintf(out, "  %7.2f%%", total ? 100.0 * (double)e->count / (double)total : 0.0);
	for (uint32_t i = 0; i < l->nr_keys; i++) {
		enum pk_branch_key k = l->keys[i];
		int n;

		if (l->elide[k])
			continue;
		n = format_key(buf, sizeof(buf), l, k, e, mispred);
		/* perf pads every column but the last to its width */
		fprintf(out, "  %s", buf);
		if (i != last && n < l->width[k])
			fprintf(out, "%*s", l->width[k] - n, "");
	}
	fputc('\n', out);
}

/* "2K": perf's unit for sample counts */
static void print_samples_line(FILE *out, const struct pk_branch_hist_event *ev)
{
	uint64_t n = ev->nr_branches;
	char unit = ' ';

	if (n > 1000000000ULL) {
		n /= 1000000000ULL;
		unit = 'G';
	} else if (n > 1000000ULL) {
		n /= 1000000ULL;
		unit = 'M';
	} else if (n > 1000ULL) {
		n /= 1000ULL;
		unit = 'K';
	}
	fprintf(out, "# Samples: %" PRIu64 "%c of event '%s'\n", n, unit,
		ev->attr->name ? ev->attr->name : "unknown");
	fprintf(out, "# Event count (approx.): %" PRIu64 "\n#\n", ev->nr_branches);
}

static void print_event(FILE *out, struct blayout *l, const struct pk_branch_hist_event *ev,
			const struct report_stdio_opts *o, const char **mispred)
{
	compute_widths(l, ev, o);
	print_samples_line(out, ev);
	print_header(out, l);
	for (uint64_t i = 0; i < ev->nr_entries; i++) {
		const struct pk_branch_hist_entry *e = &ev->entries[i];

		if (o->percent_limit > 0 && ev->nr_branches &&
		    100.0 * (double)e->count / (double)ev->nr_branches < o->percent_limit)
			continue;
		print_entry(out, l, e, ev->nr_branches, mispred);
	}
	fputs("\n\n", out);
}

static bool single(const char *list)
{
	return list && *list && !strchr(list, ',');
}

/* perf names a one-item filter above the table, in sort-key order, and
 * hides its column, unless that would hide them all. */
static void print_filters(FILE *out, const struct report_stdio_opts *o, struct blayout *l)
{
	char sym[256];
	/* entries that read as numbers are addresses (pk_hist_symbol_names()) */
	bool one_sym = o->symbols && pk_hist_symbol_names(o->symbols, sym, sizeof(sym)) == 1 &&
		       strlen(sym) < sizeof(sym) - 1;
	bool all = true;

	for (uint32_t i = 0; i < l->nr_keys; i++) {
		enum pk_branch_key k = l->keys[i];

		if (k == PK_BRANCH_KEY_COMM && single(o->comms)) {
			fprintf(out, "# comm: %s\n", o->comms);
			l->elide[k] = true;
		} else if (k == PK_BRANCH_KEY_DSO && single(o->dsos)) {
			fprintf(out, "# dso: %s\n", o->dsos);
			l->elide[k] = true;
		} else if (k == PK_BRANCH_KEY_SYM && one_sym) {
			fprintf(out, "# symbol: %s\n", sym);
			l->elide[k] = true;
		}
		all = all && l->elide[k];
	}
	if (all)
		memset(l->elide, 0, sizeof(l->elide));
}

int report_branch_wanted(struct pk_session *s, const struct report_stdio_opts *o)
{
	bool has = pk_session_has_branch_stack(s);

	/* perf complains and stops there (with status 0) */
	if (o->branch_stack > 0 && !has) {
		fputs("Error:\nSelected -b but no branch data. Did you call perf record without "
		      "-b?\n",
		      stderr);
		return -1;
	}
	return o->branch_stack != 0 && has;
}

int report_branch(struct pk_session *s, const struct report_stdio_opts *o, FILE *out)
{
	struct pk_branch_hist_opts ho = {.sz = sizeof(ho)};
	struct pk_branch_hist *h = NULL;
	struct blayout l = {0};
	const char *mispred = "N/A"; /* perf's static: lives for the run */
	int err;

	if (parse_branch_sort(o->sort, &l))
		return -EINVAL;
	ho.keys = l.keys;
	ho.nr_keys = l.nr_keys;
	ho.comms = o->comms;
	ho.pids = o->pids;
	ho.tids = o->tids;
	ho.dsos = o->dsos;
	ho.symbols = o->symbols;
	err = pk_branch_hist_build(&h, s, &ho);
	if (err) {
		if (err == -EINVAL && !*pk_session_error(s))
			cli_error("report: bad filter list");
		else
			fprintf(stderr, "perfkit: %s\n", pk_session_error(s));
		return err;
	}
	fputs("# To display the perf.data header info, please use --header/--header-only "
	      "options.\n#\n",
	      out);
	print_filters(out, o, &l);
	fprintf(out, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", pk_branch_hist_lost_samples(h));
	for (uint32_t i = 0; i < pk_branch_hist_nr_events(h); i++)
		print_event(out, &l, pk_branch_hist_event(h, i), o, &mispred);
	fputs("#\n#\n", out);
	pk_branch_hist_free(h);
	return 0;
}
