/* SPDX-License-Identifier: MIT */
/*
 * One perf event file descriptor: opening it with attribute negotiation,
 * every ioctl of perf_event_open(2) as a typed call, the prctl that
 * switches a task's own events, and overflow notification (poll, signals,
 * sigtrap).  The counter, ring and recorder modules are built on these;
 * use them directly when you manage descriptors yourself.
 *
 * Every function returns 0 (or a descriptor / count where said) on
 * success and a negative errno on failure; none allocates memory.
 */
#ifndef PERFKIT_EVFD_H
#define PERFKIT_EVFD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Attribute features an older kernel may refuse.  When the kernel answers
 * EINVAL, pk_evfd_open() clears the newest feature still set (in the order
 * below: newest kernel first) and tries again.
 */
enum pk_evfd_feature {
	PK_EVFD_READ_LOST = 1u << 0,	   /* read_format LOST (6.0) */
	PK_EVFD_SIGTRAP = 1u << 1,	   /* sigtrap, sig_data (5.13) */
	PK_EVFD_REMOVE_ON_EXEC = 1u << 2,  /* remove_on_exec (5.13) */
	PK_EVFD_INHERIT_THREAD = 1u << 3,  /* inherit_thread (5.13) */
	PK_EVFD_WEIGHT_STRUCT = 1u << 4,   /* PERF_SAMPLE_WEIGHT_STRUCT (5.12) */
	PK_EVFD_BUILD_ID = 1u << 5,	   /* build_id in MMAP2 (5.12) */
	PK_EVFD_PAGE_SIZE = 1u << 6,	   /* DATA/CODE_PAGE_SIZE samples (5.11) */
	PK_EVFD_TEXT_POKE = 1u << 7,	   /* text_poke records (5.9) */
	PK_EVFD_CGROUP = 1u << 8,	   /* cgroup records and samples (5.7) */
	PK_EVFD_BRANCH_HW_INDEX = 1u << 9, /* branch_sample_type HW_INDEX (5.7) */
	PK_EVFD_AUX_OUTPUT = 1u << 10,	   /* aux_output (5.4) */
	PK_EVFD_BPF_EVENT = 1u << 11,	   /* bpf_event records (5.1) */
	PK_EVFD_KSYMBOL = 1u << 12,	   /* ksymbol records (5.1) */
	PK_EVFD_NAMESPACES = 1u << 13,	   /* namespaces records (4.12) */
	PK_EVFD_CONTEXT_SWITCH = 1u << 14, /* context_switch records (4.3) */
	PK_EVFD_CLOCKID = 1u << 15,	   /* use_clockid (4.1) */
	PK_EVFD_COMM_EXEC = 1u << 16,	   /* comm_exec (3.16) */
	PK_EVFD_MMAP2 = 1u << 17,	   /* mmap2 instead of mmap (3.16) */
	PK_EVFD_CLOEXEC = 1u << 18,	   /* PERF_FLAG_FD_CLOEXEC (3.14) */
	PK_EVFD_EXCLUDE_GUEST = 1u << 19,  /* exclude_guest/exclude_host (3.2) */
	PK_EVFD_SAMPLE_ID_ALL = 1u << 20,  /* sample_id_all (2.6.38) */
	PK_EVFD_ATTR_TAIL = 1u << 21,	   /* fields past the size the kernel knows */
};

struct pk_evfd_open_info {
	size_t sz;			/* sizeof(struct pk_evfd_open_info) */
	struct perf_event_attr attr;	/* the attr that was finally accepted */
	unsigned int dropped;		/* PK_EVFD_* cleared to get there */
	int tries;			/* perf_event_open calls made */
	char dropped_names[160];	/* "text_poke, build_id", or "" */
};

/*
 * perf_event_open(attr, pid, cpu, group_fd, flags), negotiating with the
 * running kernel: on E2BIG the call is repeated with the attr size the
 * kernel wrote back (fields past it cleared, reported as
 * PK_EVFD_ATTR_TAIL); on EINVAL with the newest feature of
 * enum pk_evfd_feature cleared, until the kernel accepts the attr or no
 * feature is left.  attr is not modified; info (may be NULL) says what
 * was dropped and holds the attr used.  Returns the descriptor or the
 * first call's -errno when no variant was accepted.
 */
