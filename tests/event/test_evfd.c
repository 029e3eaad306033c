// SPDX-License-Identifier: MIT
/*
 * The evfd module: every ioctl wrapper, the task prctls, overflow
 * notification by poll and signal, sigtrap, live on software events,
 * tracepoints and breakpoints; attribute negotiation against a fake
 * kernel (hand-built answers: this machine's kernel knows every bit).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <linux/hw_breakpoint.h>
#include <perfkit/perfkit.h>
#include "event/event_internal.h"

#ifndef TRAP_PERF
#define TRAP_PERF 6
#endif

static void touch_pages(int n)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)(n * pg), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(p != MAP_FAILED);
	madvise(p, (size_t)(n * pg), MADV_NOHUGEPAGE);
	for (int i = 0; i < n; i++)
		((volatile char *)p)[(long)i * pg] = 1;
	munmap(p, (size_t)(n * pg));
}

static struct perf_event_attr sw_attr(uint64_t config)
{
	struct perf_event_attr a = {0};

	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return a;
}

static int open_self(struct perf_event_attr *a, int group_fd)
{
	int fd = pk_evfd_open(a, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC, NULL);

	if (fd == -EACCES || fd == -EPERM)
		skip();
	assert_true(fd >= 0);
	return fd;
}

static uint64_t read_count(int fd)
{
	uint64_t v = 0;

	assert_int_equal(read(fd, &v, sizeof(v)), sizeof(v));
	return v;
}

/* ---- negotiation against a fake kernel ------------------------------ */

static uint32_t fake_max_size;		/* E2BIG above this size */
static unsigned int fake_refused;	/* PK_EVFD_* answered with EINVAL */
static int fake_errno;			/* any other answer, when set */
static int fake_calls;

static bool uses(const struct perf_event_attr *a, unsigned int f)
{
	switch (f) {
	case PK_EVFD_SIGTRAP:
		return a->sigtrap;
	case PK_EVFD_BUILD_ID:
		return a->build_id;
	case PK_EVFD_TEXT_POKE:
		return a->text_poke;
	case PK_EVFD_MMAP2:
		return a->mmap2;
	default:
		return false;
	}
}

static long fake_open(struct perf_event_attr *a, pid_t pid, int cpu, int group_fd,
		      unsigned long flags)
{
	(void)pid, (void)cpu, (void)group_fd, (void)flags;
	fake_calls++;
	if (fake_errno) {
		errno = fake_errno;
		return -1;
	}
	if (fake_max_size && a->size > fake_max_size) {
		a->size = fake_max_size;
		errno = E2BIG;
		return -1;
	}
	for (unsigned int f = 1; f <= PK_EVFD_ATTR_TAIL; f <<= 1) {
		if ((fake_refused & f) && uses(a, f)) {
			errno = EINVAL;
			return -1;
		}
	}
	return 1000;
}

static void fake_kernel(uint32_t max_size, unsigned int refused, int err)
{
	fake_max_size = max_size;
	fake_refused = refused;
	fake_errno = err;
	fake_calls = 0;
	pki_evfd_set_syscall(fake_open);
}

static void test_negotiate_e2big(void **state)
{
	struct perf_event_attr a = sw_attr(PERF_COUNT_SW_CPU_CLOCK);
	struct pk_evfd_open_info info = {.sz = sizeof(info)};

	(void)state;
	/* a 5.x kernel that knows attrs up to 112 bytes (VER6); sig_data
	 * lies past it and is lost */
	pk_attr_set_sigtrap(&a, 42, true);
	fake_kernel(PERF_ATTR_SIZE_VER6, 0, 0);
	assert_int_equal(pk_evfd_open(&a, 0, -1, -1, 0, &info), 1000);
	assert_int_equal(fake_calls, 2);
	assert_int_equal(info.attr.size, PERF_ATTR_SIZE_VER6);
	assert_int_equal(info.attr.sig_data, 0);
	assert_true(info.dropped & PK_EVFD_ATTR_TAIL);
	assert_non_null(strstr(info.dropped_names, "attr_tail"));
	/* the caller's attr is left alone */
	assert_int_equal(a.sig_data, 42);
	assert_int_equal(a.size, sizeof(a));
	pki_evfd_set_syscall(NULL);
}

