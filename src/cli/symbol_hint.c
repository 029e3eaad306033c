// SPDX-License-Identifier: MIT
/*
 * The one-time hint of report, script and convert about samples without
 * symbols: a profile that is a third [unknown] is easy to misread, and
 * the fix (a debug package, DEBUGINFOD_URLS, readable kallsyms) is not
 * obvious to a new user.  perf says nothing; this says it once, on
 * stderr, and only for files that matter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* a file is named when at least this share of all samples (percent) lies
 * in it unresolved: below, [unknown] entries do not change the picture */
#define HINT_MIN_PERCENT 5
#define HINT_MAX_FILES	 3

/* -k's image: when the kernel has no symbols it is the one to blame */
static const char *hint_vmlinux;

void cli_symbol_hint_vmlinux(const char *path)
{
	hint_vmlinux = path;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return path[0] != '[' && slash ? slash + 1 : path;
}

static void print_build_id(const struct pk_build_id *bid)
{
	if (!bid->size)
		return;
	fputs(" (build id ", stderr);
	for (int i = 0; i < bid->size; i++)
		fprintf(stderr, "%02x", bid->data[i]);
	fputc(')', stderr);
}

static const char *file_remedy(const struct pk_unresolved_dso *d)
{
	bool urls = getenv("DEBUGINFOD_URLS") && *getenv("DEBUGINFOD_URLS");
	bool fetch = d->bid.size && pk_debuginfod_built();

	if (!d->found) {
		if (!d->bid.size)
			return "it is not on this machine, and no build id was recorded to find "
			       "it by";
		if (fetch && urls)
			return "it is not on this machine, nor on the DEBUGINFOD_URLS servers";
		return fetch ? "it is not on this machine: set DEBUGINFOD_URLS, or bring the "
			       "recording's build-id cache (perf archive) to ~/.debug"
			     : "it is not on this machine: bring the recording's build-id cache "
			       "(perf archive) to ~/.debug";
	}
	if (!d->bid.size)
		return "install its debug package";
	if (!pk_debuginfod_built())
		return "install its debug package (this perfkit is built without debuginfod)";
	if (urls)
		return "install its debug package (none came from the DEBUGINFOD_URLS servers)";
	return "install its debug package or set DEBUGINFOD_URLS";
}

static const char *remedy(const struct pk_unresolved_dso *d)
{
	if (d->kernel && hint_vmlinux)
		return "the vmlinux given with -k is not used: not an ELF image with a "
		       ".symtab, or not the recorded kernel's build id";
	if (d->kernel)
		return "kernel addresses are hidden (kernel.kptr_restrict, or not root) or "
		       "the recording is from another kernel";
	if (d->file)
		return file_remedy(d);
	if (!strcmp(d->name, "[vdso]"))
		return "the vdso is read from the running kernel, and the recording is from "
		       "another one";
	return "JIT or anonymous code is named by a /tmp/perf-PID.map that its runtime writes";
}

void cli_symbol_hint(const struct pk_unresolved *u)
{
	size_t shown = 0, more = 0;

	if (!u || !u->nr_samples)
		return;
	for (size_t i = 0; i < u->nr; i++) {
		const struct pk_unresolved_dso *d = &u->dso[i];
		double pct = 100.0 * (double)d->unresolved / (double)u->nr_samples;

		if (pct < HINT_MIN_PERCENT)
			break; /* most unresolved first */
		if (shown == HINT_MAX_FILES) {
			more++;
			continue;
		}
		if (!shown)
			fflush(stdout);
		fprintf(stderr, "perfkit: %.0f%% of samples, in %s", pct,
			d->kernel ? "the kernel" : base_name(d->name));
		print_build_id(&d->bid);
		fprintf(stderr, ", have no symbols: %s\n", remedy(d));
		shown++;
	}
	if (more)
		fprintf(stderr, "perfkit: and %zu more files with samples without symbols\n", more);
}

void cli_session_symbol_hint(struct pk_session *s)
{
	struct pk_unresolved *u;

	if (s && !pk_session_unresolved(s, &u)) {
		cli_symbol_hint(u);
		pk_unresolved_free(u);
	}
}
