// SPDX-License-Identifier: MIT
/*
 * perfkit report --tasks: the recorded tasks as perf report --tasks shows
 * them, each under the task that forked it.  Only what perf's machine
 * builds from COMM, FORK and user MMAP records counts (perf does not
 * resolve samples in this mode); a FORK of a tid still in use replaces
 * that task.  Tasks are visited as perf keeps them, by tid in 256 tables
 * (tid % 256, then by tid): the trees and their roots come in that order.
 *
 * --mmaps adds each task's maps as perf's machine has them at the end:
 * threads share their process's, a forked process starts with a copy of
 * its parent's (not for perf's own synthesized forks), an exec keeps
 * them, and a new map cuts away what it overlaps of older ones.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "cli.h"

struct tmap {
	uint64_t start, end, pgoff, ino;
	uint32_t prot, flags;
	char *name;
};

/* A process's maps, by start, shared by its threads. */
struct tmaps {
	struct tmap *v;
	size_t nr, alloc;
	unsigned refs;
};

struct task {
	int32_t pid, tid, ppid;
	char *comm;
	bool comm_set;		/* named by a COMM (or a named parent) */
	bool gone;		/* replaced by a later FORK of its tid */
	bool listed;
	struct tmaps *maps;
	uint32_t first_child, next_sibling, last_child; /* index + 1, 0: none */
};

struct tasks {
	struct task *v;
	size_t nr, alloc;
};

static struct tmaps *maps_new(void)
{
	struct tmaps *m = calloc(1, sizeof(*m));

	if (m)
		m->refs = 1;
	return m;
}

static void maps_put(struct tmaps *m)
{
	if (!m || --m->refs)
		return;
	for (size_t i = 0; i < m->nr; i++)
		free(m->v[i].name);
	free(m->v);
	free(m);
}