static void test_negotiate_einval_order(void **state)
{
	struct perf_event_attr a = sw_attr(PERF_COUNT_SW_CPU_CLOCK);
	struct pk_evfd_open_info info = {.sz = sizeof(info)};

	(void)state;
	a.build_id = 1;
	a.text_poke = 1;
	a.mmap2 = 1;
	/* a 5.8 kernel: neither build_id (5.12) nor text_poke (5.9) */
	fake_kernel(0, PK_EVFD_BUILD_ID | PK_EVFD_TEXT_POKE, 0);
	assert_int_equal(pk_evfd_open(&a, 0, -1, -1, 0, &info), 1000);
	/* newest first: build_id, then text_poke; mmap2 kept */
	assert_int_equal(fake_calls, 3);
	assert_int_equal(info.dropped, PK_EVFD_BUILD_ID | PK_EVFD_TEXT_POKE);
	assert_string_equal(info.dropped_names, "build_id, text_poke");
	assert_int_equal(info.attr.mmap2, 1);
	assert_int_equal(info.attr.build_id, 0);
	assert_int_equal(info.attr.text_poke, 0);
	pki_evfd_set_syscall(NULL);
}

static void test_negotiate_gives_up(void **state)
{
	struct perf_event_attr a = sw_attr(PERF_COUNT_SW_CPU_CLOCK);
	struct pk_evfd_open_info info = {.sz = sizeof(info)};

	(void)state;
	a.mmap2 = 1;
	a.sample_id_all = 1;
	/* EACCES is not negotiable: one call */
	fake_kernel(0, 0, EACCES);
	assert_int_equal(pk_evfd_open(&a, 0, -1, -1, 0, &info), -EACCES);
	assert_int_equal(fake_calls, 1);
	assert_int_equal(info.dropped, 0);
	/* EINVAL whatever is dropped: every feature in use tried once, then
	 * the first error */
	fake_kernel(0, 0, EINVAL);
	assert_int_equal(pk_evfd_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, &info), -EINVAL);
	assert_int_equal(fake_calls, 4); /* mmap2, cloexec, sample_id_all */
	assert_int_equal(info.dropped, 0);
	pki_evfd_set_syscall(NULL);
}

static void test_feature_names(void **state)
{
	char buf[16];

	(void)state;
	assert_string_equal(pk_evfd_feature_names(PK_EVFD_MMAP2 | PK_EVFD_SIGTRAP, buf,
						  sizeof(buf)),
			    "sigtrap, mmap2");
	/* truncated at a whole name, always terminated */
	pk_evfd_feature_names(PK_EVFD_SIGTRAP | PK_EVFD_CONTEXT_SWITCH, buf, sizeof(buf));
	assert_string_equal(buf, "sigtrap");
}

/* ---- ioctls ------------------------------------------------------------ */

