// SPDX-License-Identifier: MIT
/* perfkit list (placeholder). */
#include "cli.h"

int cmd_list(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("list: not implemented yet");
	return 1;
}
