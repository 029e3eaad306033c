// SPDX-License-Identifier: MIT
/* Names of events from their attrs (placeholder; the events module owns it). */
#include <stdio.h>
#include <perfkit/event.h>

int pk_event_attr_name(const struct perf_event_attr *attr, char *buf, size_t size)
{
	static const char *const hw[] = {"cycles", "instructions", "cache-references",
					 "cache-misses", "branches", "branch-misses",
					 "bus-cycles", "stalled-cycles-frontend",
					 "stalled-cycles-backend", "ref-cycles"};
	static const char *const sw[] = {"cpu-clock", "task-clock", "page-faults",
					 "context-switches", "cpu-migrations", "minor-faults",
					 "major-faults", "alignment-faults", "emulation-faults",
					 "dummy", "bpf-output", "cgroup-switches"};

	if (attr->type == PERF_TYPE_HARDWARE && attr->config < sizeof(hw) / sizeof(hw[0]))
		return snprintf(buf, size, "%s", hw[attr->config]);
	if (attr->type == PERF_TYPE_SOFTWARE && attr->config < sizeof(sw) / sizeof(sw[0]))
		return snprintf(buf, size, "%s", sw[attr->config]);
	return snprintf(buf, size, "unknown-%u-0x%llx", attr->type,
			(unsigned long long)attr->config);
}
