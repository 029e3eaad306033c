// SPDX-License-Identifier: MIT
/* Enumerate the events this machine offers, for perfkit list. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "event_internal.h"

typedef int (*info_fn)(const struct pk_event_info *info, void *arg);

/* Whether the kernel would count this for us (user space only, this thread). */
static bool supported(uint32_t type, uint64_t config)
{
	struct perf_event_attr a = {.size = sizeof(a), .type = type, .config = config};
	long fd;

	a.exclude_kernel = a.exclude_hv = 1;
	a.disabled = 1;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return false;
	close((int)fd);
	return true;
}

static int emit(info_fn fn, void *arg, enum pk_event_info_kind kind, const char *name,
		const char *alias, const char *type_desc, const char *desc)
{
	struct pk_event_info info = {kind, name, alias, type_desc, desc};

	return fn(&info, arg);
}

static int cmp_sym(const void *a, const void *b)
{
	return strcmp((*(const struct pki_symbol *const *)a)->name,
		      (*(const struct pki_symbol *const *)b)->name);
}

static int list_symbols(const struct pki_symbol *syms, size_t n, bool check, info_fn fn,
			void *arg, enum pk_event_info_kind kind, const char *desc)
{
	const struct pki_symbol *sorted[32];
	int ret;

	if (n > 32)
		n = 32;
	for (size_t i = 0; i < n; i++)
		sorted[i] = &syms[i];
	qsort(sorted, n, sizeof(sorted[0]), cmp_sym);
	for (size_t i = 0; i < n; i++) {
		if (check && !supported(sorted[i]->type, sorted[i]->config))
			continue;
		ret = emit(fn, arg, kind, sorted[i]->name, sorted[i]->alias, desc, NULL);
		if (ret)
			return ret;
	}
	return 0;
}

static int list_cache(info_fn fn, void *arg)
{
	char name[128];
	int ret;

	for (unsigned int t = 0; t < pki_cache_nr_types(); t++) {
		for (unsigned int op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if (!pki_cache_op_valid(t, op))
				continue;
			for (unsigned int r = 0; r < PERF_COUNT_HW_CACHE_RESULT_MAX; r++) {
				uint64_t config = t | op << 8 | (uint64_t)r << 16;

				if (!supported(PERF_TYPE_HW_CACHE, config))
					continue;
				pki_cache_event_name(config, name, sizeof(name));
				ret = emit(fn, arg, PK_EVENT_INFO_CACHE, name, NULL,
					   "Hardware cache event", NULL);
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted entries of a directory, skipping dot files and suffixes we hide. */
static int read_dir(const char *path, char ***out)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **names = NULL;
	int n = 0, cap = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		const char *dot = strchr(de->d_name, '.');

		if (de->d_name[0] == '.' || (dot && dot != de->d_name))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			char **p = realloc(names, (size_t)cap * sizeof(*p));
			if (!p)
				break;
			names = p;
		}
		if (!(names[n] = strdup(de->d_name)))
			break;
		n++;
	}
	closedir(d);
	if (n > 1)
		qsort(names, (size_t)n, sizeof(*names), cmp_str);
	*out = names;
	return n;
}

static void free_dir(char **names, int n)
{
	while (n-- > 0)
		free(names[n]);
	free(names);
}

static int list_pmu_events(const char *sysfs, info_fn fn, void *arg)
{
	char path[600], **pmus = NULL, **evs, name[512], desc[512];
	int npmu, nev, ret = 0;

	snprintf(path, sizeof(path), "%s/bus/event_source/devices", sysfs);
	npmu = read_dir(path, &pmus);
	if (npmu < 0)
		return 0;
	for (int i = 0; i < npmu && !ret; i++) {
		snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/events", sysfs,
			 pmus[i]);
		nev = read_dir(path, &evs);
		if (nev < 0)
			continue;
		for (int j = 0; j < nev && !ret; j++) {
			char dpath[1200];
			bool has_desc;

			snprintf(name, sizeof(name), "%s/%s/", pmus[i], evs[j]);
			snprintf(dpath, sizeof(dpath), "%s/%s.desc", path, evs[j]);
			has_desc = pki_read_small_file(dpath, desc, sizeof(desc)) > 0;
			ret = emit(fn, arg, PK_EVENT_INFO_PMU, name, NULL, "Kernel PMU event",
				   has_desc ? desc : NULL);
		}
		free_dir(evs, nev);
	}
	free_dir(pmus, npmu);
	return ret;
}

