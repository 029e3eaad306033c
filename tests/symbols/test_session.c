// SPDX-License-Identifier: MIT
/* Unit tests of the session's process maps: overlapping MMAPs cut the old
 * maps as perf does, lookups find the right piece.  And the per-thread
 * counts of READ records (report -T): summed per thread and event, both
 * in the order they first came.  And the counts of samples without a
 * symbol per DSO, behind the hint of report, script and convert. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "session/session_internal.h"

static struct pk_dso dso_a, dso_b;

static void insert(struct pki_maps *m, uint64_t start, uint64_t end, uint64_t pgoff,
		   struct pk_dso *d)
{
	struct pki_map map = {.start = start, .end = end, .pgoff = pgoff, .dso = d};

	assert_int_equal(pki_maps_insert(m, &map), 0);
}

static void test_insert_and_find(void **state)
{
	struct pki_maps *m = pki_maps_new();
	const struct pki_map *hit;

	(void)state;
	insert(m, 0x3000, 0x4000, 0, &dso_a);
	insert(m, 0x1000, 0x2000, 0, &dso_b);
	assert_int_equal(m->nr, 2);
	assert_int_equal(m->v[0].start, 0x1000);
	hit = pki_maps_find(m, 0x3fff);
	assert_non_null(hit);
	assert_ptr_equal(hit->dso, &dso_a);
	assert_null(pki_maps_find(m, 0x2000));
	assert_null(pki_maps_find(m, 0x4000));
	pki_maps_put(m);
}

static void test_overlap_splits(void **state)
{
	struct pki_maps *m = pki_maps_new(), *copy;
	const struct pki_map *hit;

	(void)state;
	insert(m, 0x1000, 0x9000, 0x100000, &dso_a);
	/* a new map in the middle leaves a left and a right piece */
	insert(m, 0x3000, 0x5000, 0, &dso_b);
	assert_int_equal(m->nr, 3);
	hit = pki_maps_find(m, 0x2fff);
	assert_ptr_equal(hit->dso, &dso_a);
	assert_int_equal(hit->end, 0x3000);
	hit = pki_maps_find(m, 0x4000);
	assert_ptr_equal(hit->dso, &dso_b);
	hit = pki_maps_find(m, 0x5000);
	assert_ptr_equal(hit->dso, &dso_a);
	/* the right piece keeps its file offset */
	assert_int_equal(hit->pgoff, 0x100000 + 0x4000);
	/* a map covering everything replaces all */
	copy = pki_maps_clone(m);
	insert(m, 0, 0x10000, 0, &dso_b);
	assert_int_equal(m->nr, 1);
	assert_int_equal(copy->nr, 3);
	pki_maps_put(copy);
	pki_maps_put(m);
}

static void test_thread_counts(void **state)
{
	struct pk_session *s = calloc(1, sizeof(*s));
	struct pki_thread_counts *c;
	struct pk_attr a0 = {.index = 0}, a1 = {.index = 1};

	(void)state;
	assert_non_null(s);
	c = &s->counts;
	/* as if the reader had two events (the first record sets this up) */
	c->nr_attrs = 2;
	c->order = calloc(2, sizeof(*c->order));
	c->seen = calloc(2, sizeof(*c->seen));
	assert_int_equal(pki_thread_counts_add(s, &a1, 10, 11, 5), 0);
	assert_int_equal(pki_thread_counts_add(s, &a0, 10, 12, 7), 0);
	assert_int_equal(pki_thread_counts_add(s, &a1, 10, 11, 6), 0);
	assert_int_equal(pki_thread_counts_add(s, &a0, 10, 11, 1), 0);
	assert_int_equal(pki_thread_counts_add(s, NULL, 10, 13, 9), 0); /* no event */
	assert_int_equal(c->nr_threads, 2);
	assert_int_equal(c->pid[0], 10);
	assert_int_equal(c->tid[0], 11);
	assert_int_equal(c->tid[1], 12);
	assert_int_equal(c->nr_order, 2);
	assert_int_equal(c->order[0], 1); /* a1 came first */
	assert_int_equal(c->sums[0 * 2 + 1], 11);
	assert_int_equal(c->sums[0 * 2 + 0], 1);
	assert_int_equal(c->sums[1 * 2 + 0], 7);
	assert_int_equal(c->sums[1 * 2 + 1], 0);
	/* many threads: found again by hash, not lost */
	for (int32_t t = 100; t < 5000; t++)
		assert_int_equal(pki_thread_counts_add(s, &a0, 1, t, 1), 0);
	assert_int_equal(pki_thread_counts_add(s, &a0, 1, 4999, 1), 0);
	assert_int_equal(c->nr_threads, 2 + 4900);
	assert_int_equal(c->sums[(c->nr_threads - 1) * 2], 2);
	pki_thread_counts_free(c);
	free(s);
}

