// SPDX-License-Identifier: MIT
/*
 * The events of a recording: their attrs (sampling, what to track), one
 * descriptor per event, CPU and thread, and one ring per CPU that every
 * descriptor of that CPU writes into.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "internal.h"
#include <perfkit/evfd.h>
#include <perfkit/limits.h>
#include "recorder_internal.h"

#define DEFAULT_FREQ	  4000
#define DWARF_REGS_X86_64 0xff0fffULL /* ax..r15 without the segment registers */

static long read_proc_long(const char *path, long dflt)
{
	FILE *f = fopen(path, "re");
	long v;

	if (!f)
		return dflt;
	if (fscanf(f, "%ld", &v) != 1)
		v = dflt;
	fclose(f);
	return v;
}

static uint64_t sample_type_for(const struct pk_recorder *r)
{
	uint64_t st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		      PERF_SAMPLE_PERIOD;

	if (!r->per_task || r->o.sample_cpu)
		st |= PERF_SAMPLE_CPU;
	if (r->o.callgraph != PK_CALLGRAPH_NONE)
		st |= PERF_SAMPLE_CALLCHAIN;
	if (r->o.callgraph == PK_CALLGRAPH_DWARF)
		st |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	if (r->o.sample_addr)
		st |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
	return st | r->o.extra_sample_type;
}

static void configure_attr(struct pk_recorder *r, struct perf_event_attr *a, bool tracking)
{
	bool tracepoint = a->type == PERF_TYPE_TRACEPOINT;

	a->size = sizeof(*a);
	/* bits the parser asked for (e.g. RAW) stay; the common layout is ours */
	a->sample_type |= r->sample_type;
	if (tracepoint)
		a->sample_type |= PERF_SAMPLE_RAW;
	a->read_format = PERF_FORMAT_ID;
	if (tracepoint && !r->o.period && !r->o.freq && !a->sample_period) {
		a->freq = 0;
		a->sample_period = 1; /* every occurrence, as perf does */
	} else if (r->o.period) {
		a->freq = 0;
		a->sample_period = r->o.period;
	} else if (r->o.freq || !a->sample_period) {
		a->freq = 1;
		a->sample_freq = r->o.freq ? r->o.freq : DEFAULT_FREQ;
	}
	a->sample_id_all = 1;
	/* wake up at a quarter of the ring rather than the kernel's half:
	 * more headroom before the kernel has to drop samples */
	a->watermark = !r->o.no_buffering;
	a->wakeup_watermark = (uint32_t)((r->o.mmap_pages ? r->o.mmap_pages : 128) *
					 (size_t)sysconf(_SC_PAGESIZE) / 4);
	if (r->o.no_buffering)
		a->wakeup_events = 1; /* --no-buffering: every record wakes us */
	a->write_backward = r->o.overwrite;
	a->disabled = 1;
	/* system-wide too, as perf: the kernel ignores it on a CPU-wide event */
	a->inherit = !r->o.no_inherit;
	a->inherit_stat = r->o.inherit_stat;
	a->enable_on_exec = r->trace_command;
	if (r->o.use_clockid) {
		a->use_clockid = 1;
		a->clockid = r->o.clockid;
	}
	if (r->o.callgraph == PK_CALLGRAPH_DWARF) {
		a->sample_regs_user = DWARF_REGS_X86_64;
		a->sample_stack_user = r->o.dwarf_stack_size ? r->o.dwarf_stack_size : 8192;
		a->exclude_callchain_user = 1;
	}
	if (r->o.all_user) {
		a->exclude_kernel = 1;
		a->exclude_user = 0;
	} else if (r->o.all_kernel) {
		a->exclude_user = 1;
		a->exclude_kernel = 0;
	}
	if (r->o.user_callchains && r->o.callgraph != PK_CALLGRAPH_NONE)
		a->exclude_callchain_kernel = 1;
	if (r->o.kernel_callchains && r->o.callgraph != PK_CALLGRAPH_NONE)
		a->exclude_callchain_user = 1;
	if (r->o.delay_ms)
		a->enable_on_exec = 0; /* enabled when the delay is over */
	if (r->o.no_samples)
		a->sample_period = 0; /* -n: as perf, a frequency (or period) of 0 */
	if (r->o.running_time && (a->sample_type & PERF_SAMPLE_READ))
		a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (r->o.callgraph != PK_CALLGRAPH_NONE)
		a->sample_max_stack =
			(uint16_t)read_proc_long("/proc/sys/kernel/perf_event_max_stack", 127);
	if (!tracking)
		return;
	a->mmap = 1;
	a->mmap2 = 1;
	a->comm = 1;
	a->comm_exec = 1;
	a->task = 1;
	a->mmap_data = r->data_maps;
	a->context_switch = r->o.switch_events;
	a->namespaces = r->o.namespaces;
}

