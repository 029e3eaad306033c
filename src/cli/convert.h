/* SPDX-License-Identifier: MIT */
/* perfkit convert and report --html: shared between their files. */
#ifndef PK_CLI_CONVERT_H
#define PK_CLI_CONVERT_H

#include <stdbool.h>
#include <perfkit/export.h>
#include "symbol_opts.h"

struct convert_args {
	const char *input;
	const char *output;
	const char *event;
	enum pk_export_format format;
	bool have_format;
	bool no_symbols;
	bool force;
	bool quiet;
	int verbose;
	struct cli_symbol_opts symsrc;
};

/* Read the input and write it in the chosen format; 0 or -errno (the
 * message is already printed). */
int convert_run(const struct convert_args *a);

#endif
