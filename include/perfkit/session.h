/* SPDX-License-Identifier: MIT */
/*
 * perfkit/session.h - the machine as the recording saw it.
 *
 * A session reads a perf.data in time order and keeps, for every moment,
 * the threads (pid, tid, comm), the memory maps of every process (MMAP,
 * MMAP2, inherited at FORK), the kernel and its modules.  Each sample is
 * delivered with its thread, and its addresses resolve to map, DSO and
 * symbol, the way perf does it.
 *
 *	struct pk_session *s;
 *	struct pk_session_sample ev;
 *	if (pk_session_open(&s, "perf.data", NULL))
 *		... pk_session_error(s) ...
 *	while ((err = pk_session_next(s, &ev)) > 0)
 *		printf("%s %s\n", pk_thread_comm(ev.thread),
 *		       ev.loc.sym ? ev.loc.sym->name : "[unknown]");
 *	pk_session_close(s);
 */
#ifndef PERFKIT_SESSION_H
#define PERFKIT_SESSION_H

#include <perfkit/reader.h>
#include <perfkit/sample.h>
#include <perfkit/symbols.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pk_session;
struct pk_thread;
struct pk_dso;

struct pk_session_opts {
	size_t sz;		/* sizeof(struct pk_session_opts) */
	bool force;		/* read files owned by another user */
	bool no_demangle;
	const char *kallsyms;	/* default "/proc/kallsyms" */
	const char *buildid_dir; /* default "$HOME/.debug" */
	const char *debug_dir;	/* default "/usr/lib/debug" */
	bool file_order;	/* records as stored, not sorted by time */
	const char *symfs;	/* root the recorded paths are under (perf's --symfs) */
	/* Kernel symbols from this vmlinux image instead of kallsyms (perf's
	 * -k): used only when its build id is the recorded kernel's; when it
	 * is not usable the kernel has no symbols (as in perf).  Looked up
	 * under symfs when relative.  kallsyms, when set, wins. */
	const char *vmlinux;
};

/* Where an address landed. */
struct pk_location {
	uint64_t ip;		/* the address as recorded */
	uint64_t addr;		/* DSO-relative (what perf prints for callchain
				 * entries); ip itself when there is no map */
	const struct pk_dso *dso; /* NULL: in no map */
	const struct pk_symbol *sym; /* NULL: no symbol */
	uint8_t cpumode;	/* PERF_RECORD_MISC_* cpumode used */
};

/* One sample with its context; valid until the next pk_session_next(). */
struct pk_session_sample {
	const struct pk_record *rec;
	const struct pk_attr *attr;
	struct pk_sample sample;
	const struct pk_thread *thread;
	struct pk_location loc;	/* of sample.ip */
};

/*
 * Open path ("-" for standard input).  *out is set even on failure (when
 * memory allowed) so that pk_session_error() can tell why; the caller
 * closes it in both cases.  Returns 0 or a negative errno.
 */
int pk_session_open(struct pk_session **out, const char *path, const struct pk_session_opts *opts);
void pk_session_close(struct pk_session *s);

/* Last error as one line; owned by the session, never NULL. */
const char *pk_session_error(const struct pk_session *s);

/* The reader underneath (header, attrs). */
struct pk_reader *pk_session_reader(const struct pk_session *s);

/*
 * Process records up to the next sample and deliver it.  Returns 1 with
 * *ev filled, 0 at the end, or a negative errno (pk_session_error()).
 * Samples that fail to decode are counted and skipped.
 */
int pk_session_next(struct pk_session *s, struct pk_session_sample *ev);

/*
 * Like pk_session_next(), but stops at the other records too, once the
 * session has applied them (after a COMM its thread has the new name):
 * returns 1 with *other set to such a record, or 1 with *other NULL and
 * *ev filled with a sample; 0 at the end, or a negative errno.
 */
int pk_session_next_any(struct pk_session *s, struct pk_session_sample *ev,
			const struct pk_record **other);

/* The thread pid/tid, made (without a comm) when the recording never
 * named it, as perf does for a record that mentions it.  NULL when out
 * of memory. */
const struct pk_thread *pk_session_thread(struct pk_session *s, int32_t pid, int32_t tid);

/* Samples skipped because they did not decode. */
uint64_t pk_session_nr_bad_samples(const struct pk_session *s);

/* Samples the kernel reported lost (LOST_SAMPLES records) so far. */
uint64_t pk_session_lost_samples(const struct pk_session *s);

/*
 * Per-thread counter totals (perf record -s writes each counter's count
 * of a thread when it exits: PERF_RECORD_READ), summed per thread and
 * event over the records read so far, threads and events in the order
 * they first came: value[t * nr_counters + c] is thread t's count of
 * counter[c].
 */
