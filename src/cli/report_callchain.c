// SPDX-License-Identifier: MIT
/*
 * The call tree under a perf report --stdio entry, drawn as perf 6.1 draws
 * it.  A printed node is a run of tree nodes without branches or chain
 * ends in between; branches are drawn with "|--P%--" (last one " --P%--")
 * and the pipes of the levels still open.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <perfkit/session.h>
#include "report_stdio.h"

#define MARGIN 12	/* spaces before every line of the tree */
#define COLUMN 11	/* width of one level */

struct graph {
	struct report_out *out;
	const struct callchain_print *p;
	uint64_t total;		/* what the percentages are of */
	uint64_t min_hit;	/* smaller branches are not shown */
	bool fractal;		/* of the parent, limit included */
	int margin;
	size_t lines;
};

static uint64_t cumul(const struct pk_callchain_node *n)
{
	return n->hit + n->children_hit;
}

/* A node's value as -g asks: "12.34%", or its period */
static void put_value(struct report_out *out, const struct callchain_print *p, uint64_t v,
		      uint64_t total)
{
	if (p->period) {
		report_out_u64(out, v, 0);
		return;
	}
	report_out_pct(out, v, total, 0);
	report_out_putc(out, '%');
}

/*
 * Whether n's run of frames goes on into its child: nothing ends at n and
 * it has one child.  Children left without samples (their samples moved
 * to where perf's lookups put them) do not count: perf never had them.
 */
static bool run_goes_on(const struct pk_callchain_node *n)
{
	return !n->hit && n->nr_children && cumul(n->children[0]) &&
	       (n->nr_children == 1 || !cumul(n->children[1]));
}

static void print_name(struct report_out *out, const struct pk_callchain_node *n)
{
	if (!n->sym) {
		report_out_hex(out, n->ip, 0, true);
		return;
	}
	report_out_puts(out, n->sym->name);
	if (n->sym->inlined)
		report_out_puts(out, " (inlined)");
}

/*
 * Which levels still have siblings below is a bit mask.  perf keeps it in
 * a 32-bit int and shifts by the level, which on x86 wraps at 32: beyond
 * 32 levels perf prints a level's bar where level - 32 has one.  We keep
 * the same mask so deep chains print exactly as perf prints them.
 */
static uint32_t level_bit(int i)
{
	return 1u << (i & 31);
}

static bool open_level(uint32_t mask, int i)
{
	return mask & level_bit(i);
}

static void left_margin(struct graph *g)
{
	report_out_fill(g->out, ' ', (size_t)(MARGIN + g->margin));
}

static void level_line(struct graph *g, int depth, uint32_t mask)
{
	left_margin(g);
	for (int i = 0; i < depth; i++) {
		report_out_putc(g->out, open_level(mask, i) ? '|' : ' ');
		report_out_fill(g->out, ' ', COLUMN - 1);
	}
	report_out_putc(g->out, '\n');
	g->lines++;
}

static void frame_line(struct graph *g, const struct pk_callchain_node *run,
		       const struct pk_callchain_node *n, int depth, uint32_t mask, uint64_t total)
{
	left_margin(g);
	for (int i = 0; i < depth; i++) {
		report_out_putc(g->out, open_level(mask, i) ? '|' : ' ');
		if (run == n && i == depth - 1) {
			report_out_write(g->out, "--", 2);
			put_value(g->out, g->p, cumul(run), total);
			report_out_write(g->out, "--", 2);
		} else {
			report_out_fill(g->out, ' ', COLUMN - 1);
		}
	}
	print_name(g->out, n);
	report_out_putc(g->out, '\n');
	g->lines++;
}

/* fractal: perf keeps the branches at the limit of their parent's
 * children_hit, rounded up */
static uint64_t min_hit_of(const struct graph *g, const struct pk_callchain_node *parent)
{
	double v = (double)parent->children_hit * (g->p->min_percent / 100.0);
	uint64_t m = (uint64_t)v;

	if (!g->fractal)
		return g->min_hit;
	return (double)m < v ? m + 1 : m;
}

static bool shown(const struct graph *g, const struct pk_callchain_node *parent, uint32_t i)
{
	return i < parent->nr_children && cumul(parent->children[i]) >= min_hit_of(g, parent) &&
	       cumul(parent->children[i]);
}

/* fractal: what a level's branches leave of its total, perf's "[...]" */
static void remainder_line(struct graph *g, uint64_t remaining, uint64_t total, int depth,
			   uint32_t mask)
{
	left_margin(g);
	for (int i = 0; i < depth; i++) {
		report_out_putc(g->out, open_level(mask, i) ? '|' : ' ');
		if (i == depth - 1) {
			report_out_write(g->out, "--", 2);
			put_value(g->out, g->p, remaining, total);
			report_out_write(g->out, "--", 2);
		} else {
			report_out_fill(g->out, ' ', COLUMN - 1);
		}
	}
	/* perf 6.1 sometimes adds " (inlined)": its "[...]" symbol is
	 * malloc()ed and its flag left as it finds it */
	report_out_puts(g->out, "[...]\n");
	g->lines++;
}

