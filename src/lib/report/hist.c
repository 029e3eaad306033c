// SPDX-License-Identifier: MIT
/*
 * Histogram building: every sample lands in the entry of its sort keys
 * (hash table per event); with children, every distinct entry of its
 * callchain also gets the sample's period once.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <perfkit/filter.h>
#include "hist_build.h"

#define MAX_STACK 127	/* perf's default --max-stack */

/*
 * Entries are built from the stacks by up to two workers, each owning the
 * entries whose key hash has its bit: both walk every stack, each creates
 * and updates only its own entries (and their call trees, in its own
 * arena), so they share nothing that changes.  Each entry remembers when
 * a single walk would have created it; merging the parts by that order
 * gives exactly the entries, in the order, of a single walk.
 */
struct hist_part {
	struct pk_hist *h;
	unsigned id, nr;		/* this part of nr */
	struct hist_event *events;	/* by attr index */
	struct pki_arena *trees;
	uint64_t sample_seq;		/* the stack being walked, + 1 */
	struct pk_frame *frames;
	pthread_t thread;
	int err;
};

/* splitmix64 steps: pointers and addresses have poor low bits */
static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h += 0x9e3779b97f4a7c15ULL;
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
	return h ^ (h >> 31);
}

static bool has_key(const struct pk_hist *h, enum pk_hist_key k)
{
	return h->key_mask & (1u << k);
}

/* The key fields a location decides, but for the level. */
static void key_at(const struct pk_hist *h, struct pk_hist_entry *e, const struct pk_location *loc)
{
	e->dso = loc->dso;
	e->sym = loc->sym;
	e->addr = loc->sym || !has_key(h, PK_HIST_KEY_SYM) ? 0 : loc->addr;
	e->first_addr = loc->addr;
}

/* The entry a stack's samples go to: only the sort keys matter.  hidden:
 * the sample's, which an entry it creates keeps. */
static void make_key(const struct pk_hist *h, struct pk_hist_entry *e, const struct pki_stack *st,
		     const struct pk_location *loc, bool hidden)
{
	memset(e, 0, sizeof(*e));
	e->comm = st->comm;
	e->trace = st->trace;
	e->parent = st->parent;
	e->time = st->time;
	e->thread = st->first_thread;
	e->pid = pk_thread_pid(e->thread);
	e->tid = pk_thread_tid(e->thread);
	e->cpu = st->first_cpu;
	e->hidden = hidden;
	key_at(h, e, loc);
	e->level = loc->cpumode == PERF_RECORD_MISC_KERNEL ||
				   loc->cpumode == PERF_RECORD_MISC_GUEST_KERNEL
			   ? 'k'
		   : loc->cpumode == PERF_RECORD_MISC_HYPERVISOR ? 'H'
								 : '.';
}

uint64_t pki_hist_entry_hash(const struct pk_hist *h, const struct pk_hist_entry *e)
{
	uint64_t x = 0;

	if (has_key(h, PK_HIST_KEY_COMM))
		x = mix(x, (uintptr_t)e->comm);
	if (has_key(h, PK_HIST_KEY_PID))
		x = mix(x, (uintptr_t)e->thread);
	if (has_key(h, PK_HIST_KEY_CPU))
		x = mix(x, e->cpu);
	if (has_key(h, PK_HIST_KEY_DSO))
		x = mix(x, (uintptr_t)e->dso);
	if (has_key(h, PK_HIST_KEY_SYM))
		x = mix(mix(x, (uintptr_t)e->sym), e->addr);
	if (has_key(h, PK_HIST_KEY_TRACE))
		x = mix(x, (uintptr_t)e->trace);
	if (has_key(h, PK_HIST_KEY_PARENT))
		x = mix(x, (uintptr_t)e->parent);
	if (has_key(h, PK_HIST_KEY_TIME))
		x = mix(x, e->time);
	return mix(x, 0);
}