static int add_event(struct pk_recorder *r, const struct perf_event_attr *attr, const char *name,
		     int leader, int group_size)
{
	struct rec_event *n = realloc(r->ev, (r->nr_ev + 1) * sizeof(*n));
	struct rec_event *e;

	if (!n)
		return -ENOMEM;
	r->ev = n;
	e = &n[r->nr_ev];
	memset(e, 0, sizeof(*e));
	e->attr = *attr;
	e->name = strdup(name);
	e->leader = leader;
	e->group_size = group_size;
	e->fds = malloc((size_t)r->nr_cpus * r->nr_threads * sizeof(int));
	e->ids = malloc((size_t)r->nr_cpus * r->nr_threads * sizeof(uint64_t));
	if (!e->name || !e->fds || !e->ids)
		return -ENOMEM;
	for (int i = 0; i < r->nr_cpus * r->nr_threads; i++)
		e->fds[i] = -1;
	r->nr_ev++;
	return 0;
}

/* perf's per-event terms (cpu-clock/call-graph=fp,max-stack=8/) over the
 * command line's settings */
static void apply_terms(struct perf_event_attr *a, const struct pk_event_rec_terms *t)
{
	const uint64_t dwarf_bits = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	int cg = t->callgraph;

	if (t->inherit)
		a->inherit = t->inherit > 0;
	/* as perf: max-stack alone means frame pointers; stack-size alone
	 * replaces the command line's call graph by none */
	if (!cg && t->max_stack)
		cg = PK_EVENT_CG_FP;
	else if (!cg && t->stack_size)
		cg = PK_EVENT_CG_NONE;
	switch (cg) {
	case PK_EVENT_CG_NONE:
		a->sample_type &= ~(PERF_SAMPLE_CALLCHAIN | dwarf_bits);
		a->sample_regs_user = 0;
		a->sample_stack_user = 0;
		a->exclude_callchain_user = 0;
		a->sample_max_stack = 0;
		break;
	case PK_EVENT_CG_FP:
		a->sample_type = (a->sample_type | PERF_SAMPLE_CALLCHAIN) & ~dwarf_bits;
		a->sample_regs_user = 0;
		a->sample_stack_user = 0;
		a->exclude_callchain_user = 0;
		break;
	case PK_EVENT_CG_DWARF:
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | dwarf_bits;
		a->sample_regs_user = DWARF_REGS_X86_64;
		a->sample_stack_user = t->stack_size ? t->stack_size : 8192;
		a->exclude_callchain_user = 1;
		break;
	default:
		break;
	}
	if (cg == PK_EVENT_CG_FP || cg == PK_EVENT_CG_DWARF)
		a->sample_max_stack =
			(uint16_t)read_proc_long("/proc/sys/kernel/perf_event_max_stack", 127);
	if (t->max_stack && (a->sample_type & PERF_SAMPLE_CALLCHAIN))
		a->sample_max_stack = t->max_stack;
}

/*
 * A group whose leader has PERF_SAMPLE_READ (":S") is sampled by its
 * leader alone, each sample reading the whole group, as perf does: group
 * reads, no inherit (the kernel refuses it with group reads), members that
 * only count and start with their leader.
 */
static void sample_read_group(struct perf_event_attr *a, const struct pk_event_list *list, size_t i)
{
	size_t leader = (size_t)list->ev[i].leader;

	if (leader >= list->nr || list->ev[leader].group_size < 2 ||
	    !(list->ev[leader].attr.sample_type & PERF_SAMPLE_READ))
		return;
	a->read_format |= PERF_FORMAT_GROUP;
	a->inherit = 0;
	if (leader == i)
		return;
	a->freq = 0;
	a->sample_period = 0;
	a->enable_on_exec = 0;
}

/*
 * System-wide, the events that sample are enabled only once the threads
 * and maps that already exist have been read from /proc; a dummy event
 * that samples nothing but tracks comm, mmap and task records is enabled
 * before that read.  So a task is either seen by the read or announced by
 * the kernel, and no sample can come from one that both missed (a short
 * task that ended while /proc was read).  perf does the same, with the
 * same name for the event.
 */
