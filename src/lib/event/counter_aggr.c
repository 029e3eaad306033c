// SPDX-License-Identifier: MIT
/*
 * Aggregating per-CPU counts as perf stat does with --per-core, --per-die,
 * --per-socket and --per-node: the CPUs' topology from sysfs, the groups
 * it gives, and a count summed over one group's CPUs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "counter_internal.h"
#include "event_internal.h"

/* One number from a topology file; -1 when there is none. */
static int topo_value(const char *root, int cpu, const char *file)
{
	char path[600], buf[32];

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/%s", root, cpu, file);
	if (pki_read_small_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	return atoi(buf);
}

/* The NUMA node holding cpu: the nodeN directory with a cpuM entry. */
static int cpu_node(const char *root, int cpu)
{
	char path[600];

	for (int n = 0; n < 4096; n++) {
		snprintf(path, sizeof(path), "%s/devices/system/node/node%d", root, n);
		if (access(path, F_OK)) {
			/* node numbers may have holes: stop after a long gap only */
			if (n > 64)
				break;
			continue;
		}
		snprintf(path, sizeof(path), "%s/devices/system/node/node%d/cpu%d", root, n, cpu);
		if (!access(path, F_OK))
			return n;
	}
	return -1;
}

int pk_cpu_aggr_id(int cpu, enum pk_aggr_mode mode, const char *sysfs_root,
		   struct pk_aggr_id *id)
{
	const char *root = sysfs_root ? sysfs_root : pki_sysfs_root(NULL);

	if (!id || cpu < 0)
		return -EINVAL;
	*id = (struct pk_aggr_id){-1, -1, -1, -1};
	switch (mode) {
	case PK_AGGR_CORE:
		/* a core is named by its socket and die too */
		id->core = topo_value(root, cpu, "core_id");
		__attribute__((fallthrough));
	case PK_AGGR_DIE:
		id->die = topo_value(root, cpu, "die_id");
		__attribute__((fallthrough));
	case PK_AGGR_SOCKET:
		id->socket = topo_value(root, cpu, "physical_package_id");
		return 0;
	case PK_AGGR_NODE:
		id->node = cpu_node(root, cpu);
		return 0;
	}
	return -EINVAL;
}

static int cmp_id(const struct pk_aggr_id *a, const struct pk_aggr_id *b)
{
	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	if (a->socket != b->socket)
		return a->socket < b->socket ? -1 : 1;
	if (a->die != b->die)
		return a->die < b->die ? -1 : 1;
	if (a->core != b->core)
		return a->core < b->core ? -1 : 1;
	return 0;
}

static int cmp_id_qsort(const void *a, const void *b)
{
	return cmp_id(a, b);
}

int pk_cpu_aggr_map(const int *cpus, int nr_cpus, enum pk_aggr_mode mode,
		    const char *sysfs_root, struct pk_aggr_id **ids, int *cpu_to_id)
{
	struct pk_aggr_id *all;
	int n = 0, ret;

	if (!cpus || nr_cpus <= 0 || !ids || !cpu_to_id)
		return -EINVAL;
	all = calloc((size_t)nr_cpus, sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (int i = 0; i < nr_cpus; i++) {
		ret = pk_cpu_aggr_id(cpus[i], mode, sysfs_root, &all[i]);
		if (ret) {
			free(all);
			return ret;
		}
	}
	/* distinct ids, in perf's order */
	struct pk_aggr_id *sorted = malloc((size_t)nr_cpus * sizeof(*sorted));
	if (!sorted) {
		free(all);
		return -ENOMEM;
	}
	memcpy(sorted, all, (size_t)nr_cpus * sizeof(*sorted));
	qsort(sorted, (size_t)nr_cpus, sizeof(*sorted), cmp_id_qsort);
	for (int i = 0; i < nr_cpus; i++)
		if (!n || cmp_id(&sorted[n - 1], &sorted[i]))
			sorted[n++] = sorted[i];
	for (int i = 0; i < nr_cpus; i++)
		for (int j = 0; j < n; j++)
			if (!cmp_id(&all[i], &sorted[j]))
				cpu_to_id[i] = j;
	free(all);
	*ids = sorted;
	return n;
}

int pk_aggr_id_name(const struct pk_aggr_id *id, enum pk_aggr_mode mode, char *buf, size_t size)
{
	switch (mode) {
	case PK_AGGR_CORE:
		return snprintf(buf, size, "S%d-D%d-C%d", id->socket, id->die, id->core);
	case PK_AGGR_DIE:
		return snprintf(buf, size, "S%d-D%d", id->socket, id->die);
	case PK_AGGR_SOCKET:
		return snprintf(buf, size, "S%d", id->socket);
	case PK_AGGR_NODE:
		return snprintf(buf, size, "N%d", id->node);
	}
	return snprintf(buf, size, "?");
}

static void add_count(struct pk_count *to, const struct pk_count *c)
{
	to->val += c->val;
	to->ena += c->ena;
	to->run += c->run;
}

int pk_counter_read_aggr(struct pk_counter_set *set, int ev, const int *cpu_to_id, int id,
			 struct pk_count *out)
{
	struct pk_count one;
	int ret;

	if (!set || !cpu_to_id || !out || ev < 0 || ev >= set->nr_ev)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	for (int c = 0; c < set->nr_cpus; c++) {
		if (cpu_to_id[c] != id)
			continue;
		for (int t = 0; t < set->nr_threads; t++) {
			ret = pk_counter_read_one(set, ev, c, t, &one);
			if (ret)
				return ret;
			add_count(out, &one);
		}
	}
	return 0;
}

int pk_counter_read_thread(struct pk_counter_set *set, int ev, int thread_i,
			   struct pk_count *out)
{
	struct pk_count one;
	int ret;

	if (!set || !out || ev < 0 || ev >= set->nr_ev || thread_i < 0 ||
	    thread_i >= set->nr_threads)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	for (int c = 0; c < set->nr_cpus; c++) {
		ret = pk_counter_read_one(set, ev, c, thread_i, &one);
		if (ret)
			return ret;
		add_count(out, &one);
	}
	return 0;
}
