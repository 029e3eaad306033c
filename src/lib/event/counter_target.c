// SPDX-License-Identifier: MIT
/* Targets of counting: threads of a process, CPU lists, a forked command. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <perfkit/counter.h>
#include "event_internal.h"

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

int pk_thread_list_of_pid(pid_t pid, pid_t **out, int *nr)
{
	char path[64];
	struct dirent *de;
	pid_t *tids = NULL;
	int n = 0, cap = 0;
	DIR *d;

	if (pid <= 0)
		return -EINVAL;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? -ESRCH : -errno;
	while ((de = readdir(d))) {
		char *end;
		long t = strtol(de->d_name, &end, 10);

		if (de->d_name[0] == '.' || *end || t <= 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			pid_t *p = realloc(tids, (size_t)cap * sizeof(*p));
			if (!p) {
				free(tids);
				closedir(d);
				return -ENOMEM;
			}
			tids = p;
		}
		tids[n++] = (pid_t)t;
	}
	closedir(d);
	if (!n) {
		free(tids);
		return -ESRCH;
	}
	qsort(tids, (size_t)n, sizeof(*tids), cmp_pid);
	*out = tids;
	*nr = n;
	return 0;
}

int pk_cpu_list_parse(const char *str, int **cpus)
{
	if (!str || !cpus)
		return -EINVAL;
	return pki_cpu_list_parse(str, cpus);
}

int pk_cpu_list_online(int **cpus)
{
	char buf[4096];

	if (pki_read_small_file("/sys/devices/system/cpu/online", buf, sizeof(buf)) <= 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		if (n <= 0)
			return -ENOENT;
		snprintf(buf, sizeof(buf), "0-%ld", n - 1);
	}
	return pki_cpu_list_parse(buf, cpus);
}

struct pk_workload {
	pid_t pid;
	int go_fd;	/* write end: the child execs when it reads */
	int err_fd;	/* read end: exec's errno, or EOF on success (CLOEXEC) */
	bool waited;
};

static void __attribute__((noreturn)) child(int go, int err, char *const argv[])
{
	char c;
	int e;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (read(go, &c, 1) != 1)
		_exit(127);
	execvp(argv[0], argv);
	e = errno;
	if (write(err, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int pk_workload_prepare(struct pk_workload **out, char *const argv[])
{
	int go[2], err[2];
	struct pk_workload *w;

	if (!argv || !argv[0])
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	if (pipe2(go, O_CLOEXEC)) {
		free(w);
		return -errno;
	}
	if (pipe2(err, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		free(w);
		return -errno;
	}
	w->pid = fork();
	if (w->pid == 0) {
		close(go[1]);
		close(err[0]);
		child(go[0], err[1], argv);
	}
	close(go[0]);
	close(err[1]);
	if (w->pid < 0) {
		int e = errno;
		close(go[1]);
		close(err[0]);
		free(w);
		return -e;
	}
	w->go_fd = go[1];
	w->err_fd = err[0];
	*out = w;
	return 0;
}

pid_t pk_workload_pid(const struct pk_workload *w)
{
	return w->pid;
}

int pk_workload_start(struct pk_workload *w)
{
	int e = 0;
	ssize_t n;

	if (write(w->go_fd, "g", 1) != 1)
		return -errno;
	close(w->go_fd);
	w->go_fd = -1;
	do
		n = read(w->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(w->err_fd);
	w->err_fd = -1;
	return n == (ssize_t)sizeof(e) ? -e : 0;
}

int pk_workload_wait(struct pk_workload *w, int *status, struct rusage *ru)
{
	pid_t r;
	int st = 0;

	do
		r = wait4(w->pid, &st, 0, ru);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	w->waited = true;
	if (status)
		*status = st;
	return 0;
}

void pk_workload_free(struct pk_workload *w)
{
	if (!w)
		return;
	if (w->go_fd >= 0) {
		close(w->go_fd); /* the child sees EOF and exits */
	}
	if (w->err_fd >= 0)
		close(w->err_fd);
	if (!w->waited && w->pid > 0)
		waitpid(w->pid, NULL, 0);
	free(w);
}
