// SPDX-License-Identifier: MIT
/*
 * perf report's group view.  perf builds every event's histogram on its
 * own; before the output sort it looks each member entry up in its
 * leader's collapsed tree, pairs the entries found and inserts a zero
 * entry for the others.  The leader's histogram then holds every entry of
 * the group, each with all members' values, and is sorted by the leader's
 * period with the members' breaking ties.  The lookups go through perf's
 * red-black tree (hist_sort.c), whose comparison is no total order for
 * unresolved addresses far apart, so they are replayed rather than
 * hashed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hist_internal.h"

/* A group from the header, checked against the attrs: consecutive,
 * inside the file, not overlapping an earlier one. */
static bool group_ok(const struct pki_groups *g, const struct pk_group_desc *d)
{
	if (d->nr_members < 2 || d->leader_idx >= g->nr_attrs ||
	    d->nr_members > g->nr_attrs - d->leader_idx)
		return false;
	for (uint32_t i = d->leader_idx; i < d->leader_idx + d->nr_members; i++)
		if (g->leader[i] != i || g->nr_members[i] != 1)
			return false;
	return true;
}

static void set_group(struct pki_groups *g, uint32_t lead, uint32_t n, const char *name)
{
	for (uint32_t i = lead; i < lead + n; i++)
		g->leader[i] = lead;
	g->nr_members[lead] = n;
	/* perf calls unnamed groups "{anon_group}" in the file */
	g->names[lead] = name && strcmp(name, "{anon_group}") ? name : NULL;
}

int pki_groups_init(struct pki_groups *g, struct pk_session *s, int mode)
{
	const struct pk_reader *r = pk_session_reader(s);
	const struct pk_header *hdr = pk_reader_header(r);
	uint32_t n = pk_reader_nr_attrs(r);

	memset(g, 0, sizeof(*g));
	g->nr_attrs = n;
	g->leader = calloc(n ? n : 1, sizeof(*g->leader));
	g->nr_members = calloc(n ? n : 1, sizeof(*g->nr_members));
	g->names = calloc(n ? n : 1, sizeof(*g->names));
	g->attrs = calloc(n ? n : 1, sizeof(*g->attrs));
	if (!g->leader || !g->nr_members || !g->names || !g->attrs) {
		pki_groups_free(g);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < n; i++) {
		g->leader[i] = i;
		g->nr_members[i] = 1;
		g->attrs[i] = pk_reader_attr(r, i);
	}
	if (mode == PK_HIST_GROUP_NONE)
		return 0;
	for (uint32_t i = 0; hdr && i < hdr->nr_groups; i++) {
		if (!group_ok(g, &hdr->groups[i]))
			continue;
		set_group(g, hdr->groups[i].leader_idx, hdr->groups[i].nr_members,
			  hdr->groups[i].name);
	}
	/* perf --group: a file without groups is shown as one */
	if (mode == PK_HIST_GROUP_ALL && hdr && !hdr->nr_groups && n > 1) {
		set_group(g, 0, n, NULL);
		g->forced = true;
	}
	return 0;
}

void pki_groups_free(struct pki_groups *g)
{
	free(g->leader);
	free(g->nr_members);
	free(g->names);
	free(g->attrs);
	memset(g, 0, sizeof(*g));
}

uint32_t pki_groups_size(const struct pki_groups *g, uint32_t idx)
{
	return g->nr_members && idx < g->nr_attrs && g->leader[idx] == idx ? g->nr_members[idx] : 1;
}

bool pki_groups_is_member(const struct pki_groups *g, uint32_t idx)
{
	return g->leader && idx < g->nr_attrs && g->leader[idx] != idx;
}

/* The group's entries side by side, in tree order: all holds every part's
 * entries (start[] says where each begins), node[] where each landed. */
struct linked {
	struct pk_hist_entry *all;
	uint64_t *start;
	uint32_t *node, *order, *slot;
	uint64_t total, n;
};

static void linked_free(struct linked *l)
{
	free(l->all);
	free(l->start);
	free(l->node);
	free(l->order);
	free(l->slot);
}

