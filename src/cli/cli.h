/* SPDX-License-Identifier: MIT */
/* The perfkit command line: one file per subcommand, all logic in libperfkit. */
#ifndef PK_CLI_H
#define PK_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include <perfkit/perfkit.h>

struct cli_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

int cmd_report(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_buildid_list(int argc, char **argv);
int cmd_buildid_cache(int argc, char **argv);
int cmd_archive(int argc, char **argv);
/* report --html (convert_report.c) */
bool report_wants_html(int argc, char **argv);
int report_html(int argc, char **argv);

/* report's modes, each in its own file */
int report_stats(struct pk_reader *r, FILE *out);
/* perf report --tasks, and --mmaps with mmaps (report_tasks.c) */
int report_tasks(struct pk_reader *r, FILE *out, bool mmaps);
int report_dump(struct pk_reader *r, FILE *out);
int report_header_only(struct pk_reader *r, FILE *out, bool full);

/* Print "perfkit: " + message to stderr. */
__attribute__((format(printf, 1, 2))) void cli_error(const char *fmt, ...);

/* Open a perf.data for reading with the usual options; prints the error. */
int cli_open_reader(struct pk_reader **out, const char *path, const struct pk_reader_opts *opts);

/* Route library diagnostics to stderr (warnings; debug with -v). */
void cli_setup_library_output(int verbose);

/* --cpu and --time into f (sample_filter_opts.c): 0, or the library's
 * error after perf's words for it on stderr (none when quiet, as perf's
 * -q silences them). */
int cli_filter_cpus(struct pk_sample_filter *f, const char *list, struct pk_reader *r, bool quiet);
int cli_filter_time(struct pk_sample_filter *f, const char *str, struct pk_reader *r, bool reltime,
		    bool quiet);

/*
 * Say once on stderr which files hold a good part of the samples without
 * symbols, and what would name them (symbol_hint.c).  Nothing when every
 * such file is under the threshold, or u is NULL.
 */
void cli_symbol_hint(const struct pk_unresolved *u);
/* The same for the samples s delivered so far. */
void cli_session_symbol_hint(struct pk_session *s);
/* The vmlinux image -k named (NULL: none), for the kernel's remedy. */
void cli_symbol_hint_vmlinux(const char *path);

#endif
