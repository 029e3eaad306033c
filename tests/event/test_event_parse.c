// SPDX-License-Identifier: MIT
/*
 * The event parser: valid strings with the attrs perf builds for them (the
 * modifier bits were checked with `perf record -e X; perf evlist -v`), bad
 * strings with the position perf points at, and the fake sysfs/tracefs
 * trees in tests/event/data for PMUs and tracepoints this machine lacks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <linux/hw_breakpoint.h>
#include <perfkit/event.h>

static struct pk_event_parse_opts opts;
static char sysfs[1024], tracefs[1024];

static int setup(void **state)
{
	const char *src = getenv("PERFKIT_SRC");

	(void)state;
	snprintf(sysfs, sizeof(sysfs), "%s/tests/event/data/sysfs", src ? src : ".");
	snprintf(tracefs, sizeof(tracefs), "%s/tests/event/data/tracefs", src ? src : ".");
	opts.sz = sizeof(opts);
	opts.sysfs_root = sysfs;
	opts.tracefs_root = tracefs;
	return 0;
}

/* Flags of the attr's bitfield word we compare, by name. */
enum {
	XU = 1 << 0, XK = 1 << 1, XH = 1 << 2, XHOST = 1 << 3, XG = 1 << 4, XI = 1 << 5,
	PIN = 1 << 6,
};

struct valid {
	const char *str;
	int nr;			/* events produced */
	int idx;		/* which one the fields below describe */
	uint32_t type;
	uint64_t config;
	unsigned int flags;
	int precise;
	const char *name;
};

#define HWC(t, o, r) ((t) | (o) << 8 | (r) << 16)