static void test_group_enable_disable_reset(void **state)
{
	struct perf_event_attr la = sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr ma = sw_attr(PERF_COUNT_SW_PAGE_FAULTS_MIN);
	int leader, member;
	uint64_t l1, m1, l2, m2;

	(void)state;
	leader = open_self(&la, -1);
	ma.disabled = 0; /* runs whenever its leader does */
	member = open_self(&ma, leader);
	touch_pages(50);
	assert_int_equal(read_count(leader), 0);
	assert_int_equal(pk_evfd_enable(leader, true), 0);
	touch_pages(200);
	assert_int_equal(pk_evfd_disable(leader, true), 0);
	l1 = read_count(leader);
	m1 = read_count(member);
	assert_true(l1 >= 200);
	assert_true(m1 >= 200);
	touch_pages(100);
	assert_int_equal(read_count(leader), l1);
	assert_int_equal(read_count(member), m1);
	/* reset without the group flag: only the leader */
	assert_int_equal(pk_evfd_reset(leader, false), 0);
	assert_int_equal(read_count(leader), 0);
	assert_int_equal(read_count(member), m1);
	assert_int_equal(pk_evfd_reset(leader, true), 0);
	assert_int_equal(read_count(member), 0);
	/* the group disable switched the member off too: enabling only the
	 * leader (no group flag) leaves it off, the group flag brings it back */
	assert_int_equal(pk_evfd_enable(leader, false), 0);
	touch_pages(100);
	l2 = read_count(leader);
	m2 = read_count(member);
	assert_true(l2 >= 100);
	assert_int_equal(m2, 0);
	assert_int_equal(pk_evfd_enable(leader, true), 0);
	touch_pages(100);
	assert_true(read_count(member) >= 100);
	close(member);
	close(leader);
}

static void test_id(void **state)
{
	struct perf_event_attr a = sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	uint64_t id = 0, buf[2];
	int fd;

	(void)state;
	a.read_format = PERF_FORMAT_ID;
	fd = open_self(&a, -1);
	assert_int_equal(pk_evfd_id(fd, &id), 0);
	assert_true(id != 0);
	assert_int_equal(read(fd, buf, sizeof(buf)), sizeof(buf));
	assert_int_equal(buf[1], id);
	close(fd);
}

/* the samples' periods and ids in a ring */
struct ring_scan {
	int samples;
	uint64_t ids[2];
	int per_id[2];
};

static void scan_ring(struct pk_ring *r, struct ring_scan *s)
{
	const struct perf_event_header *h;

	if (pk_ring_begin(r) <= 0)
		return;
	while (pk_ring_next(r, &h) > 0) {
		const uint64_t *p = (const uint64_t *)(h + 1);

		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		/* sample_type ID: the id alone */
		s->samples++;
		for (int i = 0; i < 2; i++)
			s->per_id[i] += p[0] == s->ids[i];

	}
	pk_ring_end(r);
}

static int open_sampler(uint64_t period, struct pk_ring **ring)
{
	struct perf_event_attr a = sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct pk_ring_opts ro = {.sz = sizeof(ro), .data_pages = 16};
	int fd;

	a.sample_period = period;
	/* not PERF_SAMPLE_PERIOD: with it, a software event samples every
	 * occurrence whatever the period (the kernel then puts the count in
	 * the period field) */
	a.sample_type = PERF_SAMPLE_ID;
	a.wakeup_events = 1;
	fd = open_self(&a, -1);
	if (ring)
		assert_int_equal(pk_ring_map(ring, fd, &ro), 0);
	return fd;
}

static void test_period(void **state)
{
	struct ring_scan s = {0};
	struct pk_ring *r;
	int fd = open_sampler(1000, &r);

	(void)state;
	assert_int_equal(pk_evfd_enable(fd, false), 0);
	touch_pages(3000);
	scan_ring(r, &s);
	assert_in_range(s.samples, 2, 4);
	/* a software event takes the new period at its next overflow, which
	 * can be up to 1000 faults away */
	assert_int_equal(pk_evfd_period(fd, 10), 0);
	touch_pages(1300);
	s.samples = 0;
	scan_ring(r, &s);
	assert_in_range(s.samples, 25, 135);
	pk_ring_unmap(r);
	close(fd);
}