/* Room for one more, then map at index i (its name taken). */
static int maps_insert_at(struct tmaps *m, size_t i, const struct tmap *map)
{
	if (m->nr == m->alloc) {
		size_t n = m->alloc ? m->alloc * 2 : 16;
		struct tmap *v = realloc(m->v, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		m->v = v;
		m->alloc = n;
	}
	memmove(&m->v[i + 1], &m->v[i], (m->nr - i) * sizeof(*m->v));
	m->v[i] = *map;
	m->nr++;
	return 0;
}

static size_t maps_pos(const struct tmaps *m, uint64_t start)
{
	size_t i = 0;

	while (i < m->nr && m->v[i].start <= start)
		i++;
	return i;
}

static int maps_add(struct tmaps *m, const struct tmap *map)
{
	struct tmap copy = *map;

	copy.name = strdup(map->name);
	if (!copy.name || maps_insert_at(m, maps_pos(m, copy.start), &copy)) {
		free(copy.name);
		return -ENOMEM;
	}
	return 0;
}

/* perf's maps__fixup_overlappings() then insert: what map overlaps of
 * older maps goes, the parts of them before and after it stay */
static int maps_insert(struct tmaps *m, const struct tmap *map)
{
	for (size_t i = 0; i < m->nr;) {
		struct tmap old = m->v[i];
		int err = 0;

		if (old.end <= map->start || old.start >= map->end) {
			i++;
			continue;
		}
		memmove(&m->v[i], &m->v[i + 1], (m->nr - i - 1) * sizeof(*m->v));
		m->nr--;
		if (old.start < map->start) {
			struct tmap before = old;

			before.end = map->start;
			err = maps_add(m, &before);
		}
		if (!err && old.end > map->end) {
			struct tmap after = old;

			after.pgoff += map->end - old.start;
			after.start = map->end;
			err = maps_add(m, &after);
		}
		free(old.name);
		if (err)
			return err;
		i = 0; /* the pieces were put back in order: look again */
		while (i < m->nr && m->v[i].end <= map->start)
			i++;
	}
	return maps_add(m, map);
}

static struct tmaps *maps_clone(const struct tmaps *from)
{
	struct tmaps *m = maps_new();

	for (size_t i = 0; m && from && i < from->nr; i++) {
		if (maps_add(m, &from->v[i])) {
			maps_put(m);
			return NULL;
		}
	}
	return m;
}

static struct task *find(struct tasks *t, int32_t tid)
{
	for (size_t i = t->nr; i-- > 0;)
		if (!t->v[i].gone && t->v[i].tid == tid)
			return &t->v[i];
	return NULL;
}

static struct task *add(struct tasks *t, int32_t pid, int32_t tid)
{
	char name[16];

	if (t->nr == t->alloc) {
		size_t n = t->alloc ? t->alloc * 2 : 256;
		struct task *v = realloc(t->v, n * sizeof(*v));

		if (!v)
			return NULL;
		t->v = v;
		t->alloc = n;
	}
	snprintf(name, sizeof(name), ":%d", tid);
	t->v[t->nr] = (struct task){.pid = pid, .tid = tid, .ppid = -1, .comm = strdup(name)};
	if (!t->v[t->nr].comm)
		return NULL;
	return &t->v[t->nr++];
}

/* perf's findnew: a thread of another process brings its leader */
static struct task *findnew(struct tasks *t, int32_t pid, int32_t tid)
{
	struct task *k = find(t, tid);

	if (k) {
		if (k->pid == -1 && pid != -1)
			k->pid = pid;
		return k;
	}
	if (!add(t, pid, tid))
		return NULL;
	if (pid != -1 && pid != tid && !find(t, pid) && !findnew(t, pid, pid))
		return NULL;
	k = find(t, tid);
	if (pid != -1 && pid != tid) {
		struct task *leader = find(t, pid);

		k->maps = leader->maps;
		if (k->maps)
			k->maps->refs++;
	} else {
		k->maps = maps_new();
	}
	return k->maps ? k : NULL;
}

static int set_comm(struct task *k, const char *comm)
{
	char *c = strdup(comm);

	if (!c)
		return -ENOMEM;
	free(k->comm);
	k->comm = c;
	k->comm_set = true;
	return 0;
}

/* perf's FORK: the tid's task replaced; a new process gets a copy of the
 * parent's maps (not at perf's own synthesized forks), and the parent's
 * name when it has one */
static int fork_task(struct tasks *t, const struct pk_record *rec, const struct pk_record_fields *f)
{
	struct task *k = find(t, (int32_t)f->task.tid), *parent;
	struct tmaps *copy = NULL;
	char *comm = NULL;
	int32_t ptid;

	if (k)
		k->gone = true;
	parent = findnew(t, (int32_t)f->task.ppid, (int32_t)f->task.ptid);
	if (!parent)
		return -ENOMEM;
	ptid = parent->tid;
	/* copied now: the parent moves when the array grows */
	if (parent->pid != (int32_t)f->task.pid && !(rec->misc & PERF_RECORD_MISC_FORK_EXEC) &&
	    !(copy = maps_clone(parent->maps)))
		return -ENOMEM;
	if (parent->comm_set && !(comm = strdup(parent->comm))) {
		maps_put(copy);
		return -ENOMEM;
	}
	k = findnew(t, (int32_t)f->task.pid, (int32_t)f->task.tid);
	if (!k) {
		maps_put(copy);
		free(comm);
		return -ENOMEM;
	}
	k->ppid = ptid;
	if (copy) {
		maps_put(k->maps);
		k->maps = copy;
	}
	if (comm) {
		free(k->comm);
		k->comm = comm;
		k->comm_set = true;
	}
	return 0;
}

static int process(struct tasks *t, const struct pk_record *rec)
{
	struct pk_record_fields f;
	const char *why = NULL;
	struct task *k;
	uint8_t cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;

	if (rec->type != PK_RECORD_COMM && rec->type != PK_RECORD_FORK &&
	    rec->type != PK_RECORD_MMAP && rec->type != PK_RECORD_MMAP2)
		return 0;
	if (pk_record_decode(rec, &f, &why))
		return 0;
	switch (rec->type) {
	case PK_RECORD_COMM:
		k = findnew(t, (int32_t)f.comm.pid, (int32_t)f.comm.tid);
		return k ? set_comm(k, f.comm.comm) : -ENOMEM;
	case PK_RECORD_FORK:
		return fork_task(t, rec, &f);
	default:
		/* kernel maps make no task in perf */
		if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL)
			return 0;
		k = findnew(t, (int32_t)f.mmap.pid, (int32_t)f.mmap.tid);
		if (!k)
			return -ENOMEM;
		return maps_insert(k->maps, &(struct tmap){
			.start = f.mmap.addr, .end = f.mmap.addr + f.mmap.len, .pgoff = f.mmap.pgoff,
			/* perf's MMAP (v1) maps are code unless marked data */
			.prot = rec->type == PK_RECORD_MMAP2 ? f.mmap.prot
				: rec->misc & PERF_RECORD_MISC_MMAP_DATA ? 0 : PROT_EXEC,
			.flags = rec->type == PK_RECORD_MMAP2 ? f.mmap.flags : 0,
			.ino = rec->type == PK_RECORD_MMAP2 && !f.mmap.has_build_id ? f.mmap.ino : 0,
			.name = (char *)f.mmap.filename});
	}
}

