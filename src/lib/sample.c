// SPDX-License-Identifier: MIT
/* Sample decoding (placeholder: the decoder module fills this in). */
#include <errno.h>
#include <perfkit/sample.h>

int pk_sample_decode(const struct pk_record *rec, struct pk_sample *out, const char **why)
{
	(void)rec;
	(void)out;
	(void)why;
	return -ENOTSUP;
}
