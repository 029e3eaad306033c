// SPDX-License-Identifier: MIT
/*
 * Feature sections: the ones that describe the machine (read from uname,
 * /proc and /sys, each value checked; one that cannot be read is left
 * out) and the ones the writer derives from what it was given.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"
#include "writer_internal.h"

#define MAX_CPUS 4096

/* Read a small text file into buf, without the trailing newline. */
static int read_line_file(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = 0;
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return n ? 0 : -ENODATA;
}

static int read_u32_file(const char *path, uint32_t *out)
{
	char buf[32], *end;
	long long v;

	if (read_line_file(path, buf, sizeof(buf)))
		return -ENOENT;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || end == buf || *end || v < INT32_MIN || v > UINT32_MAX)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

static int set_buf(struct pk_writer *w, unsigned int feat, struct pki_wbuf *b)
{
	int err = b->oom ? -ENOMEM : pk_writer_set_feature(w, feat, b->p, b->len);

	pki_wbuf_free(b);
	return err;
}

/* Value of "key : value" in /proc/cpuinfo (first CPU), whitespace squeezed. */
static bool cpuinfo_value(const char *key, char *out, size_t size)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[1024];
	size_t klen = strlen(key);
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *p = line, *colon, *o = out;

		if (strncmp(line, key, klen) ||
		    (line[klen] != ' ' && line[klen] != '\t' && line[klen] != ':'))
			continue;
		colon = strchr(line, ':');
		if (!colon)
			continue;
		for (p = colon + 1; *p == ' ' || *p == '\t'; p++)
			;
		while (*p && *p != '\n' && (size_t)(o - out) < size - 1) {
			if (isspace((unsigned char)*p) && (o == out || o[-1] == ' ')) {
				p++;
				continue;
			}
			*o++ = isspace((unsigned char)*p) ? ' ' : *p;
			p++;
		}
		while (o > out && o[-1] == ' ')
			o--;
		*o = 0;
		found = o > out;
	}
	fclose(f);
	return found;
}

static void add_cpu_features(struct pk_writer *w)
{
	char desc[256], vendor[64], fam[16], model[16], step[16], id[256];

	if (cpuinfo_value("model name", desc, sizeof(desc)) ||
	    cpuinfo_value("cpu model", desc, sizeof(desc)))
		pk_writer_set_feature_string(w, PK_FEAT_CPUDESC, desc);
	if (cpuinfo_value("vendor_id", vendor, sizeof(vendor)) &&
	    cpuinfo_value("cpu family", fam, sizeof(fam)) &&
	    cpuinfo_value("model", model, sizeof(model)) &&
	    cpuinfo_value("stepping", step, sizeof(step))) {
		snprintf(id, sizeof(id), "%s,%s,%s,%s", vendor, fam, model, step);
		pk_writer_set_feature_string(w, PK_FEAT_CPUID, id);
	}
}

static void add_mem_feature(struct pk_writer *w)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	unsigned long long kb;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) {
			pk_writer_set_feature(w, PK_FEAT_TOTAL_MEM, &kb, sizeof(uint64_t));
			break;
		}
	}
	fclose(f);
}

static void add_cmdline(struct pk_writer *w, int argc, char *const argv[])
{
	struct pki_wbuf b = {0};
	char exe[4096];
	ssize_t n;

	if (argc <= 0 || !argv)
		return;
	pki_wbuf_u32(&b, (uint32_t)argc);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		pki_wbuf_string(&b, exe);
	} else {
		pki_wbuf_string(&b, argv[0]);
	}
	for (int i = 1; i < argc; i++)
		pki_wbuf_string(&b, argv[i]);
	set_buf(w, PK_FEAT_CMDLINE, &b);
}

