// SPDX-License-Identifier: MIT
/*
 * perfkit report --stdio: the histogram laid out as perf 6.1 prints it,
 * column widths from the entries, one section per event.  The numbers all
 * come from pk_hist_build(); this file only formats.
 */
#include <errno.h>
#include <inttypes.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <perfkit/session.h>
#include "cli.h"
#include "report_stdio.h"

/* perf sorts a file of tracepoints alone by their output */
static bool all_tracepoints(struct pk_session *s)
{
	struct pk_reader *r = pk_session_reader(s);
	uint32_t n = pk_reader_nr_attrs(r);

	for (uint32_t i = 0; i < n; i++)
		if (pk_reader_attr(r, i)->attr.type != PERF_TYPE_TRACEPOINT)
			return false;
	return n > 0;
}

static int parse_sort(struct pk_session *s, const char *list, bool raw_trace,
		      struct report_layout *l)
{
	static const enum pk_hist_key defaults[] = {PK_HIST_KEY_COMM, PK_HIST_KEY_DSO,
						    PK_HIST_KEY_SYM};
	const char *p = list;

	if (!list && all_tracepoints(s) && raw_trace) {
		/* perf's default is then a column per field (trace_fields) */
		cli_error("report: --raw-trace on a file of tracepoints alone needs --sort "
			  "(perf's trace_fields columns are not supported by perfkit)");
		return -EINVAL;
	}
	if (!list && all_tracepoints(s)) {
		l->keys[0] = PK_HIST_KEY_TRACE;
		l->nr_keys = 1;
		return 0;
	}
	if (!list) {
		memcpy(l->keys, defaults, sizeof(defaults));
		l->nr_keys = 3;
		return 0;
	}
	while (*p) {
		size_t n = strcspn(p, ",");
		int k = pk_hist_key_parse(p, n);

		if (k < 0 && n == 6 && !strncmp(p, "symbol", 6))
			k = PK_HIST_KEY_SYM;
		if (k < 0) {
			cli_error("report: unknown --sort key '%.*s'", (int)n, p);
			return -EINVAL;
		}
		if (l->nr_keys >= PK_HIST_KEY_MAX) {
			cli_error("report: too many --sort keys");
			return -EINVAL;
		}
		l->keys[l->nr_keys++] = (enum pk_hist_key)k;
		p += n + (p[n] == ',');
	}
	return 0;
}

/* perf's -p adds the parent key after the others (unless named) */
static int add_parent_key(const struct report_stdio_opts *o, struct report_layout *l)
{
	for (uint32_t i = 0; i < l->nr_keys; i++) {
		l->parent_key = l->parent_key || l->keys[i] == PK_HIST_KEY_PARENT;
		l->time_key = l->time_key || l->keys[i] == PK_HIST_KEY_TIME;
	}
	if (!o->parent || l->parent_key)
		return 0;
	if (l->nr_keys >= PK_HIST_KEY_MAX) {
		cli_error("report: too many --sort keys");
		return -EINVAL;
	}
	l->keys[l->nr_keys++] = PK_HIST_KEY_PARENT;
	l->parent_key = true;
	return 0;
}

/* -F named the parent key, which neither -p nor --sort did: perf then
 * never looks for parents. */
static bool fields_parent_only(const struct report_layout *l)
{
	for (uint32_t i = 0; i < l->nr_keys && !l->parent_key; i++)
		if (l->keys[i] == PK_HIST_KEY_PARENT)
			return true;
	return false;
}

static bool has_group(const struct pk_hist *h)
{
	for (uint32_t i = 0; i < pk_hist_nr_events(h); i++)
		if (pk_hist_event(h, i)->nr_members > 1)
			return true;
	return false;
}

