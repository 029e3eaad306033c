// SPDX-License-Identifier: MIT
/*
 * kprobe/uprobe event syntax against fake kprobe (type 6) and uprobe
 * (type 7) PMUs in data/sysfs, and uprobe file offsets against this very
 * test binary: the offset of probed_function is computed here by hand from
 * the ELF program headers the dynamic loader used (dl_iterate_phdr).
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <link.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <perfkit/event.h>

static struct pk_event_parse_opts opts;
static char sysfs[1024];

__attribute__((noinline, used)) int probed_function(int i)
{
	__asm__ volatile("" ::: "memory");
	return i + 1;
}

static int setup(void **state)
{
	const char *src = getenv("PERFKIT_SRC");

	(void)state;
	snprintf(sysfs, sizeof(sysfs), "%s/tests/event/data/sysfs", src ? src : ".");
	opts.sz = sizeof(opts);
	opts.sysfs_root = sysfs;
	return 0;
}

static int parse(struct pk_event_list *l, const char *s, struct pk_parse_error *err)
{
	memset(l, 0, sizeof(*l));
	return pk_event_list_parse(l, s, &opts, err);
}

static void test_kprobe(void **state)
{
	struct pk_event_list l;
	struct pk_parse_error err;

	(void)state;
	assert_int_equal(parse(&l, "kprobe:do_sys_openat2", &err), 0);
	assert_int_equal(l.nr, 1);
	assert_int_equal(l.ev[0].attr.type, 6);
	assert_int_equal(l.ev[0].attr.config, 0);
	assert_string_equal((const char *)(uintptr_t)l.ev[0].attr.config1, "do_sys_openat2");
	assert_int_equal(l.ev[0].attr.config2, 0);
	assert_string_equal(l.ev[0].name, "kprobe:do_sys_openat2");
	assert_string_equal(l.ev[0].pmu, "kprobe");
	assert_int_equal(l.ev[0].attr.sample_period, 1);
	pk_event_list_free(&l);

	assert_int_equal(parse(&l, "kretprobe:vfs_read+0x10,cpu-clock", &err), 0);
	assert_int_equal(l.nr, 2);
	assert_int_equal(l.ev[0].attr.config, 1); /* format/retprobe: config:0 */
	assert_string_equal((const char *)(uintptr_t)l.ev[0].attr.config1, "vfs_read");
	assert_int_equal(l.ev[0].attr.config2, 0x10);
	assert_string_equal(l.ev[1].name, "cpu-clock");
	pk_event_list_free(&l);

	/* an absolute address: kprobe_func 0, kprobe_addr */
	assert_int_equal(parse(&l, "kprobe:0xffffffff81000000", &err), 0);
	assert_int_equal(l.ev[0].attr.config1, 0);
	assert_int_equal(l.ev[0].attr.config2, 0xffffffff81000000ULL);
	pk_event_list_free(&l);

	assert_int_not_equal(parse(&l, "kprobe:vfs_read+zz", &err), 0);
	assert_int_equal(err.pos, 7);
	pk_event_list_free(&l);
}

struct find {
	uintptr_t addr;
	uint64_t off;
	bool found;
};

/* the main program's PT_LOAD holding addr gives addr's file offset */
static int phdr_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	struct find *f = data;

	(void)size;
	if (f->found || info->dlpi_name[0])
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && f->addr >= lo && f->addr < lo + ph->p_filesz) {
			f->off = f->addr - lo + ph->p_offset;
			f->found = true;
		}
	}
	return 0;
}

static void test_uprobe(void **state)
{
	struct find f = {.addr = (uintptr_t)probed_function};
	struct pk_event_list l;
	struct pk_parse_error err;
	char spec[1200], self[1024];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	(void)state;
	assert_true(n > 0);
	self[n] = 0;
	dl_iterate_phdr(phdr_cb, &f);
	assert_true(f.found);

	snprintf(spec, sizeof(spec), "uprobe:%s:probed_function", self);
	assert_int_equal(parse(&l, spec, &err), 0);
	assert_int_equal(l.ev[0].attr.type, 7);
	assert_string_equal((const char *)(uintptr_t)l.ev[0].attr.config1, self);
	assert_int_equal(l.ev[0].attr.config2, f.off);
	assert_int_equal(l.ev[0].attr.config, 0);
	pk_event_list_free(&l);

	snprintf(spec, sizeof(spec), "uretprobe:%s:probed_function+4", self);
	assert_int_equal(parse(&l, spec, &err), 0);
	assert_int_equal(l.ev[0].attr.config, 1);
	assert_int_equal(l.ev[0].attr.config2, f.off + 4);
	pk_event_list_free(&l);

	snprintf(spec, sizeof(spec), "uprobe:%s:no_such_function", self);
	assert_int_not_equal(parse(&l, spec, &err), 0);
	assert_int_equal(err.pos, 7);
	assert_non_null(strstr(err.msg, "no function 'no_such_function'"));
	pk_event_list_free(&l);

	assert_int_not_equal(parse(&l, "uprobe:/nonexistent/bin:main", &err), 0);
	assert_non_null(strstr(err.msg, "cannot open /nonexistent/bin"));
	pk_event_list_free(&l);
}

static void test_no_pmu(void **state)
{
	struct pk_event_parse_opts o = opts;
	struct pk_event_list l = {0};
	struct pk_parse_error err;

	(void)state;
	o.sysfs_root = "/nonexistent";
	assert_int_not_equal(pk_event_list_parse(&l, "kprobe:vfs_read", &o, &err), 0);
	assert_non_null(strstr(err.msg, "no kprobe PMU"));
	pk_event_list_free(&l);
}

static void test_filter(void **state)
{
	struct pk_event_list l = {0};
	char msg[256];

	(void)state;
	setenv("PERFKIT_TRACEFS", "", 1);
	assert_int_equal(pk_event_list_parse(&l, "cpu-clock", &opts, NULL), 0);
	assert_int_equal(pk_event_list_set_filter(&l, 0, "x == 1", msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "cpu-clock is not one"));
	/* a tracepoint, hand-made: the filter goes to it */
	l.ev[0].attr.type = PERF_TYPE_TRACEPOINT;
	assert_int_equal(pk_event_list_set_filter(&l, 0, "x == 1", msg, sizeof(msg)), 0);
	assert_string_equal(l.ev[0].filter, "x == 1");
	/* nothing after the last -e */
	assert_int_equal(pk_event_list_set_filter(&l, 1, "x == 1", msg, sizeof(msg)), -EINVAL);
	pk_event_list_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kprobe),
		cmocka_unit_test(test_uprobe),
		cmocka_unit_test(test_no_pmu),
		cmocka_unit_test(test_filter),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
