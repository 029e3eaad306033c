// SPDX-License-Identifier: MIT
/* perfkit report: option parsing and dispatch to the report modes. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "report_stdio.h"

enum report_mode {
	MODE_DEFAULT,
	MODE_STATS,
	MODE_DUMP,
	MODE_HEADER_ONLY,
	MODE_TASKS,
};

struct report_args {
	const char *input;
	enum report_mode mode;
	bool show_info;
	bool mmaps;
	bool force;
	int verbose;
	struct report_stdio_opts stdio;
};

static const char report_usage[] =
	"usage: perfkit report [<options>]\n"
	"\n"
	"    -i, --input <file>    input file name (default: perf.data, '-' for stdin)\n"
	"        --stats           display event stats (record counts by type)\n"
	"    -D, --dump-raw-trace  dump raw trace in ASCII\n"
	"        --header-only     show only data header\n"
	"        --tasks           the recorded tasks, each under its parent\n"
	"        --mmaps           the same with each task's maps\n"
	"    -I, --show-info       display extended information (full topology etc.)\n"
	"        --stdio           use the stdio interface (the default)\n"
	"        --children        accumulate callchains of children (default with -g data)\n"
	"        --no-children     only self overhead\n"
	"    -s, --sort <keys>     sort by comm,pid,dso,sym,cpu,trace,parent,time\n"
	"                          (default comm,dso,sym; trace for a file of\n"
	"                          tracepoints alone)\n"
	"        --time-quantum <n> the time key's unit: ns, or with s, ms, us, ns\n"
	"                          (default 100ms)\n"
	"    -p, --parent <regex>  the parent key: a callchain's first function matching\n"
	"                          (default ^sys_|^do_page_fault), [other] for none\n"
	"    -x, --exclude-other   hide the entries without a parent\n"
	"        --ignore-callees <regex>\n"
	"                          a callchain's function matching stands for the\n"
	"                          sample, its callees left out\n"
	"    -g, --call-graph [<m>] graph, fractal, flat, folded or none, caller, callee,\n"
	"                          a limit, a print limit, percent or period\n"
	"        --percent-limit <n> hide entries below n percent\n"
	"    -c, --comms <list>    only these comms\n"
	"        --pid <list>      only these process ids (also --pids)\n"
	"        --tid <list>      only these thread ids (also --tids)\n"
	"    -d, --dsos <list>     only these DSOs\n"
	"    -S, --symbols <list>  only these symbols (names, or hex sample addresses)\n"
	"    -C, --cpu <list>      only samples of these CPUs (\"0-3,5\"); others are dropped\n"
	"        --time <str>      only samples in this time span: start,stop (seconds),\n"
	"                          percent slices (10%/2) or ranges; others are dropped\n"
	"        --group           show event groups together (default when the file has\n"
	"                          groups; without, all events as one group)\n"
	"        --no-group        every event on its own\n"
	"        --json            the histogram as JSON\n"
	"    -b, --branch-stack    one entry per branch of the branch stacks (the\n"
	"                          default when the samples have them)\n"
	"        --no-branch-stack the samples, not their branches\n"
	"    -n, --show-nr-samples show the number of samples of each entry\n"
	"        --show-total-period show the period of each entry\n"
	"        --show-cpu-utilization sys and usr columns: the self period by mode\n"
	"    -F, --fields <keys>   output fields: overhead, overhead_children, sample,\n"
	"                          period and the sort keys\n"
	"    -t, --field-separator <sep>\n"
	"                          separate the columns with sep, without padding rules\n"
	"    -q, --quiet           only the entries, no header lines\n"
	"        --header          the perf.data header before the report\n"
	"        --percentage <relative|absolute>\n"
	"                          percentages of the filtered samples or of all\n"
	"        --max-stack <n>   use at most n frames of each callchain (127)\n"
	"    -G, --inverted        callchains from the outermost caller (-g caller)\n"
	"    -U, --hide-unresolved drop the samples (and frames) without a symbol\n"
	"        --demangle        demangle C++ and Rust symbol names (the default)\n"
	"        --no-demangle     keep the mangled names\n"
	"    -T, --threads         each thread's counts at its exit (perf record -s)\n"
	CLI_SYMBOL_USAGE
	CLI_IGNORE_VMLINUX_USAGE
	"        --ns              the time key's times in nanoseconds\n"
	"        --raw-trace       the trace key's fields raw (name=value, no print\n"
	"                          format)\n"
	"        --hierarchy       a level per sort key, call graphs under the last\n"
	"        --stdio-color <m> never (or auto without a terminal); colours are refused\n"
	"    -f, --force           don't complain, do it\n"
	"    -v, --verbose         more diagnostics with --stats, -D, --header-only;\n"
	"                          refused in the histogram view\n"
	"    -h, --help            show this help\n"
	"\n"
	"Refused with one line and status 1 (perf has them, perfkit does not yet):\n"
	"    -k -M -m -w, --hierarchy with groups, pipes, filters or column options,\n"

	"    --inline, --itrace, --symfs, --objdump, --mem-mode, --branch-history,\n"
	"    --group-sort-idx, --switch-on/--switch-off, --tui and the other\n"
	"    annotation options; -g address, branch and count\n";

enum {
	OPT_STATS = 256,
	OPT_HEADER_ONLY,
	OPT_STDIO,
	OPT_CHILDREN,
	OPT_NO_CHILDREN,
	OPT_PERCENT_LIMIT,
	OPT_PIDS,
	OPT_TIDS,
	OPT_JSON,
	OPT_NO_BRANCH_STACK,
	OPT_GROUP,
	OPT_NO_GROUP,
	OPT_SHOW_PERIOD,
	OPT_HEADER,
	OPT_PERCENTAGE,
	OPT_MAX_STACK,
	OPT_DEMANGLE,
	OPT_NO_DEMANGLE,
	OPT_TIME,
	OPT_NS,
	OPT_STDIO_COLOR,
	OPT_TASKS,
	OPT_MMAPS,
	OPT_CPU_UTIL,
	OPT_IGNORE_CALLEES,
	OPT_TIME_QUANTUM,
	OPT_RAW_TRACE,
	OPT_HIERARCHY,
	OPT_UNSUPPORTED,
};

static const struct option report_options[] = {
	{"input", required_argument, NULL, 'i'},
	{"stats", no_argument, NULL, OPT_STATS},
	{"dump-raw-trace", no_argument, NULL, 'D'},
	{"header-only", no_argument, NULL, OPT_HEADER_ONLY},
	{"show-info", no_argument, NULL, 'I'},
	{"force", no_argument, NULL, 'f'},
	{"verbose", no_argument, NULL, 'v'},
	{"help", no_argument, NULL, 'h'},
	{"stdio", no_argument, NULL, OPT_STDIO},
	{"children", no_argument, NULL, OPT_CHILDREN},
	{"no-children", no_argument, NULL, OPT_NO_CHILDREN},
	{"sort", required_argument, NULL, 's'},
	{"call-graph", optional_argument, NULL, 'g'},
	{"percent-limit", required_argument, NULL, OPT_PERCENT_LIMIT},
	{"comms", required_argument, NULL, 'c'},
	{"cpu", required_argument, NULL, 'C'},
	{"time", required_argument, NULL, OPT_TIME},
	{"pid", required_argument, NULL, OPT_PIDS},
	{"pids", required_argument, NULL, OPT_PIDS},
	{"tid", required_argument, NULL, OPT_TIDS},
	{"tids", required_argument, NULL, OPT_TIDS},
	{"dsos", required_argument, NULL, 'd'},
	{"symbols", required_argument, NULL, 'S'},
	{"json", no_argument, NULL, OPT_JSON},
	{"branch-stack", no_argument, NULL, 'b'},
	{"no-branch-stack", no_argument, NULL, OPT_NO_BRANCH_STACK},
	{"group", no_argument, NULL, OPT_GROUP},
	{"no-group", no_argument, NULL, OPT_NO_GROUP},
	{"show-nr-samples", no_argument, NULL, 'n'},
	{"show-total-period", no_argument, NULL, OPT_SHOW_PERIOD},
	{"fields", required_argument, NULL, 'F'},
	{"field-separator", required_argument, NULL, 't'},
	{"quiet", no_argument, NULL, 'q'},
	{"header", no_argument, NULL, OPT_HEADER},
	{"percentage", required_argument, NULL, OPT_PERCENTAGE},
	{"max-stack", required_argument, NULL, OPT_MAX_STACK},
	{"inverted", no_argument, NULL, 'G'},
	{"hide-unresolved", no_argument, NULL, 'U'},
	{"demangle", no_argument, NULL, OPT_DEMANGLE},
	{"no-demangle", no_argument, NULL, OPT_NO_DEMANGLE},
	{"threads", no_argument, NULL, 'T'},
	{"parent", required_argument, NULL, 'p'},
	{"exclude-other", no_argument, NULL, 'x'},
	{"ignore-callees", required_argument, NULL, OPT_IGNORE_CALLEES},
	{"time-quantum", required_argument, NULL, OPT_TIME_QUANTUM},
	{"raw-trace", no_argument, NULL, OPT_RAW_TRACE},
	{"hierarchy", no_argument, NULL, OPT_HIERARCHY},
	CLI_SYMBOL_LONG_OPTIONS,
	CLI_IGNORE_VMLINUX_OPTION,
	{"ns", no_argument, NULL, OPT_NS},
	{"tasks", no_argument, NULL, OPT_TASKS},
	{"mmaps", no_argument, NULL, OPT_MMAPS},
	{"show-cpu-utilization", no_argument, NULL, OPT_CPU_UTIL},
	{"showcpuutilization", no_argument, NULL, OPT_CPU_UTIL},
	{"stdio-color", required_argument, NULL, OPT_STDIO_COLOR},
	/* perf's options perfkit does not do: refused by name (and the
	 * short ones below) */
	{"disassembler-style", required_argument, NULL, 'M'},
	{"modules", no_argument, NULL, 'm'},
	{"column-widths", required_argument, NULL, 'w'},
	{"asm-raw", no_argument, NULL, OPT_UNSUPPORTED},
	{"branch-history", no_argument, NULL, OPT_UNSUPPORTED},
	{"demangle-kernel", no_argument, NULL, OPT_UNSUPPORTED},
	{"disable-order", no_argument, NULL, OPT_UNSUPPORTED},
	{"full-source-path", no_argument, NULL, OPT_UNSUPPORTED},
	{"group-sort-idx", required_argument, NULL, OPT_UNSUPPORTED},
	{"inline", no_argument, NULL, OPT_UNSUPPORTED},
	{"itrace", optional_argument, NULL, OPT_UNSUPPORTED},
	{"mem-mode", no_argument, NULL, OPT_UNSUPPORTED},
	{"objdump", required_argument, NULL, OPT_UNSUPPORTED},
	{"percent-type", required_argument, NULL, OPT_UNSUPPORTED},
	{"prefix", required_argument, NULL, OPT_UNSUPPORTED},
	{"prefix-strip", required_argument, NULL, OPT_UNSUPPORTED},
	{"pretty", required_argument, NULL, OPT_UNSUPPORTED},
	{"samples", required_argument, NULL, OPT_UNSUPPORTED},
	{"show-on-off-events", no_argument, NULL, OPT_UNSUPPORTED},
	{"show-ref-call-graph", no_argument, NULL, OPT_UNSUPPORTED},
	{"skip-empty", no_argument, NULL, OPT_UNSUPPORTED},
	{"socket-filter", required_argument, NULL, OPT_UNSUPPORTED},
	{"source", no_argument, NULL, OPT_UNSUPPORTED},
	{"stitch-lbr", no_argument, NULL, OPT_UNSUPPORTED},
	{"switch-off", required_argument, NULL, OPT_UNSUPPORTED},
	{"switch-on", required_argument, NULL, OPT_UNSUPPORTED},
	{"symbol-filter", required_argument, NULL, OPT_UNSUPPORTED},
	{"total-cycles", no_argument, NULL, OPT_UNSUPPORTED},
	{"tui", no_argument, NULL, OPT_UNSUPPORTED},
	{NULL, 0, NULL, 0},
};

