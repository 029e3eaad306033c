// SPDX-License-Identifier: MIT
/*
 * The ioctls and prctls of perf_event_open(2), one typed call each, and
 * the set-up of overflow notification by signal or poll.
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <perfkit/evfd.h>

static int ioctl_result(int rc)
{
	return rc < 0 ? -errno : 0;
}

static unsigned long group_flag(bool group)
{
	return group ? PERF_IOC_FLAG_GROUP : 0;
}

int pk_evfd_enable(int fd, bool group)
{
	return ioctl_result(ioctl(fd, PERF_EVENT_IOC_ENABLE, group_flag(group)));
}

int pk_evfd_disable(int fd, bool group)
{
	return ioctl_result(ioctl(fd, PERF_EVENT_IOC_DISABLE, group_flag(group)));
}

int pk_evfd_reset(int fd, bool group)
{
	return ioctl_result(ioctl(fd, PERF_EVENT_IOC_RESET, group_flag(group)));
}

int pk_evfd_refresh(int fd, int n)
{
	/* 0 would mean "undefined behaviour" in the man page's words */
	if (n <= 0)
		return -EINVAL;
	return ioctl_result(ioctl(fd, PERF_EVENT_IOC_REFRESH, n));
}

int pk_evfd_period(int fd, uint64_t period)
{
	return ioctl_result(ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
}

int pk_evfd_set_output(int fd, int target_fd)
{
	return ioctl_result(ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, target_fd));
}

int pk_evfd_set_filter(int fd, const char *filter)
{
	if (!filter)
		return -EINVAL;
	return ioctl_result(ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter));
}

int pk_evfd_id(int fd, uint64_t *id)
{
	return ioctl_result(ioctl(fd, PERF_EVENT_IOC_ID, id));
}

int pk_evfd_set_bpf(int fd, int prog_fd)
{
	return ioctl_result(ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd));
}

int pk_evfd_pause_output(int fd, bool pause)
{
	return ioctl_result(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, pause ? 1 : 0));
}

int pk_evfd_query_bpf(int fd, uint32_t *ids, uint32_t max, uint32_t *count)
{
	/* struct perf_event_query_bpf: ids_len, prog_cnt, then the ids */
	uint32_t buf[2 + 64] = {0};
	int err;

	if (max > 64)
		max = 64;
	buf[0] = max;
	err = ioctl_result(ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, buf));
	if (err)
		return err;
	for (uint32_t i = 0; i < max && i < buf[1]; i++)
		ids[i] = buf[2 + i];
	if (count)
		*count = buf[1];
	return 0;
}

int pk_evfd_modify_attributes(int fd, const struct perf_event_attr *attr)
{
	return ioctl_result(ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, attr));
}

int pk_task_events_enable(void)
{
	return prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0) ? -errno : 0;
}

int pk_task_events_disable(void)
{
	return prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0) ? -errno : 0;
}

int pk_evfd_set_signal(int fd, int signo, pid_t tid)
{
	struct f_owner_ex owner = {.type = F_OWNER_TID, .pid = tid ? tid : gettid()};
	int fl;

	if (fcntl(fd, F_SETOWN_EX, &owner) || fcntl(fd, F_SETSIG, signo))
		return -errno;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_ASYNC | O_NONBLOCK))
		return -errno;
	return 0;
}

int pk_evfd_poll(const int *fds, int n, int timeout_ms, short *revents)
{
	struct pollfd pfd[64];
	int rc;

	if (n < 0 || n > 64)
		return -EINVAL;
	for (int i = 0; i < n; i++)
		pfd[i] = (struct pollfd){.fd = fds[i], .events = POLLIN};
	do
		rc = poll(pfd, (nfds_t)n, timeout_ms);
	while (rc < 0 && errno == EINTR && timeout_ms < 0);
	if (rc < 0)
		return -errno;
	for (int i = 0; i < n; i++)
		revents[i] = pfd[i].revents;
	return rc;
}

void pk_attr_set_sigtrap(struct perf_event_attr *attr, uint64_t sig_data, bool remove_on_exec)
{
	attr->sigtrap = 1;
	attr->sig_data = sig_data;
	attr->remove_on_exec = remove_on_exec;
	if (attr->size && attr->size < PERF_ATTR_SIZE_VER7)
		attr->size = PERF_ATTR_SIZE_VER7;
}