/* fractal: total less the first n branches */
static uint64_t remaining_after(const struct pk_callchain_node *parent, uint32_t n, uint64_t total)
{
	for (uint32_t i = 0; i < n; i++)
		total -= cumul(parent->children[i]);
	return total;
}

/* The branches under parent, of total (the percentages' base) */
static void print_branches(struct graph *g, const struct pk_callchain_node *parent, int depth,
			   uint32_t mask, uint64_t total)
{
	uint32_t new_mask = mask, i;

	/* perf's print limit stops the level without closing its pipe; in
	 * fractal mode neither does a remainder still to print */
	for (i = 0; shown(g, parent, i) && (!g->p->print_limit || i < g->p->print_limit); i++) {
		const struct pk_callchain_node *run = parent->children[i], *n = run;

		if (!shown(g, parent, i + 1) &&
		    (!g->fractal || !remaining_after(parent, i + 1, total)))
			new_mask &= ~level_bit(depth - 1);
		level_line(g, depth, mask);
		for (;; n = n->children[0]) {
			frame_line(g, run, n, depth, new_mask, total);
			if (!run_goes_on(n))
				break;
		}
		print_branches(g, n, depth + 1, new_mask | level_bit(depth),
			       g->fractal ? n->children_hit : total);
	}
	if (g->fractal && i) {
		uint64_t rest = remaining_after(parent, i, total);

		if (rest && rest != total)
			remainder_line(g, rest, total, depth, new_mask & ~level_bit(depth - 1));
	}
}

/* One root carrying all of the entry's period: its run is printed after
 * "---" without a percentage. */
static const struct pk_callchain_node *print_single_root(struct graph *g,
							 const struct pk_callchain_node *root)
{
	const struct pk_callchain_node *n = root->children[0];
	bool skip = g->p->sort_starts_with_sym, printed = false;
	uint32_t names = 0;

	/* perf's print limit counts the run's names too; its branches
	 * follow from the run's end all the same */
	for (;; n = n->children[0]) {
		if (g->p->print_limit && names == g->p->print_limit) {
			if (!run_goes_on(n))
				return n;
			continue;
		}
		if (skip) {
			skip = false;
		} else if (!printed) {
			left_margin(g);
			report_out_write(g->out, "|\n", 2);
			left_margin(g);
			report_out_write(g->out, "---", 3);
			g->margin += 3;
			printed = true;
			g->lines += 2;
		} else {
			left_margin(g);
		}
		if (n != root->children[0] || !g->p->sort_starts_with_sym) {
			print_name(g->out, n);
			report_out_putc(g->out, '\n');
			names++;
		}
		if (!run_goes_on(n))
			return n;
	}
}

static void print_graph(struct report_out *out, const struct pk_callchain_node *root, uint64_t entry_period,
			const struct graph *tmpl)
{
	struct graph g = *tmpl;
	const struct pk_callchain_node *from = root;

	g.out = out;
	if (shown(&g, root, 0) && !shown(&g, root, 1) && cumul(root->children[0]) == entry_period)
		from = print_single_root(&g, root);
	/* fractal: the first level is of the entry's period */
	print_branches(&g, from, 1, 1, g.fractal ? entry_period : g.total);
	if (g.lines)
		report_out_putc(out, '\n');
}

/* Flat and folded list every chain end, perf's order: by period, then
 * depth first with children in perf's tree order (higher DSO, symbol
 * start or address first). */
struct chain_list {
	const struct pk_callchain_node **v;
	size_t nr, alloc;
	bool folded;
};

static int cmp_tree_order(const void *pa, const void *pb)
{
	const struct pk_callchain_node *a = *(const struct pk_callchain_node *const *)pa;
	const struct pk_callchain_node *b = *(const struct pk_callchain_node *const *)pb;

	return a->tree_rank < b->tree_rank ? -1 : a->tree_rank > b->tree_rank;
}

static uint64_t chain_value(const struct chain_list *l, const struct pk_callchain_node *n)
{
	return l->folded ? n->hit : cumul(n);
}

static void collect(struct chain_list *l, const struct pk_callchain_node *n, uint64_t min_hit)
{
	if (n->nr_children) {
		const struct pk_callchain_node **byname = malloc(n->nr_children * sizeof(*byname));

		if (!byname)
			return;
		memcpy(byname, n->children, n->nr_children * sizeof(*byname));
		qsort(byname, n->nr_children, sizeof(*byname), cmp_tree_order);
		for (uint32_t i = 0; i < n->nr_children; i++)
			collect(l, byname[i], min_hit);
		free(byname);
	}
	if (!n->hit || n->hit < min_hit || !n->parent)
		return;
	if (l->nr == l->alloc) {
		size_t a = l->alloc ? l->alloc * 2 : 16;
		const struct pk_callchain_node **v = realloc(l->v, a * sizeof(*v));

		if (!v)
			return;
		l->v = v;
		l->alloc = a;
	}
	l->v[l->nr++] = n;
}

