// SPDX-License-Identifier: MIT
/*
 * Unit test of unwind_guess.c: the caller perf's libunwind guesses for an
 * x86-64 frame it has no CFI for, on a hand-made memory of code and
 * stack.  The rules under test (libunwind 1.6's x86-64 unw_step): a PLT
 * entry returns through the word at the stack pointer; otherwise the
 * frame pointer must be non-zero, at or above the stack pointer by at
 * most 0x4000, and point at a readable word with the return address after
 * it, and the caller's stack pointer is the frame's plus 16.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "session/unwind_internal.h"

#define CODE  0x400000ULL
#define STACK 0x7ffd0000ULL
#define SIZE  0x8000

struct memory {
	uint8_t code[64];
	uint8_t stack[SIZE];
};

static bool read_mem(void *arg, uint64_t addr, uint64_t *out)
{
	const struct memory *m = arg;

	if (addr >= CODE && addr + 8 <= CODE + sizeof(m->code)) {
		memcpy(out, m->code + (addr - CODE), 8);
		return true;
	}
	if (addr >= STACK && addr + 8 <= STACK + SIZE) {
		memcpy(out, m->stack + (addr - STACK), 8);
		return true;
	}
	return false;
}

static void put(struct memory *m, uint64_t addr, uint64_t v)
{
	memcpy(m->stack + (addr - STACK), &v, 8);
}

static struct memory mem;

static int setup(void **state)
{
	(void)state;
	memset(&mem, 0, sizeof(mem));
	return 0;
}

/* jmp *0x2fe2(%rip); push $3; jmp -0x40: a lazy-binding PLT entry */
static const uint8_t plt[] = {0xff, 0x25, 0xe2, 0x2f, 0x00, 0x00, 0x68, 0x03,
			      0x00, 0x00, 0x00, 0xe9, 0xc0, 0xff, 0xff, 0xff};

static void test_plt_entry(void **state)
{
	struct pki_guess_frame f = {.ip = CODE, .sp = STACK + 0x100, .fp = 5, .has_fp = true};
	struct pki_guess_frame c;

	(void)state;
	memcpy(mem.code, plt, sizeof(plt));
	put(&mem, STACK + 0x100, 0x401234);
	assert_true(pki_unwind_guess(&f, read_mem, &mem, &c));
	assert_int_equal(c.ip, 0x401234);
	assert_int_equal(c.sp, STACK + 0x108);
	/* the frame pointer is left alone, whatever it holds */
	assert_int_equal(c.fp, 5);
	assert_true(c.has_fp);
	/* no frame pointer value: the end, PLT or not */
	f.has_fp = false;
	assert_false(pki_unwind_guess(&f, read_mem, &mem, &c));
}

static void test_frame_pointer(void **state)
{
	struct pki_guess_frame f = {
		.ip = CODE, .sp = STACK + 0x100, .fp = STACK + 0x180, .has_fp = true};
	struct pki_guess_frame c;

	(void)state;
	put(&mem, STACK + 0x180, STACK + 0x300);
	put(&mem, STACK + 0x188, 0x402000);
	assert_true(pki_unwind_guess(&f, read_mem, &mem, &c));
	assert_int_equal(c.ip, 0x402000);
	assert_int_equal(c.fp, STACK + 0x300);
	/* libunwind's guess: 16 above the frame's stack pointer */
	assert_int_equal(c.sp, STACK + 0x110);
	/* a return address of 0 is still a caller (perf shows it) */
	put(&mem, STACK + 0x188, 0);
	assert_true(pki_unwind_guess(&f, read_mem, &mem, &c));
	assert_int_equal(c.ip, 0);
}

static void test_frame_pointer_reach(void **state)
{
	struct pki_guess_frame f = {.ip = CODE, .sp = STACK + 0x100, .has_fp = true};
	struct pki_guess_frame c;

	(void)state;
	f.fp = f.sp + 0x4000; /* as far as it may be */
	put(&mem, f.fp + 8, 0x403000);
	assert_true(pki_unwind_guess(&f, read_mem, &mem, &c));
	assert_int_equal(c.ip, 0x403000);
	f.fp = f.sp + 0x4008; /* further */
	put(&mem, f.fp + 8, 0x403000);
	assert_false(pki_unwind_guess(&f, read_mem, &mem, &c));
	f.fp = f.sp - 0x10; /* below the stack pointer */
	assert_false(pki_unwind_guess(&f, read_mem, &mem, &c));
	f.fp = 0;
	assert_false(pki_unwind_guess(&f, read_mem, &mem, &c));
	f.fp = 3; /* a small integer, as optimized code leaves in rbp */
	assert_false(pki_unwind_guess(&f, read_mem, &mem, &c));
}

/* The two words at the frame pointer must be readable. */
static void test_unreadable(void **state)
{
	struct pki_guess_frame f = {
		.ip = CODE, .sp = STACK + SIZE - 0x40, .fp = STACK + SIZE - 8, .has_fp = true};
	struct pki_guess_frame c;

	(void)state;
	assert_false(pki_unwind_guess(&f, read_mem, &mem, &c));
	f.fp = STACK + SIZE - 16;
	assert_true(pki_unwind_guess(&f, read_mem, &mem, &c));
	/* code that cannot be read is no PLT entry, the frame pointer rules */
	f.ip = 0x10;
	assert_true(pki_unwind_guess(&f, read_mem, &mem, &c));
	assert_int_equal(c.sp, f.sp + 16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_plt_entry, setup),
		cmocka_unit_test_setup(test_frame_pointer, setup),
		cmocka_unit_test_setup(test_frame_pointer_reach, setup),
		cmocka_unit_test_setup(test_unreadable, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
