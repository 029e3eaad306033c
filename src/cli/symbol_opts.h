/* SPDX-License-Identifier: MIT */
/* Where symbols come from: the options report, script and convert share. */
#ifndef PK_CLI_SYMBOL_OPTS_H
#define PK_CLI_SYMBOL_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <string.h>
#include <perfkit/session.h>

/* getopt codes, above every command's own */
enum {
	CLI_OPT_SYMFS = 0x2000,
	CLI_OPT_BUILDID_DIR,
	CLI_OPT_KALLSYMS,
	CLI_OPT_IGNORE_VMLINUX,
};

/* The status for a file option naming no file (perf script's) */
#define CLI_EXIT_BAD_FILE 255

/* Entries for a command's struct option table. */
#define CLI_SYMBOL_LONG_OPTIONS                                                  \
	{"symfs", required_argument, NULL, CLI_OPT_SYMFS},                      \
	{"buildid-dir", required_argument, NULL, CLI_OPT_BUILDID_DIR},          \
	{"kallsyms", required_argument, NULL, CLI_OPT_KALLSYMS},                \
	{"vmlinux", required_argument, NULL, 'k'}

/* perf report has it, perf script does not. */
#define CLI_IGNORE_VMLINUX_OPTION {"ignore-vmlinux", no_argument, NULL, CLI_OPT_IGNORE_VMLINUX}

/* Their --help lines. */
#define CLI_SYMBOL_USAGE                                                              \
	"        --symfs <dir>     look for the recorded files under this root\n"        \
	"        --buildid-dir <dir>  perf's build-id cache (default ~/.debug)\n"        \
	"        --kallsyms <file> kernel symbols from this file\n"                      \
	"    -k, --vmlinux <file>  kernel symbols from this vmlinux image\n"
#define CLI_IGNORE_VMLINUX_USAGE                                                      \
	"        --ignore-vmlinux  set -k aside (perfkit never looks for a vmlinux)\n"

struct cli_symbol_opts {
	const char *symfs;
	const char *buildid_dir;
	const char *kallsyms;
	const char *vmlinux;
	bool ignore_vmlinux;
	char symfs_cache[4096];	/* perf's build-id cache under --symfs */
};

/*
 * When c (from getopt_long, with its argument arg) is one of these options,
 * record it in o, set *status (0, or the exit status after an error line
 * on stderr) and return true; otherwise return false.
 */
bool cli_symbol_option(int c, const char *arg, struct cli_symbol_opts *o, int *status);

/* Copy what was given into a session's options. */
void cli_symbol_session_opts(const struct cli_symbol_opts *o, struct pk_session_opts *so);

#endif
