// SPDX-License-Identifier: MIT
/* Counting: an fd per (event, CPU, thread), enable/disable/reset, reads. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <perfkit/counter.h>
#include <perfkit/evfd.h>
#include "counter_internal.h"
#include "internal.h"

static __thread char open_errmsg[256];

const char *pk_counter_open_errmsg(void)
{
	return open_errmsg;
}

const char *pk_counter_set_errmsg(const struct pk_counter_set *set)
{
	return set ? set->errmsg : "";
}

/* Open through the negotiating call; a feature this kernel lacks is
 * dropped with one note per event.  Returns fd or -1 with errno set. */
static long sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
				unsigned long flags)
{
	struct pk_evfd_open_info info = {.sz = sizeof(info)};
	int fd = pk_evfd_open(attr, pid, cpu, group_fd, flags, &info);

	if (fd < 0) {
		errno = -fd;
		return -1;
	}
	if (info.dropped) {
		static __thread char last_note[sizeof(info.dropped_names)];

		/* one note, not one per CPU and thread */
		if (strcmp(last_note, info.dropped_names))
			pki_warn("this kernel lacks %s: opened without", info.dropped_names);
		strcpy(last_note, info.dropped_names);
		*attr = info.attr;
	}
	return fd;
}

/* open_one's answer when the event opened but the kernel refused its
 * tracepoint filter (open_errmsg says so) */
#define FILTER_REFUSED 1

static bool cpu_in(const int *cpus, int nr, int cpu)
{
	for (int i = 0; i < nr; i++) {
		if (cpus[i] == cpu)
			return true;
	}
	return false;
}

static bool group_read_for(const struct pk_counter_set *set, int ev)
{
	const struct pk_event *e = &set->list->ev[ev];
	const struct pk_event *l = &set->list->ev[e->leader];

	return set->group_read && l->group_size > 1;
}

static void build_attr(const struct pk_counter_set *set, const struct pk_counter_opts *o, int ev,
		       struct perf_event_attr *attr)
{
	const struct pk_event *e = &set->list->ev[ev];
	bool leader = e->leader == ev;

	*attr = e->attr;
	attr->size = sizeof(*attr);
	attr->sample_period = 0;
	attr->sample_type = 0;
	attr->freq = 0;
	attr->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (group_read_for(set, ev))
		attr->read_format |= PERF_FORMAT_GROUP;
	attr->inherit = o->inherit && !group_read_for(set, ev);
	/* Group members follow their leader; only leaders carry the switch. */
	attr->disabled = leader && !o->start_enabled;
	attr->enable_on_exec = leader && o->enable_on_exec;
	if (o->all_user) {
		attr->exclude_kernel = 1;
		attr->exclude_user = 0;
	}
	if (o->all_kernel) {
		attr->exclude_kernel = 0;
		attr->exclude_user = 1;
	}
}

/* Errors perf stat reports as <not supported> rather than failing. */
static bool not_supported_errno(int err)
{
	return err == ENOENT || err == EOPNOTSUPP || err == ENODEV || err == EINVAL ||
	       err == ENXIO || err == E2BIG;
}

static int open_one(struct pk_counter_set *set, const struct pk_counter_opts *o, int ev, int c,
		    int t)
{
	const struct pk_event *e = &set->list->ev[ev];
	struct perf_event_attr attr;
	int cpu = set->cpus[c], group_fd = -1;
	pid_t tid = set->tids[t];
	long fd;

	if (e->tool)
		return 0;	/* read from the set's clock, nothing to open */
	/* Uncore events count per CPU of their PMU's cpumask, never per task. */
	if (e->cpus && cpu < 0)
		return -EOPNOTSUPP;
	if (e->cpus && !cpu_in(e->cpus, e->nr_cpus, cpu))
		return 0;
	build_attr(set, o, ev, &attr);
	if (e->leader != ev)
		group_fd = *pki_counter_fd(set, e->leader, c, t);
	fd = sys_perf_event_open(&attr, tid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && errno == EACCES && !attr.exclude_kernel && tid != -1) {
		/* Unprivileged: retry user-only, as perf does. */
		attr.exclude_kernel = attr.exclude_hv = 1;
		fd = sys_perf_event_open(&attr, tid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0)
		return -errno;
	*pki_counter_fd(set, ev, c, t) = (int)fd;
	if (e->filter) {
		int err = pk_evfd_set_filter((int)fd, e->filter);

		if (err) {
			snprintf(open_errmsg, sizeof(open_errmsg),
				 "failed to set filter \"%s\" on event %s: %s", e->filter, e->name,
				 strerror(-err));
			return FILTER_REFUSED;
		}
	}
	if (o->mmap_self) {
		void *p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, (int)fd, 0);
		set->pages[pki_counter_slot(set, ev, c, t)] = p == MAP_FAILED ? NULL : p;
	}
	return 0;
}

