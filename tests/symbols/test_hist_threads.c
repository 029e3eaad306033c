// SPDX-License-Identifier: MIT
/*
 * The threaded histogram build (sample pipeline, entries built by one or
 * two workers, call trees sorted by two threads) must give exactly what one
 * thread gives: the same entries in the same order, with the same periods
 * and the same call trees.  Checked on corpus recordings with callchains,
 * in the views that use each stage.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <perfkit/report.h>
#include <perfkit/session.h>

static const char *const files[] = {
	"quipper/perf.data.callgraph-3.8",
	"quipper/perf.data.systemwide.5-3.4",
	"quipper/perf.data.forkexit-3.4",
};

static struct pk_hist *build_limited(const char *path, uint32_t threads, bool children,
				     int callchain, double limit, struct pk_session **s)
{
	struct pk_hist_opts o = {.sz = sizeof(o),
				 .children = children,
				 .callchain = callchain,
				 .nr_threads = threads,
				 .callchain_min_percent = limit};
	struct pk_hist *h = NULL;

	assert_int_equal(pk_session_open(s, path, NULL), 0);
	assert_int_equal(pk_hist_build(&h, *s, &o), 0);
	return h;
}

static struct pk_hist *build(const char *path, uint32_t threads, bool children, int callchain,
			     struct pk_session **s)
{
	return build_limited(path, threads, children, callchain, 0, s);
}

static void same_tree(const struct pk_callchain_node *a, const struct pk_callchain_node *b)
{
	if (!a || !b) {
		assert_true(a == b);
		return;
	}
	assert_int_equal(a->hit, b->hit);
	assert_int_equal(a->children_hit, b->children_hit);
	assert_int_equal(a->ip, b->ip);
	assert_int_equal(a->nr_children, b->nr_children);
	assert_string_equal(a->sym ? a->sym->name : "", b->sym ? b->sym->name : "");
	for (uint32_t i = 0; i < a->nr_children; i++)
		same_tree(a->children[i], b->children[i]);
}

static void same_entry(const struct pk_hist_entry *a, const struct pk_hist_entry *b)
{
	assert_string_equal(a->comm, b->comm);
	assert_string_equal(pk_dso_name(a->dso), pk_dso_name(b->dso));
	assert_string_equal(a->sym ? a->sym->name : "", b->sym ? b->sym->name : "");
	assert_int_equal(a->addr, b->addr);
	assert_int_equal(a->level, b->level);
	assert_int_equal(a->self, b->self);
	assert_int_equal(a->children, b->children);
	assert_int_equal(a->nr_samples, b->nr_samples);
	same_tree(a->callchain, b->callchain);
}

/* threads: the other build's limit (0: by the CPUs; 2: one builder beside
 * the replay; 3: two, whatever the CPUs; 4: two, and a thread mapping
 * the replay's arrays) */
static void compare_with(const char *path, bool children, int callchain, uint32_t threads)
{
	struct pk_session *s1, *s2;
	struct pk_hist *one = build(path, 1, children, callchain, &s1);
	struct pk_hist *two = build(path, threads, children, callchain, &s2);
	uint64_t entries = 0;

	assert_int_equal(pk_hist_nr_events(one), pk_hist_nr_events(two));
	for (uint32_t i = 0; i < pk_hist_nr_events(one); i++) {
		const struct pk_hist_event *a = pk_hist_event(one, i), *b = pk_hist_event(two, i);

		assert_int_equal(a->nr_samples, b->nr_samples);
		assert_int_equal(a->total_period, b->total_period);
		assert_int_equal(a->nr_entries, b->nr_entries);
		for (uint64_t j = 0; j < a->nr_entries; j++)
			same_entry(&a->entries[j], &b->entries[j]);
		entries += a->nr_entries;
	}
	/* the files are not trivial: many entries to get in the right order */
	assert_true(entries > 20);
	pk_hist_free(one);
	pk_hist_free(two);
	pk_session_close(s1);
	pk_session_close(s2);
}

static void compare(const char *path, bool children, int callchain)
{
	static const uint32_t limits[] = {0, 2, 3, 4};

	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++)
		compare_with(path, children, callchain, limits[i]);
}

/* fn on each of the files in the corpus (skipped without one). */
static void each_file(void (*fn)(const char *path, void *arg), void *arg)
{
	const char *corpus = getenv("PERFKIT_CORPUS");
	char path[4096];

	if (!corpus) {
		skip();
		return;
	}
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", corpus, files[i]);
		fn(path, arg);
	}
}

static void threads_same(const char *path, void *arg)
{
	(void)arg;
	compare(path, true, PK_CALLCHAIN_CALLER);
	compare(path, true, PK_CALLCHAIN_NONE);
	compare(path, false, PK_CALLCHAIN_CALLEE);
	compare(path, false, PK_CALLCHAIN_NONE);
}

static void test_threads_same(void **state)
{
	(void)state;
	each_file(threads_same, NULL);
}

/*
 * With a call-tree limit, the entries, their order and the trees of the
 * entries at or above the limit are those without one; a smaller entry
 * may instead have a root without children, of the same depth (the
 * output order compares it).  Returns how many did.
 */
static uint64_t compare_limited(const char *path, bool children, int callchain, double limit)
{
	struct pk_session *s1, *s2;
	struct pk_hist *whole = build(path, 0, children, callchain, &s1);
	struct pk_hist *part = build_limited(path, 0, children, callchain, limit, &s2);
	uint64_t partial = 0;

	assert_int_equal(pk_hist_nr_events(whole), pk_hist_nr_events(part));
	for (uint32_t i = 0; i < pk_hist_nr_events(whole); i++) {
		const struct pk_hist_event *a = pk_hist_event(whole, i);
		const struct pk_hist_event *b = pk_hist_event(part, i);
		uint64_t min = (uint64_t)((double)a->total_period * (limit / 100.0));

		assert_int_equal(a->nr_entries, b->nr_entries);
		for (uint64_t j = 0; j < a->nr_entries; j++) {
			const struct pk_hist_entry *x = &a->entries[j], *y = &b->entries[j];
			struct pk_hist_entry cut = *x;

			if (x->children >= min || !y->callchain || y->callchain->nr_children) {
				same_entry(x, y);
				continue;
			}
			/* a partial root: everything but the branches equal */
			assert_non_null(x->callchain);
			assert_int_equal(x->callchain->max_depth, y->callchain->max_depth);
			cut.callchain = y->callchain;
			same_entry(&cut, y);
			partial += x->callchain->nr_children > 0;
		}
	}
	pk_hist_free(whole);
	pk_hist_free(part);
	pk_session_close(s1);
	pk_session_close(s2);
	return partial;
}

static void limited_trees(const char *path, void *arg)
{
	uint64_t *partial = arg;

	*partial += compare_limited(path, true, PK_CALLCHAIN_CALLER, 0.5);
	*partial += compare_limited(path, false, PK_CALLCHAIN_CALLEE, 0.5);
	*partial += compare_limited(path, true, PK_CALLCHAIN_CALLER, 5);
}

static void test_limited_trees(void **state)
{
	uint64_t partial = 0;

	(void)state;
	each_file(limited_trees, &partial);
	/* the limit did leave trees out */
	assert_true(partial > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threads_same),
		cmocka_unit_test(test_limited_trees),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
