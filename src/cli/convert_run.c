// SPDX-License-Identifier: MIT
/* Read a perf.data into a profile and write it out: convert's main path. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cli.h"
#include "convert.h"

/* *created: a new regular file, which a failed export may remove. */
static FILE *open_output(const char *path, bool *is_stdout, bool *created)
{
	struct stat st;
	FILE *f;

	*is_stdout = !path || !strcmp(path, "-");
	*created = false;
	if (*is_stdout)
		return stdout;
	*created = stat(path, &st) != 0 && errno == ENOENT;
	f = fopen(path, "w");
	if (!f)
		cli_error("%s: cannot create: %s", path, strerror(errno));
	return f;
}

int convert_run(const struct convert_args *a)
{
	struct pk_profile_read_opts ro = {.sz = sizeof(ro)};
	struct pk_session_opts so = {.sz = sizeof(so)};
	struct pk_profile *p = NULL;
	const char *input = a->input ? a->input : "perf.data";
	bool is_stdout, created;
	FILE *out;
	int err;

	if (a->format == PK_EXPORT_HTML && !pk_export_html_available()) {
		cli_error("html: this perfkit was built without the web bundle; run "
			  "scripts/build-web.sh and rebuild");
		return -ENOENT;
	}
	ro.force = a->force;
	ro.event = a->event;
	ro.no_symbols = a->no_symbols;
	cli_symbol_session_opts(&a->symsrc, &so);
	ro.session = &so;
	err = pk_profile_from_file(&p, input, &ro);
	if (err) {
		fprintf(stderr, "perfkit: %s\n", pk_profile_error(p));
		pk_profile_free(p);
		return err;
	}
	out = open_output(a->output, &is_stdout, &created);
	if (!out) {
		pk_profile_free(p);
		return -EIO;
	}
	err = pk_export(p, a->format, out);
	if (err)
		fprintf(stderr, "perfkit: %s: %s\n", pk_export_format_name(a->format),
			pk_profile_error(p));
	if (!is_stdout && fclose(out) && !err) {
		cli_error("%s: write failed: %s", a->output, strerror(errno));
		err = -EIO;
	}
	if (err && created)
		unlink(a->output); /* no half-written file that looks complete */
	if (!err && !a->quiet && !a->no_symbols)
		cli_symbol_hint(pk_profile_unresolved(p));
	pk_profile_free(p);
	return err;
}
