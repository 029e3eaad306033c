// SPDX-License-Identifier: MIT
/*
 * Unit test of the unique-stack table (hist_stacks.c) and of the in-place
 * reordering of entries (pki_hist_gather(), hist_order.c).  Stacks are
 * folded from made-up callchains that share prefixes, across two threads
 * and enough of them that the trie's table grows several times: every
 * stack must give back its own frames, the trie must hold each (parent,
 * location) once, the same callchain must find its stack again, and the
 * stacks' DSO set must be the DSOs their frames and locations name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "report/hist_internal.h"

#define NR_LOCS	  40
#define NR_DSOS	  5
#define NR_PATHS  6000
#define MAX_DEPTH 24

/* Stand-ins: the table compares these pointers (and reads whether a
 * symbol is inlined, so the symbols are real ones). */
static char fake_dsos[NR_DSOS], fake_attr, fake_threads[2];
static struct pk_symbol syms[NR_LOCS];

static uint32_t next_rand(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*s >> 33);
}

/* Location i: its own address and symbol, one of the DSOs (none for the
 * last few, as frames in no map). */
static struct pk_location loc_of(uint32_t i)
{
	struct pk_location l = {.ip = 0x400000 + 16ULL * i, .addr = 16ULL * i, .cpumode = 2};

	if (i < NR_LOCS - 4) {
		l.dso = (const struct pk_dso *)&fake_dsos[i % (NR_DSOS - 1)];
		l.sym = &syms[i];
	}
	return l;
}

struct path {
	uint32_t n;
	uint32_t loc[MAX_DEPTH]; /* callee first */
	uint32_t thread;
};

/* Paths that share their callers often: each starts as an earlier one
 * cut somewhere, then goes its own way (a location may repeat: recursion). */
static void make_paths(struct path *p, uint32_t nr, uint64_t *s)
{
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t keep = 0, n = 1 + next_rand(s) % MAX_DEPTH;

		if (i && next_rand(s) % 4) {
			const struct path *from = &p[next_rand(s) % i];

			keep = next_rand(s) % (from->n + 1);
			keep = keep < n ? keep : n;
			/* the outermost callers are the last frames */
			memcpy(&p[i].loc[n - keep], &from->loc[from->n - keep],
			       keep * sizeof(p[i].loc[0]));
		}
		for (uint32_t k = 0; k < n - keep; k++)
			p[i].loc[k] = next_rand(s) % NR_LOCS;
		p[i].n = n;
		p[i].thread = next_rand(s) % 2;
	}
}

static int fold(struct pki_stacks *t, const struct path *p, uint32_t *id)
{
	struct pk_frame frames[MAX_DEPTH];
	struct pk_location loc = loc_of(p->loc[0]);
	struct pki_stack k = {
		.attr = (const struct pk_attr *)&fake_attr,
		.comm = "comm",
		.first_thread = (const struct pk_thread *)&fake_threads[p->thread],
		.period = 1,
		.count = 1,
	};
	size_t before = t->nr;
	int err;

	memset(frames, 0, sizeof(frames));
	for (uint32_t i = 0; i < p->n; i++)
		frames[i].loc = loc_of(p->loc[i]);
	k.hash = pki_stacks_hash(&k, &loc, frames, p->n);
	err = pki_stacks_add(t, &k, &loc, frames, p->n);
	/* a new stack is the last; an old one is found by its frames */
	*id = (uint32_t)(t->nr > before ? t->nr - 1 : UINT32_MAX);
	return err;
}

static bool same_path(const struct pki_stacks *t, const struct pki_stack *st, const struct path *p)
{
	struct pk_frame out[MAX_DEPTH + 1];
	size_t n = pki_stacks_frames(t, st, out, MAX_DEPTH + 1);

	if (n != p->n || pki_stacks_depth(t, st) != p->n)
		return false;
	for (uint32_t i = 0; i < n; i++) {
		struct pk_location l = loc_of(p->loc[i]);

		if (out[i].loc.ip != l.ip || out[i].loc.sym != l.sym || out[i].loc.dso != l.dso)
			return false;
	}
	return true;
}

