/* SPDX-License-Identifier: MIT */
/*
 * perfkit/writer.h - write perf.data files (file mode) and streams (pipe
 * mode) that perf and perfkit read.  Usable by any tool that produces
 * records, not only by the recorder.
 *
 *	struct pk_writer *w;
 *	struct pk_writer_opts o = {.sz = sizeof(o)};
 *	if (pk_writer_open(&w, "perf.data", &o) < 0)
 *		...                          (pk_writer_error(w) says why)
 *	pk_writer_add_attr(w, &attr, "cpu-clock", ids, nr_ids);
 *	pk_writer_add_host_features(w, argc, argv);
 *	pk_writer_start(w);
 *	pk_writer_write(w, rec, rec->size);   (any number of times)
 *	pk_writer_finish_round(w);            (no reordering across this)
 *	pk_writer_finish(w);                  (features, header, rename)
 *	pk_writer_close(w);
 *
 * File mode writes to a temporary file created next to the target (never
 * through a symlink planted there) and renames it into place at finish.
 * Until then the header says "data size 0", which readers recover from.
 * When writing fails (disk full), the writer stops, keeps every whole
 * record written so far, and finish still produces a valid file.
 */
#ifndef PERFKIT_WRITER_H
#define PERFKIT_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pk_writer;

struct pk_writer_opts {
	size_t sz;	    /* sizeof(struct pk_writer_opts) */
	bool pipe;	    /* pipe mode (forced for "-" and for open_fd
			     * on a descriptor that cannot seek) */
	bool keep_old;	    /* rename an existing non-empty target to
			     * "PATH.old" first, as perf does */
	int compress_level; /* > 0: zstd-compress records at this level
			     * into PERF_RECORD_COMPRESSED (1..22) */
	uint32_t mmap_len;  /* written in HEADER_COMPRESSED: largest
			     * uncompressed payload; 0 = default */
	size_t buffer_size; /* write buffer, 0 = 256 KiB */
};

/* Open path for writing ("-" = standard output, pipe mode).  *out is set
 * whenever memory allowed, also on failure (pk_writer_error() then says
 * why); the caller closes it.  Returns 0 or a negative errno. */
int pk_writer_open(struct pk_writer **out, const char *path, const struct pk_writer_opts *opts);

/* Same on a descriptor the writer does not close.  File mode needs a
 * seekable descriptor positioned at 0; no rename happens. */
int pk_writer_open_fd(struct pk_writer **out, int fd, const char *name,
		      const struct pk_writer_opts *opts);

/* Abandon (when not finished: the file is removed and a PATH.old it
 * displaced is put back) and free.  The file takes its name at
 * pk_writer_start(), so a process killed after that leaves a readable PATH. */
void pk_writer_close(struct pk_writer *w);

/* Last error, one line; owned by the writer, never NULL. */
const char *pk_writer_error(const struct pk_writer *w);

/*
 * Declare an event before pk_writer_start(): its attr (attr->size bytes
 * are used; 0 means sizeof), perf's name for it (may be NULL) and the
 * sample ids the kernel gave its descriptors.  Returns its index, or a
 * negative errno.  Everything is copied.
 */
int pk_writer_add_attr(struct pk_writer *w, const struct perf_event_attr *attr, const char *name,
		       const uint64_t *ids, size_t nr_ids);

/* Add ids to attr idx (before start). */
int pk_writer_add_ids(struct pk_writer *w, uint32_t idx, const uint64_t *ids, size_t nr_ids);

/* Describe a group {a,b,...}: attrs leader..leader+nr_members-1. */
int pk_writer_add_group(struct pk_writer *w, const char *name, uint32_t leader,
			uint32_t nr_members);

/*
 * Set the raw bytes of a feature section (enum pk_feature of header.h),
 * replacing any previous value.  Copied.  EVENT_DESC, GROUP_DESC,
 * BUILD_ID, SAMPLE_TIME and COMPRESSED are built by the writer from what
 * it was told and need not be set.
 */
