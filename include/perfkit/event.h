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
 * about it. */
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
	double scale;		/* from sysfs .scale, 1.0 by default */
	char *unit;		/* from sysfs .unit, or NULL */
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
 * The name perf gives an event with this attr when the file carries no name
 * for it: "cycles", "cpu-clock", "L1-dcache-load-misses", "r1234",
 * "mem:0x1000:rw", with perf's modifier suffix (":u", ":ppp", ":H", ...).
 * Writes at most size bytes (NUL included) to buf; returns the length it
 * wanted, as snprintf does.
 */
int pk_event_attr_name(const struct perf_event_attr *attr, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
