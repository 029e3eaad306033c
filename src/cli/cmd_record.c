// SPDX-License-Identifier: MIT
/* perfkit record: perf's options, a recorder from the library, a summary. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <perfkit/recorder.h>
#include "cli.h"

struct record_cmd {
	struct pk_recorder_opts o;
	struct pk_event_list events;
	size_t last_e; /* first event of the last -e, for --filter */
	bool quiet;
	int verbose;
	bool timestamp_filename; /* --timestamp-filename, and --switch-output */
	bool switch_signal;	 /* --switch-output=signal: SIGUSR2 */
	bool dry_run;
	int realtime; /* -r: SCHED_FIFO priority of the recorder */
};

static struct pk_recorder *volatile active;
static volatile sig_atomic_t got_signal; /* raised again at the end, as perf */

static volatile sig_atomic_t switch_asked; /* SIGUSR2 while opening */

static void on_switch_signal(int sig)
{
	(void)sig;
	if (active)
		pk_recorder_switch(active);
	else
		switch_asked = 1;
}

static void on_signal(int sig)
{
	got_signal = sig;
	if (active)
		pk_recorder_stop(active);
}

/*
 * perf's exit: the command's own exit status; when it was killed by a
 * signal, or perfkit itself was stopped by one, that signal raised again
 * on perfkit, so the shell sees what it would have seen without us.
 */
static int exit_like_perf(const struct pk_recorder_summary *s)
{
	int sig = got_signal;

	if (s->command_ran && WIFEXITED(s->command_status) && !sig)
		return WEXITSTATUS(s->command_status);
	if (s->command_ran && WIFSIGNALED(s->command_status))
		sig = WTERMSIG(s->command_status);
	if (sig) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return s->command_ran && WIFEXITED(s->command_status) ? WEXITSTATUS(s->command_status) : 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: perfkit record [<options>] [<command>]\n"
		"   or: perfkit record [<options>] -- <command> [<options>]\n"
		"  Without a command (nor -p/-t/-C) the whole system is recorded until Ctrl-C.\n"
		"  Exits with the command's status, as perf.\n\n"
		"    -e, --event <event>       event selector (repeatable); see 'perfkit list'\n"
		"    -F, --freq <n>            sample at this frequency (Hz), or 'max'\n"
		"    -c, --count <n>           sample every n events\n"
		"    -g                        record call chains (frame pointers)\n"
		"        --call-graph <mode>   fp or dwarf[,stack size]\n"
		"    -a, --all-cpus            system-wide collection from all CPUs\n"
		"    -C, --cpu <cpus>          only these CPUs (0-3,7)\n"
		"    -p, --pid <pids>          record existing process(es)\n"
		"    -t, --tid <tids>          record existing thread(s)\n"
		"    -o, --output <file>       output file (default perf.data; '-' = pipe mode)\n"
		"    -m, --mmap-pages <n>      ring buffer pages per CPU (power of 2) or size "
		"(512K)\n"
		"    -s, --stat                per-thread counts (inherit_stat)\n"
		"    -T, --timestamp           record sample timestamps (always on)\n"
		"    -d, --data                record sample data addresses\n"
		"        --switch-events       record context switches\n"
		"        --namespaces          record namespace events\n"
		"        --filter <expr>       tracepoint filter for the events of the last -e\n"
		"        --exclude-perf        the tracepoints of the last -e leave out perfkit's\n"
		"                              own events (a common_pid filter)\n"
		"        --strict-freq         fail when -F is above the kernel's maximum\n"
		"                              sample rate instead of lowering it\n"
		"    -k, --clockid <clock>     monotonic, monotonic_raw, realtime, boottime, tai\n"
		"    -z, --compression-level[=n]  zstd-compress records (default level 1)\n"
		"    -i, --no-inherit          child tasks do not inherit the events\n"
		"    -B, --no-buildid          do not collect build ids\n"
		"    -N, --no-buildid-cache    do not copy the DSOs with samples into the\n"
		"                              build-id cache ($PERF_BUILDID_DIR, ~/.debug)\n"
		"    -D, --delay <ms>          start the events ms after the command starts\n"
		"        --all-user            every event counts user space only\n"
		"        --all-kernel          every event counts kernel space only\n"
		"        --max-size <size>     stop once the output is this large (B/K/M/G)\n"
		"        --timestamp-filename  at the end, rename the output <output>.<timestamp>\n"
		"        --switch-output[=<signal|size|time>]\n"
		"                              close the output as <output>.<timestamp> and go on\n"
		"                              in a new one on SIGUSR2 (signal, the default),\n"
		"                              every size bytes (B/K/M/G) or time (s/m/h/d)\n"
		"        --user-callchains / --kernel-callchains\n"
		"                              call chains without kernel / user frames\n"
		"        --sample-cpu          record the CPU in every sample\n"
		"    -P, --period, --sample-identifier, --no-bpf-event, --timestamp-boundary\n"
		"                              accepted: always so (never BPF events)\n"
		"        --dry-run             parse the options, then exit\n"
		"    -n, --no-samples          events that never sample (tracking records only)\n"
		"        --running-time        :S reads carry the enabled and running times\n"
		"    -W, --weight              sample the weight (WEIGHT_STRUCT)\n"
		"    -R, --raw-samples         raw data (and the CPU) in every sample\n"
		"        --phys-data           sample physical data addresses\n"
		"        --data-page-size / --code-page-size\n"
		"                              sample the page size of the data / code address\n"
		"        --no-buffering        wake up at every record (no batching)\n"
		"        --synth <no|all|task|mmap>  what is read from /proc for existing threads\n"
		"    -r, --realtime <prio>     the recorder (not the command) at SCHED_FIFO prio\n"
		"        --switch-max-files <n> keep only the n newest files of --switch-output\n"
		"        --overwrite           flight recorder: the rings keep the newest ones,\n"
		"                              written at the end (and on SIGUSR2 with\n"
		"                              --switch-output)\n"
		"    -q, --quiet               print nothing but errors\n"
		"    -v, --verbose             more messages: each event as it is opened\n\n"
		"  perf record's other options are refused by name. Per-event terms as perf:\n"
		"  -e 'cpu-clock/call-graph=fp,max-stack=16,no-inherit/'\n");
}

