// SPDX-License-Identifier: MIT
/*
 * Samples without a symbol, per DSO.  A profile whose hot code shows as
 * [unknown] is read wrong without a word; the counts here let a tool say
 * how much is missing and for which file, with the build id that finds
 * its debug info.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "session_internal.h"

static int by_unresolved(const void *a, const void *b)
{
	const struct pk_unresolved_dso *x = a, *y = b;

	if (x->unresolved != y->unresolved)
		return x->unresolved < y->unresolved ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* A file that could have debug info, not anonymous memory ("//anon",
 * "/memfd:...", "/dev/zero", "/SYSV...") nor [vdso] and its kin. */
static bool is_elf_file(const struct pk_dso *d)
{
	static const char *const anon[] = {"//", "/memfd:", "/dev/", "/SYSV"};

	if (d->kind != PKI_DSO_ELF || d->name[0] != '/')
		return false;
	for (size_t i = 0; i < sizeof(anon) / sizeof(anon[0]); i++)
		if (!strncmp(d->name, anon[i], strlen(anon[i])))
			return false;
	return true;
}

int pk_session_unresolved(struct pk_session *s, struct pk_unresolved **out)
{
	struct pk_unresolved *u;
	size_t nr = 0, names = 0;
	char *str;

	*out = NULL;
	for (const struct pk_dso *d = s->dsos; d; d = d->next)
		if (d->nr_unresolved) {
			nr++;
			names += strlen(d->name) + 1;
		}
	/* one block: the header, the entries, their names */
	u = calloc(1, sizeof(*u) + nr * sizeof(u->dso[0]) + names);
	if (!u)
		return -ENOMEM;
	u->nr_samples = s->nr_samples;
	u->dso = (struct pk_unresolved_dso *)(u + 1);
	str = (char *)(u->dso + nr);
	for (const struct pk_dso *d = s->dsos; d; d = d->next) {
		struct pk_unresolved_dso *e = &u->dso[u->nr];

		if (!d->nr_unresolved)
			continue;
		strcpy(str, d->name);
		e->name = str;
		str += strlen(str) + 1;
		e->bid = d->bid;
		e->kernel = d->kernel;
		e->file = is_elf_file(d);
		e->found = d->symtab != NULL;
		/* no build id recorded: the file's own, when it is still here */
		if (e->file && !e->bid.size && pk_elf_build_id(d->name, &e->bid))
			e->bid.size = 0;
		e->samples = d->nr_samples;
		e->unresolved = d->nr_unresolved;
		u->nr++;
	}
	qsort(u->dso, u->nr, sizeof(u->dso[0]), by_unresolved);
	*out = u;
	return 0;
}

void pk_unresolved_free(struct pk_unresolved *u)
{
	free(u);
}
