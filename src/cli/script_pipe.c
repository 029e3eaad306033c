// SPDX-License-Identifier: MIT
/*
 * perf script's output in two threads.  Formatting millions of lines costs
 * about as much as reading, decoding and resolving the samples, so the
 * reading thread hands samples over in batches and a second thread formats
 * them, in order, into the output buffer.  A batch carries what the
 * formatting needs from the session at the sample's time (its comm and
 * resolved frames): the formatting thread never calls the session.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "script.h"

#define BATCHES		 3
#define BATCH_JOBS	 512
#define BATCH_FRAMES	 (16 * SCRIPT_MAX_FRAMES)
#define BATCH_COMM_BYTES (BATCH_JOBS * 32)

struct batch {
	struct script_job jobs[BATCH_JOBS];
	size_t first_frame[BATCH_JOBS];
	size_t comm_off[BATCH_JOBS];
	size_t nr;
	struct pk_frame frames[BATCH_FRAMES];
	size_t nr_frames;
	char comms[BATCH_COMM_BYTES];
	size_t comm_len;
};

struct script_pipe {
	struct script_ctx *c;
	struct batch *b[BATCHES];
	unsigned long produced, consumed; /* batches */
	bool stop;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
};

static void format_batch(struct script_ctx *c, struct batch *b)
{
	for (size_t i = 0; i < b->nr; i++) {
		struct script_job *j = &b->jobs[i];

		j->comm = b->comms + b->comm_off[i];
		j->frames = b->frames + b->first_frame[i];
		script_format_job(c, j);
	}
	b->nr = b->nr_frames = b->comm_len = 0;
}

static void *formatter(void *arg)
{
	struct script_pipe *p = arg;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (p->consumed == p->produced && !p->stop)
			pthread_cond_wait(&p->cond, &p->lock);
		if (p->consumed == p->produced)
			break;
		pthread_mutex_unlock(&p->lock);
		format_batch(p->c, p->b[p->consumed % BATCHES]);
		pthread_mutex_lock(&p->lock);
		p->consumed++;
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct script_pipe *script_pipe_start(struct script_ctx *c)
{
	struct script_pipe *p = calloc(1, sizeof(*p));
	int i;

	if (!p)
		return NULL;
	p->c = c;
	for (i = 0; i < BATCHES; i++) {
		p->b[i] = malloc(sizeof(*p->b[i]));
		if (!p->b[i])
			goto fail;
		p->b[i]->nr = p->b[i]->nr_frames = p->b[i]->comm_len = 0;
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	if (!pthread_create(&p->thread, NULL, formatter, p))
		return p;
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
fail:
	while (i-- > 0)
		free(p->b[i]);
	free(p);
	return NULL;
}

/* Hand the batch being filled over and wait for a free one. */
static void publish(struct script_pipe *p)
{
	pthread_mutex_lock(&p->lock);
	p->produced++;
	pthread_cond_broadcast(&p->cond);
	while (p->produced - p->consumed == BATCHES)
		pthread_cond_wait(&p->cond, &p->lock);
	pthread_mutex_unlock(&p->lock);
}

static struct batch *filling(struct script_pipe *p)
{
	return p->b[p->produced % BATCHES];
}

int script_pipe_add(struct script_pipe *p, const struct pk_session_sample *ev)
{
	struct batch *b = filling(p);
	const char *comm = pk_thread_comm(ev->thread);
	size_t len = strlen(comm) + 1;
	struct script_job *j;

	if (len > BATCH_COMM_BYTES / 2)
		return 1;
	if (b->comm_len + len > BATCH_COMM_BYTES ||
	    b->nr_frames + SCRIPT_MAX_FRAMES > BATCH_FRAMES) {
		publish(p);
		b = filling(p);
	}
	j = &b->jobs[b->nr];
	script_job_init(j, ev);
	memcpy(b->comms + b->comm_len, comm, len);
	b->comm_off[b->nr] = b->comm_len;
	b->comm_len += len;
	b->first_frame[b->nr] = b->nr_frames;
	j->nr_frames = script_job_frames(p->c, ev, b->frames + b->nr_frames);
	b->nr_frames += j->nr_frames;
	if (++b->nr == BATCH_JOBS)
		publish(p);
	return 0;
}

void script_pipe_drain(struct script_pipe *p)
{
	if (filling(p)->nr)
		publish(p);
	pthread_mutex_lock(&p->lock);
	while (p->consumed != p->produced)
		pthread_cond_wait(&p->cond, &p->lock);
	pthread_mutex_unlock(&p->lock);
}

void script_pipe_stop(struct script_pipe *p)
{
	if (!p)
		return;
	script_pipe_drain(p);
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	for (int i = 0; i < BATCHES; i++)
		free(p->b[i]);
	free(p);
}
