// SPDX-License-Identifier: MIT
/*
 * ELF symbols through libelf.
 *
 * perf symbolizes user space in file-offset space, so every symbol value
 * is moved by its PT_LOAD's (p_vaddr - p_offset) of the run-time binary.
 * The symbol source is the first candidate with a .symtab (perf's build-id
 * cache, /usr/lib/debug by build id, .gnu_debuglink targets, the binary),
 * falling back to .dynsym; candidates whose build id differs from the
 * recorded one are skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <gelf.h>
#include <inttypes.h>
#include <sys/auxv.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "debuginfod_internal.h"
#include "elf_internal.h"
#include "internal.h"

struct elf_file {
	int fd;
	Elf *elf;
	char path[PATH_MAX];
};

static void elf_file_close(struct elf_file *f)
{
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	f->elf = NULL;
	f->fd = -1;
}

static int elf_file_open(struct elf_file *f, const char *path)
{
	f->elf = NULL;
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return -errno;
	snprintf(f->path, sizeof(f->path), "%s", path);
	elf_version(EV_CURRENT);
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF) {
		elf_file_close(f);
		return -EINVAL;
	}
	return 0;
}

static Elf_Scn *find_section(Elf *elf, const char *want, GElf_Shdr *shdr)
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

static int read_build_id(Elf *elf, struct pk_build_id *out)
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
	struct elf_file f;
	int err = elf_file_open(&f, path);

	if (err)
		return err;
	err = read_build_id(f.elf, out);
	elf_file_close(&f);
	return err;
}

/* Recorded build ids are padded to 20 bytes: compare what the file has. */
static bool build_id_matches(Elf *elf, const struct pk_build_id *want)
{
	struct pk_build_id have;
	size_t n;

	if (!want || !want->size)
		return true;
	if (read_build_id(elf, &have))
		return false;
	n = have.size < want->size ? have.size : want->size;
	if (memcmp(have.data, want->data, n))
		return false;
	for (size_t i = n; i < want->size; i++)
		if (want->data[i])
			return false;
	return true;
}

static void build_id_hex(const struct pk_build_id *bid, char *hex)
{
	for (int i = 0; i < bid->size; i++)
		sprintf(hex + 2 * i, "%02x", bid->data[i]);
	hex[2 * bid->size] = '\0';
}

struct candidates {
	char path[8][PATH_MAX];
	int nr;
};

static void add_candidate(struct candidates *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_candidate(struct candidates *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->nr >= (int)PK_ARRAY_SIZE(c->path))
		return;
	va_start(ap, fmt);
	n = vsnprintf(c->path[c->nr], PATH_MAX, fmt, ap);
	va_end(ap);
	if (n > 0 && n < PATH_MAX)
		c->nr++;
}

static const char *default_buildid_dir(char *buf, size_t len)
{
	const char *home = getenv("HOME");

	snprintf(buf, len, "%s/.debug", home && *home ? home : "/root");
	return buf;
}

/* .gnu_debuglink of the binary: the debug file's base name. */
static bool debuglink_name(const char *path, char *name, size_t len)
{
	struct elf_file f;
	GElf_Shdr shdr;
	Elf_Scn *scn;
	Elf_Data *data;
	bool ok = false;

	if (elf_file_open(&f, path))
		return false;
	scn = find_section(f.elf, ".gnu_debuglink", &shdr);
	data = scn ? elf_getdata(scn, NULL) : NULL;
	if (data && data->d_size > 1) {
		size_t n = strnlen(data->d_buf, data->d_size);

		if (n > 0 && n < data->d_size && n < len && !strchr(data->d_buf, '/')) {
			memcpy(name, data->d_buf, n + 1);
			ok = true;
		}
	}
	elf_file_close(&f);
	return ok;
}

static void list_candidates(struct candidates *c, const char *path, const struct pk_build_id *bid,
			    const struct pk_symtab_opts *opts)
{
	char buf[PATH_MAX], link[NAME_MAX + 1], hex[65];
	const char *debug_dir = opts && opts->debug_dir ? opts->debug_dir : "/usr/lib/debug";
	const char *cache = opts && opts->buildid_dir ? opts->buildid_dir
						      : default_buildid_dir(buf, sizeof(buf));

	if (bid && bid->size && bid->size <= 32) {
		build_id_hex(bid, hex);
		add_candidate(c, "%s/.build-id/%.2s/%s/elf", cache, hex, hex + 2);
		add_candidate(c, "%s/.build-id/%.2s/%s/debug", cache, hex, hex + 2);
		add_candidate(c, "%s/.build-id/%.2s/%s.debug", debug_dir, hex, hex + 2);
	}
	if (debuglink_name(path, link, sizeof(link))) {
		const char *slash = strrchr(path, '/');
		int dlen = slash ? (int)(slash - path) : 0;

		add_candidate(c, "%s%.*s/%s", debug_dir, dlen, path, link);
		add_candidate(c, "%.*s/.debug/%s", dlen, path, link);
	}
	add_candidate(c, "%s", path);
}