static int add_tracking_event(struct pk_recorder *r)
{
	struct perf_event_attr a = {.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY};

	/* with -D the first event is off for a while: its tracking would
	 * miss the command's exec and maps */
	if (r->per_task && !r->o.delay_ms)
		return 0;
	configure_attr(r, &a, true);
	a.enable_on_exec = r->trace_command;
	r->tracking_ev = r->nr_ev;
	return add_event(r, &a, "dummy:HG", r->nr_ev, 1);
}

int pki_rec_setup_events(struct pk_recorder *r)
{
	const struct pk_event_list *list = r->o.events;
	long max_rate = read_proc_long("/proc/sys/kernel/perf_event_max_sample_rate", 100000);
	int err;

	if (r->o.freq && (long long)r->o.freq > max_rate && r->o.strict_freq)
		return pki_rec_fail(r, -EINVAL,
				    "-F %llu is above the maximum sample rate %ld "
				    "(/proc/sys/kernel/perf_event_max_sample_rate)",
				    (unsigned long long)r->o.freq, max_rate);
	if (r->o.freq && (long long)r->o.freq > max_rate) {
		/* as perf: record at the most the kernel allows, and say so */
		pki_warn("-F %llu is above the maximum sample rate: recording at %ld Hz.\n"
			 "  The limit is /proc/sys/kernel/perf_event_max_sample_rate, which the "
			 "kernel also lowers\n  when sampling interrupts take too long; "
			 "--strict-freq refuses to record instead.",
			 (unsigned long long)r->o.freq, max_rate);
		r->o.freq = (uint64_t)max_rate;
	}
	r->sample_type = sample_type_for(r);
	/* system-wide, a dummy event of its own tracks tasks and maps, as
	 * perf's: see add_tracking_event() */
	r->tracking_ev = -1;
	if (!list || !list->nr) {
		struct perf_event_attr a = {.type = PERF_TYPE_HARDWARE,
					    .config = PERF_COUNT_HW_CPU_CYCLES};

		configure_attr(r, &a, r->per_task && !r->o.delay_ms);
		err = add_event(r, &a, "cycles", 0, 1);
		return err ? err : add_tracking_event(r);
	}
	for (size_t i = 0; i < list->nr; i++) {
		struct perf_event_attr a = list->ev[i].attr;

		configure_attr(r, &a, i == 0 && r->per_task && !r->o.delay_ms);
		sample_read_group(&a, list, i);
		apply_terms(&a, &list->ev[i].rec);
		err = add_event(r, &a, list->ev[i].name ? list->ev[i].name : "event",
				list->ev[i].leader, list->ev[i].group_size);
		if (err)
			return err;
		r->ev[r->nr_ev - 1].filter = list->ev[i].filter;
	}
	return add_tracking_event(r);
}

/* Open through the negotiating call.  What this kernel lacks is dropped
 * from the event's attr, which is what the file then describes. */
static int sys_perf_event_open(struct perf_event_attr *a, pid_t pid, int cpu, int group_fd)
{
	struct pk_evfd_open_info info = {.sz = sizeof(info)};
	int fd = pk_evfd_open(a, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC, &info);

	if (fd >= 0 && info.dropped) {
		static __thread char last_note[sizeof(info.dropped_names)];

		if (strcmp(last_note, info.dropped_names))
			pki_warn("this kernel lacks %s: recording without", info.dropped_names);
		strcpy(last_note, info.dropped_names);
		*a = info.attr;
	}
	return fd;
}

static int permission_error(struct pk_recorder *r, int err, const char *name)
{
	long paranoid = read_proc_long("/proc/sys/kernel/perf_event_paranoid", 2);

	return pki_rec_fail(
		r, err,
		"no permission to open event %s: kernel.perf_event_paranoid is %ld.\n"
		"  -1: no restriction; 0: system-wide (-a/-C) profiling too, but no raw "
		"tracepoint data;\n"
		"  1: user and kernel profiling of your own processes; 2: user-space "
		"profiling of your own processes only.\n"
		"  Run as root, or give the program CAP_PERFMON (Linux 5.8+; "
		"CAP_SYS_ADMIN before), or lower the setting:\n"
		"  sysctl -w kernel.perf_event_paranoid=1",
		name, paranoid);
}

