// SPDX-License-Identifier: MIT
/* perfkit script: print every sample of a recording, as perf script does. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "symbol_opts.h"
#include "cli.h"
#include "obuf.h"
#include <perfkit/filter.h>
#include "script.h"

static const char script_usage[] =
	"usage: perfkit script [<options>]\n"
	"\n"
	"    -i, --input <file>    input file name (default: perf.data, '-' for stdin)\n"
	"    -F, --fields <list>   comma separated output fields, perf's names:\n"
	"                          comm,tid,pid,time,cpu,event,trace,ip,sym,symoff,\n"
	"                          dso,addr,period,data_src,weight,ins_lat,phys_addr,\n"
	"                          data_page_size,code_page_size,brstack,brstacksym,\n"
	"                          iregs,uregs,brstackoff,misc,flags,ipc,tod\n"
	"                          callindent,synth,metric (flags, ipc, callindent,\n"
	"                          synth and metric are empty: only AUX-trace\n"
	"                          decoding fills them); srcline, srccode, insn,\n"
	"                          insnlen, brstackinsn(len) and bpf-output are\n"
	"                          refused; tod needs record -k;\n"
	"                          '+f'/'-f' adds to/removes from the\n"
	"                          defaults; 'TYPE:list' (hw,sw,trace,raw) for one type\n"
	"        --ns              show times in nanoseconds\n"
	"        --reltime         show times relative to the first line\n"
	"        --deltatime       show times relative to the previous line\n"
	"    -G, --hide-call-graph print the sample's ip only, not its callchain\n"
	"        --max-stack <n>   print at most n callchain frames (default 127)\n"
	"    -c, --comms <list>    only samples of these comms\n"
	"        --pid <list>      only samples of these process ids\n"
	"        --tid <list>      only samples of these thread ids\n"
	"    -C, --cpu <list>      only samples of these CPUs (\"0-3,5\")\n"
	"    -S, --symbols <list>  only samples at these symbols (names or 0xADDR)\n"
	"        --dsos <list>     only samples in these DSOs\n"
	"        --time <str>      only samples in this time span: start,stop (seconds),\n"
	"                          several separated by spaces, or percentages\n"
	"                          (10%/2, 0%-10%,30%-40%)\n"
	"        --header          show the perf.data header first\n"
	"        --header-only     show only the perf.data header\n"
	"    -I, --show-info       with --header: the full header (topology, caches)\n"
	CLI_SYMBOL_USAGE
	"        --per-event-dump  each event's samples to <input>.<event>.dump\n"
	"        --full-source-path  accepted: it changes only srcline, which is refused\n"
	"        --show-task-events, --show-mmap-events, --show-switch-events,\n"
	"        --show-namespace-events, --show-lost-events, --show-round-events,\n"
	"        --show-cgroup-events, --show-bpf-events, --show-text-poke-events\n"
	"                          print those side-band records between the samples\n"
	"    -f, --force           don't complain, do it\n"
	"    perf's other options (-s, -g, -D, --itrace, --symfs, --inline, ...) are\n"
	"    refused: not implemented\n"
	"        --no-demangle     do not demangle symbol names (--demangle: the default)\n"
	"    -v, --verbose         refused (perf's -v prints C++ parameters)\n"
	"    -q, --quiet           no warnings or messages (such as the one on files\n"
	"                          whose samples have no symbols)\n"
	"    -h, --help            show this help\n";

enum {
	OPT_NS = 256,
	OPT_HEADER,
	OPT_NO_DEMANGLE,
	OPT_RELTIME,
	OPT_DELTATIME,
	OPT_MAX_STACK,
	OPT_PID,
	OPT_TID,
	OPT_DSOS,
	OPT_TIME,
	OPT_HEADER_ONLY,
	OPT_PER_EVENT_DUMP,
	OPT_SOURCE_PATH,
	OPT_DEMANGLE,
	OPT_NOT_DONE,
	OPT_SHOW = 512
};

static const struct option script_options[] = {
	{"input", required_argument, NULL, 'i'},
	{"fields", required_argument, NULL, 'F'},
	{"ns", no_argument, NULL, OPT_NS},
	{"header", no_argument, NULL, OPT_HEADER},
	{"header-only", no_argument, NULL, OPT_HEADER_ONLY},
	{"show-info", no_argument, NULL, 'I'},
	{"reltime", no_argument, NULL, OPT_RELTIME},
	{"deltatime", no_argument, NULL, OPT_DELTATIME},
	{"hide-call-graph", no_argument, NULL, 'G'},
	{"max-stack", required_argument, NULL, OPT_MAX_STACK},
	{"comms", required_argument, NULL, 'c'},
	{"pid", required_argument, NULL, OPT_PID},
	{"tid", required_argument, NULL, OPT_TID},
	{"cpu", required_argument, NULL, 'C'},
	{"symbols", required_argument, NULL, 'S'},
	{"dsos", required_argument, NULL, OPT_DSOS},
	{"time", required_argument, NULL, OPT_TIME},
	CLI_SYMBOL_LONG_OPTIONS,
	{"per-event-dump", no_argument, NULL, OPT_PER_EVENT_DUMP},
	{"full-source-path", no_argument, NULL, OPT_SOURCE_PATH},
	{"force", no_argument, NULL, 'f'},
	{"no-demangle", no_argument, NULL, OPT_NO_DEMANGLE},
	{"demangle", no_argument, NULL, OPT_DEMANGLE},
	/* perf's options that perfkit does not implement: refused by name */
	{"addr-range", optional_argument, NULL, OPT_NOT_DONE},
	{"call-ret-trace", optional_argument, NULL, OPT_NOT_DONE},
	{"call-trace", optional_argument, NULL, OPT_NOT_DONE},
	{"demangle-kernel", optional_argument, NULL, OPT_NOT_DONE},
	{"dlarg", optional_argument, NULL, OPT_NOT_DONE},
	{"dlfilter", optional_argument, NULL, OPT_NOT_DONE},
	{"dump-unsorted-raw-trace", optional_argument, NULL, OPT_NOT_DONE},
	{"graph-function", optional_argument, NULL, OPT_NOT_DONE},
	{"guest-code", optional_argument, NULL, OPT_NOT_DONE},
	{"guestkallsyms", optional_argument, NULL, OPT_NOT_DONE},
	{"guestmodules", optional_argument, NULL, OPT_NOT_DONE},
	{"guestmount", optional_argument, NULL, OPT_NOT_DONE},
	{"guestvmlinux", optional_argument, NULL, OPT_NOT_DONE},
	{"inline", optional_argument, NULL, OPT_NOT_DONE},
	{"insn-trace", optional_argument, NULL, OPT_NOT_DONE},
	{"itrace", optional_argument, NULL, OPT_NOT_DONE},
	{"list-dlfilters", optional_argument, NULL, OPT_NOT_DONE},
	{"max-blocks", optional_argument, NULL, OPT_NOT_DONE},
	{"show-kernel-path", optional_argument, NULL, OPT_NOT_DONE},
	{"show-on-off-events", optional_argument, NULL, OPT_NOT_DONE},
	{"stitch-lbr", optional_argument, NULL, OPT_NOT_DONE},
	{"stop-bt", optional_argument, NULL, OPT_NOT_DONE},
	{"switch-off", optional_argument, NULL, OPT_NOT_DONE},
	{"switch-on", optional_argument, NULL, OPT_NOT_DONE},
	{"xed", optional_argument, NULL, OPT_NOT_DONE},
	{"all-cpus", optional_argument, NULL, OPT_NOT_DONE},
	{"debug-mode", optional_argument, NULL, OPT_NOT_DONE},
	{"dump-raw-trace", optional_argument, NULL, OPT_NOT_DONE},
	{"gen-script", optional_argument, NULL, OPT_NOT_DONE},
	{"Latency", optional_argument, NULL, OPT_NOT_DONE},
	{"list", optional_argument, NULL, OPT_NOT_DONE},
	{"script", optional_argument, NULL, OPT_NOT_DONE},
	{"verbose", no_argument, NULL, 'v'},
	{"quiet", no_argument, NULL, 'q'},
	{"show-task-events", no_argument, NULL, OPT_SHOW + 0},
	{"show-mmap-events", no_argument, NULL, OPT_SHOW + 1},
	{"show-switch-events", no_argument, NULL, OPT_SHOW + 2},
	{"show-namespace-events", no_argument, NULL, OPT_SHOW + 3},
	{"show-lost-events", no_argument, NULL, OPT_SHOW + 4},
	{"show-round-events", no_argument, NULL, OPT_SHOW + 5},
	{"show-cgroup-events", no_argument, NULL, OPT_SHOW + 6},
	{"show-bpf-events", no_argument, NULL, OPT_SHOW + 7},
	{"show-text-poke-events", no_argument, NULL, OPT_SHOW + 8},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