/* Append s to the list if it is not there yet. */
static void list_add_unique(char ***list, uint32_t *nr, const char *s)
{
	char **n;

	for (uint32_t i = 0; i < *nr; i++)
		if (!strcmp((*list)[i], s))
			return;
	n = realloc(*list, (*nr + 1) * sizeof(*n));
	if (!n)
		return;
	*list = n;
	if ((n[*nr] = strdup(s)))
		(*nr)++;
}

static void put_list(struct pki_wbuf *b, char **list, uint32_t nr)
{
	pki_wbuf_u32(b, nr);
	for (uint32_t i = 0; i < nr; i++)
		pki_wbuf_string(b, list[i]);
}

static void free_list(char **list, uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++)
		free(list[i]);
	free(list);
}

static int topo_read(int cpu, const char *name, const char *alt, char *buf, size_t size)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, name);
	if (!read_line_file(path, buf, size))
		return 0;
	if (!alt)
		return -ENOENT;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, alt);
	return read_line_file(path, buf, size);
}

static uint32_t topo_id(int cpu, const char *name)
{
	char path[256];
	uint32_t v;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, name);
	return read_u32_file(path, &v) ? UINT32_MAX : v;
}

static void add_cpu_topology(struct pk_writer *w, int nr_cpus)
{
	char **cores = NULL, **threads = NULL, **dies = NULL;
	uint32_t nc = 0, nt = 0, nd = 0;
	struct pki_wbuf b = {0};
	char buf[1024];

	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		if (!topo_read(cpu, "core_siblings_list", "package_cpus_list", buf, sizeof(buf)))
			list_add_unique(&cores, &nc, buf);
		if (!topo_read(cpu, "thread_siblings_list", "core_cpus_list", buf, sizeof(buf)))
			list_add_unique(&threads, &nt, buf);
		if (!topo_read(cpu, "die_cpus_list", NULL, buf, sizeof(buf)))
			list_add_unique(&dies, &nd, buf);
	}
	if (!nc || !nt)
		goto out;
	put_list(&b, cores, nc);
	put_list(&b, threads, nt);
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		pki_wbuf_u32(&b, topo_id(cpu, "core_id"));
		pki_wbuf_u32(&b, topo_id(cpu, "physical_package_id"));
	}
	if (nd) {
		put_list(&b, dies, nd);
		for (int cpu = 0; cpu < nr_cpus; cpu++)
			pki_wbuf_u32(&b, topo_id(cpu, "die_id"));
	}
	set_buf(w, PK_FEAT_CPU_TOPOLOGY, &b);
out:
	pki_wbuf_free(&b);
	free_list(cores, nc);
	free_list(threads, nt);
	free_list(dies, nd);
}

static bool node_meminfo(int node, uint64_t *total, uint64_t *free_kb)
{
	char path[128], line[256];
	unsigned long long v;
	int n, got = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", node);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d MemTotal: %llu", &n, &v) == 2) {
			*total = v;
			got |= 1;
		} else if (sscanf(line, "Node %d MemFree: %llu", &n, &v) == 2) {
			*free_kb = v;
			got |= 2;
		}
	}
	fclose(f);
	return got == 3;
}

static void add_numa_topology(struct pk_writer *w)
{
	struct pki_wbuf b = {0};
	uint32_t nr = 0;
	char cpus[4096], path[128];

	pki_wbuf_u32(&b, 0);
	for (int node = 0; node < 1024; node++) {
		uint64_t total, free_kb;

		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
		if (read_line_file(path, cpus, sizeof(cpus)))
			cpus[0] = 0;
		if (!node_meminfo(node, &total, &free_kb))
			continue;
		pki_wbuf_u32(&b, (uint32_t)node);
		pki_wbuf_u64(&b, total);
		pki_wbuf_u64(&b, free_kb);
		pki_wbuf_string(&b, cpus);
		nr++;
	}
	if (!nr || b.oom) {
		pki_wbuf_free(&b);
		return;
	}
	memcpy(b.p, &nr, 4);
	set_buf(w, PK_FEAT_NUMA_TOPOLOGY, &b);
}

