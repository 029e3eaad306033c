// SPDX-License-Identifier: MIT
/*
 * Two-stage sample pipeline.  Reading, decoding and resolving samples (the
 * session's work, strictly in record order) runs in the caller's thread;
 * folding them into the stack table runs in a worker.  The two halves cost
 * about the same, so with two cores the read phase takes about half as
 * long.  Samples cross in batches, so the threads meet once per batch, not
 * once per sample; a fixed ring of batches bounds the memory.  Which half
 * is slower changes through a recording (new stacks cost the worker more),
 * so a batch's early step (hashing its stacks) goes to whichever thread is
 * ahead: the reading one takes it while half the ring waits for the worker.
 *
 * The worker only stores and compares what it is given (pointers to
 * threads, DSOs, symbols and interned comms, all owned by the session or
 * the hist and never freed while the pipe runs); it never calls into the
 * session.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hist_internal.h"

static bool batch_full(const struct pki_batch *b)
{
	return b->nr == PKI_BATCH_SAMPLES || b->nr_frames + PKI_BATCH_MAX_CHAIN > PKI_BATCH_FRAMES;
}

/* A batch emptied for the next fill. */
static void batch_clear(struct pki_batch *b)
{
	b->nr = b->nr_frames = 0;
	b->early_done = false;
}

static void run_early(struct pki_pipe *p, struct pki_batch *b)
{
	if (p->early && !b->early_done)
		p->early(p->ctx, b);
	b->early_done = true;
}

static int run_batch(struct pki_pipe *p, struct pki_batch *b)
{
	int err = 0;

	run_early(p, b);
	if (p->prepare)
		p->prepare(p->ctx, b);
	for (size_t i = 0; i < b->nr && !err; i++)
		err = p->consume(p->ctx, &b->v[i], b->frames + b->v[i].first_frame);
	batch_clear(b);
	return err;
}

static void *worker(void *arg)
{
	struct pki_pipe *p = arg;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct pki_batch *b;
		bool skip;
		int err;

		while (p->consumed == p->produced && !p->done)
			pthread_cond_wait(&p->cond, &p->lock);
		if (p->consumed == p->produced)
			break;
		b = &p->batch[p->consumed % PKI_PIPE_BATCHES];
		skip = p->err != 0; /* after an error the rest is dropped */
		pthread_mutex_unlock(&p->lock);
		err = 0;
		if (skip)
			batch_clear(b);
		else
			err = run_batch(p, b);
		pthread_mutex_lock(&p->lock);
		if (err && !p->err)
			p->err = err;
		p->consumed++;
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int pki_pipe_start(struct pki_pipe *p, bool threaded, pki_pipe_consume_fn consume,
		   pki_pipe_prepare_fn early, pki_pipe_prepare_fn prepare, void *ctx)
{
	memset(p, 0, sizeof(*p));
	p->consume = consume;
	p->early = early;
	p->prepare = prepare;
	p->ctx = ctx;
	for (int i = 0; i < PKI_PIPE_BATCHES; i++) {
		p->batch[i].v = malloc(PKI_BATCH_SAMPLES * sizeof(*p->batch[i].v));
		p->batch[i].frames = malloc(PKI_BATCH_FRAMES * sizeof(*p->batch[i].frames));
		if (!p->batch[i].v || !p->batch[i].frames)
			goto fail;
		if (!threaded)
			break; /* one batch, run in place when full */
	}
	if (threaded) {
		pthread_mutex_init(&p->lock, NULL);
		pthread_cond_init(&p->cond, NULL);
		/* without a thread (none to be had) the pipe runs in place */
		p->threaded = !pthread_create(&p->thread, NULL, worker, p);
		if (!p->threaded) {
			pthread_mutex_destroy(&p->lock);
			pthread_cond_destroy(&p->cond);
		}
	}
	return 0;
fail:
	pki_pipe_free(p);
	return -ENOMEM;
}

/* The batch being filled: in place, or the next one the worker is done with. */
static struct pki_batch *current(struct pki_pipe *p)
{
	if (!p->threaded)
		return &p->batch[0];
	return &p->batch[p->produced % PKI_PIPE_BATCHES];
}

static int publish(struct pki_pipe *p)
{
	bool behind;
	int err;

	if (!p->threaded) {
		err = run_batch(p, &p->batch[0]);
		if (err && !p->err)
			p->err = err;
		return p->err;
	}
	/* the worker is behind: this thread takes the early step off it */
	pthread_mutex_lock(&p->lock);
	behind = p->produced - p->consumed >= PKI_PIPE_BATCHES / 2;
	pthread_mutex_unlock(&p->lock);
	if (behind)
		run_early(p, current(p));
	pthread_mutex_lock(&p->lock);
	p->produced++;
	pthread_cond_broadcast(&p->cond);
	/* the ring is full: wait for the worker to hand a batch back */
	while (p->produced - p->consumed == PKI_PIPE_BATCHES)
		pthread_cond_wait(&p->cond, &p->lock);
	err = p->err;
	pthread_mutex_unlock(&p->lock);
	return err;
}

struct pki_pending *pki_pipe_slot(struct pki_pipe *p, struct pk_frame **frames)
{
	struct pki_batch *b = current(p);
	struct pki_pending *v = &b->v[b->nr];

	v->first_frame = (uint32_t)b->nr_frames;
	v->nr_frames = 0;
	*frames = b->frames + b->nr_frames;
	return v;
}

int pki_pipe_commit(struct pki_pipe *p, uint32_t nr_frames)
{
	struct pki_batch *b = current(p);

	b->v[b->nr].nr_frames = nr_frames;
	b->nr_frames += nr_frames;
	b->nr++;
	return batch_full(b) ? publish(p) : 0;
}

int pki_pipe_finish(struct pki_pipe *p)
{
	int err = 0;

	if (current(p)->nr)
		err = publish(p);
	if (p->threaded) {
		pthread_mutex_lock(&p->lock);
		p->done = true;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
		pthread_join(p->thread, NULL);
		pthread_mutex_destroy(&p->lock);
		pthread_cond_destroy(&p->cond);
		p->threaded = false;
		err = p->err;
	}
	return err ? err : p->err;
}

void pki_pipe_free(struct pki_pipe *p)
{
	if (p->threaded)
		pki_pipe_finish(p);
	for (int i = 0; i < PKI_PIPE_BATCHES; i++) {
		free(p->batch[i].v);
		free(p->batch[i].frames);
	}
	memset(p, 0, sizeof(*p));
}
