// SPDX-License-Identifier: MIT
/*
 * Unit test of the replay's input tree (hist_itree.c): a lookup made at
 * the same pki_itree_version() as an earlier one of the same key must end
 * in the same node.  The keys are those that break perf's order:
 * unresolved addresses of one comm and DSO spread over 2^63 apart, so
 * lookups do miss their entries, beside resolved keys and other groups
 * whose insertions rotate the tree around them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "report/hist_internal.h"

#define NR_COMMS   3
#define NR_DSOS	   2
#define NR_SYMS	   16
#define NR_KEYS	   3000
#define NR_LOOKUPS 60000

static struct pk_symbol syms[NR_SYMS];

struct key {
	struct pki_gkey g;
	uint32_t group;	  /* 0 for resolved keys */
	bool looked;	  /* looked up before: */
	uint64_t version; /* pki_itree_version() after that lookup */
	int64_t node;	  /* where it ended */
};

static uint32_t next_rand(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*s >> 33);
}

/* Unresolved addresses around the whole 64-bit circle (garbage frames
 * can be anything), so that signed differences go round in cycles. */
static uint64_t wild_address(uint64_t *s)
{
	static const uint64_t base[] = {0x400000, 0x5555000000000000, 0xaaaa000000000000,
					0xffffffff81000000};
	uint64_t r = next_rand(s);

	return base[r % 4] + ((uint64_t)next_rand(s) << 4);
}

static void make_key(struct key *k, uint64_t *s)
{
	uint32_t comm = next_rand(s) % NR_COMMS + 1, dso = next_rand(s) % NR_DSOS + 1;

	memset(k, 0, sizeof(*k));
	/* the sort keys are comm, dso, sym: k[0] and k[1] by rank */
	k->g.k[0] = comm;
	k->g.k[1] = dso;
	k->g.dso = dso;
	if (next_rand(s) % 4 == 0) {
		k->g.sym = &syms[next_rand(s) % NR_SYMS];
		return;
	}
	k->g.addr = wild_address(s);
	k->group = (comm - 1) * NR_DSOS + dso;
}

struct counts {
	size_t checked; /* lookups whose end their version told */
	size_t missed;	/* lookups that missed the key's node */
};

static void lookup(struct pki_itree *t, struct key *k, struct counts *c)
{
	struct pk_hist_entry e = {0};
	bool inserted, same = k->looked && k->version == pki_itree_version(t, k->group);
	int64_t node = pki_itree_findnew(t, &k->g, &e, k->group, &inserted);

	assert_true(node >= 0);
	c->checked += same;
	c->missed += k->looked && inserted;
	if (same) {
		/* nothing that matters to it changed: the same end */
		assert_false(inserted);
		assert_int_equal(node, k->node);
	}
	k->looked = true;
	k->node = node;
	k->version = pki_itree_version(t, k->group);
}

static void run(bool by_group, uint64_t seed, struct counts *c)
{
	static const enum pk_hist_key keys[] = {PK_HIST_KEY_COMM, PK_HIST_KEY_DSO, PK_HIST_KEY_SYM};
	struct key *v = calloc(NR_KEYS, sizeof(*v));
	struct pki_itree t;
	uint64_t s = seed;
	size_t nr = 0;

	assert_non_null(v);
	pki_hist_set_keys(keys, 3);
	pki_itree_init(&t, by_group);
	for (size_t i = 0; i < NR_LOOKUPS; i++) {
		struct key *k;

		if (nr < NR_KEYS && (nr < 8 || next_rand(&s) % 8 == 0))
			make_key(&v[nr++], &s);
		k = &v[next_rand(&s) % nr];
		lookup(&t, k, c);
	}
	pki_itree_free(&t);
	free(v);
}

static void test_same_version_same_node(void **state)
{
	struct counts by_group = {0}, whole = {0};

	(void)state;
	for (size_t i = 0; i < NR_SYMS; i++) {
		syms[i].start = 0x1000 * (i + 1);
		syms[i].end = syms[i].start + 0x800;
		syms[i].name = "f";
	}
	for (uint64_t seed = 1; seed <= 20; seed++) {
		run(true, seed, &by_group);
		run(false, seed, &whole);
	}
	/* the keys were drawn so that lookups miss; versions by group
	 * tell more lookups' ends, and both tell some */
	assert_true(by_group.missed > 0);
	assert_int_equal(by_group.missed, whole.missed);
	assert_true(whole.checked > 0);
	assert_true(by_group.checked > whole.checked);
}

/* A leaf is on no lookup's way; a rotation changes the groups it turns;
 * a changed node its own group. */
static void test_versions_change(void **state)
{
	static const enum pk_hist_key keys[] = {PK_HIST_KEY_COMM, PK_HIST_KEY_DSO, PK_HIST_KEY_SYM};
	struct pki_gkey a = {.k = {1, 1}, .dso = 1}, b = {.k = {2, 1}, .dso = 1};
	struct pki_gkey c = {.k = {3, 1}, .dso = 1};
	struct pk_hist_entry e = {0};
	struct pki_itree t;
	uint64_t v1, v2, v3;
	bool inserted;

	(void)state;
	pki_hist_set_keys(keys, 3);
	pki_itree_init(&t, true);
	assert_int_equal(pki_itree_findnew(&t, &a, &e, 1, &inserted), 0);
	v1 = pki_itree_version(&t, 1);
	assert_int_equal(pki_itree_findnew(&t, &b, &e, 2, &inserted), 1);
	assert_true(inserted);
	assert_int_equal(pki_itree_version(&t, 1), v1);
	v2 = pki_itree_version(&t, 2);
	v3 = pki_itree_version(&t, 3);
	/* a, b, c in a row: a and b turn, c is a leaf */
	assert_int_equal(pki_itree_findnew(&t, &c, &e, 3, &inserted), 2);
	assert_int_not_equal(pki_itree_version(&t, 1), v1);
	assert_int_not_equal(pki_itree_version(&t, 2), v2);
	assert_int_equal(pki_itree_version(&t, 3), v3);
	v1 = pki_itree_version(&t, 1);
	v2 = pki_itree_version(&t, 2);
	pki_itree_changed(&t, 1);
	assert_int_equal(pki_itree_version(&t, 1), v1);
	assert_int_not_equal(pki_itree_version(&t, 2), v2);
	pki_itree_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_version_same_node),
		cmocka_unit_test(test_versions_change),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
