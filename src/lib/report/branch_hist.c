// SPDX-License-Identifier: MIT
/*
 * Branch mode of perf report: every branch-stack entry of a sample is a
 * histogram entry of period 1, keyed by the sort keys over its source,
 * target and flags.
 *
 * perf's comparisons of branch flags (mispredict, in_tx, abort) say only
 * "equal" or "greater", so its red-black trees can keep two entries with
 * equal keys apart.  To print what perf prints, entries are grouped by
 * walking replicas of perf's trees (branch_tree.c), not by hashing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "branch_internal.h"

static const char *const key_names[PK_BRANCH_KEY_MAX] = {
	/* perf's own lookup order: its common keys first */
	[PK_BRANCH_KEY_PID] = "pid",	      [PK_BRANCH_KEY_COMM] = "comm",
	[PK_BRANCH_KEY_DSO] = "dso",	      [PK_BRANCH_KEY_SYM] = "symbol",
	[PK_BRANCH_KEY_CPU] = "cpu",	      [PK_BRANCH_KEY_DSO_FROM] = "dso_from",
	[PK_BRANCH_KEY_DSO_TO] = "dso_to",    [PK_BRANCH_KEY_SYM_FROM] = "symbol_from",
	[PK_BRANCH_KEY_SYM_TO] = "symbol_to", [PK_BRANCH_KEY_MISPREDICT] = "mispredict",
	[PK_BRANCH_KEY_IN_TX] = "in_tx",      [PK_BRANCH_KEY_ABORT] = "abort",
	[PK_BRANCH_KEY_CYCLES] = "cycles",
};

int pk_branch_key_parse(const char *name, size_t len)
{
	static const enum pk_branch_key order[] = {
		PK_BRANCH_KEY_PID,	  PK_BRANCH_KEY_COMM,	  PK_BRANCH_KEY_DSO,
		PK_BRANCH_KEY_SYM,	  PK_BRANCH_KEY_CPU,	  PK_BRANCH_KEY_DSO_FROM,
		PK_BRANCH_KEY_DSO_TO,	  PK_BRANCH_KEY_SYM_FROM, PK_BRANCH_KEY_SYM_TO,
		PK_BRANCH_KEY_MISPREDICT, PK_BRANCH_KEY_IN_TX,	  PK_BRANCH_KEY_ABORT,
		PK_BRANCH_KEY_CYCLES,
	};

	if (!name || !len)
		return -1;
	/* perf takes a key when the word is a prefix of its name */
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const char *n = key_names[order[i]];

		if (len <= strlen(n) && !strncasecmp(name, n, len))
			return (int)order[i];
	}
	return -1;
}

bool pk_session_has_branch_stack(struct pk_session *s)
{
	struct pk_reader *r = s ? pk_session_reader(s) : NULL;

	for (uint32_t i = 0; r && i < pk_reader_nr_attrs(r); i++)
		if (pk_reader_attr(r, i)->attr.sample_type & PERF_SAMPLE_BRANCH_STACK)
			return true;
	return false;
}

/*
 * A branch address carries no cpumode: perf tries the kernel's maps, then
 * the process's, and calls what is in neither a hypervisor address.
 */
static void resolve_side(struct pk_session *s, const struct pk_thread *t, uint64_t addr,
			 struct pk_branch_side *side)
{
	struct pk_location loc;

	memset(side, 0, sizeof(*side));
	side->addr = side->al_addr = addr;
	side->level = 'H';
	pk_session_resolve(s, t, PERF_RECORD_MISC_KERNEL, addr, &loc);
	if (loc.dso) {
		side->level = 'k';
	} else {
		pk_session_resolve(s, t, PERF_RECORD_MISC_USER, addr, &loc);
		if (!loc.dso)
			return;
		side->level = '.';
	}
	side->dso = loc.dso;
	side->sym = loc.sym;
	side->al_addr = loc.addr;
}

static char sample_level(uint8_t cpumode)
{
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
	case PERF_RECORD_MISC_GUEST_KERNEL:
		return 'k';
	case PERF_RECORD_MISC_USER:
	case PERF_RECORD_MISC_GUEST_USER:
		return '.';
	default:
		return 'H';
	}
}

static struct pki_branch_event *event_of(struct pk_branch_hist *h, const struct pk_attr *attr)
{
	if (attr->index >= h->nr_events_alloc) {
		uint32_t n = attr->index + 8;
		struct pki_branch_event *v = realloc(h->events, n * sizeof(*v));

		if (!v)
			return NULL;
		memset(v + h->nr_events_alloc, 0, (n - h->nr_events_alloc) * sizeof(*v));
		h->events = v;
		h->nr_events_alloc = n;
	}
	h->events[attr->index].pub.attr = attr;
	return &h->events[attr->index];
}

static void set_flags(struct pk_branch_hist_entry *e, uint64_t flags)
{
	e->mispred = flags & 1;
	e->predicted = (flags >> 1) & 1;
	e->in_tx = (flags >> 2) & 1;
	e->abort = (flags >> 3) & 1;
	e->cycles = (uint16_t)(flags >> 4);
	e->type = (uint8_t)((flags >> 20) & 0xf);
}

