// SPDX-License-Identifier: MIT
/*
 * overflow_signal: be told by signal each time a counter overflows.
 *
 * Opens a page-fault counter on the calling thread with a sample period of
 * 100, asks for a real-time signal on every overflow (pk_evfd_set_signal)
 * and arms it for a fixed number of overflows with PERF_EVENT_IOC_REFRESH
 * (pk_evfd_refresh): after the last one the kernel disables the event by
 * itself.  Then it touches fresh pages and counts the signals.
 *
 *	overflow_signal [overflows]
 *
 * Exits 0 when every overflow was signalled and the counter stopped after
 * the last one.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <perfkit/perfkit.h>

#define PERIOD 100

static volatile sig_atomic_t signals;

static void on_overflow(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si, (void)uc;
	signals++;
}

static void touch_pages(long n)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)(n * pg), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	madvise(p, (size_t)(n * pg), MADV_NOHUGEPAGE);
	for (long i = 0; i < n; i++)
		((volatile char *)p)[i * pg] = 1;
	munmap(p, (size_t)(n * pg));
}

int main(int argc, char **argv)
{
	int overflows = argc > 1 ? atoi(argv[1]) : 5;
	int signo = SIGRTMIN; /* queued: none is lost when two come close */
	struct perf_event_attr attr = {0};
	struct sigaction sa = {0};
	uint64_t count = 0;
	int fd, err;

	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	attr.sample_period = PERIOD;
	attr.wakeup_events = 1;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	fd = pk_evfd_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, NULL);
	if (fd < 0) {
		fprintf(stderr, "overflow_signal: perf_event_open: %s\n", strerror(-fd));
		return 1;
	}
	sa.sa_sigaction = on_overflow;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(signo, &sa, NULL);
	err = pk_evfd_set_signal(fd, signo, 0);
	if (!err)
		err = pk_evfd_refresh(fd, overflows);
	if (err) {
		fprintf(stderr, "overflow_signal: %s\n", strerror(-err));
		return 1;
	}
	touch_pages((long)PERIOD * overflows * 3);
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		return 1;
	printf("%d signals for %d overflows; counter stopped at %llu (period %d)\n",
	       (int)signals, overflows, (unsigned long long)count, PERIOD);
	close(fd);
	return signals >= overflows && count == (uint64_t)PERIOD * overflows ? 0 : 1;
}
