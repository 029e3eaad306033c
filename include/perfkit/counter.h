/* SPDX-License-Identifier: MIT */
/*
 * perfkit/counter.h - counting: open a parsed event list on threads or CPUs,
 * read scaled counts (one read per group with PERF_FORMAT_GROUP), read your
 * own counters cheaply through the mmap page, and the figures perf stat
 * derives from counts (CPUs utilized, rates, IPC, miss ratios, stddev).
 *
 *	struct pk_event_list ev = {0};
 *	struct pk_counter_set *set;
 *	struct pk_count c;
 *	pk_event_list_parse(&ev, "task-clock,page-faults", NULL, NULL);
 *	pk_counter_set_open(&set, &ev, NULL);		// this thread, disabled
 *	pk_counter_set_enable(set);
 *	work();
 *	pk_counter_set_disable(set);
 *	pk_counter_read(set, 1, &c);			// page-faults
 *	pk_counter_set_close(set);
 */
#ifndef PERFKIT_COUNTER_H
#define PERFKIT_COUNTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/resource.h>
#include <perfkit/event.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pk_counter_set;

struct pk_counter_opts {
	size_t sz;		/* sizeof(struct pk_counter_opts) */
	const pid_t *tids;	/* threads to count; NULL: see below */
	int nr_tids;
	const int *cpus;	/* CPUs to count on; NULL: any CPU the thread runs on */
	int nr_cpus;
	/*
	 * tids NULL and cpus NULL: the calling thread.  tids NULL and cpus
	 * set: everything on those CPUs (system-wide, needs privileges).
	 */
	bool inherit;		/* count children created after opening too */
	bool enable_on_exec;	/* start counting when the (stopped) task execs */
	bool start_enabled;	/* counting from open on (default: disabled) */
	bool group_read;	/* groups read with PERF_FORMAT_GROUP (no inherit) */
	bool mmap_self;		/* map each counter's user page for pk_counter_read_self */
	/* perf stat's --all-user and --all-kernel: every event counts in user
	 * (or kernel) space only, whatever its modifiers; all_kernel wins. */
	bool all_user, all_kernel;
};

/* A count with perf's enabled/running times. */
struct pk_count {
	uint64_t val;
	uint64_t ena;		/* ns the event was enabled */
	uint64_t run;		/* ns it was actually on the PMU */
};

enum pk_count_state {
	PK_COUNT_OK,
	PK_COUNT_NOT_SUPPORTED,	/* the event could not be opened */
	PK_COUNT_NOT_COUNTED,	/* opened but never scheduled */
};

/*
 * Open every event of list for the target.  Events the kernel refuses with
 * ENOENT/EOPNOTSUPP/ENODEV/EINVAL are kept as "not supported" (perf stat
 * does the same); other errors (EACCES, EMFILE, ESRCH...) fail the call.
 * On success *out owns the fds; close with pk_counter_set_close().  The list
 * must outlive the set.  On failure, returns -errno; the message naming the
 * event is pk_counter_open_errmsg().
 */
int pk_counter_set_open(struct pk_counter_set **out, const struct pk_event_list *list,
			const struct pk_counter_opts *opts);
void pk_counter_set_close(struct pk_counter_set *set);
/* The last error message of the set's operations (never NULL). */
const char *pk_counter_set_errmsg(const struct pk_counter_set *set);
/* Message of the last failed pk_counter_set_open() in this thread. */
const char *pk_counter_open_errmsg(void);

int pk_counter_set_enable(struct pk_counter_set *set);
int pk_counter_set_disable(struct pk_counter_set *set);
int pk_counter_set_reset(struct pk_counter_set *set);
/*
 * Tool events (duration_time) count the time between enable and disable.
 * A set enabled by the kernel (enable_on_exec) calls this when its command
 * starts.  pk_counter_set_enable() and start_enabled do it themselves.
 */
void pk_counter_set_tool_start(struct pk_counter_set *set);
/*
 * The tool events user_time and system_time read the command's CPU times:
 * give them its rusage once it has exited (pk_workload_wait()).  Until
 * then they read 0 (perf: <not counted>).
 */
void pk_counter_set_tool_rusage(struct pk_counter_set *set, const struct rusage *ru);

int pk_counter_set_nr_cpus(const struct pk_counter_set *set);
int pk_counter_set_nr_threads(const struct pk_counter_set *set);
/* CPU number at index i (-1: any CPU), thread id at index i (-1: all). */
int pk_counter_set_cpu(const struct pk_counter_set *set, int i);
pid_t pk_counter_set_tid(const struct pk_counter_set *set, int i);

enum pk_count_state pk_counter_state(const struct pk_counter_set *set, int ev);

/* Sum of event ev over all CPUs and threads. 0 or -errno. */
int pk_counter_read(struct pk_counter_set *set, int ev, struct pk_count *out);
/* Event ev on one CPU index and thread index. */
int pk_counter_read_one(struct pk_counter_set *set, int ev, int cpu_i, int thread_i,
			struct pk_count *out);
/*
 * The whole group led by event leader, on one CPU and thread index, in one
 * read() (PERF_FORMAT_GROUP; needs opts.group_read).  out[] gets group_size
 * entries, leader first.
 */
int pk_counter_read_group(struct pk_counter_set *set, int leader, int cpu_i, int thread_i,
			  struct pk_count *out, int nr);
