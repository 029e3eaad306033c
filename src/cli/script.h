/* SPDX-License-Identifier: MIT */
/* perfkit script: shared between its files. */
#ifndef PK_CLI_SCRIPT_H
#define PK_CLI_SCRIPT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <perfkit/perfkit.h>
#include <perfkit/session.h>

/* Output fields, named as in perf script -F. */
enum script_field {
	SF_COMM = 1 << 0,
	SF_TID = 1 << 1,
	SF_PID = 1 << 2,
	SF_TIME = 1 << 3,
	SF_CPU = 1 << 4,
	SF_EVENT = 1 << 5,
	SF_TRACE = 1 << 6,
	SF_IP = 1 << 7,
	SF_SYM = 1 << 8,
	SF_SYMOFF = 1 << 9,
	SF_DSO = 1 << 10,
	SF_ADDR = 1 << 11,
	SF_PERIOD = 1 << 12,
	SF_DATA_SRC = 1 << 13,
	SF_WEIGHT = 1 << 14,
	SF_INS_LAT = 1 << 15,
	SF_PHYS_ADDR = 1 << 16,
	SF_DATA_PAGE_SIZE = 1 << 17,
	SF_CODE_PAGE_SIZE = 1 << 18,
	SF_BRSTACK = 1 << 19,
	SF_BRSTACKSYM = 1 << 20,
	SF_IREGS = 1 << 21,
	SF_UREGS = 1 << 22,
	SF_FLAGS = 1 << 23,
	SF_MISC = 1 << 24,
	SF_IPC = 1 << 25,
	SF_BRSTACKOFF = 1 << 26,
	SF_TOD = 1 << 27,
	SF_AUX_ONLY = 1 << 28,	/* callindent, synth, metric: AUX-trace data only */
};

/* --reltime, --deltatime */
enum script_time_mode { TIME_ABS, TIME_REL, TIME_DELTA };

/* Side-band records printed between the samples (--show-*-events). */
enum script_show {
	SHOW_TASK = 1 << 0,	/* COMM, FORK, EXIT */
	SHOW_MMAP = 1 << 1,	/* MMAP, MMAP2 */
	SHOW_SWITCH = 1 << 2,
	SHOW_NAMESPACE = 1 << 3,
	SHOW_LOST = 1 << 4,
	SHOW_ROUND = 1 << 5,	/* FINISHED_ROUND, in file order */
	SHOW_CGROUP = 1 << 6,
	SHOW_BPF = 1 << 7,	/* KSYMBOL, BPF_EVENT */
	SHOW_TEXT_POKE = 1 << 8, /* KSYMBOL, TEXT_POKE */
};

struct script_event_fmt {
	unsigned fields;	/* what this event prints */
	bool callchain;		/* the event records callchains */
};

struct obuf;
struct pk_sample_filter;
struct script_lines;

struct script_ctx {
	FILE *out;
	struct obuf *ob;		/* samples are printed through it */
	struct pk_session *session;
	bool nanosecs;
	int name_width;
	uint32_t nr_attrs;
	struct script_event_fmt *fmt; /* per attr index */
	struct pk_frame *frames;
	struct script_lines *lines;	/* callchain lines, formatted */
	char *trace_buf;		/* tracepoint fields, formatted */
	size_t trace_len;
	int data_src_width;		/* widest data_src column so far */
	unsigned show;			/* enum script_show */
	size_t max_stack;		/* callchain frames printed */
	const char *arch;		/* the recording's, for register names */
	struct pk_sample_filter *filter; /* NULL: every sample */
	enum script_time_mode time_mode;
	uint64_t first_time, prev_time;	/* of the lines printed, for time_mode */
	/* the tod field: wall time at the clock's reading (CLOCK_DATA) */
	uint64_t tod_wall_ns, tod_clock_ns;
	/* --per-event-dump (script_dump.c) */
	bool per_event_dump;
	const char *dump_input;		/* the input's path; NULL for a pipe */
	struct script_dump *dumps;	/* per attr index */
	uint32_t nr_dumps;
};

