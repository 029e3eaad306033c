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

/* A hex number of 1 to 16 digits at s (longer ones are no address);
 * *end is where it stops. */
static bool parse_hex(char *s, uint64_t *v, char **end)
{
	uint64_t x = 0;
	char *p = s;

	for (;; p++) {
		unsigned c = (unsigned char)*p, d;

		if (c - '0' < 10)
			d = c - '0';
		else if ((c | 0x20) - 'a' < 6)
			d = (c | 0x20) - 'a' + 10;
		else
			break;
		if (p - s == 16)
			return false;
		x = x << 4 | d;
	}
	*v = x;
	*end = p;
	return p != s;
}

/* Split one line (NUL-terminated) in place; false when it is not a
 * symbol line. */
static bool parse_line(char *line, struct ksym_line *out)
{
	char *end, *p;

	if (!parse_hex(line, &out->addr, &end) || *end != ' ' || !end[1] || end[2] != ' ')
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

/*
 * Each line of the file, NUL-terminated in place (its newline gone), to
 * fn until fn returns non-zero (> 0: stop, < 0: an error), the file read
 * chunk bytes at a time.  A line longer than that is no symbol line and
 * is skipped.  0, fn's error, or a negative errno.
 */
typedef int line_fn(void *arg, char *line);

/* A whole table is read a megabyte at a time: /proc/kallsyms is made on
 * every read, and line by line through stdio its parsing cost as much
 * again.  A search that stops early reads less: the kernel makes all of
 * a read's text, whether it is used or not. */
#define LOAD_CHUNK (1u << 20)
#define FIND_CHUNK (1u << 16)

static int each_line(const char *path, size_t chunk, line_fn *fn, void *arg)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	char *buf = fd < 0 ? NULL : malloc(chunk + 1);
	size_t have = 0;
	bool skipping = false;

	if (fd < 0)
		return -errno;
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (!err) {
		ssize_t n = read(fd, buf + have, chunk - have);
		char *line = buf, *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err = -errno;
		if (n <= 0)
			break;
		have += (size_t)n;
		while (!err && (nl = memchr(line, '\n', have - (size_t)(line - buf)))) {
			*nl = '\0';
			if (!skipping)
				err = fn(arg, line);
			skipping = false;
			line = nl + 1;
		}
		have -= (size_t)(line - buf);
		memmove(buf, line, have);
		if (have == chunk) { /* a line longer than the chunk */
			have = 0;
			skipping = true;
		}
	}
	if (!err && have && !skipping) { /* the last line, without a newline */
		buf[have] = '\0';
		err = fn(arg, buf);
	}
	free(buf);
	close(fd);
	return err < 0 ? err : 0;
}

struct load {
	struct pk_symtab *st;
	int64_t reloc;
	const char *last_module; /* the table's copy of its name */
	uint32_t last_mod;
};

static int add_line(void *arg, char *line)
{
	struct load *l = arg;
	struct ksym_line k;
	uint32_t mod = 0;

	if (!parse_line(line, &k) || !kept_type(k.type))
		return 0;
	if (k.module) {
		/* a module's symbols come together: its number is the last one */
		if (!l->last_module || strcmp(l->last_module, k.module)) {
			l->last_mod = pki_symtab_module_id(l->st, k.module);
			l->last_module = l->last_mod ? l->st->modules[l->last_mod] : NULL;
		}
		mod = l->last_mod;
	}
	return pki_symtab_add(l->st, k.addr - (uint64_t)l->reloc, 0, k.name,
			      islower((unsigned char)k.type) ? PKI_BIND_LOCAL : PKI_BIND_GLOBAL,
			      mod);
}

int pk_symtab_load_kallsyms(struct pk_symtab **out, const char *path,
			    const struct pk_symtab_opts *opts)
{
	int64_t reloc =
		opts && opts->sz >= offsetof(struct pk_symtab_opts, reloc) + 8 ? opts->reloc : 0;
	struct load l = {.reloc = reloc};
	int err;

	*out = NULL;
	l.st = pki_symtab_new(opts);
	if (!l.st)
		return -ENOMEM;
	err = each_line(path, LOAD_CHUNK, add_line, &l);
	if (!err)
		err = pki_symtab_finish(l.st, PKI_FIXUP_KALLSYMS);
	if (err) {
		pk_symtab_free(l.st);
		return err;
	}
	*out = l.st;
	return 0;
}

struct find {
	const char *name;
	uint64_t addr;
};

static int find_line(void *arg, char *line)
{
	struct find *f = arg;
	struct ksym_line k;

	if (!parse_line(line, &k) || strcmp(k.name, f->name))
		return 0;
	f->addr = k.addr;
	return 1; /* found: stop */
}

uint64_t pk_kallsyms_lookup_name(const char *path, const char *name)
{
	struct find f = {.name = name};

	each_line(path, FIND_CHUNK, find_line, &f);
	return f.addr;
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