bool pki_hist_entry_same(const struct pk_hist *h, const struct pk_hist_entry *a,
		       const struct pk_hist_entry *b)
{
	if (has_key(h, PK_HIST_KEY_COMM) && a->comm != b->comm)
		return false;
	if (has_key(h, PK_HIST_KEY_PID) && a->thread != b->thread)
		return false;
	if (has_key(h, PK_HIST_KEY_CPU) && a->cpu != b->cpu)
		return false;
	if (has_key(h, PK_HIST_KEY_DSO) && a->dso != b->dso)
		return false;
	if (has_key(h, PK_HIST_KEY_SYM) && (a->sym != b->sym || a->addr != b->addr))
		return false;
	if (has_key(h, PK_HIST_KEY_TRACE) && a->trace != b->trace)
		return false;
	if (has_key(h, PK_HIST_KEY_PARENT) && a->parent != b->parent)
		return false;
	if (has_key(h, PK_HIST_KEY_TIME) && a->time != b->time)
		return false;
	return true;
}

struct entry_ctx {
	const struct pk_hist *h;
	const struct hist_event *he;
};

static uint64_t entry_hash_id(const void *ctx, uint32_t i)
{
	const struct entry_ctx *c = ctx;

	return pki_hist_entry_hash(c->h, &c->he->v[i]);
}

static int grow_slots(const struct pk_hist *h, struct hist_event *he)
{
	struct entry_ctx c = {h, he};

	return pki_slots_grow(&he->slots, &he->nr_slots, he->nr, 1024, entry_hash_id, &c);
}

static struct pk_hist_entry *findnew(struct pk_hist *h, struct hist_event *he,
				     const struct pk_hist_entry *key, uint64_t hash,
				     uint64_t created, uint64_t **last)
{
	size_t j;

	if (!pki_slots_room(he->nr, he->nr_slots) && grow_slots(h, he))
		return NULL;
	for (j = hash & (he->nr_slots - 1); he->slots[j];
	     j = (j + 1) & (he->nr_slots - 1)) {
		uint32_t i = he->slots[j] - 1;

		if (pki_hist_entry_same(h, &he->v[i], key)) {
			*last = &he->last_sample[i];
			return &he->v[i];
		}
	}
	if (he->nr == he->alloc) {
		size_t n = he->alloc ? he->alloc * 2 : 256;
		struct pk_hist_entry *v = realloc(he->v, n * sizeof(*v));
		uint64_t *l;

		if (!v)
			return NULL;
		he->v = v;
		l = realloc(he->last_sample, n * sizeof(*l));
		if (!l)
			return NULL;
		he->last_sample = l;
		l = realloc(he->created, n * sizeof(*l));
		if (!l)
			return NULL;
		he->created = l;
		he->alloc = n;
	}
	he->v[he->nr] = *key;
	he->last_sample[he->nr] = 0;
	he->created[he->nr] = created;
	he->slots[j] = (uint32_t)++he->nr;
	*last = &he->last_sample[he->nr - 1];
	return &he->v[he->nr - 1];
}

static struct hist_event *event_of(struct pk_hist *h, const struct pk_attr *attr)
{
	if (attr->index >= h->nr_events_alloc) {
		uint32_t n = attr->index + 8;
		struct hist_event *v = realloc(h->events, n * sizeof(*v));

		if (!v)
			return NULL;
		memset(v + h->nr_events_alloc, 0, (n - h->nr_events_alloc) * sizeof(*v));
		h->events = v;
		h->nr_events_alloc = n;
	}
	h->events[attr->index].pub.attr = attr;
	return &h->events[attr->index];
}

/*
 * A callchain frame's key: its sample's with the location's fields
 * changed.  Callchain entries are keyed like perf's: an unresolved frame
 * by its address as recorded.
 */
