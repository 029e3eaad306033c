// SPDX-License-Identifier: MIT
/*
 * What perf looks for in a sample's callchain as it resolves it, in the
 * call graph's order: the parent sort key (perf report -p: the first frame
 * whose symbol name matches a regular expression, its name being the key)
 * and --ignore-callees (a frame matching another makes the sample's own
 * location, the frames on its callee side dropped).  Samples repeat the
 * same few symbols: each regex runs once per symbol, the answers kept in
 * a small table by symbol address.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hist_build.h"

/* perf's default parent pattern */
#define DEFAULT_PARENT "^sys_|^do_page_fault"

enum { MATCH_PARENT = 1, MATCH_IGNORE = 2 };

int pki_parent_init(struct pki_parent *p, bool parent, const char *regex, const char *ignore,
		    bool from_caller)
{
	memset(p, 0, sizeof(*p));
	p->from_caller = from_caller;
	if (parent) {
		if (regcomp(&p->re, regex ? regex : DEFAULT_PARENT, REG_EXTENDED | REG_NOSUB))
			return -EINVAL;
		p->has_parent = true;
	}
	if (ignore) {
		if (regcomp(&p->ignore, ignore, REG_EXTENDED | REG_NOSUB))
			return -EINVAL;
		p->has_ignore = true;
	}
	return 0;
}

void pki_parent_free(struct pki_parent *p)
{
	if (p->has_parent)
		regfree(&p->re);
	if (p->has_ignore)
		regfree(&p->ignore);
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

static int match_bits(const struct pki_parent *p, const char *name)
{
	int m = 0;

	if (p->has_parent && !regexec(&p->re, name, 0, NULL, 0))
		m |= MATCH_PARENT;
	if (p->has_ignore && !regexec(&p->ignore, name, 0, NULL, 0))
		m |= MATCH_IGNORE;
	return m;
}

/* Which regexes sym's name matches (MATCH_*), or -ENOMEM. */
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
	p->slots[j].match = (uint8_t)match_bits(p, sym->name);
	p->nr++;
	return p->slots[j].match;
}

/* Frames before `at` in the walk dropped, the frame at `at` made the
 * sample's location (perf's --ignore-callees resets its cursor there). */
static size_t root_at(struct pki_parent *p, struct pk_frame *frames, size_t n, size_t at,
		      struct pk_location *loc)
{
	*loc = frames[at].loc;
	if (p->from_caller)
		return at + 1;
	memmove(frames, frames + at, (n - at) * sizeof(*frames));
	return n - at;
}

int pki_parent_find(struct pki_parent *p, struct pk_frame *frames, size_t *n,
		    struct pk_location *loc, const struct pk_symbol **out)
{
	size_t root = *n;

	*out = NULL;
	for (size_t j = 0; j < *n; j++) {
		size_t i = p->from_caller ? *n - 1 - j : j;
		const struct pk_symbol *sym = frames[i].loc.sym;
		int m = matches(p, sym);

		if (m < 0)
			return m;
		/* as perf: a frame that becomes the parent is no root */
		if ((m & MATCH_PARENT) && !*out)
			*out = sym;
		else if (m & MATCH_IGNORE)
			root = i;
	}
	if (root < *n)
		*n = root_at(p, frames, *n, root, loc);
	return 0;
}