int pk_evfd_open(const struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		 unsigned long flags, struct pk_evfd_open_info *info);

/* Names of the features in mask, comma separated, into buf (always
 * NUL-terminated).  Returns buf. */
const char *pk_evfd_feature_names(unsigned int mask, char *buf, size_t size);

/* ---- ioctls (group: apply to the whole group of fd's leader) ---------- */
int pk_evfd_enable(int fd, bool group);	 /* PERF_EVENT_IOC_ENABLE */
int pk_evfd_disable(int fd, bool group); /* PERF_EVENT_IOC_DISABLE */
int pk_evfd_reset(int fd, bool group);	 /* PERF_EVENT_IOC_RESET */
/* Enable for n more overflows, then disable (n > 0; not for inherited
 * events).  PERF_EVENT_IOC_REFRESH. */
int pk_evfd_refresh(int fd, int n);
/* New sample period (or frequency, for a freq event).  PERF_EVENT_IOC_PERIOD. */
int pk_evfd_period(int fd, uint64_t period);
/* Send fd's records to target_fd's ring; -1 stops.  PERF_EVENT_IOC_SET_OUTPUT. */
int pk_evfd_set_output(int fd, int target_fd);
/* A tracepoint filter such as "prev_pid == 0".  PERF_EVENT_IOC_SET_FILTER. */
int pk_evfd_set_filter(int fd, const char *filter);
/* The event's id, as in PERF_FORMAT_ID and sample ids.  PERF_EVENT_IOC_ID. */
int pk_evfd_id(int fd, uint64_t *id);
/* Attach a BPF program to a tracepoint/kprobe event.  PERF_EVENT_IOC_SET_BPF. */
int pk_evfd_set_bpf(int fd, int prog_fd);
/* Stop (true) or resume writing records to the ring.  PAUSE_OUTPUT. */
int pk_evfd_pause_output(int fd, bool pause);
/* Ids of the BPF programs attached to the event: up to max into ids,
 * their total count into *count.  PERF_EVENT_IOC_QUERY_BPF. */
int pk_evfd_query_bpf(int fd, uint32_t *ids, uint32_t max, uint32_t *count);
/* Change the attributes of an open event (breakpoints only, in Linux up to
 * now: a new bp_addr, bp_len, bp_type).  PERF_EVENT_IOC_MODIFY_ATTRIBUTES. */
int pk_evfd_modify_attributes(int fd, const struct perf_event_attr *attr);

/* prctl(PR_TASK_PERF_EVENTS_ENABLE / DISABLE): every event the calling
 * process created that counts it (not ones others opened on it). */
int pk_task_events_enable(void);
int pk_task_events_disable(void);

/* ---- overflow notification ------------------------------------------ */
/*
 * Deliver signo to thread tid (0: the calling thread) on each overflow
 * wakeup: F_SETOWN_EX(F_OWNER_TID), F_SETSIG(signo) and O_ASYNC.  The
 * handler, installed with SA_SIGINFO, finds fd in si_fd and POLL_IN or
 * POLL_HUP in si_code.
 */
int pk_evfd_set_signal(int fd, int signo, pid_t tid);

/*
 * Wait up to timeout_ms (-1: forever) for any of fds to be readable (a
 * ring wakeup: POLLIN) or hung up (the monitored task exited: POLLHUP).
 * revents[i] receives fd i's events.  Returns how many fds have events
 * (0 on timeout) or -errno.
 */
int pk_evfd_poll(const int *fds, int n, int timeout_ms, short *revents);

/*
 * Make attr a synchronous-SIGTRAP event (Linux 5.13+): on each overflow the
 * thread that caused it gets SIGTRAP with si_code TRAP_PERF and sig_data in
 * siginfo's si_perf_data.  remove_on_exec drops the event at execve (the
 * kernel requires it for inherited sigtrap events).
 */
void pk_attr_set_sigtrap(struct perf_event_attr *attr, uint64_t sig_data, bool remove_on_exec);

#ifdef __cplusplus
}
#endif
#endif
