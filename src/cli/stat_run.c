// SPDX-License-Identifier: MIT
/*
 * perfkit stat's run loop: start the command stopped, open the counters,
 * let it run, print intervals, read and accumulate counts over -r runs.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "stat.h"

static volatile sig_atomic_t got_signal;
static volatile pid_t child_pid;

static void on_signal(int sig)
{
	got_signal = sig;
	if (child_pid > 0)
		kill(child_pid, sig);
}
static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Count of event e in a slot: everything, a CPU, a thread or a topology group. */
static int read_slot(struct pk_counter_set *set, const struct stat_cmd *c, int e, int slot,
		     struct pk_count *out)
{
	if (c->aggr == AGGR_GLOBAL)
		return pk_counter_read(set, e, out);
	if (c->aggr == AGGR_THREAD)
		return pk_counter_read_thread(set, e, slot, out);
	return pk_counter_read_aggr(set, e, c->cpu_to_slot, slot, out);
}

struct run_state {
	struct stat_cmd *c;
	struct pk_counter_set *set;
	struct stat_value *vals;
	struct pk_count *prev;	/* for -I deltas */
	struct stat_print pr;
	int status;
	bool have_status;
	struct rusage ru;
	struct pk_stat_acc elapsed;
};

/* Read every counter; with delta, subtract the previous reading (-I). */
static int collect(struct run_state *rs, bool delta, bool reset_vals)
{
	struct stat_cmd *c = rs->c;

	for (size_t e = 0; e < c->events.nr; e++) {
		for (int s = 0; s < c->nr_slots; s++) {
			size_t i = e * (size_t)c->nr_slots + (size_t)s;
			struct stat_value *sv = &rs->vals[i];
			struct pk_count cnt, d;
			int ret = read_slot(rs->set, c, (int)e, s, &cnt);

			if (ret) {
				cli_error("stat: %s: %s", c->events.ev[e].name,
					  pk_counter_set_errmsg(rs->set));
				return ret;
			}
			d = cnt;
			if (delta) {
				d.val -= rs->prev[i].val;
				d.ena -= rs->prev[i].ena;
				d.run -= rs->prev[i].run;
				rs->prev[i] = cnt;
			}
			if (reset_vals)
				memset(sv, 0, sizeof(*sv));
			pk_stat_acc_add(&sv->acc, c->no_scale ? (double)d.val : pk_count_scaled(&d));
			sv->ena_sum += (double)d.ena;
			sv->run_sum += (double)d.run;
			sv->ena = (uint64_t)(sv->ena_sum / sv->acc.n + 0.5);
			sv->run = (uint64_t)(sv->run_sum / sv->acc.n + 0.5);
			sv->counted |= d.run > 0;
		}
	}
	return 0;
}

static void print_interval(struct run_state *rs, double t0, double *last)
{
	double t = now_ns();

	if (collect(rs, true, true))
		return;
	rs->pr.set = rs->set;
	rs->pr.interval = true;
	rs->pr.ts = (t - t0) / 1e9;
	rs->pr.elapsed_ns = t - *last;
	*last = t;
	stat_print_counters(&rs->pr);
	fflush(rs->pr.out);
}

static long pidfd_open_compat(pid_t pid)
{
#ifdef SYS_pidfd_open
	return syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

/* Without pidfd_open: has the child exited?  (It stays waitable.) */
static bool child_exited(pid_t pid)
{
	siginfo_t si = {0};

	return !waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) && si.si_pid == pid;
}

/* Milliseconds until the nearer of two deadlines (0: none), for poll(). */
static int poll_timeout(double a, double b)
{
	double next = a && b ? (a < b ? a : b) : a ? a : b, left;

	if (!next)
		return -1;
	left = (next - now_ns()) / 1e6;
	return left > 0 ? (int)left + 1 : 0;
}

/*
 * Wait for the child (or a signal when there is none), printing intervals.
 * --timeout sends the child SIGTERM (or ends a count without one);
 * --interval-count stops the printing, and the count without a child.
 */
