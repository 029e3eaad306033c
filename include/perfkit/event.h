/* SPDX-License-Identifier: MIT */
/*
 * perfkit/event.h - events: the event-string parser (perf's -e syntax) and
 * perf's names for events.
 *
 *	struct pk_event_list list = {0};
 *	struct pk_parse_error perr;
 *	if (pk_event_list_parse(&list, "cycles:u,{cache-misses,branches}", NULL, &perr))
 *		fprintf(stderr, "%s\n%*s^ %s\n", str, perr.pos, "", perr.msg);
 *	...
 *	pk_event_list_free(&list);
 */
#ifndef PERFKIT_EVENT_H
#define PERFKIT_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One event of a parsed list: a ready-to-open attr and what perf knows
 * about it.  The attr holds type, config*, bp_* and the modifier bits
 * (exclude_*, precise_ip, pinned, exclusive; PERF_SAMPLE_READ for :S), with
 * sample_period 1 for tracepoints and breakpoints; the rest (sampling,
 * read_format, disabled, inherit) is the caller's to set. */
struct pk_event {
	struct perf_event_attr attr;
	char *name;		/* canonical name, e.g. "cycles:u", "sched:sched_switch" */
	char *pmu;		/* PMU name ("cpu", "software", "tracepoint", ...) */
	int leader;		/* index of the group leader in the list (own index
				 * when not in a group or when the leader) */
	int group_size;		/* members in the group, on the leader; 1 otherwise */
	char *filter;		/* tracepoint filter (--filter), or NULL */
	int *cpus;		/* PMU cpumask (uncore), or NULL: all CPUs */
	int nr_cpus;
	double scale;		/* from sysfs .scale, 1.0 by default (1e-6 for
				 * task-clock/cpu-clock, shown in msec as perf does) */
	char *unit;		/* from sysfs .unit ("msec" for the clocks), or NULL */
	unsigned int mods;	/* PK_EVENT_MOD_* the string gave this event */
	char *probe_target;	/* kprobe/uprobe events: the function name or
				 * binary path that attr.config1 points at
				 * (owned by the event), or NULL */
	unsigned int tool;	/* PK_EVENT_TOOL_*: counted by perfkit, not the
				 * kernel (attr is a software dummy); 0 otherwise */
	struct pk_event_rec_terms {	/* perf's per-event terms for record
					 * (pmu/term/); 0: the command line's */
		int inherit;		/* inherit: 1, no-inherit: -1 */
		int callgraph;		/* call-graph=: PK_EVENT_CG_* */
		uint32_t stack_size;	/* stack-size= (dwarf), 0: default */
		uint16_t max_stack;	/* max-stack=, 0: default */
	} rec;
};

/* perf's "tool" events: no kernel counter behind them. */
enum pk_event_tool {
	PK_EVENT_TOOL_NONE,
	PK_EVENT_TOOL_DURATION,	/* duration_time: ns the counter set was running */
	PK_EVENT_TOOL_USER_TIME,	/* user_time: the command's user CPU time, ns */
	PK_EVENT_TOOL_SYSTEM_TIME,	/* system_time: its system CPU time, ns */
};

/* pk_event_rec_terms.callgraph */
enum {
	PK_EVENT_CG_DEFAULT = 0,
	PK_EVENT_CG_NONE,	/* call-graph=no */
	PK_EVENT_CG_FP,		/* call-graph=fp */
	PK_EVENT_CG_DWARF,	/* call-graph=dwarf */
};

/* Modifiers that are not (only) attr bits. */
enum pk_event_mod {
	PK_EVENT_MOD_GH = 1 << 0,		/* G or H was given */
	PK_EVENT_MOD_PRECISE_MAX = 1 << 1,	/* P: the highest precise_ip that opens */
	PK_EVENT_MOD_WEAK = 1 << 2,		/* W: a group that may be split */
	PK_EVENT_MOD_SAMPLE_READ = 1 << 3,	/* S */
};

struct pk_event_list {
	size_t nr;
	struct pk_event *ev;
};

struct pk_event_parse_opts {
	size_t sz;			/* sizeof(struct pk_event_parse_opts) */
	const char *sysfs_root;		/* default "/sys", or $PERFKIT_SYSFS */
	const char *tracefs_root;	/* default: found/mounted, or $PERFKIT_TRACEFS */
};

struct pk_parse_error {
	int pos;		/* byte offset in the string of the offending part */
	char msg[256];		/* what is wrong there */
};

/*
 * Parse str (one -e argument) and append its events to list.  Returns 0,
 * or a negative errno with *err describing the problem (err may be NULL).
 * The list owns everything; free with pk_event_list_free().
 */
int pk_event_list_parse(struct pk_event_list *list, const char *str,
			const struct pk_event_parse_opts *opts, struct pk_parse_error *err);

void pk_event_list_free(struct pk_event_list *list);

/*
 * --filter: give the tracepoint filter (e.g. "prev_pid == 0") to the events
 * from index first on, the ones the last -e added.  Each must be a
 * tracepoint; -EINVAL otherwise, with msg (may be NULL) saying so.  The
 * kernel checks the expression when the event is opened (SET_FILTER).
 */
int pk_event_list_set_filter(struct pk_event_list *list, size_t first, const char *filter,
			     char *msg, size_t msgsize);

/*
 * The name perf gives an event with this attr when the file carries no name
 * for it: "cycles", "cpu-clock", "L1-dcache-load-misses", "r1234",
 * "mem:0x1000:rw", with perf's modifier suffix (":u", ":ppp", ":H", ...).
 * Writes at most size bytes (NUL included) to buf; returns the length it
 * wanted, as snprintf does.
 */
int pk_event_attr_name(const struct perf_event_attr *attr, char *buf, size_t size);

/* What pk_event_foreach() reports for each event this machine offers. */
enum pk_event_info_kind {
	PK_EVENT_INFO_HARDWARE = 1 << 0,
	PK_EVENT_INFO_SOFTWARE = 1 << 1,
	PK_EVENT_INFO_CACHE = 1 << 2,
	PK_EVENT_INFO_PMU = 1 << 3,	/* sysfs events/ of a PMU, "pmu/name/" */
	PK_EVENT_INFO_DESCRIPTOR = 1 << 4, /* the rNNN, pmu/.../ and mem: syntaxes */
	PK_EVENT_INFO_TRACEPOINT = 1 << 5,
	PK_EVENT_INFO_SDT = 1 << 6,	/* SDT probes of perf's build-id cache */
	PK_EVENT_INFO_ALL = 0x7f,
};

struct pk_event_info {
	enum pk_event_info_kind kind;
	const char *name;	/* "cpu-clock", "msr/tsc/", "sched:sched_switch" */
	const char *alias;	/* a second spelling ("cs"), or NULL */
	const char *type_desc;	/* perf's bracketed kind: "Software event", ... */
	const char *desc;	/* a longer description (sysfs), or NULL */
};

/*
 * Call fn for every event of the kinds in mask, in perf list's order;
 * hardware and cache events only when the kernel accepts them.  Stops when
 * fn returns non-zero and returns that; 0 or -errno otherwise.  The info
 * strings are valid during the call only.
 */
int pk_event_foreach(unsigned int mask, const struct pk_event_parse_opts *opts,
		     int (*fn)(const struct pk_event_info *info, void *arg), void *arg);

#ifdef __cplusplus
}
#endif
#endif