static void frame_key(const struct pk_hist *h, struct pk_hist_entry *key,
		      const struct pk_location *loc, char *level)
{
	key_at(h, key, loc);
	if (!loc->sym && has_key(h, PK_HIST_KEY_SYM))
		key->addr = loc->ip;
	/* a frame in no map keeps the level of the frame before it in perf's
	 * walk (the sample's for the first); an entry keeps the label it was
	 * created with */
	key->level = loc->dso ? (pk_dso_is_kernel(loc->dso) ? 'k' : '.') : *level;
	*level = key->level;
}

size_t pki_hist_chain_len(const struct pk_hist *h, size_t n, size_t from)
{
	if (!n || from == n)
		return n;
	return h->callchain == PK_CALLCHAIN_CALLER ? from + 1 : n - from;
}

/* The chain from frame `from` towards the leaf (caller order) or the root
 * (callee order); from == n means the whole chain. */
int pki_hist_append_chain(const struct pk_hist *h, struct pki_arena *a,
			  struct pk_callchain_node **root, const struct pk_frame *frames, size_t n,
			  size_t from, uint64_t period)
{
	size_t count = pki_hist_chain_len(h, n, from);

	if (!n)
		return pki_callchain_append(a, root, frames, 0, 0, 1, period);
	if (h->callchain == PK_CALLCHAIN_CALLER)
		return pki_callchain_append(a, root, frames, from == n ? n - 1 : from, count, -1,
					    period);
	return pki_callchain_append(a, root, frames, from == n ? 0 : from, count, 1, period);
}

/* The worker's half: one resolved sample into the stack table. */
static int fold_sample(void *ctx, const struct pki_pending *p, const struct pk_frame *frames)
{
	struct pk_hist *h = ctx;
	struct pki_stack k = p->k;

	return pki_stacks_add(&h->stacks, &k, &p->loc, frames, p->nr_frames);
}

/* A batch's stack hashes: in either thread (see pki_pipe.early). */
static void hash_batch(void *ctx, struct pki_batch *b)
{
	(void)ctx;
	for (size_t i = 0; i < b->nr; i++) {
		struct pki_pending *p = &b->v[i];

		p->k.hash =
			pki_stacks_hash(&p->k, &p->loc, b->frames + p->first_frame, p->nr_frames);
	}
}

/* Each stack's table slot asked for, the stack that slot leads to
 * SLOT_AHEAD samples later, when the slot is in, and that stack's
 * location and leaf as many samples on: their cache misses overlap
 * instead of coming one after the other (all of a batch's slots asked
 * for first, then its stacks, was slower). */
#define SLOT_AHEAD 16

static void prepare_batch(void *ctx, struct pki_batch *b)
{
	struct pk_hist *h = ctx;

	for (size_t i = 0; i < b->nr + 2 * SLOT_AHEAD; i++) {
		if (i < b->nr)
			pki_stacks_prefetch(&h->stacks, b->v[i].k.hash, 0);
		/* a slot asked for SLOT_AHEAD samples ago is in by now */
		if (i >= SLOT_AHEAD && i - SLOT_AHEAD < b->nr)
			pki_stacks_prefetch(&h->stacks, b->v[i - SLOT_AHEAD].k.hash, 1);
		if (i >= 2 * SLOT_AHEAD)
			pki_stacks_prefetch(&h->stacks, b->v[i - 2 * SLOT_AHEAD].k.hash, 2);
	}
}

/* The trace key of a sample, interned: a tracepoint's fields as perf
 * script prints them, "N/A" for other events (perf's words). */
#define TRACE_BUF (64 * 1024)

static const char *trace_key(struct pk_hist *h, struct pk_session *s,
			     const struct pk_session_sample *ev)
{
	if (ev->attr->attr.type != PERF_TYPE_TRACEPOINT)
		return pki_strtab_intern(&h->traces, "N/A");
	if (!h->trace_buf && !(h->trace_buf = malloc(TRACE_BUF)))
		return NULL;
	if (!ev->sample.raw_size ||
	    (h->raw_trace ? pk_session_trace_format_raw(s, ev, h->trace_buf, TRACE_BUF)
			  : pk_session_trace_format(s, ev, h->trace_buf, TRACE_BUF)) < 0)
		h->trace_buf[0] = '\0';
	return pki_strtab_intern(&h->traces, h->trace_buf);
}

