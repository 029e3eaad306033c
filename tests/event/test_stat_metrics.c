// SPDX-License-Identifier: MIT
/*
 * perf stat's derived figures from hand-built counts (this VM has no PMU, so
 * the hardware ones cannot be checked live).  Expected values are worked out
 * by hand from the definitions: CPUs utilized = task-clock / elapsed, rates
 * per task-clock second, IPC = instructions / cycles, miss ratios in percent.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <perfkit/perfkit.h>

static struct perf_event_attr hw(uint64_t c)
{
	struct perf_event_attr a = {.type = PERF_TYPE_HARDWARE, .config = c};
	return a;
}

static struct perf_event_attr sw(uint64_t c)
{
	struct perf_event_attr a = {.type = PERF_TYPE_SOFTWARE, .config = c};
	return a;
}

static struct perf_event_attr cache(uint64_t c)
{
	struct perf_event_attr a = {.type = PERF_TYPE_HW_CACHE, .config = c};
	return a;
}

#define NEAR(a, b) assert_true((a) > (b) - 1e-9 * ((b) + 1) && (a) < (b) + 1e-9 * ((b) + 1))

static void test_metrics(void **state)
{
	struct pk_stat_ctx ctx = {.elapsed_ns = 4e6};
	struct pk_stat_metric m;
	struct perf_event_attr tc = sw(PERF_COUNT_SW_TASK_CLOCK);

	(void)state;
	pk_stat_ctx_add(&ctx, &tc, 2e6);	/* 2 ms of task-clock */
	struct perf_event_attr a = hw(PERF_COUNT_HW_CPU_CYCLES);
	pk_stat_ctx_add(&ctx, &a, 6e6);
	a = hw(PERF_COUNT_HW_INSTRUCTIONS);
	pk_stat_ctx_add(&ctx, &a, 3e6);
	a = hw(PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
	pk_stat_ctx_add(&ctx, &a, 1e6);
	a = hw(PERF_COUNT_HW_CACHE_REFERENCES);
	pk_stat_ctx_add(&ctx, &a, 1000);
	a = cache(0);	/* L1-dcache-loads */
	pk_stat_ctx_add(&ctx, &a, 4000);

	assert_true(pk_stat_metric(&ctx, &tc, 2e6, &m));
	NEAR(m.value, 0.5);
	assert_string_equal(m.unit, "CPUs utilized");
	assert_string_equal(m.fmt, "%8.3f");

	a = hw(PERF_COUNT_HW_CPU_CYCLES);
	assert_true(pk_stat_metric(&ctx, &a, 6e6, &m));
	NEAR(m.value, 3.0);
	assert_string_equal(m.unit, "GHz");

	a = hw(PERF_COUNT_HW_INSTRUCTIONS);
	assert_true(pk_stat_metric(&ctx, &a, 3e6, &m));
	NEAR(m.value, 0.5);
	assert_string_equal(m.unit, "insn per cycle");

	a = hw(PERF_COUNT_HW_BRANCH_MISSES);
	assert_true(pk_stat_metric(&ctx, &a, 2e4, &m));
	NEAR(m.value, 2.0);
	assert_string_equal(m.unit, "of all branches");

	a = hw(PERF_COUNT_HW_CACHE_MISSES);
	assert_true(pk_stat_metric(&ctx, &a, 250, &m));
	NEAR(m.value, 25.0);
	assert_string_equal(m.unit, "of all cache refs");

	a = cache(0x10000);	/* L1-dcache-load-misses */
	assert_true(pk_stat_metric(&ctx, &a, 400, &m));
	NEAR(m.value, 10.0);
	assert_string_equal(m.unit, "of all L1-dcache accesses");

	/* Rates: 1e6 branches in 2 ms = 500 M/sec; 48 faults = 24 K/sec; 1 cs = 500 /sec. */
	a = hw(PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
	assert_true(pk_stat_metric(&ctx, &a, 1e6, &m));
	NEAR(m.value, 500.0);
	assert_string_equal(m.unit, "M/sec");
	a = sw(PERF_COUNT_SW_PAGE_FAULTS);
	assert_true(pk_stat_metric(&ctx, &a, 48, &m));
	NEAR(m.value, 24.0);
	assert_string_equal(m.unit, "K/sec");
	a = sw(PERF_COUNT_SW_CONTEXT_SWITCHES);
	assert_true(pk_stat_metric(&ctx, &a, 1, &m));
	NEAR(m.value, 500.0);
	assert_string_equal(m.unit, "/sec");
	a = sw(PERF_COUNT_SW_CPU_MIGRATIONS);
	assert_true(pk_stat_metric(&ctx, &a, 0, &m));
	NEAR(m.value, 0.0);
	assert_string_equal(m.unit, "/sec");
}

static void test_no_base(void **state)
{
	struct pk_stat_ctx ctx = {.elapsed_ns = 1e6};
	struct pk_stat_metric m;
	struct perf_event_attr a = sw(PERF_COUNT_SW_PAGE_FAULTS);

	(void)state;
	/* Without task-clock there is no rate, as perf prints nothing. */
	assert_false(pk_stat_metric(&ctx, &a, 48, &m));
	a = hw(PERF_COUNT_HW_INSTRUCTIONS);
	assert_false(pk_stat_metric(&ctx, &a, 48, &m));
	a = hw(PERF_COUNT_HW_CPU_CYCLES);
	assert_false(pk_stat_metric(&ctx, &a, 48, &m));
}

/* Two clock events: perf's rates use their mean, not their sum. */
static void test_two_clocks(void **state)
{
	struct pk_stat_ctx ctx = {.elapsed_ns = 1e6};
	struct perf_event_attr a = sw(PERF_COUNT_SW_CPU_CLOCK), b = sw(PERF_COUNT_SW_TASK_CLOCK);
	struct pk_stat_metric m;

	(void)state;
	pk_stat_ctx_add(&ctx, &a, 2e6);
	pk_stat_ctx_add(&ctx, &b, 4e6);
	a = sw(PERF_COUNT_SW_PAGE_FAULTS);
	assert_true(pk_stat_metric(&ctx, &a, 3300, &m));
	NEAR(m.value, 1.1);
	assert_string_equal(m.unit, "M/sec");
}

static void test_acc(void **state)
{
	struct pk_stat_acc acc = {0};

	(void)state;
	/* 2, 4, 6: mean 4, sample variance 4, stddev of the mean sqrt(4/3). */
	pk_stat_acc_add(&acc, 2);
	pk_stat_acc_add(&acc, 4);
	pk_stat_acc_add(&acc, 6);
	NEAR(acc.mean, 4.0);
	NEAR(pk_stat_acc_stddev(&acc), 1.1547005383792515);
	NEAR(pk_stat_acc_rel_stddev(&acc), 28.867513459481287);
	struct pk_stat_acc one = {0};
	pk_stat_acc_add(&one, 5);
	NEAR(pk_stat_acc_stddev(&one), 0.0);
}

static void test_scaled(void **state)
{
	struct pk_count c = {.val = 100, .ena = 1000, .run = 250};

	(void)state;
	NEAR(pk_count_scaled(&c), 400.0);
	c.run = 1000;
	NEAR(pk_count_scaled(&c), 100.0);
	c.run = 0;
	NEAR(pk_count_scaled(&c), 100.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metrics), cmocka_unit_test(test_no_base),
		cmocka_unit_test(test_two_clocks), cmocka_unit_test(test_acc),
		cmocka_unit_test(test_scaled),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
