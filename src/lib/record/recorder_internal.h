/* SPDX-License-Identifier: MIT */
/* The recorder's state, shared by its files; not installed. */
#ifndef PK_RECORDER_INTERNAL_H
#define PK_RECORDER_INTERNAL_H

#include <signal.h>
#include <perfkit/recorder.h>
#include <perfkit/ring.h>
#include <perfkit/writer.h>

struct rec_event {
	struct perf_event_attr attr;
	char *name;
	const char *filter; /* tracepoint filter, owned by the event list */
	int leader;	    /* index of the group leader */
	int group_size;
	int *fds; /* [cpu_idx * nr_threads + thread_idx] */
	uint64_t *ids;
	size_t nr_ids;
};

struct pki_rec_dsos;

struct pk_recorder {
	char err[1024];
	char notes[512];
	struct pk_recorder_opts o;

	/* targets */
	int *cpus; /* CPU numbers, -1 for "any CPU" */
	int nr_cpus;
	pid_t *threads; /* -1 for "all" (system-wide) */
	int nr_threads;
	bool per_task;	    /* events follow tasks (command, -p, -t) */
	bool trace_command; /* the events are opened on the command */
	bool data_maps;	    /* non-exec mappings too (-d, dwarf unwinding) */

	struct rec_event *ev;
	int nr_ev;
	int tracking_ev;	/* the dummy event tracking tasks and maps, or -1 */
	struct pk_ring **rings; /* one per CPU */
	int nr_rings;
	size_t mmap_pages;

	/* sample layout (same for every event) */
	uint64_t sample_type;
	int id_hdr_size; /* bytes of the sample_id_all trailer */

	/* the command */
	pid_t child;
	int go_fd, err_fd, pidfd;
	bool child_done;
	int child_status;

	int stop_fd; /* eventfd: pk_recorder_stop() and pk_recorder_switch() */
	volatile sig_atomic_t stop;
	volatile sig_atomic_t switch_req;

	/* -D, --switch-output, --max-size (recorder_switch.c) */
	bool delayed;		 /* events wait for enable_at */
	uint64_t enable_at;	 /* CLOCK_MONOTONIC ns */
	uint64_t next_switch_at; /* CLOCK_MONOTONIC ns, 0: none */
	char **stamped;		 /* timestamped files written, oldest first */
	unsigned int nr_stamped;

	struct pk_writer *w;
	struct pki_rec_dsos *dsos;
	uint64_t lost, lost_records, wakeups;
	bool finished;
	bool start_failed; /* the command never ran: no file is kept */
};

__attribute__((format(printf, 3, 4))) int pki_rec_fail(struct pk_recorder *r, int err,
						       const char *fmt, ...);
void pki_rec_note(struct pk_recorder *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* recorder.c */
int pki_rec_open_writer(struct pk_recorder *r);
int pki_rec_synthesize(struct pk_recorder *r);

/* recorder_switch.c: what the loop does besides draining */
uint64_t pki_rec_now_ns(void);
/* Milliseconds until the next timed action, or dflt. */
int pki_rec_timeout_ms(const struct pk_recorder *r, int dflt);
/* After a drain: enable delayed events, switch files, stop at max_size.
 * 0 or a negative errno; sets r->stop at the size limit. */
int pki_rec_tick(struct pk_recorder *r);
void pki_rec_timed_start(struct pk_recorder *r);
/* A switch is asked for or its time has come (--overwrite drains then). */
bool pki_rec_switch_due(const struct pk_recorder *r);
void pki_rec_free_stamped(struct pk_recorder *r);

/* recorder_events.c */
int pki_rec_setup_events(struct pk_recorder *r);
int pki_rec_open_events(struct pk_recorder *r);
int pki_rec_map_rings(struct pk_recorder *r);
void pki_rec_close_events(struct pk_recorder *r);
int pki_rec_enable(struct pk_recorder *r, bool on);
/* Enable the tracking event alone (system-wide, before the /proc read). */
int pki_rec_enable_tracking(struct pk_recorder *r);

/* recorder_targets.c: parse "0-3,7" lists and find threads */
int pki_parse_int_list(const char *s, int **out, int *nr, int max_value);
int pki_rec_setup_targets(struct pk_recorder *r);

/* workload.c */
int pki_workload_prepare(struct pk_recorder *r);
int pki_workload_start(struct pk_recorder *r);
void pki_workload_reap(struct pk_recorder *r, bool wait);

/* synth.c: records for the state that existed before recording */
int pki_synth_kernel(struct pk_recorder *r);
int pki_synth_threads(struct pk_recorder *r);
int pki_synth_command(struct pk_recorder *r);
/* Append the sample_id_all trailer for (pid, tid) to rec (size bytes
 * used, room for id_hdr_size more); returns the new size. */
size_t pki_rec_trailer(const struct pk_recorder *r, void *rec, size_t size, uint32_t pid,
		       uint32_t tid);
/* Write one record through the writer and the DSO tracker. */
int pki_rec_emit(struct pk_recorder *r, const void *rec, size_t size);

/* dsos.c: which DSOs samples hit, and their build ids */
struct pki_rec_dsos *pki_rec_dsos_new(uint64_t sample_type);
void pki_rec_dsos_free(struct pki_rec_dsos *d);
void pki_rec_dsos_record(struct pki_rec_dsos *d, const void *rec, size_t size);
/* Add BUILD_ID entries for every DSO hit. */
void pki_rec_dsos_write_build_ids(struct pki_rec_dsos *d, struct pk_writer *w);
/* Copy the DSOs written to BUILD_ID into the build-id cache at dir (NULL:
 * the default); failures are only said under -v. */
void pki_rec_dsos_fill_cache(struct pki_rec_dsos *d, const char *dir);

#endif
