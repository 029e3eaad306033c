// SPDX-License-Identifier: MIT
/*
 * perf's names for attrs without a stored name.  Every expected string was
 * produced by perf 6.1: record an event, zero the nr of its HEADER_EVENT_DESC
 * (and for the types this VM cannot record, patch type/config in the attr),
 * then `perf evlist -i`.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <linux/hw_breakpoint.h>
#include <perfkit/event.h>

enum {
	EU = 1 << 0, EK = 1 << 1, EH = 1 << 2, EHOST = 1 << 3, EG = 1 << 4, PIN = 1 << 5,
	IDLE = 1 << 6,
};

struct name_case {
	uint32_t type;
	uint64_t config;
	unsigned int flags;
	int precise;
	const char *want;
};

static const struct name_case cases[] = {
	{PERF_TYPE_SOFTWARE, 0, EG, 0, "cpu-clock"},
	{PERF_TYPE_SOFTWARE, 0, PIN, 0, "cpu-clock:HG"},
	{PERF_TYPE_SOFTWARE, 0, EHOST, 0, "cpu-clock:G"},
	{PERF_TYPE_SOFTWARE, 0, IDLE, 0, "cpu-clock:HG"},
	{PERF_TYPE_SOFTWARE, 0, EG, 1, "cpu-clock:pH"},
	{PERF_TYPE_SOFTWARE, 0, EK | EH | EG, 0, "cpu-clock:uH"},
	{PERF_TYPE_SOFTWARE, 0, EH | EHOST, 0, "cpu-clock:kuG"},
	{PERF_TYPE_SOFTWARE, 2, EK | EH | EG, 0, "page-faults:uH"},
	{PERF_TYPE_SOFTWARE, 1, EU | EH, 0, "task-clock:k"},
	{PERF_TYPE_SOFTWARE, 0, EU | EK, 0, "cpu-clock:h"},
	{PERF_TYPE_SOFTWARE, 0, EU, 0, "cpu-clock:kh"},
	{PERF_TYPE_SOFTWARE, 99, EG, 0, "unknown-software"},
	{PERF_TYPE_RAW, 0x1234, EG, 0, "raw 0x1234"},
	{PERF_TYPE_HW_CACHE, 0x10002, EG, 0, "LLC-load-misses"},
	{PERF_TYPE_HW_CACHE, 0x0, EG, 0, "L1-dcache-loads"},
	{PERF_TYPE_HW_CACHE, 0x10001, EG, 0, "L1-icache-load-misses"},
	{PERF_TYPE_HW_CACHE, 0x103, EG, 0, "dTLB-stores"},
	{PERF_TYPE_HARDWARE, 0, EG, 0, "cycles"},
	{PERF_TYPE_HARDWARE, 99, EG, 0, "unknown-hardware"},
	{9, 1, EG, 0, "unknown attr type: 9"},
};

static void set_flags(struct perf_event_attr *a, unsigned int f)
{
	a->exclude_user = !!(f & EU);
	a->exclude_kernel = !!(f & EK);
	a->exclude_hv = !!(f & EH);
	a->exclude_host = !!(f & EHOST);
	a->exclude_guest = !!(f & EG);
	a->pinned = !!(f & PIN);
	a->exclude_idle = !!(f & IDLE);
}

static void test_names(void **state)
{
	char buf[128];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct perf_event_attr a = {.size = sizeof(a), .type = cases[i].type,
					    .config = cases[i].config};
		int n;

		set_flags(&a, cases[i].flags);
		a.precise_ip = cases[i].precise;
		n = pk_event_attr_name(&a, buf, sizeof(buf));
		if (strcmp(buf, cases[i].want))
			fail_msg("case %zu: '%s', want '%s'", i, buf, cases[i].want);
		assert_int_equal(n, strlen(cases[i].want));
	}
}

static void test_breakpoints(void **state)
{
	static const struct {
		unsigned int type, flags;
		const char *want;
	} bp[] = {
		{0, 0, "mem:0x1000::HG"},
		{HW_BREAKPOINT_R, EG, "mem:0x1000:r"},
		{HW_BREAKPOINT_W, EG, "mem:0x1000:w"},
		{HW_BREAKPOINT_RW, EG, "mem:0x1000:rw"},
		{HW_BREAKPOINT_X, EG, "mem:0x1000:x"},
		{HW_BREAKPOINT_W | HW_BREAKPOINT_X, EG, "mem:0x1000:wx"},
		{HW_BREAKPOINT_RW | HW_BREAKPOINT_X, EG, "mem:0x1000:rwx"},
	};
	char buf[64];

	(void)state;
	for (size_t i = 0; i < sizeof(bp) / sizeof(bp[0]); i++) {
		struct perf_event_attr a = {.size = sizeof(a), .type = PERF_TYPE_BREAKPOINT,
					    .bp_type = bp[i].type, .bp_addr = 0x1000, .bp_len = 4};
		set_flags(&a, bp[i].flags);
		pk_event_attr_name(&a, buf, sizeof(buf));
		assert_string_equal(buf, bp[i].want);
	}
}

/* snprintf's contract: truncated, NUL-terminated, returns the full length. */
static void test_truncation(void **state)
{
	struct perf_event_attr a = {.size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
				    .exclude_kernel = 1, .exclude_hv = 1, .exclude_guest = 1};
	char buf[8];

	(void)state;
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(pk_event_attr_name(&a, buf, 6), strlen("cpu-clock:uH"));
	assert_string_equal(buf, "cpu-c");
	assert_int_equal(buf[6], 'x');
	assert_int_equal(pk_event_attr_name(&a, NULL, 0), strlen("cpu-clock:uH"));
	a.precise_ip = 2;
	assert_int_equal(pk_event_attr_name(&a, buf, sizeof(buf)), strlen("cpu-clock:uppH"));
	assert_string_equal(buf, "cpu-clo");
}

/* Parsing a name and naming the attr again gives perf's canonical name. */
static void test_roundtrip(void **state)
{
	static const char *const same[] = {"cycles", "instructions", "cpu-clock",
					   "task-clock:k", "page-faults:uH", "cpu-clock:kuG",
					   "L1-dcache-load-misses", "dTLB-stores", "mem:0x1000:rw",
					   "cycles:pppH", "cache-misses:uH"};
	char buf[128];

	(void)state;
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		struct pk_event_list l = {0};

		assert_int_equal(pk_event_list_parse(&l, same[i], NULL, NULL), 0);
		pk_event_attr_name(&l.ev[0].attr, buf, sizeof(buf));
		assert_string_equal(buf, same[i]);
		pk_event_list_free(&l);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_breakpoints),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
