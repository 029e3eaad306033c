// SPDX-License-Identifier: MIT
/*
 * The kernel's perf limits (sysctls under /proc/sys/kernel), the
 * process's capabilities and rlimits, and the explanations a user needs
 * when an open or an mmap is refused.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <perfkit/limits.h>

/* capability bit numbers (linux/capability.h) */
#define CAP_BIT_IPC_LOCK 14
#define CAP_BIT_SYS_PTRACE 19
#define CAP_BIT_SYS_ADMIN 21
#define CAP_BIT_SYSLOG 34
#define CAP_BIT_PERFMON 38

static const char *procfs(const char *root)
{
	const char *env = getenv("PERFKIT_PROCFS");

	if (root)
		return root;
	return env && *env ? env : "/proc";
}

/* One integer from root/rel; PK_LIMIT_UNKNOWN when absent or garbage. */
static int read_int(const char *root, const char *rel)
{
	char path[512], buf[64];
	FILE *f;
	char *end;
	long v;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "re");
	if (!f)
		return PK_LIMIT_UNKNOWN;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return PK_LIMIT_UNKNOWN;
	}
	fclose(f);
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf || v < INT_MIN + 1 || v > INT_MAX)
		return PK_LIMIT_UNKNOWN;
	return (int)v;
}

/* CapEff from root/self/status, 0 when unreadable. */
static uint64_t effective_caps(const char *root)
{
	char path[512], line[256];
	uint64_t caps = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/self/status", root);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "CapEff:", 7))
			caps = strtoull(line + 7, NULL, 16);
	fclose(f);
	return caps;
}

static uint64_t rlim_value(rlim_t v)
{
	return v == RLIM_INFINITY ? UINT64_MAX : (uint64_t)v;
}

int pk_limits_read(struct pk_limits *l, const char *procfs_root)
{
	const char *root = procfs(procfs_root);
	size_t sz = l->sz ? l->sz : sizeof(*l);
	struct rlimit rl;
	uint64_t caps;

	memset(l, 0, sizeof(*l));
	l->sz = sz;
	l->paranoid = read_int(root, "sys/kernel/perf_event_paranoid");
	l->max_sample_rate = read_int(root, "sys/kernel/perf_event_max_sample_rate");
	l->max_stack = read_int(root, "sys/kernel/perf_event_max_stack");
	l->max_contexts_per_stack = read_int(root, "sys/kernel/perf_event_max_contexts_per_stack");
	l->mlock_kb = read_int(root, "sys/kernel/perf_event_mlock_kb");
	l->kptr_restrict = read_int(root, "sys/kernel/kptr_restrict");
	l->nmi_watchdog = read_int(root, "sys/kernel/nmi_watchdog");
	caps = effective_caps(root);
	l->cap_perfmon = caps >> CAP_BIT_PERFMON & 1;
	l->cap_sys_admin = caps >> CAP_BIT_SYS_ADMIN & 1;
	l->cap_sys_ptrace = caps >> CAP_BIT_SYS_PTRACE & 1;
	l->cap_ipc_lock = caps >> CAP_BIT_IPC_LOCK & 1;
	l->cap_syslog = caps >> CAP_BIT_SYSLOG & 1;
	l->root = geteuid() == 0;
	if (!getrlimit(RLIMIT_NOFILE, &rl)) {
		l->nofile_cur = rlim_value(rl.rlim_cur);
		l->nofile_max = rlim_value(rl.rlim_max);
	}
	if (!getrlimit(RLIMIT_MEMLOCK, &rl))
		l->memlock_cur = rlim_value(rl.rlim_cur);
	return 0;
}

bool pk_limits_privileged(const struct pk_limits *l)
{
	return l->root || l->cap_perfmon || l->cap_sys_admin;
}

const char *pk_paranoid_meaning(int p)
{
	if (p == PK_LIMIT_UNKNOWN)
		return "unknown (no /proc/sys/kernel/perf_event_paranoid)";
	if (p <= -1)
		return "no restrictions";
	if (p == 0)
		return "CPU-wide (system-wide) profiling allowed, no raw tracepoint data";
	if (p == 1)
		return "user and kernel profiling of your own processes";
	if (p == 2)
		return "user-space profiling of your own processes only";
	return "perf events disabled for unprivileged users (distribution patch)";
}

static const char *paranoid_fix =
	"run as root, give the program CAP_PERFMON (Linux 5.8+, CAP_SYS_ADMIN before), "
	"or lower it: sysctl -w kernel.perf_event_paranoid=";

