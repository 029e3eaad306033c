/* SPDX-License-Identifier: MIT */
/*
 * perfkit/report.h - summaries of a recording.
 */
#ifndef PERFKIT_REPORT_H
#define PERFKIT_REPORT_H

#include <perfkit/reader.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Per-event counts, as in "perf report --stats". */
struct pk_attr_stats {
	uint64_t nr_samples;
	uint64_t nr_lost_samples;	/* LOST_SAMPLES records */
};

/* Record counts of a whole recording. */
struct pk_record_stats {
	uint64_t nr[PK_RECORD_TYPE_LIMIT];	/* records of each type */
	uint64_t total;
	uint64_t nr_unknown_id;		/* samples that matched no attr */
	uint64_t lost;			/* sum of LOST records' counts */
	bool has_auxtrace;		/* AUXTRACE_INFO was seen */
	uint32_t nr_attrs;
	struct pk_attr_stats *attrs;	/* nr_attrs, same order as the reader's */
};

/*
 * Read every remaining record of r in file order and count them.  On
 * success returns 0; on a read error returns the negative errno with the
 * counts of the records before the fault filled in.  Free with
 * pk_record_stats_free() in both cases.
 */
int pk_record_stats_collect(struct pk_reader *r, struct pk_record_stats *out);
void pk_record_stats_free(struct pk_record_stats *st);

#ifdef __cplusplus
}
#endif
#endif