static int parse_u64(const char *s, const char *opt, uint64_t min, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || s[0] == '-' || v < min) {
		cli_error("record: invalid value '%s' for %s", s, opt);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_freq(const char *s, uint64_t *out)
{
	if (!strcmp(s, "max")) {
		FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "re");
		unsigned long long v = 0;
		bool ok = f && fscanf(f, "%llu", &v) == 1 && v > 0;

		if (f)
			fclose(f);
		if (!ok) {
			cli_error("record: cannot read the maximum sample rate");
			return -1;
		}
		*out = v;
		return 0;
	}
	return parse_u64(s, "-F", 1, out);
}

/* Pages, or a size with a B/K/M/G suffix turned into pages. */
static int parse_mmap_pages(const char *s, size_t *out)
{
	long page = sysconf(_SC_PAGESIZE);
	char *end;
	unsigned long long v, mult = 0;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || s[0] == '-')
		goto bad;
	switch (*end) {
	case 0:
		break;
	case 'B':
	case 'b':
		mult = 1;
		break;
	case 'K':
	case 'k':
		mult = 1ULL << 10;
		break;
	case 'M':
	case 'm':
		mult = 1ULL << 20;
		break;
	case 'G':
	case 'g':
		mult = 1ULL << 30;
		break;
	default:
		goto bad;
	}
	if (*end && end[1])
		goto bad;
	if (mult) {
		unsigned long long pages = v * mult / (unsigned long long)page, p2 = 1;

		while (p2 < pages)
			p2 <<= 1;
		v = p2;
	}
	if (v == 0 || v > (1u << 20) || (v & (v - 1)))
		goto bad;
	*out = (size_t)v;
	return 0;
