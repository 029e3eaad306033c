// SPDX-License-Identifier: MIT
/* Workload of the build-id cache tests: two functions with their own names
 * to find in reports, long enough to collect a few hundred samples. */
#include <stdio.h>

static volatile unsigned long sink;

__attribute__((noinline)) void bidtest_spin_a(void)
{
	for (unsigned long i = 0; i < 60000000; i++)
		sink += i;
}

__attribute__((noinline)) void bidtest_spin_b(void)
{
	for (unsigned long i = 0; i < 30000000; i++)
		sink ^= i;
}

int main(void)
{
	bidtest_spin_a();
	bidtest_spin_b();
	printf("%lu\n", sink);
	return 0;
}
