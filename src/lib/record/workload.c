// SPDX-License-Identifier: MIT
/*
 * The command being recorded: forked first and held on a pipe until the
 * events are open on it (they start at its exec), then released.  An exec
 * failure comes back through a close-on-exec pipe.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "recorder_internal.h"

static void child_main(struct pk_recorder *r, int go_rd, int err_wr)
{
	char c;
	int e;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	/* the command must not write into our pipe-mode output */
	if (r->o.output && !strcmp(r->o.output, "-")) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			close(fd);
		}
	}
	if (read(go_rd, &c, 1) != 1)
		_exit(127); /* the recorder gave up */
	close(go_rd);
	execvp(r->o.argv[0], r->o.argv);
	e = errno;
	if (write(err_wr, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/*
 * perf's name for the forked command until its exec: system-wide
 * recordings synthesize it from /proc (COMM and maps), so samples taken
 * before the exec are shown under it, in perf's reports and ours alike.
 */
#define WORKLOAD_COMM "perf-exec"

/* Fork a child born under NAME: set on this thread around fork(), so that
 * the /proc scan that follows can never see the child under our name. */
static pid_t fork_named(const char *name)
{
	char old[16] = "";
	bool renamed = !prctl(PR_GET_NAME, old, 0, 0, 0) && !prctl(PR_SET_NAME, name, 0, 0, 0);
	pid_t pid = fork();

	if (renamed && pid != 0)
		prctl(PR_SET_NAME, old, 0, 0, 0);
	return pid;
}

int pki_workload_prepare(struct pk_recorder *r)
{
	int go[2], er[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC))
		return pki_rec_fail(r, -errno, "pipe: %s", strerror(errno));
	if (pipe2(er, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return pki_rec_fail(r, -errno, "pipe: %s", strerror(errno));
	}
	pid = fork_named(WORKLOAD_COMM);
	if (pid < 0) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		close(er[0]);
		close(er[1]);
		return pki_rec_fail(r, -e, "fork: %s", strerror(e));
	}
	if (pid == 0) {
		close(go[1]);
		close(er[0]);
		child_main(r, go[0], er[1]);
	}
	close(go[0]);
	close(er[1]);
	r->child = pid;
	r->go_fd = go[1];
	r->err_fd = er[0];
	r->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (r->trace_command)
		r->threads[0] = pid;
	return 0;
}

int pki_workload_start(struct pk_recorder *r)
{
	char c = 1;
	int e = 0;
	ssize_t n;

	if (write(r->go_fd, &c, 1) != 1)
		return pki_rec_fail(r, -errno, "cannot start the command: %s", strerror(errno));
	close(r->go_fd);
	r->go_fd = -1;
	do {
		n = read(r->err_fd, &e, sizeof(e));
	} while (n < 0 && errno == EINTR);
	close(r->err_fd);
	r->err_fd = -1;
	if (n == sizeof(e)) {
		pki_workload_reap(r, true);
		return pki_rec_fail(r, -e, "cannot run '%s': %s", r->o.argv[0], strerror(e));
	}
	return 0;
}

void pki_workload_reap(struct pk_recorder *r, bool wait)
{
	int status;
	pid_t p;

	if (r->child <= 0 || r->child_done)
		return;
	do {
		p = waitpid(r->child, &status, wait ? 0 : WNOHANG);
	} while (p < 0 && errno == EINTR);
	if (p == r->child || (p < 0 && errno == ECHILD)) {
		r->child_done = true;
		r->child_status = p == r->child ? status : 0;
	}
}