bad:
	cli_error("record: invalid -m value '%s': a power of 2 number of pages, or a size "
		  "like 512K",
		  s);
	return -1;
}

/* "20K", "1M", "512" (bytes); mult_chars gives the suffixes and their
 * multipliers in order, e.g. "BKMG" for sizes */
static int parse_scaled(const char *s, const char *suffixes, const uint64_t *mults, uint64_t *out)
{
	char *end;
	unsigned long long v;
	const char *at;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || s[0] == '-')
		return -1;
	if (!*end) {
		*out = v;
		return 0;
	}
	if (end[1] || !(at = strchr(suffixes, *end)))
		return -1;
	*out = v * mults[at - suffixes];
	return 0;
}

static const uint64_t size_mults[] = {
	1, 1ULL << 10, 1ULL << 20, 1ULL << 30, /* B K M G */
	1, 1ULL << 10, 1ULL << 20, 1ULL << 30, /* b k m g */
};
#define SIZE_SUFFIXES "BKMGbkmg"

static int parse_max_size(struct record_cmd *c, const char *s)
{
	if (parse_scaled(s, SIZE_SUFFIXES, size_mults, &c->o.max_size) || !c->o.max_size) {
		cli_error("record: invalid --max-size '%s': a size like 200M", s);
		return -1;
	}
	return 0;
}

/* perf's --switch-output: "signal", a size (B/K/M/G) or a time (s/m/h/d) */
static int parse_switch_output(struct record_cmd *c, const char *s)
{
	static const uint64_t time_mults[] = {1, 60, 3600, 86400};
	uint64_t v;

	c->timestamp_filename = true;
	if (!s || !strcmp(s, "signal")) {
		c->switch_signal = true;
		return 0;
	}
	if (!parse_scaled(s, SIZE_SUFFIXES, size_mults, &v) && v && strpbrk(s, SIZE_SUFFIXES)) {
		c->o.switch_size = v;
		return 0;
	}
	if (!parse_scaled(s, "smhd", time_mults, &v) && v && strpbrk(s, "smhd") && v < UINT32_MAX) {
		c->o.switch_secs = (unsigned int)v;
		return 0;
	}
	cli_error("record: invalid --switch-output '%s': signal, a size (10M) or a time (30s)", s);
	return -1;
}

static int parse_synth(struct record_cmd *c, const char *s)
{
	static const char *const names[] = {"all", "no", "task", "mmap"};

	for (int i = 0; i < 4; i++) {
		if (!strcmp(s, names[i])) {
			c->o.synth = i;
			return 0;
		}
	}
	if (!strcmp(s, "cgroup")) {
		cli_error("record: --synth=cgroup: perfkit records no cgroup events");
		return -1;
	}
	cli_error("record: invalid --synth '%s': no, all, task or mmap", s);
	return -1;
}

static int parse_delay(struct record_cmd *c, const char *s)
{
	uint64_t v;

	if (!strcmp(s, "-1") || strchr(s, '-') || strchr(s, ',')) {
		cli_error("record: -D %s: only a delay in ms is supported (no -1, no ranges)", s);
		return -1;
	}
	if (parse_u64(s, "-D", 0, &v) || v > UINT32_MAX)
		return -1;
	c->o.delay_ms = (unsigned int)v;
	return 0;
}

