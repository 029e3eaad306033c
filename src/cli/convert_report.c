// SPDX-License-Identifier: MIT
/* perfkit report --html [-o FILE]: the HTML report, a shortcut for
 * "perfkit convert --to html". */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "convert.h"

bool report_wants_html(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--html"))
			return true;
	return false;
}

static const char html_usage[] =
	"usage: perfkit report --html [-i perf.data] [-o report.html]\n"
	"\n"
	"    -i, --input <file>    input file name (default: perf.data)\n"
	"    -o, --output <file>   output file (default: standard output)\n"
	"    -f, --force           don't complain, do it\n"
	"    -v, --verbose         be more verbose\n"
	"    -q, --quiet           no warnings or messages\n"
	CLI_SYMBOL_USAGE
	CLI_IGNORE_VMLINUX_USAGE;

static const struct option html_options[] = {
	{"html", no_argument, NULL, 'H'},
	{"input", required_argument, NULL, 'i'},
	{"output", required_argument, NULL, 'o'},
	{"force", no_argument, NULL, 'f'},
	{"verbose", no_argument, NULL, 'v'},
	{"quiet", no_argument, NULL, 'q'},
	{"help", no_argument, NULL, 'h'},
	CLI_SYMBOL_LONG_OPTIONS,
	CLI_IGNORE_VMLINUX_OPTION,
	{NULL, 0, NULL, 0},
};

int report_html(int argc, char **argv)
{
	struct convert_args a = {.format = PK_EXPORT_HTML, .have_format = true};
	int c, status;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:o:fvqhk:", html_options, NULL)) != -1) {
		if (cli_symbol_option(c, optarg, &a.symsrc, &status)) {
			if (status)
				return 1;
			continue;
		}
		switch (c) {
		case 'H':
			break;
		case 'i':
			a.input = optarg;
			break;
		case 'o':
			a.output = optarg;
			break;
		case 'f':
			a.force = true;
			break;
		case 'v':
			a.verbose++;
			break;
		case 'q':
			a.quiet = true;
			break;
		case 'h':
			fputs(html_usage, stdout);
			return 0;
		default:
			fputs(html_usage, stderr);
			return 1;
		}
	}
	if (optind < argc) {
		cli_error("report --html: unexpected argument '%s'", argv[optind]);
		return 1;
	}
	cli_setup_library_output(a.quiet ? -1 : a.verbose);
	return convert_run(&a) ? 1 : 0;
}