/* The parent key of a sample whose callchain is frames, interned (NULL:
 * none), and its callees ignored (*n and *loc changed); 0 or -ENOMEM. */
static int parent_key(struct pk_hist *h, struct pk_frame *frames, size_t *n,
		      struct pk_location *loc, const char **out)
{
	const struct pk_symbol *sym;
	int err = pki_parent_find(h->parent, frames, n, loc, &sym);

	*out = NULL;
	if (err || !sym || !has_key(h, PK_HIST_KEY_PARENT))
		return err;
	*out = pki_strtab_intern(&h->parents, sym->name);
	return *out ? 0 : -ENOMEM;
}

/* Whether --max-stack keeps a chain's outermost frames: the call graph's
 * order, or without one the order the parent and ignored callees are
 * looked for in (perf's callchain order, which -g none keeps). */
static bool chain_from_caller(const struct pk_hist *h)
{
	if (h->parent && h->callchain == PK_CALLCHAIN_NONE)
		return h->parent->from_caller;
	return h->callchain != PK_CALLCHAIN_CALLEE;
}

/* The comm of a sample of thread, interned: most samples come from a
 * thread whose comm was interned for its last one, which a string compare
 * confirms (a comm can change, and a thread's address be reused). */
static const char *sample_comm(struct pk_hist *h, const struct pk_thread *thread)
{
	struct comm_memo *m = &h->comm_memo[((uintptr_t)thread >> 6) % PKI_COMM_MEMO];
	const char *comm = pk_thread_comm(thread);

	if (m->thread == thread && m->comm && !strcmp(m->comm, comm))
		return m->comm;
	m->comm = pki_strtab_intern(&h->comms, comm);
	m->thread = m->comm ? thread : NULL;
	return m->comm;
}

/* The reading thread's half: everything that needs the session's state
 * as of this sample (thread, comm, maps) is taken here. */
static int add_sample(struct pk_hist *h, struct pk_session *s, const struct pk_session_sample *ev)
{
	struct hist_event *he = event_of(h, ev->attr);
	struct pk_frame *frames;
	struct pki_pending *p;
	size_t n = 0;

	if (!he)
		return -ENOMEM;
	if (h->hide_unresolved && !ev->loc.sym)
		return 0;	/* perf -U: as if never sampled */
	if (h->keep && !pk_sample_filter_match(h->keep, ev))
		return 0; /* perf's --cpu, --time: the same */
	p = pki_pipe_slot(&h->pipe, &frames);
	/* unwound chains can hold inlined frames, whose lookups perf's
	 * comparison (by name, others by address) may send astray: all of
	 * their samples are replayed, as unresolved ones are */
	p->k = (struct pki_stack){.attr = ev->attr,
				  .count = 1,
				  .unresolved = !!(ev->sample.type & PERF_SAMPLE_STACK_USER)};
	p->k.period = (ev->sample.type & PERF_SAMPLE_PERIOD) ? ev->sample.period
							     : ev->attr->attr.sample_period;
	he->pub.nr_samples++;
	he->pub.total_period += p->k.period;
	p->k.comm = sample_comm(h, ev->thread);
	if (!p->k.comm)
		return -ENOMEM;
	if (has_key(h, PK_HIST_KEY_TRACE) && !(p->k.trace = trace_key(h, s, ev)))
		return -ENOMEM;
	p->k.thread = h->stack_thread ? ev->thread : NULL;
	p->k.first_thread = ev->thread;
	/* perf's cpu of a sample that does not record one is -1 */
	p->k.first_cpu = (ev->sample.type & PERF_SAMPLE_CPU) ? ev->sample.cpu : UINT32_MAX;
	p->k.cpu = has_key(h, PK_HIST_KEY_CPU) ? p->k.first_cpu : 0;
	if (has_key(h, PK_HIST_KEY_TIME) && (ev->sample.type & PERF_SAMPLE_TIME))
		p->k.time = ev->sample.time - ev->sample.time % h->time_quantum;
	p->loc = ev->loc;
	/* perf reads the chain for the parent key too */
	if (h->children || h->callchain || has_key(h, PK_HIST_KEY_PARENT))
		n = pki_hist_callchain(chain_from_caller(h), s, ev, frames, PKI_HIST_FRAMES,
				       h->max_stack);
	if (h->hide_unresolved)
		n = pki_frames_drop_unresolved(frames, n);
	if (h->parent) {
		int err = parent_key(h, frames, &n, &p->loc, &p->k.parent);

		if (err)
			return err;
		/* the chain was read for the parent alone */
		if (!h->children && !h->callchain)
			n = 0;
	}
	return pki_pipe_commit(&h->pipe, (uint32_t)n);
}

