// SPDX-License-Identifier: MIT
/*
 * Target of the probe and filter tests: `probe_target calls N` calls
 * probed_function N times; `probe_target close K M` calls close(1234) K
 * times and close(4321) M times (both fail with EBADF: only the syscall
 * entry matters).  probed_function also writes probe_target_var once per
 * call, for the breakpoint test (the binary is not PIE, so nm's address is
 * the run-time one).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

volatile long probe_target_var;

__attribute__((noinline)) int probed_function(int i)
{
	probe_target_var = i;
	__asm__ volatile("" ::: "memory");
	return i * 3;
}

int main(int argc, char **argv)
{
	int s = 0;

	if (argc == 3 && !strcmp(argv[1], "calls")) {
		for (int i = 0; i < atoi(argv[2]); i++)
			s += probed_function(i);
		return s == -1;
	}
	if (argc == 4 && !strcmp(argv[1], "close")) {
		for (int i = 0; i < atoi(argv[2]); i++)
			close(1234);
		for (int i = 0; i < atoi(argv[3]); i++)
			close(4321);
		return 0;
	}
	return 2;
}