/* What --hierarchy does not do yet: one line. */
static int hierarchy_refused(const struct report_stdio_opts *o, bool pipe)
{
	const char *what = NULL;

	if (!o->hierarchy)
		return 0;
	if (pipe)
		what = "pipe input (perf 6.1 finds no samples there)";
	else if (o->fields || o->show_nr_samples || o->show_total_period || o->show_cpu_util)
		what = "-F, -n, --show-total-period or --show-cpu-utilization";
	else if (o->field_sep || o->percent_limit_set || o->json || o->group == 1)
		what = "-t, --percent-limit, --json or --group";
	else if (o->comms || o->dsos || o->symbols || o->pids || o->tids || o->exclude_other)
		what = "-c, -d, -S, --pid, --tid or -x (perf filters each level)";
	if (!what)
		return 0;
	cli_error("report: --hierarchy with %s is not supported by perfkit", what);
	return -EINVAL;
}

/* A regex that does not compile: one line, as for other bad input. */
static int check_regex(const char *opt, const char *re)
{
	regex_t r;
	int err;

	if (!re)
		return 0;
	err = regcomp(&r, re, REG_EXTENDED | REG_NOSUB);
	if (err) {
		char msg[128];

		regerror(err, &r, msg, sizeof(msg));
		cli_error("report: bad %s regex '%s': %s", opt, re, msg);
		return -EINVAL;
	}
	regfree(&r);
	return 0;
}

static bool single(const char *list)
{
	return list && *list && !strchr(list, ',');
}

static const char *attr_name(const struct pk_attr *a)
{
	return a && a->name ? a->name : "unknown";
}

/* perf's group description: "anon group { a, b }", "name { a, b }", and
 * "a, b" for the group --group makes of a file without groups. */
static void print_event_name(FILE *out, const struct pk_hist_event *ev)
{
	if (ev->nr_members < 2) {
		fputs(attr_name(ev->attr), out);
		return;
	}
	if (!ev->group_forced)
		fprintf(out, "%s { ", ev->group_name ? ev->group_name : "anon group");
	for (uint32_t m = 0; m < ev->nr_members; m++)
		fprintf(out, "%s%s", m ? ", " : "", attr_name(ev->members[m].attr));
	if (!ev->group_forced)
		fputs(" }", out);
}

/* perf says "events" for a group leader even when it shows the events
 * one by one (--no-group), and either option makes the first event of a
 * file without groups the leader of all. */
static bool leads_group(const struct report_layout *l, const struct pk_hist_event *ev)
{
	if (ev->nr_members > 1)
		return true;
	if (l->group_set && l->hdr && !l->hdr->nr_groups)
		return ev->attr->index == 0 && l->nr_attrs > 1;
	for (uint32_t i = 0; l->hdr && i < l->hdr->nr_groups; i++)
		if (l->hdr->groups[i].leader_idx == ev->attr->index &&
		    l->hdr->groups[i].nr_members > 1)
			return true;
	return false;
}

/* "2K": perf's unit for sample counts; a group's counts are its members'
 * sums */
static void print_samples_line(FILE *out, const struct report_layout *l, const struct pk_hist_event *ev)
{
	uint64_t n = 0, period = 0;
	char unit = ' ';

	for (uint32_t m = 0; m < ev->nr_members; m++) {
		uint64_t kept_n, kept_period;

		if (l->relative) {
			/* perf's totals of what the filters kept */
			pk_hist_event_kept(ev, m, &kept_n, &kept_period);
			n += kept_n;
			period += kept_period;
			continue;
		}
		n += ev->members[m].nr_samples;
		period += ev->members[m].total_period;
	}

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
	fprintf(out, "# Samples: %" PRIu64 "%c of event%s '", n, unit, leads_group(l, ev) ? "s" : "");
	print_event_name(out, ev);
	fputc('\'', out);
	if (l->time_str)
		fprintf(out, " (time slices: %s)", l->time_str);
	fprintf(out, "\n# Event count (approx.): %" PRIu64 "\n#\n", period);
}

