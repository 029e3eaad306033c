// SPDX-License-Identifier: MIT
/*
 * DWARF unwinding must survive whatever a file holds: random registers
 * and stack copies, truncated copies (dyn_size 0, or larger than the
 * copy), instruction pointers inside real code with garbage around them,
 * registers missing from the mask, another ABI.  The process here has its
 * own binary and libraries mapped, so libdw does get to run its CFI on
 * the garbage.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "session/unwind_internal.h"

#define STACK  8192
#define ROUNDS 3000
#define MAX    512

static uint64_t rnd_state = 0x9E3779B97F4A7C15ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

struct fixture {
	struct pk_session *s;
	struct pk_thread *t;
	uint64_t text[64]; /* starts and ends of executable maps */
	int nr_text;
};

/* The executable maps of this process, as MMAP2 records would give them. */
static void load_maps(struct fixture *fx)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512], path[256];

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, off;
		char perm[8];
		struct pki_map m = {0};

		path[0] = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %255s", &lo, &hi, perm, &off, path) <
			    4 ||
		    path[0] != '/')
			continue;
		m.start = lo;
		m.end = hi;
		m.pgoff = off;
		m.dso = pki_dso_findnew(fx->s, path, NULL, false);
		assert_non_null(m.dso);
		assert_int_equal(pki_maps_insert(fx->t->maps, &m), 0);
		if (perm[2] == 'x' && fx->nr_text < 64) {
			fx->text[fx->nr_text++] = lo;
			fx->text[fx->nr_text++] = hi;
		}
	}
	fclose(f);
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	fx->s = calloc(1, sizeof(*fx->s));
	assert_non_null(fx->s);
	fx->t = pki_thread_findnew(fx->s, 4242, 4242);
	assert_non_null(fx->t);
	load_maps(fx);
	assert_true(fx->nr_text >= 2);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	pki_threads_free(fx->s);
	pki_inlines_free(fx->s);
	pki_dsos_free(fx->s);
	free(fx->s);
	free(fx);
	return 0;
}

/* A value unwinding may take for an address: in code, near the stack or
 * anything. */
static uint64_t pick(const struct fixture *fx, uint64_t sp)
{
	int i;

	switch (rnd() % 4) {
	case 0:
		i = (int)(rnd() % (uint64_t)(fx->nr_text / 2)) * 2;
		return fx->text[i] + rnd() % (fx->text[i + 1] - fx->text[i]);
	case 1:
		return sp + rnd() % (STACK + 64) - 32;
	case 2:
		return rnd() % 64;
	default:
		return rnd();
	}
}

static void test_garbage(void **state)
{
	struct fixture *fx = *state;
	static uint64_t stack[STACK / 8], regs[24];
	static struct pk_frame frames[MAX];
	struct pk_session_sample ev;

	for (int round = 0; round < ROUNDS; round++) {
		uint64_t sp = rnd() & ~7ULL;
		size_t n;

		memset(&ev, 0, sizeof(ev));
		ev.thread = fx->t;
		ev.sample.type = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_TID;
		/* mostly the x86-64 default mask; sometimes registers missing */
		ev.sample.regs_user.mask = round % 7 ? 0xff0fffULL : rnd() & 0xff0fffULL;
		ev.sample.regs_user.abi = round % 11 ? 2 : rnd() % 4;
		ev.sample.regs_user.nr = (uint32_t)__builtin_popcountll(ev.sample.regs_user.mask);
		ev.sample.regs_user.regs = regs;
		for (unsigned i = 0; i < 24; i++)
			regs[i] = pick(fx, sp);
		/* ip (perf register 8) and sp (7) at their packed places */
		if ((ev.sample.regs_user.mask & 0x1ff) == 0x1ff) {
			regs[7] = sp;
			regs[8] = pick(fx, sp);
		}
		for (unsigned i = 0; i < STACK / 8; i++)
			stack[i] = pick(fx, sp);
		ev.sample.stack_user = stack;
		ev.sample.stack_user_size = round % 13 ? STACK : rnd() % STACK;
		ev.sample.stack_user_dyn_size = round % 5 ? rnd() % (STACK + 100) : STACK;
		ev.sample.swapped = round % 17 == 0;
		n = pki_unwind_user(fx->s, &ev, frames, 1 + rnd() % MAX, 1 + rnd() % 200);
		assert_true(n <= MAX);
	}
}

/* No stack copy or no registers: nothing, whatever else the sample has. */
static void test_nothing_to_unwind(void **state)
{
	struct fixture *fx = *state;
	struct pk_frame frames[4];
	struct pk_session_sample ev;
	uint64_t regs[20] = {0};

	memset(&ev, 0, sizeof(ev));
	ev.thread = fx->t;
	ev.sample.type = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	ev.sample.regs_user.abi = 2;
	ev.sample.regs_user.mask = 0xff0fff;
	ev.sample.regs_user.nr = 20;
	ev.sample.regs_user.regs = regs;
	assert_int_equal(pki_unwind_user(fx->s, &ev, frames, 4, 127), 0);
	ev.sample.stack_user_size = 8;
	ev.sample.stack_user = regs;
	ev.sample.regs_user.regs = NULL;
	assert_int_equal(pki_unwind_user(fx->s, &ev, frames, 4, 127), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_nothing_to_unwind),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