int pki_hist_walk(struct pk_hist *h, const struct pki_stack *st, struct pk_frame *frames,
		  uint32_t *nodes, pki_walk_fn *fn, void *arg)
{
	const struct pk_location *loc = pki_stacks_loc(&h->stacks, st);
	struct pki_walk w = {.st = st, .frames = frames, .nodes = nodes};
	struct pk_hist_entry key;
	char level;
	bool hidden;
	int err = 0;

	w.n = nodes ? pki_stacks_path(&h->stacks, st, frames, nodes, PKI_HIST_FRAMES)
		    : pki_stacks_frames(&h->stacks, st, frames, PKI_HIST_FRAMES);
	/* perf keeps the entries of a sample its filters reject (by its
	 * thread and its own location, whatever its callchain holds): they
	 * count and take part in its trees as others do, and an entry such
	 * a sample creates stays hidden */
	hidden = !pki_hist_filter_thread(&h->filter, st->comm, pk_thread_pid(st->first_thread),
					 pk_thread_tid(st->first_thread)) ||
		 !pki_hist_filter_location(&h->filter, loc) || (h->exclude_other && !st->parent);
	make_key(h, &key, st, loc, hidden);
	err = fn(arg, &w, &key, 0, w.n);
	if (err || !h->children)
		return err;
	level = loc->cpumode == PERF_RECORD_MISC_KERNEL ? 'k' : '.';
	/* perf walks the chain in the tree's order: with recursion, the
	 * first occurrence that way gets the chain; only the location's
	 * fields of the key change from frame to frame */
	for (size_t j = 0; j < w.n && !err; j++) {
		size_t i = h->callchain != PK_CALLCHAIN_CALLEE ? w.n - 1 - j : j;

		frame_key(h, &key, &frames[i].loc, &level);
		err = fn(arg, &w, &key, (uint32_t)j + 1, i);
	}
	return err;
}

/* One key of a stack into this part's entries (when it owns it). */
static int part_key(void *arg, const struct pki_walk *w, const struct pk_hist_entry *key,
		    uint32_t pos, size_t from)
{
	struct hist_part *p = arg;
	struct pk_hist *h = p->h;
	struct hist_event *he = &p->events[w->st->attr->index];
	uint64_t *last, hash = pki_hist_entry_hash(h, key);
	struct pk_hist_entry *e;

	if (p->nr > 1 && (hash >> 63) != p->id)
		return 0;	/* another part's entry */
	e = findnew(h, he, key, hash, (p->sample_seq << 8) | pos, &last);
	if (!e)
		return -ENOMEM;
	if (!pos) {
		e->self += w->st->period;
		e->nr_samples += w->st->count;
	}
	/* perf checks a callchain entry against those of the sample so far
	 * with no time in its key: under the time key, each frame adds the
	 * sample again */
	if (*last == p->sample_seq && !has_key(h, PK_HIST_KEY_TIME))
		return 0;
	*last = p->sample_seq;
	e->children += w->st->period;
	if (!h->callchain)
		return 0;
	return pki_hist_append_chain(h, p->trees, &e->callchain, w->frames, w->n, from, w->st->period);
}

