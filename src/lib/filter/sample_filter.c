// SPDX-License-Identifier: MIT
/*
 * The sample filters of perf script (and report): thread (comm, pid, tid),
 * location of the ip (DSO, symbol), CPU and time.  Each is off until its
 * setter is called; a sample must pass all that are on.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perfkit/filter.h>
#include "filter_internal.h"

/* perf's MAX_NR_CPUS: the most CPUs a CPU filter can name */
#define FILTER_MAX_CPUS 2048

struct word_list {
	char **v;
	size_t nr;
	bool on;
};

struct int_list {
	int32_t *v;
	size_t nr;
	bool on;
};

struct addr_list {
	uint64_t *v;
	size_t nr;
};

struct pk_sample_filter {
	struct word_list comms, dsos, symbols;
	struct addr_list addrs; /* the hex numbers of --symbols */
	struct int_list pids, tids;
	bool cpus_on;
	uint8_t cpus[FILTER_MAX_CPUS / 8];
	struct pk_time_range *ranges;
	size_t nr_ranges;
};

struct pk_sample_filter *pk_sample_filter_new(void)
{
	return calloc(1, sizeof(struct pk_sample_filter));
}

static void free_words(struct word_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void pk_sample_filter_free(struct pk_sample_filter *f)
{
	if (!f)
		return;
	free_words(&f->comms);
	free_words(&f->dsos);
	free_words(&f->symbols);
	free(f->pids.v);
	free(f->tids.v);
	free(f->addrs.v);
	free(f->ranges);
	free(f);
}

/* perf's string lists: comma separated, empty entries dropped. */
static int split_words(const char *list, struct word_list *l)
{
	const char *p = list;

	free_words(l);
	if (!list)
		return 0;
	l->on = true;
	while (*p) {
		size_t n = strcspn(p, ",");
		char **v;

		if (n) {
			v = realloc(l->v, (l->nr + 1) * sizeof(*v));
			if (!v)
				return -ENOMEM;
			l->v = v;
			v[l->nr] = strndup(p, n);
			if (!v[l->nr])
				return -ENOMEM;
			l->nr++;
		}
		p += n + (p[n] == ',');
	}
	return 0;
}

static int split_ints(const char *list, struct int_list *l)
{
	struct word_list w = {0};
	int err = split_words(list, &w);

	free(l->v);
	memset(l, 0, sizeof(*l));
	l->on = w.on;
	if (!err && w.nr && !(l->v = calloc(w.nr, sizeof(*l->v))))
		err = -ENOMEM;
	for (size_t i = 0; !err && i < w.nr; i++) {
		char *end;
		long v = strtol(w.v[i], &end, 10);

		if (end == w.v[i] || *end)
			err = -EINVAL;
		else
			l->v[l->nr++] = (int32_t)v;
	}
	free_words(&w);
	return err;
}

int pk_sample_filter_threads(struct pk_sample_filter *f, const char *comms, const char *pids,
			     const char *tids)
{
	int err = split_words(comms, &f->comms);

	if (!err)
		err = split_ints(pids, &f->pids);
	if (!err)
		err = split_ints(tids, &f->tids);
	return err;
}

/* An entry that reads as a hex number (trailing spaces allowed). */
static bool hex_entry(const char *s, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 16);
	if (errno || end == s)
		return false;
	while (isspace((unsigned char)*end))
		end++;
	return !*end;
}

int pki_filter_split_addresses(char **v, size_t *nr, uint64_t **addrs, size_t *nr_addrs)
{
	size_t kept = 0;

	*addrs = NULL;
	*nr_addrs = 0;
	if (*nr && !(*addrs = calloc(*nr, sizeof(**addrs))))
		return -ENOMEM;
	for (size_t i = 0; i < *nr; i++) {
		if (hex_entry(v[i], &(*addrs)[*nr_addrs])) {
			(*nr_addrs)++;
			free(v[i]);
		} else {
			v[kept++] = v[i];
		}
	}
	*nr = kept;
	return 0;
}

static int split_addresses(struct word_list *w, struct addr_list *a)
{
	free(a->v);
	return pki_filter_split_addresses(w->v, &w->nr, &a->v, &a->nr);
}

int pk_sample_filter_locations(struct pk_sample_filter *f, const char *dsos, const char *symbols)
{
	int err = split_words(dsos, &f->dsos);

	if (!err)
		err = split_words(symbols, &f->symbols);
	return err ? err : split_addresses(&f->symbols, &f->addrs);
}

