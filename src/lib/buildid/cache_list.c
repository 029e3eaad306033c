// SPDX-License-Identifier: MIT
/*
 * Walking the cache: every .build-id/xx/rest link names an entry; the
 * original file's name is the link's target less "../.." and the hex.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "buildid_internal.h"
#include <perfkit/symbols.h>

struct found {
	char hex[65];
	char *name, *path;
	struct pk_build_id bid;
};

struct found_list {
	struct found *v;
	size_t n, cap;
};

static int push(struct found_list *l, const struct found *f)
{
	if (l->n == l->cap) {
		size_t ncap = l->cap ? l->cap * 2 : 64;
		struct found *nv = realloc(l->v, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		l->v = nv;
		l->cap = ncap;
	}
	l->v[l->n++] = *f;
	return 0;
}

/* "<dir>/<name>/<hex>" back to name ("/usr/bin/ls", "[vdso]"). */
static char *orig_name(const struct pk_buildid_cache *c, const char *path)
{
	size_t dl = strlen(c->dir);
	const char *slash = strrchr(path, '/');
	const char *start = path + dl;
	char *s;

	if (strncmp(path, c->dir, dl) || path[dl] != '/' || !slash || slash <= start)
		return NULL;
	if (start[1] == '[')
		start++;
	s = strndup(start, (size_t)(slash - start));
	return s;
}

static int scan_head(struct pk_buildid_cache *c, const char *head, struct found_list *l)
{
	char path[PATH_MAX], hex[65];
	struct dirent *de;
	DIR *d;
	int err = 0;

	if (snprintf(path, sizeof(path), "%s/.build-id/%s", c->dir, head) >= (int)sizeof(path) ||
	    !(d = opendir(path)))
		return 0;
	while (!err && (de = readdir(d))) {
		struct found f = {0};
		char target[PATH_MAX];

		if (strlen(de->d_name) + 2 >= sizeof(hex) ||
		    snprintf(hex, sizeof(hex), "%s%s", head, de->d_name) >= (int)sizeof(hex))
			continue;
		if (pk_build_id_parse(hex, &f.bid) ||
		    pki_bidc_link_target(c, hex, target, sizeof(target)))
			continue;
		memcpy(f.hex, hex, sizeof(hex));
		f.path = strdup(target);
		f.name = orig_name(c, target);
		if (!f.path || !f.name || push(l, &f)) {
			free(f.path);
			free(f.name);
			err = f.path && !f.name ? 0 : -ENOMEM;
		}
	}
	closedir(d);
	return err;
}

static int by_hex(const void *a, const void *b)
{
	return strcmp(((const struct found *)a)->hex, ((const struct found *)b)->hex);
}

static int collect(struct pk_buildid_cache *c, struct found_list *l)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int err = 0;

	if (snprintf(path, sizeof(path), "%s/.build-id", c->dir) >= (int)sizeof(path))
		return pki_bidc_fail(c, -ENAMETOOLONG, "%s: name too long", c->dir);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? 0
				       : pki_bidc_fail(c, -errno, "%s: %s", path, strerror(errno));
	while (!err && (de = readdir(d))) {
		struct pk_build_id b;

		if (strlen(de->d_name) == 2 && !pk_build_id_parse(de->d_name, &b))
			err = scan_head(c, de->d_name, l);
	}
	closedir(d);
	if (!err)
		qsort(l->v, l->n, sizeof(*l->v), by_hex);
	return err;
}

static void free_found(struct found_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].path);
	}
	free(l->v);
}

static bool valid(const struct found *f)
{
	struct pk_build_id now;

	if (!strcmp(f->name, PK_BUILDID_KALLSYMS))
		return !pk_kernel_build_id(&now) && pki_build_id_equal(&now, &f->bid);
	if (f->name[0] != '/')
		return false;
	return !pk_elf_build_id(f->name, &now) && pki_build_id_equal(&now, &f->bid);
}

int pk_buildid_cache_list(struct pk_buildid_cache *c,
			  int (*fn)(const struct pk_buildid_cache_entry *e, void *arg), void *arg)
{
	struct found_list l = {0};
	int err;

	c->err[0] = 0;
	err = collect(c, &l);
	for (size_t i = 0; !err && i < l.n; i++) {
		struct pk_buildid_cache_entry e = {
			.bid = l.v[i].bid,
			.hex = l.v[i].hex,
			.name = l.v[i].name,
			.path = l.v[i].path,
			.valid = valid(&l.v[i]),
		};

		err = fn(&e, arg);
	}
	free_found(&l);
	return err;
}

int pk_buildid_cache_purge_all(struct pk_buildid_cache *c)
{
	struct found_list l = {0};
	int err, nr = 0;

	c->err[0] = 0;
	err = collect(c, &l);
	for (size_t i = 0; !err && i < l.n; i++) {
		err = pk_buildid_cache_remove(c, &l.v[i].bid);
		nr += !err;
	}
	free_found(&l);
	return err ? err : nr;
}
