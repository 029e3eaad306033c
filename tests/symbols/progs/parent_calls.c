// SPDX-License-Identifier: MIT
/*
 * A workload for perf report's parent key and its relatives: one hot
 * function reached through sys_fake (which matches perf's default parent
 * pattern ^sys_), through outer -> work, and through outer -> sys_fake,
 * plus read(2) calls for kernel frames.  Built at -O0 with frame pointers
 * so that every caller stays in the callchains.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static volatile long sink;

__attribute__((noinline)) void spin(long n)
{
	for (long i = 0; i < n; i++)
		sink += i;
}

__attribute__((noinline)) void sys_fake(long n)
{
	spin(n);
	sink++;
}

__attribute__((noinline)) void work(long n)
{
	spin(n);
	sink++;
}

__attribute__((noinline)) void outer(long n)
{
	work(n);
	sys_fake(n);
	sink++;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 100;
	char buf[4096];

	for (int i = 0; i < rounds; i++) {
		int fd = open("/dev/zero", O_RDONLY);

		outer(300000);
		sys_fake(300000);
		for (int j = 0; j < 300 && fd >= 0; j++)
			if (read(fd, buf, sizeof(buf)) < 0)
				break;
		if (fd >= 0)
			close(fd);
	}
	return 0;
}