static const struct valid valid[] = {
	{"cycles", 1, 0, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, XG, 0, "cycles"},
	{"cpu-cycles", 1, 0, PERF_TYPE_HARDWARE, 0, XG, 0, "cpu-cycles"},
	{"instructions", 1, 0, PERF_TYPE_HARDWARE, 1, XG, 0, "instructions"},
	{"cache-references", 1, 0, PERF_TYPE_HARDWARE, 2, XG, 0, NULL},
	{"cache-misses", 1, 0, PERF_TYPE_HARDWARE, 3, XG, 0, NULL},
	{"branch-instructions", 1, 0, PERF_TYPE_HARDWARE, 4, XG, 0, NULL},
	{"branches", 1, 0, PERF_TYPE_HARDWARE, 4, XG, 0, NULL},
	{"branch-misses", 1, 0, PERF_TYPE_HARDWARE, 5, XG, 0, NULL},
	{"bus-cycles", 1, 0, PERF_TYPE_HARDWARE, 6, XG, 0, NULL},
	{"stalled-cycles-frontend", 1, 0, PERF_TYPE_HARDWARE, 7, XG, 0, NULL},
	{"idle-cycles-backend", 1, 0, PERF_TYPE_HARDWARE, 8, XG, 0, NULL},
	{"ref-cycles", 1, 0, PERF_TYPE_HARDWARE, 9, XG, 0, NULL},
	{"cpu-clock", 1, 0, PERF_TYPE_SOFTWARE, 0, XG, 0, "cpu-clock"},
	{"task-clock", 1, 0, PERF_TYPE_SOFTWARE, 1, XG, 0, NULL},
	{"page-faults", 1, 0, PERF_TYPE_SOFTWARE, 2, XG, 0, NULL},
	{"faults", 1, 0, PERF_TYPE_SOFTWARE, 2, XG, 0, "faults"},
	{"context-switches", 1, 0, PERF_TYPE_SOFTWARE, 3, XG, 0, NULL},
	{"cs", 1, 0, PERF_TYPE_SOFTWARE, 3, XG, 0, "cs"},
	{"cpu-migrations", 1, 0, PERF_TYPE_SOFTWARE, 4, XG, 0, NULL},
	{"migrations", 1, 0, PERF_TYPE_SOFTWARE, 4, XG, 0, NULL},
	{"minor-faults", 1, 0, PERF_TYPE_SOFTWARE, 5, XG, 0, NULL},
	{"major-faults", 1, 0, PERF_TYPE_SOFTWARE, 6, XG, 0, NULL},
	{"alignment-faults", 1, 0, PERF_TYPE_SOFTWARE, 7, XG, 0, NULL},
	{"emulation-faults", 1, 0, PERF_TYPE_SOFTWARE, 8, XG, 0, NULL},
	{"dummy", 1, 0, PERF_TYPE_SOFTWARE, 9, XG, 0, NULL},
	{"bpf-output", 1, 0, PERF_TYPE_SOFTWARE, 10, XG, 0, NULL},
	{"cgroup-switches", 1, 0, PERF_TYPE_SOFTWARE, 11, XG, 0, NULL},
	/* cache events: type | op << 8 | result << 16 (perf_event_open(2)) */
	{"L1-dcache-loads", 1, 0, PERF_TYPE_HW_CACHE, HWC(0, 0, 0), XG, 0, NULL},
	{"L1-dcache-load-misses", 1, 0, PERF_TYPE_HW_CACHE, HWC(0, 0, 1), XG, 0, NULL},
	{"L1-dcache-stores", 1, 0, PERF_TYPE_HW_CACHE, HWC(0, 1, 0), XG, 0, NULL},
	{"L1-dcache-prefetch-misses", 1, 0, PERF_TYPE_HW_CACHE, HWC(0, 2, 1), XG, 0, NULL},
	{"L1-icache-load-misses", 1, 0, PERF_TYPE_HW_CACHE, HWC(1, 0, 1), XG, 0, NULL},
	{"LLC-loads", 1, 0, PERF_TYPE_HW_CACHE, HWC(2, 0, 0), XG, 0, NULL},
	{"LLC-load-misses", 1, 0, PERF_TYPE_HW_CACHE, HWC(2, 0, 1), XG, 0, NULL},
	{"LLC-stores", 1, 0, PERF_TYPE_HW_CACHE, HWC(2, 1, 0), XG, 0, NULL},
	{"dTLB-load-misses", 1, 0, PERF_TYPE_HW_CACHE, HWC(3, 0, 1), XG, 0, NULL},
	{"dTLB-store-misses", 1, 0, PERF_TYPE_HW_CACHE, HWC(3, 1, 1), XG, 0, NULL},
	{"iTLB-loads", 1, 0, PERF_TYPE_HW_CACHE, HWC(4, 0, 0), XG, 0, NULL},
	{"iTLB-load-misses", 1, 0, PERF_TYPE_HW_CACHE, HWC(4, 0, 1), XG, 0, NULL},
	{"branch-loads", 1, 0, PERF_TYPE_HW_CACHE, HWC(5, 0, 0), XG, 0, NULL},
	{"branch-load-misses", 1, 0, PERF_TYPE_HW_CACHE, HWC(5, 0, 1), XG, 0, NULL},
	{"node-loads", 1, 0, PERF_TYPE_HW_CACHE, HWC(6, 0, 0), XG, 0, NULL},
	{"node-load-misses", 1, 0, PERF_TYPE_HW_CACHE, HWC(6, 0, 1), XG, 0, NULL},
	{"node-stores", 1, 0, PERF_TYPE_HW_CACHE, HWC(6, 1, 0), XG, 0, NULL},
	{"l1d-loads", 1, 0, PERF_TYPE_HW_CACHE, HWC(0, 0, 0), XG, 0, NULL},
	{"L1-dcache-misses", 1, 0, PERF_TYPE_HW_CACHE, HWC(0, 0, 1), XG, 0, NULL},
	/* raw */
	{"r1a2b", 1, 0, PERF_TYPE_RAW, 0x1a2b, XG, 0, "r1a2b"},
	{"r0:u", 1, 0, PERF_TYPE_RAW, 0, XK | XH | XG, 0, "r0:u"},
	/* modifiers, as perf record sets them */
	{"cpu-clock:u", 1, 0, PERF_TYPE_SOFTWARE, 0, XK | XH | XG, 0, "cpu-clock:u"},
	{"task-clock:k", 1, 0, PERF_TYPE_SOFTWARE, 1, XU | XH, 0, "task-clock:k"},
	{"page-faults:uH", 1, 0, PERF_TYPE_SOFTWARE, 2, XK | XH | XG, 0, NULL},
	{"cpu-clock:p", 1, 0, PERF_TYPE_SOFTWARE, 0, XG, 1, NULL},
	{"cycles:ppp", 1, 0, PERF_TYPE_HARDWARE, 0, XG, 3, "cycles:ppp"},
	{"cpu-clock:G", 1, 0, PERF_TYPE_SOFTWARE, 0, XHOST, 0, NULL},
	{"cpu-clock:H", 1, 0, PERF_TYPE_SOFTWARE, 0, XG, 0, NULL},
	{"cpu-clock:ukG", 1, 0, PERF_TYPE_SOFTWARE, 0, XH | XHOST, 0, NULL},
	{"cpu-clock:S", 1, 0, PERF_TYPE_SOFTWARE, 0, 0, 0, NULL},
	{"cpu-clock:D", 1, 0, PERF_TYPE_SOFTWARE, 0, PIN, 0, NULL},
	{"cpu-clock:I", 1, 0, PERF_TYPE_SOFTWARE, 0, XI, 0, NULL},
	{"cycles:W", 1, 0, PERF_TYPE_HARDWARE, 0, 0, 0, NULL},
	{"instructions:kh", 1, 0, PERF_TYPE_HARDWARE, 1, XU, 0, NULL},
	/* symbolic events take generic terms */
	{"cpu-clock/name=foo/", 1, 0, PERF_TYPE_SOFTWARE, 0, XG, 0, "foo"},
	{"task-clock/period=1000/", 1, 0, PERF_TYPE_SOFTWARE, 1, XG, 0, "task-clock/period=1000/"},
	{"cycles/period=1000/u", 1, 0, PERF_TYPE_HARDWARE, 0, XK | XH | XG, 0,
	 "cycles/period=1000/u"},
	{"L1-dcache-loads/name=x/", 1, 0, PERF_TYPE_HW_CACHE, 0, XG, 0, "x"},
	/* lists and groups */
	{"cycles,instructions", 2, 1, PERF_TYPE_HARDWARE, 1, XG, 0, "instructions"},
	/* group members keep their own names, as perf stat prints them */
	{"{cycles,instructions}:u", 2, 1, PERF_TYPE_HARDWARE, 1, XK | XH | XG, 0,
	 "instructions"},
	{"task-clock,{cs,faults:k},dummy", 4, 2, PERF_TYPE_SOFTWARE, 2, XU | XH, 0, "faults:k"},
	/* breakpoints */
	{"mem:0x1000", 1, 0, PERF_TYPE_BREAKPOINT, 0, XG, 0, "mem:0x1000"},
	{"mem:0x1000:rw", 1, 0, PERF_TYPE_BREAKPOINT, 0, XG, 0, NULL},
	{"mem:0x7fff0000/8:x", 1, 0, PERF_TYPE_BREAKPOINT, 0, XG, 0, NULL},
	{"mem:4096:w:u", 1, 0, PERF_TYPE_BREAKPOINT, 0, XK | XH | XG, 0, "mem:4096:w:u"},
	/* fake sysfs: a core PMU (type 4) and an uncore one (type 20) */
	{"cpu/event=0x3c,umask=0x1/", 1, 0, 4, 0x13c, XG, 0, "cpu/event=0x3c,umask=0x1/"},
	{"cpu/event=0xc0,edge,inv,cmask=2/u", 1, 0, 4, 0x28400c0, XK | XH | XG, 0, NULL},
	{"cpu/config=0x1234/", 1, 0, 4, 0x1234, XG, 0, NULL},
	{"cpu/cycles-t/", 1, 0, 4, 0x10000003c, XG, 0, "cpu/cycles-t/"},
	{"cpu/event=1,name=myname/", 1, 0, 4, 1, XG, 0, "myname"},
	{"cpu/mem-loads/pp", 1, 0, 4, 0x1cd, XG, 2, NULL},
	{"uncore_imc_0/data_reads/", 1, 0, 20, 0x304, XG, 0, NULL},
	{"slots", 1, 0, 4, 0x400, XG, 0, "slots"},
	{"{cpu/event=1/,cpu/event=2/}", 2, 1, 4, 2, XG, 0, NULL},
	/* fake tracefs */
	{"sched:sched_switch", 1, 0, PERF_TYPE_TRACEPOINT, 316, XG, 0, "sched:sched_switch"},
	{"irq:irq_handler_entry", 1, 0, PERF_TYPE_TRACEPOINT, 120, XG, 0, NULL},
	{"sched:sched_process_*", 1, 0, PERF_TYPE_TRACEPOINT, 300, XG, 0,
	 "sched:sched_process_exec"},
	{"sched:sched_w*", 1, 0, PERF_TYPE_TRACEPOINT, 318, XG, 0, "sched:sched_wakeup"},
	{"*:irq_*", 1, 0, PERF_TYPE_TRACEPOINT, 120, XG, 0, NULL},
	{"sched:sched_switch:k", 1, 0, PERF_TYPE_TRACEPOINT, 316, XU | XH, 0, NULL},
};

