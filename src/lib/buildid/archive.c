// SPDX-License-Identifier: MIT
/*
 * perf archive's tarball, written in process: a POSIX (ustar, with pax
 * records for names over 100 bytes) tar, bzip2-compressed, of the cache
 * entries a recording needs, named relative to the cache directory.
 */
#include <bzlib.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "buildid_internal.h"

#define BLOCK 512

struct tar {
	struct pk_buildid_cache *c;
	FILE *f;
	BZFILE *bz;
	int err;
	size_t base_len; /* strlen(cache dir) + 1 */
};

static void put(struct tar *t, const void *p, size_t n)
{
	int bzerr;

	if (t->err || !n)
		return;
	BZ2_bzWrite(&bzerr, t->bz, (void *)p, (int)n);
	if (bzerr != BZ_OK)
		t->err = pki_bidc_fail(t->c, -EIO, "writing the archive failed");
}

static void pad(struct tar *t, uint64_t size)
{
	static const char zeros[BLOCK];

	if (size % BLOCK)
		put(t, zeros, BLOCK - size % BLOCK);
}

static void octal(char *field, size_t width, uint64_t v)
{
	char tmp[32];

	/* callers' values fit their fields: mode, ids, sizes below 8 GiB */
	snprintf(tmp, sizeof(tmp), "%0*llo", (int)width - 1, (unsigned long long)v);
	memcpy(field, tmp, width - 1);
}

static void header(struct tar *t, const char *name, char type, const struct stat *st, uint64_t size,
		   const char *linkname)
{
	char h[BLOCK] = {0};
	unsigned int sum = 0;

	strncpy(h, name, 100);
	octal(h + 100, 8, st->st_mode & 07777);
	octal(h + 108, 8, st->st_uid);
	octal(h + 116, 8, st->st_gid);
	octal(h + 124, 12, size);
	octal(h + 136, 12, (uint64_t)st->st_mtime);
	h[156] = type;
	if (linkname)
		strncpy(h + 157, linkname, 100);
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memset(h + 148, ' ', 8);
	for (size_t i = 0; i < BLOCK; i++)
		sum += (unsigned char)h[i];
	snprintf(h + 148, 8, "%06o", sum);
	put(t, h, BLOCK);
}

/* A pax record "<len> key=value\n", its length counting its own digits. */
static size_t pax_record(char *buf, size_t room, const char *key, const char *val)
{
	size_t body = 1 + strlen(key) + 1 + strlen(val) + 1, len = body + 1;

	while ((size_t)snprintf(NULL, 0, "%zu", len) + body != len)
		len++;
	return (size_t)snprintf(buf, room, "%zu %s=%s\n", len, key, val);
}

/* One entry; names too long for ustar's fields go in a pax header first. */
static void entry(struct tar *t, const char *name, char type, const struct stat *st, uint64_t size,
		  const char *linkname)
{
	char rec[2 * PATH_MAX + 64];
	size_t n = 0;

	if (strlen(name) >= 100)
		n += pax_record(rec, sizeof(rec), "path", name);
	if (linkname && strlen(linkname) >= 100)
		n += pax_record(rec + n, sizeof(rec) - n, "linkpath", linkname);
	if (n) {
		header(t, "././@PaxHeader", 'x', st, n, NULL);
		put(t, rec, n);
		pad(t, n);
	}
	header(t, name, type, st, size, linkname);
}

static void add_file(struct tar *t, const char *path, const struct stat *st)
{
	char buf[65536];
	uint64_t left = (uint64_t)st->st_size;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		t->err = pki_bidc_fail(t->c, -errno, "%s: %s", path, strerror(errno));
		return;
	}
	entry(t, path + t->base_len, '0', st, left, NULL);
	while (left && !t->err) {
		ssize_t n = read(fd, buf, left < sizeof(buf) ? left : sizeof(buf));

		if (n <= 0) { /* shrank meanwhile: keep the archive's shape */
			memset(buf, 0, sizeof(buf));
			n = (ssize_t)(left < sizeof(buf) ? left : sizeof(buf));
		}
		put(t, buf, (size_t)n);
		left -= (uint64_t)n;
	}
	close(fd);
	pad(t, (uint64_t)st->st_size);
}

static void add_tree(struct tar *t, const char *path)
{
	char name[PATH_MAX];
	struct stat st;
	struct dirent *de;
	DIR *d;

	if (lstat(path, &st))
		return;
	if (S_ISREG(st.st_mode)) {
		add_file(t, path, &st);
		return;
	}
	if (!S_ISDIR(st.st_mode) || !(d = opendir(path)))
		return;
	snprintf(name, sizeof(name), "%s/", path + t->base_len);
	entry(t, name, '5', &st, 0, NULL);
	while (!t->err && (de = readdir(d))) {
		if (de->d_name[0] == '.' || /* also our temporaries */
		    snprintf(name, sizeof(name), "%s/%s", path, de->d_name) >= (int)sizeof(name))
			continue;
		add_tree(t, name);
	}
	closedir(d);
}

/* The link and the directory it points to; false when not cached. */
static bool add_id(struct tar *t, const struct pk_build_id *bid)
{
	char hex[65], link[PATH_MAX], target[PATH_MAX], dir[PATH_MAX];
	struct stat st;
	ssize_t n;

	pk_build_id_hex(bid, hex);
	if (pki_bidc_link_path(t->c, hex, link, sizeof(link)) ||
	    pki_bidc_link_target(t->c, hex, dir, sizeof(dir)) || stat(dir, &st) ||
	    lstat(link, &st) || (n = readlink(link, target, sizeof(target) - 1)) < 0)
		return false;
	target[n] = 0;
	entry(t, link + t->base_len, '2', &st, 0, target);
	add_tree(t, dir);
	return true;
}

static int open_out(struct tar *t, const char *out)
{
	int bzerr;

	t->f = fopen(out, "wbe");
	if (!t->f)
		return pki_bidc_fail(t->c, -errno, "%s: %s", out, strerror(errno));
	t->bz = BZ2_bzWriteOpen(&bzerr, t->f, 9, 0, 0);
	if (bzerr != BZ_OK) {
		fclose(t->f);
		unlink(out);
		return pki_bidc_fail(t->c, -ENOMEM, "%s: cannot start bzip2", out);
	}
	return 0;
}

int pk_buildid_cache_archive(struct pk_buildid_cache *c, const struct pk_build_id *ids, size_t nr,
			     const char *out, size_t *missing)
{
	static const char zeros[2 * BLOCK];
	struct tar t = {.c = c, .base_len = strlen(c->dir) + 1};
	int bzerr, nr_added = 0;

	c->err[0] = 0;
	if (missing)
		*missing = 0;
	if (open_out(&t, out))
		return -EIO;
	for (size_t i = 0; i < nr && !t.err; i++) {
		if (add_id(&t, &ids[i]))
			nr_added++;
		else if (missing)
			(*missing)++;
	}
	put(&t, zeros, sizeof(zeros)); /* the end-of-archive marker */
	BZ2_bzWriteClose(&bzerr, t.bz, t.err, NULL, NULL);
	if (!t.err && bzerr != BZ_OK)
		t.err = pki_bidc_fail(c, -EIO, "%s: writing failed", out);
	if ((fclose(t.f) || t.err) && !t.err)
		t.err = pki_bidc_fail(c, -EIO, "%s: %s", out, strerror(errno));
	if (t.err) {
		unlink(out);
		return t.err;
	}
	return nr_added;
}
