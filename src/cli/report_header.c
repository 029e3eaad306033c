// SPDX-License-Identifier: MIT
/* perfkit report --header-only (placeholder). */
#include "cli.h"

int report_header_only(struct pk_reader *r, FILE *out, bool full)
{
	(void)r;
	(void)out;
	(void)full;
	cli_error("report --header-only: not implemented yet");
	return -1;
}
