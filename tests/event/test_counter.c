// SPDX-License-Identifier: MIT
/*
 * The counting API live, on software events (this VM has no PMU): a region
 * that touches N fresh pages has at least N page faults; groups read in one
 * call agree with single reads; enable/disable/reset; the mmap-page read.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include <perfkit/perfkit.h>

#define PAGES 256

static void touch_pages(int n)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)(n * pg), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(p != MAP_FAILED);
	/* One fault per page: no huge or large folios for this region. */
	madvise(p, (size_t)(n * pg), MADV_NOHUGEPAGE);
	for (int i = 0; i < n; i++)
		((volatile char *)p)[(long)i * pg] = 1;
	munmap(p, (size_t)(n * pg));
}

static int open_or_skip(struct pk_counter_set **set, struct pk_event_list *l,
			const struct pk_counter_opts *o)
{
	int ret = pk_counter_set_open(set, l, o);

	if (ret == -EACCES || ret == -EPERM || ret == -ENOSYS) {
		pk_event_list_free(l);
		skip();
	}
	if (ret)
		fail_msg("open: %d %s", ret, pk_counter_open_errmsg());
	return ret;
}

static void test_page_faults(void **state)
{
	struct pk_event_list l = {0};
	struct pk_counter_set *set;
	struct pk_count c;

	(void)state;
	assert_int_equal(pk_event_list_parse(&l, "page-faults,task-clock", NULL, NULL), 0);
	open_or_skip(&set, &l, NULL);
	assert_int_equal(pk_counter_state(set, 0), PK_COUNT_OK);
	/* Disabled at open: nothing counts. */
	touch_pages(16);
	assert_int_equal(pk_counter_read(set, 0, &c), 0);
	assert_int_equal(c.val, 0);
	assert_int_equal(pk_counter_set_enable(set), 0);
	touch_pages(PAGES);
	assert_int_equal(pk_counter_set_disable(set), 0);
	assert_int_equal(pk_counter_read(set, 0, &c), 0);
	assert_true(c.val >= PAGES);
	assert_true(c.val < PAGES * 4);
	assert_true(c.ena > 0 && c.run == c.ena);
	assert_int_equal(pk_counter_read(set, 1, &c), 0);
	assert_true(c.val > 0);	/* task-clock ns */
	/* Disabled again: no more counts; reset clears. */
	touch_pages(16);
	struct pk_count c2;
	assert_int_equal(pk_counter_read(set, 0, &c2), 0);
	assert_true(c2.val >= PAGES && c2.val < PAGES * 4);
	assert_int_equal(pk_counter_set_reset(set), 0);
	assert_int_equal(pk_counter_read(set, 0, &c2), 0);
	assert_int_equal(c2.val, 0);
	pk_counter_set_close(set);
	pk_event_list_free(&l);
}

static void test_group_read(void **state)
{
	struct pk_event_list l = {0};
	struct pk_counter_set *set;
	struct pk_counter_opts o = {.sz = sizeof(o), .group_read = true, .start_enabled = true};
	struct pk_count g[3], one;

	(void)state;
	assert_int_equal(pk_event_list_parse(&l, "{page-faults,minor-faults,task-clock}", NULL,
					     NULL), 0);
	open_or_skip(&set, &l, &o);
	touch_pages(PAGES);
	assert_int_equal(pk_counter_set_disable(set), 0);
	assert_int_equal(pk_counter_read_group(set, 0, 0, 0, g, 3), 3);
	/* (Led by task-clock, 6.x kernels lose some of the members' faults.) */
	assert_true(g[0].val >= PAGES);
	assert_true(g[1].val >= PAGES);
	/* task-clock as a group member was seen reading 0 ns on a loaded
	 * 6.18 VM (2 of 5 full-suite runs): check it was enabled and read,
	 * not its value */
	assert_true(g[2].ena > 0);
	/* A member read goes through the same group read. */
	assert_int_equal(pk_counter_read(set, 1, &one), 0);
	assert_int_equal(one.val, g[1].val);
	/* Only leaders of a group can be group-read. */
	assert_true(pk_counter_read_group(set, 1, 0, 0, g, 3) < 0);
	pk_counter_set_close(set);
	pk_event_list_free(&l);
}

static void test_read_self(void **state)
{
	struct pk_event_list l = {0};
	struct pk_counter_set *set;
	struct pk_counter_opts o = {.sz = sizeof(o), .mmap_self = true, .start_enabled = true};
	struct pk_count a, b;
	bool rdpmc = true;

	(void)state;
	assert_int_equal(pk_event_list_parse(&l, "page-faults", NULL, NULL), 0);
	open_or_skip(&set, &l, &o);
	assert_int_equal(pk_counter_read_self(set, 0, &a, &rdpmc), 0);
	touch_pages(64);
	assert_int_equal(pk_counter_read_self(set, 0, &b, &rdpmc), 0);
	/* Software events have no PMU index: the read() fallback is used. */
	assert_false(rdpmc);
	assert_true(b.val - a.val >= 64);
	pk_counter_set_close(set);
	pk_event_list_free(&l);
}