static void wait_loop(struct run_state *rs, struct pk_workload *w, double t0)
{
	struct stat_cmd *c = rs->c;
	double last = t0, next = c->interval_ms ? t0 + c->interval_ms * 1e6 : 0;
	double deadline = c->timeout_ms ? t0 + c->timeout_ms * 1e6 : 0;
	int pidfd, printed = 0;

	if (!c->interval_ms && !c->timeout_ms && w) {
		pk_workload_wait(w, &rs->status, &rs->ru);
		rs->have_status = true;
		return;
	}
	pidfd = w ? (int)pidfd_open_compat(pk_workload_pid(w)) : -1;
	for (;;) {
		struct pollfd pfd = {.fd = pidfd, .events = POLLIN};

		if (got_signal && !w)
			break;
		int ms = poll_timeout(next, deadline);

		/* without a pidfd the child's exit is polled for */
		if (w && pidfd < 0 && (ms < 0 || ms > 10))
			ms = 10;
		int r = poll(pidfd >= 0 ? &pfd : NULL, pidfd >= 0 ? 1 : 0, ms);
		if (w && pidfd >= 0 && r > 0 && (pfd.revents & POLLIN))
			break;
		if (w && pidfd < 0 && child_exited(pk_workload_pid(w)))
			break;
		if (got_signal && !w)
			break;
		if (deadline && now_ns() >= deadline) {
			deadline = 0;
			if (!w)
				break;
			kill(pk_workload_pid(w), SIGTERM);
		}
		if (next && now_ns() >= next) {
			print_interval(rs, t0, &last);
			next += c->interval_ms * 1e6;
			if (c->interval_count && ++printed == c->interval_count) {
				next = 0;	/* done: wait for the child quietly */
				if (!w)
					break;
			}
		}
	}
	if (w) {
		pk_workload_wait(w, &rs->status, &rs->ru);
		rs->have_status = true;
	}
	if (c->interval_ms && (!c->interval_count || printed < c->interval_count))
		print_interval(rs, t0, &last);
	if (pidfd >= 0)
		close(pidfd);
}

static int open_counters(struct run_state *rs, pid_t child, bool system_wide)
{
	struct stat_cmd *c = rs->c;
	struct pk_counter_opts o = {.sz = sizeof(o)};
	int ret;

	if (c->null_run) {
		rs->set = NULL;	/* -n: nothing to open */
		return 0;
	}
	o.inherit = !c->no_inherit;
	o.all_user = c->all_user;
	o.all_kernel = c->all_kernel;
	if (system_wide) {
		o.cpus = c->cpus;
		o.nr_cpus = c->nr_cpus;
	}
	if (c->nr_threads) {
		o.tids = c->threads;
		o.nr_tids = c->nr_threads;
		o.start_enabled = !c->delay_ms;
	} else if (child > 0 && !system_wide) {
		o.tids = &child;
		o.nr_tids = 1;
		o.enable_on_exec = !c->delay_ms;
	}
	ret = pk_counter_set_open(&rs->set, &c->events, &o);
	if (ret)
		cli_error("stat: %s", pk_counter_open_errmsg());
	return ret;
}

/* --pre and --post: a failing command stops the runs. */
static int run_hook(const char *cmd, const char *opt)
{
	int st;

	if (!cmd)
		return 0;
	fflush(NULL);
	st = system(cmd);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		cli_error("stat: %s command '%s' failed", opt, cmd);
		return 1;
	}
	return 0;
}