static int by_parent_ip(const void *a, const void *b)
{
	const struct pki_stack_node *x = a, *y = b;

	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	return (x->loc.ip > y->loc.ip) - (x->loc.ip < y->loc.ip);
}

static void test_fold_paths(void **state)
{
	struct path *p = calloc(NR_PATHS, sizeof(*p));
	uint32_t *stack_of = calloc(NR_PATHS, sizeof(*stack_of));
	struct pki_stacks t = {0};
	struct pki_stack_node *nodes;
	uint64_t seed = 7;
	bool dso_seen[NR_DSOS] = {false};
	size_t nr_dsos = 0;

	(void)state;
	assert_non_null(p);
	assert_non_null(stack_of);
	make_paths(p, NR_PATHS, &seed);
	for (uint32_t i = 0; i < NR_PATHS; i++)
		assert_int_equal(fold(&t, &p[i], &stack_of[i]), 0);
	/* every path folded again finds a stack, and adds none */
	for (uint32_t i = 0; i < NR_PATHS; i++) {
		uint32_t id;
		size_t nr = t.nr;

		assert_int_equal(fold(&t, &p[i], &id), 0);
		assert_int_equal(t.nr, nr);
	}
	for (uint32_t i = 0; i < NR_PATHS; i++)
		if (stack_of[i] != UINT32_MAX)
			assert_true(same_path(&t, &t.v[stack_of[i]], &p[i]));
	/* the trie holds each child once: no two nodes of one parent at one
	 * location (the root, node 0, aside) */
	nodes = malloc(t.nr_nodes * sizeof(*nodes));
	assert_non_null(nodes);
	memcpy(nodes, t.nodes, t.nr_nodes * sizeof(*nodes));
	qsort(nodes + 1, t.nr_nodes - 1, sizeof(*nodes), by_parent_ip);
	for (size_t i = 2; i < t.nr_nodes; i++)
		assert_true(by_parent_ip(&nodes[i - 1], &nodes[i]) != 0);
	/* the DSOs of the frames and locations (the last one is named by
	 * none: locations use the first NR_DSOS - 1) */
	for (size_t i = 0; i < t.nr_dso_slots; i++) {
		if (!t.dsos[i])
			continue;
		assert_true((const char *)t.dsos[i] >= fake_dsos &&
			    (const char *)t.dsos[i] < fake_dsos + NR_DSOS - 1);
		assert_false(dso_seen[(const char *)t.dsos[i] - fake_dsos]);
		dso_seen[(const char *)t.dsos[i] - fake_dsos] = true;
		nr_dsos++;
	}
	assert_int_equal(nr_dsos, t.nr_dsos);
	assert_int_equal(nr_dsos, NR_DSOS - 1);
	free(nodes);
	free(stack_of);
	free(p);
	pki_stacks_free(&t);
}

/* pki_hist_gather(): v[k] becomes v[from[k]] for a permutation made of
 * cycles of every length, fixed points among them. */
static void test_gather(void **state)
{
	enum { N = 1000 };
	struct pk_hist_entry *v = calloc(N, sizeof(*v));
	uint32_t *from = malloc(N * sizeof(*from));
	uint64_t *done = calloc((N + 63) / 64, sizeof(*done));
	uint64_t seed = 3;

	(void)state;
	assert_non_null(v);
	assert_non_null(from);
	assert_non_null(done);
	for (uint32_t i = 0; i < N; i++) {
		v[i].self = 100 + i;
		v[i].addr = 7 * i;
		from[i] = i;
	}
	/* a shuffle, then a tenth of it put back in place */
	for (uint32_t i = N - 1; i > 0; i--) {
		uint32_t j = next_rand(&seed) % (i + 1), x = from[i];

		from[i] = from[j];
		from[j] = x;
	}
	for (uint32_t i = 0; i < N; i += 10)
		for (uint32_t j = 0; j < N; j++)
			if (from[j] == i) {
				from[j] = from[i];
				from[i] = i;
				break;
			}
	pki_hist_gather(v, from, N, done);
	for (uint32_t k = 0; k < N; k++) {
		assert_int_equal(v[k].self, 100 + from[k]);
		assert_int_equal(v[k].addr, 7ULL * from[k]);
	}
	free(done);
	free(from);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fold_paths),
		cmocka_unit_test(test_gather),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
