// SPDX-License-Identifier: MIT
/* Tracepoints: ids and names from tracefs, mounting it when we may. */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "event_internal.h"

static bool has_events_dir(const char *root)
{
	char path[600];
	struct stat st;

	snprintf(path, sizeof(path), "%s/events", root);
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

const char *pki_tracefs_root(const struct pk_event_parse_opts *opts)
{
	const char *env;

	if (opts && opts->sz >= offsetof(struct pk_event_parse_opts, tracefs_root) +
					sizeof(char *) && opts->tracefs_root)
		return opts->tracefs_root;
	env = getenv("PERFKIT_TRACEFS");
	if (env && *env)
		return env;
	if (has_events_dir("/sys/kernel/tracing"))
		return "/sys/kernel/tracing";
	if (has_events_dir("/sys/kernel/debug/tracing"))
		return "/sys/kernel/debug/tracing";
	/* Not mounted: as root, mount it where the kernel expects it. */
	if (geteuid() == 0 && !mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) &&
	    has_events_dir("/sys/kernel/tracing"))
		return "/sys/kernel/tracing";
	return "/sys/kernel/tracing";
}

static bool safe_component(const char *s)
{
	return *s && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..");
}

long pki_tracepoint_id(const char *tracefs, const char *sys, const char *name)
{
	char path[1024], buf[32], *end;
	long id;

	if (!safe_component(sys) || !safe_component(name))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs, sys, name);
	if (pki_read_small_file(path, buf, sizeof(buf)) <= 0)
		return -ENOENT;
	id = strtol(buf, &end, 10);
	if (end == buf || id < 0)
		return -EINVAL;
	return id;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Systems sort as "sys:" would, so "fib6:..." comes before "fib:..." as in perf list. */
static int cmp_sys(const void *a, const void *b)
{
	const unsigned char *x = *(unsigned char *const *)a, *y = *(unsigned char *const *)b;

	for (;; x++, y++) {
		int cx = *x ? *x : ':', cy = *y ? *y : ':';

		if (cx != cy || (!*x && !*y))
			return cx - cy;
	}
}

/* Sorted names of the subdirectories of dir matching glob; caller frees. */
/* cmp NULL: keep the directory's order, as perf's glob expansion does. */
static int list_dirs(const char *dir, const char *glob, char ***out,
		     int (*cmp)(const void *, const void *))
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	int n = 0, cap = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || fnmatch(glob, de->d_name, 0))
			continue;
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			char **p = realloc(names, (size_t)cap * sizeof(*p));
			if (!p)
				goto nomem;
			names = p;
		}
		if (!(names[n] = strdup(de->d_name)))
			goto nomem;
		n++;
	}
	closedir(d);
	if (n > 1 && cmp)
		qsort(names, (size_t)n, sizeof(*names), cmp);
	*out = names;
	return n;
nomem:
	closedir(d);
	while (n--)
		free(names[n]);
	free(names);
	return -ENOMEM;
}

static void free_names(char **names, int n)
{
	while (n-- > 0)
		free(names[n]);
	free(names);
}

int pki_tracepoint_foreach(const char *tracefs, const char *sys_glob, const char *name_glob,
			   bool sorted,
			   int (*fn)(const char *sys, const char *name, long id, void *arg),
			   void *arg)
{
	char path[1024], **systems = NULL, **events;
	int nsys, nev, ret = 0;

	snprintf(path, sizeof(path), "%s/events", tracefs);
	nsys = list_dirs(path, sys_glob, &systems, sorted ? cmp_sys : NULL);
	if (nsys < 0)
		return nsys;
	for (int i = 0; i < nsys && !ret; i++) {
		snprintf(path, sizeof(path), "%s/events/%s", tracefs, systems[i]);
		nev = list_dirs(path, name_glob, &events, sorted ? cmp_str : NULL);
		if (nev < 0)
			continue;
		for (int j = 0; j < nev && !ret; j++) {
			long id = pki_tracepoint_id(tracefs, systems[i], events[j]);

			if (id >= 0)
				ret = fn(systems[i], events[j], id, arg);
		}
		free_names(events, nev);
	}
	free_names(systems, nsys);
	return ret;
}