/* -F options kept (perf takes one per event type, and again for all) */
#define MAX_FIELD_SPECS 16

struct script_args {
	const char *input;
	const char *fields[MAX_FIELD_SPECS]; /* each -F, in order */
	unsigned nr_fields;
	bool reltime, deltatime; /* both given: perf refuses */
	bool nanosecs, header, header_only, full_info, force, no_demangle, hide_callchain;
	bool per_event_dump;
	enum script_time_mode time_mode;
	size_t max_stack;
	int verbose;
	bool quiet;
	unsigned show;	/* enum script_show */
	const char *comms, *pids, *tids, *cpus, *symbols, *dsos, *time;
	struct cli_symbol_opts symsrc;
};

static const struct {
	const char *name;
	unsigned bit;
	uint64_t needs;		/* sample_type bits the field needs (any of) */
	const char *needs_name;	/* as perf names them in its error */
} field_names[] = {
	{"comm", SF_COMM, 0, NULL},
	{"tid", SF_TID, PERF_SAMPLE_TID, "TID"},
	{"pid", SF_PID, PERF_SAMPLE_TID, "TID"},
	{"time", SF_TIME, PERF_SAMPLE_TIME, "TIME"},
	{"cpu", SF_CPU, PERF_SAMPLE_CPU, "CPU"},
	{"event", SF_EVENT, 0, NULL},
	{"trace", SF_TRACE, PERF_SAMPLE_RAW, "RAW"},
	{"ip", SF_IP, PERF_SAMPLE_IP, "IP"},
	{"sym", SF_SYM, 0, NULL},
	{"symoff", SF_SYMOFF, 0, NULL},
	{"dso", SF_DSO, 0, NULL},
	{"addr", SF_ADDR, PERF_SAMPLE_ADDR, "ADDR"},
	{"period", SF_PERIOD, 0, NULL}, /* attr.sample_period otherwise */
	{"data_src", SF_DATA_SRC, PERF_SAMPLE_DATA_SRC, "DATA_SRC"},
	{"weight", SF_WEIGHT, PERF_SAMPLE_WEIGHT | PK_SAMPLE_WEIGHT_STRUCT, "WEIGHT"},
	{"ins_lat", SF_INS_LAT, PK_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT"},
	{"phys_addr", SF_PHYS_ADDR, PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR"},
	{"data_page_size", SF_DATA_PAGE_SIZE, PK_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE"},
	{"code_page_size", SF_CODE_PAGE_SIZE, PK_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE"},
	/* perf prints nothing for samples without a branch stack */
	{"brstack", SF_BRSTACK, 0, NULL},
	{"brstacksym", SF_BRSTACKSYM, 0, NULL},
	{"iregs", SF_IREGS, PERF_SAMPLE_REGS_INTR, "IREGS"},
	{"uregs", SF_UREGS, PERF_SAMPLE_REGS_USER, "UREGS"},
	{"flags", SF_FLAGS, 0, NULL},
	{"misc", SF_MISC, 0, NULL},
	/* perf prints an IPC only from AUX-trace decoders' counts: nothing here */
	{"ipc", SF_IPC, 0, NULL},
	{"brstackoff", SF_BRSTACKOFF, 0, NULL},
	{"tod", SF_TOD, 0, NULL},	/* needs CLOCK_DATA: checked in setup_formats() */
	/* perf prints these only for BTS and AUX-trace (Intel PT) events, which
	 * perfkit does not decode: nothing for the others, as in perf; a file
	 * with synthesized events is refused (aux_only_refused()) */
	{"callindent", SF_AUX_ONLY, 0, NULL},
	{"synth", SF_AUX_ONLY, 0, NULL},
	{"metric", SF_AUX_ONLY, 0, NULL},
};

/* -F fields perf has that perfkit does not print, and why */
static const struct {
	const char *name, *why;
} missing_fields[] = {
	{"srcline", "source lines come with annotate's line tables"},
	{"srccode", "source lines come with annotate's line tables"},
	{"insn", "instruction bytes need the disassembler of annotate"},
	{"insnlen", "instruction lengths need the disassembler of annotate"},
	{"brstackinsn", "instruction bytes need the disassembler of annotate"},
	{"brstackinsnlen", "instruction bytes need the disassembler of annotate"},
	{"bpf-output", "bpf-output events' data is not decoded"},
};

/* One line for a field perf has and perfkit does not: 1, else 0. */
static int refuse_missing(const char *name, size_t n)
{
	for (size_t i = 0; i < sizeof(missing_fields) / sizeof(missing_fields[0]); i++) {
		if (strlen(missing_fields[i].name) == n &&
		    !strncmp(missing_fields[i].name, name, n)) {
			fprintf(stderr, "perfkit: script: -F %s is not implemented: %s\n",
				missing_fields[i].name, missing_fields[i].why);
			return 1;
		}
	}
	return 0;
}

#define NR_FIELDS (sizeof(field_names) / sizeof(field_names[0]))
#define IP_FIELDS (SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVENT | SF_IP | SF_SYM | SF_SYMOFF | \
		   SF_DSO | SF_PERIOD)

static unsigned default_fields(uint32_t type)
{
	switch (type) {
	case PERF_TYPE_TRACEPOINT:
		return SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVENT | SF_TRACE;
	case PERF_TYPE_RAW:
		/* perf 6.1: the memory columns too, where the samples have them */
		return IP_FIELDS | SF_ADDR | SF_DATA_SRC | SF_WEIGHT | SF_INS_LAT | SF_PHYS_ADDR |
		       SF_DATA_PAGE_SIZE | SF_CODE_PAGE_SIZE;
	default:
		return IP_FIELDS;
	}
}

/* perf's output-type prefixes for "-F type:fields" */
static int type_of_prefix(const char *p, size_t n)
{
	static const char *const names[] = {"hw", "sw", "trace", "raw", "break"};
	static const int types[] = {PERF_TYPE_HARDWARE, PERF_TYPE_SOFTWARE,
				    PERF_TYPE_TRACEPOINT, PERF_TYPE_RAW, PERF_TYPE_BREAKPOINT};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == n && !strncmp(p, names[i], n))
			return types[i];
	return -1;
}

static int field_bit(const char *name, size_t n)
{
	for (size_t i = 0; i < NR_FIELDS; i++)
		if (strlen(field_names[i].name) == n && !strncmp(field_names[i].name, name, n))
			return (int)i;
	return -1;
}

/* Parse -F: returns 0 and fills set/add/del masks, and the type (-1 all). */
static int parse_fields(const char *spec, int *type, unsigned *set, unsigned *add, unsigned *del)
{
	const char *colon = strchr(spec, ':'), *p = spec;

	*type = -1;
	*set = *add = *del = 0;
	if (colon) {
		*type = type_of_prefix(spec, (size_t)(colon - spec));
		if (*type < 0) {
			fputs("Invalid event type in field string.\n", stderr);
			return -EINVAL;
		}
		p = colon + 1;
	}
	while (*p) {
		size_t n = strcspn(p, ",");
		char sign = (*p == '+' || *p == '-') ? *p : 0;
		int i = field_bit(p + !!sign, n - !!sign);

		if (i < 0) {
			if (refuse_missing(p + !!sign, n - !!sign))
				return -ENOTSUP;
			fputs("Invalid field requested.\n", stderr);
			return -EINVAL;
		}
		if (sign == '+')
			*add |= field_names[i].bit;
		else if (sign == '-')
			*del |= field_names[i].bit;
		else
			*set |= field_names[i].bit;
		p += n + (p[n] == ',');
	}
	return 0;
}

/* Fields an attr prints: defaults lose what the samples lack; fields the
 * user asked for must be there.  tp_chains: a tracepoint of the file has
 * callchains, and they are shown. */
/* Whether -F spec (its type prefix, none for all) is about attr a. */
static bool spec_applies(const char *spec, const struct pk_attr *a)
{
	unsigned set, add, del;
	int type;

	return !parse_fields(spec, &type, &set, &add, &del) &&
	       (type < 0 || (uint32_t)type == a->attr.type);
}

static int event_fields(const struct pk_attr *a, const struct script_args *args, bool tp_chains,
			unsigned *out)
{
	uint64_t st = a->attr.sample_type;
	unsigned f = default_fields(a->attr.type), user = 0;
	/* perf ignores "trace" for events other than tracepoints */
	unsigned invalid = a->attr.type == PERF_TYPE_TRACEPOINT ? 0 : SF_TRACE;
	bool user_set = false;

	for (unsigned i = 0; i < args->nr_fields; i++)
		user_set = user_set || spec_applies(args->fields[i], a);
	/* perf shows where tracepoints fired when their callchains are
	 * shown, unless -F sets their fields (even with + or -) */
	if (a->attr.type == PERF_TYPE_TRACEPOINT && tp_chains && !user_set)
		f |= SF_IP | SF_SYM | SF_SYMOFF | SF_DSO;
	/* each -F in turn, for its type or all of them */
	for (unsigned i = 0; i < args->nr_fields; i++) {
		unsigned set = 0, add = 0, del = 0;
		int type = -1;

		if (parse_fields(args->fields[i], &type, &set, &add, &del))
			return -EINVAL;
		if (type >= 0 && (uint32_t)type != a->attr.type)
			continue;
		if (set)
			f = user = set & ~invalid;
		f = (f | (add & ~invalid)) & ~del;
		user |= add & ~invalid;
	}
	for (size_t i = 0; i < NR_FIELDS; i++) {
		unsigned bit = field_names[i].bit;

		if (!(f & bit) || !field_names[i].needs || (st & field_names[i].needs))
			continue;
		if (user & bit) {
			fprintf(stderr,
				"Samples for '%s' event do not have %s attribute set. "
				"Cannot print '%s' field.\n",
				a->name ? a->name : "?", field_names[i].needs_name,
				field_names[i].name);
			return -EINVAL;
		}
		f &= ~bit;
	}
	if (!(st & (PERF_SAMPLE_IP | PERF_SAMPLE_ADDR)))
		f &= ~(SF_SYM | SF_SYMOFF | SF_DSO);
	/* perf prints nothing at all, not even the lines, for flags alone */
	if (f == SF_FLAGS)
		f = 0;
	*out = f;
	return 0;
}

static uint32_t first_of_type(struct pk_reader *r, uint32_t i)
{
	uint32_t type = pk_reader_attr(r, i)->attr.type;

	for (uint32_t j = 0; j < i; j++)
		if (pk_reader_attr(r, j)->attr.type == type)
			return j;
	return i;
}

/* callindent, synth and metric print nothing, except for the events of an
 * AUX-trace decoding (PERF_TYPE_SYNTH, BTS), which perfkit cannot print. */
static bool aux_only_refused(struct script_ctx *c, struct pk_reader *r)
{
	for (uint32_t i = 0; i < c->nr_attrs; i++) {
		const struct perf_event_attr *a = &pk_reader_attr(r, i)->attr;
		bool bts = a->type == PERF_TYPE_HARDWARE &&
			   a->config == PERF_COUNT_HW_BRANCH_INSTRUCTIONS && a->sample_period == 1;

		if ((c->fmt[i].fields & SF_AUX_ONLY) && (a->type == 0x80000000u || bts)) {
			fputs("perfkit: script: -F callindent, synth and metric are not implemented "
			      "for AUX-trace (BTS, Intel PT) events\n", stderr);
			return true;
		}
	}
	return false;
}

/* The tod field needs the recording's clock data; perf's message if not. */
static bool tod_missing(struct script_ctx *c, struct pk_reader *r)
{
	const struct pk_header *h = pk_reader_header(r);
	bool tod = false;

	for (uint32_t i = 0; i < c->nr_attrs; i++)
		tod = tod || (c->fmt[i].fields & SF_TOD);
	if (!tod)
		return false;
	if (!pk_header_has(h, PK_FEAT_CLOCK_DATA)) {
		fputs("Can't provide 'tod' time, missing clock data. "
		      "Please record with -k/--clockid option.\n", stderr);
		return true;
	}
	c->tod_wall_ns = h->clock_data_wall_ns;
	c->tod_clock_ns = h->clock_data_clockid_ns;
	return false;
}

/*
 * Per-event formats, made when the first sample arrives: in pipe mode the
 * attrs come as records, all before the first sample.
 */
static int setup_formats(struct script_ctx *c, const struct script_args *args)
{
	struct pk_reader *r = pk_session_reader(c->session);
	bool tp_chains = false;

	free(c->fmt);
	c->nr_attrs = pk_reader_nr_attrs(r);
	c->fmt = calloc(c->nr_attrs ? c->nr_attrs : 1, sizeof(*c->fmt));
	if (!c->fmt)
		return -ENOMEM;
	c->name_width = 0;
	for (uint32_t i = 0; i < c->nr_attrs; i++) {
		const struct pk_attr *a = pk_reader_attr(r, i);

		tp_chains = tp_chains || (a->attr.type == PERF_TYPE_TRACEPOINT &&
					  (a->attr.sample_type & PERF_SAMPLE_CALLCHAIN));
	}
	tp_chains = tp_chains && !args->hide_callchain;
	for (uint32_t i = 0; i < c->nr_attrs; i++) {
		const struct pk_attr *a = pk_reader_attr(r, i);
		int len = a->name ? (int)strlen(a->name) : 0;
		uint32_t first = first_of_type(r, i);

		/* perf keeps one field list per event type, checked against
		 * the first event of the type only */
		if (first < i)
			c->fmt[i].fields = c->fmt[first].fields;
		else if (event_fields(a, args, tp_chains, &c->fmt[i].fields))
			return -EINVAL;
		c->fmt[i].callchain =
			!args->hide_callchain && (a->attr.sample_type & PERF_SAMPLE_CALLCHAIN);
		if (len > c->name_width)
			c->name_width = len;
	}
	if (tod_missing(c, r) || aux_only_refused(c, r))
		return -EINVAL;
	return c->per_event_dump ? script_dump_open(c) : 0;
}

/* perf's exit status for a bad option value (129), after its message */
#define EXIT_USAGE 129

static int usage_error(const char *msg)
{
	fputs(msg, stderr);
	fputs("\n", stderr);
	fputs(script_usage, stderr);
	return EXIT_USAGE;
}

/* --max-stack: perf takes an unsigned number, nothing else */
static int parse_max_stack(const char *s, size_t *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (!*s || *end || errno || strchr(s, '-') || v > 1 << 20)
		return usage_error(
			" Error: option `max-stack' expects an unsigned numerical value");
	*out = v;
	return 0;
}

/* Filters and output modes: the options without a one-letter form too. */
static int parse_long_only(int c, struct script_args *a)
{
	switch (c) {
	case OPT_NS:
		a->nanosecs = true;
		break;
	case OPT_HEADER:
		a->header = true;
		break;
	case OPT_HEADER_ONLY:
		a->header_only = true;
		break;
	case OPT_NO_DEMANGLE:
		a->no_demangle = true;
		break;
	case OPT_RELTIME:
		a->time_mode = TIME_REL;
		a->reltime = true;
		break;
	case OPT_DELTATIME:
		a->time_mode = TIME_DELTA;
		a->deltatime = true;
		break;
	case OPT_MAX_STACK:
		return parse_max_stack(optarg, &a->max_stack);
	case OPT_PID:
		a->pids = optarg;
		break;
	case OPT_TID:
		a->tids = optarg;
		break;
	case OPT_DSOS:
		a->dsos = optarg;
		break;
	case OPT_TIME:
		a->time = optarg;
		break;
	case OPT_PER_EVENT_DUMP:
		a->per_event_dump = true;
		break;
	case OPT_DEMANGLE:
		a->no_demangle = false;	/* the default, as in perf */
		break;
	case OPT_SOURCE_PATH:
		/* it only changes srcline and srccode, which are refused: the
		 * output is perf's either way */
		break;
	case OPT_SHOW + 0 ... OPT_SHOW + 8:
		a->show |= 1u << (c - OPT_SHOW);
		break;
	default:
		fputs(script_usage, stderr);
		return EXIT_USAGE;
	}
	return 0;
}

/* -F is checked as perf checks it, before the file is opened. */
static int check_fields(const char *spec)
{
	unsigned set, add, del;
	int type, err = parse_fields(spec, &type, &set, &add, &del);

	if (err == -ENOTSUP)
		return EXIT_USAGE;
	return err ? usage_error("") : 0;
}

static int parse_script_args(int argc, char **argv, struct script_args *a)
{
	int c, err, li = 0;

	optind = 1;
	a->max_stack = SCRIPT_MAX_STACK;
	while ((c = getopt_long(argc, argv, "i:F:fvqhGIc:C:S:k:adDg:Lls:", script_options, &li)) !=
	       -1) {
		if (cli_symbol_option(c, optarg, &a->symsrc, &err)) {
			if (err)
				return err;
			continue;
		}
		switch (c) {
		case OPT_NOT_DONE:
			fprintf(stderr, "perfkit: script: --%s is not implemented\n",
				script_options[li].name);
			return EXIT_USAGE;
		case 'a': case 'd': case 'D': case 'g': case 'L': case 'l': case 's':
			fprintf(stderr, "perfkit: script: -%c is not implemented\n", c);
			return EXIT_USAGE;
		case 'G':
			a->hide_callchain = true;
			break;
		case 'I':
			a->full_info = true;
			break;
		case 'c':
			a->comms = optarg;
			break;
		case 'C':
			a->cpus = optarg;
			break;
		case 'S':
			a->symbols = optarg;
			break;
		case 'i':
			a->input = optarg;
			break;
		case 'F':
			if (a->nr_fields == MAX_FIELD_SPECS)
				return usage_error(" Error: too many -F options");
			a->fields[a->nr_fields++] = optarg;
			err = check_fields(optarg);
			if (err)
				return err;
			break;
		case 'f':
			a->force = true;
			break;
		case 'v':
			a->verbose++;
			break;
		case 'q':
			a->quiet = true;
			break;
		case 'h':
			fputs(script_usage, stdout);
			exit(0);
		default:
			err = parse_long_only(c, a);
			if (err)
				return err;
		}
	}
	if (optind < argc) {
		cli_error("script: unexpected argument '%s'", argv[optind]);
		return 1;
	}
	if (a->reltime && a->deltatime) {
		/* perf's words and status */
		fputs("reltime and deltatime - the two don't get along well. "
		      "Please limit to --reltime or --deltatime.\n",
		      stderr);
		return 255;
	}
	return 0;
}

static const char *default_input(void)
{
	return isatty(STDIN_FILENO) || lseek(STDIN_FILENO, 0, SEEK_CUR) == 0 ? "perf.data" : "-";
}

static int check_formats(struct script_ctx *c, const struct script_args *a,
			 const struct pk_attr *attr)
{
	if (!attr || attr->index < c->nr_attrs)
		return 0;
	return setup_formats(c, a);
}

/* Through the formatting thread when the sample's fields allow it. */
static int print_sample(struct script_ctx *c, struct script_pipe *pipe,
			const struct pk_session_sample *ev)
{
	/* an event left without fields (-F trace for a software event)
	 * prints nothing, not even its line's end, as in perf */
	if (!c->fmt[ev->attr->index].fields)
		return 0;
	if (pipe && !script_job_needs_session(c, ev->attr)) {
		int err = script_pipe_add(pipe, ev);

		if (err <= 0)
			return err;
	}
	if (pipe)
		script_pipe_drain(pipe);
	if (c->per_event_dump) {
		struct obuf *out = c->ob;

		c->ob = script_dump_ob(c, ev->attr->index);
		script_print_sample(c, ev);
		c->ob = out;
		return 0;
	}
	script_print_sample(c, ev);
	return 0;
}

/* Samples and, for --show-*-events, the side-band records between them. */
static int run_script(struct script_ctx *c, const struct script_args *a)
{
	struct pk_session_sample ev;
	const struct pk_record *other = NULL;
	int err;

	/* side-band records are printed here, between the samples: no
	 * second thread then */
	struct script_pipe *pipe = c->show || c->per_event_dump ? NULL : script_pipe_start(c);

	while ((err = c->show ? pk_session_next_any(c->session, &ev, &other)
			      : pk_session_next(c->session, &ev)) > 0) {
		const struct pk_attr *attr = other ? other->attr : ev.attr;

		if (pipe && attr && attr->index >= c->nr_attrs)
			script_pipe_drain(pipe);	/* formats change */
		err = check_formats(c, a, attr);
		if (err) {
			script_pipe_stop(pipe);
			return err;
		}
		if (other) {
			script_print_record(c, other);
			continue;
		}
		if (ev.attr->index >= c->nr_attrs)
			continue;
		if (c->filter && !pk_sample_filter_match(c->filter, &ev))
			continue;
		err = print_sample(c, pipe, &ev);
		if (err < 0)
			break;
	}
	script_pipe_stop(pipe);
	if (err < 0)
		fprintf(stderr, "perfkit: %s\n", pk_session_error(c->session));
	return err;
}

/* perf's exit status when it gives up on the file's options (-1) */
#define EXIT_FAIL 255

static int cpu_filter(struct pk_sample_filter *f, const char *list, struct pk_reader *r)
{
	return cli_filter_cpus(f, list, r, false) ? EXIT_FAIL : 0;
}

static int time_filter(struct pk_sample_filter *f, const struct script_args *a, struct pk_reader *r)
{
	/* perf exits with its -EINVAL */
	return cli_filter_time(f, a->time, r, a->time_mode == TIME_REL, false) ? 256 - EINVAL : 0;
}

/*
 * The filters, in the order perf checks them.  Returns 0, or -1 with
 * *status the exit status after the message (perf gives up on a bad pid
 * or tid list quietly, with status 0).
 */
static int setup_filter(struct script_ctx *c, const struct script_args *a, int *status)
{
	struct pk_reader *r = pk_session_reader(c->session);
	int err;

	*status = 0;
	if (!a->comms && !a->pids && !a->tids && !a->dsos && !a->symbols && !a->cpus && !a->time)
		return 0;
	c->filter = pk_sample_filter_new();
	err = c->filter ? pk_sample_filter_threads(c->filter, a->comms, a->pids, a->tids) : -ENOMEM;
	if (err == -EINVAL) {
		fprintf(stderr, "problems parsing %s list\n",
			pk_sample_filter_threads(c->filter, NULL, a->pids, NULL) ? "pid" : "tid");
		return -1;
	}
	if (!err)
		err = pk_sample_filter_locations(c->filter, a->dsos, a->symbols);
	if (err) {
		fprintf(stderr, "perfkit: script: %s\n", strerror(-err));
		*status = 1;
		return -1;
	}
	*status = a->cpus ? cpu_filter(c->filter, a->cpus, r) : 0;
	if (!*status && a->time)
		*status = time_filter(c->filter, a, r);
	return *status ? -1 : 0;
}

int cmd_script(int argc, char **argv)
{
	static char outbuf[1 << 20];
	struct script_args a = {0};
	struct pk_session_opts so = {.sz = sizeof(so)};
	struct script_ctx c = {.out = stdout};
	int err, werr, status = 0;

	status = parse_script_args(argc, argv, &a);
	if (status)
		return status;
	/* perf's -v prints C++ names with their parameters */
	if (a.verbose) {
		cli_error("script: -v (perf's names with parameters) is not supported by perfkit");
		return 1;
	}
	cli_setup_library_output(a.quiet ? -1 : a.verbose);
	if (!a.input)
		a.input = default_input();
	so.force = a.force;
	so.no_demangle = a.no_demangle;
	cli_symbol_session_opts(&a.symsrc, &so);
	/* perf does not sort when it shows the round markers */
	so.file_order = a.show & SHOW_ROUND;
	c.nanosecs = a.nanosecs;
	c.show = a.show;
	c.time_mode = a.time_mode;
	c.max_stack = a.max_stack;
	c.per_event_dump = a.per_event_dump;
	c.dump_input = strcmp(a.input, "-") ? a.input : NULL;
	err = pk_session_open(&c.session, a.input, &so);
	if (err) {
		fprintf(stderr, "perfkit: %s\n", pk_session_error(c.session));
		goto out;
	}
	c.arch = pk_reader_header(pk_session_reader(c.session))->arch;
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	if (a.header || a.header_only)
		report_header_only(pk_session_reader(c.session), stdout, a.full_info);
	if (a.header_only)
		goto out;
	if (setup_filter(&c, &a, &status))
		goto out;
	c.frames = calloc(SCRIPT_MAX_FRAMES, sizeof(*c.frames));
	c.lines = script_lines_new();
	c.trace_len = 1 << 16;
	c.trace_buf = malloc(c.trace_len);
	err = c.frames && c.lines && c.trace_buf ? setup_formats(&c, &a) : -ENOMEM;
	if (err == -EINVAL)
		status = EXIT_FAIL;
	if (err)
		goto out;
	fflush(stdout);
	c.ob = obuf_open(STDOUT_FILENO);
	if (!c.ob) {
		err = -ENOMEM;
		goto out;
	}
	err = run_script(&c, &a);
	werr = obuf_close(c.ob);
	if (c.per_event_dump) {
		int derr = script_dump_close(&c);

		if (!werr)
			werr = derr;
	}
	if (werr && werr != -EPIPE && !err) {
		fprintf(stderr, "perfkit: script: writing the output: %s\n", strerror(-werr));
		err = werr;
	}
	if (!err && !a.quiet)
		cli_session_symbol_hint(c.session);
out:
	fflush(stdout);
	if (c.dumps)
		script_dump_close(&c);
	free(c.trace_buf);
	free(c.fmt);
	free(c.frames);
	script_lines_free(c.lines);
	pk_sample_filter_free(c.filter);
	pk_session_close(c.session);
	return status ? status : err ? 1 : 0;
}
