// SPDX-License-Identifier: MIT
/*
 * perfkit stat: options and targets.  stat_run.c runs and counts,
 * stat_print.c prints in perf's layouts.
 */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli.h"
#include "stat.h"

#define DEFAULT_EVENTS "task-clock,context-switches,cpu-migrations,page-faults,cycles," \
		       "instructions,branches,branch-misses"


static void usage(FILE *f)
{
	fprintf(f,
		"usage: perfkit stat [<options>] [<command>]\n\n"
		"    -e, --event <event>   event selector (repeatable); see 'perfkit list'\n"
		"    -a, --all-cpus        system-wide collection from all CPUs\n"
		"    -C, --cpu <cpus>      list of CPUs to monitor (0-3,7)\n"
		"    -p, --pid <pid>       stat events on existing process id(s)\n"
		"    -t, --tid <tid>       stat events on existing thread id(s)\n"
		"    -r, --repeat <n>      repeat command and print average + stddev\n"
		"    -I, --interval-print <ms>  print counts every <ms> milliseconds (0: off)\n"
		"    -x, --field-separator <sep>  CSV-style output with this separator\n"
		"    -j, --json            JSON output\n"
		"    -o, --output <file>   write the output to a file\n"
		"    -A, --no-aggr         do not aggregate counts across CPUs\n"
		"        --per-thread      aggregate counts per thread\n"
		"        --per-core        aggregate counts per physical core (with -a or -C)\n"
		"        --per-die         aggregate counts per die (with -a or -C)\n"
		"        --per-socket      aggregate counts per socket (with -a or -C)\n"
		"        --per-node        aggregate counts per NUMA node (with -a or -C)\n"
		"    -d, --detailed        add the L1 and last-level cache events; -dd the\n"
		"                          L1-icache and TLB ones too, -ddd the prefetches\n"
		"    -B, --big-num         thousands' separators (the default; --no-big-num)\n"
		"        --all-user        every event counts in user space only\n"
		"        --all-kernel      every event counts in kernel space only\n"
		"        --timeout <ms>    stop the command (SIGTERM) or the count after <ms>\n"
		"        --interval-count <n>  stop printing after <n> intervals (with -I)\n"
		"    -n, --null            null run: no counters, the elapsed time only\n"
		"        --quiet           print no counts (the exit status only)\n"
		"    -S, --sync            call sync() before each run\n"
		"        --append          append to the -o file\n"
		"        --pre <cmd>, --post <cmd>  run cmd (sh -c) before/after each run\n"
		"        --no-scale        counts as read, not scaled for multiplexing\n"
		"    -g, --group           put all the events in one group\n"
		"    perf's other options (-M, -G, -T, --topdown, --metric-only, ...) are\n"
		"    refused: not implemented\n"
		"        --filter <expr>   tracepoint filter for the events of the last -e\n"
		"    -i, --no-inherit      child tasks do not inherit counters\n"
		"    -D, --delay <ms>      start counting after <ms> milliseconds\n"
		"    -v, --verbose         be more verbose\n");
}

static int parse_int(const char *s, int min, const char *opt, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > 1000000000L) {
		cli_error("stat: invalid value '%s' for %s", s, opt);
		return -1;
	}
	*out = (int)v;
	return 0;
}

static int add_events(struct stat_cmd *c, const char *str)
{
	struct pk_parse_error err;
	int ret;

	c->last_e = c->events.nr;
	ret = pk_event_list_parse(&c->events, str, NULL, &err);

	if (!ret)
		return 0;
	fprintf(stderr, "event syntax error: '%s'\n%*s\\___ %s\n", str,
		(int)strlen("event syntax error: '") + err.pos, "", err.msg);
	fprintf(stderr, "Run 'perfkit list' for a list of valid events\n");
	return -1;
}

static int set_filter(struct stat_cmd *c, const char *filter)
{
	char msg[256];

	if (pk_event_list_set_filter(&c->events, c->last_e, filter, msg, sizeof(msg))) {
		cli_error("stat: %s", msg);
		return -1;
	}
	return 0;
}

enum {
	OPT_PER_THREAD = 256, OPT_FILTER, OPT_NO_BIG_NUM, OPT_ALL_USER, OPT_ALL_KERNEL,
	OPT_TIMEOUT, OPT_INTERVAL_COUNT, OPT_PER_CORE, OPT_PER_DIE, OPT_PER_SOCKET, OPT_PER_NODE,
	OPT_QUIET, OPT_APPEND, OPT_PRE, OPT_POST, OPT_SCALE, OPT_NO_SCALE, OPT_NOT_DONE,
};

