/* SPDX-License-Identifier: MIT */
/*
 * perfkit/filter.h - which samples to keep, as perf's --comms, --pid,
 * --tid, --dsos, --symbols, --cpu and --time select them.
 *
 *	struct pk_sample_filter *f = pk_sample_filter_new();
 *	if (!f || pk_sample_filter_threads(f, "ls,sh", NULL, NULL) ||
 *	    pk_sample_filter_time(f, "10%/2", pk_session_reader(s), false))
 *		... bad option ...
 *	while (pk_session_next(s, &ev) > 0)
 *		if (pk_sample_filter_match(f, &ev))
 *			... print it ...
 *	pk_sample_filter_free(f);
 *
 * The setters return 0 or a negative errno; they never print, the caller
 * words the error (perf's messages differ per option).
 */
#ifndef PERFKIT_FILTER_H
#define PERFKIT_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <perfkit/reader.h>
#include <perfkit/session.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A time window in the recording's clock, ns; 0 leaves that end open. */
struct pk_time_range {
	uint64_t start, end;
};

/*
 * Parse perf's --time string: "START,STOP" in seconds with up to nine
 * decimals (either end empty: open), several such ranges separated by
 * spaces, or percentages of [first, last] ("10%/2" the second tenth,
 * "0%-10%,30%-40%", "25%").  With reltime, the ranges are taken from
 * first (perf adds first to both ends, percentages included).  On
 * success *out (free() it) holds *nr ranges.  Returns 0, -EINVAL for a
 * string perf rejects, -ENODATA when percentages or reltime need first
 * and last and both are 0, or -ENOMEM.
 */
int pk_time_ranges_parse(const char *str, uint64_t first, uint64_t last, bool reltime,
			 struct pk_time_range **out, size_t *nr);

/* Whether perf would leave out a sample at time t (time 0 is kept). */
bool pk_time_ranges_skip(const struct pk_time_range *r, size_t nr, uint64_t t);

struct pk_sample_filter;

/* An empty filter (keeps everything); NULL when out of memory. */
struct pk_sample_filter *pk_sample_filter_new(void);
void pk_sample_filter_free(struct pk_sample_filter *f);

/*
 * Keep samples whose thread has one of the comms, pids or tids (comma
 * separated lists; NULL: any).  -EINVAL when a pid or tid is not a
 * number.
 */
int pk_sample_filter_threads(struct pk_sample_filter *f, const char *comms, const char *pids,
			     const char *tids);

/*
 * Keep samples whose ip is in one of the DSOs (short or full name) and at
 * one of the symbols (name, or the symbol's start as "0x..." in the
 * process's address space).  NULL: any.
 */
int pk_sample_filter_locations(struct pk_sample_filter *f, const char *dsos, const char *symbols);

/*
 * Keep samples taken on the CPUs of list, as perf checks it against the
 * recording r: -ENOTSUP when an event's samples carry no CPU, -EINVAL for
 * a list perf rejects, -ERANGE (*bad_cpu set) for a CPU at or above the
 * recorded number of CPUs (none known in pipe mode).
 */
int pk_sample_filter_cpus(struct pk_sample_filter *f, const char *list, const struct pk_reader *r,
			  int32_t *bad_cpu);

/* Keep samples in the --time ranges (pk_time_ranges_parse() with the
 * recording's first and last sample times); its errors. */
int pk_sample_filter_time(struct pk_sample_filter *f, const char *str, const struct pk_reader *r,
			  bool reltime);

/* Whether a sample passes every filter set. */
bool pk_sample_filter_match(const struct pk_sample_filter *f, const struct pk_session_sample *ev);

/* Whether a record of cpu passes the CPU filter (perf filters the
 * side-band records it prints by CPU only); cpu UINT32_MAX: unknown, kept. */
bool pk_sample_filter_cpu(const struct pk_sample_filter *f, uint32_t cpu);

#ifdef __cplusplus
}
#endif
#endif
