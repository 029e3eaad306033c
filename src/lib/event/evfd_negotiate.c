// SPDX-License-Identifier: MIT
/*
 * perf_event_open with negotiation.  A kernel older than our headers
 * answers E2BIG to an attr longer than it knows (and writes its own size
 * back into attr.size) and EINVAL to bits it does not know.  Rather than
 * probing the kernel version, we clear the newest feature the attr uses and
 * try again, so an attr built for 6.x still opens on 4.x with what 4.x can
 * give, and the caller learns exactly what was lost.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <perfkit/evfd.h>
#include "event_internal.h"

static long real_syscall(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			 unsigned long flags)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

static pki_evfd_syscall_fn *open_syscall = real_syscall;

void pki_evfd_set_syscall(pki_evfd_syscall_fn *fn)
{
	open_syscall = fn ? fn : real_syscall;
}

static const char *const feature_names[] = {
	"read_lost",	  "sigtrap",	   "remove_on_exec", "inherit_thread", "weight_struct",
	"build_id",	  "page_size",	   "text_poke",	     "cgroup",	       "branch_hw_index",
	"aux_output",	  "bpf_event",	   "ksymbol",	     "namespaces",     "context_switch",
	"clockid",	  "comm_exec",	   "mmap2",	     "cloexec",	       "exclude_guest",
	"sample_id_all",  "attr_tail",
};

const char *pk_evfd_feature_names(unsigned int mask, char *buf, size_t size)
{
	size_t len = 0;

	if (!size)
		return buf;
	buf[0] = 0;
	for (unsigned int i = 0; i < sizeof(feature_names) / sizeof(feature_names[0]); i++) {
		int n;

		if (!(mask & (1u << i)))
			continue;
		n = snprintf(buf + len, size - len, "%s%s", len ? ", " : "", feature_names[i]);
		if (n < 0 || (size_t)n >= size - len) {
			buf[len] = 0; /* whole names only */
			break;
		}
		len += (size_t)n;
	}
	return buf;
}

/* Is feature f in use by a (and flags)?  Then clear it and say so. */
static bool clear_feature(struct perf_event_attr *a, unsigned long *flags, unsigned int f)
{
	const uint64_t page_sizes = PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE;

#define CLEAR_BIT(field)                                                                           \
	do {                                                                                       \
		if (!a->field)                                                                     \
			return false;                                                              \
		a->field = 0;                                                                      \
		return true;                                                                       \
	} while (0)
#define CLEAR_MASK(field, mask)                                                                    \
	do {                                                                                       \
		if (!(a->field & (mask)))                                                          \
			return false;                                                              \
		a->field &= ~(uint64_t)(mask);                                                     \
		return true;                                                                       \
	} while (0)

	switch (f) {
	case PK_EVFD_READ_LOST:
		CLEAR_MASK(read_format, PERF_FORMAT_LOST);
	case PK_EVFD_SIGTRAP:
		if (!a->sigtrap)
			return false;
		a->sigtrap = 0;
		a->sig_data = 0;
		return true;
	case PK_EVFD_REMOVE_ON_EXEC:
		CLEAR_BIT(remove_on_exec);
	case PK_EVFD_INHERIT_THREAD:
		CLEAR_BIT(inherit_thread);
	case PK_EVFD_WEIGHT_STRUCT:
		if (!(a->sample_type & PERF_SAMPLE_WEIGHT_STRUCT))
			return false;
		/* the older form carries the same first field */
		a->sample_type = (a->sample_type & ~(uint64_t)PERF_SAMPLE_WEIGHT_STRUCT) |
				 PERF_SAMPLE_WEIGHT;
		return true;
	case PK_EVFD_BUILD_ID:
		CLEAR_BIT(build_id);
	case PK_EVFD_PAGE_SIZE:
		CLEAR_MASK(sample_type, page_sizes);
	case PK_EVFD_TEXT_POKE:
		CLEAR_BIT(text_poke);
	case PK_EVFD_CGROUP:
		if (!a->cgroup && !(a->sample_type & PERF_SAMPLE_CGROUP))
			return false;
		a->cgroup = 0;
		a->sample_type &= ~(uint64_t)PERF_SAMPLE_CGROUP;
		return true;
	case PK_EVFD_BRANCH_HW_INDEX:
		CLEAR_MASK(branch_sample_type, PERF_SAMPLE_BRANCH_HW_INDEX);
	case PK_EVFD_AUX_OUTPUT:
		CLEAR_BIT(aux_output);
	case PK_EVFD_BPF_EVENT:
		CLEAR_BIT(bpf_event);
	case PK_EVFD_KSYMBOL:
		CLEAR_BIT(ksymbol);
	case PK_EVFD_NAMESPACES:
		CLEAR_BIT(namespaces);
	case PK_EVFD_CONTEXT_SWITCH:
		CLEAR_BIT(context_switch);
	case PK_EVFD_CLOCKID:
		if (!a->use_clockid)
			return false;
		a->use_clockid = 0;
		a->clockid = 0;
		return true;
	case PK_EVFD_COMM_EXEC:
		CLEAR_BIT(comm_exec);
	case PK_EVFD_MMAP2:
		if (!a->mmap2)
			return false;
		/* MMAP records instead, which every kernel writes */
		a->mmap2 = 0;
		a->mmap = 1;
		return true;
	case PK_EVFD_CLOEXEC:
		if (!(*flags & PERF_FLAG_FD_CLOEXEC))
			return false;
		*flags &= ~(unsigned long)PERF_FLAG_FD_CLOEXEC;
		return true;
	case PK_EVFD_EXCLUDE_GUEST:
		if (!a->exclude_guest && !a->exclude_host)
			return false;
		a->exclude_guest = a->exclude_host = 0;
		return true;
	case PK_EVFD_SAMPLE_ID_ALL:
		CLEAR_BIT(sample_id_all);
	default:
		return false;
	}
#undef CLEAR_BIT
#undef CLEAR_MASK
}