static void test_set_output(void **state)
{
	struct ring_scan s = {0};
	struct pk_ring *r;
	int a = open_sampler(10, &r), b = open_sampler(10, NULL);

	(void)state;
	assert_int_equal(pk_evfd_set_output(b, a), 0);
	assert_int_equal(pk_evfd_id(a, &s.ids[0]), 0);
	assert_int_equal(pk_evfd_id(b, &s.ids[1]), 0);
	pk_evfd_enable(a, false);
	pk_evfd_enable(b, false);
	touch_pages(200);
	scan_ring(r, &s);
	/* 200 faults at period 10: 20 samples of each event, all in a's ring
	 * (b has no ring of its own) */
	assert_in_range(s.samples, 36, 44);
	assert_int_equal(s.per_id[0] + s.per_id[1], s.samples);
	pk_ring_unmap(r);
	close(b);
	close(a);
}

static void test_pause_output(void **state)
{
	struct ring_scan s = {0};
	struct pk_ring *r;
	int fd = open_sampler(1, &r);

	(void)state;
	pk_evfd_enable(fd, false);
	assert_int_equal(pk_evfd_pause_output(fd, true), 0);
	touch_pages(100);
	scan_ring(r, &s);
	assert_int_equal(s.samples, 0);
	assert_int_equal(pk_evfd_pause_output(fd, false), 0);
	touch_pages(100);
	scan_ring(r, &s);
	assert_true(s.samples >= 100);
	pk_ring_unmap(r);
	close(fd);
}

static long tracepoint_id(const char *name)
{
	char path[256], buf[32] = {0};
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/id", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return atol(buf);
}

static int open_tracepoint(const char *name)
{
	struct perf_event_attr a = {0};
	long id = tracepoint_id(name);
	int fd;

	if (id <= 0)
		skip();
	a.size = sizeof(a);
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = (uint64_t)id;
	a.disabled = 1;
	fd = pk_evfd_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, NULL);
	if (fd < 0)
		skip();
	return fd;
}

static void test_set_filter(void **state)
{
	struct perf_event_attr a = sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	int tp = open_tracepoint("syscalls/sys_enter_getppid");
	int sw;

	(void)state;
	assert_int_equal(pk_evfd_set_filter(tp, "common_pid == 1"), 0);
	pk_evfd_enable(tp, false);
	for (int i = 0; i < 10; i++)
		getppid();
	/* we are not pid 1: every call filtered out */
	assert_int_equal(read_count(tp), 0);
	/* Linux takes one filter per event: a second one is EEXIST */
	assert_int_equal(pk_evfd_set_filter(tp, "common_pid != 1"), -EEXIST);
	close(tp);
	tp = open_tracepoint("syscalls/sys_enter_getppid");
	assert_int_equal(pk_evfd_set_filter(tp, "common_pid != 1"), 0);
	pk_evfd_enable(tp, false);
	for (int i = 0; i < 10; i++)
		getppid();
	assert_int_equal(read_count(tp), 10);
	close(tp);
	tp = open_tracepoint("syscalls/sys_enter_getppid");
	assert_int_equal(pk_evfd_set_filter(tp, "no_such_field == 1"), -EINVAL);
	assert_int_equal(pk_evfd_set_filter(tp, NULL), -EINVAL);
	sw = open_self(&a, -1);
	assert_true(pk_evfd_set_filter(sw, "common_pid == 1") < 0);
	close(sw);
	close(tp);
}

static void test_bpf_calls(void **state)
{
	struct perf_event_attr a = sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	int tp = open_tracepoint("syscalls/sys_enter_getppid");
	int sw = open_self(&a, -1), notbpf = open("/dev/null", O_RDONLY);
	uint32_t ids[4], count = 99;

	(void)state;
	/* no program attached to the tracepoint yet */
	assert_int_equal(pk_evfd_query_bpf(tp, ids, 4, &count), 0);
	assert_int_equal(count, 0);
	/* a descriptor that is not a BPF program is refused */
	assert_true(pk_evfd_set_bpf(tp, notbpf) < 0);
	assert_true(pk_evfd_set_bpf(sw, notbpf) < 0);
	close(notbpf);
	close(sw);
	close(tp);
}

