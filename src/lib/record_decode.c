// SPDX-License-Identifier: MIT
/* Non-sample record decoding (placeholder: the decoder module fills this in). */
#include <errno.h>
#include <perfkit/record.h>

int pk_record_decode(const struct pk_record *rec, struct pk_record_fields *out, const char **why)
{
	(void)rec;
	(void)out;
	(void)why;
	return -ENOTSUP;
}