static unsigned int flags_of(const struct perf_event_attr *a)
{
	return (a->exclude_user ? XU : 0) | (a->exclude_kernel ? XK : 0) |
	       (a->exclude_hv ? XH : 0) | (a->exclude_host ? XHOST : 0) |
	       (a->exclude_guest ? XG : 0) | (a->exclude_idle ? XI : 0) | (a->pinned ? PIN : 0);
}

static void test_valid(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(valid) / sizeof(valid[0]); i++) {
		const struct valid *v = &valid[i];
		struct pk_event_list list = {0};
		struct pk_parse_error err;
		int ret = pk_event_list_parse(&list, v->str, &opts, &err);

		if (ret)
			fail_msg("'%s': %d at %d: %s", v->str, ret, err.pos, err.msg);
		if ((int)list.nr != v->nr)
			fail_msg("'%s': %zu events, want %d", v->str, list.nr, v->nr);
		const struct perf_event_attr *a = &list.ev[v->idx].attr;
		if (a->type != v->type || a->config != v->config)
			fail_msg("'%s': type %u config %#llx, want %u %#llx", v->str, a->type,
				 (unsigned long long)a->config, v->type,
				 (unsigned long long)v->config);
		if (flags_of(a) != v->flags || a->precise_ip != (unsigned)v->precise)
			fail_msg("'%s': flags %#x precise %u, want %#x %d", v->str, flags_of(a),
				 a->precise_ip, v->flags, v->precise);
		if (v->name && strcmp(list.ev[v->idx].name, v->name))
			fail_msg("'%s': name '%s', want '%s'", v->str, list.ev[v->idx].name,
				 v->name);
		assert_int_equal(a->size, sizeof(*a));
		pk_event_list_free(&list);
	}
}