/* perf stat -d, -dd, -ddd: the events each level adds, after the others */
static const char *const detailed_events[] = {
	"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
	("L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,iTLB-loads,"
	 "iTLB-load-misses"),
	"L1-dcache-prefetches,L1-dcache-prefetch-misses",
};

/* -g: one group of every event, led by the first (groups of -e undone). */
static void group_all(struct pk_event_list *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		l->ev[i].leader = 0;
		l->ev[i].group_size = i ? 1 : (int)l->nr;
	}
}

/* Checks perf makes once every option is known; 129 or 0. */
static int check_combinations(struct stat_cmd *c)
{
	if (c->json && c->sep) {
		cli_error("stat: -x and -j are mutually exclusive");
		return 129;
	}
	if (c->big_num == 1 && c->sep) {
		cli_error("stat: -B option not supported with -x");
		return 129;
	}
	if (c->timeout_ms && c->interval_ms) {
		cli_error("stat: --timeout is not supported with --interval-print");
		return 129;
	}
	if (c->interval_count && !c->interval_ms) {
		cli_error("stat: --interval-count needs --interval-print (-I)");
		return 129;
	}
	if (c->topo != AGGR_GLOBAL && !c->all_cpus && !c->cpu_list) {
		cli_error("stat: --per-core, --per-die, --per-socket and --per-node need -a or -C");
		return 129;
	}
	if (c->repeat > 1 && !c->argv) {
		cli_error("stat: --repeat needs a command to run");
		return 129;
	}
	return 0;
}

