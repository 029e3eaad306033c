/* SPDX-License-Identifier: MIT */
/* perfkit stat's pieces: options and results (cmd_stat.c), printing (stat_print.c). */
#ifndef PK_CLI_STAT_H
#define PK_CLI_STAT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <perfkit/perfkit.h>

/* AGGR_CORE..AGGR_NODE: by topology (--per-core, --per-die, --per-socket, --per-node) */
enum stat_aggr { AGGR_GLOBAL, AGGR_CPU, AGGR_THREAD, AGGR_CORE, AGGR_DIE, AGGR_SOCKET, AGGR_NODE };

static inline bool stat_aggr_topo(enum stat_aggr a)
{
	return a >= AGGR_CORE;
}

/* One event in one aggregation slot (everything, a CPU, a thread). */
struct stat_value {
	struct pk_stat_acc acc;	/* scaled counts over runs */
	uint64_t ena, run;	/* mean over the runs (-r), or of the interval */
	double ena_sum, run_sum;
	bool counted;		/* run > 0 at least once */
};

struct stat_print {
	FILE *out;
	const char *sep;	/* -x SEP, or NULL */
	bool json;
	int repeat;		/* runs (-r) */
	bool interval;		/* -I: lines start with the time stamp */
	double ts;		/* seconds since the start, for -I */
	enum stat_aggr aggr;
	const struct pk_event_list *events;
	const struct pk_counter_set *set;
	int nr_slots;
	struct stat_value *vals;	/* [event][slot] */
	const char **slot_names;	/* "CPU0", "bash-123", "S0-D0-C1" */
	const int *slot_cpus;		/* CPUs in each slot (topology modes) */
	bool big_num;			/* thousands' separators (-B, the default) */
	int tool_slot;			/* the slot of the first CPU, where tool events count */
	double elapsed_ns;		/* of this run or interval (mean with -r) */
	int unit_width;
};

void stat_print_counters(const struct stat_print *p);
void stat_print_interval_header(const struct stat_print *p);
void stat_print_header(const struct stat_print *p, const char *target);
void stat_print_footer(const struct stat_print *p, const struct pk_stat_acc *elapsed,
		       const struct rusage *ru, bool show_rusage);

/* What the options asked for, and the targets they resolved to. */
struct stat_cmd {
	struct pk_event_list events;
	size_t last_e;		/* first event of the last -e, for --filter */
	bool all_cpus, no_aggr, per_thread, no_inherit, json;
	int detailed;		/* -d given this many times */
	int big_num;		/* -B: 1, --no-big-num: 0, neither: -1 */
	bool all_user, all_kernel;
	bool null_run, quiet, sync, append, no_scale, group;
	const char *pre_cmd, *post_cmd;
	int timeout_ms, interval_count;
	enum stat_aggr topo;	/* --per-core...: the mode asked for, or AGGR_GLOBAL */
	const char *cpu_list, *pids, *tids, *sep, *output;
	int repeat, interval_ms, delay_ms, verbose;
	char **argv;		/* the command, or NULL */
	/* targets */
	int *cpus, nr_cpus;
	pid_t *threads;
	int nr_threads;
	char **slot_names;
	int nr_slots;
	int *cpu_to_slot;	/* per CPU index: its slot (-A and topology modes) */
	int *slot_cpus;		/* per slot: how many CPUs (topology modes) */
	enum stat_aggr aggr;
	FILE *out;
	char target[512];
};

/* Run the command (or watch the target) c->repeat times, printing as asked. */
int stat_run_all(struct stat_cmd *c);

#endif
