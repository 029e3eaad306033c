// SPDX-License-Identifier: MIT
/*
 * Which DSOs the samples hit, for the BUILD_ID feature.  The maps of every
 * process are followed as the records go by (MMAP/MMAP2 add, FORK copies
 * the parent's, an exec COMM clears); a sample's IP is looked up in the
 * maps of its process (the kernel's for kernel samples).  At the end the
 * build id of every DSO hit is read from its ELF note.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perfkit/buildid.h>
#include "internal.h"
#include "recorder_internal.h"

#define KERNEL_KEY	 (-1)
#define NR_BUCKETS	 4096
#define MAX_MAPS_PER_PID 65536

struct dmap {
	uint64_t start, end;
	uint32_t dso;
};

struct pmaps {
	int pid;
	struct pmaps *next;
	struct dmap *v;
	size_t n, cap;
	size_t last;
};

struct dso {
	char *name;
	struct pk_build_id bid; /* as written to BUILD_ID */
	bool written;
	bool hit;
	bool kernel;
	uint32_t idx;
	struct dso *next; /* hash chain */
};

struct pki_rec_dsos {
	uint64_t sample_type;
	int ip_pos, tid_pos; /* byte offsets in a sample, or -1 */
	struct pmaps *pids[NR_BUCKETS];
	struct dso **dsos; /* by index */
	uint32_t nr_dsos, cap_dsos;
	struct dso *by_name[NR_BUCKETS];
	struct pmaps *last;
};

struct pki_rec_dsos *pki_rec_dsos_new(uint64_t sample_type)
{
	struct pki_rec_dsos *d = calloc(1, sizeof(*d));
	int pos = 8;

	if (!d)
		return NULL;
	d->sample_type = sample_type;
	pos += sample_type & PERF_SAMPLE_IDENTIFIER ? 8 : 0;
	d->ip_pos = sample_type & PERF_SAMPLE_IP ? pos : -1;
	pos += sample_type & PERF_SAMPLE_IP ? 8 : 0;
	d->tid_pos = sample_type & PERF_SAMPLE_TID ? pos : -1;
	return d;
}

void pki_rec_dsos_free(struct pki_rec_dsos *d)
{
	if (!d)
		return;
	for (int i = 0; i < NR_BUCKETS; i++) {
		for (struct pmaps *p = d->pids[i], *n; p; p = n) {
			n = p->next;
			free(p->v);
			free(p);
		}
	}
	for (uint32_t i = 0; i < d->nr_dsos; i++) {
		free(d->dsos[i]->name);
		free(d->dsos[i]);
	}
	free(d->dsos);
	free(d);
}

static unsigned int hash_str(const char *s)
{
	unsigned int h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h % NR_BUCKETS;
}

static int dso_index(struct pki_rec_dsos *d, const char *name, bool kernel)
{
	unsigned int h = hash_str(name);
	struct dso *o;

	for (o = d->by_name[h]; o; o = o->next)
		if (!strcmp(o->name, name))
			goto found;
	if (d->nr_dsos == d->cap_dsos) {
		uint32_t ncap = d->cap_dsos ? d->cap_dsos * 2 : 64;
		struct dso **n = realloc(d->dsos, ncap * sizeof(*n));

		if (!n)
			return -1;
		d->dsos = n;
		d->cap_dsos = ncap;
	}
	o = calloc(1, sizeof(*o));
	if (!o || !(o->name = strdup(name))) {
		free(o);
		return -1;
	}
	o->kernel = kernel;
	o->idx = d->nr_dsos;
	o->next = d->by_name[h];
	d->by_name[h] = o;
	d->dsos[d->nr_dsos++] = o;
found:
	return (int)o->idx;
}

static struct pmaps *pid_maps(struct pki_rec_dsos *d, int pid, bool create)
{
	unsigned int h = (unsigned int)pid % NR_BUCKETS;
	struct pmaps *p;

