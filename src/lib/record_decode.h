/* SPDX-License-Identifier: MIT */
/* Shared by the record decoders (record_decode*.c); not installed. */
#ifndef PK_RECORD_DECODE_H
#define PK_RECORD_DECODE_H

#include <perfkit/record.h>
#include "cursor.h"

/* Set *why (when not NULL) and return -EINVAL. */
int pki_decode_fail(const char **why, const char *msg);

/* Records perf writes itself (types 64..): rec->size >= 8. */
int pki_decode_perf_record(const struct pk_record *rec, struct pk_record_fields *f,
			   const char **why);

#endif
