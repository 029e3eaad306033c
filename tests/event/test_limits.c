// SPDX-License-Identifier: MIT
/* The limits module: reading a fake /proc, and the explanations of
 * refused opens and mmaps (hand-written expectations). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <perfkit/perfkit.h>

static char root[] = "/tmp/pk-limits-XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	char path[256];

	(void)state;
	if (!mkdtemp(root))
		return -1;
	snprintf(path, sizeof(path), "%s/sys", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/sys/kernel", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/self", root);
	mkdir(path, 0700);
	put("sys/kernel/perf_event_paranoid", "2\n");
	put("sys/kernel/perf_event_max_sample_rate", "25000\n");
	put("sys/kernel/perf_event_mlock_kb", "516\n");
	put("sys/kernel/perf_event_max_stack", "garbage\n");
	/* CAP_SYS_PTRACE (19) only */
	put("self/status", "Name:\tt\nCapEff:\t0000000000080000\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_read(void **state)
{
	struct pk_limits l = {.sz = sizeof(l)};

	(void)state;
	assert_int_equal(pk_limits_read(&l, root), 0);
	assert_int_equal(l.paranoid, 2);
	assert_int_equal(l.max_sample_rate, 25000);
	assert_int_equal(l.mlock_kb, 516);
	assert_int_equal(l.max_stack, PK_LIMIT_UNKNOWN);
	assert_int_equal(l.kptr_restrict, PK_LIMIT_UNKNOWN);
	assert_true(l.cap_sys_ptrace);
	assert_false(l.cap_perfmon);
	assert_false(l.cap_sys_admin);
}

static struct pk_limits unprivileged(void)
{
	struct pk_limits l = {.sz = sizeof(l)};

	pk_limits_read(&l, root);
	l.root = false;
	l.nofile_cur = 1024;
	l.nofile_max = 4096;
	l.memlock_cur = 65536;
	return l;
}

static void test_explain_permission(void **state)
{
	struct pk_limits l = unprivileged();
	struct perf_event_attr a = {.size = sizeof(a)};
	char buf[512];

	(void)state;
	/* kernel counting of one's own task needs paranoid <= 1 */
	pk_limits_explain_open(&l, -EACCES, &a, false, buf, sizeof(buf));
	assert_non_null(strstr(buf, "perf_event_paranoid is 2"));
	assert_non_null(strstr(buf, "counting kernel code needs 1 or less"));
	assert_non_null(strstr(buf, "perf_event_paranoid=1"));
	/* all tasks on a CPU need 0 */
	pk_limits_explain_open(&l, -EACCES, &a, true, buf, sizeof(buf));
	assert_non_null(strstr(buf, "needs 0 or less"));
	/* privileged and still refused: not the sysctl's doing */
	l.cap_perfmon = true;
	pk_limits_explain_open(&l, -EPERM, &a, true, buf, sizeof(buf));
	assert_non_null(strstr(buf, "although privileged"));
}

static void test_explain_other(void **state)
{
	struct pk_limits l = unprivileged();
	struct perf_event_attr a = {.size = sizeof(a)};
	char buf[512];

	(void)state;
	a.freq = 1;
	a.sample_freq = 50000;
	pk_limits_explain_open(&l, -EINVAL, &a, false, buf, sizeof(buf));
	assert_non_null(strstr(buf, "50000 Hz is above kernel.perf_event_max_sample_rate (25000)"));
	a.sample_freq = 1000;
	a.precise_ip = 2;
	pk_limits_explain_open(&l, -EINVAL, &a, false, buf, sizeof(buf));
	assert_non_null(strstr(buf, "precise"));
	pk_limits_explain_open(&l, -EMFILE, &a, true, buf, sizeof(buf));
	assert_non_null(strstr(buf, "RLIMIT_NOFILE is 1024 (hard limit 4096)"));
	pk_limits_explain_open(&l, -ENOENT, &a, false, buf, sizeof(buf));
	assert_non_null(strstr(buf, "no PMU"));
	pk_limits_explain_mmap(&l, -EPERM, 1032 * 1024, buf, sizeof(buf));
	assert_non_null(strstr(buf, "1032 KiB ring buffer"));
	assert_non_null(strstr(buf, "perf_event_mlock_kb (516 KiB per CPU)"));
	assert_non_null(strstr(buf, "RLIMIT_MEMLOCK (64 KiB)"));
}

static void test_paranoid_meaning(void **state)
{
	(void)state;
	assert_non_null(strstr(pk_paranoid_meaning(-1), "no restrictions"));
	assert_non_null(strstr(pk_paranoid_meaning(1), "kernel"));
	assert_non_null(strstr(pk_paranoid_meaning(2), "user-space"));
	assert_non_null(strstr(pk_paranoid_meaning(4), "disabled"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_explain_permission),
		cmocka_unit_test(test_explain_other),
		cmocka_unit_test(test_paranoid_meaning),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
