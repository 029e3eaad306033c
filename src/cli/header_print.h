/* SPDX-License-Identifier: MIT */
/* Helpers of report --header-only (report_header.c, header_*.c). */
#ifndef PK_CLI_HEADER_PRINT_H
#define PK_CLI_HEADER_PRINT_H

#include <stdio.h>
#include <perfkit/perfkit.h>

/* Every non-zero field of attr as ", name = value", in perf's order and
 * spelling (the tail of perf's "# event :" lines). */
void header_print_attr_fields(FILE *out, const struct perf_event_attr *attr);

/* Feature sections that need the whole header (file mode and pipe mode). */
void header_print_cpu_topology(FILE *out, const struct pk_header *h);
void header_print_mem_topology(FILE *out, const struct pk_header *h);
void header_print_clock_data(FILE *out, const struct pk_header *h);

#endif
