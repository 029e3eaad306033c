// SPDX-License-Identifier: MIT
/*
 * The parent sort key (perf report -p): of a sample's callchain, the first
 * frame whose symbol name matches a regular expression, its name being the
 * key.  Samples repeat the same few symbols: the regex runs once per
 * symbol, its answer kept in a small table by symbol address.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hist_build.h"

/* perf's default parent pattern */
#define DEFAULT_PARENT "^sys_|^do_page_fault"

int pki_parent_init(struct pki_parent *p, const char *regex, bool from_caller)
{
	memset(p, 0, sizeof(*p));
	if (regcomp(&p->re, regex ? regex : DEFAULT_PARENT, REG_EXTENDED | REG_NOSUB))
		return -EINVAL;
	p->compiled = true;
	p->from_caller = from_caller;
	return 0;
}

void pki_parent_free(struct pki_parent *p)
{
	if (p->compiled)
		regfree(&p->re);
	free(p->slots);
	memset(p, 0, sizeof(*p));
}

static size_t sym_slot(const struct pk_symbol *sym, size_t nr_slots)
{
	uint64_t x = (uintptr_t)sym * 0x9e3779b97f4a7c15ULL;

	return (size_t)(x >> 32) & (nr_slots - 1);
}

static int grow(struct pki_parent *p)
{
	size_t n = p->nr_slots ? p->nr_slots * 2 : 256;
	struct pki_parent_slot *v = calloc(n, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < p->nr_slots; i++) {
		size_t j;

		if (!p->slots[i].sym)
			continue;
		for (j = sym_slot(p->slots[i].sym, n); v[j].sym; j = (j + 1) & (n - 1))
			;
		v[j] = p->slots[i];
	}
	free(p->slots);
	p->slots = v;
	p->nr_slots = n;
	return 0;
}

/* Whether sym's name matches: 1, 0, or -ENOMEM. */
static int matches(struct pki_parent *p, const struct pk_symbol *sym)
{
	size_t j;

	if (!sym || !sym->name)
		return 0;
	if ((p->nr + 1) * 2 > p->nr_slots && grow(p))
		return -ENOMEM;
	for (j = sym_slot(sym, p->nr_slots); p->slots[j].sym; j = (j + 1) & (p->nr_slots - 1))
		if (p->slots[j].sym == sym)
			return p->slots[j].match;
	p->slots[j].sym = sym;
	p->slots[j].match = !regexec(&p->re, sym->name, 0, NULL, 0);
	p->nr++;
	return p->slots[j].match;
}

int pki_parent_find(struct pki_parent *p, const struct pk_frame *frames, size_t n,
		    const struct pk_symbol **out)
{
	*out = NULL;
	for (size_t j = 0; j < n; j++) {
		const struct pk_symbol *sym = frames[p->from_caller ? n - 1 - j : j].loc.sym;
		int m = matches(p, sym);

		if (m < 0)
			return m;
		if (m) {
			*out = sym;
			return 0;
		}
	}
	return 0;
}
