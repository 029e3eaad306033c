/* SPDX-License-Identifier: MIT */
/*
 * perfkit/perfkit.h - umbrella header of libperfkit, and the library-wide
 * settings: version and the print callback.
 *
 * The library never writes to stdout or stderr by itself: diagnostics go to
 * the callback installed with pk_set_print_fn() (none by default).
 */
#ifndef PERFKIT_PERFKIT_H
#define PERFKIT_PERFKIT_H

#include <stdarg.h>

#include <perfkit/version.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version, PK_VERSION_STRING of the headers it was built with. */
const char *pk_version(void);

enum pk_print_level {
	PK_PRINT_WARN,
	PK_PRINT_INFO,
	PK_PRINT_DEBUG,
};

typedef void (*pk_print_fn)(enum pk_print_level level, const char *fmt, va_list ap);

/* Install the diagnostics callback (NULL: silence); returns the old one. */
pk_print_fn pk_set_print_fn(pk_print_fn fn);

#ifdef __cplusplus
}
#endif

#include <perfkit/record.h>
#include <perfkit/sample.h>
#include <perfkit/header.h>
#include <perfkit/reader.h>
#include <perfkit/report.h>
#include <perfkit/event.h>
#include <perfkit/counter.h>
#include <perfkit/evfd.h>
#include <perfkit/limits.h>
#include <perfkit/ring.h>
#include <perfkit/writer.h>
#include <perfkit/recorder.h>
#include <perfkit/filter.h>
#include <perfkit/buildid.h>

#endif