static int print_event(FILE *out, struct report_layout *l, const struct pk_hist_event *ev,
		       const struct report_stdio_opts *o)
{
	uint64_t total = report_total(l, ev, 0);
	int err;

	report_columns_widths(l, ev, o);
	l->cg.limit_total = l->relative ? total : 0;
	l->nr_members = ev->nr_members ? ev->nr_members : 1;
	if (o->hierarchy) {
		if (!o->quiet)
			print_samples_line(out, l, ev);
		report_hierarchy_print(out, l, ev, o->quiet, total);
		fputs("\n\n", out);
		return 0;
	}
	if (!o->quiet) {
		print_samples_line(out, l, ev);
		report_columns_header(out, l);
	}
	err = report_entries_print(out, l, ev, o->percent_limit, total);
	fputs("\n\n", out);
	return err;
}

/* The filter list of a key that has one (comm, dso, sym), else NULL. */
static const char *key_filter(const struct report_stdio_opts *o, const struct report_layout *l,
			      enum pk_hist_key k)
{
	switch (k) {
	case PK_HIST_KEY_COMM:
		return o->comms;
	case PK_HIST_KEY_DSO:
		return o->dsos;
	case PK_HIST_KEY_SYM:
		return l->sym_names;
	default:
		return NULL;
	}
}

/* The keys shown, in column order: -F's columns, else the sort keys. */
static uint32_t shown_keys(const struct report_layout *l, enum pk_hist_key *keys)
{
	uint32_t n = 0;

	if (!l->fields_set) {
		memcpy(keys, l->keys, l->nr_keys * sizeof(*keys));
		return l->nr_keys;
	}
	for (uint32_t i = 0; i < l->nr_cols; i++)
		if (l->cols[i].kind == REPORT_COL_KEY)
			keys[n++] = l->cols[i].key;
	return n;
}

/*
 * perf hides the column of a key shown whose filter names a single value,
 * unless that would hide every key's, and its output order then skips
 * that key: the keys to skip.
 */
static uint32_t set_elided(const struct report_stdio_opts *o, struct report_layout *l)
{
	enum pk_hist_key keys[REPORT_MAX_COLUMNS];
	uint32_t n = shown_keys(l, keys), mask = 0, all = 0;

	memset(l->elide, 0, sizeof(l->elide));
	l->nr_named = 0;
	for (uint32_t i = 0; i < n; i++) {
		all |= 1u << keys[i];
		if (single(key_filter(o, l, keys[i]))) {
			l->elide[keys[i]] = true;
			l->named[l->nr_named++] = keys[i];
			mask |= 1u << keys[i];
		}
	}
	if (mask == all) {
		memset(l->elide, 0, sizeof(l->elide));
		mask = 0;
	}
	/* -F's columns lose theirs now; the default ones are laid out so */
	if (l->fields_set) {
		uint32_t kept = 0;

		for (uint32_t i = 0; i < l->nr_cols; i++)
			if (l->cols[i].kind != REPORT_COL_KEY || !l->elide[l->cols[i].key])
				l->cols[kept++] = l->cols[i];
		l->nr_cols = kept;
	}
	return mask;
}

/* perf names each single-value filter of a key shown, in column order,
 * whether or not it hid the column, even with -q. */
static void print_filters(FILE *out, const struct report_stdio_opts *o, struct report_layout *l)
{
	static const char *const names[PK_HIST_KEY_MAX] = {[PK_HIST_KEY_COMM] = "comm",
							   [PK_HIST_KEY_DSO] = "dso",
							   [PK_HIST_KEY_SYM] = "symbol"};
	for (uint32_t i = 0; i < l->nr_named; i++)
		fprintf(out, "# %s: %s\n", names[l->named[i]], key_filter(o, l, l->named[i]));
	if (!l->fields_set)
		report_columns_default(l, o);
}

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static double json_pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

/* A group's name as in the text report, as a JSON string. */
static void json_group(FILE *out, const struct pk_hist_event *ev)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		fputs("null", out);
		return;
	}
	print_event_name(f, ev);
	fclose(f);
	json_string(out, buf);
	free(buf);
}

