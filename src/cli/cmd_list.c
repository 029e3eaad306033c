// SPDX-License-Identifier: MIT
/* perfkit list: the events this machine offers, as perf lists them. */
#include <fnmatch.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

struct list_ctx {
	const char *filter;	/* word or glob, or NULL */
	bool no_desc;		/* --no-desc */
	const char *kind;	/* "hw", "sw", "cache", "pmu", "tracepoint", "sdt", or NULL */
};

static bool matches(const struct list_ctx *c, const struct pk_event_info *info)
{
	if (!c->filter)
		return true;
	if (strpbrk(c->filter, "*?["))
		return !fnmatch(c->filter, info->name, 0);
	return strstr(info->name, c->filter) || (info->alias && strstr(info->alias, c->filter));
}

static int print_one(const struct pk_event_info *info, void *arg)
{
	const struct list_ctx *c = arg;
	char name[256];

	if (!matches(c, info))
		return 0;
	if (info->alias)
		snprintf(name, sizeof(name), "%s OR %s", info->name, info->alias);
	else
		snprintf(name, sizeof(name), "%s", info->name);
	printf("  %-50s [%s]\n", name, info->type_desc);
	if (info->desc && !c->no_desc)
		printf("       [%s]\n", info->desc);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: perfkit list [hw|sw|cache|pmu|tracepoint|sdt] [<filter word or glob>]\n\n"
		   "List the events perfkit stat -e and perfkit record -e accept: hardware,\n"
		   "software and cache events, PMU events from sysfs and tracepoints, and\n"
		   "the SDT events of perf's build-id cache (~/.debug, 'perf buildid-cache\n"
		   "--add'). 'metric' and 'metricgroup' are refused: perfkit has no metric\n"
		   "tables.\n\n"
		   "    -d, --desc            print the events' descriptions (the default)\n"
		   "        --no-desc         do not\n"
		   "    -v, --long-desc, --deprecated, --details\n"
		   "                          accepted: in perf they change only the events of\n"
		   "                          its JSON tables, which perfkit does not have\n"
		   "        --debug           library diagnostics on stderr\n"
		   "        --cputype <type>  refused: for hybrid CPUs, not implemented\n");
}

/* The options, anywhere on the line as in perf: -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, struct list_ctx *c, int *debug)
{
	static const struct option longopts[] = {
		{"desc", no_argument, NULL, 'd'},
		{"no-desc", no_argument, NULL, 'N'},
		{"long-desc", no_argument, NULL, 'v'},
		{"deprecated", no_argument, NULL, 'D'},
		{"details", no_argument, NULL, 'T'},
		{"debug", no_argument, NULL, 'g'},
		{"cputype", required_argument, NULL, 'c'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "dvh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd': c->no_desc = false; break;
		case 'N': c->no_desc = true; break;
		case 'v': case 'D': case 'T': break;	/* JSON events only: none here */
		case 'g': *debug = 1; break;
		case 'c':
			cli_error("list: --cputype is not implemented (hybrid CPUs)");
			return 129;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 129;
		}
	}
	return -1;
}

static unsigned int kind_mask(const char *kind)
{
	if (!kind)
		return PK_EVENT_INFO_ALL;
	if (!strcmp(kind, "hw") || !strcmp(kind, "hardware"))
		return PK_EVENT_INFO_HARDWARE;
	if (!strcmp(kind, "sw") || !strcmp(kind, "software"))
		return PK_EVENT_INFO_SOFTWARE;
	if (!strcmp(kind, "cache") || !strcmp(kind, "hwcache"))
		return PK_EVENT_INFO_CACHE;
	if (!strcmp(kind, "pmu"))
		return PK_EVENT_INFO_PMU;
	if (!strcmp(kind, "sdt"))
		return PK_EVENT_INFO_SDT;
	return PK_EVENT_INFO_TRACEPOINT;
}

int cmd_list(int argc, char **argv)
{
	static const char *const kinds[] = {"hw", "hardware", "sw", "software", "cache",
					    "hwcache", "pmu", "tracepoint", "sdt"};
	struct list_ctx c = {0};
	int ret, debug = 0;

	ret = parse_options(argc, argv, &c, &debug);
	if (ret >= 0)
		return ret;
	cli_setup_library_output(debug);
	for (int i = optind; i < argc; i++) {
		bool kind = false;

		if (!strcmp(argv[i], "metric") || !strcmp(argv[i], "metricgroup")) {
			cli_error("list: %s: metrics are not implemented (perfkit has no metric "
				  "tables)", argv[i]);
			return 1;
		}
		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			kind |= !strcmp(argv[i], kinds[k]);
		if (kind && !c.kind)
			c.kind = argv[i];
		else
			c.filter = argv[i];
	}
	ret = pk_event_foreach(kind_mask(c.kind), NULL, print_one, &c);
	if (ret < 0) {
		cli_error("list: %s", strerror(-ret));
		return 1;
	}
	return 0;
}