static int open_event(struct pk_counter_set *set, const struct pk_counter_opts *o, int ev)
{
	for (int c = 0; c < set->nr_cpus; c++) {
		for (int t = 0; t < set->nr_threads; t++) {
			int ret = open_one(set, o, ev, c, t);

			if (!ret)
				continue;
			if (ret == FILTER_REFUSED)
				return -EINVAL;
			if (not_supported_errno(-ret)) {
				set->state[ev] = PK_COUNT_NOT_SUPPORTED;
				pki_debug("%s: not supported: %s", set->list->ev[ev].name,
					  strerror(-ret));
				return 0;
			}
			snprintf(open_errmsg, sizeof(open_errmsg), "%s: cannot open: %s%s",
				 set->list->ev[ev].name, strerror(-ret),
				 -ret == EACCES ? " (see /proc/sys/kernel/perf_event_paranoid)"
				 : -ret == EMFILE ? " (too many open files; raise ulimit -n)"
						  : "");
			return ret;
		}
	}
	return 0;
}

static int copy_targets(struct pk_counter_set *set, const struct pk_counter_opts *o)
{
	set->nr_cpus = o->cpus ? o->nr_cpus : 1;
	set->nr_threads = o->tids ? o->nr_tids : 1;
	if (set->nr_cpus <= 0 || set->nr_threads <= 0)
		return -EINVAL;
	set->cpus = calloc((size_t)set->nr_cpus, sizeof(int));
	set->tids = calloc((size_t)set->nr_threads, sizeof(pid_t));
	if (!set->cpus || !set->tids)
		return -ENOMEM;
	for (int i = 0; i < set->nr_cpus; i++)
		set->cpus[i] = o->cpus ? o->cpus[i] : -1;
	for (int i = 0; i < set->nr_threads; i++)
		set->tids[i] = o->tids ? o->tids[i] : (o->cpus ? -1 : 0);
	return 0;
}

int pk_counter_set_open(struct pk_counter_set **out, const struct pk_event_list *list,
			const struct pk_counter_opts *opts)
{
	struct pk_counter_opts o = {0};
	struct pk_counter_set *set;
	size_t nslots;
	int ret;

	open_errmsg[0] = 0;
	if (opts)
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	if (!out || !list || !list->nr) {
		snprintf(open_errmsg, sizeof(open_errmsg), "no events to count");
		return -EINVAL;
	}
	set = calloc(1, sizeof(*set));
	if (!set)
		return -ENOMEM;
	set->list = list;
	set->nr_ev = (int)list->nr;
	set->group_read = o.group_read && !o.inherit;
	ret = copy_targets(set, &o);
	if (ret)
		goto fail;
	nslots = (size_t)set->nr_ev * (size_t)set->nr_cpus * (size_t)set->nr_threads;
	set->fds = malloc(nslots * sizeof(int));
	set->pages = calloc(nslots, sizeof(void *));
	set->state = calloc((size_t)set->nr_ev, 1);
	ret = -ENOMEM;
	if (!set->fds || !set->pages || !set->state)
		goto fail;
	for (size_t i = 0; i < nslots; i++)
		set->fds[i] = -1;
	for (int ev = 0; ev < set->nr_ev; ev++) {
		ret = open_event(set, &o, ev);
		if (ret)
			goto fail;
	}
	if (o.start_enabled)
		pk_counter_set_tool_start(set);
	*out = set;
	return 0;
fail:
	if (ret == -EINVAL && !open_errmsg[0])
		snprintf(open_errmsg, sizeof(open_errmsg), "bad CPU or thread list");
	pk_counter_set_close(set);
	return ret;
}

