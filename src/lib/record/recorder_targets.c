// SPDX-License-Identifier: MIT
/* Which CPUs and threads the events are opened on. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "recorder_internal.h"

#define MAX_CPUS    4096
#define MAX_THREADS 65536

static int add_int(int **arr, int *nr, int v)
{
	int *n;

	for (int i = 0; i < *nr; i++)
		if ((*arr)[i] == v)
			return 0;
	if (*nr >= MAX_THREADS)
		return -E2BIG;
	n = realloc(*arr, (*nr + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	n[(*nr)++] = v;
	*arr = n;
	return 0;
}

/* "0-3,7" -> {0,1,2,3,7}; -EINVAL on anything else. */
int pki_parse_int_list(const char *s, int **out, int *nr, int max_value)
{
	const char *p = s;
	int err = 0;

	*out = NULL;
	*nr = 0;
	while (*p && !err) {
		char *end;
		long a, b;

		errno = 0;
		a = strtol(p, &end, 10);
		if (end == p || errno || a < 0 || a > max_value)
			goto bad;
		b = a;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || errno || b < a || b > max_value)
				goto bad;
			p = end;
		}
		for (long v = a; v <= b && !err; v++)
			err = add_int(out, nr, (int)v);
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	if (!err && *nr == 0)
		goto bad;
	return err;
bad:
	free(*out);
	*out = NULL;
	*nr = 0;
	return err ? err : -EINVAL;
}

static int online_cpus(struct pk_recorder *r)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	char buf[4096];
	int err;

	if (f && fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = 0;
		fclose(f);
		err = pki_parse_int_list(buf, &r->cpus, &r->nr_cpus, MAX_CPUS - 1);
		if (!err)
			return 0;
	} else if (f) {
		fclose(f);
	}
	/* no sysfs: 0..n-1 */
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n <= 0 || n > MAX_CPUS)
		return pki_rec_fail(r, -EINVAL, "cannot tell which CPUs are online");
	r->cpus = malloc(n * sizeof(int));
	if (!r->cpus)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		r->cpus[i] = i;
	r->nr_cpus = (int)n;
	return 0;
}

static int add_process_threads(struct pk_recorder *r, int pid, int **tids, int *nr)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return pki_rec_fail(r, -ESRCH, "-p %d: no such process", pid);
	while (!err && (de = readdir(d))) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);

		if (de->d_name[0] == '.' || *end || tid <= 0 || tid > INT32_MAX)
			continue;
		err = add_int(tids, nr, (int)tid);
	}
	closedir(d);
	return err;
}

static int thread_targets(struct pk_recorder *r)
{
	int *list = NULL, nr = 0, *tids = NULL, nt = 0, err;
	const char *what = r->o.pid_list ? r->o.pid_list : r->o.tid_list;

	err = pki_parse_int_list(what, &list, &nr, INT32_MAX);
	if (err)
		return pki_rec_fail(r, err, "%s %s: not a list of ids", r->o.pid_list ? "-p" : "-t",
				    what);
	for (int i = 0; i < nr && !err; i++) {
		if (r->o.pid_list) {
			err = add_process_threads(r, list[i], &tids, &nt);
		} else {
			char path[64];

			snprintf(path, sizeof(path), "/proc/%d", list[i]);
			if (access(path, F_OK))
				err = pki_rec_fail(r, -ESRCH, "-t %d: no such thread", list[i]);
			else
				err = add_int(&tids, &nt, list[i]);
		}
	}
	free(list);
	if (err) {
		free(tids);
		return err;
	}
	r->threads = tids;
	r->nr_threads = nt;
	return 0;
}

int pki_rec_setup_targets(struct pk_recorder *r)
{
	int err;
	bool tasks = r->o.pid_list || r->o.tid_list;

	if (r->o.pid_list && r->o.tid_list)
		return pki_rec_fail(r, -EINVAL, "-p and -t cannot be used together");
	if (!tasks && !r->o.system_wide && !r->o.cpu_list && !(r->o.argv && r->o.argv[0]))
		return pki_rec_fail(r, -EINVAL,
				    "nothing to record: give a command, -a, -C, -p or -t");
	if (r->o.cpu_list) {
		err = pki_parse_int_list(r->o.cpu_list, &r->cpus, &r->nr_cpus, MAX_CPUS - 1);
		if (err)
			return pki_rec_fail(r, err, "-C %s: not a CPU list", r->o.cpu_list);
		for (int i = 0; i < r->nr_cpus; i++) {
			char path[64];

			snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", r->cpus[i]);
			if (access(path, F_OK))
				return pki_rec_fail(r, -EINVAL, "-C: CPU %d does not exist",
						    r->cpus[i]);
		}
	} else if ((err = online_cpus(r))) {
		return err;
	}
	if (tasks && !r->o.system_wide) {
		r->per_task = true;
		return thread_targets(r);
	}
	r->threads = malloc(sizeof(pid_t));
	if (!r->threads)
		return -ENOMEM;
	r->nr_threads = 1;
	/* the command's pid is filled in once it is forked */
	r->per_task = !r->o.system_wide && !r->o.cpu_list;
	r->trace_command = r->per_task;
	r->threads[0] = -1;
	return 0;
}