/* One run: open, start the command, wait (printing intervals), read. */
static int run_once(struct run_state *rs)
{
	struct stat_cmd *c = rs->c;

	if (run_hook(c->pre_cmd, "--pre"))
		return 1;
	if (c->sync)
		sync();
	struct pk_workload *w = NULL;
	bool system_wide = c->nr_cpus > 0;
	double t0, t1;
	int ret;

	if (c->argv) {
		ret = pk_workload_prepare(&w, c->argv);
		if (ret) {
			cli_error("stat: cannot start '%s': %s", c->argv[0], strerror(-ret));
			return 255;
		}
		child_pid = pk_workload_pid(w);
	}
	ret = open_counters(rs, w ? pk_workload_pid(w) : 0, system_wide);
	if (ret) {
		pk_workload_free(w);
		child_pid = 0;
		return 1;
	}
	if (c->interval_ms && !rs->prev) {
		rs->prev = calloc(c->events.nr * (size_t)c->nr_slots, sizeof(*rs->prev));
		if (!rs->prev)
			goto fail;
	}
	if (system_wide && !c->delay_ms)
		pk_counter_set_enable(rs->set);
	else if (!c->delay_ms)
		pk_counter_set_tool_start(rs->set);	/* enabled by the exec */
	t0 = now_ns();
	if (w) {
		ret = pk_workload_start(w);
		if (ret) {
			fprintf(stderr, "Workload failed: %s\n", strerror(-ret));
			pk_workload_wait(w, NULL, NULL);
			goto fail;
		}
	}
	if (c->delay_ms) {
		struct timespec d = {c->delay_ms / 1000, (long)(c->delay_ms % 1000) * 1000000L};
		while (nanosleep(&d, &d) && errno == EINTR && !got_signal)
			;
		pk_counter_set_enable(rs->set);
	}
	rs->pr.set = rs->set;
	wait_loop(rs, w, t0);
	t1 = now_ns();
	pk_counter_set_disable(rs->set);
	if (rs->have_status)
		pk_counter_set_tool_rusage(rs->set, &rs->ru);
	pk_stat_acc_add(&rs->elapsed, t1 - t0);
	if (!c->interval_ms && collect(rs, false, false))
		goto fail;
	pk_workload_free(w);
	child_pid = 0;
	return run_hook(c->post_cmd, "--post");
fail:
	pk_workload_free(w);
	child_pid = 0;
	pk_counter_set_close(rs->set);
	rs->set = NULL;
	return 255;
}

static int unit_width(const struct pk_event_list *l)
{
	int w = 4;

	for (size_t i = 0; i < l->nr; i++) {
		if (l->ev[i].unit && (int)strlen(l->ev[i].unit) > w)
			w = (int)strlen(l->ev[i].unit);
	}
	return w;
}

static int exit_code(const struct run_state *rs)
{
	if (!rs->have_status)
		return 0;
	/* As perf: the command's exit code; killed by a signal counts as 0. */
	if (WIFEXITED(rs->status))
		return WEXITSTATUS(rs->status);
	return 0;
}

/* perf names the signal that ended the command, before the counts. */
static void report_signal(const struct run_state *rs)
{
	if (rs->have_status && WIFSIGNALED(rs->status) && rs->c->argv)
		fprintf(stderr, "%s: %s\n", rs->c->argv[0], strsignal(WTERMSIG(rs->status)));
}

int stat_run_all(struct stat_cmd *c)
{
	struct run_state rs = {.c = c};
	struct sigaction sa = {.sa_handler = on_signal};
	int ret = 0;

	rs.vals = calloc(c->events.nr * (size_t)c->nr_slots + 1, sizeof(*rs.vals));
	if (!rs.vals)
		return 1;
	rs.pr = (struct stat_print){
		.out = c->out, .sep = c->sep, .json = c->json, .repeat = c->repeat,
		.aggr = c->aggr, .events = &c->events, .nr_slots = c->nr_slots,
		.vals = rs.vals, .slot_names = (const char **)c->slot_names,
		.unit_width = unit_width(&c->events),
		.slot_cpus = c->slot_cpus, .big_num = c->big_num != 0,
		.tool_slot = c->cpu_to_slot ? c->cpu_to_slot[0] : 0,
	};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (c->interval_ms)
		stat_print_interval_header(&rs.pr);
	for (int r = 0; r < c->repeat && !got_signal; r++) {
		if (rs.set) {
			pk_counter_set_close(rs.set);
			rs.set = NULL;
		}
		ret = run_once(&rs);
		if (ret)
			goto out;
	}
	report_signal(&rs);
	if (!c->interval_ms) {
		rs.pr.set = rs.set;
		rs.pr.elapsed_ns = rs.elapsed.mean;
		stat_print_header(&rs.pr, c->target);
		stat_print_counters(&rs.pr);
		stat_print_footer(&rs.pr, &rs.elapsed, &rs.ru, c->argv && !c->nr_cpus &&
								  !c->nr_threads);
	}
	ret = exit_code(&rs);
out:
	pk_counter_set_close(rs.set);
	free(rs.vals);
	free(rs.prev);
	return ret;
}