static int link_parts(struct linked *l, struct pki_hist_part *parts, uint32_t nr_members,
		      const enum pk_hist_key *keys, uint32_t nr_keys)
{
	int passes = pki_hist_grouping_passes(keys, nr_keys);
	uint64_t at = 0;

	l->start = calloc(nr_members + 1, sizeof(*l->start));
	if (!l->start)
		return -ENOMEM;
	for (uint32_t m = 0; m < nr_members; m++) {
		/* members are looked up in the order of their last grouping
		 * tree; the leader's last tree is the one they go into,
		 * built from the order of the tree before it */
		pki_hist_sort_input(parts[m].v, parts[m].nr, keys, nr_keys,
				    m ? passes : passes - 1);
		l->start[m] = l->total;
		l->total += parts[m].nr;
	}
	l->start[nr_members] = l->total;
	if (l->total >= UINT32_MAX)
		return -EOVERFLOW;
	l->all = malloc((l->total ? l->total : 1) * sizeof(*l->all));
	l->node = malloc((l->total ? l->total : 1) * sizeof(*l->node));
	l->order = malloc((l->total ? l->total : 1) * sizeof(*l->order));
	l->slot = malloc((l->total ? l->total : 1) * sizeof(*l->slot));
	if (!l->all || !l->node || !l->order || !l->slot)
		return -ENOMEM;
	for (uint32_t m = 0; m < nr_members; m++) {
		if (parts[m].nr)
			memcpy(l->all + at, parts[m].v, parts[m].nr * sizeof(*l->all));
		at += parts[m].nr;
	}
	if (pki_hist_link(l->all, l->start, nr_members, keys, nr_keys, l->node, l->order, &l->n))
		return -ENOMEM;
	return 0;
}

/* The entries of the leader's tree, in its order: the leader's own and,
 * for what only members have, a copy without the leader's values. */
static void fill(const struct linked *l, uint32_t nr_members, struct pk_hist_entry *res,
		 struct pk_hist_value *vals)
{
	uint32_t m = 0;

	for (uint64_t k = 0; k < l->n; k++) {
		uint32_t i = l->order[k];

		l->slot[i] = (uint32_t)k;
		res[k] = l->all[i];
		res[k].members = &vals[k * nr_members];
		if (i >= l->start[1]) {
			res[k].self = res[k].children = res[k].nr_samples = 0;
			res[k].callchain = NULL;
		}
	}
	for (uint64_t i = 0; i < l->total; i++) {
		struct pk_hist_value *v;

		while (i >= l->start[m + 1])
			m++;
		v = &vals[(uint64_t)l->slot[l->node[i]] * nr_members + m];
		v->self += l->all[i].self;
		v->children += l->all[i].children;
		v->nr_samples += l->all[i].nr_samples;
	}
}

int pki_hist_group(struct pki_hist_part *parts, uint32_t nr_members, const enum pk_hist_key *keys,
		   uint32_t nr_keys, bool children, int callchain, struct pk_hist_entry **out,
		   uint64_t *nr_out, struct pk_hist_value **values)
{
	struct linked l = {0};
	struct pk_hist_entry *res = NULL;
	struct pk_hist_value *vals = NULL;
	int err;

	*out = NULL;
	*values = NULL;
	*nr_out = 0;
	err = link_parts(&l, parts, nr_members, keys, nr_keys);
	if (err)
		goto out;
	res = calloc(l.n ? l.n : 1, sizeof(*res));
	vals = calloc((l.n ? l.n : 1) * nr_members, sizeof(*vals));
	if (!res || !vals) {
		err = -ENOMEM;
		goto out;
	}
	fill(&l, nr_members, res, vals);
	pki_hist_sort_output(res, l.n, keys, nr_keys, children, callchain, nr_members);
	/* the leader's callchains now belong to res */
	free(parts[0].v);
	parts[0].v = NULL;
	parts[0].nr = 0;
	*out = res;
	*values = vals;
	*nr_out = l.n;
	res = NULL;
	vals = NULL;
out:
	free(res);
	free(vals);
	linked_free(&l);
	return err;
}
