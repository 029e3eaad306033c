// SPDX-License-Identifier: MIT
/*
 * perf's build-id cache: where it is, the name of every file in it, and
 * adding and removing entries (layout in perfkit/buildid.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "buildid_internal.h"
#include "internal.h"
#include <perfkit/symbols.h>

int pki_bidc_fail(struct pk_buildid_cache *c, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
	return err;
}

void pk_build_id_hex(const struct pk_build_id *bid, char out[65])
{
	size_t n = bid->size <= 32 ? bid->size : 32;

	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", bid->data[i]);
	out[2 * n] = 0;
}

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

int pk_build_id_parse(const char *hex, struct pk_build_id *out)
{
	size_t n = strlen(hex);

	if (n < 2 || n > 64 || n % 2)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i += 2) {
		int hi = hexval(hex[i]), lo = hexval(hex[i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		out->data[i / 2] = (uint8_t)(hi << 4 | lo);
	}
	out->size = (uint8_t)(n / 2);
	return 0;
}

bool pki_build_id_equal(const struct pk_build_id *a, const struct pk_build_id *b)
{
	const struct pk_build_id *lng = a->size >= b->size ? a : b;
	size_t n = a->size < b->size ? a->size : b->size;

	if (!n || memcmp(a->data, b->data, n))
		return false;
	for (size_t i = n; i < lng->size && i < sizeof(lng->data); i++)
		if (lng->data[i])
			return false;
	return true;
}

/* Entries are named by the id as given (a recorded one keeps perf's
 * 20-byte padding, as perf names it too). */
static void hex_of(const struct pk_build_id *bid, char hex[65])
{
	pk_build_id_hex(bid, hex);
}

int pk_buildid_cache_open(struct pk_buildid_cache **out, const struct pk_buildid_cache_opts *opts)
{
	struct pk_buildid_cache *c = calloc(1, sizeof(*c));
	const char *dir = NULL, *home;
	int n;

	*out = c;
	if (!c)
		return -ENOMEM;
	if (opts && opts->sz > offsetof(struct pk_buildid_cache_opts, dir))
		dir = opts->dir;
	if (!dir || !*dir)
		dir = getenv("PERF_BUILDID_DIR");
	if (dir && *dir) {
		n = snprintf(c->dir, sizeof(c->dir), "%s", dir);
	} else {
		home = getenv("HOME");
		if (!home || !*home)
			return pki_bidc_fail(c, -ENOENT, "no build-id cache: HOME is not set");
		n = snprintf(c->dir, sizeof(c->dir), "%s/.debug", home);
	}
	if (n < 0 || (size_t)n >= sizeof(c->dir))
		return pki_bidc_fail(c, -ENAMETOOLONG, "build-id cache directory: name too long");
	/* "dir/" and "dir" are the same cache */
	while (n > 1 && c->dir[n - 1] == '/')
		c->dir[--n] = 0;
	return 0;
}

void pk_buildid_cache_close(struct pk_buildid_cache *c)
{
	free(c);
}

const char *pk_buildid_cache_error(const struct pk_buildid_cache *c)
{
	return c ? c->err : "out of memory";
}

const char *pk_buildid_cache_dir(const struct pk_buildid_cache *c)
{
	return c->dir;
}

static bool is_kallsyms(const char *name)
{
	return !strcmp(name, PK_BUILDID_KALLSYMS);
}

static bool is_vdso(const char *name)
{
	return !strcmp(name, PK_BUILDID_VDSO);
}

static const char *file_kind(const char *name)
{
	return is_kallsyms(name) ? "kallsyms" : is_vdso(name) ? "vdso" : "elf";
}

