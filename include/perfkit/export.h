/* SPDX-License-Identifier: MIT */
/*
 * perfkit/export.h - aggregate samples into a profile, and write that
 * profile in the formats other tools read: collapsed stacks, flame graph
 * SVG, an HTML report, pprof, speedscope, the Firefox Profiler and the
 * Chrome Trace Event Format.
 *
 * A struct pk_profile interns everything it is given (strings, functions,
 * mappings, unique stacks), so its memory grows with the number of unique
 * stacks and threads, not with the number of samples.  Exporters that need
 * every sample in time order (chrome, gecko) read a fixed-size log that
 * the profile spills to an unlinked temporary file.
 *
 *	struct pk_profile *p;
 *	if (pk_profile_from_file(&p, "perf.data", NULL) == 0)
 *		pk_export(p, PK_EXPORT_FOLDED, stdout);
 *	pk_profile_free(p);
 */
#ifndef PERFKIT_EXPORT_H
#define PERFKIT_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <perfkit/session.h>
#include <perfkit/record.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pk_profile;

/* One frame of a stack.  Strings are copied (interned) by the profile. */
struct pk_profile_frame {
	const char *function;			/* NULL: no symbol: "[dso]" as perf shows it */
	const char *dso;			/* NULL: not in any mapping ("[unknown]") */
	uint64_t addr;				/* as perf script prints it for this frame */
	uint64_t ip;				/* run-time address (pprof), 0: same as addr */
	const struct pk_build_id *build_id;	/* of the DSO, or NULL */
	uint64_t map_start, map_end, map_pgoff; /* the mapping, 0 if unknown */
	bool kernel;
};

/* One sample: a stack, leaf first, and where and when it happened. */
struct pk_profile_sample {
	const struct pk_profile_frame *frames;
	size_t nr_frames;
	int32_t pid, tid;
	const char *comm; /* NULL: ":TID" */
	uint32_t cpu;	  /* UINT32_MAX: unknown */
	uint64_t time;	  /* ns, PK_NO_TIME when not recorded */
	uint32_t event;	  /* from pk_profile_add_event() */
	uint64_t period;  /* event count this sample stands for */
};

/* Facts about the recording, shown in the HTML summary and kept in pprof. */
struct pk_profile_meta {
	size_t sz;	     /* sizeof(struct pk_profile_meta) */
	const char *cmdline; /* NULL when unknown; copied */
	const char *hostname;
	const char *title;   /* usually the input file name */
	uint64_t start_time; /* ns, first and last sample; 0 = unknown */
	uint64_t end_time;
	uint64_t nr_lost; /* samples the kernel dropped */
};

struct pk_profile_opts {
	size_t sz;		   /* sizeof(struct pk_profile_opts) */
	bool no_sample_log;	   /* keep no per-sample log (chrome and gecko
				    * then show aggregated stacks only) */
	uint32_t timeline_buckets; /* 0 = default (200) */
};

/*
 * A new, empty profile.  Returns 0 and sets *out (freed with
 * pk_profile_free()), or -ENOMEM.
 */
int pk_profile_new(struct pk_profile **out, const struct pk_profile_opts *opts);
void pk_profile_free(struct pk_profile *p);

/* Last error of the profile or of an exporter, as one line; never NULL. */
const char *pk_profile_error(const struct pk_profile *p);

struct pk_unresolved; /* <perfkit/session.h> */

/* Samples without a symbol, per DSO, of the file pk_profile_from_file()
 * read (see pk_session_unresolved()); NULL for other profiles.  Owned by
 * the profile. */
const struct pk_unresolved *pk_profile_unresolved(const struct pk_profile *p);

/*
 * Declare an event ("cpu-clock", "sched:sched_switch"); *idx receives the
 * index samples refer to.  Declaring the same name again gives the same
 * index.  Returns 0 or -ENOMEM.
 */
int pk_profile_add_event(struct pk_profile *p, const char *name, uint32_t *idx);