static void explain_permission(const struct pk_limits *l, const struct perf_event_attr *a,
			       bool system_wide, char *buf, size_t size)
{
	int need = system_wide ? 0 : (a && !a->exclude_kernel ? 1 : 2);

	if (a && a->type == PERF_TYPE_TRACEPOINT && system_wide)
		need = -1;
	if (pk_limits_privileged(l)) {
		snprintf(buf, size,
			 "permission denied although privileged: a security module (SELinux, "
			 "lockdown) or a container's seccomp policy refuses perf_event_open");
		return;
	}
	snprintf(buf, size,
		 "permission denied: kernel.perf_event_paranoid is %d (%s); %s needs %d or less: "
		 "%s%d",
		 l->paranoid, pk_paranoid_meaning(l->paranoid),
		 system_wide ? "profiling all tasks on a CPU"
			     : (need == 1 ? "counting kernel code" : "this event"),
		 need, paranoid_fix, need);
}

static void explain_einval(const struct pk_limits *l, const struct perf_event_attr *a, char *buf,
			   size_t size)
{
	if (a && a->freq && l->max_sample_rate != PK_LIMIT_UNKNOWN &&
	    a->sample_freq > (uint64_t)l->max_sample_rate) {
		snprintf(buf, size,
			 "invalid argument: sampling frequency %llu Hz is above "
			 "kernel.perf_event_max_sample_rate (%d): use a lower -F or raise it "
			 "with sysctl -w kernel.perf_event_max_sample_rate=%llu",
			 (unsigned long long)a->sample_freq, l->max_sample_rate,
			 (unsigned long long)a->sample_freq);
		return;
	}
	if (a && a->precise_ip) {
		snprintf(buf, size,
			 "invalid argument: precise sampling (:p, precise_ip %u) is not "
			 "supported by this PMU; drop the p modifier",
			 a->precise_ip);
		return;
	}
	snprintf(buf, size,
		 "invalid argument: the kernel refused this event's settings (event encoding, "
		 "sampling, call graph or modifiers)");
}

const char *pk_limits_explain_open(const struct pk_limits *l, int err,
				   const struct perf_event_attr *attr, bool system_wide, char *buf,
				   size_t size)
{
	switch (err) {
	case -EACCES:
	case -EPERM:
		explain_permission(l, attr, system_wide, buf, size);
		break;
	case -EMFILE:
	case -ENFILE:
		snprintf(buf, size,
			 "too many open files: one descriptor per event and CPU (or thread); "
			 "RLIMIT_NOFILE is %llu (hard limit %llu): raise it with ulimit -n",
			 (unsigned long long)l->nofile_cur, (unsigned long long)l->nofile_max);
		break;
	case -ENOENT:
	case -ENODEV:
		snprintf(buf, size,
			 "no PMU on this machine counts this event (virtual machines "
			 "often have none)");
		break;
	case -EOPNOTSUPP:
		snprintf(buf, size,
			 "operation not supported: this PMU cannot %s",
			 attr && attr->sample_period ? "sample (counting only) or lacks a "
						       "requested sampling feature"
						     : "count this event in this mode");
		break;
	case -EINVAL:
		explain_einval(l, attr, buf, size);
		break;
	case -E2BIG:
		snprintf(buf, size, "the kernel is older than this program's perf_event_attr");
		break;
	case -EBUSY:
		snprintf(buf, size,
			 "device busy: another user holds the PMU exclusively (an exclusive "
			 "event, or the NMI watchdog: sysctl -w kernel.nmi_watchdog=0)");
		break;
	case -ESRCH:
		snprintf(buf, size, "no such process: the task exited or never existed");
		break;
	default:
		snprintf(buf, size, "%s", strerror(-err));
	}
	return buf;
}

const char *pk_limits_explain_mmap(const struct pk_limits *l, int err, size_t bytes, char *buf,
				   size_t size)
{
	if (err == -EPERM || err == -ENOMEM) {
		snprintf(buf, size,
			 "cannot map a %zu KiB ring buffer: over kernel.perf_event_mlock_kb "
			 "(%d KiB per CPU) and RLIMIT_MEMLOCK (%llu KiB); use fewer pages "
			 "(-m) or raise a limit (sysctl -w kernel.perf_event_mlock_kb=N, "
			 "ulimit -l)",
			 bytes / 1024, l->mlock_kb,
			 l->memlock_cur == UINT64_MAX ? 0ULL
						      : (unsigned long long)(l->memlock_cur / 1024));
		return buf;
	}
	snprintf(buf, size, "cannot map the ring buffer: %s", strerror(-err));
	return buf;
}
