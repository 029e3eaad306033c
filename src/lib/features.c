// SPDX-License-Identifier: MIT
/* Feature sections (placeholder: the header module fills this in). */
#include <errno.h>
#include <stdlib.h>
#include "reader_internal.h"

int pki_feature_decode(struct pk_header *h, unsigned int feat, const void *data, size_t len,
		       bool swapped, const char **why)
{
	(void)data;
	(void)len;
	(void)swapped;
	(void)why;
	if (feat < PK_FEAT_BITS)
		h->have[feat / 64] |= 0;
	return 0;
}

void pki_header_free(struct pk_header *h)
{
	free((void *)h->tracing_data);
}
