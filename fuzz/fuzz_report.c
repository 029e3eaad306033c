// SPDX-License-Identifier: MIT
/*
 * Fuzz the report pipeline: any bytes as a perf.data file, through the
 * session (threads, maps, symbols) into the histogram, in the views whose
 * code differs: children with call trees (perf's lookups replayed, entries
 * built by two threads), --sort sym alone (every lookup replayed), -g none,
 * --no-children, and one thread.  Kernel symbols and debug directories
 * point nowhere, so only the input decides what is read.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <perfkit/perfkit.h>

static void report(const char *path, const struct pk_hist_opts *ho)
{
	struct pk_session_opts so = {.sz = sizeof(so), .force = true,
				     .kallsyms = "/nonexistent/kallsyms",
				     .buildid_dir = "/nonexistent", .debug_dir = "/nonexistent"};
	struct pk_session *s = NULL;
	struct pk_hist *h = NULL;

	/* a failed open still gives the session, for its error message */
	if (!pk_session_open(&s, path, &so) && !pk_hist_build(&h, s, ho)) {
		for (uint32_t i = 0; i < pk_hist_nr_events(h); i++) {
			const struct pk_hist_event *e = pk_hist_event(h, i);

			for (uint64_t j = 0; j < e->nr_entries && j < 64; j++)
				(void)e->entries[j].callchain;
		}
	}
	pk_hist_free(h);
	pk_session_close(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum pk_hist_key sym[] = {PK_HIST_KEY_SYM};
	const struct pk_hist_opts views[] = {
		{.sz = sizeof(views[0]), .children = true, .callchain = PK_CALLCHAIN_CALLER},
		{.sz = sizeof(views[0]), .children = true, .callchain = PK_CALLCHAIN_CALLER,
		 .keys = sym, .nr_keys = 1},
		{.sz = sizeof(views[0]), .children = true, .callchain = PK_CALLCHAIN_NONE},
		{.sz = sizeof(views[0]), .callchain = PK_CALLCHAIN_CALLEE, .nr_threads = 1},
	};
	char path[64];
	int fd = memfd_create("fuzz", 0);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		for (size_t v = 0; v < sizeof(views) / sizeof(views[0]); v++)
			report(path, &views[v]);
	}
	close(fd);
	return 0;
}
