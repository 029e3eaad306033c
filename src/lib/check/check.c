// SPDX-License-Identifier: MIT
/*
 * The machine survey behind `perfkit check`: limits, PMUs, tracefs, and a
 * live open of one event of each kind, so a user whose record or stat
 * fails sees in one screen what this machine and its kernel allow.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include <perfkit/evfd.h>
#include <perfkit/limits.h>

/* snprintf whose truncation is acceptable (a path too long simply fails
 * to open; a long name is cut) */
__attribute__((format(printf, 3, 4))) static void fmt(char *buf, size_t size, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vsnprintf(buf, size, f, ap);
	va_end(ap);
}

static const char *sysfs(const char *root)
{
	const char *env = getenv("PERFKIT_SYSFS");

	if (root)
		return root;
	return env && *env ? env : "/sys";
}

static int read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");

	buf[0] = 0;
	if (!f)
		return -errno;
	if (!fgets(buf, (int)size, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static int cmp_pmu(const void *a, const void *b)
{
	return strcmp(((const struct pk_check_pmu *)a)->name,
		      ((const struct pk_check_pmu *)b)->name);
}

static void survey_pmus(struct pk_check *c, const char *root)
{
	char dir[512], path[768], buf[64];
	struct dirent *e;
	DIR *d;

	fmt(dir, sizeof(dir), "%s/bus/event_source/devices", root);
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d)) && c->nr_pmus < PK_CHECK_MAX_PMUS) {
		struct pk_check_pmu *p = &c->pmus[c->nr_pmus];

		if (e->d_name[0] == '.')
			continue;
		fmt(p->name, sizeof(p->name), "%s", e->d_name);
		fmt(path, sizeof(path), "%s/%s/type", dir, e->d_name);
		p->type = read_line(path, buf, sizeof(buf)) || !buf[0] ? -1 : atoi(buf);
		fmt(path, sizeof(path), "%s/%s/cpumask", dir, e->d_name);
		read_line(path, p->cpumask, sizeof(p->cpumask));
		fmt(path, sizeof(path), "%s/%s/events", dir, e->d_name);
		p->nr_events = count_entries(path);
		c->kprobe_pmu |= !strcmp(p->name, "kprobe");
		c->uprobe_pmu |= !strcmp(p->name, "uprobe");
		c->nr_pmus++;
	}
	closedir(d);
	qsort(c->pmus, (size_t)c->nr_pmus, sizeof(c->pmus[0]), cmp_pmu);
	c->rdpmc_sysfs = -1;
	fmt(path, sizeof(path), "%s/cpu/rdpmc", dir);
	if (!read_line(path, buf, sizeof(buf)) && buf[0])
		c->rdpmc_sysfs = atoi(buf);
}

static int pmu_type(const struct pk_check *c, const char *name)
{
	for (int i = 0; i < c->nr_pmus; i++)
		if (!strcmp(c->pmus[i].name, name))
			return c->pmus[i].type;
	return -1;
}

static void find_tracefs(struct pk_check *c, const char *procfs_root)
{
	char path[512], line[1024], dev[256], mnt[512], type[64];
	const char *env = getenv("PERFKIT_PROCFS");
	FILE *f;

	fmt(path, sizeof(path), "%s/mounts",
		 procfs_root ? procfs_root : (env && *env ? env : "/proc"));
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %511s %63s", dev, mnt, type) != 3)
			continue;
		if (!strcmp(type, "tracefs") && !c->tracefs[0])
			fmt(c->tracefs, sizeof(c->tracefs), "%s", mnt);
	}
	fclose(f);
}

/* Open attr on this process (or CPU 0 for all tasks); record the outcome. */
static int try_open(struct pk_check *c, enum pk_check_probe_kind k, struct perf_event_attr *a,
		    bool system_wide)
{
	struct pk_check_probe *p = &c->probes[k];
	int fd = pk_evfd_open(a, system_wide ? -1 : 0, system_wide ? 0 : -1, -1,
			      PERF_FLAG_FD_CLOEXEC, NULL);

	p->err = fd < 0 ? fd : 0;
	if (fd < 0)
		pk_limits_explain_open(&c->limits, fd, a, system_wide, p->detail,
				       sizeof(p->detail));
	return fd;
}

static struct perf_event_attr base_attr(uint32_t type, uint64_t config)
{
	struct perf_event_attr a = {0};

	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return a;
}

static void close_fd(int fd)
{
	if (fd >= 0)
		close(fd);
}

static void probe_hardware(struct pk_check *c)
{
	struct perf_event_attr a = base_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	int fd = try_open(c, PK_CHECK_HARDWARE, &a, false);

	c->hw_pmu = fd >= 0;
	if (fd >= 0) {
		/* the user page says whether rdpmc works for this event */
		struct perf_event_mmap_page *pg =
			mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);

		if (pg != MAP_FAILED) {
			c->rdpmc_user = pg->cap_user_rdpmc;
			munmap(pg, (size_t)sysconf(_SC_PAGESIZE));
		}
	}
	close_fd(fd);
	a.sample_period = 100000;
	close_fd(try_open(c, PK_CHECK_SAMPLING, &a, false));
}