static void count(struct pk_session *s, struct pk_dso *d, bool resolved, int n)
{
	static const struct pk_symbol sym = {.start = 0, .end = 1, .name = "f"};
	struct pk_location loc = {.dso = d, .sym = resolved ? &sym : NULL};

	while (n--)
		pki_count_sample(s, &loc);
}

static void test_unresolved(void **state)
{
	struct pk_session *s = calloc(1, sizeof(*s));
	struct pk_build_id bid = {.size = 20, .data = {0xab, 0xcd}}, own;
	struct pk_dso *lib, *exe, *k, *anon, *none;
	struct pk_unresolved *u;

	(void)state;
	assert_non_null(s);
	lib = pki_dso_findnew(s, "/usr/lib/libfoo.so.1", &bid, false);
	/* no recorded build id: the file's own, read from it */
	exe = pki_dso_findnew(s, "/proc/self/exe", NULL, false);
	k = pki_dso_findnew(s, "[kernel.kallsyms]", NULL, true);
	anon = pki_dso_findnew(s, "//anon", NULL, false);
	none = pki_dso_findnew(s, "/usr/bin/resolved", NULL, false);
	count(s, lib, false, 31);
	count(s, lib, true, 9);
	count(s, exe, false, 5);
	count(s, k, false, 12);
	count(s, anon, false, 2);
	count(s, none, true, 40);
	count(s, NULL, false, 1); /* in no map: counted in the total only */
	assert_int_equal(pk_session_unresolved(s, &u), 0);
	assert_int_equal(u->nr_samples, 100);
	assert_int_equal(u->nr, 4); /* "resolved" had none */
	assert_string_equal(u->dso[0].name, "/usr/lib/libfoo.so.1");
	assert_int_equal(u->dso[0].unresolved, 31);
	assert_int_equal(u->dso[0].samples, 40);
	assert_true(u->dso[0].file);
	assert_false(u->dso[0].kernel);
	assert_memory_equal(&u->dso[0].bid, &bid, sizeof(bid));
	assert_false(u->dso[0].found); /* never loaded */
	assert_string_equal(u->dso[1].name, "[kernel.kallsyms]");
	assert_true(u->dso[1].kernel);
	assert_false(u->dso[1].file);
	assert_string_equal(u->dso[2].name, "/proc/self/exe");
	assert_int_equal(u->dso[2].unresolved, 5);
	if (!pk_elf_build_id("/proc/self/exe", &own)) {
		assert_int_equal(u->dso[2].bid.size, own.size);
		assert_memory_equal(u->dso[2].bid.data, own.data, own.size);
	}
	assert_string_equal(u->dso[3].name, "//anon");
	assert_false(u->dso[3].file);
	pki_dsos_free(s);
	/* the result outlives the session */
	assert_int_equal(strlen(u->dso[3].name), 6);
	pk_unresolved_free(u);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_insert_and_find),
		cmocka_unit_test(test_overlap_splits),
		cmocka_unit_test(test_thread_counts),
		cmocka_unit_test(test_unresolved),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
