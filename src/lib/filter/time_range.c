// SPDX-License-Identifier: MIT
/*
 * perf's --time strings.  The grammar is perf's, quirks included, so the
 * same string selects the same samples: "S.NNN,S.NNN" ranges separated by
 * spaces (the stops must come before the next starts), or percentages of
 * the recording's first..last sample time.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <perfkit/filter.h>

/* "SEC[.FRACTION]", the fraction at most nine digits; "" is 0. */
static int parse_seconds(const char *s, uint64_t *out)
{
	char frac[10], *end;
	uint64_t sec = strtoul(s, &end, 10), ns = 0;
	size_t n;

	if (*end != '.' && *end != '\0')
		return -EINVAL;
	if (*end == '.') {
		n = strlen(++end);
		if (n > 9)
			return -EINVAL;
		memcpy(frac, end, n);
		memset(frac + n, '0', 9 - n);
		frac[9] = '\0';
		ns = strtoul(frac, &end, 10);
		if (*end)
			return -EINVAL;
	}
	*out = sec * 1000000000ULL + ns;
	return 0;
}

/* One "START,STOP" (s is modified). */
static int parse_range(char *s, struct pk_time_range *r)
{
	char *stop = strchr(s, ',');

	r->start = r->end = 0;
	if (stop)
		*stop++ = '\0';
	if (*s && parse_seconds(s, &r->start))
		return -EINVAL;
	if (stop && *stop && parse_seconds(stop, &r->end))
		return -EINVAL;
	if (r->end && r->end < r->start)
		return -EINVAL;
	return 0;
}

/* Absolute ranges: as many as there are commas, split after each stop. */
static int parse_absolute(char *s, struct pk_time_range *r, size_t size)
{
	size_t num = 0, i;
	char *p = s, *arg;

	for (const char *c = s; *c; c++)
		num += *c == ',';
	if (!num || num > size)
		return -EINVAL;
	for (i = 0; i + 1 < num; i++) {
		arg = p;
		p = strchr(p, ',') + 1;
		while (isspace((unsigned char)*p))
			p++;
		/* the stop: no comma before the space that ends it */
		while (*p && !isspace((unsigned char)*p))
			if (*p++ == ',')
				return -EINVAL;
		if (*p)
			*p++ = '\0';
		if (parse_range(arg, &r[i]))
			return -EINVAL;
	}
	if (parse_range(p, &r[i]))
		return -EINVAL;
	for (i = 0; i + 1 < num; i++)
		if (r[i].end >= r[i + 1].start)
			return -EINVAL;
	return (int)num;
}

/* "NN%": the number before the first '%', as a fraction. */
static int parse_percent(const char *s, double *out)
{
	const char *pct = s ? strchr(s, '%') : NULL;
	char buf[64], *end;
	size_t n;

	if (!pct || (n = (size_t)(pct - s)) >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*out = strtod(buf, &end) / 100.0;
	return end == buf + n ? 0 : -EINVAL;
}

static int percent_range(struct pk_time_range *r, double from, double to, uint64_t first,
			 uint64_t last)
{
	uint64_t total = last - first;

	if (from < 0.0 || from > 1.0 || to < 0.0 || to > 1.0)
		return -EINVAL;
	r->start = first + (uint64_t)round(from * (double)total);
	r->end = first + (uint64_t)round(to * (double)total);
	/* perf makes the stop exclusive, except at the very end */
	if (r->end > r->start && r->end != last)
		r->end -= 1;
	return 0;
}

/* "NN%/I": the I-th slice of NN%. */
static int percent_slash(char *s, struct pk_time_range *r, uint64_t first, uint64_t last)
{
	char *slash = strchr(s, '/'), *end;
	double pct;
	long i;

	if (!slash)
		return -EINVAL;
	*slash = '\0';
	if (parse_percent(s, &pct))
		return -EINVAL;
	i = strtol(slash + 1, &end, 10);
	if (*end || pct <= 0.0)
		return -EINVAL;
	return percent_range(r, pct * (double)(i - 1), pct * (double)i, first, last);
}

/* "A%-B%"; an empty piece is left as the range 0,0 (everything), as perf. */
static int percent_dash(char *s, struct pk_time_range *r, uint64_t first, uint64_t last)
{
	char *dash = strchr(s, '-');
	double from, to;

	if (!*s)
		return 0;
	if (!dash)
		return -EINVAL;
	*dash = '\0';
	if (parse_percent(s, &from) || parse_percent(dash + 1, &to))
		return -EINVAL;
	return percent_range(r, from, to, first, last);
}

static int parse_percents(char *s, struct pk_time_range *r, size_t size, uint64_t first,
			  uint64_t last)
{
	int (*piece)(char *, struct pk_time_range *, uint64_t, uint64_t);
	size_t len = strlen(s), i = 0;
	char *p = s, *comma;

	if (strchr(s, '/'))
		piece = percent_slash;
	else if (strchr(s, '-'))
		piece = percent_dash;
	else if (strchr(s, '%') == s + len - 1) /* "NN%": "NN%/1" */
		return percent_slash(strcat(s, "/1"), r, first, last) ? -EINVAL : 1;
	else
		return -EINVAL;
	while (p < s + len) {
		if (i >= size)
			return -EINVAL;
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (piece(p, &r[i], first, last))
			return -EINVAL;
		i++;
		if (!comma)
			break;
		p = comma + 1;
	}
	return (int)i;
}

int pk_time_ranges_parse(const char *str, uint64_t first, uint64_t last, bool reltime,
			 struct pk_time_range **out, size_t *nr)
{
	bool percent = strchr(str, '%');
	size_t size = 1, len = strlen(str);
	struct pk_time_range *r;
	char *s;
	int num;

	*out = NULL;
	*nr = 0;
	if ((percent || reltime) && !first && !last)
		return -ENODATA;
	for (const char *c = str; *c; c++)
		size += *c == ',';
	r = calloc(size, sizeof(*r));
	s = malloc(len + 3); /* room for the "/1" of a lone "NN%" */
	if (!r || !s) {
		free(r);
		free(s);
		return -ENOMEM;
	}
	memcpy(s, str, len + 1);
	num = percent ? parse_percents(s, r, size, first, last) : parse_absolute(s, r, size);
	free(s);
	if (num < 0) {
		free(r);
		return -EINVAL;
	}
	for (int i = 0; reltime && i < num; i++) {
		r[i].start += first;
		r[i].end += first;
	}
	*out = r;
	*nr = (size_t)num;
	return 0;
}

bool pk_time_ranges_skip(const struct pk_time_range *r, size_t nr, uint64_t t)
{
	if (!r || !nr || !t)
		return false;
	if (nr == 1)
		return (r->start && t < r->start) || (r->end && t > r->end);
	for (size_t i = 0; i < nr; i++)
		if (t >= r[i].start && (t <= r[i].end || !r[i].end))
			return false;
	return true;
}