	if (d->last && d->last->pid == pid)
		return d->last;
	for (p = d->pids[h]; p; p = p->next)
		if (p->pid == pid)
			return d->last = p;
	if (!create || !(p = calloc(1, sizeof(*p))))
		return NULL;
	p->pid = pid;
	p->next = d->pids[h];
	d->pids[h] = p;
	return d->last = p;
}

static void add_map(struct pki_rec_dsos *d, int pid, uint64_t start, uint64_t len, const char *name,
		    bool kernel)
{
	struct pmaps *p = pid_maps(d, pid, true);
	int idx;

	if (!p || !len || p->n >= MAX_MAPS_PER_PID)
		return;
	idx = dso_index(d, name, kernel);
	if (idx < 0)
		return;
	if (p->n == p->cap) {
		size_t ncap = p->cap ? p->cap * 2 : 16;
		struct dmap *n = realloc(p->v, ncap * sizeof(*n));

		if (!n)
			return;
		p->v = n;
		p->cap = ncap;
	}
	p->v[p->n++] = (struct dmap){start, start + len, (uint32_t)idx};
}

static void hit(struct pki_rec_dsos *d, int pid, uint64_t ip)
{
	struct pmaps *p = pid_maps(d, pid, false);

	if (!p || !p->n)
		return;
	if (p->last < p->n && ip >= p->v[p->last].start && ip < p->v[p->last].end)
		goto mark;
	/* newest first: a later map over the same range wins */
	for (size_t i = p->n; i-- > 0;) {
		if (ip >= p->v[i].start && ip < p->v[i].end) {
			p->last = i;
			goto mark;
		}
	}
	return;
mark:
	d->dsos[p->v[p->last].dso]->hit = true;
}

static void copy_maps(struct pki_rec_dsos *d, int child, int parent)
{
	struct pmaps *pp = pid_maps(d, parent, false), *cp;

	if (!pp || !pp->n)
		return;
	cp = pid_maps(d, child, true);
	if (!cp || cp->n)
		return;
	cp->v = malloc(pp->n * sizeof(*cp->v));
	if (!cp->v)
		return;
	memcpy(cp->v, pp->v, pp->n * sizeof(*cp->v));
	cp->n = cp->cap = pp->n;
}

/* NUL-terminated string at off within the record, or NULL. */
static const char *rec_string(const uint8_t *rec, size_t size, size_t off)
{
	if (off >= size || !memchr(rec + off, 0, size - off))
		return NULL;
	return (const char *)rec + off;
}

void pki_rec_dsos_record(struct pki_rec_dsos *d, const void *recp, size_t size)
{
	const uint8_t *rec = recp;
	const struct perf_event_header *h = recp;
	uint32_t pid, ppid;
	uint64_t a, l;
	const char *name;
	bool kernel = (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		if (d->ip_pos < 0 || (size_t)d->ip_pos + 8 > size)
			return;
		memcpy(&a, rec + d->ip_pos, 8);
		if (kernel) {
			hit(d, KERNEL_KEY, a);
		} else if (d->tid_pos >= 0 && (size_t)d->tid_pos + 4 <= size) {
			memcpy(&pid, rec + d->tid_pos, 4);
			hit(d, (int)pid, a);
		}
		return;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (size < 40)
			return;
		memcpy(&pid, rec + 8, 4);
		memcpy(&a, rec + 16, 8);
		memcpy(&l, rec + 24, 8);
		name = rec_string(rec, size, h->type == PERF_RECORD_MMAP ? 40 : 72);
		if (name)
			add_map(d, kernel ? KERNEL_KEY : (int)pid, a, l, name, kernel);
		return;
	case PERF_RECORD_FORK:
		if (size < 24)
			return;
		memcpy(&pid, rec + 8, 4);
		memcpy(&ppid, rec + 12, 4);
		if (pid != ppid)
			copy_maps(d, (int)pid, (int)ppid);
		return;
	case PERF_RECORD_COMM:
		if (size >= 16 && (h->misc & PERF_RECORD_MISC_COMM_EXEC)) {
			struct pmaps *p;

			memcpy(&pid, rec + 8, 4);
			p = pid_maps(d, (int)pid, false);
			if (p)
				p->n = p->last = 0;
		}
		return;
	default:
		return;
	}
}

