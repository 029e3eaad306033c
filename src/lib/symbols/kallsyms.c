// SPDX-License-Identifier: MIT
/*
 * Kernel symbols from a kallsyms file ("ADDR TYPE NAME [MODULE]" lines).
 * Like perf, text, weak, data and bss symbols are kept; each symbol runs
 * up to the next one, and the last kernel symbol before the modules stops
 * at a page boundary.  opts->reloc shifts everything to the addresses of
 * the recording (KASLR).
 */
#include <errno.h>
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "symtab_internal.h"

struct ksym_line {
	uint64_t addr;
	char type;
	char *name;
	char *module;	/* NULL for the kernel proper */
};

/* Split one line in place; false when it is not a symbol line. */
static bool parse_line(char *line, struct ksym_line *out)
{
	char *end, *p;

	out->addr = strtoull(line, &end, 16);
	if (end == line || *end != ' ' || !end[1] || end[2] != ' ')
		return false;
	out->type = end[1];
	out->name = end + 3;
	p = out->name + strcspn(out->name, "\t \n");
	out->module = NULL;
	if (*p == '\t' || *p == ' ') {
		*p++ = '\0';
		p += strspn(p, "\t ");
		if (*p == '[') {
			out->module = p + 1;
			p[1 + strcspn(p + 1, "]\n")] = '\0';
		}
	} else {
		*p = '\0';
	}
	return *out->name != '\0';
}

static bool kept_type(char type)
{
	type = (char)toupper((unsigned char)type);
	return type == 'T' || type == 'W' || type == 'D' || type == 'B';
}

int pk_symtab_load_kallsyms(struct pk_symtab **out, const char *path,
			    const struct pk_symtab_opts *opts)
{
	int64_t reloc = opts && opts->sz >= offsetof(struct pk_symtab_opts, reloc) + 8 ? opts->reloc
										      : 0;
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
		struct ksym_line k;
		uint32_t mod = 0;

		if (!parse_line(line, &k) || !kept_type(k.type))
			continue;
		if (k.module)
			mod = pki_symtab_module_id(st, k.module);
		err = pki_symtab_add(st, k.addr - (uint64_t)reloc, 0, k.name,
				     islower((unsigned char)k.type) ? PKI_BIND_LOCAL
								    : PKI_BIND_GLOBAL,
				     mod);
	}
	free(line);
	fclose(f);
	if (!err)
		err = pki_symtab_finish(st, PKI_FIXUP_KALLSYMS);
	if (err) {
		pk_symtab_free(st);
		return err;
	}
	*out = st;
	return 0;
}

uint64_t pk_kallsyms_lookup_name(const char *path, const char *name)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	uint64_t addr = 0;

	if (!f)
		return 0;
	while (getline(&line, &cap, f) > 0) {
		struct ksym_line k;

		if (parse_line(line, &k) && !strcmp(k.name, name)) {
			addr = k.addr;
			break;
		}
	}
	free(line);
	fclose(f);
	return addr;
}

int pk_kernel_build_id(struct pk_build_id *out)
{
	uint8_t buf[4096];
	ssize_t n;
	size_t off = 0;
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0)
		return -EINVAL;
	/* notes: u32 namesz, descsz, type; name and desc padded to 4 */
	while (off + 12 <= (size_t)n) {
		uint32_t namesz, descsz, type;
		size_t name_off = off + 12, desc_off;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		desc_off = name_off + ((namesz + 3) & ~3u);
		if (namesz > 4096 || descsz > 4096 || desc_off + descsz > (size_t)n)
			break;
		if (type == 3 && namesz == 4 && !memcmp(buf + name_off, "GNU", 4) &&
		    descsz <= sizeof(out->data)) {
			out->size = (uint8_t)descsz;
			memcpy(out->data, buf + desc_off, descsz);
			return 0;
		}
		off = desc_off + ((descsz + 3) & ~3u);
	}
	return -EINVAL;
}