static volatile long bp_a, bp_b;

static void test_modify_breakpoint(void **state)
{
	struct perf_event_attr a = {0};
	int fd;

	(void)state;
	a.size = sizeof(a);
	a.type = PERF_TYPE_BREAKPOINT;
	a.bp_type = HW_BREAKPOINT_W;
	a.bp_addr = (uint64_t)(uintptr_t)&bp_a;
	a.bp_len = HW_BREAKPOINT_LEN_8;
	a.sample_period = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = open_self(&a, -1);
	pk_evfd_enable(fd, false);
	for (int i = 0; i < 5; i++)
		bp_a = i;
	if (read_count(fd) == 0) {
		/* seen on Firecracker VMs: the breakpoint opens but the
		 * hypervisor never delivers the debug exception */
		print_message("hardware breakpoints never fire on this machine\n");
		close(fd);
		skip();
	}
	assert_int_equal(read_count(fd), 5);
	a.bp_addr = (uint64_t)(uintptr_t)&bp_b;
	assert_int_equal(pk_evfd_modify_attributes(fd, &a), 0);
	for (int i = 0; i < 7; i++) {
		bp_a = i;
		bp_b = i;
	}
	assert_int_equal(read_count(fd), 12);
	close(fd);
}

static void test_task_prctl(void **state)
{
	struct perf_event_attr a = sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd = open_self(&a, -1);
	uint64_t c1;

	(void)state;
	pk_evfd_enable(fd, false);
	touch_pages(100);
	assert_int_equal(pk_task_events_disable(), 0);
	c1 = read_count(fd);
	assert_true(c1 >= 100);
	touch_pages(100);
	assert_int_equal(read_count(fd), c1);
	assert_int_equal(pk_task_events_enable(), 0);
	touch_pages(100);
	assert_true(read_count(fd) >= c1 + 100);
	close(fd);
}

static void test_poll_in(void **state)
{
	struct pk_ring *r;
	int fd = open_sampler(1, &r);
	short rev = 0;

	(void)state;
	assert_int_equal(pk_evfd_poll(&fd, 1, 0, &rev), 0);
	pk_evfd_enable(fd, false);
	touch_pages(10);
	assert_int_equal(pk_evfd_poll(&fd, 1, 1000, &rev), 1);
	assert_true(rev & POLLIN);
	pk_ring_unmap(r);
	close(fd);
}

