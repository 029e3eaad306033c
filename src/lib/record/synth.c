// SPDX-License-Identifier: MIT
/*
 * Records for what existed before the recording started: the kernel map
 * (from /proc/kallsyms), the modules (/proc/modules), and for -a/-p/-t
 * every thread's COMM (FORK for non-leader threads) and its executable
 * mappings as MMAP2 (from /proc/PID/maps).  Every /proc value is checked;
 * a thread that vanished meanwhile is skipped.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include "internal.h"
#include "recorder_internal.h"

#define REC_BUF 8192

size_t pki_rec_trailer(const struct pk_recorder *r, void *rec, size_t size, uint32_t pid,
		       uint32_t tid)
{
	uint8_t *p = (uint8_t *)rec + size;
	uint64_t id = r->nr_ev && r->ev[0].nr_ids ? r->ev[0].ids[0] : 0;
	uint64_t zero = 0;

	if (r->sample_type & PERF_SAMPLE_TID) {
		memcpy(p, &pid, 4);
		memcpy(p + 4, &tid, 4);
		p += 8;
	}
	if (r->sample_type & PERF_SAMPLE_TIME) {
		memcpy(p, &zero, 8);
		p += 8;
	}
	if (r->sample_type & PERF_SAMPLE_CPU) {
		memcpy(p, &zero, 8);
		p += 8;
	}
	if (r->sample_type & PERF_SAMPLE_IDENTIFIER) {
		memcpy(p, &id, 8);
		p += 8;
	}
	return (size_t)(p - (uint8_t *)rec);
}

/* Header + fixed part already in buf (fixed bytes); add the name padded to
 * 8 bytes and the trailer, then write. */
static int emit_named(struct pk_recorder *r, uint8_t *buf, size_t fixed, const char *name,
		      uint32_t pid, uint32_t tid)
{
	struct perf_event_header *h = (struct perf_event_header *)buf;
	size_t n = strlen(name) + 1, size = fixed + ((n + 7) & ~(size_t)7);

	if (size + 64 > REC_BUF)
		return 0; /* absurd name: leave the record out */
	memset(buf + fixed, 0, size - fixed);
	memcpy(buf + fixed, name, n);
	size = pki_rec_trailer(r, buf, size, pid, tid);
	h->size = (uint16_t)size;
	return pki_rec_emit(r, buf, size);
}

/* Name of a /proc/kallsyms line ("addr type name [module]"), cheaply:
 * the file has some hundred thousand lines. */
static bool kallsyms_line_is(const char *line, const char *name)
{
	const char *p = strchr(line, ' ');

	if (!p || !(p = strchr(p + 1, ' ')))
		return false;
	p++;
	while (*name && *p == *name) {
		p++;
		name++;
	}
	return !*name && (*p == '\n' || *p == 0);
}

static int kallsyms_range(uint64_t *start, uint64_t *end)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512];

	*start = *end = 0;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && !(*start && *end)) {
		uint64_t *dst = NULL;

		if (line[0] == 0)
			continue;
		if (!*start && kallsyms_line_is(line, "_text"))
			dst = start;
		else if (!*end && kallsyms_line_is(line, "_etext"))
			dst = end;
		if (dst && sscanf(line, "%" SCNx64, dst) != 1)
			*dst = 0;
	}
	fclose(f);
	return *start && *end > *start ? 0 : -ENOENT;
}

static int emit_kernel_mmap(struct pk_recorder *r, const char *name, uint64_t start, uint64_t len,
			    uint64_t pgoff)
{
	uint8_t buf[REC_BUF];
	struct perf_event_header *h = (struct perf_event_header *)buf;
	uint32_t pid = UINT32_MAX, tid = 0;

	h->type = PERF_RECORD_MMAP;
	h->misc = PERF_RECORD_MISC_KERNEL;
	memcpy(buf + 8, &pid, 4);
	memcpy(buf + 12, &tid, 4);
	memcpy(buf + 16, &start, 8);
	memcpy(buf + 24, &len, 8);
	memcpy(buf + 32, &pgoff, 8);
	return emit_named(r, buf, 40, name, pid, tid);
}

