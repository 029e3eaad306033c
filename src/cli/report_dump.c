// SPDX-License-Identifier: MIT
/* perfkit report -D (placeholder). */
#include "cli.h"

int report_dump(struct pk_reader *r, FILE *out)
{
	(void)r;
	(void)out;
	cli_error("report -D: not implemented yet");
	return -1;
}