/* A stack's samples into the histogram, as one sample of their summed
 * period. */
static int add_stack(struct hist_part *p, const struct pki_stack *st)
{
	return pki_hist_walk(p->h, st, p->frames, NULL, part_key, p);
}

static void *part_walk(void *arg)
{
	struct hist_part *p = arg;

	for (size_t i = 0; i < p->h->stacks.nr && !p->err; i++) {
		p->sample_seq = i + 1;
		p->err = add_stack(p, &p->h->stacks.v[i]);
	}
	return NULL;
}

static void part_free(struct hist_part *p)
{
	if (p->events) {
		for (uint32_t i = 0; i < p->h->nr_events_alloc; i++) {
			free(p->events[i].v);
			free(p->events[i].slots);
			free(p->events[i].last_sample);
			free(p->events[i].created);
		}
	}
	free(p->events);
	free(p->frames);
}

/* Event i's entries of all parts, in the order a single walk creates them. */
static int merge_event(struct pk_hist *h, struct hist_part *parts, unsigned nr, uint32_t i)
{
	struct hist_event *he = &h->events[i];
	size_t total = 0, at[PKI_HIST_PARTS] = {0};

	for (unsigned k = 0; k < nr; k++)
		total += parts[k].events[i].nr;
	he->v = malloc((total ? total : 1) * sizeof(*he->v));
	if (!he->v)
		return -ENOMEM;
	for (he->nr = 0; he->nr < total; he->nr++) {
		unsigned best = nr;

		for (unsigned k = 0; k < nr; k++) {
			const struct hist_event *pe = &parts[k].events[i];

			if (at[k] < pe->nr &&
			    (best == nr || pe->created[at[k]] < parts[best].events[i].created[at[best]]))
				best = k;
		}
		he->v[he->nr] = parts[best].events[i].v[at[best]++];
	}
	he->alloc = total;
	return 0;
}

static int add_stacks(struct pk_hist *h)
{
	int err = h->stacks.log_mode ? pki_hist_replay(h) : pki_hist_build_entries(h);

	pki_stacks_free(&h->stacks);
	return err;
}

int pki_hist_build_entries(struct pk_hist *h)
{
	unsigned nr = h->nr_threads == 1 ? 1 : PKI_HIST_PARTS;
	struct hist_part parts[PKI_HIST_PARTS] = {0};
	unsigned started = 0;
	int err = 0;

	for (unsigned k = 0; k < nr && !err; k++) {
		parts[k] = (struct hist_part){.h = h, .id = k, .nr = nr, .trees = &h->trees[k]};
		parts[k].events = calloc(h->nr_events_alloc ? h->nr_events_alloc : 1,
					 sizeof(*parts[k].events));
		parts[k].frames = calloc(PKI_HIST_FRAMES, sizeof(*parts[k].frames));
		if (!parts[k].events || !parts[k].frames)
			err = -ENOMEM;
	}
	/* part 0 in this thread, the others in their own (or here, when no
	 * thread can be had) */
	for (unsigned k = 1; k < nr && !err; k++) {
		if (pthread_create(&parts[k].thread, NULL, part_walk, &parts[k]))
			break;
		started = k;
	}
	if (!err) {
		part_walk(&parts[0]);
		for (unsigned k = started + 1; k < nr; k++)
			part_walk(&parts[k]);
	}
	for (unsigned k = 1; k <= started; k++)
		pthread_join(parts[k].thread, NULL);
	for (unsigned k = 0; k < nr && !err; k++)
		err = parts[k].err;
	for (uint32_t i = 0; i < h->nr_events_alloc && !err; i++)
		err = merge_event(h, parts, nr, i);
	for (unsigned k = 0; k < nr; k++)
		part_free(&parts[k]);
	return err;
}