static void test_details(void **state)
{
	struct pk_event_list list = {0};
	struct pk_parse_error err;

	(void)state;
	/* Groups: leader and size; repeated -e appends. */
	assert_int_equal(pk_event_list_parse(&list, "cycles,{cs,faults,dummy}", &opts, &err), 0);
	assert_int_equal(pk_event_list_parse(&list, "task-clock", &opts, &err), 0);
	assert_int_equal(list.nr, 5);
	assert_int_equal(list.ev[0].leader, 0);
	assert_int_equal(list.ev[0].group_size, 1);
	assert_int_equal(list.ev[1].leader, 1);
	assert_int_equal(list.ev[1].group_size, 3);
	assert_int_equal(list.ev[2].leader, 1);
	assert_int_equal(list.ev[3].leader, 1);
	assert_int_equal(list.ev[4].leader, 4);
	assert_string_equal(list.ev[4].unit, "msec");
	/* A failed parse leaves the list as it was. */
	assert_int_not_equal(pk_event_list_parse(&list, "cs,bogus", &opts, &err), 0);
	assert_int_equal(list.nr, 5);
	pk_event_list_free(&list);
	assert_null(list.ev);

	/* Breakpoint details. */
	assert_int_equal(pk_event_list_parse(&list, "mem:0x1000/2:rw,mem:0x2000:x", &opts, &err), 0);
	assert_int_equal(list.ev[0].attr.bp_addr, 0x1000);
	assert_int_equal(list.ev[0].attr.bp_len, 2);
	assert_int_equal(list.ev[0].attr.bp_type, HW_BREAKPOINT_RW);
	assert_int_equal(list.ev[1].attr.bp_type, HW_BREAKPOINT_X);
	assert_int_equal(list.ev[1].attr.bp_len, sizeof(long));
	pk_event_list_free(&list);

	/* sysfs: config1/config2 formats, scale, unit, cpumask, pmu name. */
	assert_int_equal(pk_event_list_parse(&list, "cpu/mem-loads/,cpu/split=0xab/", &opts, &err), 0);
	assert_int_equal(list.ev[0].attr.config1, 3);
	assert_int_equal(list.ev[1].attr.config2, 0xa0b);
	assert_string_equal(list.ev[0].pmu, "cpu");
	assert_null(list.ev[0].cpus);
	pk_event_list_free(&list);
	assert_int_equal(pk_event_list_parse(&list, "uncore_imc_0/data_reads/", &opts, &err), 0);
	assert_true(list.ev[0].scale > 6.1e-5 && list.ev[0].scale < 6.11e-5);
	assert_string_equal(list.ev[0].unit, "MiB");
	assert_int_equal(list.ev[0].nr_cpus, 3);
	assert_int_equal(list.ev[0].cpus[0], 0);
	assert_int_equal(list.ev[0].cpus[1], 2);
	assert_int_equal(list.ev[0].cpus[2], 3);
	assert_string_equal(list.ev[0].pmu, "uncore_imc_0");
	pk_event_list_free(&list);
	/* A glob expands in directory order, like perf's. */
	assert_int_equal(pk_event_list_parse(&list, "sched:*", &opts, &err), 0);
	assert_int_equal(list.nr, 3);
	uint64_t sum = 0;
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(list.ev[i].leader, (int)i);
		sum += list.ev[i].attr.config;
	}
	assert_int_equal(sum, 300 + 316 + 318);
	pk_event_list_free(&list);
	/* Tracepoints count every hit. */
	assert_int_equal(pk_event_list_parse(&list, "sched:sched_switch", &opts, &err), 0);
	assert_int_equal(list.ev[0].attr.sample_period, 1);
	assert_string_equal(list.ev[0].pmu, "tracepoint");
	pk_event_list_free(&list);
}

