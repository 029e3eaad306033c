/* SPDX-License-Identifier: MIT */
/*
 * perfkit/recorder.h - sample a command, processes, threads or the whole
 * system into perf.data (what `perfkit record` does, as a library).
 *
 *	struct pk_recorder *rec;
 *	struct pk_recorder_opts o = {.sz = sizeof(o), .argv = cmd, .output = "perf.data"};
 *	if (pk_recorder_open(&rec, &o))
 *		fprintf(stderr, "%s\n", pk_recorder_error(rec));
 *	pk_recorder_run(rec);                  (until the command exits or
 *	                                        pk_recorder_stop() is called)
 *	pk_recorder_finish(rec, &summary);     (always leaves a valid file)
 *	pk_recorder_close(rec);
 *
 * Events are opened per CPU (and per thread with -p/-t), one ring buffer
 * per CPU takes every event of that CPU, each drain ends with a
 * FINISHED_ROUND, and the state that existed before the recording (the
 * kernel map, threads and their mappings) is synthesized from /proc.
 */
#ifndef PERFKIT_RECORDER_H
#define PERFKIT_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <perfkit/event.h>

#ifdef __cplusplus
extern "C" {
#endif

enum pk_callgraph {
	PK_CALLGRAPH_NONE = 0,
	PK_CALLGRAPH_FP,    /* frame pointers: PERF_SAMPLE_CALLCHAIN */
	PK_CALLGRAPH_DWARF, /* user registers and stack for unwinding */
};

struct pk_recorder_opts {
	size_t sz;			    /* sizeof(struct pk_recorder_opts) */
	const struct pk_event_list *events; /* NULL/empty: cycles, falling back
					     * to cpu-clock without a PMU */
	uint64_t freq;			    /* -F; 0: 4000 unless period is set */
	uint64_t period;		    /* -c */
	enum pk_callgraph callgraph;
	uint32_t dwarf_stack_size; /* 0 = 8192 */
	bool system_wide;	   /* -a */
	const char *cpu_list;	   /* -C "0-3,7" */
	const char *pid_list;	   /* -p "12,34" */
	const char *tid_list;	   /* -t "12,34" */
	char *const *argv;	   /* command to run (NULL-terminated) */
	size_t mmap_pages;	   /* -m: data pages per CPU (power of 2), 0 = 128 */
	bool no_inherit;	   /* do not follow children */
	bool inherit_stat;	   /* -s */
	bool sample_addr;	   /* -d */
	bool switch_events;	   /* --switch-events */
	bool namespaces;	   /* --namespaces */
	bool use_clockid;	   /* -k */
	int clockid;
	bool no_buildid;    /* leave BUILD_ID out */
	const char *output; /* path, "-" for pipe mode; default perf.data */
	int compress_level; /* -z: > 0 */
	int cmdline_argc;   /* for the CMDLINE feature */
	char *const *cmdline_argv;
	bool strict_freq;	       /* --strict-freq: a freq above the kernel's
					* perf_event_max_sample_rate is an error instead
					* of being lowered to it */
	bool all_user;		       /* --all-user: every event counts user space only */
	bool all_kernel;	       /* --all-kernel: kernel space only */
	bool user_callchains;	       /* --user-callchains: no kernel frames in call chains */
	unsigned int delay_ms;	       /* -D: the events start this long after the command
					* (or the recording) starts; messages say when */
	uint64_t max_size;	       /* --max-size: stop once the output has this many
					* bytes (0: no limit) */
	uint64_t switch_size;	       /* --switch-output=SIZE: a new file every SIZE bytes */
	unsigned int switch_secs;      /* --switch-output=TIME: a new file every TIME s */
	unsigned int switch_max_files; /* --switch-max-files: keep only the newest
					* this many timestamped files (0: all) */
	bool kernel_callchains;	       /* --kernel-callchains: no user frames in call chains */
	bool sample_cpu;	       /* --sample-cpu: CPU in samples of a command too */
	bool no_buffering;	       /* --no-buffering: wake up at every record */
	int synth;		       /* --synth: PK_RECORDER_SYNTH_* */
	bool no_samples;	       /* -n: events that only track, never sample */
	uint64_t extra_sample_type;    /* PERF_SAMPLE_* bits added to every event
					* (-W, -R, --phys-data, --*-page-size) */
	bool running_time;	       /* --running-time: :S reads carry the enabled
					* and running times */
	bool overwrite;		       /* --overwrite: flight recorder; the rings keep the
					* newest records and are written out only at
					* the end and at each switch (pk_recorder_switch) */
	/* The build-id cache: at the end, the DSOs listed in BUILD_ID (those
	 * with samples, the kernel's kallsyms, the vdso) are copied into
	 * it, as perf record does, unless no_buildid_cache (or no_buildid). */
	bool no_buildid_cache;	 /* -N */
	const char *buildid_dir; /* NULL: $PERF_BUILDID_DIR, else ~/.debug */
};

/* What is read from /proc for the threads that exist before the
 * recording (--synth); the kernel's maps are always written. */
enum {
	PK_RECORDER_SYNTH_ALL = 0, /* COMM/FORK and maps */
	PK_RECORDER_SYNTH_NO,	   /* nothing */
	PK_RECORDER_SYNTH_TASK,	   /* COMM/FORK only */
	PK_RECORDER_SYNTH_MMAP,	   /* COMM/FORK and maps (as ALL: no cgroups here) */
};

struct pk_recorder;

/*
 * Check the options, open the events, map the rings, start the output and
 * synthesize the existing state; a command is forked and waits for
 * pk_recorder_run().  Returns 0 or a negative errno; *out is set whenever
 * memory allowed, so pk_recorder_error() can explain; close it in both
 * cases.
 */
int pk_recorder_open(struct pk_recorder **out, const struct pk_recorder_opts *opts);

/* One line saying what went wrong (may span lines for permission
 * problems); owned by the recorder, never NULL. */
const char *pk_recorder_error(const struct pk_recorder *r);

/* Informational notes gathered while opening (e.g. the cpu-clock
 * fallback), one per line, or "" ; owned by the recorder. */
const char *pk_recorder_notes(const struct pk_recorder *r);

/*
 * Start the command (if any) and record until it exits, every traced
 * thread is gone, pk_recorder_stop() is called, or writing fails.
 * Returns 0 or a negative errno (the file is still finished by
 * pk_recorder_finish()).
 */
int pk_recorder_run(struct pk_recorder *r);

/* Ask pk_recorder_run() to return.  Async-signal-safe. */
void pk_recorder_stop(struct pk_recorder *r);

/*
 * Ask pk_recorder_run() to close the current output file under a name
 * with a timestamp (OUTPUT.YYYYMMDDhhmmssCC, local time, as perf's
 * --switch-output) and go on in a new one.  Async-signal-safe; also done
 * by the recorder itself with switch_size / switch_secs.
 */
void pk_recorder_switch(struct pk_recorder *r);

/*
 * Rename the finished output to OUTPUT.YYYYMMDDhhmmssCC (perf's
 * --timestamp-filename); the new name is written to name (size bytes).
 * 0 or a negative errno.  After pk_recorder_finish(), file mode only.
 */
int pk_recorder_timestamp_output(struct pk_recorder *r, char *name, size_t size);

struct pk_recorder_summary {
	uint64_t bytes;			      /* output size */
	uint64_t samples;		      /* SAMPLE records written */
	uint64_t lost;			      /* samples the kernel reported lost */
	uint64_t lost_records;		      /* LOST records */
	uint64_t wakeups;		      /* drains that found data */
	uint64_t raw_bytes, compressed_bytes; /* with -z */
	bool command_ran;
	int command_status; /* waitpid() status of the command */
	bool write_failed;
};

/* Drain what is left, write the features and the final header (rename
 * into place).  0 or a negative errno; *s is filled in both cases. */
int pk_recorder_finish(struct pk_recorder *r, struct pk_recorder_summary *s);

/* Whether pk_recorder_finish() will produce a file: false when the
 * command could not be started (the output is then removed at close). */
bool pk_recorder_has_output(const struct pk_recorder *r);

/* Stop the command if it still runs, close everything. */
void pk_recorder_close(struct pk_recorder *r);

/* Output path (as given). */
const char *pk_recorder_output(const struct pk_recorder *r);

#ifdef __cplusplus
}
#endif
#endif