struct cache_entry {
	uint32_t level, line, sets, ways;
	char type[32], size[32], map[256];
};

static bool read_cache_entry(int cpu, int idx, struct cache_entry *c)
{
	char dir[128], path[192];

	snprintf(dir, sizeof(dir), "/sys/devices/system/cpu/cpu%d/cache/index%d", cpu, idx);
#define RD_U32(f, v) (snprintf(path, sizeof(path), "%s/" f, dir), read_u32_file(path, v))
#define RD_STR(f, v)                                                                               \
	(snprintf(path, sizeof(path), "%s/" f, dir), read_line_file(path, v, sizeof(v)))
	if (RD_U32("level", &c->level) || RD_STR("type", c->type))
		return false;
	if (RD_U32("coherency_line_size", &c->line))
		c->line = 0;
	if (RD_U32("number_of_sets", &c->sets))
		c->sets = 0;
	if (RD_U32("ways_of_associativity", &c->ways))
		c->ways = 0;
	if (RD_STR("size", c->size))
		c->size[0] = 0;
	if (RD_STR("shared_cpu_list", c->map))
		c->map[0] = 0;
#undef RD_U32
#undef RD_STR
	return true;
}

/* perf lists the caches by level, each level in the order found (CPU,
 * then index): a stable sort by level */
static void sort_by_level(struct cache_entry *v, uint32_t nr)
{
	for (uint32_t i = 1; i < nr; i++) {
		struct cache_entry c = v[i];
		uint32_t j = i;

		for (; j > 0 && v[j - 1].level > c.level; j--)
			v[j] = v[j - 1];
		v[j] = c;
	}
}

static void add_cache(struct pk_writer *w, int nr_cpus)
{
	struct cache_entry *caches = NULL, c;
	uint32_t nr = 0;
	struct pki_wbuf b = {0};

	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		for (int idx = 0; idx < 16 && read_cache_entry(cpu, idx, &c); idx++) {
			bool dup = false;
			struct cache_entry *n;

			for (uint32_t i = 0; i < nr && !dup; i++)
				dup = caches[i].level == c.level &&
				      !strcmp(caches[i].type, c.type) &&
				      !strcmp(caches[i].map, c.map);
			if (dup || nr >= 256 || !(n = realloc(caches, (nr + 1) * sizeof(*n))))
				continue;
			caches = n;
			caches[nr++] = c;
		}
	}
	sort_by_level(caches, nr);
	pki_wbuf_u32(&b, 1);
	pki_wbuf_u32(&b, nr);
	for (uint32_t i = 0; i < nr; i++) {
		pki_wbuf_u32(&b, caches[i].level);
		pki_wbuf_u32(&b, caches[i].line);
		pki_wbuf_u32(&b, caches[i].sets);
		pki_wbuf_u32(&b, caches[i].ways);
		pki_wbuf_string(&b, caches[i].type);
		pki_wbuf_string(&b, caches[i].size);
		pki_wbuf_string(&b, caches[i].map);
	}
	free(caches);
	set_buf(w, PK_FEAT_CACHE, &b);
}

static void add_pmu_mappings(struct pk_writer *w)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct pki_wbuf b = {0};
	struct dirent *de;
	uint32_t nr = 0;

	if (!d)
		return;
	pki_wbuf_u32(&b, 0);
	while ((de = readdir(d))) {
		char path[512];
		uint32_t type;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", de->d_name);
		if (read_u32_file(path, &type))
			continue;
		pki_wbuf_u32(&b, type);
		pki_wbuf_string(&b, de->d_name);
		nr++;
	}
	closedir(d);
	if (!nr || b.oom) {
		pki_wbuf_free(&b);
		return;
	}
	memcpy(b.p, &nr, 4);
	set_buf(w, PK_FEAT_PMU_MAPPINGS, &b);
}

