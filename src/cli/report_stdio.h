/* SPDX-License-Identifier: MIT */
/* perfkit report's default mode: the histogram on stdout, like perf report
 * --stdio, or as JSON. */
#ifndef PK_CLI_REPORT_STDIO_H
#define PK_CLI_REPORT_STDIO_H

#include "symbol_opts.h"
#include <stdbool.h>
#include <stdio.h>
#include <perfkit/report.h>
#include "report_out.h"

enum report_graph_mode {
	REPORT_GRAPH_DEFAULT,	/* graph when the file has callchains */
	REPORT_GRAPH_NONE,
	REPORT_GRAPH_GRAPH,
	REPORT_GRAPH_FLAT,
	REPORT_GRAPH_FOLDED,
	REPORT_GRAPH_FRACTAL,	/* graph, each branch a share of its parent */
};

struct report_stdio_opts {
	int children;		/* -1 default (on with callchains), 0, 1 */
	const char *sort;	/* --sort list, NULL for comm,dso,sym */
	const char *call_graph;	/* -g argument, NULL for the default */
	double percent_limit;
	bool percent_limit_set; /* --percent-limit given */
	bool limit_after_graph; /* ... after the last -g */
	const char *comms, *pids, *tids, *dsos, *symbols;
	const char *cpus, *time; /* --cpu, --time: other samples dropped */
	int group;		/* -1 default (the file's groups), 0 --no-group,
				 * 1 --group */
	bool json;
	int branch_stack;	/* -1 default (on with branch stacks), 0, 1 */
	bool force;
	int verbose;
	/* the view (report_columns.c) */
	bool show_nr_samples;	/* -n: a Samples column */
	bool show_total_period;	/* a Period column */
	bool show_cpu_util;	/* --show-cpu-utilization: sys and usr columns */
	const char *fields;	/* -F list, NULL for the default columns */
	const char *field_sep;	/* -t: columns separated by it, unpadded */
	bool quiet;		/* -q: no header lines */
	bool header;		/* --header: the file header first */
	bool show_info;		/* -I: with --header, every section whole */
	bool relative;		/* --percentage relative */
	int max_stack;		/* --max-stack, -1 for perf's default */
	bool inverted;		/* -G: caller order */
	bool hide_unresolved;	/* -U */
	bool no_demangle;
	bool threads;		/* -T */
	const char *parent;	/* -p regex: the parent key added, NULL none */
	bool exclude_other;	/* -x: entries without a parent hidden */
	const char *ignore_callees; /* regex, NULL for none */
	uint64_t time_quantum;	/* the time key's unit (ns), 0 for perf's */
	bool ns;		/* --ns: times in ns */
	bool raw_trace;		/* --raw-trace: the trace key's fields raw */
	bool hierarchy;		/* --hierarchy: a level per sort key */
	struct cli_symbol_opts symsrc; /* --symfs, --kallsyms, ... */
};

/* Run the report on input; prints errors; returns the exit status. */
int report_stdio(const char *input, const struct report_stdio_opts *o, FILE *out);

/* Branch mode (report_branch.c): whether o and the file ask for it, and
 * the report itself; returns 0 or a negative errno (already printed). */
struct pk_session;
/* 1: the branch view; 0: the normal one; -1: -b asked for on samples
 * without branch stacks (perf's error printed on stderr) */
int report_branch_wanted(struct pk_session *s, const struct report_stdio_opts *o);
int report_branch(struct pk_session *s, const struct report_stdio_opts *o, FILE *out);

/* How the call trees under the entries are printed. */
struct callchain_print {
	enum report_graph_mode mode;
	double min_percent;		/* smaller branches are hidden */
	bool limit_set;			/* -g named it */
	bool children;			/* single root compared with children */
	bool sort_starts_with_sym;	/* perf then skips the root's first frame */
	uint64_t limit_total;		/* min_percent is of this, when not 0 */
	bool period;			/* -g ...,period: periods, not percentages */
	uint32_t print_limit;		/* -g's second number: at most this many
					 * branches a level (chains in flat and
					 * folded); 0 for all */
};

