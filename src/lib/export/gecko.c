// SPDX-License-Identifier: MIT
/*
 * The Gecko profile format (version 24), which the Firefox Profiler opens
 * and upgrades: one thread object per profiled thread, each with its own
 * string, frame and stack tables and its samples in time order (from the
 * sample log; without it, one sample per unique stack).  Every table is
 * self-describing through its "schema", so columns are named, not guessed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "export_internal.h"

#define CAT_USER   0
#define CAT_KERNEL 1

/* Per-thread numbering of frames (by location) and stacks (by node). */
struct gecko_thread {
	uint32_t *frame_of;    /* location -> frame index or PKI_NONE */
	uint32_t *stack_of;    /* node -> stack index or PKI_NONE */
	uint32_t *frame_locs;  /* frame index -> location */
	uint32_t *stack_nodes; /* stack index -> node */
	uint32_t nr_frames, nr_stacks;
};

/* Number node and its unnumbered ancestors, prefixes first. */
static int number_stack(struct pk_profile *p, struct gecko_thread *g, uint32_t node)
{
	size_t n = 0;

	for (uint32_t x = node; x != PKI_NONE && g->stack_of[x] == PKI_NONE;
	     x = p->nodes[x].parent) {
		if (pki_grow((void **)&p->path, &p->cap_path, n, sizeof(*p->path)))
			return -ENOMEM;
		p->path[n++] = x;
	}
	while (n-- > 0) {
		uint32_t x = p->path[n], loc = p->nodes[x].loc;

		if (g->frame_of[loc] == PKI_NONE) {
			g->frame_locs[g->nr_frames] = loc;
			g->frame_of[loc] = g->nr_frames++;
		}
		g->stack_nodes[g->nr_stacks] = x;
		g->stack_of[x] = g->nr_stacks++;
	}
	return 0;
}

/*
 * The sample log regrouped by thread (a counting sort into a second
 * temporary file), so that each thread's samples are read once, in time
 * order, however many threads there are.
 */
struct split_log {
	FILE *f;
	uint64_t *start; /* first record of each thread */
};

struct split_rec {
	uint64_t time;
	uint32_t node, pad;
};

static int split_log(struct pk_profile *p, struct split_log *sl)
{
	uint64_t *next = calloc(p->nr_threads + 1, sizeof(*next));
	struct pki_logrec r;
	int err = -ENOMEM;

	sl->start = calloc(p->nr_threads + 1, sizeof(*sl->start));
	sl->f = NULL;
	if (!next || !sl->start)
		goto out;
	for (size_t t = 0; t < p->nr_threads; t++)
		sl->start[t + 1] = next[t + 1] = sl->start[t] + p->threads[t].nr_samples;
	memcpy(next, sl->start, p->nr_threads * sizeof(*next));
	err = -EIO;
	if (pki_log_rewind(p) || !(sl->f = tmpfile()))
		goto out;
	while ((err = pki_log_read(p, &r)) > 0) {
		struct split_rec sr = {.time = r.time, .node = r.node};

		if (r.thread >= p->nr_threads || next[r.thread] >= sl->start[r.thread + 1] ||
		    fseek(sl->f, (long)(next[r.thread]++ * sizeof(sr)), SEEK_SET) ||
		    fwrite(&sr, sizeof(sr), 1, sl->f) != 1) {
			err = -EIO;
			break;
		}
	}
out:
	free(next);
	if (err && sl->f) {
		fclose(sl->f);
		sl->f = NULL;
	}
	return err;
}

static void write_time(uint64_t ns, const struct pk_profile *p, FILE *out)
{
	uint64_t t = ns == PK_NO_TIME || ns < p->tmin ? 0 : ns - p->tmin;

	fprintf(out, "%llu.%06u", (unsigned long long)(t / 1000000), (unsigned int)(t % 1000000));
}

