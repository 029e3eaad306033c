// SPDX-License-Identifier: MIT
/*
 * Symbol sources: which files describe a DSO, and what each may be used
 * for.
 *
 * Two roles are filled separately.  The symbol source is the first file
 * with a real .symtab.  The runtime image is the first file whose
 * executable segment has contents: its program headers turn symbol values
 * into file offsets, and its PLT gives "name@plt".  A separate debug file
 * (libc6-dbg's, objcopy --only-keep-debug's) keeps the section table but
 * empties every loaded section, and its program headers no longer
 * describe the binary, so it can only ever be a symbol source: taking its
 * segments for the binary's moves every symbol and names the wrong
 * function.
 *
 * Every candidate is checked against the recorded build id; one that
 * differs is skipped (and said under -v), so a rebuilt binary never lends
 * its names to an old recording.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perfkit/buildid.h>
#include "buildid/buildid_internal.h"
#include "debuginfod_internal.h"
#include "elf_internal.h"
#include "internal.h"

void pki_elf_file_close(struct pki_elf_file *f)
{
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	free(f->image);
	f->elf = NULL;
	f->fd = -1;
	f->image = NULL;
}

int pki_elf_file_open(struct pki_elf_file *f, const char *path)
{
	f->elf = NULL;
	f->image = NULL;
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return -errno;
	snprintf(f->path, sizeof(f->path), "%s", path);
	elf_version(EV_CURRENT);
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF) {
		pki_elf_file_close(f);
		return -EINVAL;
	}
	return 0;
}

Elf_Scn *pki_elf_section(Elf *elf, const char *want, GElf_Shdr *shdr)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, shdr))
			continue;
		name = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (name && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

/* A symbol table of that type with contents (a debug file's .dynsym is NOBITS). */
Elf_Scn *pki_elf_symbols(Elf *elf, const char *name, GElf_Shdr *shdr)
{
	Elf_Scn *scn = pki_elf_section(elf, name, shdr);
	Elf64_Word type = !strcmp(name, ".symtab") ? SHT_SYMTAB : SHT_DYNSYM;

	if (!scn || shdr->sh_type != type || !shdr->sh_entsize || !shdr->sh_size)
		return NULL;
	return scn;
}

/* Whether elf holds the code it describes: an executable segment with bytes. */
bool pki_elf_is_image(Elf *elf)
{
	size_t n;
	GElf_Phdr ph;
	bool exec = false;

	if (elf_getphdrnum(elf, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph))
			return false;
		if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
			if (!ph.p_filesz)
				return false;
			exec = true;
		}
	}
	return exec;
}

int pki_elf_read_build_id(Elf *elf, struct pk_build_id *out)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;
		GElf_Nhdr nhdr;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		while ((off = gelf_getnote(data, off, &nhdr, &name_off, &desc_off)) > 0) {
			if (nhdr.n_type != NT_GNU_BUILD_ID || nhdr.n_namesz != 4 ||
			    memcmp((char *)data->d_buf + name_off, "GNU", 4))
				continue;
			if (nhdr.n_descsz == 0 || nhdr.n_descsz > sizeof(out->data))
				return -EINVAL;
			out->size = (uint8_t)nhdr.n_descsz;
			memcpy(out->data, (char *)data->d_buf + desc_off, nhdr.n_descsz);
			return 0;
		}
	}
	return -EINVAL;
}

int pk_elf_build_id(const char *path, struct pk_build_id *out)
{
	struct pki_elf_file f;
	int err = pki_elf_file_open(&f, path);

	if (err)
		return err;
	err = pki_elf_read_build_id(f.elf, out);
	pki_elf_file_close(&f);
	return err;
}

bool pki_elf_build_id_matches(const struct pki_elf_file *f, const struct pk_build_id *want)
{
	struct pk_build_id have = {0};
	char a[65], b[65];

	if (!want || !want->size)
		return true;
	if (pki_elf_read_build_id(f->elf, &have)) {
		pki_debug("%s: skipped, it has no build id", f->path);
		return false;
	}
	if (pki_build_id_equal(&have, want))
		return true;
	pk_build_id_hex(&have, a);
	pk_build_id_hex(want, b);
	pki_debug("%s: skipped, build id %s is not the recorded %s", f->path, a, b);
	return false;
}

static void add_candidate(struct pki_symsrc_list *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_candidate(struct pki_symsrc_list *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->nr >= (int)PK_ARRAY_SIZE(c->path))
		return;
	va_start(ap, fmt);
	n = vsnprintf(c->path[c->nr], PATH_MAX, fmt, ap);
	va_end(ap);
	if (n <= 0 || n >= PATH_MAX)
		return;
	for (int i = 0; i < c->nr; i++)
		if (!strcmp(c->path[i], c->path[c->nr]))
			return;
	c->nr++;
}

const char *pki_buildid_dir(const struct pk_symtab_opts *opts, char *buf, size_t len)
{
	const char *env = getenv("PERF_BUILDID_DIR");
	const char *home = getenv("HOME");

	if (PKI_OPT(opts, buildid_dir, NULL))
		return opts->buildid_dir;
	if (env && *env)
		return env;
	snprintf(buf, len, "%s/.debug", home && *home ? home : "/root");
	return buf;
}