static int parse_options(struct stat_cmd *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"event", required_argument, NULL, 'e'},
		{"all-cpus", no_argument, NULL, 'a'},
		{"cpu", required_argument, NULL, 'C'},
		{"pid", required_argument, NULL, 'p'},
		{"tid", required_argument, NULL, 't'},
		{"repeat", required_argument, NULL, 'r'},
		{"interval-print", required_argument, NULL, 'I'},
		{"field-separator", required_argument, NULL, 'x'},
		{"json", no_argument, NULL, 'j'},
		{"output", required_argument, NULL, 'o'},
		{"no-aggr", no_argument, NULL, 'A'},
		{"per-thread", no_argument, NULL, OPT_PER_THREAD},
		{"per-core", no_argument, NULL, OPT_PER_CORE},
		{"per-die", no_argument, NULL, OPT_PER_DIE},
		{"per-socket", no_argument, NULL, OPT_PER_SOCKET},
		{"per-node", no_argument, NULL, OPT_PER_NODE},
		{"detailed", no_argument, NULL, 'd'},
		{"big-num", no_argument, NULL, 'B'},
		{"no-big-num", no_argument, NULL, OPT_NO_BIG_NUM},
		{"all-user", no_argument, NULL, OPT_ALL_USER},
		{"all-kernel", no_argument, NULL, OPT_ALL_KERNEL},
		{"timeout", required_argument, NULL, OPT_TIMEOUT},
		{"interval-count", required_argument, NULL, OPT_INTERVAL_COUNT},
		{"null", no_argument, NULL, 'n'},
		{"quiet", no_argument, NULL, OPT_QUIET},
		{"sync", no_argument, NULL, 'S'},
		{"append", no_argument, NULL, OPT_APPEND},
		{"pre", required_argument, NULL, OPT_PRE},
		{"post", required_argument, NULL, OPT_POST},
		{"scale", no_argument, NULL, OPT_SCALE},
		{"no-scale", no_argument, NULL, OPT_NO_SCALE},
		{"group", no_argument, NULL, 'g'},
		/* perf's options that perfkit does not implement: refused by name */
		{"cgroup", optional_argument, NULL, OPT_NOT_DONE},
		{"metrics", optional_argument, NULL, OPT_NOT_DONE},
		{"transaction", optional_argument, NULL, OPT_NOT_DONE},
		{"control", optional_argument, NULL, OPT_NOT_DONE},
		{"cputype", optional_argument, NULL, OPT_NOT_DONE},
		{"for-each-cgroup", optional_argument, NULL, OPT_NOT_DONE},
		{"hybrid-merge", optional_argument, NULL, OPT_NOT_DONE},
		{"interval-clear", optional_argument, NULL, OPT_NOT_DONE},
		{"iostat", optional_argument, NULL, OPT_NOT_DONE},
		{"log-fd", optional_argument, NULL, OPT_NOT_DONE},
		{"metric-no-group", optional_argument, NULL, OPT_NOT_DONE},
		{"metric-no-merge", optional_argument, NULL, OPT_NOT_DONE},
		{"metric-only", optional_argument, NULL, OPT_NOT_DONE},
		{"no-csv-summary", optional_argument, NULL, OPT_NOT_DONE},
		{"no-merge", optional_argument, NULL, OPT_NOT_DONE},
		{"percore-show-thread", optional_argument, NULL, OPT_NOT_DONE},
		{"smi-cost", optional_argument, NULL, OPT_NOT_DONE},
		{"summary", optional_argument, NULL, OPT_NOT_DONE},
		{"table", optional_argument, NULL, OPT_NOT_DONE},
		{"td-level", optional_argument, NULL, OPT_NOT_DONE},
		{"topdown", optional_argument, NULL, OPT_NOT_DONE},
		{"filter", required_argument, NULL, OPT_FILTER},
		{"no-inherit", no_argument, NULL, 'i'},
		{"delay", required_argument, NULL, 'D'},
		{"verbose", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	int opt, li = 0;

	c->repeat = 1;
	c->big_num = -1;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "+e:aC:p:t:r:I:x:jo:AiD:vhdBnSgG:M:T", longopts,
				  &li)) != -1) {
		switch (opt) {
		case OPT_NOT_DONE:
			cli_error("stat: --%s is not implemented", longopts[li].name);
			return 129;
		case 'G': case 'M': case 'T':
			cli_error("stat: -%c is not implemented", opt);
			return 129;
		case 'n': c->null_run = true; break;
		case OPT_QUIET: c->quiet = true; break;
		case 'S': c->sync = true; break;
		case OPT_APPEND: c->append = true; break;
		case OPT_PRE: c->pre_cmd = optarg; break;
		case OPT_POST: c->post_cmd = optarg; break;
		case OPT_SCALE: c->no_scale = false; break;
		case OPT_NO_SCALE: c->no_scale = true; break;
		case 'g': c->group = true; break;
		case 'e':
			if (add_events(c, optarg))
				return 129;
			break;
		case 'a': c->all_cpus = true; break;
		case 'C': c->cpu_list = optarg; break;
		case 'p': c->pids = optarg; break;
		case 't': c->tids = optarg; break;
		case 'r':
			if (parse_int(optarg, 1, "--repeat", &c->repeat))
				return 129;
			break;
		case 'I':
			/* perf 6.1 takes any period; 0 means no intervals */
			if (parse_int(optarg, 0, "--interval-print", &c->interval_ms))
				return 129;
			break;
		case 'x': c->sep = optarg; break;
		case 'j': c->json = true; break;
		case 'o': c->output = optarg; break;
		case 'A': c->no_aggr = true; break;
		case OPT_PER_THREAD: c->per_thread = true; break;
		case OPT_PER_CORE: c->topo = AGGR_CORE; break;
		case OPT_PER_DIE: c->topo = AGGR_DIE; break;
		case OPT_PER_SOCKET: c->topo = AGGR_SOCKET; break;
		case OPT_PER_NODE: c->topo = AGGR_NODE; break;
		case 'd': c->detailed++; break;
		case 'B': c->big_num = 1; break;
		case OPT_NO_BIG_NUM: c->big_num = 0; break;
		case OPT_ALL_USER: c->all_user = true; break;
		case OPT_ALL_KERNEL: c->all_kernel = true; break;
		case OPT_TIMEOUT:
			if (parse_int(optarg, 0, "--timeout", &c->timeout_ms))
				return 129;
			if (c->timeout_ms < 10) {
				cli_error("stat: --timeout must be >= 10 ms");
				return 129;
			}
			break;
		case OPT_INTERVAL_COUNT:
			if (parse_int(optarg, 1, "--interval-count", &c->interval_count))
				return 129;
			break;
		case OPT_FILTER:
			if (set_filter(c, optarg))
				return 129;
			break;
		case 'i': c->no_inherit = true; break;
		case 'D':
			if (parse_int(optarg, 0, "--delay", &c->delay_ms))
				return 129;
			break;
		case 'v': c->verbose++; break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 129;
		}
	}
	if (optind < argc)
		c->argv = argv + optind;
	if (!c->argv && !c->all_cpus && !c->cpu_list && !c->pids && !c->tids) {
		usage(stderr);
		return 129;
	}
	opt = check_combinations(c);
	if (opt)
		return opt;
	if (c->null_run)
		return -1;	/* no events at all, whatever -e said */
	if (!c->events.nr && add_events(c, DEFAULT_EVENTS))
		return 129;
	for (int d = 0; d < c->detailed && d < 3; d++)
		if (add_events(c, detailed_events[d]))
			return 129;
	if (c->group)
		group_all(&c->events);
	return -1;
}

