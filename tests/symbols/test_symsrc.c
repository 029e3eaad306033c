// SPDX-License-Identifier: MIT
/*
 * Symbol sources: the order in which files are tried, which of them may
 * place symbols (never a debug file), and MiniDebugInfo's limits.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "symbols/elf_internal.h"

static const struct pk_build_id bid = {
	.size = 20,
	.data = {0xab, 0xcd, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12},
};
#define REST "cd0102030405060708090a0b0c0d0e0f101112"

static void expect_list(const struct pki_symsrc_list *c, const char *const *want, int n)
{
	assert_int_equal(c->nr, n);
	for (int i = 0; i < n; i++)
		assert_string_equal(c->path[i], want[i]);
}

static void test_order(void **state)
{
	struct pk_symtab_opts o = {.sz = sizeof(o), .buildid_dir = "/c", .debug_dir = "/d"};
	static struct pki_symsrc_list c;
	static const char *const want[] = {
		"/c/.build-id/ab/" REST "/elf", "/c/.build-id/ab/" REST "/debug",
		"/d/.build-id/ab/" REST ".debug", "/d/no/such/bin", "/d/no/such/bin.debug",
		"/no/such/bin",
	};

	(void)state;
	pki_symsrc_list(&c, "/no/such/bin", &bid, &o);
	expect_list(&c, want, 6);
}

static void test_order_symfs(void **state)
{
	struct pk_symtab_opts o = {.sz = sizeof(o), .buildid_dir = "/c", .symfs = "/r"};
	static struct pki_symsrc_list c;
	static const char *const want[] = {
		"/c/.build-id/ab/" REST "/elf", "/c/.build-id/ab/" REST "/debug",
		"/r/usr/lib/debug/.build-id/ab/" REST ".debug", "/r/usr/lib/debug/no/bin",
		"/r/usr/lib/debug/no/bin.debug", "/r/no/bin",
	};

	(void)state;
	pki_symsrc_list(&c, "/no/bin", &bid, &o);
	expect_list(&c, want, 6);
}

/* An options struct from before symfs existed: the field is not read. */
static void test_old_opts(void **state)
{
	struct pk_symtab_opts o = {.sz = offsetof(struct pk_symtab_opts, symfs),
				   .buildid_dir = "/c", .symfs = "/r"};
	static struct pki_symsrc_list c;

	(void)state;
	pki_symsrc_list(&c, "/no/bin", NULL, &o);
	assert_int_equal(c.nr, 3);
	assert_string_equal(c.path[2], "/no/bin");
}

static void test_buildid_dir(void **state)
{
	char buf[256];

	(void)state;
	setenv("PERF_BUILDID_DIR", "/env", 1);
	assert_string_equal(pki_buildid_dir(NULL, buf, sizeof(buf)), "/env");
	unsetenv("PERF_BUILDID_DIR");
	setenv("HOME", "/h", 1);
	assert_string_equal(pki_buildid_dir(NULL, buf, sizeof(buf)), "/h/.debug");
}

/* A one-segment ELF whose executable PT_LOAD has exec_bytes in the file. */
static void make_elf(const char *path, uint64_t exec_bytes)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	Elf *e;
	GElf_Ehdr eh;
	GElf_Phdr ph = {.p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_vaddr = 0x1000,
			.p_offset = 0, .p_filesz = exec_bytes, .p_memsz = 0x100,
			.p_align = 0x1000};

	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	assert_non_null(e);
	assert_non_null(gelf_newehdr(e, ELFCLASS64));
	assert_non_null(gelf_getehdr(e, &eh));
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_type = ET_DYN;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	assert_true(gelf_update_ehdr(e, &eh));
	assert_non_null(gelf_newphdr(e, 1));
	assert_true(gelf_update_phdr(e, 0, &ph));
	assert_true(elf_update(e, ELF_C_WRITE) > 0);
	elf_end(e);
	close(fd);
}

static void test_debug_file_is_no_image(void **state)
{
	char path[] = "/tmp/pk-symsrc-XXXXXX";
	int fd = mkstemp(path);
	struct pki_elf_file f;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	make_elf(path, 0x100);
	assert_int_equal(pki_elf_file_open(&f, path), 0);
	assert_true(pki_elf_is_image(f.elf));
	pki_elf_file_close(&f);
	make_elf(path, 0);
	assert_int_equal(pki_elf_file_open(&f, path), 0);
	assert_false(pki_elf_is_image(f.elf));
	pki_elf_file_close(&f);
	unlink(path);
}

/* Only a debug file: no runtime image, so no symbols rather than wrong ones. */
static void test_debug_file_alone(void **state)
{
	char dir[] = "/tmp/pk-symsrc-XXXXXX", path[64];
	struct pk_symtab_opts o = {.sz = sizeof(o), .buildid_dir = "/nonexistent"};
	struct pki_symsrc src;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/bin", dir);
	make_elf(path, 0);
	assert_int_equal(pki_symsrc_find(&src, path, NULL, &o), -ENOENT);
	assert_null(src.syms.elf);
	assert_null(src.runtime.elf);
	pki_symsrc_close(&src);
	make_elf(path, 0x100);
	assert_int_equal(pki_symsrc_find(&src, path, NULL, &o), 0);
	assert_non_null(src.runtime.elf);
	pki_symsrc_close(&src);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_order_symfs),
		cmocka_unit_test(test_old_opts),
		cmocka_unit_test(test_buildid_dir),
		cmocka_unit_test(test_debug_file_is_no_image),
		cmocka_unit_test(test_debug_file_alone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