static void probe_tracepoint(struct pk_check *c)
{
	struct perf_event_attr a = base_attr(PERF_TYPE_TRACEPOINT, 0);
	struct pk_check_probe *p = &c->probes[PK_CHECK_TRACEPOINT];
	char path[512], buf[32];

	if (!c->tracefs[0]) {
		p->err = -ENOENT;
		fmt(p->detail, sizeof(p->detail), "tracefs is not mounted "
						       "(mount -t tracefs nodev /sys/kernel/tracing)");
		return;
	}
	fmt(path, sizeof(path), "%s/events/sched/sched_switch/id", c->tracefs);
	if (read_line(path, buf, sizeof(buf)) || !buf[0]) {
		p->err = -EACCES;
		fmt(p->detail, sizeof(p->detail), "cannot read %s", path);
		return;
	}
	a.config = strtoull(buf, NULL, 10);
	close_fd(try_open(c, PK_CHECK_TRACEPOINT, &a, false));
}

static volatile long watched;

static void probe_breakpoint(struct pk_check *c)
{
	struct perf_event_attr a = base_attr(PERF_TYPE_BREAKPOINT, 0);
	uint64_t n = 0;
	int fd;

	a.bp_type = HW_BREAKPOINT_W;
	a.bp_addr = (uint64_t)(uintptr_t)&watched;
	a.bp_len = HW_BREAKPOINT_LEN_8;
	fd = try_open(c, PK_CHECK_BREAKPOINT, &a, false);
	if (fd < 0)
		return;
	watched = 1;
	watched = 2;
	if (read(fd, &n, sizeof(n)) == sizeof(n) && n == 0) {
		c->probes[PK_CHECK_BREAKPOINT].err = 1;
		fmt(c->probes[PK_CHECK_BREAKPOINT].detail,
			 sizeof(c->probes[0].detail),
			 "never fires: the hypervisor does not deliver debug "
			 "exceptions");
	}
	close(fd);
}

static void probe_dynamic(struct pk_check *c, enum pk_check_probe_kind k, const char *pmu)
{
	int type = pmu_type(c, pmu);
	struct perf_event_attr a = base_attr(type < 0 ? 0 : (uint32_t)type, 0);
	struct pk_check_probe *p = &c->probes[k];

	if (type < 0) {
		p->err = -ENODEV;
		fmt(p->detail, sizeof(p->detail), "no %s PMU (kernel older than 4.17 or "
						       "built without it)", pmu);
		return;
	}
	a.exclude_kernel = 0;
	if (k == PK_CHECK_KPROBE) {
		a.config1 = (uint64_t)(uintptr_t)"do_nanosleep";
	} else {
		Dl_info info;

		/* this very function, in the library's file */
		if (!dladdr((void *)probe_dynamic, &info) || !info.dli_fname)
			return;
		a.config1 = (uint64_t)(uintptr_t)info.dli_fname;
		a.config2 = (uint64_t)((uintptr_t)probe_dynamic - (uintptr_t)info.dli_fbase);
	}
	close_fd(try_open(c, k, &a, false));
}

const char *pk_check_probe_name(enum pk_check_probe_kind k)
{
	static const char *const names[PK_CHECK_NR_PROBES] = {
		"software event (task-clock)", "hardware event (cycles)",
		"hardware sampling (cycles)",  "tracepoint (sched:sched_switch)",
		"hardware breakpoint",	       "kprobe (kprobe PMU)",
		"uprobe (uprobe PMU)",	       "system-wide (cpu-clock on CPU 0)",
	};

	return k < PK_CHECK_NR_PROBES ? names[k] : "?";
}

int pk_check_run(struct pk_check *c, const char *sysfs_root, const char *procfs_root)
{
	struct perf_event_attr a;
	struct utsname u;

	memset(c, 0, sizeof(*c));
	c->sz = sizeof(*c);
	c->limits.sz = sizeof(c->limits);
	pk_limits_read(&c->limits, procfs_root);
	if (!uname(&u))
		fmt(c->kernel, sizeof(c->kernel), "%s %s", u.release, u.machine);
	survey_pmus(c, sysfs(sysfs_root));
	find_tracefs(c, procfs_root);
	a = base_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	close_fd(try_open(c, PK_CHECK_SOFTWARE, &a, false));
	probe_hardware(c);
	probe_tracepoint(c);
	probe_breakpoint(c);
	probe_dynamic(c, PK_CHECK_KPROBE, "kprobe");
	probe_dynamic(c, PK_CHECK_UPROBE, "uprobe");
	a = base_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	a.exclude_kernel = 0;
	close_fd(try_open(c, PK_CHECK_SYSTEM_WIDE, &a, true));
	return 0;
}