static int set_keys(struct pk_hist *h, const struct pk_hist_opts *opts)
{
	static const enum pk_hist_key defaults[] = {PK_HIST_KEY_COMM, PK_HIST_KEY_DSO,
						    PK_HIST_KEY_SYM};
	const enum pk_hist_key *keys = opts->keys ? opts->keys : defaults;
	uint32_t nr = opts->keys ? opts->nr_keys : 3;

	if (nr > PK_HIST_KEY_MAX)
		return -EINVAL;
	for (uint32_t i = 0; i < nr; i++) {
		if ((unsigned)keys[i] >= PK_HIST_KEY_MAX)
			return -EINVAL;
		h->keys[i] = keys[i];
		h->key_mask |= 1u << keys[i];
	}
	h->nr_keys = nr;
	return 0;
}

/* The final order's steps (pk_hist_opts.order), each checked. */
static int set_order(struct pk_hist *h, const struct pk_hist_opts *o)
{
	if (o->nr_order > sizeof(h->order) / sizeof(h->order[0]) || (o->nr_order && !o->order))
		return -EINVAL;
	for (uint32_t i = 0; i < o->nr_order; i++) {
		const struct pk_hist_by *b = &o->order[i];

		if (b->what < PK_HIST_BY_CHILDREN || b->what > PK_HIST_BY_KEY ||
		    (b->what == PK_HIST_BY_KEY &&
		     ((unsigned)b->key >= PK_HIST_KEY_MAX || !has_key(h, b->key))))
			return -EINVAL;
		h->order[i] = *b;
	}
	h->out.by = h->order;
	h->out.nr_by = o->nr_order;
	return 0;
}

/* perf's comparison of unresolved symbols is no total order: its lookups
 * are replayed when the symbol is a key.  With the DSO compared before
 * it, only unresolved keys can miss their entry; else any can. */
static void set_replay(struct pk_hist *h)
{
	for (uint32_t i = 0; i < h->nr_keys; i++) {
		if (h->keys[i] == PK_HIST_KEY_DSO) {
			h->stacks.log_mode = 1;
			break;
		}
		if (h->keys[i] == PK_HIST_KEY_SYM) {
			h->stacks.log_mode = 2;
			break;
		}
	}
	/* the replay does not rank trace or time values (nor adds a time
	 * key's sample once per frame): beside them a symbol key's lookups
	 * are taken as found */
	if (!has_key(h, PK_HIST_KEY_SYM) || has_key(h, PK_HIST_KEY_TRACE) ||
	    has_key(h, PK_HIST_KEY_TIME))
		h->stacks.log_mode = 0;
	h->stacks.log_frames = h->children;
}

