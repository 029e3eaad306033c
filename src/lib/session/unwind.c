// SPDX-License-Identifier: MIT
/*
 * DWARF unwinding of user stacks with libdw.  Each process (its maps) has
 * one Dwfl, kept while its maps stay the same, so that the CFI libdw
 * reads and indexes for a binary serves every later sample (perf builds
 * a new one per sample).  The thread callbacks answer memory reads from
 * the sample's stack copy, and other addresses from the mapped files as
 * perf does; the registers come from the sample's user registers.
 *
 * The frames, and where the chain stops, are perf 6.1's: the sample's ip
 * first, then each caller at its return address minus one (which is what
 * perf prints), at most 127, ending where the CFI ends the stack or the
 * next frame cannot be found.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dwarf.h>
#include "unwind_internal.h"
#include "internal.h"

/* A DSO of the process: the file unwinding reads, and its module. */
struct uw_file {
	const struct pk_dso *dso;
	uint64_t base; /* where it was reported */
	char *path;    /* NULL: no usable file */
	int fd;	       /* for memory reads, -1 until opened */
	Dwfl_Module *mod;
};

struct pki_unwinder {
	Dwfl *dwfl;
	Dwfl_Callbacks cbs;
	char *debuginfo_path;
	uint64_t gen; /* of the maps it was built for */
	bool attached;
	struct uw_file *files;
	size_t nr_files, alloc_files;

	/* the sample being unwound */
	struct pk_session *s;
	const struct pk_thread *t;
	const struct pk_sample *sample;
	enum pki_unwind_arch arch;
	uint64_t regs[33], pc, sp;
	unsigned nr_regs;
	struct pk_frame *frames;
	size_t n, max;
	size_t depth, max_stack;
};

void pki_unwinder_free(struct pki_unwinder *u)
{
	if (!u)
		return;
	if (u->dwfl)
		dwfl_end(u->dwfl);
	for (size_t i = 0; i < u->nr_files; i++) {
		free(u->files[i].path);
		if (u->files[i].fd >= 0)
			close(u->files[i].fd);
	}
	free(u->files);
	free(u->debuginfo_path);
	free(u);
}

static bool build_id_ok(const char *path, const struct pk_build_id *want)
{
	struct pk_build_id have;
	size_t n;

	if (!want->size)
		return access(path, R_OK) == 0;
	if (pk_elf_build_id(path, &have))
		return false;
	/* recorded build ids are padded to 20 bytes */
	n = have.size < want->size ? have.size : want->size;
	return n && !memcmp(have.data, want->data, n);
}

/* The file to read a DSO from: perf's build-id cache first, then the
 * recorded path, each only with the recorded build id. */
static char *dso_file(struct pk_session *s, const struct pk_dso *d)
{
	const char *home = getenv("HOME");
	char buf[4096], hex[65];

	if (d->kind != PKI_DSO_ELF)
		return NULL;
	if (d->bid.size && d->bid.size <= 32) {
		for (int i = 0; i < d->bid.size; i++)
			sprintf(hex + 2 * i, "%02x", d->bid.data[i]);
		if (s->opts.buildid_dir)
			snprintf(buf, sizeof(buf), "%s/.build-id/%.2s/%s/elf", s->opts.buildid_dir,
				 hex, hex + 2);
		else
			snprintf(buf, sizeof(buf), "%s/.debug/.build-id/%.2s/%s/elf",
				 home && *home ? home : "/root", hex, hex + 2);
		if (build_id_ok(buf, &d->bid))
			return strdup(buf);
	}
	if (d->name[0] == '/' && build_id_ok(d->name, &d->bid))
		return strdup(d->name);
	return NULL;
}

static struct uw_file *file_of(struct pki_unwinder *u, const struct pki_map *map)
{
	uint64_t base = map->start - map->pgoff;
	struct uw_file *f;

	for (size_t i = 0; i < u->nr_files; i++)
		if (u->files[i].dso == map->dso && u->files[i].base == base)
			return &u->files[i];
	if (u->nr_files == u->alloc_files) {
		size_t n = u->alloc_files ? 2 * u->alloc_files : 16;
		struct uw_file *v = realloc(u->files, n * sizeof(*v));

		if (!v)
			return NULL;
		u->files = v;
		u->alloc_files = n;
	}
	f = &u->files[u->nr_files++];
	memset(f, 0, sizeof(*f));
	f->dso = map->dso;
	f->base = base;
	f->fd = -1;
	f->path = dso_file(u->s, map->dso);
	return f;
}

/* The module of the DSO mapped at pc, reported to libdw on first use. */
static Dwfl_Module *module_at(struct pki_unwinder *u, uint64_t pc)
{
	const struct pki_map *map = pki_maps_find(u->t->maps, pc);
	struct uw_file *f = map ? file_of(u, map) : NULL;

	if (!f || !f->path)
		return NULL;
	if (!f->mod) {
		dwfl_report_begin_add(u->dwfl);
		f->mod = dwfl_report_elf(u->dwfl, f->dso->short_name, f->path, -1, f->base, false);
		dwfl_report_end(u->dwfl, NULL, NULL);
		if (!f->mod) {
			/* once is enough to know it cannot be */
			free(f->path);
			f->path = NULL;
			return NULL;
		}
	}
	return dwfl_addrmodule(u->dwfl, pc) == f->mod ? f->mod : NULL;
}