static void write_samples(struct pk_profile *p, struct gecko_thread *g, uint32_t thread,
			  const uint32_t *order, size_t from, size_t to, struct split_log *sl,
			  FILE *out)
{
	bool first = true;

	fputs("\"samples\":{\"schema\":{\"stack\":0,\"time\":1,\"responsiveness\":2},\"data\":[",
	      out);
	if (sl->f &&
	    fseek(sl->f, (long)(sl->start[thread] * sizeof(struct split_rec)), SEEK_SET) == 0) {
		struct split_rec sr;

		for (uint64_t i = sl->start[thread]; i < sl->start[thread + 1]; i++) {
			if (fread(&sr, sizeof(sr), 1, sl->f) != 1)
				break;
			if (sr.node == PKI_NONE)
				continue;
			fprintf(out, "%s[%u,", first ? "" : ",", g->stack_of[sr.node]);
			write_time(sr.time, p, out);
			fputs(",0]", out);
			first = false;
		}
	} else {
		for (size_t i = from; i < to; i++) {
			const struct pki_entry *e = &p->entries[order[i]];

			if (e->node == PKI_NONE)
				continue;
			fprintf(out, "%s[%u,0,0]", first ? "" : ",", g->stack_of[e->node]);
			first = false;
		}
	}
	fputs("]}", out);
}

static void write_tables(struct pk_profile *p, struct gecko_thread *g, const uint32_t *names,
			 FILE *out)
{
	fputs(",\"frameTable\":{\"schema\":{\"location\":0,\"relevantForJS\":1,"
	      "\"innerWindowID\":2,\"implementation\":3,\"optimizations\":4,\"line\":5,"
	      "\"column\":6,\"category\":7,\"subcategory\":8},\"data\":[",
	      out);
	/* string i of the thread is the name of frame i */
	for (uint32_t i = 0; i < g->nr_frames; i++)
		fprintf(out, "%s[%u,false,0,null,null,null,null,%d,0]", i ? "," : "", i,
			p->locs[g->frame_locs[i]].kernel ? CAT_KERNEL : CAT_USER);
	fputs("]},\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[", out);
	for (uint32_t i = 0; i < g->nr_stacks; i++) {
		const struct pki_node *n = &p->nodes[g->stack_nodes[i]];

		if (n->parent == PKI_NONE)
			fprintf(out, "%s[null,%u]", i ? "," : "", g->frame_of[n->loc]);
		else
			fprintf(out, "%s[%u,%u]", i ? "," : "", g->stack_of[n->parent],
				g->frame_of[n->loc]);
	}
	fputs("]},\"stringTable\":[", out);
	for (uint32_t i = 0; i < g->nr_frames; i++) {
		if (i)
			fputc(',', out);
		pki_json_str(out, pki_str(p, names[g->frame_locs[i]]));
	}
	fputs("]", out);
}

/* One thread: the run order[from, to) of its entries. */
static int write_thread(struct pk_profile *p, struct gecko_thread *g, const uint32_t *order,
			size_t from, size_t to, struct split_log *sl, const uint32_t *names,
			FILE *out)
{
	uint32_t thread = p->entries[order[from]].thread;
	const struct pki_thread *t = &p->threads[thread];

	/* forget the previous thread's numbering: only what it touched */
	for (uint32_t i = 0; i < g->nr_frames; i++)
		g->frame_of[g->frame_locs[i]] = PKI_NONE;
	for (uint32_t i = 0; i < g->nr_stacks; i++)
		g->stack_of[g->stack_nodes[i]] = PKI_NONE;
	g->nr_frames = g->nr_stacks = 0;
	for (size_t i = from; i < to; i++)
		if (p->entries[order[i]].node != PKI_NONE &&
		    number_stack(p, g, p->entries[order[i]].node))
			return -ENOMEM;
	fputs("{\"name\":", out);
	pki_json_str(out, pki_str(p, t->comm));
	fputs(",\"processName\":", out);
	pki_json_str(out, pki_str(p, t->comm));
	fprintf(out,
		",\"processType\":\"default\",\"pid\":%d,\"tid\":%d,\"registerTime\":0,"
		"\"unregisterTime\":null,\"markers\":{\"schema\":{\"name\":0,\"startTime\":1,"
		"\"endTime\":2,\"phase\":3,\"category\":4,\"data\":5},\"data\":[]},",
		(int)t->pid, (int)t->tid);
	write_samples(p, g, thread, order, from, to, sl, out);
	write_tables(p, g, names, out);
	fputc('}', out);
	return 0;
}