static int parse_clockid(const char *s, int *out)
{
	static const struct {
		const char *name;
		int id;
	} clocks[] = {
		{"monotonic", CLOCK_MONOTONIC},
		{"mono", CLOCK_MONOTONIC},
		{"monotonic_raw", CLOCK_MONOTONIC_RAW},
		{"raw", CLOCK_MONOTONIC_RAW},
		{"realtime", CLOCK_REALTIME},
		{"real", CLOCK_REALTIME},
		{"boottime", CLOCK_BOOTTIME},
		{"boot", CLOCK_BOOTTIME},
		{"tai", CLOCK_TAI},
	};
	const char *n = !strncasecmp(s, "CLOCK_", 6) ? s + 6 : s;
	uint64_t v;

	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		if (!strcasecmp(n, clocks[i].name)) {
			*out = clocks[i].id;
			return 0;
		}
	}
	if (parse_u64(s, "-k", 0, &v) || v > 64)
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_call_graph(struct record_cmd *c, const char *s)
{
	uint64_t size;

	if (!strcmp(s, "fp")) {
		c->o.callgraph = PK_CALLGRAPH_FP;
		return 0;
	}
	if (!strncmp(s, "dwarf", 5) && (s[5] == 0 || s[5] == ',')) {
		c->o.callgraph = PK_CALLGRAPH_DWARF;
		if (s[5] == ',') {
			if (parse_u64(s + 6, "--call-graph dwarf", 8, &size) || size > 65528) {
				cli_error("record: dwarf stack size must be 8..65528");
				return -1;
			}
			c->o.dwarf_stack_size = (uint32_t)((size + 7) & ~7ULL);
		}
		return 0;
	}
	cli_error("record: unknown --call-graph mode '%s' (fp or dwarf[,size])", s);
	return -1;
}

static int add_events(struct record_cmd *c, const char *str)
{
	struct pk_parse_error perr = {0};
	int err;

	c->last_e = c->events.nr;
	err = pk_event_list_parse(&c->events, str, NULL, &perr);

	if (err) {
		cli_error("record: event syntax error: '%s'", str);
		fprintf(stderr, "%*s^ %s\n", (int)(perr.pos + 33), "", perr.msg);
		fprintf(stderr, "Run 'perfkit list' for a list of valid events\n");
		return -1;
	}
	return 0;
}

static int set_filter(struct record_cmd *c, const char *filter)
{
	char msg[256];

	if (pk_event_list_set_filter(&c->events, c->last_e, filter, msg, sizeof(msg))) {
		cli_error("record: %s", msg);
		return -1;
	}
	return 0;
}

/* --exclude-perf: the tracepoints of the last -e leave out perfkit's own
 * events, added to their --filter as perf does */
static int exclude_self(struct record_cmd *c)
{
	const char *old;
	char *f;
	int err;

	for (size_t i = c->last_e; i < c->events.nr; i++) {
		if (c->events.ev[i].attr.type != PERF_TYPE_TRACEPOINT) {
			cli_error("record: --exclude-perf option should follow a -e tracepoint "
				  "option");
			return -1;
		}
	}
	if (c->last_e >= c->events.nr) {
		cli_error("record: --exclude-perf option should follow a -e tracepoint option");
		return -1;
	}
	old = c->events.ev[c->last_e].filter;
	if ((old ? asprintf(&f, "(%s) && (common_pid != %d)", old, (int)getpid())
		 : asprintf(&f, "common_pid != %d", (int)getpid())) < 0)
		return -1;
	err = set_filter(c, f);
	free(f);
	return err;
}

enum {
	OPT_CALL_GRAPH = 256,
	OPT_SWITCH_EVENTS,
	OPT_NAMESPACES,
	OPT_STRICT_FREQ,
	OPT_FILTER,
	OPT_ALL_USER,
	OPT_ALL_KERNEL,
	OPT_USER_CALLCHAINS,
	OPT_MAX_SIZE,
	OPT_TIMESTAMP_FILENAME,
	OPT_SWITCH_OUTPUT,
	OPT_OVERWRITE,
	OPT_KERNEL_CALLCHAINS,
	OPT_SAMPLE_CPU,
	OPT_DRY_RUN,
	OPT_SWITCH_MAX_FILES,
	OPT_NO_BUFFERING,
	OPT_SYNTH,
	OPT_EXCLUDE_PERF,
	OPT_RUNNING_TIME,
	OPT_PHYS_DATA,
	OPT_DATA_PAGE_SIZE,
	OPT_CODE_PAGE_SIZE,
	OPT_ALWAYS, /* perf options for what perfkit always does */
};

