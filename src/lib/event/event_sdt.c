// SPDX-License-Identifier: MIT
/*
 * SDT events for perfkit list: the statically defined probes that perf's
 * build-id cache (~/.debug) recorded for binaries added to it.  Each cached
 * binary's directory holds a "probes" file whose lines starting with '%'
 * name one SDT event: "%sdt_provider:name=name".
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "event_internal.h"

/* Room for the cache's root; paths under it get PATH_MAX more. */
#define ROOT_MAX 2048

/* One event of one cached binary: "group:event" and the binary's build id. */
struct sdt_ent {
	char *name;
	char bid[41];
};

struct sdt_vec {
	struct sdt_ent *v;
	size_t n, cap;
};

static const char *buildid_dir(char *buf, size_t len)
{
	const char *env = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");

	if (env && *env)
		snprintf(buf, len, "%s", env);
	else
		snprintf(buf, len, "%s/.debug", home && *home ? home : "/root");
	return buf;
}

static int vec_add(struct sdt_vec *s, const char *name, size_t len, const char *bid)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct sdt_ent *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n].name = strndup(name, len);
	if (!s->v[s->n].name)
		return -ENOMEM;
	snprintf(s->v[s->n].bid, sizeof(s->v[s->n].bid), "%s", bid);
	s->n++;
	return 0;
}

/* The '%' lines of one probes file; a missing file is no error. */
static int read_probes(struct sdt_vec *s, const char *dir, const char *bid)
{
	char path[PATH_MAX + 128], line[1024];
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/probes", dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (!ret && fgets(line, sizeof(line), f)) {
		size_t len;

		if (line[0] != '%')
			continue;
		len = strcspn(line + 1, "= \n");
		if (len && memchr(line + 1, ':', len))
			ret = vec_add(s, line + 1, len, bid);
	}
	fclose(f);
	return ret;
}

static bool is_hex(const char *s, size_t len)
{
	if (strlen(s) != len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("0123456789abcdef", s[i]))
			return false;
	return true;
}

/* Every .build-id/xx/yyyy link whose target directory exists. */
static int scan_cache(struct sdt_vec *s, const char *root)
{
	char path[ROOT_MAX + 64], link[ROOT_MAX + 128];
	DIR *top, *sub;
	struct dirent *a, *b;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/.build-id", root);
	top = opendir(path);
	if (!top)
		return 0;
	while (!ret && (a = readdir(top))) {
		if (!is_hex(a->d_name, 2))
			continue;
		snprintf(path, sizeof(path), "%s/.build-id/%s", root, a->d_name);
		sub = opendir(path);
		if (!sub)
			continue;
		while (!ret && (b = readdir(sub))) {
			char bid[41];

			if (!is_hex(b->d_name, 38))
				continue;
			/* both names were checked: 2 and 38 hex digits */
			memcpy(bid, a->d_name, 2);
			memcpy(bid + 2, b->d_name, 39);
			if (snprintf(link, sizeof(link), "%s/%.38s", path, b->d_name) >=
			    (int)sizeof(link))
				continue;
			if (access(link, F_OK))
				continue;	/* a dangling link: not a valid entry */
			ret = read_probes(s, link, bid);
		}
		closedir(sub);
	}
	closedir(top);
	return ret;
}

/*
 * The binary's path as the cache names it: the link's target with the
 * leading "../.." and the trailing "/<build id>" taken off.
 */
static void orig_name(const char *root, const char *bid, char *out, size_t len)
{
	char link[ROOT_MAX + 128], target[PATH_MAX];
	ssize_t n;
	char *p = target, *slash;

	snprintf(link, sizeof(link), "%s/.build-id/%.2s/%s", root, bid, bid + 2);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0) {
		snprintf(out, len, "?");
		return;
	}
	target[n] = 0;
	while (!strncmp(p, "../", 3))
		p += 3;
	slash = strrchr(p, '/');
	if (slash)
		*slash = 0;
	snprintf(out, len, "/%s", p);
}

/* perf's order: by "group:event@buildid". */
static int cmp_ent(const void *pa, const void *pb)
{
	const struct sdt_ent *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	if (c) {
		/* as whole strings: the '@' after a shorter name sorts it */
		size_t la = strlen(a->name), lb = strlen(b->name);

		if (la < lb && !strncmp(a->name, b->name, la))
			return '@' - (unsigned char)b->name[la];
		if (lb < la && !strncmp(a->name, b->name, lb))
			return (unsigned char)a->name[lb] - '@';
		return c;
	}
	return strcmp(a->bid, b->bid);
}

static bool same_name(const struct sdt_vec *s, size_t i, size_t j)
{
	return j < s->n && !strcmp(s->v[i].name, s->v[j].name);
}

int pki_sdt_foreach(int (*fn)(const char *name, void *arg), void *arg)
{
	struct sdt_vec s = {0};
	char root[ROOT_MAX], path[PATH_MAX + 2], name[PATH_MAX + 600];
	int ret;

	buildid_dir(root, sizeof(root));
	ret = scan_cache(&s, root);
	if (s.n > 1)
		qsort(s.v, s.n, sizeof(*s.v), cmp_ent);
	for (size_t i = 0; !ret && i < s.n; i++) {
		/* a name cached for several binaries says which one */
		if ((i && same_name(&s, i, i - 1)) || same_name(&s, i, i + 1)) {
			orig_name(root, s.v[i].bid, path, sizeof(path));
			snprintf(name, sizeof(name), "%s@%s(%.12s)", s.v[i].name, path, s.v[i].bid);
			ret = fn(name, arg);
		} else {
			ret = fn(s.v[i].name, arg);
		}
	}
	for (size_t i = 0; i < s.n; i++)
		free(s.v[i].name);
	free(s.v);
	return ret;
}