/* Inherit and enable_on_exec on a forked command: its faults are counted. */
static void test_workload(void **state)
{
	char *argv[] = {"sh", "-c", "exit 7", NULL};
	char *bad[] = {"/nonexistent/command", NULL};
	struct pk_event_list l = {0};
	struct pk_counter_set *set;
	struct pk_workload *w;
	struct pk_counter_opts o = {.sz = sizeof(o), .inherit = true, .enable_on_exec = true};
	struct pk_count c;
	pid_t pid;
	int status;

	(void)state;
	assert_int_equal(pk_event_list_parse(&l, "page-faults,task-clock", NULL, NULL), 0);
	assert_int_equal(pk_workload_prepare(&w, argv), 0);
	pid = pk_workload_pid(w);
	o.tids = &pid;
	o.nr_tids = 1;
	open_or_skip(&set, &l, &o);
	assert_int_equal(pk_workload_start(w), 0);
	assert_int_equal(pk_workload_wait(w, &status, NULL), 0);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 7);
	assert_int_equal(pk_counter_read(set, 0, &c), 0);
	assert_true(c.val > 10);
	pk_counter_set_close(set);
	pk_workload_free(w);

	assert_int_equal(pk_workload_prepare(&w, bad), 0);
	assert_int_equal(pk_workload_start(w), -ENOENT);
	pk_workload_free(w);
	pk_event_list_free(&l);
}

static void test_not_supported(void **state)
{
	struct pk_event_list l = {0};
	struct pk_counter_set *set;
	struct pk_count c;

	(void)state;
	/* A PMU type no kernel has: kept as "not supported", the rest counts. */
	assert_int_equal(pk_event_list_parse(&l, "page-faults", NULL, NULL), 0);
	l.ev[0].attr.type = 0x7ffffff0;
	assert_int_equal(pk_event_list_parse(&l, "task-clock", NULL, NULL), 0);
	open_or_skip(&set, &l, NULL);
	assert_int_equal(pk_counter_state(set, 0), PK_COUNT_NOT_SUPPORTED);
	assert_int_equal(pk_counter_state(set, 1), PK_COUNT_OK);
	assert_int_equal(pk_counter_read(set, 0, &c), 0);
	assert_int_equal(c.val, 0);
	pk_counter_set_close(set);
	pk_event_list_free(&l);
}

static void test_targets(void **state)
{
	pid_t *tids;
	int nr, *cpus;

	(void)state;
	assert_int_equal(pk_thread_list_of_pid(getpid(), &tids, &nr), 0);
	assert_int_equal(nr, 1);
	assert_int_equal(tids[0], getpid());
	free(tids);
	assert_int_equal(pk_thread_list_of_pid(0x7ffffff0, &tids, &nr), -ESRCH);
	assert_int_equal(pk_cpu_list_parse("0-2,5,7-8", &cpus), 6);
	assert_int_equal(cpus[3], 5);
	assert_int_equal(cpus[5], 8);
	free(cpus);
	assert_true(pk_cpu_list_parse("3-1", &cpus) < 0);
	assert_true(pk_cpu_list_parse("x", &cpus) < 0);
	assert_true(pk_cpu_list_online(&cpus) >= 1);
	free(cpus);
}

/* Fake topology (data/sysfs): cpu0 and cpu3 share S0-D0-C0, cpu1 is
 * S0-D0-C1, cpu2 is S1-D0-C0; cpu2 on node 1, the others on node 0. */
static void expect_groups(enum pk_aggr_mode mode, int nr, const char *const *names,
			  const int *map)
{
	static const int cpus[] = {0, 1, 2, 3};
	char root[1024], name[64];
	const char *src = getenv("PERFKIT_SRC");
	struct pk_aggr_id *ids = NULL;
	int to[4] = {-1, -1, -1, -1};

	snprintf(root, sizeof(root), "%s/tests/event/data/sysfs", src ? src : ".");
	assert_int_equal(pk_cpu_aggr_map(cpus, 4, mode, root, &ids, to), nr);
	for (int i = 0; i < nr; i++) {
		pk_aggr_id_name(&ids[i], mode, name, sizeof(name));
		assert_string_equal(name, names[i]);
	}
	assert_memory_equal(to, map, sizeof(to));
	free(ids);
}

static void test_aggr_topology(void **state)
{
	static const char *const cores[] = {"S0-D0-C0", "S0-D0-C1", "S1-D0-C0"};
	static const char *const sockets[] = {"S0", "S1"};
	static const char *const dies[] = {"S0-D0", "S1-D0"};
	static const char *const nodes[] = {"N0", "N1"};

	(void)state;
	expect_groups(PK_AGGR_CORE, 3, cores, (const int[]){0, 1, 2, 0});
	expect_groups(PK_AGGR_SOCKET, 2, sockets, (const int[]){0, 0, 1, 0});
	expect_groups(PK_AGGR_DIE, 2, dies, (const int[]){0, 0, 1, 0});
	expect_groups(PK_AGGR_NODE, 2, nodes, (const int[]){0, 0, 1, 0});
}

