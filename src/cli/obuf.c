// SPDX-License-Identifier: MIT
/* Double-buffered output with a writer thread; see obuf.h. */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>
#include "obuf.h"

/* What the filling thread shares with the writer. */
struct obuf_writer {
	int fd;
	char *buf[2];
	int cur;		/* the buffer being filled */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	const char *pending;
	size_t pending_len;
	bool quit;
	int err;
};

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? -errno : -EIO;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static void *writer(void *arg)
{
	struct obuf_writer *w = arg;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		const char *p;
		size_t n;
		int err;

		while (!w->pending && !w->quit)
			pthread_cond_wait(&w->cond, &w->lock);
		if (!w->pending)
			break;
		p = w->pending;
		n = w->pending_len;
		pthread_mutex_unlock(&w->lock);
		/* after an error (a closed pipe) the rest is dropped */
		err = w->err ? 0 : write_all(w->fd, p, n);
		pthread_mutex_lock(&w->lock);
		if (err && !w->err)
			w->err = err;
		w->pending = NULL;
		pthread_cond_broadcast(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static void writer_free(struct obuf_writer *w)
{
	free(w->buf[0]);
	free(w->buf[1]);
	free(w);
}

struct obuf *obuf_open(int fd)
{
	struct obuf *o = calloc(1, sizeof(*o));
	struct obuf_writer *w = calloc(1, sizeof(*w));

	if (!o || !w)
		goto fail;
	w->fd = fd;
	w->buf[0] = malloc(OBUF_SIZE + OBUF_SLACK);
	w->buf[1] = malloc(OBUF_SIZE + OBUF_SLACK);
	if (!w->buf[0] || !w->buf[1])
		goto fail;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	if (pthread_create(&w->thread, NULL, writer, w)) {
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->cond);
		goto fail;
	}
	o->w = w;
	o->base = w->buf[0];
	return o;
fail:
	if (w)
		writer_free(w);
	free(o);
	return NULL;
}

/* Hand the filled buffer to the writer once it is done with the other. */
void obuf_hand_over(struct obuf *o)
{
	struct obuf_writer *w = o->w;

	pthread_mutex_lock(&w->lock);
	while (w->pending)
		pthread_cond_wait(&w->cond, &w->lock);
	w->pending = o->base;
	w->pending_len = o->len;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	w->cur ^= 1;
	o->base = w->buf[w->cur];
	o->len = 0;
}

int obuf_close(struct obuf *o)
{
	struct obuf_writer *w = o->w;
	int err;

	if (o->len)
		obuf_hand_over(o);
	pthread_mutex_lock(&w->lock);
	while (w->pending)
		pthread_cond_wait(&w->cond, &w->lock);
	w->quit = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	err = w->err;
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	writer_free(w);
	free(o);
	return err;
}

void obuf_write_long(struct obuf *o, const void *p, size_t n)
{
	const char *s = p;

	while (n) {
		size_t room, k;

		if (o->len >= OBUF_SIZE)
			obuf_hand_over(o);
		room = OBUF_SIZE + OBUF_SLACK - o->len;
		k = n < room ? n : room;
		memcpy(o->base + o->len, s, k);
		o->len += k;
		s += k;
		n -= k;
	}
}

void obuf_pad(struct obuf *o, const char *s, int width, int left)
{
	size_t n = strlen(s);
	size_t pad = width > 0 && (size_t)width > n ? (size_t)width - n : 0;
	char *p;

	if (pad > OBUF_SLACK / 2)
		pad = OBUF_SLACK / 2;
	p = obuf_reserve(o, pad);
	if (!left) {
		memset(p, ' ', pad);
		obuf_commit(o, p + pad);
	}
	obuf_write(o, s, n);
	if (left) {
		p = obuf_reserve(o, pad);
		memset(p, ' ', pad);
		obuf_commit(o, p + pad);
	}
}
