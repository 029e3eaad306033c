// SPDX-License-Identifier: MIT
/*
 * perfkit script --per-event-dump: each event's samples go to a file of its
 * own, named as perf names it, "<input>.<event>.dump"; side-band records
 * stay on stdout.  Files are made for every event, sampled or not.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "obuf.h"
#include "script.h"

struct script_dump {
	char *path;
	struct obuf *ob;	/* NULL: shares an earlier event's file */
	int fd;
	uint64_t samples;
};

/* The file of an event named as an earlier one is that one's. */
static int same_name_before(struct script_ctx *c, uint32_t i)
{
	for (uint32_t j = 0; j < i; j++)
		if (c->dumps[j].path && !strcmp(c->dumps[j].path, c->dumps[i].path))
			return (int)j;
	return -1;
}

static int open_one(struct script_ctx *c, uint32_t i, const char *name)
{
	struct script_dump *d = &c->dumps[i];

	/* perf names pipe input's files after no path at all */
	if (asprintf(&d->path, "%s.%s.dump", c->dump_input ? c->dump_input : "(null)",
		     name ? name : "") < 0) {
		d->path = NULL;
		return -ENOMEM;
	}
	d->fd = -1;
	if (same_name_before(c, i) >= 0)
		return 0;
	d->fd = open(d->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (d->fd < 0) {
		int err = errno;

		fprintf(stderr, "perfkit: script: cannot create %s: %s\n", d->path, strerror(err));
		return -err;
	}
	d->ob = obuf_open(d->fd);
	return d->ob ? 0 : -ENOMEM;
}

int script_dump_open(struct script_ctx *c)
{
	struct pk_reader *r = pk_session_reader(c->session);
	struct script_dump *d;

	if (c->nr_attrs <= c->nr_dumps)
		return 0;
	d = realloc(c->dumps, c->nr_attrs * sizeof(*d));
	if (!d)
		return -ENOMEM;
	c->dumps = d;
	memset(d + c->nr_dumps, 0, (c->nr_attrs - c->nr_dumps) * sizeof(*d));
	for (uint32_t i = c->nr_dumps; i < c->nr_attrs; i++) {
		int err = open_one(c, i, pk_reader_attr(r, i)->name);

		c->nr_dumps = i + 1;
		if (err)
			return err;
	}
	return 0;
}

/* The buffer the samples of attr index i go to; counts the sample. */
struct obuf *script_dump_ob(struct script_ctx *c, uint32_t i)
{
	int first = same_name_before(c, i);
	struct script_dump *d = &c->dumps[first >= 0 ? (uint32_t)first : i];

	d->samples++;
	return d->ob;
}

/*
 * perf measures each file before flushing its last stdio buffer: the size
 * it states is the file's rounded down to the buffer size (st_blksize).
 */
static double stated_mb(const struct stat *st)
{
	off_t blk = st->st_blksize > 0 ? st->st_blksize : 4096;

	return (double)(st->st_size - st->st_size % blk) / 1024.0 / 1024.0;
}

/* Close every file and say on stdout what was written, as perf does. */
int script_dump_close(struct script_ctx *c)
{
	int ret = 0;

	for (uint32_t i = 0; i < c->nr_dumps; i++) {
		struct script_dump *d = &c->dumps[i];
		struct stat st;

		if (d->ob) {
			int err = obuf_close(d->ob);

			if (err && !ret)
				ret = err;
			if (!fstat(d->fd, &st))
				printf("[ perfkit script: Wrote %.3f MB %s (%llu samples) ]\n",
				       stated_mb(&st), d->path, (unsigned long long)d->samples);
		}
		if (d->fd >= 0)
			close(d->fd);
		free(d->path);
	}
	free(c->dumps);
	c->dumps = NULL;
	c->nr_dumps = 0;
	return ret;
}
