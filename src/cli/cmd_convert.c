// SPDX-License-Identifier: MIT
/* perfkit convert: write a perf.data as folded stacks, a flame graph, an
 * HTML report, pprof, speedscope, Firefox Profiler or Chrome trace. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perfkit/export.h>
#include "cli.h"
#include "convert.h"

static const char convert_usage[] =
	"usage: perfkit convert [-i perf.data] --to FORMAT [-o OUT]\n"
	"\n"
	"    -i, --input <file>    input file name (default: perf.data, '-' for stdin)\n"
	"    -t, --to <format>     folded, flamegraph (svg), html, pprof, speedscope,\n"
	"                          gecko (Firefox Profiler), chrome (Trace Event JSON)\n"
	"    -o, --output <file>   output file ('-' or none: standard output)\n"
	"    -e, --event <name>    only samples of this event\n"
	"        --no-symbols      do not resolve symbols (addresses only)\n"
	CLI_SYMBOL_USAGE
	CLI_IGNORE_VMLINUX_USAGE
	"    -f, --force           don't complain, do it\n"
	"    -v, --verbose         be more verbose\n"
	"    -q, --quiet           no warnings or messages (such as the one on files\n"
	"                          whose samples have no symbols)\n"
	"    -h, --help            show this help\n";

enum { OPT_NO_SYMBOLS = 256 };

static const struct option convert_options[] = {
	{"input", required_argument, NULL, 'i'},
	{"to", required_argument, NULL, 't'},
	{"output", required_argument, NULL, 'o'},
	{"event", required_argument, NULL, 'e'},
	{"no-symbols", no_argument, NULL, OPT_NO_SYMBOLS},
	{"force", no_argument, NULL, 'f'},
	{"verbose", no_argument, NULL, 'v'},
	{"quiet", no_argument, NULL, 'q'},
	{"help", no_argument, NULL, 'h'},
	CLI_SYMBOL_LONG_OPTIONS,
	CLI_IGNORE_VMLINUX_OPTION,
	{NULL, 0, NULL, 0},
};

static int parse_convert_args(int argc, char **argv, struct convert_args *a)
{
	int c, status;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:t:o:e:fvqhk:", convert_options, NULL)) != -1) {
		if (cli_symbol_option(c, optarg, &a->symsrc, &status)) {
			if (status)
				return -EINVAL;
			continue;
		}
		switch (c) {
		case 'i':
			a->input = optarg;
			break;
		case 't':
			if (pk_export_format_parse(optarg, &a->format)) {
				cli_error("convert: unknown format '%s' (see --help)", optarg);
				return -EINVAL;
			}
			a->have_format = true;
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'e':
			a->event = optarg;
			break;
		case OPT_NO_SYMBOLS:
			a->no_symbols = true;
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
			fputs(convert_usage, stdout);
			exit(0);
		default:
			fputs(convert_usage, stderr);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		cli_error("convert: unexpected argument '%s'", argv[optind]);
		return -EINVAL;
	}
	if (!a->have_format) {
		cli_error("convert: --to FORMAT is required (see --help)");
		return -EINVAL;
	}
	return 0;
}

int cmd_convert(int argc, char **argv)
{
	struct convert_args a = {0};

	if (parse_convert_args(argc, argv, &a))
		return 1;
	cli_setup_library_output(a.quiet ? -1 : a.verbose);
	return convert_run(&a) ? 1 : 0;
}
