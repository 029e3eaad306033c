/* SPDX-License-Identifier: MIT */
/* Helpers shared by the library's modules; not installed. */
#ifndef PK_INTERNAL_H
#define PK_INTERNAL_H

#include <stddef.h>
#include <perfkit/perfkit.h>

#define PK_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

__attribute__((format(printf, 2, 3))) void pki_print(enum pk_print_level level, const char *fmt,
						      ...);

#define pki_warn(...)  pki_print(PK_PRINT_WARN, __VA_ARGS__)
#define pki_debug(...) pki_print(PK_PRINT_DEBUG, __VA_ARGS__)

/*
 * A field of a caller's options struct, or def when the struct is NULL or
 * older than the field (its sz stops short of it).
 */
#define PKI_OPT(opts, field, def)                                                         \
	((opts) && (opts)->sz >= offsetof(__typeof__(*(opts)), field) + sizeof((opts)->field) \
		 ? (opts)->field                                                          \
		 : (def))

#endif