static int synth_modules(struct pk_recorder *r)
{
	FILE *f = fopen("/proc/modules", "re");
	char line[1024], name[128];
	unsigned long long size, addr;
	int err = 0;

	if (!f)
		return 0;
	while (!err && fgets(line, sizeof(line), f)) {
		char label[140];
		char *last = strrchr(line, ' ');

		if (sscanf(line, "%127s %llu", name, &size) != 2 || !last)
			continue;
		if (sscanf(last, " 0x%llx", &addr) != 1 || !addr || !size)
			continue;
		snprintf(label, sizeof(label), "[%s]", name);
		err = emit_kernel_mmap(r, label, addr, size, 0);
	}
	fclose(f);
	return err;
}

int pki_synth_kernel(struct pk_recorder *r)
{
	uint64_t start, end;
	int err;

	if (kallsyms_range(&start, &end)) {
		pki_rec_note(r, "Kernel address maps (/proc/kallsyms) are restricted: kernel "
				"samples will not resolve (check /proc/sys/kernel/kptr_restrict).");
		return 0;
	}
	err = emit_kernel_mmap(r, "[kernel.kallsyms]_text", start, end - start, start);
	return err ? err : synth_modules(r);
}

static int emit_comm(struct pk_recorder *r, uint32_t pid, uint32_t tid, const char *comm)
{
	uint8_t buf[REC_BUF];
	struct perf_event_header *h = (struct perf_event_header *)buf;

	h->type = PERF_RECORD_COMM;
	h->misc = 0;
	memcpy(buf + 8, &pid, 4);
	memcpy(buf + 12, &tid, 4);
	return emit_named(r, buf, 16, comm, pid, tid);
}

static int emit_fork(struct pk_recorder *r, uint32_t pid, uint32_t tid)
{
	uint8_t buf[128];
	struct perf_event_header *h = (struct perf_event_header *)buf;
	uint32_t v[4] = {pid, pid, tid, pid}; /* pid, ppid, tid, ptid */
	uint64_t zero = 0;
	size_t size;

	h->type = PERF_RECORD_FORK;
	h->misc = 0;
	memcpy(buf + 8, v, sizeof(v));
	memcpy(buf + 24, &zero, 8);
	size = pki_rec_trailer(r, buf, 32, pid, tid);
	h->size = (uint16_t)size;
	return pki_rec_emit(r, buf, size);
}

struct map_line {
	uint64_t start, end, pgoff, ino;
	uint32_t maj, min, prot, flags;
	const char *name;
};

static bool parse_map_line(char *line, struct map_line *m)
{
	char perms[8];
	int name_at = 0;

	line[strcspn(line, "\n")] = 0;
	if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %x:%x %" SCNu64 " %n", &m->start,
		   &m->end, perms, &m->pgoff, &m->maj, &m->min, &m->ino, &name_at) < 7 ||
	    m->end <= m->start || strlen(perms) != 4)
		return false;
	m->prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
		  (perms[2] == 'x' ? PROT_EXEC : 0);
	m->flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	m->name = name_at > 0 && line[name_at] ? line + name_at : "//anon";
	return true;
}

static int emit_mmap2(struct pk_recorder *r, uint32_t pid, uint32_t tid, const struct map_line *m)
{
	uint8_t buf[REC_BUF];
	struct perf_event_header *h = (struct perf_event_header *)buf;
	uint64_t len = m->end - m->start, gen = 0;

	h->type = PERF_RECORD_MMAP2;
	h->misc = PERF_RECORD_MISC_USER;
	memcpy(buf + 8, &pid, 4);
	memcpy(buf + 12, &tid, 4);
	memcpy(buf + 16, &m->start, 8);
	memcpy(buf + 24, &len, 8);
	memcpy(buf + 32, &m->pgoff, 8);
	memcpy(buf + 40, &m->maj, 4);
	memcpy(buf + 44, &m->min, 4);
	memcpy(buf + 48, &m->ino, 8);
	memcpy(buf + 56, &gen, 8);
	memcpy(buf + 64, &m->prot, 4);
	memcpy(buf + 68, &m->flags, 4);
	return emit_named(r, buf, 72, m->name, pid, tid);
}

