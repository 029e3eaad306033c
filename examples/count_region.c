// SPDX-License-Identifier: MIT
/*
 * count_region: measure a region of this program's own code with libperfkit.
 *
 * Counts page faults and task-clock around a loop that touches N fresh
 * pages, once with plain reads, once with the group read (one read() for
 * the whole group) and once through the self-monitoring mmap page.  Hardware
 * events are tried too and reported as not supported where there is no PMU.
 *
 *	count_region [pages]
 *
 * Exits 0 when every count is plausible (at least one fault per page).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <perfkit/perfkit.h>

static void touch_pages(long n)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)(n * pg), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	madvise(p, (size_t)(n * pg), MADV_NOHUGEPAGE); /* one fault per page */
	for (long i = 0; i < n; i++)
		((volatile char *)p)[i * pg] = 1;
	munmap(p, (size_t)(n * pg));
}

static int open_set(struct pk_counter_set **set, struct pk_event_list *events, const char *str,
		    const struct pk_counter_opts *opts)
{
	struct pk_parse_error err;
	int ret = pk_event_list_parse(events, str, NULL, &err);

	if (ret) {
		fprintf(stderr, "%s\n%*s^ %s\n", str, err.pos, "", err.msg);
		return ret;
	}
	ret = pk_counter_set_open(set, events, opts);
	if (ret)
		fprintf(stderr, "count_region: %s\n", pk_counter_open_errmsg());
	return ret;
}

/* Plain counting: enable, run the region, disable, read each event. */
static int count_plain(long pages)
{
	struct pk_event_list ev = {0};
	struct pk_counter_set *set;
	struct pk_count c;
	int ok = 1;

	if (open_set(&set, &ev, "page-faults,task-clock,cycles,instructions", NULL))
		return 0;
	pk_counter_set_enable(set);
	touch_pages(pages);
	pk_counter_set_disable(set);
	for (size_t i = 0; i < ev.nr; i++) {
		if (pk_counter_state(set, (int)i) == PK_COUNT_NOT_SUPPORTED) {
			printf("%-14s <not supported>\n", ev.ev[i].name);
			continue;
		}
		pk_counter_read(set, (int)i, &c);
		printf("%-14s %12.0f\n", ev.ev[i].name, pk_count_scaled(&c));
		if (i == 0)
			ok = c.val >= (uint64_t)pages;
	}
	pk_counter_set_close(set);
	pk_event_list_free(&ev);
	return ok;
}

/* A group read: all members in one read(), same time base. */
static int count_group(long pages)
{
	struct pk_counter_opts o = {.sz = sizeof(o), .group_read = true};
	struct pk_event_list ev = {0};
	struct pk_counter_set *set;
	struct pk_count g[2];
	int n;

	if (open_set(&set, &ev, "{page-faults,task-clock}", &o))
		return 0;
	pk_counter_set_enable(set);
	touch_pages(pages);
	pk_counter_set_disable(set);
	n = pk_counter_read_group(set, 0, 0, 0, g, 2);
	printf("group read: %d events, page-faults %llu, task-clock %.3f ms\n", n,
	       (unsigned long long)g[0].val, (double)g[1].val / 1e6);
	pk_counter_set_close(set);
	pk_event_list_free(&ev);
	return n == 2 && g[0].val >= (uint64_t)pages;
}

/* Self-monitoring: read through the mmap page (rdpmc when the PMU allows). */
static int count_self(long pages)
{
	struct pk_counter_opts o = {.sz = sizeof(o), .mmap_self = true, .start_enabled = true};
	struct pk_event_list ev = {0};
	struct pk_counter_set *set;
	struct pk_count before, after;
	bool rdpmc;

	if (open_set(&set, &ev, "page-faults", &o))
		return 0;
	pk_counter_read_self(set, 0, &before, &rdpmc);
	touch_pages(pages);
	pk_counter_read_self(set, 0, &after, &rdpmc);
	printf("self read (%s): page-faults %llu\n", rdpmc ? "rdpmc" : "read()",
	       (unsigned long long)(after.val - before.val));
	pk_counter_set_close(set);
	pk_event_list_free(&ev);
	return after.val - before.val >= (uint64_t)pages;
}

int main(int argc, char **argv)
{
	long pages = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	int ok;

	if (pages <= 0 || pages > 1000000) {
		fprintf(stderr, "usage: count_region [pages]\n");
		return 2;
	}
	printf("touching %ld pages\n", pages);
	ok = count_plain(pages);
	ok &= count_group(pages);
	ok &= count_self(pages);
	printf("%s\n", ok ? "ok" : "implausible counts");
	return ok ? 0 : 1;
}
