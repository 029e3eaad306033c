/* SPDX-License-Identifier: MIT */
/*
 * The kernel's limits on perf events, read and explained, and a survey of
 * what this machine supports (what `perfkit check` prints).
 */
#ifndef PERFKIT_LIMITS_H
#define PERFKIT_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PK_LIMIT_UNKNOWN (-1000000) /* a setting that could not be read */

struct pk_limits {
	size_t sz;			/* sizeof(struct pk_limits) */
	int paranoid;			/* kernel.perf_event_paranoid */
	int max_sample_rate;		/* kernel.perf_event_max_sample_rate (Hz) */
	int max_stack;			/* kernel.perf_event_max_stack (frames) */
	int max_contexts_per_stack;	/* kernel.perf_event_max_contexts_per_stack */
	int mlock_kb;			/* kernel.perf_event_mlock_kb (per CPU) */
	int kptr_restrict;		/* kernel.kptr_restrict */
	int nmi_watchdog;		/* kernel.nmi_watchdog (takes a PMU counter) */
	bool cap_perfmon, cap_sys_admin, cap_sys_ptrace, cap_ipc_lock, cap_syslog;
	bool root;			/* effective uid 0 */
	uint64_t nofile_cur, nofile_max;	/* RLIMIT_NOFILE */
	uint64_t memlock_cur;		/* RLIMIT_MEMLOCK in bytes (UINT64_MAX: none) */
};

/*
 * Read the limits from procfs_root ("/proc" when NULL, or $PERFKIT_PROCFS
 * when set: tests point it at a fake tree) and the process itself.  A
 * setting that cannot be read is PK_LIMIT_UNKNOWN.  Returns 0.
 */
int pk_limits_read(struct pk_limits *l, const char *procfs_root);

/* True when the process may do what paranoid level p reserves for the
 * privileged: CAP_PERFMON, CAP_SYS_ADMIN or root. */
bool pk_limits_privileged(const struct pk_limits *l);

/* What paranoid level p allows unprivileged users, in one phrase. */
const char *pk_paranoid_meaning(int p);

/*
 * Explain a failed perf_event_open (err: negative errno) of attr, on one
 * task (system_wide false) or on CPUs: which limit says no and how to lift
 * it, in one or a few lines without a trailing newline, into buf.
 * Returns buf.
 */
const char *pk_limits_explain_open(const struct pk_limits *l, int err,
				   const struct perf_event_attr *attr, bool system_wide, char *buf,
				   size_t size);

/* Explain a failed mmap of a ring of `bytes` bytes per CPU (err: -EPERM or
 * -ENOMEM). */
const char *pk_limits_explain_mmap(const struct pk_limits *l, int err, size_t bytes, char *buf,
				   size_t size);

/* ---- the machine survey of `perfkit check` ------------------------- */

#define PK_CHECK_MAX_PMUS 48

struct pk_check_pmu {
	char name[64];
	int type;		/* perf_event_attr.type, -1 unknown */
	char cpumask[64];	/* "" when the PMU has none (core, software) */
	int nr_events;		/* entries in its events/ directory */
};

enum pk_check_probe_kind {
	PK_CHECK_SOFTWARE,	/* task-clock on this process */
	PK_CHECK_HARDWARE,	/* cycles on this process */
	PK_CHECK_SAMPLING,	/* cycles sampling */
	PK_CHECK_TRACEPOINT,	/* sched:sched_switch */
	PK_CHECK_BREAKPOINT,	/* a write watchpoint: opens, and fires? */
	PK_CHECK_KPROBE,	/* kprobe PMU on a kernel function */
	PK_CHECK_UPROBE,	/* uprobe PMU on this program */
	PK_CHECK_SYSTEM_WIDE,	/* cpu-clock on CPU 0, all tasks */
	PK_CHECK_NR_PROBES
};

struct pk_check_probe {
	int err;		/* 0 or the open's -errno; 1: opened but never fired */
	char detail[160];	/* why, when it failed */
};

struct pk_check {
	size_t sz;			/* sizeof(struct pk_check) */
	char kernel[128];		/* uname -r and machine */
	struct pk_limits limits;
	struct pk_check_pmu pmus[PK_CHECK_MAX_PMUS];
	int nr_pmus;
	bool hw_pmu;			/* a core PMU with cycles that opens */
	int rdpmc_sysfs;		/* the core PMU's rdpmc file, -1 absent */
	bool rdpmc_user;		/* cap_user_rdpmc of a self-monitoring page */
	char tracefs[256];		/* mount point, "" when not mounted */
	bool kprobe_pmu, uprobe_pmu;
	struct pk_check_probe probes[PK_CHECK_NR_PROBES];
};

/* Name of a probe kind ("software event", "tracepoint", ...). */
const char *pk_check_probe_name(enum pk_check_probe_kind k);

/*
 * Survey the machine: limits, PMUs under sysfs_root (NULL: "/sys" or
 * $PERFKIT_SYSFS), tracefs, and a live open of each probe kind.  Returns 0.
 */
int pk_check_run(struct pk_check *c, const char *sysfs_root, const char *procfs_root);

#ifdef __cplusplus
}
#endif
#endif
