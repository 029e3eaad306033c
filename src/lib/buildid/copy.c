// SPDX-License-Identifier: MIT
/*
 * Putting files in the cache so that nobody ever sees half of one: each is
 * written under a temporary name in its final directory, then rename(2)d
 * over the final name, which is atomic.  Two recordings adding the same
 * file at once each rename a complete copy; the last one stays.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "buildid_internal.h"

int pki_mkdirs(const char *path, mode_t mode)
{
	char buf[PATH_MAX];
	size_t n = strlen(path);

	if (n >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, n + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, mode) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, mode) && errno != EEXIST)
		return -errno;
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path) ? -errno : 0;
	return unlink(path) && errno != ENOENT ? -errno : 0;
}

int pki_rm_rf(const char *path)
{
	int err = nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);

	if (err == -1)
		return errno == ENOENT ? 0 : -errno;
	return err;
}

/* A temporary file beside dst: "<dir>/.<base>.XXXXXX". */
static int open_temp(const char *dst, char *tmp, size_t len)
{
	const char *slash = strrchr(dst, '/');
	int n, fd;

	if (!slash)
		return -EINVAL;
	n = snprintf(tmp, len, "%.*s/.%s.XXXXXX", (int)(slash - dst), dst, slash + 1);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int write_all(int fd, const void *p, size_t n)
{
	const char *s = p;

	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

static int copy_fd(int in, int out)
{
	char buf[65536];

	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf));
		int err;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		if ((err = write_all(out, buf, (size_t)n)))
			return err;
	}
}

static int finish_temp(struct pk_buildid_cache *c, int fd, const char *tmp, const char *dst,
		       int err)
{
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, dst))
		err = -errno;
	if (err) {
		unlink(tmp);
		return pki_bidc_fail(c, err, "%s: %s", dst, strerror(-err));
	}
	return 0;
}

int pki_bidc_copy_file(struct pk_buildid_cache *c, const char *src, const char *dst)
{
	char tmp[PATH_MAX];
	struct stat st;
	int in, out, err;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return pki_bidc_fail(c, -errno, "%s: %s", src, strerror(errno));
	out = open_temp(dst, tmp, sizeof(tmp));
	if (out < 0) {
		close(in);
		return pki_bidc_fail(c, out, "%s: %s", dst, strerror(-out));
	}
	err = copy_fd(in, out);
	/* keep the file's permission bits (perf's copies stay executable) */
	if (!err && !fstat(in, &st) && S_ISREG(st.st_mode))
		fchmod(out, st.st_mode & 0755);
	else if (!err)
		fchmod(out, 0644);
	close(in);
	return finish_temp(c, out, tmp, dst, err);
}

int pki_bidc_write_mem(struct pk_buildid_cache *c, const void *p, size_t n, const char *dst)
{
	char tmp[PATH_MAX];
	int out = open_temp(dst, tmp, sizeof(tmp));

	if (out < 0)
		return pki_bidc_fail(c, out, "%s: %s", dst, strerror(-out));
	fchmod(out, 0644);
	return finish_temp(c, out, tmp, dst, write_all(out, p, n));
}

int pki_bidc_symlink(struct pk_buildid_cache *c, const char *target, const char *link)
{
	static unsigned int seq;
	char tmp[PATH_MAX];
	int n;

	/* symlink(2) has no O_TMPFILE: a unique name, then rename over */
	for (int tries = 0; tries < 100; tries++) {
		const char *slash = strrchr(link, '/');

		n = snprintf(tmp, sizeof(tmp), "%.*s/.%s.%d.%u", (int)(slash - link), link,
			     slash + 1, (int)getpid(),
			     __atomic_fetch_add(&seq, 1, __ATOMIC_RELAXED));
		if (n < 0 || (size_t)n >= sizeof(tmp))
			return pki_bidc_fail(c, -ENAMETOOLONG, "%s: name too long", link);
		if (!symlink(target, tmp))
			break;
		if (errno != EEXIST)
			return pki_bidc_fail(c, -errno, "%s: %s", link, strerror(errno));
	}
	if (rename(tmp, link)) {
		int err = -errno;

		unlink(tmp);
		return pki_bidc_fail(c, err, "%s: %s", link, strerror(-err));
	}
	return 0;
}
