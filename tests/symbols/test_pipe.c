// SPDX-License-Identifier: MIT
/*
 * Unit test of the two-stage sample pipeline (hist_pipe.c).  Every sample
 * committed must be consumed once, in commit order, with its own frames;
 * each batch's early step must run exactly once and before the batch is
 * prepared, whichever thread runs it.  A slow consumer makes the filling
 * thread take the early step (the worker is behind); a fast one leaves it
 * to the worker; without a thread everything runs in place.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "report/hist_internal.h"

#define NR_SAMPLES (PKI_BATCH_SAMPLES * PKI_PIPE_BATCHES * 4 + 77)

struct check {
	pthread_t filler;
	bool slow;
	uint64_t next;	      /* the sample expected next */
	unsigned early_here;  /* early steps the filling thread ran */
	unsigned early_there; /* ... and the worker */
	unsigned prepared;
	bool bad_order;	 /* a batch prepared before its early step */
	bool bad_sample; /* consumed out of order or with other frames
			  * (noted: cmocka asserts in the test's thread) */
};

/* A sample's number goes in its period, its frames repeat it. */
static size_t frames_of(uint64_t i)
{
	return i % 5;
}

static void early(void *ctx, struct pki_batch *b)
{
	struct check *c = ctx;

	for (size_t i = 0; i < b->nr; i++)
		b->v[i].k.hash = b->v[i].k.period * 3;
	if (pthread_equal(pthread_self(), c->filler))
		c->early_here++;
	else
		c->early_there++;
}

static void prepare(void *ctx, struct pki_batch *b)
{
	struct check *c = ctx;

	for (size_t i = 0; i < b->nr; i++)
		if (b->v[i].k.hash != b->v[i].k.period * 3)
			c->bad_order = true;
	c->prepared++;
}

static int consume(void *ctx, const struct pki_pending *p, const struct pk_frame *frames)
{
	struct check *c = ctx;

	if (p->k.period != c->next || p->k.hash != c->next * 3 ||
	    p->nr_frames != frames_of(c->next))
		c->bad_sample = true;
	for (uint32_t f = 0; f < p->nr_frames; f++)
		if (frames[f].loc.ip != c->next)
			c->bad_sample = true;
	c->next++;
	if (c->slow && c->next % 64 == 0) {
		struct timespec pause = {0, 20000};

		nanosleep(&pause, NULL);
	}
	return 0;
}

static void run(struct check *c, bool threaded)
{
	struct pki_pipe pipe;
	uint64_t nr_batches = 0;

	c->filler = pthread_self();
	assert_int_equal(pki_pipe_start(&pipe, threaded, consume, early, prepare, c), 0);
	for (uint64_t i = 0; i < NR_SAMPLES; i++) {
		struct pk_frame *frames;
		struct pki_pending *p = pki_pipe_slot(&pipe, &frames);

		p->k = (struct pki_stack){.period = i};
		for (size_t f = 0; f < frames_of(i); f++)
			frames[f].loc.ip = i;
		assert_int_equal(pki_pipe_commit(&pipe, (uint32_t)frames_of(i)), 0);
	}
	assert_int_equal(pki_pipe_finish(&pipe), 0);
	pki_pipe_free(&pipe);
	nr_batches = (NR_SAMPLES + PKI_BATCH_SAMPLES - 1) / PKI_BATCH_SAMPLES;
	assert_int_equal(c->next, NR_SAMPLES);
	assert_int_equal(c->prepared, nr_batches);
	assert_int_equal(c->early_here + c->early_there, nr_batches);
	assert_false(c->bad_order);
	assert_false(c->bad_sample);
}

/* The worker falls behind: the filling thread hashes most batches. */
static void test_slow_worker(void **state)
{
	struct check c = {.slow = true};

	(void)state;
	run(&c, true);
	assert_true(c.early_here > 0);
}

/* A fast worker mostly keeps up; either way each batch's step runs once. */
static void test_fast_worker(void **state)
{
	struct check c = {0};

	(void)state;
	run(&c, true);
}

/* In place: every step in the one thread, as the batch fills. */
static void test_in_place(void **state)
{
	struct check c = {0};

	(void)state;
	run(&c, false);
	assert_int_equal(c.early_there, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slow_worker),
		cmocka_unit_test(test_fast_worker),
		cmocka_unit_test(test_in_place),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