static int synth_maps(struct pk_recorder *r, int pid)
{
	char path[64], line[4096 + 256];
	struct map_line m;
	int err = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return 0; /* gone, or a kernel thread */
	while (!err && fgets(line, sizeof(line), f)) {
		if (!parse_map_line(line, &m))
			continue;
		if (!(m.prot & PROT_EXEC) && !r->data_maps)
			continue;
		err = emit_mmap2(r, (uint32_t)pid, (uint32_t)pid, &m);
	}
	fclose(f);
	return err;
}

static bool read_comm(int pid, int tid, char *comm, size_t size)
{
	char path[96];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fgets(comm, (int)size, f) != NULL;
	fclose(f);
	if (ok)
		comm[strcspn(comm, "\n")] = 0;
	return ok;
}

static int tgid_of(int tid)
{
	char path[64], line[256];
	int tgid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid > 0 ? tgid : -1;
}

static int synth_thread(struct pk_recorder *r, int pid, int tid)
{
	char comm[64];
	int err = 0;

	if (!read_comm(pid, tid, comm, sizeof(comm)))
		return 0;
	if (tid != pid)
		err = emit_fork(r, (uint32_t)pid, (uint32_t)tid);
	if (!err)
		err = emit_comm(r, (uint32_t)pid, (uint32_t)tid, comm);
	return err;
}

static int synth_process(struct pk_recorder *r, int pid)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int err;

	/* the leader first, so that its maps exist before its threads */
	err = synth_thread(r, pid, pid);
	if (!err && r->o.synth != PK_RECORDER_SYNTH_TASK)
		err = synth_maps(r, pid);
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return err;
	while (!err && (de = readdir(d))) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);

		if (*end || tid <= 0 || tid > INT32_MAX || tid == pid)
			continue;
		err = synth_thread(r, pid, (int)tid);
	}
	closedir(d);
	return err;
}

static bool seen(const int *list, int nr, int v)
{
	for (int i = 0; i < nr; i++)
		if (list[i] == v)
			return true;
	return false;
}

int pki_synth_threads(struct pk_recorder *r)
{
	int err = 0;

	/* as perf, --synth=no still names the command (perf-exec) */
	if (r->o.synth == PK_RECORDER_SYNTH_NO)
		return r->child > 0 && !r->trace_command ? synth_thread(r, r->child, r->child) : 0;
	if (r->o.system_wide || (r->o.cpu_list && !r->per_task)) {
		DIR *d = opendir("/proc");
		struct dirent *de;

		if (!d)
			return pki_rec_fail(r, -errno, "/proc: %s", strerror(errno));
		while (!err && (de = readdir(d))) {
			char *end;
			long pid = strtol(de->d_name, &end, 10);

			/* the command too, as perf: it is perf-exec until its exec */
			if (*end || pid <= 0 || pid > INT32_MAX)
				continue;
			err = synth_process(r, (int)pid);
		}
		closedir(d);
		return err;
	}
	if (!r->o.pid_list && !r->o.tid_list)
		return 0;
	/* -p/-t: the processes of the traced threads, each once */
	int *done = NULL, nr_done = 0;

	for (int i = 0; i < r->nr_threads && !err; i++) {
		int tgid = tgid_of(r->threads[i]);
		int *n;

		if (tgid < 0 || seen(done, nr_done, tgid))
			continue;
		n = realloc(done, (nr_done + 1) * sizeof(*n));
		if (!n) {
			err = -ENOMEM;
			break;
		}
		done = n;
		done[nr_done++] = tgid;
		err = synth_process(r, tgid);
	}
	free(done);
	return err;
}

/* After a --switch-output, the new file of a command's recording: the
 * command's process as it is now (its children are not followed). */
int pki_synth_command(struct pk_recorder *r)
{
	if (!r->trace_command || r->child <= 0 || r->child_done)
		return 0;
	return synth_process(r, (int)r->child);
}
