// SPDX-License-Identifier: MIT
/* perf report's --comms, --pids, --tids, --dsos and --symbols. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hist_internal.h"
#include "filter/filter_internal.h"

static int split(const char *list, char ***out, size_t *nr)
{
	const char *p = list;

	*out = NULL;
	*nr = 0;
	if (!list)
		return 0;
	while (*p) {
		size_t n = strcspn(p, ",");
		char **v = realloc(*out, (*nr + 1) * sizeof(*v));

		if (!v)
			return -ENOMEM;
		*out = v;
		v[*nr] = strndup(p, n);
		if (!v[*nr])
			return -ENOMEM;
		(*nr)++;
		p += n + (p[n] == ',');
	}
	return 0;
}

static int split_ints(const char *list, int32_t **out, size_t *nr)
{
	char **words;
	size_t n;
	int err = split(list, &words, &n);

	*out = NULL;
	*nr = 0;
	if (!err && n) {
		*out = calloc(n, sizeof(**out));
		if (!*out)
			err = -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		char *end;
		long v = strtol(words[i], &end, 10);

		if (!err && (end == words[i] || *end))
			err = -EINVAL;
		else if (!err)
			(*out)[(*nr)++] = (int32_t)v;
		free(words[i]);
	}
	free(words);
	return err;
}

/* The addresses of --symbols out of its names, as perf reads it. */
static int split_addresses(struct pki_hist_filter *f)
{
	return pki_filter_split_addresses(f->symbols, &f->nr_symbols, &f->sym_addrs,
					  &f->nr_sym_addrs);
}

size_t pk_hist_symbol_names(const char *list, char *out, size_t len)
{
	struct pki_hist_filter f = {0};
	size_t n = 0, at = 0;

	if (len)
		out[0] = '\0';
	if (split(list, &f.symbols, &f.nr_symbols) || split_addresses(&f)) {
		pki_hist_filter_free(&f);
		return 0;
	}
	for (size_t i = 0; i < f.nr_symbols; i++) {
		int w = at < len ? snprintf(out + at, len - at, "%s%s", i ? "," : "", f.symbols[i])
				 : snprintf(NULL, 0, "%s%s", i ? "," : "", f.symbols[i]);

		at += w > 0 ? (size_t)w : 0;
		n++;
	}
	pki_hist_filter_free(&f);
	return n;
}

int pki_hist_filter_init(struct pki_hist_filter *f, const struct pk_hist_opts *opts)
{
	int err;

	memset(f, 0, sizeof(*f));
	err = split(opts->comms, &f->comms, &f->nr_comms);
	if (!err)
		err = split(opts->dsos, &f->dsos, &f->nr_dsos);
	if (!err)
		err = split(opts->symbols, &f->symbols, &f->nr_symbols);
	if (!err)
		err = split_addresses(f);
	f->has_symbols = opts->symbols != NULL;
	if (!err)
		err = split_ints(opts->pids, &f->pids, &f->nr_pids);
	if (!err)
		err = split_ints(opts->tids, &f->tids, &f->nr_tids);
	return err;
}

static void free_words(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void pki_hist_filter_free(struct pki_hist_filter *f)
{
	free_words(f->comms, f->nr_comms);
	free_words(f->dsos, f->nr_dsos);
	free_words(f->symbols, f->nr_symbols);
	free(f->sym_addrs);
	free(f->pids);
	free(f->tids);
}

static bool in_words(char **v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

static bool in_ints(const int32_t *v, size_t n, int32_t x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

bool pki_hist_filter_thread(const struct pki_hist_filter *f, const char *comm, int32_t pid,
			    int32_t tid)
{
	if (f->nr_comms && !in_words(f->comms, f->nr_comms, comm))
		return false;
	if (f->nr_pids && !in_ints(f->pids, f->nr_pids, pid))
		return false;
	if (f->nr_tids && !in_ints(f->tids, f->nr_tids, tid))
		return false;
	return true;
}

bool pki_hist_filter_location(const struct pki_hist_filter *f, const struct pk_location *loc)
{
	if (f->nr_dsos && (!loc->dso || (!in_words(f->dsos, f->nr_dsos, pk_dso_short_name(loc->dso)) &&
					  !in_words(f->dsos, f->nr_dsos, pk_dso_name(loc->dso)))))
		return false;
	return !f->has_symbols || pki_filter_symbol_passes(f->symbols, f->nr_symbols, f->sym_addrs,
							   f->nr_sym_addrs, loc);
}