/* Clear the newest feature still in use; 0 when none is left. */
static unsigned int drop_newest(struct perf_event_attr *a, unsigned long *flags)
{
	for (unsigned int f = PK_EVFD_READ_LOST; f <= PK_EVFD_SAMPLE_ID_ALL; f <<= 1)
		if (clear_feature(a, flags, f))
			return f;
	return 0;
}

/* E2BIG: the kernel wrote its attr size into a->size.  Clear what lies
 * past it; say whether anything set was lost. */
static bool shrink_to_kernel_size(struct perf_event_attr *a, uint32_t ours)
{
	uint32_t theirs = a->size;
	uint8_t *p = (uint8_t *)a;
	bool lost = false;

	for (uint32_t i = theirs; i < ours; i++) {
		lost |= p[i] != 0;
		p[i] = 0;
	}
	return lost;
}

static void fill_info(struct pk_evfd_open_info *info, const struct perf_event_attr *a,
		      unsigned int dropped, int tries)
{
	if (!info || info->sz < sizeof(*info))
		return;
	info->attr = *a;
	info->dropped = dropped;
	info->tries = tries;
	pk_evfd_feature_names(dropped, info->dropped_names, sizeof(info->dropped_names));
}

int pk_evfd_open(const struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		 unsigned long flags, struct pk_evfd_open_info *info)
{
	struct perf_event_attr a;
	uint32_t size = attr->size && attr->size < sizeof(a) ? attr->size : sizeof(a);
	unsigned int dropped = 0;
	int first_err = 0, tries = 0;

	memset(&a, 0, sizeof(a));
	memcpy(&a, attr, size);
	a.size = size;
	/* 22 features plus one size step bound the loop */
	while (tries < 32) {
		long fd = open_syscall(&a, pid, cpu, group_fd, flags);
		int err = fd < 0 ? -errno : 0;
		unsigned int f;

		tries++;
		if (fd >= 0) {
			fill_info(info, &a, dropped, tries);
			return (int)fd;
		}
		/* the error worth reporting is the first that is not a size
		 * mismatch */
		if (!first_err || first_err == -E2BIG)
			first_err = err;
		if (err == -E2BIG && a.size && a.size < size) {
			if (shrink_to_kernel_size(&a, size))
				dropped |= PK_EVFD_ATTR_TAIL;
			size = a.size;
			continue;
		}
		if (err != -EINVAL || !(f = drop_newest(&a, &flags)))
			break;
		dropped |= f;
	}
	fill_info(info, attr, 0, tries);
	return first_err;
}
