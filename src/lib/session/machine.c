// SPDX-License-Identifier: MIT
/*
 * Machine state from non-sample records: COMM, FORK, MMAP and MMAP2 build
 * the threads and their maps; the kernel's MMAP says where it was loaded
 * and which symbol (_text) to relocate kallsyms by.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "session_internal.h"
#include "internal.h"

#define KERNEL_MMAP_PREFIX "[kernel.kallsyms]"

static const struct pk_build_id *header_build_id(struct pk_session *s, const char *name)
{
	const struct pk_header *h = pk_reader_header(s->reader);
	static struct pk_build_id bid;

	for (uint32_t i = 0; h && i < h->nr_build_ids; i++) {
		const struct pk_build_id_entry *e = &h->build_ids[i];

		if (e->filename && !strcmp(e->filename, name) && e->build_id_size) {
			bid.size = e->build_id_size > 32 ? 32 : e->build_id_size;
			memcpy(bid.data, e->build_id, bid.size);
			return &bid;
		}
	}
	return NULL;
}

static bool is_anon(const char *f)
{
	return !strcmp(f, "//anon") || !strncmp(f, "/dev/zero", 9) ||
	       !strncmp(f, "/anon_hugepage", 14) || !strncmp(f, "[anon:", 6);
}

static bool is_no_dso(const char *f)
{
	return !strncmp(f, "[stack", 6) || !strncmp(f, "/SYSV", 5) || !strcmp(f, "[heap]");
}

static struct pki_maps *kernel_maps(struct pk_session *s)
{
	if (!s->kernel_maps) {
		s->kernel_maps = pki_maps_new();
		pki_maps_stamp(s, s->kernel_maps);
	}
	return s->kernel_maps;
}

/* Every change of a maps takes a new version (see pki_maps_stamp()). */
static int maps_insert(struct pk_session *s, struct pki_maps *m, const struct pki_map *map)
{
	int err = pki_maps_insert(m, map);

	pki_maps_stamp(s, m);
	return err;
}

/* perf names a module's DSO "[name]": base name without ".ko..." and
 * with '-' as '_'. */
static const char *module_name(const char *path, char *buf, size_t len)
{
	const char *base = strrchr(path, '/');
	size_t n;

	if (path[0] == '[' || len < 4)
		return path;
	base = base ? base + 1 : path;
	n = strcspn(base, ".");
	if (n > len - 3)
		n = len - 3;
	buf[0] = '[';
	for (size_t i = 0; i < n; i++)
		buf[1 + i] = base[i] == '-' ? '_' : base[i];
	buf[1 + n] = ']';
	buf[2 + n] = '\0';
	return buf;
}

static int kernel_mmap(struct pk_session *s, const struct pk_record_fields *f)
{
	const char *name = f->mmap.filename;
	struct pki_map map = {.start = f->mmap.addr, .end = f->mmap.addr + f->mmap.len};
	struct pki_maps *km = kernel_maps(s);
	bool main_kernel = !strncmp(name, KERNEL_MMAP_PREFIX, strlen(KERNEL_MMAP_PREFIX));
	const struct pk_build_id *bid;

	if (!km)
		return -ENOMEM;
	if (map.end < map.start || map.end == map.start)
		map.end = UINT64_MAX;
	if (main_kernel) {
		const char *ref = name + strlen(KERNEL_MMAP_PREFIX);

		bid = header_build_id(s, KERNEL_MMAP_PREFIX);
		map.dso = pki_dso_findnew(s, KERNEL_MMAP_PREFIX, bid, true);
		s->kernel_dso = map.dso;
		s->have_kernel_mmap = true;
		if (*ref == '_' || *ref == '.') {
			free((char *)s->kref_name);
			s->kref_name = strdup(ref + (*ref == '.'));
			s->kref_addr = f->mmap.pgoff;
		}
	} else {
		char mod[256];

		/* modules listed in the build-id table keep their path as name,
		 * but are still "[mod]" in report */
		bid = header_build_id(s, name);
		if (bid) {
			map.dso = pki_dso_findnew(s, name, bid, true);
			if (map.dso) {
				module_name(name, map.dso->jit_name, sizeof(map.dso->jit_name));
				map.dso->short_name = map.dso->jit_name;
			}
		}
		else
			map.dso = pki_dso_findnew(s, module_name(name, mod, sizeof(mod)),
						  f->mmap.has_build_id ? &f->mmap.build_id : NULL,
						  true);
	}
	if (!map.dso)
		return -ENOMEM;
	return maps_insert(s, km, &map);
}