/* Memory block indexes of a node (memoryN entries), as a bitmap. */
static uint64_t *node_memory_bitmap(int node, uint64_t *nbits)
{
	char path[96];
	struct dirent *de;
	uint64_t *bits = NULL, max = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d", node);
	d = opendir(path);
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		char *end;
		unsigned long idx;

		if (strncmp(de->d_name, "memory", 6) || !isdigit((unsigned char)de->d_name[6]))
			continue;
		idx = strtoul(de->d_name + 6, &end, 10);
		if (*end || idx >= (1u << 24))
			continue;
		if (idx + 1 > max) {
			size_t words = (idx + 64) / 64;
			uint64_t *n = realloc(bits, words * 8);

			if (!n)
				break;
			memset(n + (max + 63) / 64, 0, (words - (max + 63) / 64) * 8);
			bits = n;
			max = idx + 1;
		}
		bits[idx / 64] |= 1ULL << (idx % 64);
	}
	closedir(d);
	*nbits = max;
	return bits;
}

/* MEM_TOPOLOGY: u64 version 1, block size, node count; per node its
 * number, the bitmap size in bits and the bitmap (size again, then words). */
static void add_mem_topology(struct pk_writer *w)
{
	char buf[64], *end;
	struct pki_wbuf b = {0};
	uint64_t bsize, nr = 0;
	size_t nr_at;

	if (read_line_file("/sys/devices/system/memory/block_size_bytes", buf, sizeof(buf)))
		return;
	bsize = strtoull(buf, &end, 16);
	if (*end || !bsize)
		return;
	pki_wbuf_u64(&b, 1);
	pki_wbuf_u64(&b, bsize);
	nr_at = b.len;
	pki_wbuf_u64(&b, 0);
	for (int node = 0; node < 1024; node++) {
		uint64_t nbits = 0, *bits = node_memory_bitmap(node, &nbits);

		if (!bits)
			continue;
		pki_wbuf_u64(&b, (uint64_t)node);
		pki_wbuf_u64(&b, nbits);
		pki_wbuf_u64(&b, nbits);
		pki_wbuf_put(&b, bits, (nbits + 63) / 64 * 8);
		free(bits);
		nr++;
	}
	if (!nr || b.oom) {
		pki_wbuf_free(&b);
		return;
	}
	memcpy(b.p + nr_at, &nr, 8);
	set_buf(w, PK_FEAT_MEM_TOPOLOGY, &b);
}

int pk_writer_add_host_features(struct pk_writer *w, int argc, char *const argv[])
{
	struct utsname u;
	long conf = sysconf(_SC_NPROCESSORS_CONF), onln = sysconf(_SC_NPROCESSORS_ONLN);
	int nr_cpus = conf > 0 && conf <= MAX_CPUS ? (int)conf : 1;

	if (!uname(&u)) {
		pk_writer_set_feature_string(w, PK_FEAT_HOSTNAME, u.nodename);
		pk_writer_set_feature_string(w, PK_FEAT_OSRELEASE, u.release);
		pk_writer_set_feature_string(w, PK_FEAT_ARCH, u.machine);
	}
	pk_writer_set_feature_string(w, PK_FEAT_VERSION, pk_version());
	if (conf > 0 && onln > 0) {
		uint32_t v[2] = {(uint32_t)conf, (uint32_t)onln};

		pk_writer_set_feature(w, PK_FEAT_NRCPUS, v, sizeof(v));
	}
	add_cpu_features(w);
	add_mem_feature(w);
	add_cmdline(w, argc, argv);
	add_cpu_topology(w, nr_cpus);
	add_numa_topology(w);
	add_cache(w, nr_cpus);
	add_pmu_mappings(w);
	add_mem_topology(w);
	return 0;
}

