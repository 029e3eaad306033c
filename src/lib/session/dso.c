// SPDX-License-Identifier: MIT
/*
 * DSOs: one per (name, build id), with symbols loaded on first use and
 * looked up through a direct-mapped cache so that each distinct address
 * is resolved once.  Whatever cannot be loaded (missing file, other build
 * id, corrupt ELF) simply has no symbols: perf prints "[unknown]".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfkit/buildid.h>
#include "session_internal.h"
#include "internal.h"
#include "buildid/buildid_internal.h"
#include "symbols/elf_internal.h"

static const char *short_name_of(const char *name)
{
	const char *slash = strrchr(name, '/');

	return name[0] == '[' || !slash ? name : slash + 1;
}

static bool is_perf_map(const char *name)
{
	return !strncmp(name, "/tmp/perf-", 10) && strstr(name, ".map");
}

struct pk_dso *pki_dso_findnew(struct pk_session *s, const char *name,
			       const struct pk_build_id *bid, bool kernel)
{
	struct pk_dso *d;

	for (d = s->dsos; d; d = d->next)
		if (d->kernel == kernel && !strcmp(d->name, name))
			return d;
	d = calloc(1, sizeof(*d));
	if (!d || !(d->name = strdup(name))) {
		free(d);
		return NULL;
	}
	d->short_name = short_name_of(d->name);
	d->kernel = kernel;
	if (!kernel && is_perf_map(name)) {
		/* perf's name for JIT code: "[JIT] tid PID" */
		snprintf(d->jit_name, sizeof(d->jit_name), "[JIT] tid %d", atoi(name + 10));
		d->short_name = d->jit_name;
	}
	if (bid)
		d->bid = *bid;
	if (kernel)
		d->kind = PKI_DSO_KERNEL;
	else if (is_perf_map(name))
		d->kind = PKI_DSO_PERF_MAP;
	else if (name[0] == '[' && strcmp(name, "[vdso]"))
		d->kind = PKI_DSO_NONE; /* [heap], [stack], [vsyscall]... */
	else
		d->kind = PKI_DSO_ELF;
	d->identity = kernel || d->kind == PKI_DSO_PERF_MAP;
	d->serial = s->dsos ? s->dsos->serial + 1 : 0;
	d->next = s->dsos;
	s->dsos = d;
	return d;
}

/* The kallsyms file that belongs to the recorded kernel, or NULL. */
static const char *kernel_kallsyms(struct pk_session *s, const struct pk_dso *d, char *buf,
				   size_t len)
{
	const char *proc = s->opts.kallsyms ? s->opts.kallsyms : "/proc/kallsyms";
	struct pk_symtab_opts so = {.sz = sizeof(so), .buildid_dir = s->opts.buildid_dir};
	struct pk_build_id running;
	char hex[65], dir[4096];
	FILE *f;

	/* perf looks for the kernel's symbols under --symfs too */
	if (!s->opts.kallsyms && s->opts.symfs) {
		snprintf(buf, len, "%s/proc/kallsyms", s->opts.symfs);
		proc = buf;
	}
	if (!d->bid.size || s->opts.kallsyms || s->opts.symfs)
		return proc;
	if (!pk_kernel_build_id(&running) && pki_build_id_equal(&running, &d->bid))
		return proc;
	pk_build_id_hex(&d->bid, hex);
	snprintf(buf, len, "%s/[kernel.kallsyms]/%s/kallsyms",
		 pki_buildid_dir(&so, dir, sizeof(dir)), hex);
	f = fopen(buf, "re");
	if (!f) {
		pki_debug("[kernel.kallsyms]: recorded on another kernel (build id %s) and "
			  "not in the build-id cache", hex);
		return NULL;
	}
	fclose(f);
	return buf;
}

/*
 * -k FILE: the kernel's symbols come from that image or from nowhere (perf
 * falls back on no kallsyms when it is not usable).  A relative path is
 * under --symfs, as in perf.
 */