/* Group events add their members' totals; the event's own numbers stay
 * the leader's, so readers that know no groups still add up. */
static void json_members(FILE *out, const struct pk_hist_event *ev)
{
	if (ev->nr_members < 2)
		return;
	fputs(", \"group\": ", out);
	json_group(out, ev);
	fputs(", \"members\": [", out);
	for (uint32_t m = 0; m < ev->nr_members; m++) {
		fputs(m ? ", {\"event\": " : "{\"event\": ", out);
		json_string(out, attr_name(ev->members[m].attr));
		fprintf(out, ", \"samples\": %" PRIu64 ", \"event_count\": %" PRIu64 "}",
			ev->members[m].nr_samples, ev->members[m].total_period);
	}
	fputc(']', out);
}

/* An entry's values for each member of its group, leader first. */
static void json_entry_members(FILE *out, const struct pk_hist_event *ev,
			       const struct pk_hist_entry *e, const struct report_layout *l)
{
	if (ev->nr_members < 2 || !e->members)
		return;
	fputs(", \"members\": [", out);
	for (uint32_t m = 0; m < ev->nr_members; m++) {
		const struct pk_hist_value *v = &e->members[m];
		uint64_t total = ev->members[m].total_period;

		fprintf(out, "%s{\"overhead\": %.4f, ", m ? ", " : "", json_pct(v->self, total));
		if (l->children)
			fprintf(out, "\"children\": %.4f, ", json_pct(v->children, total));
		fprintf(out, "\"period\": %" PRIu64 ", \"samples\": %" PRIu64 "}", v->self,
			v->nr_samples);
	}
	fputc(']', out);
}

static void print_json(FILE *out, const struct pk_hist *h, const struct report_layout *l)
{
	fprintf(out, "{\"lost_samples\": %" PRIu64 ", \"events\": [", pk_hist_lost_samples(h));
	for (uint32_t i = 0; i < pk_hist_nr_events(h); i++) {
		const struct pk_hist_event *ev = pk_hist_event(h, i);

		fputs(i ? ",\n{\"event\": " : "\n{\"event\": ", out);
		json_string(out, ev->attr->name ? ev->attr->name : "unknown");
		fprintf(out, ", \"samples\": %" PRIu64 ", \"event_count\": %" PRIu64,
			ev->nr_samples, ev->total_period);
		json_members(out, ev);
		fputs(", \"entries\": [", out);
		for (uint64_t j = 0; j < ev->nr_entries; j++) {
			const struct pk_hist_entry *e = &ev->entries[j];

			fputs(j ? ",\n  {" : "\n  {", out);
			fprintf(out, "\"overhead\": %.4f, ",
				ev->total_period ? 100.0 * (double)e->self / (double)ev->total_period
						 : 0.0);
			if (l->children)
				fprintf(out, "\"children\": %.4f, ",
					ev->total_period ? 100.0 * (double)e->children /
								   (double)ev->total_period
							 : 0.0);
			fprintf(out, "\"period\": %" PRIu64 ", \"samples\": %" PRIu64 ", \"comm\": ",
				e->self, e->nr_samples);
			json_string(out, e->comm);
			fprintf(out, ", \"pid\": %d, \"tid\": %d, \"dso\": ", (int)e->pid, (int)e->tid);
			json_string(out, pk_dso_name(e->dso));
			fprintf(out, ", \"level\": \"%c\", \"symbol\": ", e->level);
			if (e->sym)
				json_string(out, e->sym->name);
			else
				fputs("null", out);
			fprintf(out, ", \"addr\": %" PRIu64, e->addr);
			if (e->trace) {
				fputs(", \"trace\": ", out);
				json_string(out, e->trace);
			}
			if (l->time_key)
				fprintf(out, ", \"time\": %" PRIu64, e->time);
			if (l->parent_key) {
				fputs(", \"parent\": ", out);
				if (e->parent)
					json_string(out, e->parent);
				else
					fputs("null", out);
			}
			json_entry_members(out, ev, e, l);
			fputc('}', out);
		}
		fputs("]}", out);
	}
	fputs("\n]}\n", out);
}