/* "1,2,3" into pids, expanding each pid to its threads when all_threads. */
static int parse_pid_list(struct stat_cmd *c, const char *list, bool all_threads)
{
	char *copy = strdup(list), *save = NULL, *tok;

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		pid_t *t = NULL;
		int n = 0, id;

		if (parse_int(tok, 1, all_threads ? "--pid" : "--tid", &id))
			goto fail;
		if (all_threads) {
			int ret = pk_thread_list_of_pid(id, &t, &n);
			if (ret) {
				cli_error("stat: process %d: %s", id, strerror(-ret));
				goto fail;
			}
		} else {
			t = malloc(sizeof(*t));
			if (!t)
				goto fail;
			t[0] = id;
			n = 1;
		}
		pid_t *all = realloc(c->threads, (size_t)(c->nr_threads + n) * sizeof(pid_t));
		if (!all) {
			free(t);
			goto fail;
		}
		c->threads = all;
		memcpy(all + c->nr_threads, t, (size_t)n * sizeof(pid_t));
		c->nr_threads += n;
		free(t);
	}
	free(copy);
	return 0;
fail:
	free(copy);
	return -1;
}

static char *thread_name(pid_t tid)
{
	char path[64], comm[64] = "?", *name;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	f = fopen(path, "r");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = 0;
		fclose(f);
	}
	if (asprintf(&name, "%s-%d", comm, (int)tid) < 0)
		return NULL;
	return name;
}

static int setup_targets(struct stat_cmd *c)
{
	int n;

	if (c->cpu_list) {
		n = pk_cpu_list_parse(c->cpu_list, &c->cpus);
		if (n <= 0) {
			cli_error("stat: invalid CPU list '%s'", c->cpu_list);
			return -1;
		}
		c->nr_cpus = n;
		snprintf(c->target, sizeof(c->target), "'CPU(s) %s'", c->cpu_list);
	} else if (c->all_cpus) {
		n = pk_cpu_list_online(&c->cpus);
		if (n <= 0) {
			cli_error("stat: cannot find the online CPUs");
			return -1;
		}
		c->nr_cpus = n;
		snprintf(c->target, sizeof(c->target), "'system wide'");
	} else if (c->pids) {
		if (parse_pid_list(c, c->pids, true))
			return -1;
		snprintf(c->target, sizeof(c->target), "process id '%s'", c->pids);
	} else if (c->tids) {
		if (parse_pid_list(c, c->tids, false))
			return -1;
		snprintf(c->target, sizeof(c->target), "thread id '%s'", c->tids);
	} else {
		size_t len = 0;

		len += (size_t)snprintf(c->target, sizeof(c->target), "'");
		for (char **a = c->argv; *a && len < sizeof(c->target); a++)
			len += (size_t)snprintf(c->target + len, sizeof(c->target) - len, "%s%s",
						a == c->argv ? "" : " ", *a);
		if (len < sizeof(c->target))
			snprintf(c->target + len, sizeof(c->target) - len, "'");
	}
	return 0;
}

static enum pk_aggr_mode topo_mode(enum stat_aggr a)
{
	switch (a) {
	case AGGR_CORE: return PK_AGGR_CORE;
	case AGGR_DIE: return PK_AGGR_DIE;
	case AGGR_SOCKET: return PK_AGGR_SOCKET;
	default: return PK_AGGR_NODE;
	}
}

