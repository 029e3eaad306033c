// SPDX-License-Identifier: MIT
/*
 * Collapsed stacks, as stackcollapse-perf.pl makes them from perf script:
 * "comm;root;...;leaf count", one line per unique stack, sorted.  Like it,
 * only the first event seen is counted, each sample counts 1, spaces in
 * the comm become '_', and frames are named by pki_tidy_name().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "export_internal.h"

struct line {
	char *text;
	uint64_t count;
};

static int cmp_line(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->text, ((const struct line *)b)->text);
}

static char *join_stack(struct pk_profile *p, const struct pki_entry *e, const uint32_t *names)
{
	int depth = pki_node_path(p, e->node);
	size_t len = 1;
	char *s, *w;

	if (depth < 0)
		return NULL;
	len += strlen(pki_str(p, p->threads[e->thread].comm));
	for (int d = 0; d < depth; d++)
		len += 1 + strlen(pki_str(p, names[p->path[d]]));
	s = w = malloc(len);
	if (!s)
		return NULL;
	w = stpcpy(w, pki_str(p, p->threads[e->thread].comm));
	for (char *c = s; *c; c++)
		if (*c == ' ' || *c == '\n')
			*c = '_';
	for (int d = 0; d < depth; d++) {
		*w++ = ';';
		w = stpcpy(w, pki_str(p, names[p->path[d]]));
	}
	for (char *c = s; *c; c++)
		if (*c == '\n')
			*c = ' '; /* one stack, one line */
	return s;
}

static void print_lines(FILE *out, struct line *lines, size_t n)
{
	qsort(lines, n, sizeof(*lines), cmp_line);
	for (size_t i = 0; i < n;) {
		uint64_t count = 0;
		size_t j = i;

		/* threads of one comm collapse into the same line */
		for (; j < n && !strcmp(lines[j].text, lines[i].text); j++)
			count += lines[j].count;
		fprintf(out, "%s %llu\n", lines[i].text, (unsigned long long)count);
		i = j;
	}
}

int pk_export_folded(struct pk_profile *p, FILE *out)
{
	struct line *lines = NULL;
	uint32_t *names = NULL;
	size_t n = 0;
	int err = -ENOMEM;

	if (pki_loc_names(p, &names))
		goto out;
	lines = calloc(p->nr_entries ? p->nr_entries : 1, sizeof(*lines));
	if (!lines)
		goto out;
	for (size_t i = 0; i < p->nr_entries; i++) {
		const struct pki_entry *e = &p->entries[i];

		if (e->event != p->first_event)
			continue;
		lines[n].text = join_stack(p, e, names);
		if (!lines[n].text)
			goto out;
		lines[n++].count = e->samples;
	}
	print_lines(out, lines, n);
	err = pki_export_finish(p, out);
out:
	if (err == -ENOMEM)
		pki_profile_fail(p, "folded: out of memory");
	for (size_t i = 0; i < n; i++)
		free(lines[i].text);
	free(lines);
	free(names);
	return err;
}