int pk_hist_build(struct pk_hist **out, struct pk_session *s, const struct pk_hist_opts *opts)
{
	struct pk_hist_opts o = {.sz = sizeof(o)};
	struct pk_hist *h = calloc(1, sizeof(*h));
	struct pk_session_sample ev;
	int err;

	*out = NULL;
	if (opts)
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	err = !h ? -ENOMEM : set_keys(h, &o);
	if (!err)
		err = set_order(h, &o);
	if (!err)
		err = pki_hist_filter_init(&h->filter, &o);
	if (err)
		goto fail;
	h->children = o.children;
	h->callchain = o.callchain;
	h->nr_threads = o.nr_threads;
	h->max_stack = pki_hist_max_stack(o.max_stack, MAX_STACK);
	h->hide_unresolved = o.hide_unresolved;
	h->callchain_min_percent = o.callchain_min_percent > 0 ? o.callchain_min_percent : 0;
	h->out.elided = o.elided_keys;
	h->keep = o.keep;
	h->out.no_collapse = o.no_collapse;
	h->out.dso_from_fields = o.dso_from_fields;
	h->exclude_other = o.exclude_other;
	h->raw_trace = o.raw_trace;
	h->time_quantum = o.time_quantum ? o.time_quantum : 100000000; /* perf's 100 ms */
	if (has_key(h, PK_HIST_KEY_PARENT) || o.ignore_callees) {
		h->parent = calloc(1, sizeof(*h->parent));
		err = !h->parent ? -ENOMEM
				 : pki_parent_init(h->parent, has_key(h, PK_HIST_KEY_PARENT),
						   o.parent_regex, o.ignore_callees,
						   o.parent_order == PK_CALLCHAIN_CALLER);
		if (err)
			goto fail;
	}
	h->stack_thread = has_key(h, PK_HIST_KEY_PID) || h->filter.nr_pids || h->filter.nr_tids;
	set_replay(h);
	err = pki_pipe_start(&h->pipe, o.nr_threads != 1, fold_sample, hash_batch, prepare_batch,
			     h);
	if (err)
		goto fail;
	while ((err = pk_session_next(s, &ev)) > 0) {
		err = add_sample(h, s, &ev);
		if (err)
			break;
	}
	/* the worker stops before anything else touches the stacks */
	err = err < 0 ? (pki_pipe_finish(&h->pipe), err) : pki_pipe_finish(&h->pipe);
	pki_pipe_free(&h->pipe);
	if (err < 0)
		goto fail;
	/* after the samples: a pipe's header comes in the stream */
	err = pki_groups_init(&h->groups, s, o.group);
	if (err)
		goto fail;
	pki_stacks_seal(&h->stacks);
	err = add_stacks(h);
	pki_stacks_free(&h->stacks);
	if (err < 0)
		goto fail;
	h->lost = pk_session_lost_samples(s);
	err = pki_hist_finish(h);
	if (err)
		goto fail;
	*out = h;
	return 0;
fail:
	pk_hist_free(h);
	return err;
}

void pk_hist_free(struct pk_hist *h)
{
	if (!h)
		return;
	for (uint32_t i = 0; i < h->nr_events_alloc; i++) {
		free(h->events[i].v);
		free(h->events[i].slots);
		free(h->events[i].last_sample);
		free(h->events[i].members);
		free(h->events[i].values);
		free(h->events[i].created);
		free(h->events[i].order);
		free(h->events[i].node_order);
	}
	pki_pipe_free(&h->pipe);
	free(h->events);
	pki_groups_free(&h->groups);
	free(h->shown);
	for (int k = 0; k < PKI_HIST_PARTS; k++)
		pki_arena_free(&h->trees[k]);
	pki_stacks_free(&h->stacks);
	pki_strtab_free(&h->comms);
	pki_strtab_free(&h->traces);
	pki_strtab_free(&h->parents);
	if (h->parent)
		pki_parent_free(h->parent);
	free(h->parent);
	free(h->trace_buf);
	pki_hist_filter_free(&h->filter);
	free(h);
}

uint32_t pk_hist_nr_events(const struct pk_hist *h)
{
	return h ? h->nr_shown : 0;
}

const struct pk_hist_event *pk_hist_event(const struct pk_hist *h, uint32_t i)
{
	return h && i < h->nr_shown ? h->shown[i] : NULL;
}

uint64_t pk_hist_lost_samples(const struct pk_hist *h)
{
	return h ? h->lost : 0;
}

int pk_hist_key_parse(const char *name, size_t len)
{
	static const char *const names[PK_HIST_KEY_MAX] = {
		[PK_HIST_KEY_COMM] = "comm", [PK_HIST_KEY_PID] = "pid",
		[PK_HIST_KEY_DSO] = "dso",   [PK_HIST_KEY_SYM] = "sym",
		[PK_HIST_KEY_CPU] = "cpu",   [PK_HIST_KEY_TRACE] = "trace",
		[PK_HIST_KEY_PARENT] = "parent", [PK_HIST_KEY_TIME] = "time",
	};

	for (int i = 0; i < PK_HIST_KEY_MAX; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], name, len))
			return i;
	return -1;
}
