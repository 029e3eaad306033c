// SPDX-License-Identifier: MIT
/* The library's only way to say something: a callback the application sets. */
#include <stdio.h>
#include "internal.h"

static pk_print_fn print_fn;

const char *pk_version(void)
{
	return PK_VERSION_STRING;
}

pk_print_fn pk_set_print_fn(pk_print_fn fn)
{
	pk_print_fn old = print_fn;

	print_fn = fn;
	return old;
}

void pki_print(enum pk_print_level level, const char *fmt, ...)
{
	va_list ap;

	if (!print_fn)
		return;
	va_start(ap, fmt);
	print_fn(level, fmt, ap);
	va_end(ap);
}