struct bad {
	const char *str;
	int pos;
};

/* Positions are where perf 6.1's "event syntax error" caret points. */
static const struct bad bad[] = {
	{"cycles:qq", 6},
	{"task-clock,foo", 11},
	{"cycles,,instructions", 6},
	{"cycles:ppppp", 7},
	{"sched:nonexistent", 0},
	{"mem:", 0},
	{"cpu/event=1,bogus=1/", 12},
	{"nopmu/event=1/", 0},
	{"{cycles,{instructions}}", 8},
	{"cpu-clock:u:k", 10},
	{"task-clock}", 0},
	{"r12zz", 0},
	{"cycles/", 0},
	{"cpu/event=1/xx", 11},
	{"", 0},
	{"cpu/event=0x1ff/", 10},
	{"cpu/event=zz/", 10},
	{"mem:0x1000/3", 11},
	{"{cycles,cs", 0},
	{"cycles:", 6},
	{"sched:", 0},
	{"cs/bogus=1/", 3},
	{"nosys:*", 0},
};

static void test_bad(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pk_event_list list = {0};
		struct pk_parse_error err = {.pos = -1};
		int ret = pk_event_list_parse(&list, bad[i].str, &opts, &err);

		if (ret >= 0)
			fail_msg("'%s' parsed", bad[i].str);
		if (err.pos != bad[i].pos)
			fail_msg("'%s': error at %d (%s), want %d", bad[i].str, err.pos, err.msg,
				 bad[i].pos);
		assert_true(err.msg[0] != 0);
		assert_int_equal(list.nr, 0);
		pk_event_list_free(&list);
	}
}

/* perf's per-event recording terms, kept for the recorder */
static void test_record_terms(void **state)
{
	static const char *const bad_terms[] = {"cpu-clock/call-graph=lbr2/", "cpu-clock/time=0/",
						"cpu-clock/overwrite/",
						"cpu-clock/stack-size=70000/"};
	const char *good = "cpu-clock/call-graph=dwarf,stack-size=1000/,"
			   "task-clock/max-stack=9,no-inherit/,cs/call-graph=no,inherit/,"
			   "faults/time,percore,metric-id=x/";
	struct pk_event_list list = {0};
	struct pk_parse_error err;

	(void)state;
	assert_int_equal(pk_event_list_parse(&list, good, &opts, &err), 0);
	assert_int_equal(list.nr, 4);
	assert_int_equal(list.ev[0].rec.callgraph, PK_EVENT_CG_DWARF);
	assert_int_equal(list.ev[0].rec.stack_size, 1000);
	assert_int_equal(list.ev[1].rec.max_stack, 9);
	assert_int_equal(list.ev[1].rec.inherit, -1);
	assert_int_equal(list.ev[2].rec.callgraph, PK_EVENT_CG_NONE);
	assert_int_equal(list.ev[2].rec.inherit, 1);
	assert_int_equal(list.ev[3].rec.callgraph, PK_EVENT_CG_DEFAULT);
	pk_event_list_free(&list);
	for (size_t i = 0; i < sizeof(bad_terms) / sizeof(bad_terms[0]); i++) {
		assert_int_not_equal(pk_event_list_parse(&list, bad_terms[i], &opts, &err), 0);
		assert_int_equal(list.nr, 0);
	}
	/* a failed parse leaves the list empty, but it still owns its array */
	pk_event_list_free(&list);
}

static void test_env_roots(void **state)
{
	struct pk_event_list list = {0};

	(void)state;
	setenv("PERFKIT_SYSFS", sysfs, 1);
	setenv("PERFKIT_TRACEFS", tracefs, 1);
	assert_int_equal(pk_event_list_parse(&list, "cpu/event=1/,sched:sched_wakeup", NULL, NULL), 0);
	assert_int_equal(list.ev[0].attr.type, 4);
	assert_int_equal(list.ev[1].attr.config, 318);
	pk_event_list_free(&list);
	unsetenv("PERFKIT_SYSFS");
	unsetenv("PERFKIT_TRACEFS");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_details),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_record_terms),
		cmocka_unit_test(test_env_roots),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
