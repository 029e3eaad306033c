// SPDX-License-Identifier: MIT
/* JIT symbols from /tmp/perf-PID.map: "START SIZE NAME" with hex numbers. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "symtab_internal.h"

static bool parse_map_line(char *line, uint64_t *start, uint64_t *size, char **name)
{
	char *p;

	*start = strtoull(line, &p, 16);
	if (p == line || *p != ' ')
		return false;
	line = p + 1;
	*size = strtoull(line, &p, 16);
	if (p == line || *p != ' ')
		return false;
	*name = p + 1;
	(*name)[strcspn(*name, "\n")] = '\0';
	return **name != '\0';
}

int pk_symtab_load_perf_map(struct pk_symtab **out, const char *path,
			    const struct pk_symtab_opts *opts)
{
	FILE *f = fopen(path, "re");
	struct pk_symtab *st;
	char *line = NULL;
	size_t cap = 0;
	int err = 0;

	*out = NULL;
	if (!f)
		return -errno;
	st = pki_symtab_new(opts);
	if (!st) {
		fclose(f);
		return -ENOMEM;
	}
	while (!err && getline(&line, &cap, f) > 0) {
		uint64_t start, size;
		char *name;

		if (parse_map_line(line, &start, &size, &name))
			err = pki_symtab_add(st, start, size, name, PKI_BIND_GLOBAL, 0);
	}
	free(line);
	fclose(f);
	if (!err)
		err = pki_symtab_finish(st, PKI_FIXUP_PERF_MAP);
	if (err) {
		pk_symtab_free(st);
		return err;
	}
	*out = st;
	return 0;
}
