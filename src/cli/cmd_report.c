// SPDX-License-Identifier: MIT
/* perfkit report: option parsing and dispatch to the report modes. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

enum report_mode {
	MODE_DEFAULT,
	MODE_STATS,
	MODE_DUMP,
	MODE_HEADER_ONLY,
};

struct report_args {
	const char *input;
	enum report_mode mode;
	bool show_info;
	bool force;
	int verbose;
};

static const char report_usage[] =
	"usage: perfkit report [<options>]\n"
	"\n"
	"    -i, --input <file>    input file name (default: perf.data, '-' for stdin)\n"
	"        --stats           display event stats (record counts by type)\n"
	"    -D, --dump-raw-trace  dump raw trace in ASCII\n"
	"        --header-only     show only data header\n"
	"    -I, --show-info       display extended information (full topology etc.)\n"
	"    -f, --force           don't complain, do it\n"
	"    -v, --verbose         be more verbose\n"
	"    -h, --help            show this help\n";

enum { OPT_STATS = 256, OPT_HEADER_ONLY };

static const struct option report_options[] = {
	{"input", required_argument, NULL, 'i'},
	{"stats", no_argument, NULL, OPT_STATS},
	{"dump-raw-trace", no_argument, NULL, 'D'},
	{"header-only", no_argument, NULL, OPT_HEADER_ONLY},
	{"show-info", no_argument, NULL, 'I'},
	{"force", no_argument, NULL, 'f'},
	{"verbose", no_argument, NULL, 'v'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static int parse_report_args(int argc, char **argv, struct report_args *a)
{
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:DIfvh", report_options, NULL)) != -1) {
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
	struct report_args a = {.mode = MODE_DEFAULT};
	struct pk_reader_opts opts = {.sz = sizeof(opts)};
	struct pk_reader *r = NULL;
	int err;

	if (parse_report_args(argc, argv, &a))
		return 1;
	cli_setup_library_output(a.verbose);
	if (!a.input)
		a.input = default_input();
	opts.force = a.force;
	if (cli_open_reader(&r, a.input, &opts))
		return 1;

	switch (a.mode) {
	case MODE_DUMP:
		err = report_dump(r, stdout);
		break;
	case MODE_HEADER_ONLY:
		err = report_header_only(r, stdout, a.show_info);
		break;
	case MODE_STATS:
	default:
		err = report_stats(r, stdout);
		break;
	}
	pk_reader_close(r);
	return err ? 1 : 0;
}
