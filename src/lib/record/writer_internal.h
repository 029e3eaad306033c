/* SPDX-License-Identifier: MIT */
/* The writer's state, shared by writer.c, writer_compress.c and
 * writer_features.c; not installed. */
#ifndef PK_WRITER_INTERNAL_H
#define PK_WRITER_INTERNAL_H

/* the largest record: its size is 16 bits */
#define PKI_WRITER_REC_MAX 65535

#include <stdarg.h>
#include <perfkit/header.h>
#include <perfkit/writer.h>
#include <perfkit/record.h>
#include "wbuf.h"

struct wattr {
	struct perf_event_attr attr;
	char *name;
	uint64_t *ids;
	size_t nr_ids;
};

struct wgroup {
	char *name;
	uint32_t leader, nr_members;
};

struct pk_writer {
	int fd;
	bool own_fd;
	bool pipe;
	bool keep_old;
	bool moved_old;		/* PATH was renamed to PATH.old */
	bool in_place;		/* the file has its final name */
	bool create_at_start;	/* pk_writer_open(PATH): created by start */
	char *path;	/* target */
	char *tmp_path; /* where file mode writes until finish */
	char err[512];

	struct wattr *attrs;
	size_t nr_attrs;
	struct wgroup *groups;
	size_t nr_groups;
	struct pki_wbuf feat[PK_FEAT_KNOWN_MAX];
	bool feat_set[PK_FEAT_KNOWN_MAX];
	struct pki_wbuf build_ids; /* serialized build_id_event entries */
	uint32_t nr_build_ids;
	int clockid;
	bool use_clockid;

	/* output */
	uint8_t *buf;
	size_t buf_len, buf_cap;
	uint64_t pos; /* bytes handed to the descriptor */
	uint64_t data_offset;
	uint64_t committed; /* end of the last whole record on disk */
	bool started, finished, failed;
	int fail_err;

	/* -z */
	int compress_level;
	uint32_t mmap_len;
	void *cctx;
	struct pki_wbuf zin; /* records waiting to be compressed */

	/* SAMPLE_TIME */
	int time_pos; /* byte offset of TIME in a sample, or -1 */

	struct pk_writer_stats st;
	uint64_t pending_samples; /* written to the buffer, not yet to disk */
};

__attribute__((format(printf, 3, 4))) int pki_writer_fail(struct pk_writer *w, int err,
							  const char *fmt, ...);
/* Append bytes to the output (buffered). */
int pki_writer_emit(struct pk_writer *w, const void *data, size_t n);
/* Compressed path of pk_writer_write. */
int pki_writer_compress_add(struct pk_writer *w, const void *rec, size_t size);
int pki_writer_compress_flush(struct pk_writer *w);
void pki_writer_compress_free(struct pk_writer *w);
/* Build the sections the writer derives itself. */
void pki_writer_build_derived(struct pk_writer *w);

#endif
