/* SPDX-License-Identifier: MIT */
/* The reader's private state, shared by reader*.c, attr.c and decompress.c. */
#ifndef PK_READER_INTERNAL_H
#define PK_READER_INTERNAL_H

#include <stdio.h>
#include <perfkit/reader.h>
#include "reader_io.h"
#include "internal.h"

#define PK_ATTR_FILE_MAX 4096 /* larger on-disk attrs are refused */

/* id -> attr index, open addressing */
struct pki_id_map {
	uint64_t *ids;
	uint32_t *idx;
	size_t cap, nr;
};

/* An unpacked COMPRESSED stream: records are cut from out[pos, len). */
struct pki_unpack {
	void *dctx;		/* ZSTD_DCtx */
	uint8_t *out;
	size_t cap, len, pos;
	uint64_t file_offset;	/* of the COMPRESSED record being unpacked */
};

struct pki_order;

struct pk_reader {
	char *path;
	int fd;
	bool own_fd;
	struct pk_reader_opts opts;
	struct pki_source src;
	struct pk_header hdr;

	struct pk_attr **attrs;	/* each separately allocated: stable */
	uint32_t nr_attrs;
	struct pki_id_map idmap;

	uint64_t data_end;	/* file mode: end of the data section */
	bool data_size_unknown;	/* file mode header says 0: read to EOF */
	bool done;

	struct pk_record rec;	/* the record last delivered */
	uint8_t *extra_buf;	/* TRACING_DATA payload in pipe mode */

	struct pki_unpack unpack;
	struct pk_record pending_compressed; /* delivered, not yet unpacked */
	bool has_pending_compressed;
	struct pki_order *order;

	uint64_t nr_warnings;
	uint64_t nr_unknown;
	char err[512];
	int last_err;
};

/* Record the error (message "path: offset 0x..: what") and return err. */
__attribute__((format(printf, 4, 5))) int pki_reader_fail(struct pk_reader *r, int err,
							   uint64_t offset, const char *fmt, ...);
__attribute__((format(printf, 3, 4))) void pki_reader_warn(struct pk_reader *r, uint64_t offset,
							    const char *fmt, ...);

/* attr.c */
int pki_attr_decode(struct perf_event_attr *out, const void *p, size_t len, bool swapped,
		    uint32_t *file_size);
int pki_reader_add_attr(struct pk_reader *r, const struct perf_event_attr *attr,
			uint32_t file_size, const void *ids, uint64_t nr_ids, bool ids_swapped);
void pki_attr_layout(struct pk_attr *a);
int pki_idmap_add(struct pki_id_map *m, uint64_t id, uint32_t idx);
void pki_reader_name_attrs(struct pk_reader *r);
int pki_reader_set_attr_name(struct pk_reader *r, uint32_t idx, const char *name, size_t len);
void pki_reader_free_attrs(struct pk_reader *r);

/* reader_stream.c: the next record in file order */
int pki_reader_next_raw(struct pk_reader *r, struct pk_record *rec);

/* reader_order.c: time ordering */
int pki_order_create(struct pki_order **out);
void pki_order_destroy(struct pki_order *o);
int pki_order_next(struct pk_reader *r, struct pki_order *o, const struct pk_record **rec);

/* decompress.c */
int pki_unpack_feed(struct pk_reader *r, const struct pk_record *rec);
void pki_unpack_fini(struct pki_unpack *u);

/* features.c */
int pki_feature_decode(struct pk_header *h, unsigned int feat, const void *data, size_t len,
		       bool swapped, const char **why);
void pki_header_free(struct pk_header *h);

#endif