/* An option perf has and perfkit does not do: one line, status 1. */
static int refuse(const char *name)
{
	cli_error("report: %s is not supported by perfkit (see perfkit report --help)", name);
	return -EINVAL;
}

static int refuse_short(int c)
{
	for (const struct option *o = report_options; o->name; o++)
		if (o->val == c) {
			char name[64];

			snprintf(name, sizeof(name), "-%c/--%s", c, o->name);
			return refuse(name);
		}
	return -EINVAL;
}

/* perf colours only a terminal: without one, never and auto are its
 * plain text, which is all perfkit prints */
static int parse_stdio_color(const char *arg)
{
	if (!strcmp(arg, "never") || (!strcmp(arg, "auto") && !isatty(STDOUT_FILENO)))
		return 0;
	if (!strcmp(arg, "always") || !strcmp(arg, "auto"))
		return refuse("--stdio-color (colours)");
	cli_error("report: --stdio-color takes always, never or auto, not '%s'", arg);
	return -EINVAL;
}

/* perf's -g takes the next word unless it is an option ("-g caller",
 * "-g --stdio"); alone it is graph,0.5,caller,function,percent */
static const char *call_graph_arg(int argc, char **argv, const char *attached)
{
	if (attached)
		return attached;
	if (optind < argc && argv[optind][0] != '-')
		return argv[optind++];
	return "graph,0.5,caller,function,percent";
}