/*
 * Self-monitoring read of event ev (calling thread, opened with mmap_self):
 * rdpmc when the page says cap_user_rdpmc, else read().  *used_rdpmc (may be
 * NULL) tells which.
 */
int pk_counter_read_self(struct pk_counter_set *set, int ev, struct pk_count *out,
			 bool *used_rdpmc);

/* The count scaled for multiplexing: val * ena / run (val when run == ena). */
double pk_count_scaled(const struct pk_count *c);

/* Event ev summed over every CPU of one thread index. */
int pk_counter_read_thread(struct pk_counter_set *set, int ev, int thread_i,
			   struct pk_count *out);

/* -------------------------------------------------------------------------
 * Aggregation by topology, as perf stat's --per-core, --per-die,
 * --per-socket and --per-node.
 */
enum pk_aggr_mode { PK_AGGR_CORE, PK_AGGR_DIE, PK_AGGR_SOCKET, PK_AGGR_NODE };

/* Where a CPU sits; -1 in the fields the mode does not use (or sysfs lacks). */
struct pk_aggr_id {
	int socket, die, core, node;
};

/*
 * The id of cpu for mode, from <sysfs_root>/devices/system/{cpu,node}
 * (sysfs_root NULL: $PERFKIT_SYSFS or /sys).  0 or -EINVAL.
 */
int pk_cpu_aggr_id(int cpu, enum pk_aggr_mode mode, const char *sysfs_root,
		   struct pk_aggr_id *id);
/*
 * Group cpus[0..nr_cpus) by mode: *ids gets the distinct ids, sorted as
 * perf sorts them (node, socket, die, core), malloc'ed (free() it);
 * cpu_to_id[i] (nr_cpus entries, the caller's) gets the index in *ids of
 * cpus[i].  Returns the number of ids or -errno.
 */
int pk_cpu_aggr_map(const int *cpus, int nr_cpus, enum pk_aggr_mode mode,
		    const char *sysfs_root, struct pk_aggr_id **ids, int *cpu_to_id);
/* perf's name of an id: "S0-D0-C1", "S0-D0", "S0", "N0"; as snprintf. */
int pk_aggr_id_name(const struct pk_aggr_id *id, enum pk_aggr_mode mode, char *buf,
		    size_t size);
/*
 * Event ev summed over the set's CPU indexes i with cpu_to_id[i] == id
 * (cpu_to_id has pk_counter_set_nr_cpus() entries) and all threads.
 */
int pk_counter_read_aggr(struct pk_counter_set *set, int ev, const int *cpu_to_id, int id,
			 struct pk_count *out);

/* Threads of a process from /proc/<pid>/task; *tids is malloc'ed. */
int pk_thread_list_of_pid(pid_t pid, pid_t **tids, int *nr);
/* "0-3,7" into a malloc'ed sorted array; returns the count or -errno. */
int pk_cpu_list_parse(const char *str, int **cpus);
/* The online CPUs (sysfs), malloc'ed; count or -errno. */
int pk_cpu_list_online(int **cpus);

/* A command started stopped, for counting from its exec on. */
struct pk_workload;
/*
 * Fork argv; the child waits until pk_workload_start().  Returns 0 or
 * -errno; *out is freed by pk_workload_free().
 */
int pk_workload_prepare(struct pk_workload **out, char *const argv[]);
pid_t pk_workload_pid(const struct pk_workload *w);
/* Let the child exec.  Returns 0, or -errno when exec failed (errno of execvp). */
int pk_workload_start(struct pk_workload *w);
/* Wait for it; *status as waitpid() gives it. */
int pk_workload_wait(struct pk_workload *w, int *status, struct rusage *ru);
void pk_workload_free(struct pk_workload *w);

/* -------------------------------------------------------------------------
 * Derived figures (perf stat's "shadow" metrics) and run statistics.
 */

/* Mean and standard deviation over runs (Welford). */
struct pk_stat_acc {
	double n, mean, m2;
};

void pk_stat_acc_add(struct pk_stat_acc *a, double v);
/* Standard deviation of the mean, as perf prints it after "+-". */
double pk_stat_acc_stddev(const struct pk_stat_acc *a);
/* The same relative to the mean, in percent (0 when the mean is 0). */
double pk_stat_acc_rel_stddev(const struct pk_stat_acc *a);

/* What the metrics are computed from: the totals of one run or interval. */
struct pk_stat_ctx {
	double elapsed_ns;	/* wall time of the run or interval */
	double task_clock_ns;	/* mean of the task-clock and cpu-clock counts */
	double nr_clocks;	/* how many clock events went into that mean */
	double cycles, instructions, branches, cache_refs;
	double stalled_front, stalled_back;
	double l1d_loads, l1i_loads, llc_loads, dtlb_loads, itlb_loads;
};

/* Feed one event's (scaled) count into the context. */
void pk_stat_ctx_add(struct pk_stat_ctx *ctx, const struct perf_event_attr *attr, double count);

struct pk_stat_metric {
	double value;
	char fmt[16];		/* printf format of value in perf's layout, e.g. "%8.3f" */
	char unit[40];		/* "CPUs utilized", "K/sec", "insn per cycle", ... */
};

/*
 * The metric perf prints after '#' for an event with this attr and count.
 * Returns false when there is none.
 */
bool pk_stat_metric(const struct pk_stat_ctx *ctx, const struct perf_event_attr *attr,
		    double count, struct pk_stat_metric *out);

#ifdef __cplusplus
}
#endif
#endif