int pk_writer_set_feature(struct pk_writer *w, unsigned int feat, const void *data, size_t size);

/* A perf_header_string feature (HOSTNAME, OSRELEASE, ...). */
int pk_writer_set_feature_string(struct pk_writer *w, unsigned int feat, const char *s);

/*
 * Describe this machine: HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS,
 * CPUDESC, CPUID, TOTAL_MEM, CMDLINE (argv), CPU_TOPOLOGY,
 * NUMA_TOPOLOGY, CACHE, PMU_MAPPINGS, read from uname, /proc and /sys.
 * A value that cannot be read leaves its feature out.
 */
int pk_writer_add_host_features(struct pk_writer *w, int argc, char *const argv[]);

/* CLOCKID and CLOCK_DATA for a recording whose timestamps use clockid. */
int pk_writer_add_clock_features(struct pk_writer *w, int clockid);

/* TRACING_DATA for the tracepoint attrs added so far (after the attrs,
 * before start): formats from tracefs (NULL: found where mounted). */
int pk_writer_add_tracing_data(struct pk_writer *w, const char *tracefs);

/* A BUILD_ID entry (misc: PERF_RECORD_MISC_KERNEL or _USER; pid -1 for
 * the host). */
int pk_writer_add_build_id(struct pk_writer *w, uint16_t misc, int32_t pid, const uint8_t *id,
			   size_t id_size, const char *filename);

/* Write the file or pipe header (and in pipe mode the attrs and the
 * features known so far as records).  Returns 0 or a negative errno. */
int pk_writer_start(struct pk_writer *w);

/*
 * Append one record (size bytes starting with a struct perf_event_header
 * whose size equals size; a multiple of 8).  Samples' timestamps are
 * tracked for SAMPLE_TIME when the first attr samples TIME.  Returns 0 or
 * a negative errno; after an error every later write fails the same way.
 */
int pk_writer_write(struct pk_writer *w, const void *rec, size_t size);

/* What a PERF_RECORD_AUXTRACE says about the AUX data that follows it. */
struct pk_auxtrace_desc {
	uint64_t offset;	/* where the data was in the AUX area (aux_tail) */
	uint64_t reference;	/* for the decoder (e.g. a timestamp) */
	uint32_t idx;		/* which AUX buffer (ring index) */
	uint32_t tid;		/* thread, or -1 (per-CPU buffers) */
	uint32_t cpu;		/* CPU, or -1 (per-thread buffers) */
};

/*
 * Append a PERF_RECORD_AUXTRACE record followed by len bytes of AUX data
 * (padded to 8 bytes; the record's size field says len).  The data is
 * never compressed: pending compressed records are flushed first, as a
 * reader skips the payload by its size.  Returns 0 or a negative errno.
 */
int pk_writer_write_auxtrace(struct pk_writer *w, const struct pk_auxtrace_desc *d,
			     const void *data, size_t len);

/* Write a FINISHED_ROUND (after pending compressed data). */
int pk_writer_finish_round(struct pk_writer *w);

/* Push buffered bytes to the descriptor. */
int pk_writer_flush(struct pk_writer *w);

/*
 * Complete the output: flush, write the feature sections, rewrite the
 * header with the final sizes, and rename into place.  If the disk filled
 * up, the file keeps the records written before and finish returns the
 * write error (the file is still valid).  Idempotent.
 */
int pk_writer_finish(struct pk_writer *w);

struct pk_writer_stats {
	uint64_t bytes;	     /* file/stream size so far */
	uint64_t data_bytes; /* bytes of records (compressed size with -z) */
	uint64_t raw_bytes;  /* bytes of records before compression */
	uint64_t nr_records;
	uint64_t nr_samples;
	uint64_t first_sample_time, last_sample_time;
	bool write_failed;
};

void pk_writer_get_stats(const struct pk_writer *w, struct pk_writer_stats *st);

/* The final path (the target, not the temporary name). */
const char *pk_writer_path(const struct pk_writer *w);

#ifdef __cplusplus
}
#endif
#endif