static void load_vmlinux(struct pk_session *s, struct pk_dso *d,
			 const struct pk_symtab_opts *so)
{
	const char *path = s->opts.vmlinux;
	char buf[4096];
	uint64_t text[2];
	int err;

	if (path[0] != '/' && s->opts.symfs) {
		snprintf(buf, sizeof(buf), "%s/%s", s->opts.symfs, path);
		path = buf;
	}
	err = pki_symtab_load_vmlinux(&d->symtab, path, d->bid.size ? &d->bid : NULL,
				      s->kref_name, s->kref_addr, so, text);
	if (err) {
		d->symtab = NULL;
		pki_debug("%s: not used for the kernel's symbols (%s)", path, strerror(-err));
		return;
	}
	/* perf moves the kernel map onto .text once a symbol of it is read */
	d->has_text = pk_symtab_count(d->symtab) > 0;
	d->text_start = text[0];
	d->text_end = text[1];
}

static void load_kernel(struct pk_session *s, struct pk_dso *d,
			struct pk_symtab_opts *so)
{
	char buf[4096];
	const char *path;

	/* --kallsyms wins over -k, as in perf */
	if (s->opts.vmlinux && !s->opts.kallsyms) {
		load_vmlinux(s, d, so);
		return;
	}
	path = kernel_kallsyms(s, d, buf, sizeof(buf));

	if (!path)
		return;
	if (s->kref_name) {
		uint64_t here = pk_kallsyms_lookup_name(path, s->kref_name);

		if (here)
			so->reloc = (int64_t)(here - s->kref_addr);
	}
	if (pk_symtab_load_kallsyms(&d->symtab, path, so))
		d->symtab = NULL;
}

static void dso_load(struct pk_session *s, struct pk_dso *d)
{
	struct pk_symtab_opts so = {
		.sz = sizeof(so),
		.no_demangle = s->opts.no_demangle,
		.debug_dir = s->opts.debug_dir,
		.buildid_dir = s->opts.buildid_dir,
		.symfs = s->opts.symfs,
	};

	d->loaded = true;
	switch (d->kind) {
	case PKI_DSO_KERNEL:
		load_kernel(s, d, &so);
		break;
	case PKI_DSO_PERF_MAP:
		if (pk_symtab_load_perf_map(&d->symtab, d->name, &so))
			d->symtab = NULL;
		break;
	case PKI_DSO_ELF:
		if (pk_symtab_load_elf(&d->symtab, d->name, d->bid.size ? &d->bid : NULL, &so))
			d->symtab = NULL;
		break;
	default:
		break;
	}
	if (!d->symtab)
		pki_debug("%s: no symbols", d->name);
}

void pki_dso_load(struct pk_session *s, struct pk_dso *d)
{
	if (!d->loaded)
		dso_load(s, d);
}

const struct pk_symbol *pki_dso_lookup(struct pk_session *s, struct pk_dso *d, uint64_t addr)
{
	struct pki_addr_cache_entry *e;
	size_t h;

	if (!d->loaded)
		dso_load(s, d);
	if (!d->symtab)
		return NULL;
	h = (size_t)((addr ^ ((uintptr_t)d >> 4)) * 0x9E3779B97F4A7C15ULL >> 48) %
	    PKI_ADDR_CACHE;
	e = s->cache ? &s->cache[h] : NULL;
	if (e && e->dso == d && e->addr == addr)
		return e->sym;
	if (!e)
		return pk_symtab_lookup(d->symtab, addr);
	e->dso = d;
	e->addr = addr;
	e->sym = pk_symtab_lookup(d->symtab, addr);
	return e->sym;
}

void pki_dsos_free(struct pk_session *s)
{
	struct pk_dso *d = s->dsos, *next;

	for (; d; d = next) {
		next = d->next;
		pk_symtab_free(d->symtab);
		free(d->name);
		free(d);
	}
	s->dsos = NULL;
}

const char *pk_dso_name(const struct pk_dso *d)
{
	return d ? d->name : "[unknown]";
}

const char *pk_dso_short_name(const struct pk_dso *d)
{
	return d ? d->short_name : "[unknown]";
}

bool pk_dso_is_kernel(const struct pk_dso *d)
{
	return d && d->kernel;
}