/* perf's --percentage: a prefix of either word */
static int parse_percentage(const char *arg, bool *relative)
{
	size_t n = strlen(arg);

	if (n && !strncmp(arg, "relative", n)) {
		*relative = true;
		return 0;
	}
	if (n && !strncmp(arg, "absolute", n)) {
		*relative = false;
		return 0;
	}
	cli_error("report: --percentage takes relative or absolute, not '%s'", arg);
	return -EINVAL;
}

static int parse_max_stack(const char *arg, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 0);
	if (errno || end == arg || *end || v < 0 || v > 65535) {
		cli_error("report: bad --max-stack '%s'", arg);
		return -EINVAL;
	}
	*out = (int)v;
	return 0;
}

/* perf's --time-quantum: a number of ns, or of s, ms, us or ns with the
 * unit after it (spaces allowed between) */
static int parse_time_quantum(const char *arg, uint64_t *out)
{
	static const struct {
		const char *unit;
		uint64_t ns;
	} units[] = {{"", 1}, {"s", 1000000000}, {"ms", 1000000}, {"us", 1000}, {"ns", 1}};
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 0);
	if (end == arg || errno || arg[0] == '-') {
		cli_error("report: cannot parse --time-quantum '%s'", arg);
		return -EINVAL;
	}
	if (!v) {
		cli_error("report: --time-quantum cannot be 0");
		return -EINVAL;
	}
	while (*end == ' ' || *end == '\t')
		end++;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit)) {
			*out = v * units[i].ns;
			return 0;
		}
	cli_error("report: cannot parse --time-quantum '%s'", arg);
	return -EINVAL;
}

