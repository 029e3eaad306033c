// SPDX-License-Identifier: MIT
/*
 * Trace Event Format (chrome://tracing, Perfetto UI): thread and process
 * names as metadata events, one instant event per sample on its thread
 * pointing into "stackFrames" (the profile's stack trie, so each unique
 * prefix is written once), and sched_switch slices as complete events.
 * Without a sample log (see pk_profile_opts) each unique stack becomes
 * one event carrying its sample count.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "export_internal.h"

static void write_names(struct pk_profile *p, FILE *out)
{
	char label[64];

	for (size_t i = 0; i < p->nr_threads; i++) {
		const struct pki_thread *t = &p->threads[i];

		fprintf(out,
			"{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,"
			"\"args\":{\"name\":",
			(int)t->pid, (int)t->tid);
		pki_json_str(out, pki_str(p, t->comm));
		fputs("}},\n", out);
		if (t->pid == t->tid) {
			fprintf(out,
				"{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,"
				"\"args\":{\"name\":",
				(int)t->pid);
			snprintf(label, sizeof(label), "%s", pki_str(p, t->comm));
			pki_json_str(out, label);
			fputs("}},\n", out);
		}
	}
}

static void write_frames(struct pk_profile *p, const uint32_t *names, FILE *out)
{
	fputs("\"stackFrames\":{", out);
	for (size_t i = 0; i < p->nr_nodes; i++) {
		const struct pki_node *n = &p->nodes[i];
		const struct pki_location *l = &p->locs[n->loc];

		fprintf(out, "%s\"%zu\":{\"name\":", i ? ",\n" : "", i);
		pki_json_str(out, pki_str(p, names[n->loc]));
		fputs(",\"category\":", out);
		pki_json_str(out, l->dso != PKI_NONE ? pki_str(p, l->dso) : "[unknown]");
		if (n->parent != PKI_NONE)
			fprintf(out, ",\"parent\":\"%u\"", n->parent);
		fputc('}', out);
	}
	fputs("}", out);
}

static void write_sample(struct pk_profile *p, const uint32_t *names, uint32_t thread,
			 uint32_t node, uint32_t event, uint64_t ts, uint64_t count, uint32_t cpu,
			 FILE *out)
{
	const struct pki_thread *t = &p->threads[thread];

	fputs("{\"ph\":\"i\",\"s\":\"t\",\"name\":", out);
	pki_json_str(out, node == PKI_NONE ? "[no stack]" : pki_str(p, names[p->nodes[node].loc]));
	fputs(",\"cat\":", out);
	pki_json_str(out, pki_str(p, p->events[event].name));
	fprintf(out, ",\"pid\":%d,\"tid\":%d,\"ts\":%llu.%03u", (int)t->pid, (int)t->tid,
		(unsigned long long)(ts / 1000), (unsigned int)(ts % 1000));
	if (node != PKI_NONE)
		fprintf(out, ",\"sf\":\"%u\"", node);
	fprintf(out, ",\"args\":{\"samples\":%llu", (unsigned long long)count);
	if (cpu != UINT32_MAX)
		fprintf(out, ",\"cpu\":%u", cpu);
	fputs("}},\n", out);
}

static uint64_t rel(const struct pk_profile *p, uint64_t t)
{
	return t == PK_NO_TIME || p->tmin == PK_NO_TIME || t < p->tmin ? 0 : t - p->tmin;
}

static int write_samples(struct pk_profile *p, const uint32_t *names, FILE *out)
{
	struct pki_logrec r;
	int err;

	if (pki_log_rewind(p)) {
		for (size_t i = 0; i < p->nr_entries; i++) {
			const struct pki_entry *e = &p->entries[i];

			write_sample(p, names, e->thread, e->node, e->event, 0, e->samples,
				     UINT32_MAX, out);
		}
		return 0;
	}
	while ((err = pki_log_read(p, &r)) > 0)
		write_sample(p, names, r.thread, r.node, r.event, rel(p, r.time), 1, r.cpu, out);
	return err;
}

struct tid_pid {
	int32_t tid, pid;
};

static int cmp_tid(const void *a, const void *b)
{
	int32_t x = ((const struct tid_pid *)a)->tid, y = ((const struct tid_pid *)b)->tid;

	return x < y ? -1 : x > y;
}

/* sched_switch names tasks by tid only: find their process from samples. */
static int32_t pid_of(const struct tid_pid *map, size_t n, int32_t tid)
{
	struct tid_pid key = {.tid = tid};
	const struct tid_pid *hit = n ? bsearch(&key, map, n, sizeof(*map), cmp_tid) : NULL;

	return hit ? hit->pid : tid;
}

static void write_slices(struct pk_profile *p, FILE *out)
{
	struct tid_pid *map = p->nr_slices ? malloc(p->nr_threads * sizeof(*map) + 1) : NULL;
	size_t nmap = 0;

	for (size_t i = 0; map && i < p->nr_threads; i++)
		map[nmap++] = (struct tid_pid){p->threads[i].tid, p->threads[i].pid};
	if (map)
		qsort(map, nmap, sizeof(*map), cmp_tid);
	for (size_t i = 0; i < p->nr_slices; i++) {
		const struct pki_slice *s = &p->slices[i];
		uint64_t start = rel(p, s->start), dur = s->end > s->start ? s->end - s->start : 0;
		int32_t pid = pid_of(map, nmap, s->tid);

		fprintf(out,
			"{\"ph\":\"X\",\"name\":\"running\",\"cat\":\"sched\",\"pid\":%d,"
			"\"tid\":%d,\"ts\":%llu.%03u,\"dur\":%llu.%03u,\"args\":{\"cpu\":%u}},\n",
			(int)pid, (int)s->tid, (unsigned long long)(start / 1000),
			(unsigned int)(start % 1000), (unsigned long long)(dur / 1000),
			(unsigned int)(dur % 1000), s->cpu);
	}
	free(map);
}

int pk_export_chrome(struct pk_profile *p, FILE *out)
{
	uint32_t *names = NULL;
	int err;

	if (pki_loc_names(p, &names)) {
		pki_profile_fail(p, "chrome: out of memory");
		return -ENOMEM;
	}
	fputs("{\"traceEvents\":[\n", out);
	write_names(p, out);
	write_slices(p, out);
	err = write_samples(p, names, out);
	/* a last metadata event, so that every event above ends with ',' */
	fputs("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"args\":{\"name\":\"perfkit\"}}"
	      "\n],\"displayTimeUnit\":\"ms\",\"otherData\":{\"source\":",
	      out);
	pki_json_str(out, p->title ? p->title : "perfkit");
	fputs("},\n", out);
	write_frames(p, names, out);
	fputs("}\n", out);
	free(names);
	if (err) {
		pki_profile_fail(p, "chrome: cannot read the sample log");
		return err;
	}
	return pki_export_finish(p, out);
}
