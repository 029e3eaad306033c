// SPDX-License-Identifier: MIT
/*
 * The histogram's last stage, once every sample is in its entry: each
 * event's entries put in perf's order (its input tree replayed, then its
 * collapsed and output trees, or the group view's), the filters' hidden
 * entries dropped, the members' totals set, while another thread sorts
 * the call trees.
 */
#include <errno.h>
#include <stdlib.h>
#include "hist_build.h"

/* The members' own totals, for the leader lead of nr of them. */
static int set_members(struct pk_hist *h, uint32_t lead, uint32_t nr)
{
	struct hist_event *he = &h->events[lead];

	he->members = calloc(nr, sizeof(*he->members));
	if (!he->members)
		return -ENOMEM;
	for (uint32_t m = 0; m < nr; m++) {
		uint32_t i = lead + m;

		he->members[m].attr = m ? h->groups.attrs[i] : he->pub.attr;
		if (m && i < h->nr_events_alloc) {
			he->members[m].nr_samples = h->events[i].pub.nr_samples;
			he->members[m].total_period = h->events[i].pub.total_period;
		}
	}
	he->members[0].nr_samples = he->pub.nr_samples;
	he->members[0].total_period = he->pub.total_period;
	he->pub.members = he->members;
	he->pub.nr_members = nr;
	he->pub.group_name = nr > 1 ? h->groups.names[lead] : NULL;
	he->pub.group_forced = nr > 1 && h->groups.forced;
	return 0;
}

/* The entries in place by from[] (pki_hist_gather()). */
static int gather(struct hist_event *he, const uint32_t *from)
{
	uint64_t *done = calloc((he->nr + 63) / 64 + 1, sizeof(*done));

	if (!done)
		return -ENOMEM;
	pki_hist_gather(he->v, from, he->nr, done);
	free(done);
	return 0;
}

static int by_node_order(struct hist_event *he)
{
	int err = gather(he, he->node_order);

	if (err)
		return err;
	free(he->node_order);
	he->node_order = NULL;
	return 0;
}

/* A group leader's histogram merged with its members' (hist_group.c). */
static int sort_group(struct pk_hist *h, uint32_t lead, uint32_t nr)
{
	struct hist_event *he = &h->events[lead];
	struct pki_hist_part *parts = calloc(nr, sizeof(*parts));
	struct pk_hist_entry *v;
	uint64_t n;
	int err;

	if (!parts)
		return -ENOMEM;
	for (uint32_t m = 0; m < nr && lead + m < h->nr_events_alloc; m++) {
		struct hist_event *me = &h->events[lead + m];

		/* with duplicates, in the order they entered perf's tree:
		 * inserted again that way, they make its shape */
		if (me->node_order && by_node_order(me)) {
			free(parts);
			return -ENOMEM;
		}
		parts[m].v = me->v;
		parts[m].nr = me->nr;
	}
	err = pki_hist_group(parts, nr, h->keys, h->nr_keys, h->children, h->callchain, &v, &n,
			     &he->values);
	free(parts);
	if (err)
		return err;
	he->v = v;
	he->nr = n;
	return 0;
}

/* Entries in the order of perf's input tree as replayed, then sorted
 * on from there. */
static int sort_replayed(struct pk_hist *h, struct hist_event *he)
{
	uint64_t n = he->nr_order;
	int err = n == he->nr ? gather(he, he->order) : -EINVAL;

	if (err)
		return err;
	err = pki_hist_sort_replayed(&h->trees[0], he->v, &n, h->keys, h->nr_keys, h->children,
				     h->callchain);
	he->nr = n;
	return err;
}

/* The entries of samples the filters reject leave once ordered: perf
 * orders them with the others, then prints only those it kept. */
static void drop_hidden(struct hist_event *he)
{
	uint64_t kept = 0;

	for (uint64_t k = 0; k < he->nr; k++)
		if (!he->v[k].hidden)
			he->v[kept++] = he->v[k];
	he->nr = kept;
}

static int finish_event(struct pk_hist *h, uint32_t i)
{
	struct hist_event *he = &h->events[i];
	uint32_t nr = pki_groups_size(&h->groups, i);
	int err = 0;

	/* the call trees are being sorted meanwhile (pki_hist_finish()) */
	if (nr > 1)
		err = sort_group(h, i, nr);
	else if (he->order)
		err = sort_replayed(h, he);
	else
		pki_hist_sort(he->v, he->nr, h->keys, h->nr_keys, h->children, h->callchain);
	if (!err)
		err = set_members(h, i, nr);
	drop_hidden(he);
	he->pub.entries = he->v;
	he->pub.nr_entries = he->nr;
	return err;
}

static int finish(struct pk_hist *h)
{
	int err = 0;

	h->shown = calloc(h->nr_events_alloc ? h->nr_events_alloc : 1, sizeof(*h->shown));
	if (!h->shown)
		return -ENOMEM;
	for (uint32_t i = 0; i < h->nr_events_alloc; i++) {
		struct hist_event *he = &h->events[i];

		free(he->slots);
		he->slots = NULL;
		free(he->last_sample);
		he->last_sample = NULL;
	}
	/* members are shown in their leader's; perf skips a group whose
	 * leader has no samples */
	pki_hist_set_output(&h->out);
	for (uint32_t i = 0; i < h->nr_events_alloc; i++) {
		struct hist_event *he = &h->events[i];

		if (!he->pub.nr_samples || pki_groups_is_member(&h->groups, i))
			continue;
		err = finish_event(h, i);
		if (err)
			break;
		h->shown[h->nr_shown++] = &he->pub;
	}
	pki_hist_set_output(NULL);
	return err;
}

int pki_hist_finish(struct pk_hist *h)
{
	struct pki_tree_sort t;
	int err = pki_trees_sort_start(&t, h), serr;

	if (!err)
		err = finish(h);
	serr = pki_trees_sort_finish(&t, h);
	return err ? err : serr;
}