/* The slots of --per-core...: the library groups the CPUs by topology. */
static int setup_topo_slots(struct stat_cmd *c)
{
	struct pk_aggr_id *ids = NULL;
	int n;

	c->cpu_to_slot = calloc((size_t)c->nr_cpus, sizeof(int));
	if (!c->cpu_to_slot)
		return -1;
	n = pk_cpu_aggr_map(c->cpus, c->nr_cpus, topo_mode(c->aggr), NULL, &ids,
			    c->cpu_to_slot);
	if (n <= 0) {
		cli_error("stat: cannot read the CPU topology: %s", strerror(n ? -n : ENOENT));
		return -1;
	}
	c->nr_slots = n;
	c->slot_names = calloc((size_t)n, sizeof(char *));
	c->slot_cpus = calloc((size_t)n, sizeof(int));
	if (!c->slot_names || !c->slot_cpus) {
		free(ids);
		return -1;
	}
	for (int i = 0; i < c->nr_cpus; i++)
		c->slot_cpus[c->cpu_to_slot[i]]++;
	for (int s = 0; s < n; s++) {
		char name[64];

		pk_aggr_id_name(&ids[s], topo_mode(c->aggr), name, sizeof(name));
		if (!(c->slot_names[s] = strdup(name))) {
			free(ids);
			return -1;
		}
	}
	free(ids);
	return 0;
}

static int setup_slots(struct stat_cmd *c)
{
	c->aggr = AGGR_GLOBAL;
	c->nr_slots = 1;
	if (c->topo != AGGR_GLOBAL && c->nr_cpus) {
		c->aggr = c->topo;
		return setup_topo_slots(c);
	}
	if (c->no_aggr && c->nr_cpus) {
		c->aggr = AGGR_CPU;
		c->nr_slots = c->nr_cpus;
		c->cpu_to_slot = calloc((size_t)c->nr_cpus, sizeof(int));
		if (!c->cpu_to_slot)
			return -1;
		for (int i = 0; i < c->nr_cpus; i++)
			c->cpu_to_slot[i] = i;
	} else if (c->per_thread && c->nr_threads) {
		c->aggr = AGGR_THREAD;
		c->nr_slots = c->nr_threads;
	}
	c->slot_names = calloc((size_t)c->nr_slots, sizeof(char *));
	if (!c->slot_names)
		return -1;
	for (int s = 0; s < c->nr_slots; s++) {
		if (c->aggr == AGGR_CPU) {
			if (asprintf(&c->slot_names[s], "CPU%d", c->cpus[s]) < 0)
				return -1;
		} else if (c->aggr == AGGR_THREAD) {
			if (!(c->slot_names[s] = thread_name(c->threads[s])))
				return -1;
		}
	}
	return 0;
}

static void cleanup(struct stat_cmd *c)
{
	pk_event_list_free(&c->events);
	free(c->cpus);
	free(c->threads);
	for (int s = 0; c->slot_names && s < c->nr_slots; s++)
		free(c->slot_names[s]);
	free(c->slot_names);
	free(c->cpu_to_slot);
	free(c->slot_cpus);
	if (c->out && c->out != stderr)
		fclose(c->out);
}

/*
 * perf groups thousands as the locale says ("%'"); loading a locale costs
 * more than the rest of a short run, so skip it for the C locales.
 */
static void set_numeric_locale(void)
{
	const char *names[] = {"LC_ALL", "LC_NUMERIC", "LANG"}, *v = NULL;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && !v; i++) {
		v = getenv(names[i]);
		if (v && !*v)
			v = NULL;
	}
	if (!v || !strcmp(v, "C") || !strcmp(v, "POSIX") || !strncmp(v, "C.", 2))
		return;
	setlocale(LC_NUMERIC, "");
}

int cmd_stat(int argc, char **argv)
{
	struct stat_cmd c = {0};
	int ret;

	set_numeric_locale();
	ret = parse_options(&c, argc, argv);
	cli_setup_library_output(c.verbose);
	if (ret >= 0)
		goto out;
	ret = 1;
	if (setup_targets(&c) || setup_slots(&c))
		goto out;
	c.out = stderr;
	if (c.quiet) {
		/* counts go nowhere; messages still to stderr */
		c.out = fopen("/dev/null", "w");
		if (!c.out) {
			cli_error("stat: cannot open /dev/null: %s", strerror(errno));
			goto out;
		}
	} else if (c.output) {
		time_t now = time(NULL);

		c.out = fopen(c.output, c.append ? "a" : "w");
		if (!c.out) {
			cli_error("stat: cannot open '%s': %s", c.output, strerror(errno));
			goto out;
		}
		fprintf(c.out, "# started on %s\n", ctime(&now));
	}
	/* One write at the end rather than one per fprintf to unbuffered stderr. */
	if (c.out == stderr && !c.interval_ms)
		setvbuf(stderr, NULL, _IOFBF, 1 << 16);
	ret = stat_run_all(&c);
	fflush(c.out);
out:
	cleanup(&c);
	return ret;
}
