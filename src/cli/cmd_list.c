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

int cmd_list(int argc, char **argv)
{
	static const char *const kinds[] = {"hw", "hardware", "sw", "software", "cache",
					    "hwcache", "pmu", "tracepoint", "sdt"};
	struct list_ctx c = {0};
	unsigned int mask = PK_EVENT_INFO_ALL;
	int ret;

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
	int opt, debug = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+dvh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd': c.no_desc = false; break;
		case 'N': c.no_desc = true; break;
		case 'v': case 'D': case 'T': break;	/* JSON events only: none here */
		case 'g': debug = 1; break;
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
	argv += optind - 1;
	argc -= optind - 1;
	cli_setup_library_output(debug);
	for (int i = 1; i < argc; i++) {
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
	if (c.kind) {
		if (!strcmp(c.kind, "hw") || !strcmp(c.kind, "hardware"))
			mask = PK_EVENT_INFO_HARDWARE;
		else if (!strcmp(c.kind, "sw") || !strcmp(c.kind, "software"))
			mask = PK_EVENT_INFO_SOFTWARE;
		else if (!strcmp(c.kind, "cache") || !strcmp(c.kind, "hwcache"))
			mask = PK_EVENT_INFO_CACHE;
		else if (!strcmp(c.kind, "pmu"))
			mask = PK_EVENT_INFO_PMU;
		else if (!strcmp(c.kind, "sdt"))
			mask = PK_EVENT_INFO_SDT;
		else
			mask = PK_EVENT_INFO_TRACEPOINT;
	}
	ret = pk_event_foreach(mask, NULL, print_one, &c);
	if (ret < 0) {
		cli_error("list: %s", strerror(-ret));
		return 1;
	}
	return 0;
}
