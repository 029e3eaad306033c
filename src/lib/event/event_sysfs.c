// SPDX-License-Identifier: MIT
/* PMUs described by sysfs: type, format/ bit ranges, events/ aliases, cpumask. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "event_internal.h"

const char *pki_sysfs_root(const struct pk_event_parse_opts *opts)
{
	const char *env;

	if (opts && opts->sz >= offsetof(struct pk_event_parse_opts, sysfs_root) + sizeof(char *) &&
	    opts->sysfs_root)
		return opts->sysfs_root;
	env = getenv("PERFKIT_SYSFS");
	return env && *env ? env : "/sys";
}

int pki_read_small_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	buf[n] = 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return (int)n;
}

int pki_pmu_open(struct pki_pmu *pmu, const char *sysfs, const char *name)
{
	char path[600], buf[32], *end;
	int n;

	if (!*name || strchr(name, '/') || strstr(name, ".."))
		return -ENOENT;
	n = snprintf(pmu->dir, sizeof(pmu->dir), "%s/bus/event_source/devices/%s", sysfs, name);
	if (n < 0 || (size_t)n >= sizeof(pmu->dir))
		return -ENAMETOOLONG;
	snprintf(path, sizeof(path), "%s/type", pmu->dir);
	if (pki_read_small_file(path, buf, sizeof(buf)) < 0)
		return -ENOENT;
	errno = 0;
	unsigned long t = strtoul(buf, &end, 0);
	if (errno || end == buf || t > UINT32_MAX)
		return -EINVAL;
	pmu->type = (uint32_t)t;
	return 0;
}

/* Set the bits of field (a "config1:0-7,32-35" spec) from value, low bits first. */
static int apply_format(struct perf_event_attr *attr, const char *spec, uint64_t value)
{
	__u64 *field;
	const char *p;

	if (!strncmp(spec, "config2:", 8))
		field = &attr->config2;
	else if (!strncmp(spec, "config1:", 8))
		field = &attr->config1;
	else if (!strncmp(spec, "config:", 7))
		field = &attr->config;
	else
		return -EINVAL;
	p = strchr(spec, ':') + 1;
	while (*p) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p || lo > 63)
			return -EINVAL;
		if (*end == '-') {
			p = end + 1;
			hi = strtoul(p, &end, 10);
			if (end == p || hi > 63 || hi < lo)
				return -EINVAL;
		}
		for (unsigned long b = lo; b <= hi; b++) {
			*field = (*field & ~(1ULL << b)) | ((value & 1) << b);
			value >>= 1;
		}
		if (*end == ',')
			end++;
		else if (*end)
			return -EINVAL;
		p = end;
	}
	return value ? -ERANGE : 0;
}

int pki_pmu_apply_term(const struct pki_pmu *pmu, struct perf_event_attr *attr, const char *term,
		       uint64_t value)
{
	char path[800], spec[256];

	if (!strcmp(term, "config"))
		return attr->config = value, 0;
	if (!strcmp(term, "config1"))
		return attr->config1 = value, 0;
	if (!strcmp(term, "config2"))
		return attr->config2 = value, 0;
	if (strchr(term, '/') || strstr(term, ".."))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/format/%s", pmu->dir, term);
	if (pki_read_small_file(path, spec, sizeof(spec)) < 0)
		return -ENOENT;
	return apply_format(attr, spec, value);
}

int pki_pmu_event_alias(const struct pki_pmu *pmu, const char *name, char *buf, size_t size)
{
	char path[800];

	if (strchr(name, '/') || strstr(name, "..") || strchr(name, '.'))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/events/%s", pmu->dir, name);
	return pki_read_small_file(path, buf, size) < 0 ? -ENOENT : 0;
}

void pki_pmu_event_scale_unit(const struct pki_pmu *pmu, const char *name, double *scale,
			      char **unit)
{
	char path[800], buf[64];

	*scale = 1.0;
	*unit = NULL;
	snprintf(path, sizeof(path), "%s/events/%s.scale", pmu->dir, name);
	if (pki_read_small_file(path, buf, sizeof(buf)) > 0) {
		char *end;
		double s = strtod(buf, &end);

		if (end != buf && s > 0)
			*scale = s;
	}
	snprintf(path, sizeof(path), "%s/events/%s.unit", pmu->dir, name);
	if (pki_read_small_file(path, buf, sizeof(buf)) > 0)
		*unit = strdup(buf);
}

static int add_cpu(int **cpus, int *n, int *cap, long cpu)
{
	if (*n == *cap) {
		int ncap = *cap ? *cap * 2 : 16;
		int *p = realloc(*cpus, (size_t)ncap * sizeof(int));

		if (!p)
			return -ENOMEM;
		*cpus = p;
		*cap = ncap;
	}
	(*cpus)[(*n)++] = (int)cpu;
	return 0;
}

int pki_cpu_list_parse(const char *s, int **out)
{
	int *cpus = NULL, n = 0, cap = 0;

	while (*s) {
		char *end;
		long lo = strtol(s, &end, 10), hi;

		if (end == s || lo < 0 || lo > 65535)
			goto bad;
		hi = lo;
		if (*end == '-') {
			s = end + 1;
			hi = strtol(s, &end, 10);
			if (end == s || hi < lo || hi > 65535)
				goto bad;
		}
		for (long c = lo; c <= hi; c++) {
			if (add_cpu(&cpus, &n, &cap, c)) {
				free(cpus);
				return -ENOMEM;
			}
		}
		if (*end == ',')
			end++;
		else if (*end && *end != '\n')
			goto bad;
		else if (*end)
			end++;
		s = end;
	}
	*out = cpus;
	return n;
bad:
	free(cpus);
	return -EINVAL;
}

int pki_pmu_cpumask(const struct pki_pmu *pmu, int **cpus, int *nr)
{
	char path[800], buf[4096];
	int n;

	*cpus = NULL;
	*nr = 0;
	snprintf(path, sizeof(path), "%s/cpumask", pmu->dir);
	if (pki_read_small_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	n = pki_cpu_list_parse(buf, cpus);
	if (n < 0)
		return n;
	*nr = n;
	return 0;
}