/* A word of mapped file, as perf reads what is not on the stack copy. */
static bool read_file_word(struct pki_unwinder *u, uint64_t addr, Dwarf_Word *out)
{
	const struct pki_map *map = pki_maps_find(u->t->maps, addr);
	struct uw_file *f = map ? file_of(u, map) : NULL;
	uint64_t off;

	if (!f || !f->path || addr + 8 > map->end)
		return false;
	if (f->fd < 0)
		f->fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return false;
	off = addr - map->start + map->pgoff;
	return off <= INT64_MAX && pread(f->fd, out, 8, (off_t)off) == 8;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct pki_unwinder *u = arg;
	const struct pk_sample *s = u->sample;
	uint64_t len = s->stack_user_dyn_size < s->stack_user_size ? s->stack_user_dyn_size
								   : s->stack_user_size;

	(void)dwfl;
	if (addr + 8 < addr)
		return false;
	/* perf leaves the copy's last word to the files too */
	if (addr < u->sp || addr + 8 > u->sp + len)
		return read_file_word(u, addr, result);
	memcpy(result, (const char *)s->stack_user + (addr - u->sp), 8);
	if (s->swapped)
		*result = __builtin_bswap64(*result);
	return true;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = arg;
	return 1;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = arg;
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct pki_unwinder *u = arg;

	if (!dwfl_thread_state_registers(thread, 0, u->nr_regs, u->regs))
		return false;
	if (u->arch == PKI_ARCH_AARCH64)
		dwfl_thread_state_register_pc(thread, u->pc);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* One frame (and the frames inlined at it) into u->frames. */
static void add_frame(struct pki_unwinder *u, Dwfl_Module *mod, uint64_t pc)
{
	struct pk_location loc;
	size_t n = 0;

	pk_session_resolve(u->s, u->t, PERF_RECORD_MISC_USER, pc, &loc);
	if (mod && loc.sym && loc.dso)
		n = pki_inline_frames(u->s, mod, pc, &loc, u->frames + u->n, u->max - u->n);
	if (!n) {
		u->frames[u->n].loc = loc;
		n = 1;
	}
	u->n += n;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct pki_unwinder *u = arg;
	Dwarf_Addr pc;
	bool activation;
	Dwfl_Module *mod;

	/* asking whether the frame is an activation unwinds it: the module
	 * must be known first, or libdw falls back to frame pointers */
	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	module_at(u, pc);
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	/* a caller's return address is past its call: perf shows the call */
	if (!activation)
		pc--;
	if (!pc)
		return DWARF_CB_ABORT;
	mod = module_at(u, pc);
	add_frame(u, mod, pc);
	if (++u->depth >= u->max_stack || u->n >= u->max || !mod)
		return DWARF_CB_ABORT;
	return DWARF_CB_OK;
}

static int unwinder_init(struct pki_unwinder *u, struct pk_session *s)
{
	const char *dir = s->opts.debug_dir ? s->opts.debug_dir : "/usr/lib/debug";
	size_t len = strlen(dir) + 16;

	u->debuginfo_path = malloc(len);
	if (!u->debuginfo_path)
		return -ENOMEM;
	snprintf(u->debuginfo_path, len, "+:.debug:%s", dir);
	u->cbs.find_elf = dwfl_build_id_find_elf;
	u->cbs.find_debuginfo = dwfl_standard_find_debuginfo;
	u->cbs.section_address = dwfl_offline_section_address;
	u->cbs.debuginfo_path = &u->debuginfo_path;
	u->dwfl = dwfl_begin(&u->cbs);
	return u->dwfl ? 0 : -ENOMEM;
}

/* The unwinder of t's process, rebuilt when its maps changed. */
static struct pki_unwinder *unwinder_of(struct pk_session *s, const struct pk_thread *t)
{
	struct pki_maps *m = t->maps;

	if (m->unwinder && m->unwinder->gen == m->gen)
		return m->unwinder;
	pki_unwinder_free(m->unwinder);
	m->unwinder = calloc(1, sizeof(*m->unwinder));
	if (!m->unwinder)
		return NULL;
	m->unwinder->gen = m->gen;
	m->unwinder->s = s;
	if (unwinder_init(m->unwinder, s)) {
		pki_unwinder_free(m->unwinder);
		m->unwinder = NULL;
	}
	return m->unwinder;
}

static bool has_user_stack(const struct pk_sample *s)
{
	const uint64_t need = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

	return (s->type & need) == need && s->regs_user.regs && s->stack_user_size &&
	       s->stack_user_dyn_size && s->stack_user;
}

size_t pki_unwind_user(struct pk_session *s, const struct pk_session_sample *ev,
		       struct pk_frame *frames, size_t max, size_t max_stack)
{
	const struct pk_thread *t = ev->thread;
	struct pki_unwinder *u;
	Dwfl_Module *mod;

	if (!max || !max_stack || !t || !t->maps || !has_user_stack(&ev->sample))
		return 0;
	u = unwinder_of(s, t);
	if (!u)
		return 0;
	u->s = s;
	u->t = t;
	u->sample = &ev->sample;
	u->arch = pki_unwind_arch(s);
	if (!pki_unwind_regs(u->arch, &ev->sample, u->regs, &u->nr_regs, &u->pc, &u->sp))
		return 0;
	u->frames = frames;
	u->n = 0;
	u->max = max;
	u->depth = 0;
	u->max_stack = max_stack;
	mod = module_at(u, u->pc);
	if (!u->attached && mod)
		u->attached = dwfl_attach_state(u->dwfl, NULL, 1, &thread_callbacks, u);
	if (!u->attached || !mod) {
		/* nothing to unwind with: the ip alone, as perf has it */
		if (u->pc)
			add_frame(u, NULL, u->pc);
		return u->n;
	}
	if (dwfl_getthread_frames(u->dwfl, 1, frame_cb, u) && !u->n)
		pki_debug("unwind: %s", dwfl_errmsg(-1));
	return u->n;
}