/* The columns every line starts with. */
struct script_start {
	const char *comm;
	int32_t pid, tid;
	uint32_t cpu;
	uint64_t time;
	uint16_t misc;		/* the record's header misc, for the misc field */
	uint32_t type;		/* the record's type (PERF_RECORD_*) */
};

#define SCRIPT_MAX_STACK 127
/* callchain room, with the inlined frames of DWARF callchains */
#define SCRIPT_MAX_FRAMES 1024

/* The scalar fields of a sample that formatting prints. */
struct script_fields {
	uint64_t type;		/* sample_type */
	uint64_t ip, time, period;
	uint32_t pid, tid, cpu;
	uint16_t weight_var2;
	uint16_t misc;		/* header misc of the sample record */
	uint64_t data_src, weight, phys_addr, data_page_size, code_page_size;
};

/*
 * A sample as formatting needs it, without the session: what depends on
 * the session's state at the sample (the comm, the resolved frames) is
 * taken when the sample is read.  Small, as millions of them are copied
 * from thread to thread.
 */
struct script_job {
	const struct pk_attr *attr;
	struct script_fields s;
	struct pk_location loc;
	const char *comm;
	const struct pk_frame *frames;
	size_t nr_frames;
};

/* Fill j from ev: everything but comm and frames. */
void script_job_init(struct script_job *j, const struct pk_session_sample *ev);
void script_print_sample(struct script_ctx *c, const struct pk_session_sample *ev);
/* Whether attr's fields need the session when printed (trace, addr, regs,
 * branch stacks): such samples are printed by script_print_sample(). */
bool script_job_needs_session(const struct script_ctx *c, const struct pk_attr *attr);
/* The frames a job of ev prints, resolved into frames (SCRIPT_MAX_FRAMES). */
size_t script_job_frames(struct script_ctx *c, const struct pk_session_sample *ev,
			 struct pk_frame *frames);
void script_format_job(struct script_ctx *c, const struct script_job *j);

/* Formatting in a second thread (script_pipe.c).  While a pipe runs, only
 * its thread writes to c->ob: drain it before printing anything else. */
struct script_pipe;
struct script_pipe *script_pipe_start(struct script_ctx *c);
/* Queue a sample (no session fields); -ENOMEM, or 1 when it cannot be
 * queued (print it directly after script_pipe_drain()). */
int script_pipe_add(struct script_pipe *p, const struct pk_session_sample *ev);
void script_pipe_drain(struct script_pipe *p);
void script_pipe_stop(struct script_pipe *p);
/* The brstack or brstacksym field (script_branch.c). */
void script_print_brstack(struct script_ctx *c, const struct pk_session_sample *ev, unsigned f);
void script_print_start(struct script_ctx *c, const struct script_start *st, unsigned f,
			bool chain);
/* " sym+off (dso)" as the fields ask, or " (inlined)" (script_print.c). */
void script_print_sym(struct obuf *o, const struct pk_location *loc, unsigned f);
/* Callchain lines, formatted once (script_lines.c). */
struct script_lines *script_lines_new(void);
void script_lines_free(struct script_lines *l);
/* One callchain line, "\t<addr> sym+off (dso)\n", as the fields ask. */
void script_print_frame(struct script_ctx *c, const struct pk_location *l, unsigned f);
/* The iregs or uregs field (script_regs.c). */
void script_print_regs(struct script_ctx *c, const struct pk_regs *regs, bool swapped);
/* --per-event-dump: a file per event (script_dump.c).  Open the files of
 * the attrs not seen yet; the buffer of attr i's samples; close all. */
int script_dump_open(struct script_ctx *c);
struct obuf *script_dump_ob(struct script_ctx *c, uint32_t i);
int script_dump_close(struct script_ctx *c);
/* A non-sample record, when one of the --show-*-events asks for it. */
void script_print_record(struct script_ctx *c, const struct pk_record *rec);

#endif