static int open_error(struct pk_recorder *r, int err, const struct rec_event *e, int cpu, pid_t pid)
{
	switch (err) {
	case -EACCES:
	case -EPERM:
		return permission_error(r, err, e->name);
	case -ESRCH:
		return pki_rec_fail(r, err, "thread %d does not exist (any more)", pid);
	case -ENOENT:
	case -ENODEV:
	case -EOPNOTSUPP:
		return pki_rec_fail(r, err, "event %s is not supported on this machine", e->name);
	case -EMFILE:
	case -ENFILE:
		return pki_rec_fail(r, err, "too many open files: raise the limit (ulimit -n)");
	default: {
		/* the limits module knows which setting is to blame */
		struct pk_limits l = {.sz = sizeof(l)};
		char why[512];

		pk_limits_read(&l, NULL);
		pk_limits_explain_open(&l, err, &e->attr, pid == -1, why, sizeof(why));
		return pki_rec_fail(r, err, "cannot open event %s on CPU %d: %s", e->name, cpu,
				    why);
	}
	}
}

/* open_one's answer when the event opened but its filter was refused (the
 * message is set already) */
#define FILTER_REFUSED 1

static int open_one(struct pk_recorder *r, int ei, int ci, int ti)
{
	struct rec_event *e = &r->ev[ei];
	int slot = ci * r->nr_threads + ti;
	int group_fd = -1;
	int fd, err;

	if (e->leader != ei && e->leader >= 0 && e->leader < r->nr_ev)
		group_fd = r->ev[e->leader].fds[slot];
	e->attr.disabled = e->leader == ei || group_fd < 0;
	fd = sys_perf_event_open(&e->attr, r->threads[ti], r->cpus[ci], group_fd);
	if (fd < 0)
		return fd;
	e->fds[slot] = fd;
	if (e->filter && (err = pk_evfd_set_filter(fd, e->filter))) {
		pki_rec_fail(r, err, "failed to set filter \"%s\" on event %s: %s", e->filter,
			     e->name, strerror(-err));
		return FILTER_REFUSED;
	}
	if (ioctl(fd, PERF_EVENT_IOC_ID, &e->ids[e->nr_ids]))
		return -errno;
	e->nr_ids++;
	return 0;
}

/* Without a PMU, cycles becomes cpu-clock; without the right to profile
 * the kernel, user space only: as perf does, with a note. */
static bool fall_back(struct pk_recorder *r, int ei, int err)
{
	struct rec_event *e = &r->ev[ei];

	if (e->attr.type == PERF_TYPE_HARDWARE && e->attr.config == PERF_COUNT_HW_CPU_CYCLES &&
	    (err == -ENOENT || err == -ENODEV || err == -EOPNOTSUPP || err == -ENXIO ||
	     (err == -EINVAL && !(r->o.events && r->o.events->nr)))) {
		const char *mod = strchr(e->name, ':');
		char *name;

		if (asprintf(&name, "cpu-clock%s", mod ? mod : "") < 0)
			return false;
		e->attr.type = PERF_TYPE_SOFTWARE;
		e->attr.config = PERF_COUNT_SW_CPU_CLOCK;
		e->attr.precise_ip = 0;
		free(e->name);
		e->name = name;
		pki_rec_note(
			r, "The cycles event is not supported, trying to fall back to cpu-clock.");
		return true;
	}
	if ((err == -EACCES || err == -EPERM) && !e->attr.exclude_kernel) {
		e->attr.exclude_kernel = 1;
		e->attr.exclude_hv = 1;
		pki_rec_note(r, "kernel.perf_event_paranoid restricts kernel profiling: "
				"recording user space only.");
		return true;
	}
	return false;
}

int pki_rec_open_events(struct pk_recorder *r)
{
	for (int ei = 0; ei < r->nr_ev; ei++) {
		pki_debug("record: opening %s (type %u, config %#llx, sample_type %#llx) on %d "
			  "CPU(s) x %d thread(s)",
			  r->ev[ei].name, r->ev[ei].attr.type,
			  (unsigned long long)r->ev[ei].attr.config,
			  (unsigned long long)r->ev[ei].attr.sample_type, r->nr_cpus,
			  r->nr_threads);
		for (int ci = 0; ci < r->nr_cpus; ci++) {
			for (int ti = 0; ti < r->nr_threads; ti++) {
				int err = open_one(r, ei, ci, ti);

				if (err == FILTER_REFUSED)
					return -EINVAL;
				/* at most two fallbacks, on the event's first descriptor */
				for (int k = 0;
				     k < 2 && err && ci == 0 && ti == 0 && fall_back(r, ei, err);
				     k++)
					err = open_one(r, ei, ci, ti);
				if (err)
					return open_error(r, err, &r->ev[ei], r->cpus[ci],
							  r->threads[ti]);
			}
		}
	}
	return 0;
}