/* Counts of one CPU's groups add up to the set's total. */
static void test_aggr_read(void **state)
{
	struct pk_event_list ev = {0};
	struct pk_counter_set *set;
	struct pk_counter_opts o = {.sz = sizeof(o), .start_enabled = true};
	struct pk_count total, part, th;
	int *cpus, n, *map;

	(void)state;
	n = pk_cpu_list_online(&cpus);
	assert_true(n >= 1);
	map = calloc((size_t)n, sizeof(int));
	for (int i = 0; i < n; i++)
		map[i] = i % 2;
	assert_int_equal(pk_event_list_parse(&ev, "page-faults", NULL, NULL), 0);
	o.cpus = cpus;
	o.nr_cpus = n;
	if (pk_counter_set_open(&set, &ev, &o)) {
		pk_event_list_free(&ev);
		free(map);
		free(cpus);
		skip();	/* system-wide counting not permitted here */
	}
	touch_pages(PAGES);
	pk_counter_set_disable(set);
	assert_int_equal(pk_counter_read(set, 0, &total), 0);
	assert_int_equal(pk_counter_read_aggr(set, 0, map, 0, &part), 0);
	assert_int_equal(pk_counter_read_aggr(set, 0, map, 1, &th), 0);
	assert_int_equal(part.val + th.val, total.val);
	assert_int_equal(pk_counter_read_thread(set, 0, 0, &th), 0);
	assert_int_equal(th.val, total.val);
	assert_true(total.val >= PAGES);
	pk_counter_set_close(set);
	pk_event_list_free(&ev);
	free(map);
	free(cpus);
}

/* duration_time: the time between enable and disable, no kernel counter. */
static void test_duration_time(void **state)
{
	struct pk_event_list ev = {0};
	struct pk_counter_set *set;
	struct pk_count c;
	struct timespec d = {0, 20 * 1000 * 1000};

	(void)state;
	assert_int_equal(pk_event_list_parse(&ev, "duration_time,task-clock", NULL, NULL), 0);
	assert_int_equal(ev.ev[0].tool, PK_EVENT_TOOL_DURATION);
	assert_string_equal(ev.ev[0].unit, "ns");
	assert_int_equal(pk_counter_set_open(&set, &ev, NULL), 0);
	assert_int_equal(pk_counter_read(set, 0, &c), 0);
	assert_int_equal(c.val, 0);	/* not enabled yet */
	pk_counter_set_enable(set);
	nanosleep(&d, NULL);
	pk_counter_set_disable(set);
	assert_int_equal(pk_counter_read(set, 0, &c), 0);
	assert_true(c.val >= 20000000 && c.val < 2000000000);
	assert_int_equal(c.ena, c.val);
	nanosleep(&d, NULL);	/* disabled: no more time */
	struct pk_count again;
	assert_int_equal(pk_counter_read(set, 0, &again), 0);
	assert_int_equal(again.val, c.val);
	pk_counter_set_close(set);
	pk_event_list_free(&ev);
}

/* user_time and system_time: the rusage given, 0 before. */
static void test_tool_rusage(void **state)
{
	struct pk_event_list ev = {0};
	struct pk_counter_set *set;
	struct pk_count c;
	struct rusage ru = {.ru_utime = {1, 500}, .ru_stime = {0, 7}};

	(void)state;
	assert_int_equal(pk_event_list_parse(&ev, "user_time,system_time", NULL, NULL), 0);
	assert_int_equal(ev.ev[1].tool, PK_EVENT_TOOL_SYSTEM_TIME);
	assert_int_equal(pk_counter_set_open(&set, &ev, NULL), 0);
	assert_int_equal(pk_counter_read(set, 0, &c), 0);
	assert_int_equal(c.val, 0);
	pk_counter_set_tool_rusage(set, &ru);
	assert_int_equal(pk_counter_read(set, 0, &c), 0);
	assert_int_equal(c.val, 1000500000ULL);
	assert_int_equal(pk_counter_read(set, 1, &c), 0);
	assert_int_equal(c.val, 7000);
	assert_int_equal(c.run, 7000);
	pk_counter_set_close(set);
	pk_event_list_free(&ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_page_faults), cmocka_unit_test(test_group_read),
		cmocka_unit_test(test_read_self), cmocka_unit_test(test_workload),
		cmocka_unit_test(test_not_supported), cmocka_unit_test(test_targets),
		cmocka_unit_test(test_aggr_topology), cmocka_unit_test(test_aggr_read),
		cmocka_unit_test(test_duration_time), cmocka_unit_test(test_tool_rusage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
