// SPDX-License-Identifier: MIT
/*
 * Unit test of the entries' call trees (hist_callchain.c) where their
 * depth matters: perf orders entries of equal periods by it.  A tree's
 * max_depth is that of the longest chain appended; samples taken out
 * again (the replay moves them to where perf's lookups put them) take
 * their depth with them once redepthed; a merge keeps the depth of the
 * tree merged into, as perf's collapse does.
 *
 * And where perf's lookups of a node's children go astray: one DSO's
 * frames with a symbol and without one compare by symbol start among the
 * first, by address with the others, so perf's red-black tree of the
 * children can miss an equal one and hold a second.  The expected trees
 * are worked out by hand from perf's insertion (append_chain_children():
 * a new frame goes left of a child that compares lower than it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "report/hist_internal.h"
#include "session/session_internal.h"

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

/* One frame of DSO d into *root: in symbol sym (or none) at ip. */
static int append_frame(struct pki_arena *a, struct pk_callchain_node **root,
			const struct pk_dso *d, const struct pk_symbol *sym, uint64_t ip,
			uint64_t period)
{
	struct pk_frame f = {.loc = {.ip = ip, .addr = ip, .dso = d, .sym = sym}};

	return pki_callchain_append(a, root, &f, 0, 1, 1, period);
}

static const struct pk_symbol func = {.start = 0x100, .end = 0x200, .name = "func"};

static uint32_t children_in(const struct pk_callchain_node *root, const struct pk_symbol *sym)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < root->nr_children; i++)
		n += root->children[i]->sym == sym;
	return n;
}

/*
 * Unresolved 0x120 first (the root of perf's tree), then func at 0x150:
 * compared by address it goes left.  func again at 0x110 goes right of
 * 0x120 and never meets the first func: a second child of the same
 * symbol.  func at 0x130 goes left and finds the first.
 */
static void test_mixed_children_split(void **state)
{
	struct pk_dso d = {.serial = 1};
	struct pki_arena a = {0};
	struct pk_callchain_node *root = NULL;

	(void)state;
	assert_int_equal(append_frame(&a, &root, &d, NULL, 0x120, 5), 0);
	assert_int_equal(append_frame(&a, &root, &d, &func, 0x150, 2), 0);
	assert_int_equal(append_frame(&a, &root, &d, &func, 0x110, 1), 0);
	assert_int_equal(root->nr_children, 3);
	assert_int_equal(children_in(root, &func), 2);
	assert_int_equal(append_frame(&a, &root, &d, &func, 0x130, 4), 0);
	assert_int_equal(root->nr_children, 3);
	pki_callchain_sort(root);
	/* by period: the first func (2 + 4), 0x120, the second func */
	assert_ptr_equal(root->children[0]->sym, &func);
	assert_int_equal(root->children[0]->hit, 6);
	assert_null(root->children[1]->sym);
	assert_ptr_equal(root->children[2]->sym, &func);
	assert_int_equal(root->children[2]->hit, 1);
	pki_arena_free(&a);
}

/* Without the unresolved frame the same frames are one child. */
static void test_resolved_children_merge(void **state)
{
	struct pk_dso d = {.serial = 1};
	struct pki_arena a = {0};
	struct pk_callchain_node *root = NULL;

	(void)state;
	assert_int_equal(append_frame(&a, &root, &d, &func, 0x150, 2), 0);
	assert_int_equal(append_frame(&a, &root, &d, &func, 0x110, 1), 0);
	assert_int_equal(root->nr_children, 1);
	assert_int_equal(root->children[0]->hit, 3);
	pki_arena_free(&a);
}

/*
 * Equal periods print in perf's tree order, its in-order walk (the
 * greatest first): children 0x120, func at 0x150 (left), func at 0x110
 * (right) walk as func 0x150, 0x120, func 0x110; another DSO made later
 * ranks above them all, and its frame (left of 0x120 and of func 0x150)
 * comes first.
 */
static void test_mixed_children_order(void **state)
{
	struct pk_dso d = {.serial = 1}, later = {.serial = 2};
	struct pki_arena a = {0};
	struct pk_callchain_node *root = NULL;

	(void)state;
	assert_int_equal(append_frame(&a, &root, &d, NULL, 0x120, 1), 0);
	assert_int_equal(append_frame(&a, &root, &d, &func, 0x150, 1), 0);
	assert_int_equal(append_frame(&a, &root, &d, &func, 0x110, 1), 0);
	assert_int_equal(append_frame(&a, &root, &later, NULL, 0x10, 1), 0);
	pki_callchain_sort(root);
	assert_int_equal(root->nr_children, 4);
	assert_ptr_equal(root->children[0]->dso, &later);
	assert_int_equal(root->children[1]->ip, 0x150);
	assert_int_equal(root->children[2]->ip, 0x120);
	assert_int_equal(root->children[3]->ip, 0x110);
	pki_arena_free(&a);
}

/*
 * Inlined frames compare by name with frames that have a symbol, which
 * compare by start among themselves.  zeta (at 0x100) first; mid, an
 * inlined frame, goes right of it by name; alpha (at 0x300) left by
 * start.  alpha inlined somewhere else is equal to alpha by name, but
 * its search goes right of zeta and of mid by name and never meets it:
 * perf's node holds two alphas.
 */
static void test_inlined_children_split(void **state)
{
	static const struct pk_symbol
		zeta = {.start = 0x100, .end = 0x200, .name = "zeta"},
		alpha = {.start = 0x300, .end = 0x400, .name = "alpha"},
		mid = {.start = 0x500, .end = 0x600, .name = "mid", .inlined = true},
		alpha_inl = {.start = 0x500, .end = 0x600, .name = "alpha", .inlined = true};
	struct pk_dso d = {.serial = 1};
	struct pki_arena a = {0};
	struct pk_callchain_node *root = NULL;

	(void)state;
	assert_int_equal(append_frame(&a, &root, &d, &zeta, 0x150, 1), 0);
	assert_int_equal(append_frame(&a, &root, &d, &mid, 0x550, 1), 0);
	assert_int_equal(append_frame(&a, &root, &d, &alpha, 0x350, 1), 0);
	assert_int_equal(append_frame(&a, &root, &d, &alpha_inl, 0x560, 1), 0);
	assert_int_equal(root->nr_children, 4);
	/* mid again is found: the root's right child */
	assert_int_equal(append_frame(&a, &root, &d, &mid, 0x570, 1), 0);
	assert_int_equal(root->nr_children, 4);
	pki_arena_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_depth_of_appends),
		cmocka_unit_test(test_redepth_after_removal),
		cmocka_unit_test(test_redepth_whole_tree),
		cmocka_unit_test(test_merge_keeps_depth),
		cmocka_unit_test(test_mixed_children_split),
		cmocka_unit_test(test_resolved_children_merge),
		cmocka_unit_test(test_mixed_children_order),
		cmocka_unit_test(test_inlined_children_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