/* perf's exit status for a --kallsyms it cannot read (its -EINVAL) */
#define EXIT_BAD_FILE (256 - EINVAL)

/* 0, a negative errno (usage printed or said), or an exit status */
static int parse_report_args(int argc, char **argv, struct report_args *a)
{
	int c, status, idx = -1;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:DIfvhs:g::c:C:d:S:bnF:t:qGUTk:M:mp:w:x",
				report_options, &idx)) != -1) {
		if (cli_symbol_option(c, optarg, &a->stdio.symsrc, &status)) {
			/* perf report's status for a file it cannot read is 234 */
			if (status)
				return status == CLI_EXIT_BAD_FILE ? EXIT_BAD_FILE : status;
			continue;
		}
		switch (c) {
		case 'i':
			a->input = optarg;
			break;
		case OPT_STATS:
			a->mode = MODE_STATS;
			break;
		case 'D':
			a->mode = MODE_DUMP;
			break;
		case OPT_HEADER_ONLY:
			a->mode = MODE_HEADER_ONLY;
			break;
		case 'I':
			a->show_info = true;
			a->stdio.show_info = true;
			break;
		case 'f':
			a->force = true;
			break;
		case 'v':
			a->verbose++;
			break;
		case 'h':
			fputs(report_usage, stdout);
			exit(0);
		case OPT_STDIO:
			break;
		case OPT_CHILDREN:
			a->stdio.children = 1;
			break;
		case OPT_NO_CHILDREN:
			a->stdio.children = 0;
			break;
		case 's':
			a->stdio.sort = optarg;
			break;
		case 'g':
			a->stdio.call_graph = call_graph_arg(argc, argv, optarg);
			a->stdio.limit_after_graph = false;
			break;
		case OPT_PERCENT_LIMIT:
			a->stdio.percent_limit = strtod(optarg, NULL);
			a->stdio.percent_limit_set = true;
			a->stdio.limit_after_graph = true;
			break;
		case 'c':
			a->stdio.comms = optarg;
			break;
		case OPT_PIDS:
			a->stdio.pids = optarg;
			break;
		case 'C':
			a->stdio.cpus = optarg;
			break;
		case OPT_TIME:
			a->stdio.time = optarg;
			break;
		case OPT_TIDS:
			a->stdio.tids = optarg;
			break;
		case 'd':
			a->stdio.dsos = optarg;
			break;
		case 'S':
			a->stdio.symbols = optarg;
			break;
		case OPT_JSON:
			a->stdio.json = true;
			break;
		case 'b':
			a->stdio.branch_stack = 1;
			break;
		case OPT_NO_BRANCH_STACK:
			a->stdio.branch_stack = 0;
			break;
		case OPT_GROUP:
			a->stdio.group = 1;
			break;
		case OPT_NO_GROUP:
			a->stdio.group = 0;
			break;
		case 'n':
			a->stdio.show_nr_samples = true;
			break;
		case OPT_SHOW_PERIOD:
			a->stdio.show_total_period = true;
			break;
		case 'F':
			a->stdio.fields = optarg;
			break;
		case 't':
			a->stdio.field_sep = optarg;
			break;
		case 'q':
			a->stdio.quiet = true;
			break;
		case OPT_HEADER:
			a->stdio.header = true;
			break;
		case OPT_PERCENTAGE:
			if (parse_percentage(optarg, &a->stdio.relative))
				return -EINVAL;
			break;
		case OPT_MAX_STACK:
			if (parse_max_stack(optarg, &a->stdio.max_stack))
				return -EINVAL;
			break;
		case 'G':
			a->stdio.inverted = true;
			break;
		case 'U':
			a->stdio.hide_unresolved = true;
			break;
		case OPT_DEMANGLE:
			a->stdio.no_demangle = false;
			break;
		case OPT_NO_DEMANGLE:
			a->stdio.no_demangle = true;
			break;
		case 'T':
			a->stdio.threads = true;
			break;
		case OPT_TASKS:
			a->mode = MODE_TASKS;
			break;
		case OPT_CPU_UTIL:
			a->stdio.show_cpu_util = true;
			break;
		case OPT_MMAPS:
			a->mode = MODE_TASKS;
			a->mmaps = true;
			break;
		case OPT_NS:
			a->stdio.ns = true;
			break;
		case OPT_HIERARCHY:
			a->stdio.hierarchy = true;
			break;
		case OPT_RAW_TRACE:
			a->stdio.raw_trace = true;
			break;
		case OPT_TIME_QUANTUM:
			if (parse_time_quantum(optarg, &a->stdio.time_quantum))
				return -EINVAL;
			break;
		case OPT_STDIO_COLOR:
			if (parse_stdio_color(optarg))
				return -EINVAL;
			break;
		case 'p':
			a->stdio.parent = optarg;
			break;
		case 'x':
			a->stdio.exclude_other = true;
			break;
		case OPT_IGNORE_CALLEES:
			a->stdio.ignore_callees = optarg;
			break;
		case 'M':
		case 'm':
		case 'w':
			return refuse_short(c);
		case OPT_UNSUPPORTED: {
			char name[64];

			snprintf(name, sizeof(name), "--%s", report_options[idx].name);
			return refuse(name);
		}
		default:
			fputs(report_usage, stderr);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		cli_error("report: unexpected argument '%s'", argv[optind]);
		return -EINVAL;
	}
	return 0;
}