static void write_meta(struct pk_profile *p, FILE *out)
{
	uint64_t dur = p->tmax > p->tmin && p->tmin != PK_NO_TIME ? p->tmax - p->tmin : 0;

	fprintf(out,
		"{\"meta\":{\"version\":24,\"interval\":1,\"startTime\":0,"
		"\"shutdownTime\":%llu.%06u,\"processType\":0,\"product\":",
		(unsigned long long)(dur / 1000000), (unsigned int)(dur % 1000000));
	pki_json_str(out, p->cmdline ? p->cmdline : (p->title ? p->title : "perfkit"));
	fputs(",\"stackwalk\":1,\"debug\":false,\"gcpoke\":false,\"asyncstack\":false,"
	      "\"presymbolicated\":true,\"abi\":\"\",\"misc\":\"\",\"oscpu\":\"\","
	      "\"platform\":\"Linux\",\"toolkit\":\"\",\"appBuildID\":\"\",\"sourceURL\":\"\","
	      "\"extensions\":{\"schema\":{\"id\":0,\"name\":1,\"baseURL\":2},\"data\":[]},"
	      "\"markerSchema\":[],\"categories\":["
	      "{\"name\":\"User\",\"color\":\"yellow\",\"subcategories\":[\"Other\"]},"
	      "{\"name\":\"Kernel\",\"color\":\"orange\",\"subcategories\":[\"Other\"]}]},"
	      "\"libs\":[],\"pausedRanges\":[],\"processes\":[],\"threads\":[",
	      out);
}

int pk_export_gecko(struct pk_profile *p, FILE *out)
{
	struct gecko_thread g = {0};
	struct split_log sl = {0};
	uint32_t *names = NULL, *order = NULL;
	int err = -ENOMEM;
	size_t nl = p->nr_locs ? p->nr_locs : 1, nn = p->nr_nodes ? p->nr_nodes : 1;

	g.frame_of = malloc(nl * sizeof(uint32_t));
	g.frame_locs = malloc(nl * sizeof(uint32_t));
	g.stack_of = malloc(nn * sizeof(uint32_t));
	g.stack_nodes = malloc(nn * sizeof(uint32_t));
	if (!g.frame_of || !g.frame_locs || !g.stack_of || !g.stack_nodes ||
	    pki_loc_names(p, &names) || pki_entry_order(p, &order))
		goto out;
	memset(g.frame_of, 0xff, nl * sizeof(uint32_t));
	memset(g.stack_of, 0xff, nn * sizeof(uint32_t));
	if (split_log(p, &sl) == -ENOMEM)
		goto out; /* without a log (-EIO), aggregated stacks stand in */
	write_meta(p, out);
	for (size_t i = 0, j; i < p->nr_entries; i = j) {
		for (j = i + 1; j < p->nr_entries &&
				p->entries[order[j]].thread == p->entries[order[i]].thread;
		     j++)
			;
		if (i)
			fputc(',', out);
		if (write_thread(p, &g, order, i, j, &sl, names, out))
			goto out;
	}
	fputs("]}\n", out);
	err = pki_export_finish(p, out);
out:
	if (err == -ENOMEM)
		pki_profile_fail(p, "gecko: out of memory");
	free(g.frame_of);
	free(g.frame_locs);
	free(g.stack_of);
	free(g.stack_nodes);
	free(names);
	free(order);
	free(sl.start);
	if (sl.f)
		fclose(sl.f);
	return err;
}
