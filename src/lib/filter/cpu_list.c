// SPDX-License-Identifier: MIT
/*
 * CPU lists ("0-3,5") as perf parses them for -C: numbers in C notation
 * (strtoul base 0), ranges that must not go down or repeat a CPU, parsing
 * that stops quietly at an entry not starting with a digit, and the empty
 * list meaning the single "any CPU" -1.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "filter_internal.h"

/* More CPUs than any machine perf supports: refuse rather than allocate. */
#define MAX_LIST_CPUS (1u << 20)

static int add_range(int32_t **cpus, size_t *nr, unsigned long lo, unsigned long hi)
{
	int32_t *v;

	if (hi - lo >= MAX_LIST_CPUS - *nr)
		return -E2BIG;
	for (size_t i = 0; i < *nr; i++)
		if ((unsigned long)(*cpus)[i] >= lo && (unsigned long)(*cpus)[i] <= hi)
			return -EINVAL;
	v = realloc(*cpus, (*nr + (hi - lo) + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	*cpus = v;
	for (unsigned long c = lo; c <= hi; c++)
		v[(*nr)++] = (int32_t)c;
	return 0;
}

static int cmp_cpu(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

int pki_filter_cpu_list(const char *str, int32_t **out, size_t *nr)
{
	const char *s = str;
	unsigned long lo, hi;
	char *p;
	int err = 0;

	*out = NULL;
	*nr = 0;
	if (!*s) {
		*out = malloc(sizeof(**out));
		if (!*out)
			return -ENOMEM;
		(*out)[0] = -1;
		*nr = 1;
		return 0;
	}
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	while (!err && isdigit((unsigned char)*s)) {
		lo = hi = strtoul(s, &p, 0);
		if (lo >= INT_MAX || (*p && *p != ',' && *p != '-')) {
			err = -EINVAL;
			break;
		}
		if (*p == '-') {
			hi = strtoul(p + 1, &p, 0);
			if (hi >= INT_MAX || (*p && *p != ',') || hi < lo) {
				err = -EINVAL;
				break;
			}
		}
		err = add_range(out, nr, lo, hi);
		s = *p ? p + 1 : p;
	}
	if (err) {
		free(*out);
		*out = NULL;
		*nr = 0;
		return err;
	}
	qsort(*out, *nr, sizeof(**out), cmp_cpu);
	return 0;
}