/* .gnu_debuglink of the binary: the debug file's base name. */
static bool debuglink_name(const char *path, char *name, size_t len)
{
	struct pki_elf_file f;
	GElf_Shdr shdr;
	Elf_Scn *scn;
	Elf_Data *data;
	bool ok = false;

	if (pki_elf_file_open(&f, path))
		return false;
	scn = pki_elf_section(f.elf, ".gnu_debuglink", &shdr);
	data = scn && shdr.sh_type == SHT_PROGBITS ? elf_getdata(scn, NULL) : NULL;
	if (data && data->d_buf && data->d_size > 1) {
		size_t n = strnlen(data->d_buf, data->d_size);

		if (n > 0 && n < data->d_size && n < len && !memchr(data->d_buf, '/', n)) {
			memcpy(name, data->d_buf, n + 1);
			ok = true;
		}
	}
	pki_elf_file_close(&f);
	return ok;
}

/* The places a .gnu_debuglink name is looked for, as gdb and perf look. */
static void add_debuglink(struct pki_symsrc_list *c, const char *bin, const char *path,
			  const char *debug_dir, const char *symfs)
{
	char link[NAME_MAX + 1];
	const char *slash = strrchr(path, '/');
	int dlen = slash ? (int)(slash - path) : 0;

	if (!debuglink_name(bin, link, sizeof(link)))
		return;
	add_candidate(c, "%s%.*s/%s", symfs, dlen, path, link);
	add_candidate(c, "%s%.*s/.debug/%s", symfs, dlen, path, link);
	add_candidate(c, "%s%s%.*s/%s", symfs, debug_dir, dlen, path, link);
}

void pki_symsrc_list(struct pki_symsrc_list *c, const char *path, const struct pk_build_id *bid,
		     const struct pk_symtab_opts *opts)
{
	char buf[PATH_MAX], hex[65];
	const char *debug_dir = PKI_OPT(opts, debug_dir, NULL);
	const char *symfs = PKI_OPT(opts, symfs, NULL);
	const char *cache = pki_buildid_dir(opts, buf, sizeof(buf));
	char bin[PATH_MAX];

	c->nr = 0;
	if (!debug_dir)
		debug_dir = "/usr/lib/debug";
	if (!symfs)
		symfs = "";
	if (bid && bid->size) {
		pk_build_id_hex(bid, hex);
		add_candidate(c, "%s/.build-id/%.2s/%s/%s", cache, hex, hex + 2,
			      strcmp(path, "[vdso]") ? "elf" : "vdso");
		add_candidate(c, "%s/.build-id/%.2s/%s/debug", cache, hex, hex + 2);
		add_candidate(c, "%s%s/.build-id/%.2s/%s.debug", symfs, debug_dir, hex, hex + 2);
	}
	/* "[vdso]" and the like are no paths: only the cache has them */
	if (path[0] == '[')
		return;
	snprintf(bin, sizeof(bin), "%s%s", symfs, path);
	add_debuglink(c, bin, path, debug_dir, symfs);
	add_candidate(c, "%s%s%s", symfs, debug_dir, path);
	add_candidate(c, "%s%s%s.debug", symfs, debug_dir, path);
	add_candidate(c, "%s", bin);
}

/* Take f for the roles it can fill; returns whether it was kept. */
static bool take_roles(struct pki_symsrc *src, struct pki_elf_file *f, const char *path)
{
	GElf_Shdr shdr;
	bool image = pki_elf_is_image(f->elf), used = false;

	if (!src->syms.elf && pki_elf_symbols(f->elf, ".symtab", &shdr)) {
		src->syms = *f;
		used = true;
	}
	if (!src->runtime.elf && image) {
		if (!used) {
			src->runtime = *f;
			return true;
		}
		/* the same file serves both: a second handle keeps ownership simple */
		if (pki_elf_file_open(&src->runtime, path))
			src->runtime.elf = NULL;
	}
	return used;
}

bool pki_symsrc_offer(struct pki_symsrc *src, const char *path, const struct pk_build_id *bid)
{
	struct pki_elf_file f;

	if (pki_elf_file_open(&f, path))
		return false;
	if (pki_elf_build_id_matches(&f, bid) && take_roles(src, &f, path))
		return true;
	pki_elf_file_close(&f);
	return false;
}

int pki_symsrc_find(struct pki_symsrc *src, const char *path, const struct pk_build_id *bid,
		    const struct pk_symtab_opts *opts)
{
	struct pki_symsrc_list *c = calloc(1, sizeof(*c));
	struct pk_build_id own = {0};

	src->syms = (struct pki_elf_file){.fd = -1};
	src->runtime = (struct pki_elf_file){.fd = -1};
	if (!c)
		return -ENOMEM;
	/* no recorded build id: the binary's own finds its debug info */
	if ((!bid || !bid->size) && path[0] != '[' && !pk_elf_build_id(path, &own))
		pki_symsrc_list(c, path, &own, opts);
	else
		pki_symsrc_list(c, path, bid, opts);
	for (int i = 0; i < c->nr && (!src->syms.elf || !src->runtime.elf); i++)
		pki_symsrc_offer(src, c->path[i], bid);
	free(c);
	/* what no local file gave, from debuginfod when DEBUGINFOD_URLS is set */
	pki_debuginfod_complete(src, path, bid && bid->size ? bid : &own);
	if (src->syms.elf && !src->runtime.elf) {
		pki_debug("%s: symbols in %s, but no copy of the binary to place them: "
			  "not used", path, src->syms.path);
		pki_elf_file_close(&src->syms);
	}
	return src->runtime.elf ? 0 : -ENOENT;
}

void pki_symsrc_close(struct pki_symsrc *src)
{
	pki_elf_file_close(&src->syms);
	pki_elf_file_close(&src->runtime);
}