/* The columns of the text report, in order (report_columns.c). */
enum report_column_kind {
	REPORT_COL_CHILDREN,	/* perf's overhead_children */
	REPORT_COL_SELF,	/* overhead */
	REPORT_COL_SAMPLES,	/* sample */
	REPORT_COL_PERIOD,	/* period */
	REPORT_COL_KEY,		/* a sort key */
	REPORT_COL_SYS,		/* overhead_sys (--show-cpu-utilization) */
	REPORT_COL_USR,		/* overhead_us */
};

struct report_column {
	enum report_column_kind kind;
	enum pk_hist_key key;
};

#define REPORT_MAX_COLUMNS (PK_HIST_KEY_MAX + 6)

struct pk_header;

/* How the text report is laid out. */
struct report_layout {
	enum pk_hist_key keys[PK_HIST_KEY_MAX];	/* the histogram's sort keys */
	uint32_t nr_keys;
	bool parent_key;		/* the parent key is among them */
	bool ns;			/* times in ns (--ns) */
	bool time_key;			/* the time key is among them */
	bool accumulate;		/* entries of the callchains too */
	bool children;			/* their column, and the order by it */
	bool elide[PK_HIST_KEY_MAX];	/* one-value filters hide their column */
	const char *sym_names;		/* the names of --symbols (not its
					 * addresses: pk_hist_symbol_names()) */
	enum pk_hist_key named[PK_HIST_KEY_MAX]; /* and are named, in this order */
	const char *time_str;			 /* --time, named after the event */
	uint32_t nr_named;
	int width[PK_HIST_KEY_MAX];
	struct report_column cols[REPORT_MAX_COLUMNS];
	uint32_t nr_cols;
	bool fields_set;		/* -F gave the columns */
	struct pk_hist_by order[2 * PK_HIST_KEY_MAX + 4]; /* and with them the order */
	uint32_t nr_order;
	const char *sep;		/* -t */
	bool relative;			/* --percentage relative */
	struct callchain_print cg;
	uint32_t nr_members;		/* of the event printed: its columns */
	const struct pk_header *hdr;
	uint32_t nr_attrs;
	bool group_set;			/* --group or --no-group given */
};

/* -F: the columns and, unless --sort gave them, the sort keys; -1 if bad
 * (printed).  Whether children are accumulated then: *children is set to
 * whether -F shows them. */
int report_columns_parse(struct report_layout *l, const char *fields, bool sort_given,
			 bool *children);
/* Without -F: perf's columns for the options. */
void report_columns_default(struct report_layout *l, const struct report_stdio_opts *o);
/* What member m's percentages are of. */
uint64_t report_total(const struct report_layout *l, const struct pk_hist_event *ev, uint32_t m);
void report_columns_widths(struct report_layout *l, const struct pk_hist_event *ev,
			   const struct report_stdio_opts *o);
void report_columns_header(FILE *out, const struct report_layout *l);
void report_columns_entry(struct report_out *o, const struct report_layout *l,
			  const struct pk_hist_entry *e, const struct pk_hist_event *ev);
/* Key k of e as its column prints it (padded but for sym and trace). */
void report_columns_key(struct report_out *o, const struct report_layout *l, enum pk_hist_key k,
			const struct pk_hist_entry *e);
/* The entries of ev as perf's --hierarchy prints them without call
 * graphs: a level per sort key (report_hierarchy.c). */
void report_hierarchy_print(FILE *out, const struct report_layout *l, const struct pk_hist_event *ev,
			    bool quiet, uint64_t total);

/* The entries of ev with their call trees (report_entries.c): those of
 * at least percent_limit percent of total.  0 or -ENOMEM. */
int report_entries_print(FILE *out, const struct report_layout *l, const struct pk_hist_event *ev,
			 double percent_limit, uint64_t total);

/* Parse a -g argument into p and *order (PK_CALLCHAIN_*); -1 if bad. */
int report_callchain_parse(const char *arg, struct callchain_print *p, int *order);
/* The tree of e, percentages of total, as perf report --stdio shows it. */
void report_callchain_print(struct report_out *o, const struct pk_hist_entry *e, uint64_t total,
			    const struct callchain_print *p);

#endif