static int add_sample(struct pk_branch_hist *h, struct pk_session *s,
		      const struct pk_session_sample *ev)
{
	struct pki_branch_event *be;
	struct pk_branch_hist_entry key = {0};
	bool filtered;

	if (!(ev->sample.type & PERF_SAMPLE_BRANCH_STACK))
		return 0;
	be = event_of(h, ev->attr);
	key.comm = pki_strtab_intern(&h->comms, pk_thread_comm(ev->thread));
	if (!be || !key.comm)
		return -ENOMEM;
	key.thread = ev->thread;
	key.pid = pk_thread_pid(ev->thread);
	key.tid = pk_thread_tid(ev->thread);
	/* perf: a sample without PERF_SAMPLE_CPU is on cpu -1 */
	key.cpu = (ev->sample.type & PERF_SAMPLE_CPU) ? ev->sample.cpu : UINT32_MAX;
	key.level = sample_level(ev->loc.cpumode);
	key.count = 1;
	/* perf keeps a filtered sample's entries, hidden: they still merge
	 * with others and count in the totals */
	filtered = !pki_hist_filter_thread(&h->filter, key.comm, key.pid, key.tid) ||
		   !pki_hist_filter_location(&h->filter, &ev->loc);
	for (uint64_t i = 0; i < ev->sample.branch_nr; i++) {
		struct pk_branch_entry br = pk_sample_branch_at(&ev->sample, i);
		int err;

		resolve_side(s, ev->thread, br.from, &key.from);
		resolve_side(s, ev->thread, br.to, &key.to);
		set_flags(&key, br.flags);
		err = pki_branch_tree_add(&be->tree, &h->sort, &key, filtered);
		if (err)
			return err;
		be->pub.nr_branches++;
	}
	return 0;
}

static int finish(struct pk_branch_hist *h)
{
	h->shown = calloc(h->nr_events_alloc ? h->nr_events_alloc : 1, sizeof(*h->shown));
	if (!h->shown)
		return -ENOMEM;
	for (uint32_t i = 0; i < h->nr_events_alloc; i++) {
		struct pki_branch_event *be = &h->events[i];
		int err;

		if (!be->pub.nr_branches)
			continue;
		err = pki_branch_tree_finish(&be->tree, &h->sort);
		if (err)
			return err;
		be->pub.entries = be->tree.out;
		be->pub.nr_entries = be->tree.nr_out;
		h->shown[h->nr_shown++] = &be->pub;
	}
	return 0;
}

static int set_keys(struct pk_branch_hist *h, const struct pk_branch_hist_opts *o)
{
	static const enum pk_branch_key defaults[] = {
		PK_BRANCH_KEY_COMM,   PK_BRANCH_KEY_DSO_FROM, PK_BRANCH_KEY_SYM_FROM,
		PK_BRANCH_KEY_SYM_TO, PK_BRANCH_KEY_CYCLES,
	};
	const enum pk_branch_key *keys = o->keys ? o->keys : defaults;
	uint32_t nr = o->keys ? o->nr_keys : 5;

	if (nr > PKI_BRANCH_MAX_KEYS)
		return -EINVAL;
	for (uint32_t i = 0; i < nr; i++) {
		if ((unsigned)keys[i] >= PK_BRANCH_KEY_MAX)
			return -EINVAL;
		h->sort.keys[i] = keys[i];
		/* perf merges its input tree again when a key has a collapse
		 * function of its own: of ours, only comm */
		if (keys[i] == PK_BRANCH_KEY_COMM)
			h->sort.collapse = true;
	}
	h->sort.nr_keys = nr;
	return 0;
}

int pk_branch_hist_build(struct pk_branch_hist **out, struct pk_session *s,
			 const struct pk_branch_hist_opts *opts)
{
	struct pk_branch_hist_opts o = {.sz = sizeof(o)};
	struct pk_hist_opts fo = {.sz = sizeof(fo)};
	struct pk_branch_hist *h = calloc(1, sizeof(*h));
	struct pk_session_sample ev;
	int err;

	*out = NULL;
	if (!h)
		return -ENOMEM;
	if (opts)
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	fo.comms = o.comms;
	fo.pids = o.pids;
	fo.tids = o.tids;
	fo.dsos = o.dsos;
	fo.symbols = o.symbols;
	err = set_keys(h, &o);
	if (!err)
		err = pki_hist_filter_init(&h->filter, &fo);
	while (!err && (err = pk_session_next(s, &ev)) > 0)
		err = add_sample(h, s, &ev);
	if (!err) {
		h->lost = pk_session_lost_samples(s);
		err = finish(h);
	}
	if (err) {
		pk_branch_hist_free(h);
		return err;
	}
	*out = h;
	return 0;
}

void pk_branch_hist_free(struct pk_branch_hist *h)
{
	if (!h)
		return;
	for (uint32_t i = 0; i < h->nr_events_alloc; i++)
		pki_branch_tree_free(&h->events[i].tree);
	free(h->events);
	free(h->shown);
	pki_strtab_free(&h->comms);
	pki_hist_filter_free(&h->filter);
	free(h);
}

uint32_t pk_branch_hist_nr_events(const struct pk_branch_hist *h)
{
	return h ? h->nr_shown : 0;
}

const struct pk_branch_hist_event *pk_branch_hist_event(const struct pk_branch_hist *h, uint32_t i)
{
	return h && i < h->nr_shown ? h->shown[i] : NULL;
}

uint64_t pk_branch_hist_lost_samples(const struct pk_branch_hist *h)
{
	return h ? h->lost : 0;
}
