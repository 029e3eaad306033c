// SPDX-License-Identifier: MIT
/*
 * Unit tests of pk_symtab_load_vmlinux() on an image that
 * fake_vmlinux.py made at build time from vmlinux_fixture.kallsyms: linked
 * 1 MiB below where the fixture's kernel ran, with build id 0011...2233.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <perfkit/symbols.h>

#define RAN_AT	  0xffffffff81000000ULL	/* _text where the kernel ran */
#define LINKED_AT 0xffffffff80f00000ULL	/* _text in the image */

static const char *image;

static struct pk_build_id fixture_id(void)
{
	static const uint8_t id[] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
				     0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd,
				     0xee, 0xff, 0x00, 0x11, 0x22, 0x33};
	struct pk_build_id bid = {.size = sizeof(id)};

	memcpy(bid.data, id, sizeof(id));
	return bid;
}

static const char *name_at(const struct pk_symtab *st, uint64_t addr)
{
	const struct pk_symbol *s = pk_symtab_lookup(st, addr);

	return s ? s->name : "(none)";
}

static void test_relocated(void **state)
{
	struct pk_build_id bid = fixture_id();
	struct pk_symtab *st;

	(void)state;
	assert_int_equal(pk_symtab_load_vmlinux(&st, image, &bid, "_text", RAN_AT, NULL), 0);
	assert_string_equal(name_at(st, RAN_AT + 0x150), "alpha");
	/* two globals at one address: the one with fewer underscores, as perf */
	assert_string_equal(name_at(st, RAN_AT + 0x210), "beta");
	assert_string_equal(name_at(st, RAN_AT + 0x450), "weak_fn");
	/* nothing at the link-time addresses */
	assert_string_equal(name_at(st, LINKED_AT + 0x150), "(none)");
	pk_symtab_free(st);
}

static void test_not_relocated(void **state)
{
	struct pk_symtab *st;

	(void)state;
	/* no reference symbol, or one the image lacks: symbols stay put */
	assert_int_equal(pk_symtab_load_vmlinux(&st, image, NULL, NULL, 0, NULL), 0);
	assert_string_equal(name_at(st, LINKED_AT + 0x150), "alpha");
	pk_symtab_free(st);
	assert_int_equal(pk_symtab_load_vmlinux(&st, image, NULL, "nosuch", RAN_AT, NULL), 0);
	assert_string_equal(name_at(st, LINKED_AT + 0x150), "alpha");
	pk_symtab_free(st);
}

static void test_unusable(void **state)
{
	struct pk_build_id bid = fixture_id();
	struct pk_symtab *st = (struct pk_symtab *)1;
	char path[] = "/tmp/pk-vmlinux-XXXXXX";
	int fd;

	(void)state;
	bid.data[0] ^= 1;
	assert_int_equal(pk_symtab_load_vmlinux(&st, image, &bid, "_text", RAN_AT, NULL),
			 -ENOENT);
	assert_null(st);
	assert_int_equal(pk_symtab_load_vmlinux(&st, "/nonexistent/vmlinux", NULL, NULL, 0,
						NULL),
			 -ENOENT);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "not an ELF file\n", 16), 16);
	close(fd);
	assert_int_equal(pk_symtab_load_vmlinux(&st, path, NULL, NULL, 0, NULL), -EINVAL);
	assert_null(st);
	unlink(path);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_relocated),
		cmocka_unit_test(test_not_relocated),
		cmocka_unit_test(test_unusable),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: test_vmlinux IMAGE\n");
		return 2;
	}
	image = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