static int user_mmap(struct pk_session *s, const struct pk_record *rec,
		     const struct pk_record_fields *f)
{
	const char *name = f->mmap.filename;
	struct pk_thread *t = pki_thread_findnew(s, (int32_t)f->mmap.pid, (int32_t)f->mmap.tid);
	struct pki_map map = {.start = f->mmap.addr, .end = f->mmap.addr + f->mmap.len,
			      .pgoff = f->mmap.pgoff};
	bool exec = rec->type == PK_RECORD_MMAP || (f->mmap.prot & PROT_EXEC);
	const struct pk_build_id *bid;
	char jit[64];

	if (!t || !t->maps)
		return -ENOMEM;
	if (map.end <= map.start)
		return 0; /* empty or wrapping: nothing can land in it */
	/* old kernels put the vdso's address in pgoff; perf ignores it */
	if (!strcmp(name, "[vdso]"))
		map.pgoff = 0;
	if ((is_anon(name) || is_no_dso(name)) && exec) {
		snprintf(jit, sizeof(jit), "/tmp/perf-%d.map", (int32_t)f->mmap.pid);
		name = jit;
	}
	bid = f->mmap.has_build_id ? &f->mmap.build_id : header_build_id(s, name);
	map.dso = pki_dso_findnew(s, name, bid, false);
	if (!map.dso)
		return -ENOMEM;
	if (is_anon(f->mmap.filename) || is_no_dso(f->mmap.filename))
		map.dso->identity = true;
	return maps_insert(s, t->maps, &map);
}

static int process_mmap(struct pk_session *s, const struct pk_record *rec,
			const struct pk_record_fields *f)
{
	uint16_t cpumode = rec->misc & PK_MISC_CPUMODE_MASK;

	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL)
		return kernel_mmap(s, f);
	return user_mmap(s, rec, f);
}

/* The event of a READ record: from its sample id, else its own id (the
 * file's one event when it has one). */
static const struct pk_attr *read_attr(struct pk_session *s, const struct pk_record *rec,
				       uint64_t id)
{
	const struct pk_attr *a = rec->attr ? rec->attr : pk_reader_attr_by_id(s->reader, id);

	if (!a && pk_reader_nr_attrs(s->reader) == 1)
		a = pk_reader_attr(s->reader, 0);
	return a;
}

int pki_machine_process(struct pk_session *s, const struct pk_record *rec)
{
	struct pk_record_fields f;
	struct pk_thread *t;
	const char *why = NULL;
	int err;

	switch (rec->type) {
	case PK_RECORD_MMAP:
	case PK_RECORD_MMAP2:
	case PK_RECORD_COMM:
	case PK_RECORD_FORK:
	case PK_RECORD_LOST_SAMPLES:
	case PK_RECORD_READ:
		break;
	default:
		return 0;
	}
	err = pk_record_decode(rec, &f, &why);
	if (err) {
		pki_debug("offset %#llx: %s record skipped: %s",
			  (unsigned long long)rec->file_offset, pk_record_type_name(rec->type),
			  why ? why : "cannot decode");
		return 0;
	}
	switch (rec->type) {
	case PK_RECORD_COMM:
		t = pki_thread_findnew(s, (int32_t)f.comm.pid, (int32_t)f.comm.tid);
		return t ? pki_thread_set_comm(t, f.comm.comm) : -ENOMEM;
	case PK_RECORD_LOST_SAMPLES:
		s->lost_samples += f.lost_samples.lost;
		return 0;
	case PK_RECORD_READ:
		return pki_thread_counts_add(s, read_attr(s, rec, f.read.id), (int32_t)f.read.pid,
					     (int32_t)f.read.tid, f.read.value);
	case PK_RECORD_FORK:
		return pki_thread_fork(s, (int32_t)f.task.pid, (int32_t)f.task.tid,
				       (int32_t)f.task.ppid, (int32_t)f.task.ptid);
	default:
		return process_mmap(s, rec, &f);
	}
}

/* Kernel maps for lookups, with a catch-all kernel map when the file had
 * no kernel MMAP. */
struct pki_maps *pki_session_kernel_maps(struct pk_session *s)
{
	struct pki_maps *km = kernel_maps(s);

	if (km && !s->have_kernel_mmap) {
		struct pki_map map = {.start = 1ULL << 63, .end = UINT64_MAX};

		s->have_kernel_mmap = true;
		map.dso = pki_dso_findnew(s, KERNEL_MMAP_PREFIX,
					  header_build_id(s, KERNEL_MMAP_PREFIX), true);
		s->kernel_dso = map.dso;
		if (map.dso)
			maps_insert(s, km, &map);
	}
	return km;
}
