// SPDX-License-Identifier: MIT
/* Test workload: touch N fresh pages (one fault each), optionally exit with a code. */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000, pg = sysconf(_SC_PAGESIZE);
	char *p;

	if (n <= 0 || n > 10000000)
		return 2;
	p = mmap(NULL, (size_t)(n * pg), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 2;
	madvise(p, (size_t)(n * pg), MADV_NOHUGEPAGE);
	for (long i = 0; i < n; i++)
		((volatile char *)p)[i * pg] = 1;
	return argc > 2 ? atoi(argv[2]) : 0;
}