static void unmap_rings(struct pk_recorder *r)
{
	for (int i = 0; i < r->nr_rings; i++)
		pk_ring_unmap(r->rings[i]);
	r->nr_rings = 0;
}

static int map_first_fds(struct pk_recorder *r, size_t pages)
{
	struct pk_ring_opts ro = {
		.sz = sizeof(ro), .data_pages = pages, .overwrite = r->o.overwrite};

	for (int ci = 0; ci < r->nr_cpus; ci++) {
		int err = pk_ring_map(&r->rings[ci], r->ev[0].fds[ci * r->nr_threads], &ro);

		if (err) {
			unmap_rings(r);
			return err;
		}
		r->nr_rings++;
	}
	return 0;
}

int pki_rec_map_rings(struct pk_recorder *r)
{
	size_t pages = r->o.mmap_pages ? r->o.mmap_pages : 128;
	int err;

	r->rings = calloc(r->nr_cpus, sizeof(*r->rings));
	if (!r->rings)
		return -ENOMEM;
	while ((err = map_first_fds(r, pages)) == -EPERM && pages > 1 && !r->o.mmap_pages)
		pages /= 2;
	if (err == -EPERM) {
		struct pk_limits l = {.sz = sizeof(l)};
		char why[512];

		pk_limits_read(&l, NULL);
		return pki_rec_fail(
			r, err, "%s",
			pk_limits_explain_mmap(&l, err, (pages + 1) * (size_t)sysconf(_SC_PAGESIZE),
					       why, sizeof(why)));
	}
	if (err)
		return pki_rec_fail(r, err, "cannot map the ring buffer: %s", strerror(-err));
	if (pages != (r->o.mmap_pages ? r->o.mmap_pages : 128))
		pki_rec_note(r, "mlock limit: using %zu pages per CPU for the ring buffers", pages);
	r->mmap_pages = pages;
	for (int ei = 0; ei < r->nr_ev; ei++) {
		for (int ci = 0; ci < r->nr_cpus; ci++) {
			int target = r->ev[0].fds[ci * r->nr_threads];

			for (int ti = 0; ti < r->nr_threads; ti++) {
				int fd = r->ev[ei].fds[ci * r->nr_threads + ti];

				if (fd == target)
					continue;
				err = pk_ring_redirect(fd, target);
				if (err)
					return pki_rec_fail(r, err,
							    "cannot share the ring of CPU %d: %s",
							    r->cpus[ci], strerror(-err));
			}
		}
	}
	return 0;
}

int pki_rec_enable_tracking(struct pk_recorder *r)
{
	struct rec_event *e;

	if (r->tracking_ev < 0 || r->trace_command)
		return 0; /* on a command it starts at the exec */
	e = &r->ev[r->tracking_ev];
	for (int i = 0; i < r->nr_cpus * r->nr_threads; i++)
		if (e->fds[i] >= 0 && ioctl(e->fds[i], PERF_EVENT_IOC_ENABLE, 0))
			return -errno;
	return 0;
}

int pki_rec_enable(struct pk_recorder *r, bool on)
{
	for (int ei = 0; ei < r->nr_ev; ei++) {
		if (r->ev[ei].leader != ei)
			continue;
		for (int i = 0; i < r->nr_cpus * r->nr_threads; i++)
			if (r->ev[ei].fds[i] >= 0 &&
			    ioctl(r->ev[ei].fds[i],
				  on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0))
				return -errno;
	}
	return 0;
}

void pki_rec_close_events(struct pk_recorder *r)
{
	unmap_rings(r);
	free(r->rings);
	r->rings = NULL;
	for (int ei = 0; ei < r->nr_ev; ei++) {
		for (int i = 0; r->ev[ei].fds && i < r->nr_cpus * r->nr_threads; i++)
			if (r->ev[ei].fds[i] >= 0)
				close(r->ev[ei].fds[i]);
		free(r->ev[ei].fds);
		free(r->ev[ei].ids);
		free(r->ev[ei].name);
	}
	free(r->ev);
	r->ev = NULL;
	r->nr_ev = 0;
}
