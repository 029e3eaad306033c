// SPDX-License-Identifier: MIT
/*
 * Unit test of the entries' call trees (hist_callchain.c) where their
 * depth matters: perf orders entries of equal periods by it.  A tree's
 * max_depth is that of the longest chain appended; samples taken out
 * again (the replay moves them to where perf's lookups put them) take
 * their depth with them once redepthed; a merge keeps the depth of the
 * tree merged into, as perf's collapse does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "report/hist_internal.h"

#define NR_FRAMES 8

/* A chain of n unresolved frames at ips 0x1000, 0x1001, ... (root first
 * when appended forward). */
static void make_chain(struct pk_frame *f, size_t n, uint64_t base)
{
	memset(f, 0, n * sizeof(*f));
	for (size_t i = 0; i < n; i++)
		f[i].loc.ip = f[i].loc.addr = base + i;
}

static int append(struct pki_arena *a, struct pk_callchain_node **root, size_t n, uint64_t base,
		  uint64_t period)
{
	struct pk_frame f[NR_FRAMES];

	make_chain(f, n, base);
	return pki_callchain_append(a, root, f, 0, n, 1, period);
}

static void test_depth_of_appends(void **state)
{
	struct pki_arena a = {0};
	struct pk_callchain_node *root = NULL;

	(void)state;
	assert_int_equal(append(&a, &root, 5, 0x1000, 10), 0);
	assert_int_equal(root->max_depth, 5);
	assert_int_equal(append(&a, &root, 3, 0x1000, 20), 0);
	assert_int_equal(root->max_depth, 5);
	assert_int_equal(root->children_hit, 30);
	pki_arena_free(&a);
}

/* The longest chain's samples leave: the depth is the next one's. */
static void test_redepth_after_removal(void **state)
{
	struct pki_arena a = {0};
	struct pk_callchain_node *root = NULL;

	(void)state;
	assert_int_equal(append(&a, &root, 5, 0x1000, 10), 0);
	assert_int_equal(append(&a, &root, 3, 0x1000, 20), 0);
	assert_int_equal(append(&a, &root, 2, 0x2000, 5), 0);
	/* taken out as the replay does: the same chain, the period negated */
	assert_int_equal(append(&a, &root, 5, 0x1000, (uint64_t)-10), 0);
	assert_int_equal(root->max_depth, 5); /* appends only raise it */
	pki_callchain_redepth(root);
	assert_int_equal(root->max_depth, 3);
	/* nothing left at depth 3 either: the other branch's */
	assert_int_equal(append(&a, &root, 3, 0x1000, (uint64_t)-20), 0);
	pki_callchain_redepth(root);
	assert_int_equal(root->max_depth, 2);
	pki_arena_free(&a);
}

/* Redepthing a tree nothing left changes nothing. */
static void test_redepth_whole_tree(void **state)
{
	struct pki_arena a = {0};
	struct pk_callchain_node *root = NULL;

	(void)state;
	assert_int_equal(append(&a, &root, 7, 0x1000, 1), 0);
	assert_int_equal(append(&a, &root, 4, 0x3000, 1), 0);
	pki_callchain_redepth(root);
	assert_int_equal(root->max_depth, 7);
	pki_arena_free(&a);
}

/* A merged tree keeps its own depth (deferred, as while the trees are
 * sorted in another thread: the merge is noted, the depth set now). */
static void test_merge_keeps_depth(void **state)
{
	struct pki_arena a = {.defer = true}, b = {0};
	struct pk_callchain_node *dst = NULL, *src = NULL;

	(void)state;
	assert_int_equal(append(&a, &dst, 2, 0x1000, 1), 0);
	assert_int_equal(append(&b, &src, 6, 0x1000, 1), 0);
	assert_int_equal(pki_callchain_merge(&a, &dst, src), 0);
	assert_int_equal(dst->max_depth, 2);
	assert_int_equal(a.nr_deferred, 1);
	pki_arena_free(&a);
	pki_arena_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_depth_of_appends),
		cmocka_unit_test(test_redepth_after_removal),
		cmocka_unit_test(test_redepth_whole_tree),
		cmocka_unit_test(test_merge_keeps_depth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
