// SPDX-License-Identifier: MIT
/* Double-buffered output with a writer thread; see obuf.h. */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>
#include "obuf.h"

#define OBUF_SIZE (4u << 20)
#define OBUF_SLACK 4096	/* a reserve() never asks for more than this */

struct obuf {
	int fd;
	char *buf[2];
	int cur;		/* the buffer being filled */
	size_t len;		/* bytes in it */
	/* handed to the writer: */
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
	struct obuf *o = arg;

	pthread_mutex_lock(&o->lock);
	for (;;) {
		const char *p;
		size_t n;

		while (!o->pending && !o->quit)
			pthread_cond_wait(&o->cond, &o->lock);
		if (!o->pending)
			break;
		p = o->pending;
		n = o->pending_len;
		pthread_mutex_unlock(&o->lock);
		/* after an error (a closed pipe) the rest is dropped */
		int err = o->err ? 0 : write_all(o->fd, p, n);
		pthread_mutex_lock(&o->lock);
		if (err && !o->err)
			o->err = err;
		o->pending = NULL;
		pthread_cond_broadcast(&o->cond);
	}
	pthread_mutex_unlock(&o->lock);
	return NULL;
}

struct obuf *obuf_open(int fd)
{
	struct obuf *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->fd = fd;
	o->buf[0] = malloc(OBUF_SIZE + OBUF_SLACK);
	o->buf[1] = malloc(OBUF_SIZE + OBUF_SLACK);
	pthread_mutex_init(&o->lock, NULL);
	pthread_cond_init(&o->cond, NULL);
	if (!o->buf[0] || !o->buf[1] || pthread_create(&o->thread, NULL, writer, o)) {
		free(o->buf[0]);
		free(o->buf[1]);
		free(o);
		return NULL;
	}
	return o;
}

/* Hand the filled buffer to the writer once it is done with the other. */
static void hand_over(struct obuf *o)
{
	pthread_mutex_lock(&o->lock);
	while (o->pending)
		pthread_cond_wait(&o->cond, &o->lock);
	o->pending = o->buf[o->cur];
	o->pending_len = o->len;
	pthread_cond_broadcast(&o->cond);
	pthread_mutex_unlock(&o->lock);
	o->cur ^= 1;
	o->len = 0;
}

int obuf_close(struct obuf *o)
{
	int err;

	if (o->len)
		hand_over(o);
	pthread_mutex_lock(&o->lock);
	while (o->pending)
		pthread_cond_wait(&o->cond, &o->lock);
	o->quit = true;
	pthread_cond_broadcast(&o->cond);
	pthread_mutex_unlock(&o->lock);
	pthread_join(o->thread, NULL);
	err = o->err;
	free(o->buf[0]);
	free(o->buf[1]);
	pthread_mutex_destroy(&o->lock);
	pthread_cond_destroy(&o->cond);
	free(o);
	return err;
}

char *obuf_reserve(struct obuf *o, size_t n)
{
	(void)n; /* n <= OBUF_SLACK by contract */
	if (o->len >= OBUF_SIZE)
		hand_over(o);
	return o->buf[o->cur] + o->len;
}

void obuf_commit(struct obuf *o, char *end)
{
	o->len = (size_t)(end - o->buf[o->cur]);
}

void obuf_write(struct obuf *o, const void *p, size_t n)
{
	const char *s = p;

	while (n) {
		size_t room = OBUF_SIZE + OBUF_SLACK - o->len, k;

		if (o->len >= OBUF_SIZE)
			hand_over(o), room = OBUF_SIZE + OBUF_SLACK;
		k = n < room ? n : room;
		memcpy(o->buf[o->cur] + o->len, s, k);
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

/* digits of v, backwards from end; returns the start */
static char *utoa(char *end, uint64_t v, unsigned base)
{
	static const char hex[] = "0123456789abcdef";

	do {
		*--end = hex[v % base];
		v /= base;
	} while (v);
	return end;
}

static void put_number(struct obuf *o, const char *digits, size_t n, bool neg, int width,
		       int left, char fill)
{
	size_t len = n + neg;
	size_t pad = width > 0 && (size_t)width > len ? (size_t)width - len : 0;
	char *p;

	if (pad > OBUF_SLACK / 2)
		pad = OBUF_SLACK / 2;
	p = obuf_reserve(o, pad + len);

	if (!left && fill == ' ') {
		memset(p, ' ', pad);
		p += pad;
	}
	if (neg)
		*p++ = '-';
	if (!left && fill == '0') {
		memset(p, '0', pad);
		p += pad;
	}
	memcpy(p, digits, n);
	p += n;
	if (left) {
		memset(p, ' ', pad);
		p += pad;
	}
	obuf_commit(o, p);
}

void obuf_u64(struct obuf *o, uint64_t v, int width, int zero)
{
	char buf[24], *s = utoa(buf + sizeof(buf), v, 10);

	put_number(o, s, (size_t)(buf + sizeof(buf) - s), false, width, 0, zero ? '0' : ' ');
}

void obuf_i64(struct obuf *o, int64_t v, int width, int left)
{
	char buf[24];
	uint64_t m = v < 0 ? -(uint64_t)v : (uint64_t)v;
	char *s = utoa(buf + sizeof(buf), m, 10);

	put_number(o, s, (size_t)(buf + sizeof(buf) - s), v < 0, width, left, ' ');
}

void obuf_hex(struct obuf *o, uint64_t v, int width)
{
	char buf[24], *s = utoa(buf + sizeof(buf), v, 16);

	put_number(o, s, (size_t)(buf + sizeof(buf) - s), false, width, 0, ' ');
}
