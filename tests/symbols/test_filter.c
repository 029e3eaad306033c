// SPDX-License-Identifier: MIT
/*
 * Time ranges and CPU lists as perf script parses them.  The expected
 * values are what perf 6.1 selects or rejects for the same strings
 * (checked against perf by script_options.sh on recordings); here the
 * edges and hostile strings, which must never crash.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <string.h>
#include <perfkit/filter.h>
#include <perfkit/report.h>
#include "filter/filter_internal.h"

#define SEC 1000000000ULL

static int parse(const char *s, struct pk_time_range **r, size_t *nr)
{
	return pk_time_ranges_parse(s, 100 * SEC, 200 * SEC, false, r, nr);
}

static void test_absolute(void **state)
{
	struct pk_time_range *r;
	size_t nr;

	(void)state;
	assert_int_equal(parse("150.5,", &r, &nr), 0);
	assert_int_equal(nr, 1);
	assert_true(r[0].start == 150 * SEC + 500000000 && r[0].end == 0);
	assert_true(pk_time_ranges_skip(r, nr, 150 * SEC));
	assert_false(pk_time_ranges_skip(r, nr, 151 * SEC));
	assert_false(pk_time_ranges_skip(r, nr, 0)); /* no time: kept */
	free(r);
	assert_int_equal(parse("101,102  150.000000001,", &r, &nr), 0);
	assert_int_equal(nr, 2);
	assert_true(r[1].start == 150 * SEC + 1);
	assert_false(pk_time_ranges_skip(r, nr, 102 * SEC));
	assert_true(pk_time_ranges_skip(r, nr, 103 * SEC));
	assert_false(pk_time_ranges_skip(r, nr, 300 * SEC));
	free(r);
	assert_int_equal(parse(",", &r, &nr), 0);
	free(r);
}

static void test_rejected(void **state)
{
	static const char *const bad[] = {
		"",	      "12.5", "2,1",   "1,3 2,4", "1,2,3", "1.0000000001,",
		"x,",	      ",y",   "1,2 x", "200%",	  "10%x",  "5%/0",
		"%",	      "-",    "/",     "0%-",	  "10%/",  "1%2",
		"10%-20%,5%", /* perf 6.1 crashes on this one */
	};
	struct pk_time_range *r;
	size_t nr;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(bad[i], &r, &nr), -EINVAL);
		assert_null(r);
	}
	/* percentages need the first and last sample times */
	assert_int_equal(pk_time_ranges_parse("10%", 0, 0, false, &r, &nr), -ENODATA);
	assert_int_equal(pk_time_ranges_parse("1,2", 0, 0, true, &r, &nr), -ENODATA);
}

static void test_percent(void **state)
{
	struct pk_time_range *r;
	size_t nr;

	(void)state;
	assert_int_equal(parse("10%/2", &r, &nr), 0);
	assert_int_equal(nr, 1);
	/* the stop is made exclusive */
	assert_true(r[0].start == 110 * SEC && r[0].end == 120 * SEC - 1);
	free(r);
	assert_int_equal(parse("0%-10%,90%-100%", &r, &nr), 0);
	assert_int_equal(nr, 2);
	assert_true(r[1].end == 200 * SEC); /* not at the very end */
	free(r);
	assert_int_equal(parse("25%", &r, &nr), 0);
	assert_true(r[0].start == 100 * SEC && r[0].end == 125 * SEC - 1);
	free(r);
	/* what follows the '%' is not looked at */
	assert_int_equal(parse("10%x/2", &r, &nr), 0);
	assert_true(r[0].start == 110 * SEC);
	free(r);
	/* --reltime: perf adds the first sample time, to percentages too */
	assert_int_equal(pk_time_ranges_parse("1,2", 100 * SEC, 200 * SEC, true, &r, &nr), 0);
	assert_true(r[0].start == 101 * SEC && r[0].end == 102 * SEC);
	free(r);
}

static void test_cpu_list(void **state)
{
	static const char *const bad[] = {",0", "1-0",	 " 0",	"0 ",	 "x",
					  "-1", "0-1-2", "1,1", "0-3,2", "99999999999"};
	int32_t *cpus;
	size_t nr;

	(void)state;
	assert_int_equal(pki_filter_cpu_list("3,0-1", &cpus, &nr), 0);
	assert_int_equal(nr, 3);
	assert_true(cpus[0] == 0 && cpus[1] == 1 && cpus[2] == 3);
	free(cpus);
	/* C notation, and parsing stops at an entry without a digit */
	assert_int_equal(pki_filter_cpu_list("0x2,010,x,5", &cpus, &nr), 0);
	assert_int_equal(nr, 2);
	assert_true(cpus[0] == 2 && cpus[1] == 8);
	free(cpus);
	assert_int_equal(pki_filter_cpu_list("0-", &cpus, &nr), 0);
	assert_true(nr == 1 && cpus[0] == 0);
	free(cpus);
	assert_int_equal(pki_filter_cpu_list("", &cpus, &nr), 0);
	assert_true(nr == 1 && cpus[0] == -1);
	free(cpus);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(pki_filter_cpu_list(bad[i], &cpus, &nr), -EINVAL);
	assert_int_equal(pki_filter_cpu_list("0-2000000000", &cpus, &nr), -E2BIG);
}

/* --symbols entries that read whole as hex numbers (strtoul, base 16)
 * are addresses to perf, the rest names. */
static void test_symbol_names(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(pk_hist_symbol_names("fc", out, sizeof(out)), 0);
	assert_string_equal(out, "");
	assert_int_equal(pk_hist_symbol_names("main,fc,0x1250,deadx", out, sizeof(out)), 2);
	assert_string_equal(out, "main,deadx");
	assert_int_equal(pk_hist_symbol_names("fg,abz, 12 ,0x", out, sizeof(out)), 3);
	assert_string_equal(out, "fg,abz,0x");
	/* too small a buffer: the count is still right, the text cut */
	assert_int_equal(pk_hist_symbol_names("alpha,beta", out, 4), 2);
	assert_string_equal(out, "alp");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_absolute),     cmocka_unit_test(test_rejected),
		cmocka_unit_test(test_percent),	     cmocka_unit_test(test_cpu_list),
		cmocka_unit_test(test_symbol_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