static int list_descriptors(info_fn fn, void *arg)
{
	int ret = emit(fn, arg, PK_EVENT_INFO_DESCRIPTOR, "rNNN", NULL,
		       "Raw hardware event descriptor", NULL);

	if (!ret)
		ret = emit(fn, arg, PK_EVENT_INFO_DESCRIPTOR, "cpu/t1=v1[,t2=v2,t3 ...]/modifier",
			   NULL, "Raw hardware event descriptor", NULL);
	if (!ret)
		ret = emit(fn, arg, PK_EVENT_INFO_DESCRIPTOR, "mem:<addr>[/len][:access]", NULL,
			   "Hardware breakpoint", NULL);
	return ret;
}

struct tp_arg {
	info_fn fn;
	void *arg;
};

static int tp_one(const char *sys, const char *name, long id, void *arg)
{
	struct tp_arg *t = arg;
	char full[512];

	(void)id;
	snprintf(full, sizeof(full), "%s:%s", sys, name);
	return emit(t->fn, t->arg, PK_EVENT_INFO_TRACEPOINT, full, NULL, "Tracepoint event", NULL);
}

static int sdt_one(const char *name, void *arg)
{
	struct tp_arg *t = arg;

	return emit(t->fn, t->arg, PK_EVENT_INFO_SDT, name, NULL, "SDT event", NULL);
}

int pk_event_foreach(unsigned int mask, const struct pk_event_parse_opts *opts,
		     int (*fn)(const struct pk_event_info *info, void *arg), void *arg)
{
	struct tp_arg t = {fn, arg};
	int ret = 0;

	if (!fn)
		return -EINVAL;
	if (mask & PK_EVENT_INFO_HARDWARE)
		ret = list_symbols(pki_hw_symbols, pki_nr_hw_symbols, true, fn, arg,
				   PK_EVENT_INFO_HARDWARE, "Hardware event");
	if (!ret && (mask & PK_EVENT_INFO_SOFTWARE))
		ret = list_symbols(pki_sw_symbols, pki_nr_sw_symbols, false, fn, arg,
				   PK_EVENT_INFO_SOFTWARE, "Software event");
	/* perf's tool events follow the software ones */
	static const char *const tools[] = {"duration_time", "user_time", "system_time"};
	for (size_t i = 0; i < 3 && !ret && (mask & PK_EVENT_INFO_SOFTWARE); i++)
		ret = emit(fn, arg, PK_EVENT_INFO_SOFTWARE, tools[i], NULL, "Tool event", NULL);
	if (!ret && (mask & PK_EVENT_INFO_CACHE))
		ret = list_cache(fn, arg);
	if (!ret && (mask & PK_EVENT_INFO_PMU))
		ret = list_pmu_events(pki_sysfs_root(opts), fn, arg);
	if (!ret && (mask & PK_EVENT_INFO_DESCRIPTOR))
		ret = list_descriptors(fn, arg);
	if (!ret && (mask & PK_EVENT_INFO_TRACEPOINT)) {
		int r = pki_tracepoint_foreach(pki_tracefs_root(opts), "*", "*", true, tp_one, &t);
		if (r > 0)
			ret = r;
	}
	if (!ret && (mask & PK_EVENT_INFO_SDT))
		ret = pki_sdt_foreach(sdt_one, &t);
	return ret;
}