static const struct option long_opts[] = {
	{"event", required_argument, NULL, 'e'},
	{"freq", required_argument, NULL, 'F'},
	{"count", required_argument, NULL, 'c'},
	{"call-graph", required_argument, NULL, OPT_CALL_GRAPH},
	{"all-cpus", no_argument, NULL, 'a'},
	{"cpu", required_argument, NULL, 'C'},
	{"pid", required_argument, NULL, 'p'},
	{"tid", required_argument, NULL, 't'},
	{"output", required_argument, NULL, 'o'},
	{"mmap-pages", required_argument, NULL, 'm'},
	{"stat", no_argument, NULL, 's'},
	{"timestamp", no_argument, NULL, 'T'},
	{"data", no_argument, NULL, 'd'},
	{"switch-events", no_argument, NULL, OPT_SWITCH_EVENTS},
	{"namespaces", no_argument, NULL, OPT_NAMESPACES},
	{"strict-freq", no_argument, NULL, OPT_STRICT_FREQ},
	{"filter", required_argument, NULL, OPT_FILTER},
	{"clockid", required_argument, NULL, 'k'},
	{"compression-level", optional_argument, NULL, 'z'},
	{"no-inherit", no_argument, NULL, 'i'},
	{"no-buildid", no_argument, NULL, 'B'},
	{"no-buildid-cache", no_argument, NULL, 'N'},
	{"delay", required_argument, NULL, 'D'},
	{"all-user", no_argument, NULL, OPT_ALL_USER},
	{"all-kernel", no_argument, NULL, OPT_ALL_KERNEL},
	{"user-callchains", no_argument, NULL, OPT_USER_CALLCHAINS},
	{"max-size", required_argument, NULL, OPT_MAX_SIZE},
	{"timestamp-filename", no_argument, NULL, OPT_TIMESTAMP_FILENAME},
	{"switch-output", optional_argument, NULL, OPT_SWITCH_OUTPUT},
	{"overwrite", no_argument, NULL, OPT_OVERWRITE},
	{"kernel-callchains", no_argument, NULL, OPT_KERNEL_CALLCHAINS},
	{"sample-cpu", no_argument, NULL, OPT_SAMPLE_CPU},
	{"dry-run", no_argument, NULL, OPT_DRY_RUN},
	{"switch-max-files", required_argument, NULL, OPT_SWITCH_MAX_FILES},
	{"no-buffering", no_argument, NULL, OPT_NO_BUFFERING},
	{"synth", required_argument, NULL, OPT_SYNTH},
	{"exclude-perf", no_argument, NULL, OPT_EXCLUDE_PERF},
	{"no-samples", no_argument, NULL, 'n'},
	{"running-time", no_argument, NULL, OPT_RUNNING_TIME},
	{"weight", no_argument, NULL, 'W'},
	{"raw-samples", no_argument, NULL, 'R'},
	{"phys-data", no_argument, NULL, OPT_PHYS_DATA},
	{"data-page-size", no_argument, NULL, OPT_DATA_PAGE_SIZE},
	{"code-page-size", no_argument, NULL, OPT_CODE_PAGE_SIZE},
	{"timestamp-boundary", no_argument, NULL, OPT_ALWAYS},
	{"realtime", required_argument, NULL, 'r'},
	{"period", no_argument, NULL, 'P'},
	{"sample-identifier", no_argument, NULL, OPT_ALWAYS},
	{"no-bpf-event", no_argument, NULL, OPT_ALWAYS},
	{"quiet", no_argument, NULL, 'q'},
	{"verbose", no_argument, NULL, 'v'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static int parse_one(struct record_cmd *c, int opt, const char *arg)
{
	uint64_t v;

	switch (opt) {
	case 'e':
		return add_events(c, arg);
	case 'F':
		return parse_freq(arg, &c->o.freq);
	case 'c':
		return parse_u64(arg, "-c", 1, &c->o.period);
	case 'g':
		c->o.callgraph = PK_CALLGRAPH_FP;
		return 0;
	case OPT_CALL_GRAPH:
		return parse_call_graph(c, arg);
	case 'a':
		c->o.system_wide = true;
		return 0;
	case 'C':
		c->o.cpu_list = arg;
		return 0;
	case 'p':
		c->o.pid_list = arg;
		return 0;
	case 't':
		c->o.tid_list = arg;
		return 0;
	case 'o':
		c->o.output = arg;
		return 0;
	case 'm':
		return parse_mmap_pages(arg, &c->o.mmap_pages);
	case 's':
		c->o.inherit_stat = true;
		return 0;
	case 'T':
		return 0;
	case 'd':
		c->o.sample_addr = true;
		return 0;
	case OPT_SWITCH_EVENTS:
		c->o.switch_events = true;
		return 0;
	case OPT_NAMESPACES:
		c->o.namespaces = true;
		return 0;
	case OPT_STRICT_FREQ:
		c->o.strict_freq = true;
		return 0;
	case OPT_FILTER:
		return set_filter(c, arg);
	case 'k':
		c->o.use_clockid = true;
		return parse_clockid(arg, &c->o.clockid);
	case 'z':
		c->o.compress_level = 1;
		if (arg && (parse_u64(arg, "-z", 1, &v) || v > 22)) {
			cli_error("record: compression level must be 1..22");
			return -1;
		}
		if (arg)
			c->o.compress_level = (int)v;
		return 0;
	case 'i':
		c->o.no_inherit = true;
		return 0;
	case 'B':
		c->o.no_buildid = true;
		return 0;
	case 'N':
		c->o.no_buildid_cache = true;
		return 0;
	case 'q':
		c->quiet = true;
		return 0;
	case 'D':
		return parse_delay(c, arg);
	case OPT_ALL_USER:
		c->o.all_user = true;
		return 0;
	case OPT_ALL_KERNEL:
		c->o.all_kernel = true;
		return 0;
	case OPT_USER_CALLCHAINS:
		c->o.user_callchains = true;
		return 0;
	case OPT_MAX_SIZE:
		return parse_max_size(c, arg);
	case OPT_TIMESTAMP_FILENAME:
		c->timestamp_filename = true;
		return 0;
	case OPT_SWITCH_OUTPUT:
		return parse_switch_output(c, arg);
	case OPT_OVERWRITE:
		c->o.overwrite = true;
		return 0;
	case OPT_KERNEL_CALLCHAINS:
		c->o.kernel_callchains = true;
		return 0;
	case OPT_SAMPLE_CPU:
		c->o.sample_cpu = true;
		return 0;
	case OPT_DRY_RUN:
		c->dry_run = true;
		return 0;
	case OPT_SYNTH:
		return parse_synth(c, arg);
	case OPT_EXCLUDE_PERF:
		return exclude_self(c);
	case 'n':
		c->o.no_samples = true;
		return 0;
	case OPT_RUNNING_TIME:
		c->o.running_time = true;
		return 0;
	case 'W':
		c->o.extra_sample_type |= PK_SAMPLE_WEIGHT_STRUCT;
		return 0;
	case 'R': /* as perf: the raw data with its CPU */
		c->o.extra_sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_CPU;
		return 0;
	case OPT_PHYS_DATA:
		c->o.extra_sample_type |= PERF_SAMPLE_PHYS_ADDR;
		return 0;
	case OPT_DATA_PAGE_SIZE:
		c->o.extra_sample_type |= PK_SAMPLE_DATA_PAGE_SIZE;
		return 0;
	case OPT_CODE_PAGE_SIZE:
		c->o.extra_sample_type |= PK_SAMPLE_CODE_PAGE_SIZE;
		return 0;
	case OPT_NO_BUFFERING:
		c->o.no_buffering = true;
		return 0;
	case 'r':
		if (parse_u64(arg, "-r", 1, &v) || v > 99)
			return -1;
		c->realtime = (int)v;
		return 0;
	case OPT_SWITCH_MAX_FILES:
		if (parse_u64(arg, "--switch-max-files", 1, &v) || v > UINT32_MAX)
			return -1;
		c->o.switch_max_files = (unsigned int)v;
		return 0;
	case 'P':
	case OPT_ALWAYS:
		return 0;
	case 'v':
		c->verbose++;
		return 0;
	default:
		return -1;
	}
}

/* perf record's options that perfkit does not have: named as such when
 * given, rather than as unknown */
static const char perf_only_long[] =
	" branch-any cgroup intr-regs branch-filter snapshot uid"
	" affinity aio all-cgroups aux-sample buildid-mmap clang-opt clang-path"
	" control debuginfod group kcore mmap-flush"
	" num-thread-synthesize off-cpu per-thread proc-map-timeout"
	" switch-output-event buildid-all tail-synthesize threads"
	" transaction user-regs vmlinux llvm-config ";
static const char perf_only_short[] = "bGIjSu";

static bool perf_only(const char *arg, int short_opt)
{
	size_t n;

	if (short_opt)
		return strchr(perf_only_short, short_opt) != NULL;
	if (strncmp(arg, "--", 2))
		return false;
	arg += 2;
	n = strcspn(arg, "=");
	for (const char *p = perf_only_long; (p = strchr(p, ' ')) && p[1]; p++)
		if (strcspn(p + 1, " ") == n && !strncmp(p + 1, arg, n))
			return true;
	return false;
}

/* One line for an option getopt refused. */
static void bad_option(int opt, const char *arg)
{
	char shortname[3] = {'-', (char)optopt, 0};
	const char *name = optopt ? shortname : arg;

	if (opt == ':')
		cli_error("record: option '%s' needs a value", name);
	else if (perf_only(arg, optopt))
		cli_error("record: perf's option '%s' is not implemented by perfkit", name);
	else
		cli_error("record: unknown option '%s' (see 'perfkit record --help')", name);
}

static int parse_args(struct record_cmd *c, int argc, char **argv)
{
	int opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:e:F:c:gaC:p:t:o:m:sTdk:z::iBND:Pr:nWRqvh",
				  long_opts, NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			exit(0);
		}
		if (opt == '?' || opt == ':') {
			bad_option(opt, argv[optind - 1]);
			return -1;
		}
		if (parse_one(c, opt, optarg))
			return -1;
	}
	c->o.argv = optind < argc ? argv + optind : NULL;
	/* as perf: no command and no target records the whole system until
	 * SIGINT/SIGTERM */
	if (!c->o.argv && !c->o.pid_list && !c->o.tid_list && !c->o.cpu_list)
		c->o.system_wide = true;
	return 0;
}