/* Add one sample.  Returns 0, -EINVAL (unknown event), or -ENOMEM. */
int pk_profile_add_sample(struct pk_profile *p, const struct pk_profile_sample *s);

/*
 * A time slice of a thread on a CPU (from sched_switch): shown by the
 * chrome exporter.  Returns 0 or -ENOMEM.
 */
int pk_profile_add_slice(struct pk_profile *p, int32_t pid, int32_t tid, uint32_t cpu,
			 uint64_t start, uint64_t end);

/* Set the facts above (fields with NULL or 0 keep their value). */
int pk_profile_set_meta(struct pk_profile *p, const struct pk_profile_meta *m);
void pk_profile_add_lost(struct pk_profile *p, uint64_t nr);

/* Totals: samples and summed periods of one event (UINT32_MAX: all). */
uint64_t pk_profile_nr_samples(const struct pk_profile *p, uint32_t event);
uint64_t pk_profile_total_period(const struct pk_profile *p, uint32_t event);
uint64_t pk_profile_nr_stacks(const struct pk_profile *p);

struct pk_profile_read_opts {
	size_t sz;	   /* sizeof(struct pk_profile_read_opts) */
	bool force;	   /* read a file owned by another user */
	const char *event; /* only this event (NULL: all) */
	bool no_symbols;   /* addresses only: do not resolve */
	const struct pk_profile_opts *profile;
	/* where symbols come from (symfs, build-id cache, kallsyms); NULL for
	 * the defaults.  Its force is ignored: the field above says. */
	const struct pk_session_opts *session;
};

/*
 * Read a perf.data ("-" for standard input) into a new profile, resolving
 * stacks to symbols.  Returns 0 and *out (the caller frees it with
 * pk_profile_free()), or a negative errno; *out is still set when memory
 * allowed so that pk_profile_error() says what went wrong.
 */
int pk_profile_from_file(struct pk_profile **out, const char *path,
			 const struct pk_profile_read_opts *opts);

enum pk_export_format {
	PK_EXPORT_FOLDED,     /* stackcollapse-perf.pl lines */
	PK_EXPORT_SVG,	      /* interactive flame graph */
	PK_EXPORT_HTML,	      /* self-contained report */
	PK_EXPORT_PPROF,      /* gzip'd profile.proto */
	PK_EXPORT_SPEEDSCOPE, /* speedscope JSON */
	PK_EXPORT_GECKO,      /* Firefox Profiler (processed format) */
	PK_EXPORT_CHROME,     /* Trace Event Format JSON */
	PK_EXPORT_NR,
};

/* "folded", "flamegraph", ... to the enum; -EINVAL when unknown. */
int pk_export_format_parse(const char *name, enum pk_export_format *out);
const char *pk_export_format_name(enum pk_export_format f);

/*
 * Each exporter writes the whole profile to out and returns 0, or a
 * negative errno with the reason in pk_profile_error(): -EIO when writing
 * failed, -ENOENT for HTML when the library was built without the web
 * bundle (scripts/build-web.sh).  Names from the recording (comm, DSO and
 * symbol names) are escaped for the output format.
 */
int pk_export_folded(struct pk_profile *p, FILE *out);
int pk_export_svg(struct pk_profile *p, FILE *out);
int pk_export_html(struct pk_profile *p, FILE *out);
int pk_export_pprof(struct pk_profile *p, FILE *out);
int pk_export_speedscope(struct pk_profile *p, FILE *out);
int pk_export_gecko(struct pk_profile *p, FILE *out);
int pk_export_chrome(struct pk_profile *p, FILE *out);
int pk_export(struct pk_profile *p, enum pk_export_format f, FILE *out);

/* Same on a file descriptor (not closed). */
int pk_export_fd(struct pk_profile *p, enum pk_export_format f, int fd);

/* Whether this build carries the HTML front-end bundle. */
bool pk_export_html_available(void);

#ifdef __cplusplus
}
#endif
#endif