int cli_open_reader(struct pk_reader **out, const char *path, const struct pk_reader_opts *opts)
{
	int err = pk_reader_open(out, path, opts);

	if (err) {
		if (*out)
			fprintf(stderr, "perfkit: %s\n", pk_reader_error(*out));
		else
			cli_error("%s: %s", path, strerror(-err));
		pk_reader_close(*out);
		*out = NULL;
	}
	return err;
}

static const char *default_input(void)
{
	/* perf reads stdin when it is a pipe and no -i is given */
	return isatty(STDIN_FILENO) || lseek(STDIN_FILENO, 0, SEEK_CUR) == 0 ? "perf.data" : "-";
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = {.mode = MODE_DEFAULT,
				 .stdio = {.children = -1,
					   .branch_stack = -1,
					   .group = -1,
					   .max_stack = -1}};
	struct pk_reader_opts opts = {.sz = sizeof(opts)};
	struct pk_reader *r = NULL;
	int err;

	if (report_wants_html(argc, argv))
		return report_html(argc, argv);
	err = parse_report_args(argc, argv, &a);
	if (err)
		return err > 0 ? err : 1;
	cli_setup_library_output(a.verbose);
	if (!a.input)
		a.input = default_input();
	if (a.mode == MODE_DEFAULT) {
		/* perf's -v changes the histogram (addresses, full paths, origin
		 * letters, signatures); --stats, -D and --header-only keep it
		 * as more diagnostics */
		if (a.verbose)
			return refuse("-v in the histogram view (perf's addresses, full paths and "
				      "origin letters)") ? 1 : 0;
		if (a.stdio.show_cpu_util && (a.stdio.fields || a.stdio.json))
			return refuse("--show-cpu-utilization with -F or --json") ? 1 : 0;
		a.stdio.force = a.force;
		a.stdio.verbose = a.verbose;
		return report_stdio(a.input, &a.stdio, stdout);
	}
	opts.force = a.force;
	/* perf builds its tasks from the records in time order */
	if (a.mode == MODE_TASKS)
		opts.order = PK_ORDER_TIME;
	if (cli_open_reader(&r, a.input, &opts))
		return 1;

	switch (a.mode) {
	case MODE_DUMP:
		err = report_dump(r, stdout);
		break;
	case MODE_HEADER_ONLY:
		err = report_header_only(r, stdout, a.show_info);
		break;
	case MODE_TASKS:
		err = report_tasks(r, stdout, a.mmaps);
		break;
	case MODE_STATS:
	default:
		err = report_stats(r, stdout);
		break;
	}
	pk_reader_close(r);
	return err ? 1 : 0;
}
