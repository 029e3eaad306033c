/* SPDX-License-Identifier: MIT */
/* perfkit report -D: shared by report_dump.c and report_dump_sample.c. */
#ifndef PK_REPORT_DUMP_H
#define PK_REPORT_DUMP_H

#include <stdio.h>
#include <perfkit/perfkit.h>

/*
 * Print the details of a decoded sample (the summary line's tail and the
 * "... field" lines below it), in the style of perf report -D.
 */
void dump_sample(FILE *out, const struct pk_record *rec, const struct pk_sample *s);

#endif
