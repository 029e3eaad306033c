// SPDX-License-Identifier: MIT
/*
 * A hand-built profile, written in any export format: the input of the
 * tests that need no perf, and of the browser tests for hostile names.
 * usage: export-fixture FORMAT > out
 *
 * Stacks (root first), all on event "cpu-clock" unless noted:
 *   hostile comm:  main;hot            x 6
 *                  main;cold          x 2
 *                  main;hot;<img src=x onerror=window.__pwned=true>  x 1
 *   "worker" tid 8: main;hot           x 3
 *   "worker":      main;hot            x 1 of event "page-faults"
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <perfkit/export.h>

const char *const fixture_hostile = "<script>alert(1)</script>\"'&";

static int add(struct pk_profile *p, const char *comm, int tid, uint32_t ev, const char **names,
	       int n, int times, uint64_t t0)
{
	struct pk_profile_frame f[8];
	struct pk_build_id bid = {.size = 4, .data = {0xde, 0xad, 0xbe, 0xef}};

	memset(f, 0, sizeof(f));
	for (int i = 0; i < n; i++) { /* names are root first, frames leaf first */
		f[n - 1 - i].function = names[i];
		f[n - 1 - i].dso = "/usr/bin/fixture";
		f[n - 1 - i].addr = 0x1000 + 0x10 * (uint64_t)i;
		f[n - 1 - i].ip = 0x401000 + 0x10 * (uint64_t)i;
		f[n - 1 - i].build_id = &bid;
		f[n - 1 - i].map_start = 0x400000;
		f[n - 1 - i].map_end = 0x500000;
	}
	for (int i = 0; i < times; i++) {
		struct pk_profile_sample s = {.frames = f,
					      .nr_frames = (size_t)n,
					      .pid = 7,
					      .tid = tid,
					      .comm = comm,
					      .cpu = (uint32_t)(i % 2),
					      .time = t0 + 1000000ULL * (uint64_t)i,
					      .event = ev,
					      .period = 1000};

		if (pk_profile_add_sample(p, &s))
			return -1;
	}
	return 0;
}

int fixture_build(struct pk_profile **out)
{
	static const char *hot[] = {"main", "hot"}, *cold[] = {"main", "cold"},
			  *evil[] = {"main", "hot", "<img src=x onerror=window.__pwned=true>"};
	struct pk_profile_meta m = {.sz = sizeof(m),
				    .cmdline = "fixture --flag \"</script>\"",
				    .hostname = "host<b>",
				    .title = "fixture.data"};
	struct pk_profile *p;
	uint32_t clk, pf;

	if (pk_profile_new(&p, NULL) || pk_profile_add_event(p, "cpu-clock", &clk) ||
	    pk_profile_add_event(p, "page-faults", &pf) || pk_profile_set_meta(p, &m) ||
	    add(p, fixture_hostile, 7, clk, hot, 2, 6, 1000000000ULL) ||
	    add(p, fixture_hostile, 7, clk, cold, 2, 2, 1010000000ULL) ||
	    add(p, fixture_hostile, 7, clk, evil, 3, 1, 1020000000ULL) ||
	    add(p, "worker", 8, clk, hot, 2, 3, 1005000000ULL) ||
	    add(p, "worker", 8, pf, hot, 2, 1, 1030000000ULL)) {
		pk_profile_free(p);
		return -1;
	}
	pk_profile_add_lost(p, 2);
	*out = p;
	return 0;
}

#ifndef FIXTURE_NO_MAIN
int main(int argc, char **argv)
{
	enum pk_export_format f;
	struct pk_profile *p;
	int err;

	if (argc != 2 || pk_export_format_parse(argv[1], &f)) {
		fprintf(stderr, "usage: export-fixture FORMAT\n");
		return 2;
	}
	if (f == PK_EXPORT_HTML && !pk_export_html_available()) {
		fprintf(stderr, "export-fixture: no web bundle in this build\n");
		return 77;
	}
	if (fixture_build(&p))
		return 1;
	err = pk_export(p, f, stdout);
	if (err)
		fprintf(stderr, "export-fixture: %s\n", pk_profile_error(p));
	pk_profile_free(p);
	return err ? 1 : 0;
}
#endif