/* perf's table order: tid % 256 (as unsigned), then tid */
static int by_table(const void *a, const void *b)
{
	const struct task *x = *(const struct task *const *)a, *y = *(const struct task *const *)b;
	uint32_t tx = (uint32_t)x->tid % 256, ty = (uint32_t)y->tid % 256;

	if (tx != ty)
		return tx < ty ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static void print_maps(FILE *out, const struct tmaps *m, int indent)
{
	for (size_t i = 0; m && i < m->nr; i++) {
		const struct tmap *p = &m->v[i];

		fprintf(out, "%*s  %" PRIx64 "-%" PRIx64 " %c%c%c%c %08" PRIx64 " %" PRIu64 " %s\n",
			indent, "", p->start, p->end, p->prot & PROT_READ ? 'r' : '-',
			p->prot & PROT_WRITE ? 'w' : '-', p->prot & PROT_EXEC ? 'x' : '-',
			p->flags & MAP_SHARED ? 's' : 'p', p->pgoff, p->ino, p->name);
	}
}

static void print_level(FILE *out, const struct tasks *t, const struct task *k, int level,
			bool mmaps)
{
	int indent = fprintf(out, "  %8d %8d %8d |%*s", k->pid, k->tid, k->ppid, level, "");

	fprintf(out, "%s\n", k->comm);
	if (mmaps)
		print_maps(out, k->maps, indent);
	for (uint32_t c = k->first_child; c && level < 1024; c = t->v[c - 1].next_sibling)
		print_level(out, t, &t->v[c - 1], level + 1, mmaps);
}

static void add_child(struct tasks *t, struct task *parent, struct task *k)
{
	uint32_t i = (uint32_t)(k - t->v) + 1;

	if (parent->last_child)
		t->v[parent->last_child - 1].next_sibling = i;
	else
		parent->first_child = i;
	parent->last_child = i;
}

/* perf links each task under its parent, up to a root, which joins the
 * roots' list when first reached; a missing parent fails it all */
static int link_all(struct tasks *t, struct task **order, size_t n, struct task **roots,
		    size_t *nr_roots)
{
	for (size_t i = 0; i < n; i++) {
		struct task *k = order[i];

		for (size_t depth = 0; k && !k->listed && depth < t->nr; depth++) {
			struct task *parent;

			if (k->ppid == -1) {
				k->listed = true;
				roots[(*nr_roots)++] = k;
				break;
			}
			parent = find(t, k->ppid);
			if (!parent)
				return -ENOENT;
			k->listed = true;
			add_child(t, parent, k);
			k = parent;
		}
	}
	return 0;
}

int report_tasks(struct pk_reader *r, FILE *out, bool mmaps)
{
	struct tasks t = {0};
	const struct pk_record *rec;
	struct task **order = NULL, **roots = NULL;
	size_t n = 0, nr_roots = 0;
	int err = 0, rc;

	/* perf's idle thread */
	if (!findnew(&t, 0, 0) || set_comm(&t.v[0], "swapper"))
		err = -ENOMEM;
	while (!err && (rc = pk_reader_next(r, &rec)) > 0)
		err = process(&t, rec);
	if (!err && rc < 0) {
		fprintf(stderr, "perfkit: %s\n", pk_reader_error(r));
		err = rc;
	}
	if (!err) {
		order = malloc(t.nr * sizeof(*order));
		roots = malloc(t.nr * sizeof(*roots));
		if (!order || !roots)
			err = -ENOMEM;
	}
	for (size_t i = 0; !err && i < t.nr; i++)
		if (!t.v[i].gone)
			order[n++] = &t.v[i];
	if (!err) {
		qsort(order, n, sizeof(*order), by_table);
		err = link_all(&t, order, n, roots, &nr_roots);
		if (err == -ENOENT)
			fputs("Error: failed to process tasks\n", stderr);
	}
	if (!err) {
		fprintf(out, "# %8s %8s %8s  %s\n", "pid", "tid", "ppid", "comm");
		for (size_t i = 0; i < nr_roots; i++)
			print_level(out, &t, roots[i], 0, mmaps);
	}
	for (size_t i = 0; i < t.nr; i++) {
		free(t.v[i].comm);
		maps_put(t.v[i].maps);
	}
	free(t.v);
	free(order);
	free(roots);
	return err;
}