/* perf checks the first event of each type for PERF_SAMPLE_CPU. */
static bool samples_have_cpu(const struct pk_reader *r)
{
	for (uint32_t i = 0; i < pk_reader_nr_attrs(r); i++) {
		const struct pk_attr *a = pk_reader_attr(r, i);
		bool first = true;

		for (uint32_t j = 0; j < i; j++)
			if (pk_reader_attr(r, j)->attr.type == a->attr.type)
				first = false;
		if (first && !(a->attr.sample_type & PERF_SAMPLE_CPU))
			return false;
	}
	return true;
}

int pk_sample_filter_cpus(struct pk_sample_filter *f, const char *list, const struct pk_reader *r,
			  int32_t *bad_cpu)
{
	const struct pk_header *h = pk_reader_header(r);
	/* in pipe mode perf checks before the header records arrive */
	uint32_t max = h->pipe ? 0 : h->nr_cpus_avail;
	int32_t *cpus;
	size_t nr;
	int err;

	if (!h->pipe && !samples_have_cpu(r))
		return -ENOTSUP;
	err = pki_filter_cpu_list(list, &cpus, &nr);
	if (err)
		return err == -ENOMEM ? err : -EINVAL;
	if (max > FILTER_MAX_CPUS)
		max = FILTER_MAX_CPUS;
	memset(f->cpus, 0, sizeof(f->cpus));
	f->cpus_on = true;
	for (size_t i = 0; i < nr; i++) {
		/* -1 (the empty list) names no CPU a sample can have */
		if (cpus[i] < 0)
			continue;
		if ((uint32_t)cpus[i] >= max) {
			*bad_cpu = cpus[i];
			err = -ERANGE;
			break;
		}
		f->cpus[cpus[i] / 8] |= (uint8_t)(1u << (cpus[i] % 8));
	}
	free(cpus);
	return err;
}

int pk_sample_filter_time(struct pk_sample_filter *f, const char *str, const struct pk_reader *r,
			  bool reltime)
{
	const struct pk_header *h = pk_reader_header(r);
	/* in pipe mode perf parses --time before the features arrive */
	uint64_t first = h->pipe ? 0 : h->sample_time_first;
	uint64_t last = h->pipe ? 0 : h->sample_time_last;

	free(f->ranges);
	f->ranges = NULL;
	f->nr_ranges = 0;
	return pk_time_ranges_parse(str, first, last, reltime, &f->ranges, &f->nr_ranges);
}

bool pk_sample_filter_cpu(const struct pk_sample_filter *f, uint32_t cpu)
{
	if (!f->cpus_on || cpu == UINT32_MAX)
		return true;
	return cpu < FILTER_MAX_CPUS && (f->cpus[cpu / 8] & (1u << (cpu % 8)));
}

static bool has_word(const struct word_list *l, const char *s)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->v[i], s))
			return true;
	return false;
}

static bool has_int(const struct int_list *l, int32_t x)
{
	for (size_t i = 0; i < l->nr; i++)
		if (l->v[i] == x)
			return true;
	return false;
}

static bool thread_passes(const struct pk_sample_filter *f, const struct pk_thread *t)
{
	if (f->comms.on && !has_word(&f->comms, pk_thread_comm(t)))
		return false;
	if (f->pids.on && !has_int(&f->pids, pk_thread_pid(t)))
		return false;
	return !f->tids.on || has_int(&f->tids, pk_thread_tid(t));
}

bool pki_filter_symbol_passes(char *const *names, size_t nr_names, const uint64_t *addrs,
			      size_t nr_addrs, const struct pk_location *loc)
{
	for (size_t i = 0; loc->sym && i < nr_names; i++)
		if (!strcmp(names[i], loc->sym->name))
			return true;
	for (size_t i = 0; loc->dso && i < nr_addrs; i++)
		if (addrs[i] == loc->ip)
			return true;
	return false;
}

static bool location_passes(const struct pk_sample_filter *f, const struct pk_location *loc)
{
	if (f->dsos.on && (!loc->dso || (!has_word(&f->dsos, pk_dso_short_name(loc->dso)) &&
					 !has_word(&f->dsos, pk_dso_name(loc->dso)))))
		return false;
	return !f->symbols.on ||
	       pki_filter_symbol_passes(f->symbols.v, f->symbols.nr, f->addrs.v, f->addrs.nr, loc);
}

bool pk_sample_filter_match(const struct pk_sample_filter *f, const struct pk_session_sample *ev)
{
	if (f->nr_ranges && pk_time_ranges_skip(f->ranges, f->nr_ranges, ev->sample.time))
		return false;
	if ((f->comms.on || f->pids.on || f->tids.on) &&
	    (!ev->thread || !thread_passes(f, ev->thread)))
		return false;
	if ((f->dsos.on || f->symbols.on) && !location_passes(f, &ev->loc))
		return false;
	return !f->cpus_on || pk_sample_filter_cpu(f, ev->sample.cpu);
}