/* "<dir>/<name>/<hex>": name's leading '/' is the separator. */
static int entry_dir(const struct pk_buildid_cache *c, const char *name, const char *hex, char *buf,
		     size_t len)
{
	int n = snprintf(buf, len, "%s%s%s/%s", c->dir, name[0] == '/' ? "" : "/", name, hex);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int pki_bidc_link_path(const struct pk_buildid_cache *c, const char *hex, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/.build-id/%.2s/%s", c->dir, hex, hex + 2);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int pki_bidc_link_target(const struct pk_buildid_cache *c, const char *hex, char *buf, size_t len)
{
	char link[PATH_MAX], target[PATH_MAX];
	ssize_t n;
	int m;

	if (pki_bidc_link_path(c, hex, link, sizeof(link)))
		return -ENAMETOOLONG;
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = 0;
	/* only links of the cache's own shape: never act outside it */
	if (strncmp(target, "../../", 6) || strstr(target + 6, "/../") || !target[6] ||
	    !strncmp(target + 6, "../", 3))
		return -EINVAL;
	m = snprintf(buf, len, "%s/%s", c->dir, target + 6);
	return m < 0 || (size_t)m >= len ? -ENAMETOOLONG : 0;
}

int pk_buildid_cache_path(const struct pk_buildid_cache *c, const char *name,
			  const struct pk_build_id *bid, char *buf, size_t len)
{
	char hex[65], dir[PATH_MAX];
	int n;

	hex_of(bid, hex);
	if (entry_dir(c, name, hex, dir, sizeof(dir)))
		return -ENAMETOOLONG;
	n = snprintf(buf, len, "%s/%s", dir, file_kind(name));
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int pk_buildid_cache_find(const struct pk_buildid_cache *c, const struct pk_build_id *bid,
			  const char *kind, char *buf, size_t len)
{
	char hex[65], link[PATH_MAX];
	int n;

	hex_of(bid, hex);
	if (pki_bidc_link_path(c, hex, link, sizeof(link)))
		return -ENAMETOOLONG;
	n = snprintf(buf, len, "%s/%s", link, kind);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return access(buf, F_OK) ? -ENOENT : 0;
}

bool pk_buildid_cache_has(const struct pk_buildid_cache *c, const struct pk_build_id *bid)
{
	char hex[65], link[PATH_MAX];
	struct stat st;

	hex_of(bid, hex);
	return !pki_bidc_link_path(c, hex, link, sizeof(link)) && !stat(link, &st) &&
	       S_ISDIR(st.st_mode);
}

/* What name is now and where it comes from: its build id, and the file
 * to copy (NULL with *image set for the vdso). */
struct source {
	char path[PATH_MAX]; /* absolute name, or the special name */
	const char *from;
	void *image;
	size_t image_size;
	struct pk_build_id bid;
};

/* With kptr_restrict in force every address reads as 0: such a copy
 * would name nothing, so none is made. */
static bool kallsyms_visible(void)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	unsigned long long addr = 0;
	int n = f ? fscanf(f, "%llx", &addr) : 0;

	if (f)
		fclose(f);
	return n == 1 && addr;
}

static int read_source(struct pk_buildid_cache *c, const char *name, struct source *s)
{
	int err;

	memset(s, 0, sizeof(*s));
	if (is_kallsyms(name) || is_vdso(name)) {
		snprintf(s->path, sizeof(s->path), "%s", name);
	} else if (!realpath(name, s->path)) {
		return pki_bidc_fail(c, -errno, "%s: %s", name, strerror(errno));
	}
	if (is_kallsyms(name)) {
		s->from = "/proc/kallsyms";
		if (!kallsyms_visible())
			return pki_bidc_fail(c, -EPERM,
					     "/proc/kallsyms: kernel addresses are hidden");
		err = pk_kernel_build_id(&s->bid);
	} else if (is_vdso(name)) {
		s->image = pki_vdso_image(&s->image_size);
		err = s->image ? pki_elf_mem_build_id(s->image, s->image_size, &s->bid) : -ENOENT;
	} else {
		s->from = s->path;
		err = pk_elf_build_id(s->path, &s->bid);
	}
	if (err)
		return pki_bidc_fail(c, err == -ENOENT ? -ENOENT : -EINVAL, "%s: %s", name,
				     err == -ENOENT ? "not found" : "no build id");
	return 0;
}

/* Whether the cached copy at path carries bid (kallsyms has no id). */
static bool cached_ok(const char *path, const char *name, const struct pk_build_id *bid)
{
	struct pk_build_id have;

	if (is_kallsyms(name))
		return !access(path, R_OK);
	return !pk_elf_build_id(path, &have) && pki_build_id_equal(&have, bid);
}

static int put_file(struct pk_buildid_cache *c, const struct source *s, const char *dst)
{
	struct pk_build_id now;
	int err;

	if (s->image)
		err = pki_bidc_write_mem(c, s->image, s->image_size, dst);
	else
		err = pki_bidc_copy_file(c, s->from, dst);
	if (err)
		return err;
	/* the file may have been replaced while it was copied */
	if (is_kallsyms(s->path) ? pk_kernel_build_id(&now) || !pki_build_id_equal(&now, &s->bid)
				 : !cached_ok(dst, s->path, &s->bid)) {
		unlink(dst);
		return pki_bidc_fail(c, -ESTALE, "%s: changed while it was copied", s->path);
	}
	return 1;
}

/* perf caches the separate debug file of the same build id as "debug". */
static void put_debug(struct pk_buildid_cache *c, const struct source *s, const char *hex,
		      const char *dir)
{
	char dbg[PATH_MAX], dst[PATH_MAX];
	struct pk_build_id have;

	if (snprintf(dbg, sizeof(dbg), "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2) >=
		    (int)sizeof(dbg) ||
	    snprintf(dst, sizeof(dst), "%s/debug", dir) >= (int)sizeof(dst))
		return;
	if (pk_elf_build_id(dbg, &have) || !pki_build_id_equal(&have, &s->bid))
		return;
	if (!cached_ok(dst, s->path, &s->bid))
		pki_bidc_copy_file(c, dbg, dst);
}

static int put_link(struct pk_buildid_cache *c, const char *name, const char *hex)
{
	char link[PATH_MAX], target[PATH_MAX], have[PATH_MAX];
	ssize_t n;
	int err;

	if (pki_bidc_link_path(c, hex, link, sizeof(link)) ||
	    snprintf(target, sizeof(target), "../..%s%s/%s", name[0] == '/' ? "" : "/", name,
		     hex) >= (int)sizeof(target))
		return pki_bidc_fail(c, -ENAMETOOLONG, "%s: name too long", name);
	n = readlink(link, have, sizeof(have) - 1);
	if (n >= 0 && (have[n] = 0, !strcmp(have, target)))
		return 0;
	*strrchr(link, '/') = 0;
	err = pki_mkdirs(link, 0755);
	if (err)
		return pki_bidc_fail(c, err, "%s: %s", link, strerror(-err));
	link[strlen(link)] = '/';
	return pki_bidc_symlink(c, target, link) ?: 1;
}

int pk_buildid_cache_add(struct pk_buildid_cache *c, const char *name,
			 const struct pk_build_id *bid)
{
	char hex[65], dir[PATH_MAX], dst[PATH_MAX];
	struct source s;
	int err, added = 0, linked;

	c->err[0] = 0;
	err = read_source(c, name, &s);
	if (err)
		goto out;
	if (bid && bid->size && !pki_build_id_equal(bid, &s.bid)) {
		err = pki_bidc_fail(c, -ESTALE, "%s: build id differs from the recorded one", name);
		goto out;
	}
	hex_of(bid && bid->size ? bid : &s.bid, hex);
	if (entry_dir(c, s.path, hex, dir, sizeof(dir)) ||
	    snprintf(dst, sizeof(dst), "%s/%s", dir, file_kind(s.path)) >= (int)sizeof(dst)) {
		err = pki_bidc_fail(c, -ENAMETOOLONG, "%s: name too long", name);
		goto out;
	}
	if ((err = pki_mkdirs(dir, 0755))) {
		pki_bidc_fail(c, err, "%s: %s", dir, strerror(-err));
		goto out;
	}
	if (!cached_ok(dst, s.path, &s.bid) && (added = put_file(c, &s, dst)) < 0) {
		err = added;
		goto out;
	}
	if (!is_kallsyms(s.path) && !is_vdso(s.path))
		put_debug(c, &s, hex, dir);
	linked = put_link(c, s.path, hex);
	err = linked < 0 ? linked : (added || linked);
out:
	free(s.image);
	return err;
}

/* Unlink the .build-id link of hex when it points at dir. */
static void drop_link(const struct pk_buildid_cache *c, const char *hex, const char *dir)
{
	char target[PATH_MAX], link[PATH_MAX];

	if (!pki_bidc_link_target(c, hex, target, sizeof(target)) && !strcmp(target, dir) &&
	    !pki_bidc_link_path(c, hex, link, sizeof(link)))
		unlink(link);
}

int pk_buildid_cache_remove(struct pk_buildid_cache *c, const struct pk_build_id *bid)
{
	char hex[65], dir[PATH_MAX], link[PATH_MAX];
	int err;

	c->err[0] = 0;
	hex_of(bid, hex);
	err = pki_bidc_link_target(c, hex, dir, sizeof(dir));
	if (err == -ENOENT)
		return pki_bidc_fail(c, err, "%s: not in the cache %s", hex, c->dir);
	if (err)
		return pki_bidc_fail(c, err, "%s: unexpected link in the cache", hex);
	pki_bidc_link_path(c, hex, link, sizeof(link));
	if (unlink(link) && errno != ENOENT)
		return pki_bidc_fail(c, -errno, "%s: %s", link, strerror(errno));
	err = pki_rm_rf(dir);
	return err ? pki_bidc_fail(c, err, "%s: %s", dir, strerror(-err)) : 0;
}

/* The absolute form of path (resolved when it still exists). */
static int absolute(const char *path, char *buf, size_t len)
{
	char cwd[PATH_MAX];
	int n;

	if (realpath(path, buf))
		return 0;
	/* a name that is gone cannot be resolved: keep it inside the cache */
	if (strstr(path, "/../") || !strncmp(path, "../", 3) ||
	    (strlen(path) >= 3 && !strcmp(path + strlen(path) - 3, "/..")))
		return -EINVAL;
	if (path[0] == '/' || is_kallsyms(path) || is_vdso(path))
		n = snprintf(buf, len, "%s", path);
	else if (getcwd(cwd, sizeof(cwd)))
		n = snprintf(buf, len, "%s/%s", cwd, path);
	else
		return -errno;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int pk_buildid_cache_purge(struct pk_buildid_cache *c, const char *path)
{
	char abs[PATH_MAX], base[PATH_MAX], dir[PATH_MAX];
	struct pk_build_id bid;
	struct dirent *de;
	DIR *d;
	int nr = 0, err = 0;

	c->err[0] = 0;
	err = absolute(path, abs, sizeof(abs));
	if (err)
		return pki_bidc_fail(c, err, "%s: %s", path,
				     err == -EINVAL ? "'..' in a name that does not exist"
						    : strerror(-err));
	if (snprintf(base, sizeof(base), "%s%s%s", c->dir, abs[0] == '/' ? "" : "/", abs) >=
	    (int)sizeof(base))
		return pki_bidc_fail(c, -ENAMETOOLONG, "%s: name too long", path);
	d = opendir(base);
	if (!d)
		return pki_bidc_fail(c, -errno, "%s: not in the cache %s", path, c->dir);
	while ((de = readdir(d))) {
		char hex[65];

		if (pk_build_id_parse(de->d_name, &bid) ||
		    snprintf(dir, sizeof(dir), "%s/%s", base, de->d_name) >= (int)sizeof(dir))
			continue;
		hex_of(&bid, hex);
		drop_link(c, hex, dir);
		if ((err = pki_rm_rf(dir))) {
			pki_bidc_fail(c, err, "%s: %s", dir, strerror(-err));
			break;
		}
		nr++;
	}
	closedir(d);
	return err ? err : nr;
}
