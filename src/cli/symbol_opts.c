// SPDX-License-Identifier: MIT
/*
 * The options that say where symbols come from, spelled as perf's and
 * shared by report, script and convert: --symfs, -k/--vmlinux,
 * --kallsyms and --buildid-dir.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "symbol_opts.h"

/* perf refuses a file option naming nothing, in these words and status. */
static int need_file(const char *path)
{
	if (!access(path, F_OK))
		return 0;
	fprintf(stderr, "Invalid file: %s\n", path);
	return CLI_EXIT_BAD_FILE;
}

static int need_dir(const char *opt, const char *path)
{
	struct stat st;

	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return 0;
	cli_error("%s: not a directory: %s", opt, path);
	return CLI_EXIT_BAD_FILE;
}

bool cli_symbol_option(int c, const char *arg, struct cli_symbol_opts *o, int *status)
{
	switch (c) {
	case CLI_OPT_SYMFS:
		o->symfs = arg;
		*status = need_dir("--symfs", arg);
		/* as perf: the build-id cache of a symfs root is its own .debug */
		snprintf(o->symfs_cache, sizeof(o->symfs_cache), "%s/.debug", arg);
		return true;
	case CLI_OPT_BUILDID_DIR:
		o->buildid_dir = arg;
		*status = 0;
		return true;
	case CLI_OPT_KALLSYMS:
		o->kallsyms = arg;
		*status = need_file(arg);
		return true;
	case 'k':
		o->vmlinux = arg;
		*status = need_file(arg);
		return true;
	case CLI_OPT_IGNORE_VMLINUX:
		/* it also sets -k aside, as in perf; perfkit never looks for a
		 * vmlinux of its own accord */
		o->ignore_vmlinux = true;
		*status = 0;
		return true;
	default:
		return false;
	}
}

void cli_symbol_session_opts(const struct cli_symbol_opts *o, struct pk_session_opts *so)
{
	const char *symfs = o->symfs;

	/* perf's --symfs / is the plain file system */
	if (symfs && (!*symfs || !strcmp(symfs, "/")))
		symfs = NULL;
	so->symfs = symfs;
	if (symfs)
		so->buildid_dir = o->symfs_cache;
	if (o->buildid_dir)
		so->buildid_dir = o->buildid_dir;
	if (o->kallsyms)
		so->kallsyms = o->kallsyms;
	if (o->vmlinux && !o->ignore_vmlinux && !o->kallsyms) {
		so->vmlinux = o->vmlinux;
		cli_symbol_hint_vmlinux(o->vmlinux);
	}
}