static void print_notes(const char *notes)
{
	while (*notes) {
		const char *nl = strchr(notes, '\n');
		int len = nl ? (int)(nl - notes) : (int)strlen(notes);

		fprintf(stderr, "Note: %.*s\n", len, notes);
		notes += len + (nl ? 1 : 0);
	}
}

static void print_summary(const struct record_cmd *c, const struct pk_recorder_summary *s,
			  const char *stamped)
{
	fprintf(stderr, "[ perfkit record: Woken up %llu times to write data ]\n",
		(unsigned long long)s->wakeups);
	if (stamped)
		fprintf(stderr, "[ perfkit record: Dump %s ]\n", stamped);
	fprintf(stderr, "[ perfkit record: Captured and wrote %.3f MB %s%s (%llu samples",
		(double)s->bytes / (1024.0 * 1024.0),
		strcmp(c->o.output, "-") ? c->o.output : "<stdout>", stamped ? ".<timestamp>" : "",
		(unsigned long long)s->samples);
	if (c->o.compress_level > 0 && s->compressed_bytes)
		fprintf(stderr, ", compressed %.1fx",
			(double)s->raw_bytes / (double)s->compressed_bytes);
	fprintf(stderr, ", %llu lost) ]\n", (unsigned long long)s->lost);
}

