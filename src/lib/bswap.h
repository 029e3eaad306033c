/* SPDX-License-Identifier: MIT */
/* Loads of possibly unaligned values in either byte order. */
#ifndef PK_BSWAP_H
#define PK_BSWAP_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t pki_load64(const void *p, bool swapped)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swapped ? __builtin_bswap64(v) : v;
}

static inline uint32_t pki_load32(const void *p, bool swapped)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swapped ? __builtin_bswap32(v) : v;
}

static inline uint16_t pki_load16(const void *p, bool swapped)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swapped ? __builtin_bswap16(v) : v;
}

#endif