/* Build id from an ELF note block; 0 when none. */
static size_t note_build_id(const uint8_t *p, size_t len, uint8_t out[20])
{
	size_t off = 0;

	while (off + 12 <= len) {
		uint32_t namesz, descsz, type;
		size_t name_off, desc_off;

		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		name_off = off + 12;
		if (namesz > len || descsz > len)
			return 0;
		desc_off = name_off + ((namesz + 3u) & ~3u);
		if (desc_off > len || descsz > len - desc_off)
			return 0;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p + name_off, "GNU", 4) &&
		    descsz > 0 && descsz <= 20) {
			memcpy(out, p + desc_off, descsz);
			return descsz;
		}
		off = desc_off + ((descsz + 3u) & ~3u);
	}
	return 0;
}

static size_t elf_build_id(const char *path, uint8_t out[20])
{
	struct pk_build_id bid;

	if (pk_elf_build_id(path, &bid) || bid.size > 20)
		return 0;
	memcpy(out, bid.data, bid.size);
	return bid.size;
}

static size_t kernel_build_id(uint8_t out[20])
{
	uint8_t buf[4096];
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n > 0 ? note_build_id(buf, (size_t)n, out) : 0;
}

static void add_entry(struct pk_writer *w, struct dso *o, uint16_t misc, const uint8_t *id,
		      size_t n, const char *name)
{
	if (!n || pk_writer_add_build_id(w, misc, -1, id, n, name))
		return;
	o->written = true;
	o->bid.size = (uint8_t)n;
	memcpy(o->bid.data, id, n);
}

/* perf lists the vdso whenever a process mapped it, hit or not, with the
 * running kernel's build id (read from perfkit's own vdso, as perf does). */
static void add_vdso(struct pk_writer *w, struct dso *o)
{
	struct pk_build_id bid;

	if (!pk_vdso_build_id(&bid))
		add_entry(w, o, PERF_RECORD_MISC_USER, bid.data, bid.size, o->name);
}

void pki_rec_dsos_write_build_ids(struct pki_rec_dsos *d, struct pk_writer *w)
{
	bool kernel_done = false;

	for (uint32_t i = 0; i < d->nr_dsos; i++) {
		struct dso *o = d->dsos[i];
		uint8_t id[20];
		size_t n;

		if (!o->kernel && !strcmp(o->name, PK_BUILDID_VDSO)) {
			add_vdso(w, o);
			continue;
		}
		if (!o->hit)
			continue;
		if (o->kernel && !strncmp(o->name, "[kernel.kallsyms]", 17)) {
			if (kernel_done)
				continue;
			kernel_done = true;
			n = kernel_build_id(id);
			add_entry(w, o, PERF_RECORD_MISC_KERNEL, id, n, "[kernel.kallsyms]");
			continue;
		}
		if (o->name[0] != '/')
			continue; /* //anon, modules without a path */
		n = elf_build_id(o->name, id);
		add_entry(w, o, o->kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER, id, n,
			  o->name);
	}
}

void pki_rec_dsos_fill_cache(struct pki_rec_dsos *d, const char *dir)
{
	struct pk_buildid_cache_opts co = {.sz = sizeof(co), .dir = dir};
	struct pk_buildid_cache *c;

	if (pk_buildid_cache_open(&c, &co)) {
		pki_debug("build-id cache: %s", pk_buildid_cache_error(c));
		pk_buildid_cache_close(c);
		return;
	}
	for (uint32_t i = 0; i < d->nr_dsos; i++) {
		struct dso *o = d->dsos[i];
		const char *name = o->kernel && o->name[0] == '[' ? PK_BUILDID_KALLSYMS : o->name;

		/* a failure costs perf report its names, not the recording */
		if (o->written && pk_buildid_cache_add(c, name, &o->bid) < 0)
			pki_debug("build-id cache: %s", pk_buildid_cache_error(c));
	}
	pk_buildid_cache_close(c);
}