static void test_poll_hup(void **state)
{
	struct perf_event_attr a = sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct pk_ring_opts ro = {.sz = sizeof(ro), .data_pages = 1};
	struct pk_ring *r;
	int go[2], fd, status;
	short rev = 0;
	pid_t pid;
	char c = 0;

	(void)state;
	assert_int_equal(pipe(go), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(go[0]);
	a.disabled = 0;
	fd = pk_evfd_open(&a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC, NULL);
	assert_true(fd >= 0);
	/* without a ring every poll says POLLHUP: map one */
	assert_int_equal(pk_ring_map(&r, fd, &ro), 0);
	assert_int_equal(pk_evfd_poll(&fd, 1, 0, &rev), 0);
	assert_int_equal(write(go[1], &c, 1), 1);
	waitpid(pid, &status, 0);
	assert_int_equal(pk_evfd_poll(&fd, 1, 2000, &rev), 1);
	assert_true(rev & POLLHUP);
	pk_ring_unmap(r);
	close(go[1]);
	close(fd);
}

static volatile sig_atomic_t sig_count, sig_fd_ok;
static volatile int sig_expect_fd;

static void on_overflow(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	sig_count++;
	if (si->si_fd == sig_expect_fd)
		sig_fd_ok++;
}

/* REFRESH n: n overflows, each signalled, then the event disables itself */
static void test_refresh_signal(void **state)
{
	struct perf_event_attr a = sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct sigaction sa = {0}, old;
	int signo = SIGRTMIN + 1;
	int fd;

	(void)state;
	a.sample_period = 10;
	a.wakeup_events = 1;
	fd = open_self(&a, -1);
	sa.sa_sigaction = on_overflow;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(signo, &sa, &old);
	sig_count = sig_fd_ok = 0;
	sig_expect_fd = fd;
	assert_int_equal(pk_evfd_set_signal(fd, signo, 0), 0);
	assert_int_equal(pk_evfd_refresh(fd, 3), 0);
	touch_pages(500);
	/* disabled after the third overflow: 30 faults counted */
	assert_int_equal(read_count(fd), 30);
	assert_true(sig_count >= 3);
	assert_int_equal(sig_fd_ok, sig_count);
	assert_int_equal(pk_evfd_refresh(fd, 0), -EINVAL);
	sigaction(signo, &old, NULL);
	close(fd);
}

static volatile sig_atomic_t trap_count;
static volatile unsigned long trap_data;
static volatile int trap_code;

static void on_trap(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	trap_count++;
	trap_code = si->si_code;
	/* si_perf_data: the word after si_addr in the kernel's siginfo
	 * (glibc 2.36 has no name for it) */
	trap_data = ((unsigned long *)&si->si_addr)[1];
}

static void test_sigtrap(void **state)
{
	struct perf_event_attr a = sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct sigaction sa = {0}, old;
	int fd;

	(void)state;
	/* a software event: breakpoints, the usual sigtrap users, never
	 * fire on some VMs */
	a.sample_period = 10;
	pk_attr_set_sigtrap(&a, 0xfeed, true);
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGTRAP, &sa, &old);
	trap_count = 0;
	fd = open_self(&a, -1);
	assert_int_equal(pk_evfd_enable(fd, false), 0);
	touch_pages(100);
	pk_evfd_disable(fd, false);
	assert_in_range(trap_count, 9, 11);
	assert_int_equal(trap_code, TRAP_PERF);
	assert_int_equal(trap_data, 0xfeed);
	sigaction(SIGTRAP, &old, NULL);
	close(fd);
}

/* remove_on_exec: an inherited sigtrap event is gone in the exec'ed child,
 * which would otherwise die of SIGTRAP on its first write */
static void test_remove_on_exec(void **state)
{
	struct perf_event_attr a = sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int status, fd;
	pid_t pid;

	(void)state;
	a.sample_period = 1;
	a.inherit = 1;
	a.disabled = 0;
	pk_attr_set_sigtrap(&a, 1, true);
	signal(SIGTRAP, SIG_IGN);
	fd = open_self(&a, -1);
	pk_evfd_disable(fd, false);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* the child enables its inherited copy, then execs */
		signal(SIGTRAP, SIG_DFL);
		pk_task_events_enable();
		execl("/bin/sh", "sh", "-c", "x=$(echo a); exit 7", (char *)NULL);
		_exit(99);
	}
	waitpid(pid, &status, 0);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 7);
	signal(SIGTRAP, SIG_DFL);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_negotiate_e2big),
		cmocka_unit_test(test_negotiate_einval_order),
		cmocka_unit_test(test_negotiate_gives_up),
		cmocka_unit_test(test_feature_names),
		cmocka_unit_test(test_group_enable_disable_reset),
		cmocka_unit_test(test_id),
		cmocka_unit_test(test_period),
		cmocka_unit_test(test_set_output),
		cmocka_unit_test(test_pause_output),
		cmocka_unit_test(test_set_filter),
		cmocka_unit_test(test_bpf_calls),
		cmocka_unit_test(test_modify_breakpoint),
		cmocka_unit_test(test_task_prctl),
		cmocka_unit_test(test_poll_in),
		cmocka_unit_test(test_poll_hup),
		cmocka_unit_test(test_refresh_signal),
		cmocka_unit_test(test_sigtrap),
		cmocka_unit_test(test_remove_on_exec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
