// SPDX-License-Identifier: MIT
/* Unit tests of the symbols module: ELF, kallsyms, perf maps, demangling,
 * and bad input that must give an error, never a crash. */
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
#include "symbols/rbsim.h"
#include "symbols/symtab_internal.h"

__attribute__((noinline, used)) int symbols_test_marker(int x)
{
	return x * 3 + 1;
}

static char *write_temp(const char *content, size_t len)
{
	char *path = strdup("/tmp/pk-symtest-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, len), (ssize_t)len);
	close(fd);
	return path;
}

static void test_elf_self(void **state)
{
	struct pk_symtab *st = NULL;
	const struct pk_symbol *marker = NULL, *hit;

	(void)state;
	assert_int_equal(pk_symtab_load_elf(&st, "/proc/self/exe", NULL, NULL), 0);
	for (size_t i = 0; i < pk_symtab_count(st); i++) {
		const struct pk_symbol *s = pk_symtab_at(st, i);

		if (!strcmp(s->name, "symbols_test_marker"))
			marker = s;
		if (i)
			assert_true(pk_symtab_at(st, i - 1)->start < s->start);
	}
	assert_non_null(marker);
	assert_true(marker->end > marker->start);
	hit = pk_symtab_lookup(st, marker->start + 1);
	assert_ptr_equal(hit, marker);
	pk_symtab_free(st);
}

static void test_elf_missing_and_corrupt(void **state)
{
	struct pk_symtab *st = (struct pk_symtab *)1;
	char junk[4096];
	char *path;
	FILE *f;
	long n;

	(void)state;
	assert_int_equal(pk_symtab_load_elf(&st, "/nonexistent/binary", NULL, NULL), -ENOENT);
	assert_null(st);
	memset(junk, 0x41, sizeof(junk));
	memcpy(junk, "\177ELF\2\1\1", 7);
	path = write_temp(junk, sizeof(junk));
	assert_true(pk_symtab_load_elf(&st, path, NULL, NULL) < 0);
	unlink(path);
	free(path);
	/* a truncated copy of a real binary */
	f = fopen("/proc/self/exe", "rb");
	assert_non_null(f);
	n = (long)fread(junk, 1, sizeof(junk), f);
	fclose(f);
	path = write_temp(junk, (size_t)n);
	if (pk_symtab_load_elf(&st, path, NULL, NULL) == 0)
		pk_symtab_free(st);
	unlink(path);
	free(path);
}

static void test_elf_build_id_mismatch(void **state)
{
	struct pk_build_id bid = {.size = 20};
	struct pk_symtab *st;

	(void)state;
	memset(bid.data, 0xab, 20);
	/* the binary exists but is another build: no symbols, like perf */
	assert_int_equal(pk_symtab_load_elf(&st, "/proc/self/exe", &bid, NULL), -ENOENT);
}

static void test_kallsyms(void **state)
{
	static const char text[] = "ffffffff81000000 T _text\n"
				   "ffffffff81000000 T _stext\n"
				   "ffffffff81000100 t alpha\n"
				   "ffffffff81000200 T beta\n"
				   "ffffffff81000200 T __beta_alias\n"
				   "ffffffff81000300 r ignored_rodata\n"
				   "ffffffff81000400 d some_data\n"
				   "ffffffffc0000000 t mod_fn\t[mymod]\n"
				   "garbage line\n"
				   "ffffffffc0000100 T mod_fn2\t[mymod]\n";
	struct pk_symtab_opts opts = {.sz = sizeof(opts), .reloc = 0x1000};
	char *path = write_temp(text, sizeof(text) - 1);
	struct pk_symtab *st;
	const struct pk_symbol *s;

	(void)state;
	assert_int_equal(pk_kallsyms_lookup_name(path, "beta"), 0xffffffff81000200ULL);
	assert_int_equal(pk_symtab_load_kallsyms(&st, path, NULL), 0);
	s = pk_symtab_lookup(st, 0xffffffff81000150ULL);
	assert_non_null(s);
	assert_string_equal(s->name, "alpha");
	assert_int_equal(s->end, 0xffffffff81000200ULL);
	/* of two symbols at one address the later one stays */
	s = pk_symtab_lookup(st, 0xffffffff81000210ULL);
	assert_string_equal(s->name, "__beta_alias");
	/* 'r' symbols are not kept: beta runs up to some_data */
	s = pk_symtab_lookup(st, 0xffffffff81000350ULL);
	assert_string_equal(s->name, "__beta_alias");
	s = pk_symtab_lookup(st, 0xffffffffc0000010ULL);
	assert_string_equal(s->name, "mod_fn");
	for (size_t i = 0; i < pk_symtab_count(st); i++)
		if (pk_symtab_at(st, i) == s)
			assert_string_equal(pk_symtab_module(st, i), "mymod");
	pk_symtab_free(st);
	/* relocation moves every symbol down by reloc */
	assert_int_equal(pk_symtab_load_kallsyms(&st, path, &opts), 0);
	s = pk_symtab_lookup(st, 0xffffffff81000150ULL - 0x1000);
	assert_string_equal(s->name, "alpha");
	pk_symtab_free(st);
	unlink(path);
	free(path);
}

/*
 * The layouts kallsyms has on other machines: module symbols after the
 * kernel's, out of address order, modules coming back after another;
 * an address too long to be one; no newline at the end.
 */
static void test_kallsyms_layout(void **state)
{
	static const char text[] = "ffffffff81000000 T _text\n"
				   "ffffffff81000100 T first\n"
				   "ffffffffc0000300 t late_fn\t[moda]\n"
				   "ffffffffc0000100 t early_fn\t[moda]\n"
				   "ffffffffc0001000 t b_fn\t[modb]\n"
				   "ffffffffc0000200 t mid_fn\t[moda]\n"
				   "1ffffffff81000180 T too_long\n"
				   "ffffffffc0002000 T last_fn\t[modb]";
	char *path = write_temp(text, sizeof(text) - 1);
	struct pk_symtab *st;
	const struct pk_symbol *s;

	(void)state;
	assert_int_equal(pk_symtab_load_kallsyms(&st, path, NULL), 0);
	assert_int_equal(pk_symtab_count(st), 7);
	assert_string_equal(pk_symtab_lookup(st, 0xffffffffc0000150ULL)->name, "early_fn");
	assert_string_equal(pk_symtab_lookup(st, 0xffffffffc0000250ULL)->name, "mid_fn");
	assert_string_equal(pk_symtab_lookup(st, 0xffffffffc0000350ULL)->name, "late_fn");
	/* first runs on to the page after it: the next symbol is a module's */
	assert_string_equal(pk_symtab_lookup(st, 0xffffffff81000190ULL)->name, "first");
	s = pk_symtab_lookup(st, 0xffffffffc0002010ULL);
	assert_string_equal(s->name, "last_fn");
	for (size_t i = 0; i < pk_symtab_count(st); i++) {
		const char *name = pk_symtab_at(st, i)->name;

		if (!strcmp(name, "mid_fn") || !strcmp(name, "late_fn"))
			assert_string_equal(pk_symtab_module(st, i), "moda");
		if (!strcmp(name, "b_fn") || !strcmp(name, "last_fn"))
			assert_string_equal(pk_symtab_module(st, i), "modb");
	}
	pk_symtab_free(st);
	unlink(path);
	free(path);
}

static void test_perf_map(void **state)
{
	static const char text[] = "7f0000001000 40 jitted_fn\n"
				   "7f0000002000 10 Foo::bar(int)\n"
				   "not a line\n";
	char *path = write_temp(text, sizeof(text) - 1);
	struct pk_symtab *st;
	const struct pk_symbol *s;

	(void)state;
	assert_int_equal(pk_symtab_load_perf_map(&st, path, NULL), 0);
	assert_int_equal(pk_symtab_count(st), 2);
	s = pk_symtab_lookup(st, 0x7f000000103fULL);
	assert_string_equal(s->name, "jitted_fn");
	assert_null(pk_symtab_lookup(st, 0x7f0000001040ULL));
	pk_symtab_free(st);
	unlink(path);
	free(path);
	assert_int_equal(pk_symtab_load_perf_map(&st, "/tmp/perf-0-none.map", NULL), -ENOENT);
}

static void check_demangle(const char *in, const char *want)
{
	char *out = pk_demangle(in);

	if (!want) {
		assert_null(out);
		return;
	}
	if (!out)
		skip(); /* no C++ runtime to demangle with */
	assert_string_equal(out, want);
	free(out);
}

static void test_demangle(void **state)
{
	(void)state;
	check_demangle("main", NULL);
	check_demangle("_Zinvalid!", NULL);
	/* perf 6.1 prints names without parameters */
	check_demangle("_ZN2ns1WIlE4spinEl", "ns::W<long>::spin");
	check_demangle("_ZNK3Foo3getEv", "Foo::get");
	check_demangle("_Z3maxIiET_S0_S0_", "max<int>");
	check_demangle("_ZN4core3fmt5write17h0123456789abcdefE", "core::fmt::write");
	/* conversion operators keep their type (perf report on libLLVM) */
	check_demangle("_ZNK4llvm8TypeSizecvmEv", "llvm::TypeSize::operator unsigned long");
	check_demangle("_ZN3FooclEi", "Foo::operator()");
	check_demangle("_Znwm", "operator new");
}


/* Preorder of the tree as "start colour" pairs, e.g. "4B 2B 1B ...". */
static void preorder(const struct pki_rbsim *t, uint32_t n, char *out, size_t len)
{
	size_t used = strlen(out);

	if (n == PKI_RBIDX_NIL)
		return;
	snprintf(out + used, len - used, "%s%llu%c", used ? " " : "",
		 (unsigned long long)t->start[n], t->rb.red[n] ? 'R' : 'B');
	preorder(t, t->rb.left[n], out, len);
	preorder(t, t->rb.right[n], out, len);
}

/* Black height of the subtree, or -1 when a red-black rule is broken. */
static int black_height(const struct pki_rbsim *t, uint32_t n, uint32_t parent)
{
	const struct pki_rbidx *rb = &t->rb;
	uint32_t left, right;
	int l, r;

	if (n == PKI_RBIDX_NIL)
		return 1;
	left = rb->left[n];
	right = rb->right[n];
	if (rb->parent[n] != parent ||
	    (rb->red[n] && parent != PKI_RBIDX_NIL && rb->red[parent]))
		return -1;
	if ((left != PKI_RBIDX_NIL && t->start[left] > t->start[n]) ||
	    (right != PKI_RBIDX_NIL && t->start[right] < t->start[n]))
		return -1;
	l = black_height(t, left, n);
	r = black_height(t, right, n);
	if (l < 0 || l != r)
		return -1;
	return l + !rb->red[n];
}

/*
 * The kernel's rbtree after inserting 1..10 in order, and the rules kept
 * through many insertions and removals (equal keys included).
 */
static void test_rbsim(void **state)
{
	struct pki_rbsim t;
	char shape[256] = "";
	uint32_t x = 12345;

	(void)state;
	assert_int_equal(pki_rbsim_init(&t, 2000), 0);
	for (int i = 0; i < 10; i++)
		pki_rbsim_insert(&t, i, (uint64_t)i + 1);
	preorder(&t, t.rb.root, shape, sizeof(shape));
	assert_string_equal(shape, "4B 2B 1B 3B 6B 5B 8R 7B 9B 10R");
	pki_rbsim_erase(&t, 3); /* 4, the root: its successor 5 replaces it */
	shape[0] = '\0';
	preorder(&t, t.rb.root, shape, sizeof(shape));
	assert_string_equal(shape, "5B 2B 1B 3B 8B 6B 7R 9B 10R");
	for (int i = 10; i < 2000; i++) {
		x = x * 1103515245 + 12345;
		pki_rbsim_insert(&t, i, (x >> 16) % 500);
	}
	assert_true(black_height(&t, t.rb.root, PKI_RBIDX_NIL) > 0);
	for (int i = 10; i < 2000; i += 3)
		pki_rbsim_erase(&t, i);
	assert_true(black_height(&t, t.rb.root, PKI_RBIDX_NIL) > 0);
	pki_rbsim_free(&t);
}

/* A link tells which nodes its rotations turned (the replay of perf's
 * lookups keys its memo on them): 1, 2, 3 in a row rotate 1 and 2; a
 * fourth only recolours. */
static void test_rbidx_turned(void **state)
{
	struct pki_rbsim t;

	(void)state;
	assert_int_equal(pki_rbsim_init(&t, 8), 0);
	pki_rbsim_insert(&t, 0, 1);
	pki_rbsim_insert(&t, 1, 2);
	assert_int_equal(t.rb.nr_turned, 0);
	pki_rbsim_insert(&t, 2, 3);
	assert_int_equal(t.rb.nr_turned, 2);
	assert_int_equal(t.rb.turned[0], 0);
	assert_int_equal(t.rb.turned[1], 1);
	assert_int_equal(t.rb.root, 1);
	pki_rbsim_insert(&t, 3, 4);
	assert_int_equal(t.rb.nr_turned, 0);
	pki_rbsim_free(&t);
}

static void add(struct pk_symtab *st, uint64_t start, uint64_t size, const char *name)
{
	assert_int_equal(pki_symtab_add_raw(st, start, size, name, PKI_BIND_GLOBAL, 0), 0);
}

static const char *name_at(const struct pk_symtab *st, uint64_t addr)
{
	const struct pk_symbol *s = pk_symtab_lookup(st, addr);

	return s ? s->name : "(none)";
}

/*
 * gcc's layout: _init without a size before .plt, stubs added after the
 * ends are fixed.  Which symbol covers a stub depends on the tree:
 * loaded as a, _init, main, _init is the root when the stub arrives, so
 * every address it covers is _init's; loaded as _init, main, the stub
 * becomes the root and wins its own range, and past the stubs the walk
 * never reaches _init.
 */
static void test_plt_overlap(void **state)
{
	struct pk_symtab *st = pki_symtab_new(NULL);

	(void)state;
	assert_non_null(st);
	add(st, 0x900, 0x10, "a");
	add(st, 0x1000, 0, "_init");
	add(st, 0x1100, 0x10, "main");
	pki_symtab_mark_late(st);
	add(st, 0x1030, 0x10, "qsort@plt");
	assert_int_equal(pki_symtab_finish(st, PKI_FIXUP_ELF), 0);
	assert_string_equal(name_at(st, 0x1000), "_init");
	assert_string_equal(name_at(st, 0x1030), "_init");
	assert_string_equal(name_at(st, 0x103f), "_init");
	assert_string_equal(name_at(st, 0x10ff), "_init");
	assert_string_equal(name_at(st, 0x1100), "main");
	assert_string_equal(name_at(st, 0x90f), "a");
	assert_string_equal(name_at(st, 0x910), "(none)");
	assert_int_equal(pk_symtab_lookup(st, 0x1030)->end, 0x1100);
	pk_symtab_free(st);

	st = pki_symtab_new(NULL);
	assert_non_null(st);
	add(st, 0x1000, 0, "_init");
	add(st, 0x1100, 0x10, "main");
	pki_symtab_mark_late(st);
	add(st, 0x1030, 0x10, "qsort@plt");
	add(st, 0x1040, 0x10, "strlen@plt");
	assert_int_equal(pki_symtab_finish(st, PKI_FIXUP_ELF), 0);
	assert_string_equal(name_at(st, 0x102f), "_init");
	assert_string_equal(name_at(st, 0x1030), "qsort@plt");
	assert_string_equal(name_at(st, 0x1040), "strlen@plt");
	/* qsort@plt (root) -> main -> strlen@plt -> nothing: _init is missed */
	assert_string_equal(name_at(st, 0x1050), "(none)");
	assert_string_equal(name_at(st, 0x1110), "(none)");
	pk_symtab_free(st);
}

/*
 * gcc's .data end and .bss start: a local completed.0 of size 1 loaded
 * (locals come first) before a global __TMC_END__ of size 0 at the same
 * address.  perf gives __TMC_END__ its end (the next symbol's start)
 * before it drops aliases, and then keeps the global one (perf script -F
 * +addr of a page fault there names __TMC_END__).
 */
static void test_alias_after_ends(void **state)
{
	struct pk_symtab *st = pki_symtab_new(NULL);

	(void)state;
	assert_non_null(st);
	assert_int_equal(pki_symtab_add_raw(st, 0x4048, 1, "completed.0", PKI_BIND_LOCAL, 0), 0);
	assert_int_equal(pki_symtab_add_raw(st, 0x4048, 0, "__TMC_END__", PKI_BIND_GLOBAL, 0), 0);
	add(st, 0x4050, 8, "later");
	assert_int_equal(pki_symtab_finish(st, PKI_FIXUP_ELF), 0);
	assert_string_equal(name_at(st, 0x4048), "__TMC_END__");
	assert_int_equal(pk_symtab_lookup(st, 0x4048)->end, 0x4050);
	pk_symtab_free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elf_self),
		cmocka_unit_test(test_elf_missing_and_corrupt),
		cmocka_unit_test(test_elf_build_id_mismatch),
		cmocka_unit_test(test_kallsyms),
		cmocka_unit_test(test_perf_map),
		cmocka_unit_test(test_demangle),
		cmocka_unit_test(test_rbsim),
		cmocka_unit_test(test_rbidx_turned),
		cmocka_unit_test(test_plt_overlap),
		cmocka_unit_test(test_alias_after_ends),
		cmocka_unit_test(test_kallsyms_layout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
