// SPDX-License-Identifier: MIT
/* perfkit: dispatch to subcommands, git-style, through one table. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static const struct cli_command commands[] = {
	{"report", cmd_report, "Read perf.data and display the profile"},
	{"stat", cmd_stat, "Run a command and gather performance counter statistics"},
	{"list", cmd_list, "List all symbolic event types"},
	{"script", cmd_script, "Read perf.data and display trace output"},
	{"record", cmd_record, "Run a command and record its profile into perf.data"},
	{"convert", cmd_convert, "Write perf.data as flame graph, HTML, pprof, speedscope, ..."},
	{"check", cmd_check, "Show what this machine supports (permissions, PMUs, limits)"},
	{"buildid-list", cmd_buildid_list, "List the buildids in a perf.data file"},
	{"buildid-cache", cmd_buildid_cache, "Manage the build-id cache (~/.debug)"},
	{"archive", cmd_archive, "Pack the cached binaries a perf.data needs into a tar.bz2"},
};

static void usage(FILE *out)
{
	fprintf(out, "usage: perfkit [--version] [--help] [--buildid-dir DIR] COMMAND [ARGS]\n\n"
		     "The most commonly used perfkit commands are:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "   %-14s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nSee 'perfkit COMMAND --help' for more information on a command.\n");
}

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("perfkit: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int verbosity;

static void print_to_stderr(enum pk_print_level level, const char *fmt, va_list ap)
{
	if (level == PK_PRINT_DEBUG && verbosity < 1)
		return;
	if (level == PK_PRINT_INFO && verbosity < 0)
		return;
	fputs(level == PK_PRINT_WARN ? "Warning: " : "", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_setup_library_output(int verbose)
{
	verbosity = verbose;
	pk_set_print_fn(print_to_stderr);
}

int main(int argc, char **argv)
{
	/* perf's top-level --buildid-dir: every command's build-id cache */
	while (argc > 2 && !strcmp(argv[1], "--buildid-dir")) {
		setenv("PERF_BUILDID_DIR", argv[2], 1);
		argc -= 2;
		argv += 2;
	}
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 1 : 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("perfkit version %s\n", pk_version());
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	}
	cli_error("'%s' is not a perfkit command. See 'perfkit --help'.", argv[1]);
	return 1;
}