void pk_counter_set_close(struct pk_counter_set *set)
{
	size_t nslots;
	long page = sysconf(_SC_PAGESIZE);

	if (!set)
		return;
	nslots = (size_t)set->nr_ev * (size_t)set->nr_cpus * (size_t)set->nr_threads;
	for (size_t i = 0; set->fds && i < nslots; i++) {
		if (set->pages && set->pages[i])
			munmap(set->pages[i], (size_t)page);
		if (set->fds[i] >= 0)
			close(set->fds[i]);
	}
	free(set->fds);
	free(set->pages);
	free(set->state);
	free(set->cpus);
	free(set->tids);
	free(set);
}

static int ioctl_all(struct pk_counter_set *set, unsigned long req, const char *what)
{
	if (!set)
		return -EINVAL;
	size_t nslots = (size_t)set->nr_ev * (size_t)set->nr_cpus * (size_t)set->nr_threads;

	for (size_t i = 0; i < nslots; i++) {
		if (set->fds[i] >= 0 && ioctl(set->fds[i], req, 0) < 0) {
			int err = errno;
			snprintf(set->errmsg, sizeof(set->errmsg), "%s: %s", what, strerror(err));
			return -err;
		}
	}
	return 0;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void pk_counter_set_tool_start(struct pk_counter_set *set)
{
	if (set && !set->running) {
		set->running = true;
		set->run_start = mono_ns();
	}
}

uint64_t pki_counter_set_tool_value(const struct pk_counter_set *s, unsigned int tool)
{
	switch (tool) {
	case PK_EVENT_TOOL_DURATION:
		return s->run_total + (s->running ? mono_ns() - s->run_start : 0);
	case PK_EVENT_TOOL_USER_TIME:
		return s->user_ns;
	case PK_EVENT_TOOL_SYSTEM_TIME:
		return s->system_ns;
	default:
		return 0;
	}
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ULL + (uint64_t)tv->tv_usec * 1000ULL;
}

void pk_counter_set_tool_rusage(struct pk_counter_set *set, const struct rusage *ru)
{
	if (!set || !ru)
		return;
	set->user_ns = tv_ns(&ru->ru_utime);
	set->system_ns = tv_ns(&ru->ru_stime);
}

int pk_counter_set_enable(struct pk_counter_set *set)
{
	pk_counter_set_tool_start(set);
	return ioctl_all(set, PERF_EVENT_IOC_ENABLE, "enable");
}

int pk_counter_set_disable(struct pk_counter_set *set)
{
	if (set && set->running) {
		set->run_total += mono_ns() - set->run_start;
		set->running = false;
	}
	return ioctl_all(set, PERF_EVENT_IOC_DISABLE, "disable");
}

int pk_counter_set_reset(struct pk_counter_set *set)
{
	if (set) {
		set->run_total = 0;
		set->run_start = mono_ns();
	}
	return ioctl_all(set, PERF_EVENT_IOC_RESET, "reset");
}

int pk_counter_set_nr_cpus(const struct pk_counter_set *set)
{
	return set->nr_cpus;
}

int pk_counter_set_nr_threads(const struct pk_counter_set *set)
{
	return set->nr_threads;
}

int pk_counter_set_cpu(const struct pk_counter_set *set, int i)
{
	return i >= 0 && i < set->nr_cpus ? set->cpus[i] : -1;
}

pid_t pk_counter_set_tid(const struct pk_counter_set *set, int i)
{
	return i >= 0 && i < set->nr_threads ? set->tids[i] : -1;
}

enum pk_count_state pk_counter_state(const struct pk_counter_set *set, int ev)
{
	if (ev < 0 || ev >= set->nr_ev)
		return PK_COUNT_NOT_SUPPORTED;
	return (enum pk_count_state)set->state[ev];
}

double pk_count_scaled(const struct pk_count *c)
{
	if (!c->run || c->run >= c->ena)
		return (double)c->val;
	return (double)c->val * ((double)c->ena / (double)c->run);
}