struct pk_thread_counts {
	size_t nr_threads, nr_counters;
	const int32_t *pid, *tid;	      /* by thread */
	const struct pk_attr *const *counter; /* by counter */
	const uint64_t *value;
};

/* Fill *out; its arrays belong to the session and stay valid until the
 * next call or pk_session_close().  0 or -ENOMEM. */
int pk_session_thread_counts(struct pk_session *s, struct pk_thread_counts *out);

/* Resolve addr for thread as perf would with cpumode (user or kernel). */
void pk_session_resolve(struct pk_session *s, const struct pk_thread *t, uint8_t cpumode,
			uint64_t addr, struct pk_location *out);

/*
 * Resolve a branch address of a sample of thread t the way perf script's
 * brstacksym does: with the sample's cpumode, then with the one the
 * address belongs to (kernel half or user half).
 */
void pk_session_resolve_fallback(struct pk_session *s, const struct pk_thread *t,
				 uint8_t cpumode, uint64_t addr, struct pk_location *out);

/* A resolved callchain entry. */
struct pk_frame {
	struct pk_location loc;
};

/*
 * Resolve the callchain of ev, callee first, context markers removed, at
 * most max frames.  Returns the number of frames written to frames.
 */
size_t pk_session_callchain(struct pk_session *s, const struct pk_session_sample *ev,
			    struct pk_frame *frames, size_t max);

/*
 * The same with perf's --max-stack apart from the room in frames: at
 * most max_stack recorded entries, then (for samples with a user stack
 * copy, perf record --call-graph dwarf) at most max_stack user frames
 * unwound from it, each followed by the frames perf shows for code
 * inlined there; at most cap frames in all.  pk_session_callchain(s, ev,
 * f, max) is pk_session_callchain_max(s, ev, f, max, max).
 */
size_t pk_session_callchain_max(struct pk_session *s, const struct pk_session_sample *ev,
				struct pk_frame *frames, size_t cap, size_t max_stack);

/*
 * The fields of a tracepoint sample as perf script prints them
 * ("prev_comm=sh prev_pid=1 ..."), decoded with the event formats of the
 * recording's TRACING_DATA.  Writes a NUL-terminated string of at most len
 * bytes to buf; returns its length, or -ENOENT when the event's format is
 * unknown (or the library was built without libtraceevent).
 */
int pk_session_trace_format(struct pk_session *s, const struct pk_session_sample *ev, char *buf,
			    size_t len);
/* The same fields raw, as perf report --raw-trace shows them: each as
 * " name=value" in format order (numbers as numbers, no print line). */
int pk_session_trace_format_raw(struct pk_session *s, const struct pk_session_sample *ev,
				char *buf, size_t len);

/*
 * Samples without a symbol, per DSO: how much of a profile has no names,
 * and where, so that a tool can say what would give them (a debug
 * package, DEBUGINFOD_URLS, readable kallsyms, a JIT's perf map).
 */
struct pk_unresolved_dso {
	const char *name;	/* as pk_dso_name() */
	struct pk_build_id bid;	/* recorded, else the file's; size 0: none */
	bool kernel;		/* the kernel or a module */
	bool file;		/* an ELF file (not [heap], //anon, a JIT map) */
	bool found;		/* its symbols were read (a copy of it with the
				 * build id was found): false when it is not
				 * on this machine */
	uint64_t samples;	/* samples whose ip is in this DSO */
	uint64_t unresolved;	/* of these, the ones with no symbol */
};

struct pk_unresolved {
	uint64_t nr_samples;		/* samples delivered, in all DSOs or none */
	size_t nr;			/* DSOs with unresolved samples */
	struct pk_unresolved_dso *dso;	/* most unresolved first */
};

/*
 * The DSOs in which samples delivered so far (pk_session_next(), _any())
 * had an ip with no symbol, with their counts.  Returns 0 and *out, one
 * allocation that outlives the session, freed with pk_unresolved_free();
 * or -ENOMEM.
 */
int pk_session_unresolved(struct pk_session *s, struct pk_unresolved **out);
void pk_unresolved_free(struct pk_unresolved *u);

/* Thread accessors. */
int32_t pk_thread_pid(const struct pk_thread *t);
int32_t pk_thread_tid(const struct pk_thread *t);
const char *pk_thread_comm(const struct pk_thread *t); /* never NULL */

/* DSO accessors: the full name perf prints in script ("/usr/lib/libc.so.6",
 * "[kernel.kallsyms]"), and the short one report uses ("libc.so.6"). */
const char *pk_dso_name(const struct pk_dso *d);
const char *pk_dso_short_name(const struct pk_dso *d);
bool pk_dso_is_kernel(const struct pk_dso *d);

#ifdef __cplusplus
}
#endif
#endif