int pk_writer_add_clock_features(struct pk_writer *w, int clockid)
{
	struct timespec res, wall, ref;
	struct pki_wbuf b = {0};
	uint64_t res_ns;

	if (clock_getres(clockid, &res))
		return pki_writer_fail(w, -errno, "clock %d: %s", clockid, strerror(errno));
	res_ns = (uint64_t)res.tv_sec * 1000000000ULL + (uint64_t)res.tv_nsec;
	pk_writer_set_feature(w, PK_FEAT_CLOCKID, &res_ns, sizeof(res_ns));
	if (clock_gettime(CLOCK_REALTIME, &wall) || clock_gettime(clockid, &ref))
		return -errno;
	pki_wbuf_u32(&b, 1);
	pki_wbuf_u32(&b, (uint32_t)clockid);
	pki_wbuf_u64(&b, (uint64_t)wall.tv_sec * 1000000000ULL + (uint64_t)wall.tv_nsec);
	pki_wbuf_u64(&b, (uint64_t)ref.tv_sec * 1000000000ULL + (uint64_t)ref.tv_nsec);
	return set_buf(w, PK_FEAT_CLOCK_DATA, &b);
}

/* ---- derived from attrs, groups, build ids, samples ------------------ */

static void build_event_desc(struct pk_writer *w)
{
	struct pki_wbuf b = {0};

	pki_wbuf_u32(&b, (uint32_t)w->nr_attrs);
	pki_wbuf_u32(&b, sizeof(struct perf_event_attr));
	for (size_t i = 0; i < w->nr_attrs; i++) {
		struct wattr *a = &w->attrs[i];
		char name[128];

		if (!a->name)
			pk_event_attr_name(&a->attr, name, sizeof(name));
		pki_wbuf_put(&b, &a->attr, sizeof(a->attr));
		pki_wbuf_u32(&b, (uint32_t)a->nr_ids);
		pki_wbuf_string(&b, a->name ? a->name : name);
		pki_wbuf_put(&b, a->ids, a->nr_ids * 8);
	}
	set_buf(w, PK_FEAT_EVENT_DESC, &b);
}

static void build_group_desc(struct pk_writer *w)
{
	struct pki_wbuf b = {0};

	pki_wbuf_u32(&b, (uint32_t)w->nr_groups);
	for (size_t i = 0; i < w->nr_groups; i++) {
		pki_wbuf_string(&b, w->groups[i].name);
		pki_wbuf_u32(&b, w->groups[i].leader);
		pki_wbuf_u32(&b, w->groups[i].nr_members);
	}
	set_buf(w, PK_FEAT_GROUP_DESC, &b);
}

static void build_compressed(struct pk_writer *w)
{
	uint32_t v[5];
	uint64_t ratio =
		w->st.data_bytes ? (w->st.raw_bytes + w->st.data_bytes / 2) / w->st.data_bytes : 1;

	v[0] = 0; /* version */
	v[1] = 1; /* zstd */
	v[2] = (uint32_t)w->compress_level;
	v[3] = ratio > UINT32_MAX ? UINT32_MAX : (uint32_t)(ratio ? ratio : 1);
	/* perf unpacks one record into a buffer of mmap_len bytes */
	v[4] = w->mmap_len > 512 * 1024 ? w->mmap_len : 512 * 1024;
	pk_writer_set_feature(w, PK_FEAT_COMPRESSED, v, sizeof(v));
}

void pki_writer_build_derived(struct pk_writer *w)
{
	if (w->nr_attrs)
		build_event_desc(w);
	if (w->nr_groups)
		build_group_desc(w);
	if (w->compress_level > 0)
		build_compressed(w);
	if (w->nr_build_ids)
		pk_writer_set_feature(w, PK_FEAT_BUILD_ID, w->build_ids.p, w->build_ids.len);
	if (!w->pipe && w->st.nr_samples && w->time_pos >= 0) {
		uint64_t t[2] = {w->st.first_sample_time, w->st.last_sample_time};

		pk_writer_set_feature(w, PK_FEAT_SAMPLE_TIME, t, sizeof(t));
	}
}
