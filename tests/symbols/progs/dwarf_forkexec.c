// SPDX-License-Identifier: MIT
/*
 * A process that forks a shell (which execs, so its maps start anew)
 * and waits for it, for tests/symbols/dwarf_unwind.sh.  Linked with libm,
 * which the loader maps before libc: run without address space
 * randomization (setarch -R), the parent's libc then lies lower than the
 * shell's, and stays in the shell's maps as perf keeps them.
 */
#include <math.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile double sink;

int main(void)
{
	pid_t pid = fork();
	int status = 0;

	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done",
		      (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 2000000; i++)
		sink += sqrt((double)i);
	if (pid > 0)
		waitpid(pid, &status, 0);
	return pid > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
