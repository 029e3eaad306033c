/* SPDX-License-Identifier: MIT */
/* perfkit report's default mode: the histogram on stdout, like perf report
 * --stdio, or as JSON. */
#ifndef PK_CLI_REPORT_STDIO_H
#define PK_CLI_REPORT_STDIO_H

#include <stdbool.h>
#include <stdio.h>
#include <perfkit/report.h>

enum report_graph_mode {
	REPORT_GRAPH_DEFAULT,	/* graph when the file has callchains */
	REPORT_GRAPH_NONE,
	REPORT_GRAPH_GRAPH,
	REPORT_GRAPH_FLAT,
	REPORT_GRAPH_FOLDED,
};

struct report_stdio_opts {
	int children;		/* -1 default (on with callchains), 0, 1 */
	const char *sort;	/* --sort list, NULL for comm,dso,sym */
	const char *call_graph;	/* -g argument, NULL for the default */
	double percent_limit;
	const char *comms, *pids, *tids, *dsos, *symbols;
	int group;		/* -1 default (the file's groups), 0 --no-group,
				 * 1 --group */
	bool json;
	int branch_stack;	/* -1 default (on with branch stacks), 0, 1 */
	bool force;
	int verbose;
};

/* Run the report on input; prints errors; returns the exit status. */
int report_stdio(const char *input, const struct report_stdio_opts *o, FILE *out);

/* Branch mode (report_branch.c): whether o and the file ask for it, and
 * the report itself; returns 0 or a negative errno (already printed). */
struct pk_session;
bool report_branch_wanted(struct pk_session *s, const struct report_stdio_opts *o);
int report_branch(struct pk_session *s, const struct report_stdio_opts *o, FILE *out);

/* How the call trees under the entries are printed. */
struct callchain_print {
	enum report_graph_mode mode;
	double min_percent;		/* smaller branches are hidden */
	bool children;			/* single root compared with children */
	bool sort_starts_with_sym;	/* perf then skips the root's first frame */
};

/* Parse a -g argument into p and *order (PK_CALLCHAIN_*); -1 if bad. */
int report_callchain_parse(const char *arg, struct callchain_print *p, int *order);
/* The tree of e, percentages of total, as perf report --stdio shows it. */
void report_callchain_print(FILE *out, const struct pk_hist_entry *e, uint64_t total,
			    const struct callchain_print *p);

#endif