static int load_symbols(struct pk_symtab *st, Elf *elf, Elf_Scn *scn, const GElf_Shdr *shdr,
			Elf *runtime)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n;

	if (!data || !shdr->sh_entsize)
		return 0;
	n = shdr->sh_size / shdr->sh_entsize;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		uint64_t addr;
		uint8_t bind;
		int err;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		name = elf_strptr(elf, shdr->sh_link, sym.st_name);
		if (!pki_elf_symbol_wanted(elf, runtime, &sym, name, &addr))
			continue;
		bind = GELF_ST_BIND(sym.st_info) == STB_GLOBAL ? PKI_BIND_GLOBAL
		       : GELF_ST_BIND(sym.st_info) == STB_WEAK ? PKI_BIND_WEAK
							       : PKI_BIND_LOCAL;
		err = pki_symtab_add(st, addr, sym.st_size, name, bind, 0);
		if (err)
			return err;
		if (GELF_ST_TYPE(sym.st_info) == STT_OBJECT)
			pki_symtab_last_is_object(st);
	}
	return 0;
}

/*
 * perf reads "[vdso]" it has no copy of from its own process: the running
 * kernel's vdso.  The image is copied so libelf works on plain memory.
 */
static int open_own_vdso(struct elf_file *f, void **image)
{
	uint64_t base = getauxval(AT_SYSINFO_EHDR), start, end;
	FILE *maps = fopen("/proc/self/maps", "re");
	char line[512];
	size_t size = 0;

	if (!base || !maps) {
		if (maps)
			fclose(maps);
		return -ENOENT;
	}
	while (fgets(line, sizeof(line), maps)) {
		if (sscanf(line, "%" SCNx64 "-%" SCNx64, &start, &end) == 2 && start == base &&
		    strstr(line, "[vdso]")) {
			size = end - start;
			break;
		}
	}
	fclose(maps);
	if (!size || size > (64u << 20) || !(*image = malloc(size)))
		return -ENOENT;
	memcpy(*image, (const void *)(uintptr_t)base, size);
	f->fd = -1;
	f->elf = elf_memory(*image, size);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF) {
		if (f->elf)
			elf_end(f->elf);
		f->elf = NULL;
		free(*image);
		*image = NULL;
		return -EINVAL;
	}
	return 0;
}

int pk_symtab_load_elf(struct pk_symtab **out, const char *path, const struct pk_build_id *bid,
		       const struct pk_symtab_opts *opts)
{
	struct candidates *c = calloc(1, sizeof(*c));
	struct elf_file syms = {.fd = -1}, runtime = {.fd = -1}, f;
	struct pk_symtab *st = NULL;
	struct pk_build_id own_bid = {0};
	void *vdso_image = NULL;
	GElf_Shdr shdr;
	Elf_Scn *scn;
	int err = -ENOENT;

	*out = NULL;
	if (!c)
		return -ENOMEM;
	/* no recorded build id: the binary's own finds its debug info */
	if ((!bid || !bid->size) && !pk_elf_build_id(path, &own_bid))
		list_candidates(c, path, &own_bid, opts);
	else
		list_candidates(c, path, bid, opts);
	for (int i = 0; i < c->nr && (!syms.elf || !runtime.elf); i++) {
		bool used = false;

		if (elf_file_open(&f, c->path[i]))
			continue;
		if (!build_id_matches(f.elf, bid)) {
			elf_file_close(&f);
			continue;
		}
		if (!syms.elf && find_section(f.elf, ".symtab", &shdr)) {
			syms = f;
			used = true;
		}
		if (!runtime.elf && find_section(f.elf, ".dynsym", &shdr)) {
			if (used) {
				/* same file serves both: open it again */
				elf_file_open(&runtime, c->path[i]);
			} else {
				runtime = f;
				used = true;
			}
		}
		if (!used)
			elf_file_close(&f);
	}
	free(c);
	/* what no local file gave, from debuginfod when DEBUGINFOD_URLS is set */
	pki_debuginfod_complete(path, bid && bid->size ? bid : &own_bid, &syms.fd, &syms.elf,
				&runtime.fd, &runtime.elf);
	if (!syms.elf && !runtime.elf && !strcmp(path, "[vdso]") &&
	    !open_own_vdso(&runtime, &vdso_image) && !build_id_matches(runtime.elf, bid))
		elf_file_close(&runtime);
	if (!syms.elf && !runtime.elf)
		goto out;
	err = -ENOMEM;
	st = pki_symtab_new(opts);
	if (!st)
		goto out;
	if (syms.elf) {
		scn = find_section(syms.elf, ".symtab", &shdr);
		err = load_symbols(st, syms.elf, scn, &shdr, runtime.elf ? runtime.elf : syms.elf);
	} else {
		scn = find_section(runtime.elf, ".dynsym", &shdr);
		err = load_symbols(st, runtime.elf, scn, &shdr, runtime.elf);
	}
	/* perf synthesizes the PLT's symbols after cleaning up the others */
	pki_symtab_mark_late(st);
	if (!err && runtime.elf)
		err = pki_elf_add_plt(st, runtime.elf);
	if (!err)
		err = pki_symtab_finish(st, PKI_FIXUP_ELF);
	if (err) {
		pk_symtab_free(st);
		st = NULL;
	}
out:
	elf_file_close(&syms);
	elf_file_close(&runtime);
	free(vdso_image);
	*out = st;
	return err;
}