int cmd_record(int argc, char **argv)
{
	struct record_cmd c = {0};
	struct pk_recorder_summary sum;
	struct pk_recorder *rec = NULL;
	struct sigaction sa = {0};
	int err = -EINVAL, ferr, ret = 1;
	char stamped[4096] = "";

	c.o.sz = sizeof(c.o);
	c.o.output = "perf.data";
	if (parse_args(&c, argc, argv) || c.dry_run) { /* --dry-run: perf's, parse only */
		pk_event_list_free(&c.events);
		return c.dry_run ? 0 : 1;
	}
	cli_setup_library_output(c.quiet ? -1 : c.verbose);
	c.o.events = &c.events;
	/* main() passes argv + 1: CMDLINE gets "perfkit record ..." whole */
	c.o.cmdline_argc = argc + 1;
	c.o.cmdline_argv = argv - 1;
	if (!strcmp(c.o.output, "-") && c.timestamp_filename) {
		cli_error("record: --switch-output and --timestamp-filename need a file, not -o -");
		goto out;
	}
	if (!strcmp(c.o.output, "-") && isatty(STDOUT_FILENO)) {
		cli_error("record: refusing to write pipe-mode data to a terminal");
		goto out;
	}
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL); /* a closed terminal still gets a valid file */
	signal(SIGPIPE, SIG_IGN);
	if (c.switch_signal) {
		sa.sa_handler = on_switch_signal;
		sigaction(SIGUSR2, &sa, NULL);
	}

	err = pk_recorder_open(&rec, &c.o);
	if (rec && !c.quiet)
		print_notes(pk_recorder_notes(rec));
	if (err) {
		cli_error("record: %s", rec ? pk_recorder_error(rec) : strerror(-err));
		goto out;
	}
	if (c.realtime) { /* after the fork: the command keeps its policy, as with perf */
		struct sched_param sp = {.sched_priority = c.realtime};

		if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
			cli_error("record: -r %d: cannot set SCHED_FIFO: %s", c.realtime,
				  strerror(errno));
			err = -errno;
			goto out;
		}
	}
	active = rec;
	if (got_signal) /* arrived while opening: stop as soon as it starts */
		pk_recorder_stop(rec);
	if (switch_asked)
		pk_recorder_switch(rec);
	err = pk_recorder_run(rec);
	if (err)
		cli_error("record: %s", pk_recorder_error(rec));
	if (err && !pk_recorder_has_output(rec)) {
		ret = 255; /* the command could not start (perf's -1): no file */
		goto out;
	}
	ferr = pk_recorder_finish(rec, &sum);
	active = NULL;
	if (ferr && ferr != err)
		cli_error("record: %s", pk_recorder_error(rec));
	err = err ? err : ferr;
	if (!err && c.timestamp_filename && strcmp(c.o.output, "-")) {
		err = pk_recorder_timestamp_output(rec, stamped, sizeof(stamped));
		if (err)
			cli_error("record: %s", pk_recorder_error(rec));
	}
	if (!c.quiet)
		print_summary(&c, &sum, stamped[0] ? stamped : NULL);
	if (!err) {
		pk_recorder_close(rec);
		pk_event_list_free(&c.events);
		return exit_like_perf(&sum);
	}
out:
	active = NULL;
	pk_recorder_close(rec);
	pk_event_list_free(&c.events);
	return err ? ret : 0;
}
