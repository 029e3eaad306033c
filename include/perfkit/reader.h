/* SPDX-License-Identifier: MIT */
/*
 * perfkit/reader.h - read perf.data files and pipe-mode streams.
 *
 * The reader streams records in bounded memory: file mode and pipe mode,
 * either byte order, every attr size, zstd-compressed records, and two
 * delivery orders (file order, or time order across CPUs honouring
 * FINISHED_ROUND).
 *
 *	struct pk_reader *r;
 *	const struct pk_record *rec;
 *	int err = pk_reader_open(&r, "perf.data", NULL);
 *	if (err)
 *		...
 *	while ((err = pk_reader_next(r, &rec)) > 0)
 *		...
 *	if (err < 0)
 *		fprintf(stderr, "%s\n", pk_reader_error(r));
 *	pk_reader_close(r);
 */
#ifndef PERFKIT_READER_H
#define PERFKIT_READER_H

#include <perfkit/header.h>
#include <perfkit/record.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One event (perf_event_attr) of the recording. */
struct pk_attr {
	struct perf_event_attr attr;	/* host byte order; fields beyond the
					 * file's attr size are zero */
	uint32_t file_attr_size;	/* attr.size as found in the file */
	uint32_t index;			/* position among the reader's attrs */
	const char *name;		/* "cycles", "sched:sched_switch", ... */
	uint32_t nr_ids;
	const uint64_t *ids;
	int sample_size;		/* bytes of fixed sample fields */
	int id_pos;			/* u64 index of the id in a sample, -1 */
	int is_pos;			/* u64 index of the id from the end of a
					 * non-sample record, -1 */
};

enum pk_order {
	PK_ORDER_FILE = 0,	/* as stored in the file */
	PK_ORDER_TIME = 1,	/* by timestamp, per FINISHED_ROUND */
};

struct pk_reader_opts {
	size_t sz;		/* sizeof(struct pk_reader_opts) */
	enum pk_order order;
	bool keep_going;	/* unused yet; reserved */
	bool force;		/* read a file owned by another user */
	bool no_decompress;	/* deliver COMPRESSED records but not their
				 * contents (by default both are delivered) */
	size_t buffer_size;	/* read buffer, 0 = default (4 MiB) */
};

struct pk_reader;

/*
 * Open path ("-" means standard input).  On success *out is a reader the
 * caller frees with pk_reader_close().  Returns 0 or a negative errno; on
 * failure *out is still set (when memory allowed) so that pk_reader_error()
 * can say what went wrong: the caller closes it in both cases.
 */
int pk_reader_open(struct pk_reader **out, const char *path, const struct pk_reader_opts *opts);

/* Same, on an open descriptor (not closed by the reader).  name is used in
 * messages. */
int pk_reader_open_fd(struct pk_reader **out, int fd, const char *name,
		      const struct pk_reader_opts *opts);

void pk_reader_close(struct pk_reader *r);

/*
 * Next record.  Returns 1 and sets *rec, 0 at the end of the data, or a
 * negative errno when the data is corrupt or cannot be read (see
 * pk_reader_error()); records before the fault were delivered.
 */
int pk_reader_next(struct pk_reader *r, const struct pk_record **rec);

/* Last error as one line: "FILE: offset 0x1234: what is wrong".  Owned by
 * the reader; never NULL. */
const char *pk_reader_error(const struct pk_reader *r);

/* Non-fatal problems seen so far (e.g. an unknown record type skipped). */
uint64_t pk_reader_nr_warnings(const struct pk_reader *r);

const struct pk_header *pk_reader_header(const struct pk_reader *r);

uint32_t pk_reader_nr_attrs(const struct pk_reader *r);
const struct pk_attr *pk_reader_attr(const struct pk_reader *r, uint32_t idx);

/* The attr a sample id belongs to, or NULL. */
const struct pk_attr *pk_reader_attr_by_id(const struct pk_reader *r, uint64_t id);

/* Path or name given at open. */
const char *pk_reader_path(const struct pk_reader *r);

/* Records of an unknown type that were skipped. */
uint64_t pk_reader_nr_unknown(const struct pk_reader *r);

#ifdef __cplusplus
}
#endif
#endif
