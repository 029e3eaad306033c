// SPDX-License-Identifier: MIT
/* perfkit stat (placeholder). */
#include "cli.h"

int cmd_stat(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("stat: not implemented yet");
	return 1;
}