static void print_path(struct report_out *out, const struct pk_callchain_node *n, bool folded,
		       bool *first)
{
	if (!n->parent)
		return;
	print_path(out, n->parent, folded, first);
	if (folded) {
		if (!*first)
			report_out_putc(out, ';');
		print_name(out, n);
	} else {
		report_out_fill(out, ' ', 16);
		print_name(out, n);
		report_out_putc(out, '\n');
	}
	*first = false;
}

static void print_chains(struct report_out *out, const struct pk_callchain_node *root, const struct graph *g,
			 bool folded)
{
	struct chain_list l = {.folded = folded};

	collect(&l, root, g->min_hit);
	/* stable by value: insertion sort keeps the collection order */
	for (size_t i = 1; i < l.nr; i++) {
		const struct pk_callchain_node *x = l.v[i];
		size_t j = i;

		/* ordered by the chain's own period even where flat shows the
		 * period through it, as perf does */
		for (; j > 0 && l.v[j - 1]->hit < x->hit; j--)
			l.v[j] = l.v[j - 1];
		l.v[j] = x;
	}
	for (size_t i = 0; i < l.nr && (!g->p->print_limit || i < g->p->print_limit); i++) {
		bool first = true;

		if (!folded)
			report_out_fill(out, ' ', COLUMN);
		put_value(out, g->p, chain_value(&l, l.v[i]), g->total);
		report_out_putc(out, folded ? ' ' : '\n');
		print_path(out, l.v[i], folded, &first);
		report_out_putc(out, '\n');
	}
	free(l.v);
}

void report_callchain_print(struct report_out *out, const struct pk_hist_entry *e,
			    uint64_t total, const struct callchain_print *p)
{
	struct graph g = {.p = p, .total = total, .fractal = p->mode == REPORT_GRAPH_FRACTAL};

	if (!e->callchain || p->mode == REPORT_GRAPH_NONE)
		return;
	/* perf hides branches below the limit of the total percentages are
	 * of (--percentage), yet prints them of all samples */
	g.min_hit = (uint64_t)((double)(p->limit_total ? p->limit_total : total) *
			       (p->min_percent / 100.0));
	switch (p->mode) {
	case REPORT_GRAPH_FLAT:
		print_chains(out, e->callchain, &g, false);
		break;
	case REPORT_GRAPH_FOLDED:
		print_chains(out, e->callchain, &g, true);
		break;
	default:
		print_graph(out, e->callchain, p->children ? e->children : e->self, &g);
		break;
	}
}

/* Whether tok names one of words (perf takes any prefix): its index. */
static int word_of(const char *tok, size_t n, const char *const *words, int nr)
{
	for (int i = 0; i < nr; i++)
		if (n <= strlen(words[i]) && !strncmp(tok, words[i], n))
			return i;
	return -1;
}

/*
 * "graph,0.5,caller": mode, limit and order in any order, each word as
 * perf reads it: any prefix of a word, tried in perf's order ("f" is
 * flat), and "none" ends the list whatever comes after it.  -2 for what
 * perf has and perfkit does not do (address, branch, count).  A
 * second number is perf's print limit.
 */
int report_callchain_parse(const char *arg, struct callchain_print *p, int *order)
{
	static const char *const modes[] = {"graph", "flat", "fractal", "folded"};
	static const char *const orders[] = {"caller", "callee"};
	static const char *const keep[] = {"function", "percent"};
	static const char *const undone[] = {"address", "branch", "count"};
	static const char *const period[] = {"period"};
	static const char *const none[] = {"none"};
	static const int mode_of[] = {REPORT_GRAPH_GRAPH, REPORT_GRAPH_FLAT, REPORT_GRAPH_FRACTAL,
				      REPORT_GRAPH_FOLDED};
	const char *s = arg;
	bool have_limit = false, have_print_limit = false;

	while (s && *s) {
		size_t n = strcspn(s, ",");
		char tok[32], *end;
		int w;

		if (n >= sizeof(tok))
			return -1;
		memcpy(tok, s, n);
		tok[n] = '\0';
		s += n + (s[n] == ',');
		if (!n)
			continue;
		if (!word_of(tok, n, none, 1)) {
			p->mode = REPORT_GRAPH_NONE;
			return 0;
		}
		if ((w = word_of(tok, n, modes, 4)) >= 0) {
			p->mode = (enum report_graph_mode)mode_of[w];
		} else if ((w = word_of(tok, n, orders, 2)) >= 0) {
			*order = w ? PK_CALLCHAIN_CALLEE : PK_CALLCHAIN_CALLER;
		} else if ((w = word_of(tok, n, keep, 2)) >= 0) {
			p->period = p->period && w == 0; /* percent */
		} else if (!word_of(tok, n, period, 1)) {
			p->period = true;
		} else if (word_of(tok, n, undone, 3) >= 0) {
			return -2;
		} else if (!have_limit && (p->min_percent = strtod(tok, &end), end != tok)) {
			have_limit = p->limit_set = true;
		} else if (have_limit && !have_print_limit &&
			   (p->print_limit = (uint32_t)strtoul(tok, &end, 0), end != tok)) {
			have_print_limit = true;
		} else {
			return -1;
		}
	}
	return 0;
}
