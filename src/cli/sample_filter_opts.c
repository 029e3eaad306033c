// SPDX-License-Identifier: MIT
/*
 * The --cpu and --time options script and report share: the library's
 * sample filter set from them, with perf's words when it rejects one.
 */
#include <errno.h>
#include <stdio.h>
#include "cli.h"

int cli_filter_cpus(struct pk_sample_filter *f, const char *list, struct pk_reader *r, bool quiet)
{
	int32_t bad = 0;
	int err = pk_sample_filter_cpus(f, list, r, &bad);

	if (quiet)
		return err;
	if (err == -ENOTSUP)
		fputs("File does not contain CPU events. Remove -C option to proceed.\n", stderr);
	else if (err == -ERANGE)
		fprintf(stderr, "Requested CPU %d too large. Consider raising MAX_NR_CPUS\n", bad);
	else if (err)
		fputs("Invalid cpu_list\n", stderr);
	return err;
}

int cli_filter_time(struct pk_sample_filter *f, const char *str, struct pk_reader *r, bool reltime,
		    bool quiet)
{
	int err = pk_sample_filter_time(f, str, r, reltime);

	if (quiet)
		return err;
	if (err == -ENODATA)
		fputs("HINT: no first/last sample time found in perf data.\n"
		      "Please use latest perf binary to execute 'perf record'\n"
		      "(if '--buildid-all' is enabled, please set '--timestamp-boundary').\n",
		      stderr);
	else if (err)
		fputs("Invalid time string\n", stderr);
	return err;
}