static bool has_callchains(struct pk_session *s)
{
	struct pk_reader *r = pk_session_reader(s);

	for (uint32_t i = 0; i < pk_reader_nr_attrs(r); i++)
		if (pk_reader_attr(r, i)->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
			return true;
	return false;
}

static bool is_pipe(struct pk_session *s)
{
	return pk_reader_header(pk_session_reader(s))->pipe;
}

/* Whether -g's argument asks for call graphs; -1 when it is no -g
 * argument at all. */
/* 1 when arg asks for call graphs, 0 for none, -1 (said why) when it
 * cannot be done */
static int graph_wanted(const char *arg)
{
	struct callchain_print p = {.mode = REPORT_GRAPH_GRAPH};
	int order, err = report_callchain_parse(arg, &p, &order);

	if (err == -2)
		cli_error("report: -g '%s': fractal, address, branch and count are not supported by "
			  "perfkit",
			  arg);
	else if (err)
		cli_error("report: bad -g argument '%s'", arg);
	return err ? -1 : p.mode != REPORT_GRAPH_NONE;
}

/*
 * perf's defaults with callchains in the file: graph, 0.5%, the caller
 * first when accumulating children and the callee first without.  A pipe
 * gives its attrs only as it is read: perf then draws the samples' own
 * graphs, the caller first unless --no-children, and shows no children.
 */
static int setup_callchain(struct pk_session *s, const struct report_stdio_opts *o,
			   struct report_layout *l, int *order, int *walk_order)
{
	bool pipe = is_pipe(s);

	l->cg.mode = REPORT_GRAPH_NONE;
	*order = PK_CALLCHAIN_NONE;
	if (!pipe && !has_callchains(s))
		return 0;
	l->cg.mode = REPORT_GRAPH_GRAPH;
	l->cg.min_percent = 0.5;
	l->cg.children = l->accumulate;
	/* perf skips the frame only without -F */
	l->cg.sort_starts_with_sym = o->sort && !o->fields && !strncmp(o->sort, "sym", 3);
	/* --hierarchy accumulates nothing but keeps the children's order */
	*order = (pipe ? o->children != 0 : l->accumulate || (o->hierarchy && o->children != 0))
			 ? PK_CALLCHAIN_CALLER
			 : PK_CALLCHAIN_CALLEE;
	if (o->call_graph && report_callchain_parse(o->call_graph, &l->cg, order)) {
		cli_error("report: bad -g argument '%s'", o->call_graph);
		return -EINVAL;
	}
	/* perf's --percent-limit also sets the branches' limit, unless a -g
	 * that names one comes after it (the last one given wins) */
	if (o->percent_limit_set && (o->limit_after_graph || !l->cg.limit_set))
		l->cg.min_percent = o->percent_limit;
	if (o->inverted)
		*order = PK_CALLCHAIN_CALLER;
	/* perf walks the chains in this order for the parent even when it
	 * draws none */
	*walk_order = *order;
	if (l->cg.mode == REPORT_GRAPH_NONE)
		*order = PK_CALLCHAIN_NONE;
	return 0;
}

/*
 * The trees the view draws from: perf draws no branch below the limit of
 * all samples in its graph, flat and folded modes, so entries too small
 * for one need no tree (the library keeps what may merge).  --percentage
 * relative measures the limit otherwise, and JSON has no trees.
 */
static double tree_limit(const struct report_stdio_opts *o, const struct report_layout *l)
{
	bool drawn_by_limit = l->cg.mode == REPORT_GRAPH_GRAPH || l->cg.mode == REPORT_GRAPH_FLAT ||
			      l->cg.mode == REPORT_GRAPH_FOLDED;

	return drawn_by_limit && !o->json && !l->relative ? l->cg.min_percent : 0;
}

/* The sort keys, columns and callchain options of the histogram. */
static int setup_view(struct pk_session *s, const struct report_stdio_opts *o,
		      struct report_layout *l, struct pk_hist_opts *ho)
{
	bool fields_children = true, sort_comm = false, sort_dso = false;

	if (parse_sort(s, o->sort, o->raw_trace, l) || add_parent_key(o, l) ||
	    check_regex("-p/--parent", o->parent) ||
	    check_regex("--ignore-callees", o->ignore_callees))
		return -EINVAL;
	for (uint32_t i = 0; o->sort && i < l->nr_keys; i++)
		sort_comm = sort_comm || l->keys[i] == PK_HIST_KEY_COMM;
	/* perf's default sort has the DSO too; -F alone sorts by its fields */
	for (uint32_t i = 0; (o->sort || !o->fields) && i < l->nr_keys; i++)
		sort_dso = sort_dso || l->keys[i] == PK_HIST_KEY_DSO;
	if (o->fields && report_columns_parse(l, o->fields, o->sort != NULL, &fields_children))
		return -EINVAL;
	if (o->fields && o->parent) {
		/* perf's -p then changes which entries -F keeps and their order */
		cli_error("report: -p/--parent with -F is not supported by perfkit");
		return -EINVAL;
	}
	if (fields_parent_only(l)) {
		cli_error("report: -F parent without -p or --sort parent is not supported by "
			  "perfkit (perf shows [other] for every entry)");
		return -EINVAL;
	}
	l->sep = o->field_sep;
	l->relative = o->relative;
	/* perf accumulates only what has callchains, and never from a pipe;
	 * -F without overhead_children hides the column and its order */
	l->accumulate = !is_pipe(s) && o->children != 0 && has_callchains(s) && !o->hierarchy;
	l->children = l->accumulate && fields_children;
	ho->keys = l->keys;
	ho->nr_keys = l->nr_keys;
	ho->elided_keys = set_elided(o, l);
	ho->children = l->accumulate;
	ho->order = l->nr_order ? l->order : NULL;
	ho->nr_order = l->nr_order;
	/* perf's collapse comes with a comm key of --sort (or the default) */
	ho->no_collapse = l->fields_set && !sort_comm;
	/* perf's symbol key compares the DSOs unless --sort has the DSO */
	ho->dso_from_fields = l->fields_set && !sort_dso;
	/* --max-stack 0 is no frames; 0 in the library is the default */
	ho->max_stack = o->max_stack < 0 ? 0 : o->max_stack ? o->max_stack : -1;
	ho->hide_unresolved = o->hide_unresolved;
	ho->parent_regex = o->parent;
	ho->exclude_other = o->exclude_other;
	ho->ignore_callees = o->ignore_callees;
	ho->time_quantum = o->time_quantum;
	ho->raw_trace = o->raw_trace;
	l->ns = o->ns;
	if (setup_callchain(s, o, l, &ho->callchain, &ho->parent_order) ||
	    hierarchy_refused(o, is_pipe(s)))
		return -EINVAL;
	ho->callchain_min_percent = tree_limit(o, l);
	return 0;
}

/* The lines before the events: the file header with --header, the
 * filters, the lost samples. */
static void print_preamble(FILE *out, const struct pk_hist *h,
			   const struct report_stdio_opts *o, struct report_layout *l)
{
	print_filters(out, o, l);
	if (!o->quiet)
		fprintf(out, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", pk_hist_lost_samples(h));
}

/* The lines perf prints first, also before it gives up on an option it
 * checks against the file: the header (--header) or its hint, none with
 * -q. */
static void print_first_lines(struct pk_session *s, const struct report_stdio_opts *o, FILE *out)
{
	if (o->header)
		report_header_only(pk_session_reader(s), out, o->show_info);
	else if (!o->quiet)
		fputs("# To display the perf.data header info, please use --header/--header-only "
		      "options.\n#\n",
		      out);
	fflush(out);
}

/* perf's exit status for a --time it cannot read (its -EINVAL) */
#define EXIT_BAD_TIME (256 - EINVAL)

/*
 * --cpu and --time: the samples kept, in *keep (NULL when neither is
 * given).  Returns false to stop, *status then perf's: 0 after its words
 * for a CPU list, 234 for a time string.
 */
static bool sample_filter(struct pk_session *s, const struct report_stdio_opts *o, FILE *out,
			  struct pk_sample_filter **keep, int *status)
{
	struct pk_reader *r = pk_session_reader(s);

	*keep = NULL;
	*status = 0;
	if (!o->cpus && !o->time)
		return true;
	*keep = pk_sample_filter_new();
	if (!*keep) {
		cli_error("report: out of memory");
		*status = 1;
		return false;
	}
	if (o->cpus && cli_filter_cpus(*keep, o->cpus, r, o->quiet)) {
		print_first_lines(s, o, out);
		fputs("Error:\nfailed to set cpu bitmap\n", stderr);
		return false;
	}
	if (o->time && cli_filter_time(*keep, o->time, r, false, o->quiet)) {
		print_first_lines(s, o, out);
		*status = EXIT_BAD_TIME;
		return false;
	}
	return true;
}

/*
 * -g checked before anything is read: a word that is no -g argument is an
 * error (*err), and call graphs of a file without callchains are refused
 * as perf refuses them, with its first lines, its words and status 0.
 */
static bool graphs_refused(struct pk_session *s, const struct report_stdio_opts *o, FILE *out,
			   int *err)
{
	int want = o->call_graph ? graph_wanted(o->call_graph) : 0;

	if (want < 0) {
		*err = -EINVAL;
		return true;
	}
	if (!want || is_pipe(s) || has_callchains(s))
		return false;
	print_first_lines(s, o, out);
	fputs("Error:\nSelected -g or --branch-history.\nBut no callchain or branch data.\n"
	      "Did you call 'perf record' without -g or -b?\n",
	      stderr);
	return true;
}

/* w made wide enough for v */
static void widen(int *w, int64_t v)
{
	int n = snprintf(NULL, 0, "%lld", (long long)v);

	*w = n > *w ? n : *w;
}

/* -T: each thread's counts at its exit (perf record -s), perf's table:
 * columns as wide as their widest value or title. */
static int print_thread_counts(struct pk_session *s, FILE *out)
{
	struct pk_thread_counts c;
	int pidw = 3, tidw = 3, *w;
	int err = pk_session_thread_counts(s, &c);

	w = err ? NULL : calloc(c.nr_counters ? c.nr_counters : 1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	for (size_t k = 0; k < c.nr_counters; k++)
		w[k] = (int)strlen(c.counter[k]->name);
	for (size_t t = 0; t < c.nr_threads; t++) {
		widen(&pidw, c.pid[t]);
		widen(&tidw, c.tid[t]);
		for (size_t k = 0; k < c.nr_counters; k++) {
			int n = snprintf(NULL, 0, "%" PRIu64, c.value[t * c.nr_counters + k]);

			w[k] = n > w[k] ? n : w[k];
		}
	}
	fprintf(out, "# %*s  %*s", pidw, "PID", tidw, "TID");
	for (size_t k = 0; k < c.nr_counters; k++)
		fprintf(out, "  %*s", w[k], c.counter[k]->name);
	fputc('\n', out);
	for (size_t t = 0; t < c.nr_threads; t++) {
		fprintf(out, "  %*d  %*d", pidw, c.pid[t], tidw, c.tid[t]);
		for (size_t k = 0; k < c.nr_counters; k++)
			fprintf(out, "  %*" PRIu64, w[k], c.value[t * c.nr_counters + k]);
		fputc('\n', out);
	}
	free(w);
	return 0;
}

int report_stdio(const char *input, const struct report_stdio_opts *o, FILE *out)
{
	struct pk_session_opts so = {.sz = sizeof(so), .force = o->force,
				     .no_demangle = o->no_demangle};
	struct pk_hist_opts ho = {.sz = sizeof(ho)};
	struct report_layout l = {0};
	struct pk_session *s = NULL;
	struct pk_sample_filter *keep = NULL;
	struct pk_hist *h = NULL;
	char *sym_names = NULL;
	int err, status = 0;

	cli_setup_library_output(o->verbose);
	cli_symbol_session_opts(&o->symsrc, &so);
	if (o->symbols) {
		size_t len = strlen(o->symbols) + 1;

		sym_names = malloc(len);
		if (!sym_names) {
			cli_error("report: out of memory");
			return 1;
		}
		pk_hist_symbol_names(o->symbols, sym_names, len);
		l.sym_names = sym_names;
	}
	err = pk_session_open(&s, input, &so);
	if (err) {
		fprintf(stderr, "perfkit: %s\n", pk_session_error(s));
		pk_session_close(s);
		free(sym_names);
		return 1;
	}
	if (graphs_refused(s, o, out, &err))
		goto out;
	switch (report_branch_wanted(s, o)) {
	case 1:
		err = report_branch(s, o, out);
		goto out;
	case -1:
		print_first_lines(s, o, out);
		goto out;
	default:
		break;
	}
	if (!sample_filter(s, o, out, &keep, &status))
		goto out;
	err = setup_view(s, o, &l, &ho);
	if (err)
		goto out;
	ho.keep = keep;
	l.time_str = o->time;
	ho.comms = o->comms;
	ho.pids = o->pids;
	ho.tids = o->tids;
	ho.dsos = o->dsos;
	ho.symbols = o->symbols;
	/* perf shows the file's groups unless --no-group; --group makes one
	 * of a file without groups */
	ho.group = o->group < 0 ? PK_HIST_GROUP_FILE
		   : o->group  ? PK_HIST_GROUP_ALL
			       : PK_HIST_GROUP_NONE;
	l.hdr = pk_reader_header(pk_session_reader(s));
	l.nr_attrs = pk_reader_nr_attrs(pk_session_reader(s));
	l.group_set = o->group >= 0;
	err = pk_hist_build(&h, s, &ho);
	if (err) {
		if (err == -EINVAL && !*pk_session_error(s))
			cli_error("report: bad filter list");
		else
			fprintf(stderr, "perfkit: %s\n", pk_session_error(s));
		goto out;
	}
	if (o->json) {
		print_json(out, h, &l);
		goto out;
	}
	if (o->hierarchy && has_group(h)) {
		cli_error("report: --hierarchy with event groups is not supported by perfkit "
			  "(add --no-group)");
		err = -EINVAL;
		goto out;
	}
	print_first_lines(s, o, out);
	if (!pk_hist_nr_events(h)) {
		/* perf's words (and status) when -U or the file left none */
		fflush(out);
		fprintf(stderr, "Error:\nThe %s data has no samples!\n", input);
		goto out;
	}
	print_preamble(out, h, o, &l);
	for (uint32_t i = 0; i < pk_hist_nr_events(h) && !err; i++)
		err = print_event(out, &l, pk_hist_event(h, i), o);
	if (err) {
		fflush(out);
		cli_error("report: out of memory");
		goto out;
	}
	if (!o->quiet)
		fputs("#\n#\n", out);
	if (o->threads)
		err = print_thread_counts(s, out);
out:
	/* after the report, where it is read last */
	if (h && !err && !status && !o->quiet)
		cli_session_symbol_hint(s);
	pk_hist_free(h);
	pk_sample_filter_free(keep);
	pk_session_close(s);
	free(sym_names);
	return status ? status : err ? 1 : 0;
}
