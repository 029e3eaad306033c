/* SPDX-License-Identifier: MIT */
/*
 * perfkit/event.h - events: perf's event names and the event-string parser.
 */
#ifndef PERFKIT_EVENT_H
#define PERFKIT_EVENT_H

#include <stddef.h>
#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The name perf gives an event with this attr when the file carries no name
 * for it: "cycles", "cpu-clock", "L1-dcache-load-misses", "raw 0x1234" as
 * "r1234", "mem:0x1000:rw", with perf's modifier suffix (":u", ":ppp",
 * ":H", ...).  Writes at most size bytes (NUL included) to buf; returns the
 * length it wanted, as snprintf does.
 */
int pk_event_attr_name(const struct perf_event_attr *attr, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
