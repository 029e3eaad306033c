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
 *
 * perf (with libunwind) finds a binary's CFI through its .eh_frame_hdr at
 * the lowest address the process maps that binary at.  A process that
 * exec'd keeps, in perf's maps as in ours, what its parent had mapped: a
 * library mapped lower by the parent than by the new program moves the
 * table perf searches, and perf finds no CFI for any code of it (unless
 * the file has a .debug_frame, which perf reads at the right address).
 * From such a frame perf's chain goes on by libunwind's guesses
 * (unwind_guess.c), and so does ours: libdw starts again from the guessed
 * caller.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dwarf.h>
#include <perfkit/buildid.h>
#include "unwind_internal.h"
#include "internal.h"
#include "symbols/elf_internal.h"

enum { RBP = 6, RSP = 7 }; /* x86-64 DWARF register numbers */

/* A DSO of the process: the file unwinding reads, and its module. */
struct uw_file {
	const struct pk_dso *dso;
	uint64_t base; /* where it was reported */
	char *path;    /* NULL: no usable file */
	int fd;	       /* for memory reads, -1 until opened */
	Dwfl_Module *mod;
	int no_cfi;    /* perf finds no CFI for its code: 1, 0, -1 unknown */
};

/* x86-64's general registers and return address: what a CFA or saved
 * register rule reads. */
#define LAST_REGS 17

/* The last frame libdw reported, for caller_at_zero() after it ends. */
struct uw_last {
	Dwfl_Module *mod; /* NULL: none yet this run */
	Dwarf_Addr lookup;
	Dwarf_Word regs[LAST_REGS];
	uint32_t have; /* bit r: regs[r] known */
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
	bool restart;	  /* the registers are a guessed caller's: unwind again */
	bool guessed;	  /* this run starts from such registers */
	bool from_guess;  /* and its first frame is not reported yet */
	struct uw_last last;
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
	struct pk_symtab_opts so = {.sz = sizeof(so), .buildid_dir = s->opts.buildid_dir};
	char buf[4096], dir[4096], hex[65];

	if (d->kind != PKI_DSO_ELF)
		return NULL;
	if (d->bid.size && d->bid.size <= 32) {
		pk_build_id_hex(&d->bid, hex);
		snprintf(buf, sizeof(buf), "%s/.build-id/%.2s/%s/elf",
			 pki_buildid_dir(&so, dir, sizeof(dir)), hex, hex + 2);
		if (build_id_ok(buf, &d->bid))
			return strdup(buf);
	}
	if (d->name[0] == '/' && build_id_ok(d->name, &d->bid))
		return strdup(d->name);
	return NULL;
}

/* Where perf looks for the DSO's CFI: as if loaded at the lowest map of
 * it in the process, whichever program mapped it. */
static uint64_t lowest_map_of(const struct pki_maps *m, const struct pk_dso *dso)
{
	for (size_t i = 0; i < m->nr; i++) /* in address order */
		if (m->v[i].dso == dso)
			return m->v[i].start;
	return 0;
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
	/* mapped lower too: no CFI, unless the file has a .debug_frame */
	f->no_cfi = lowest_map_of(u->t->maps, map->dso) != base ? -1 : 0;
	return f;
}

/* The file of the DSO mapped at pc, or NULL. */
static struct uw_file *file_at(struct pki_unwinder *u, uint64_t pc)
{
	const struct pki_map *map = pki_maps_find(u->t->maps, pc);

	return map ? file_of(u, map) : NULL;
}

/* The module of file f (mapped at pc), reported to libdw on first use. */
static Dwfl_Module *module_of(struct pki_unwinder *u, struct uw_file *f, uint64_t pc)
{
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

/* The module of the DSO mapped at pc, reported to libdw on first use. */
static Dwfl_Module *module_at(struct pki_unwinder *u, uint64_t pc)
{
	return module_of(u, file_at(u, pc), pc);
}

/*
 * A word that is not on the stack copy, as perf reads it: from the file
 * mapped there.  An address in no map cannot be read; one in a map with
 * no file behind it ([stack] beyond the copy, anonymous memory) or past
 * the file's end reads as 0 (perf's libunwind takes that as a value: a
 * return address of 0 there is a caller it shows as ffffffffffffffff).
 */
static bool read_file_word(struct pki_unwinder *u, uint64_t addr, Dwarf_Word *out)
{
	const struct pki_map *map = pki_maps_find(u->t->maps, addr);
	struct uw_file *f = map ? file_of(u, map) : NULL;
	uint64_t off;

	if (!f)
		return false;
	*out = 0;
	if (!f->path)
		return true;
	if (f->fd < 0)
		f->fd = open(f->path, O_RDONLY | O_CLOEXEC);
	off = addr - map->start + map->pgoff;
	if (f->fd >= 0 && off <= INT64_MAX && pread(f->fd, out, 8, (off_t)off) != 8)
		*out = 0;
	return true;
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
	if (addr < u->sp || addr + 8 >= u->sp + len)
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

	if (u->guessed) {
		/* libunwind's guess knows these alone */
		if (!dwfl_thread_state_registers(thread, RBP, 2, &u->regs[RBP]))
			return false;
		dwfl_thread_state_register_pc(thread, u->pc);
		return true;
	}
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

static bool has_debug_frame(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	Elf_Scn *scn = NULL;
	size_t strndx;
	bool found = false;

	if (elf && !elf_getshdrstrndx(elf, &strndx)) {
		while (!found && (scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			const char *name;

			found = gelf_getshdr(scn, &sh) && sh.sh_type == SHT_PROGBITS &&
				(name = elf_strptr(elf, strndx, sh.sh_name)) &&
				!strcmp(name, ".debug_frame");
		}
	}
	elf_end(elf);
	if (fd >= 0)
		close(fd);
	return found;
}

/* Whether perf finds no CFI for the code of file f (struct uw_file). */
static bool no_cfi(struct uw_file *f)
{
	if (!f || !f->path)
		return false;
	if (f->no_cfi < 0)
		f->no_cfi = !has_debug_frame(f->path);
	return f->no_cfi;
}

static bool read_word(void *arg, uint64_t addr, uint64_t *out)
{
	Dwarf_Word w;

	if (!memory_read(NULL, addr, &w, arg))
		return false;
	*out = w;
	return true;
}

/*
 * After frame state at ip, which perf has no CFI for: the caller perf's
 * libunwind guesses, as the registers of the next run (u->restart), or a
 * caller at 0 (perf shows ffffffffffffffff, its return address minus one,
 * and stops), or nothing.
 */
static void guess_caller(struct pki_unwinder *u, Dwfl_Frame *state, uint64_t ip)
{
	struct pki_guess_frame f = {.ip = ip}, caller;
	Dwarf_Word sp, fp;

	if (u->arch != PKI_ARCH_X86_64 || dwfl_frame_reg(state, RSP, &sp))
		return;
	f.sp = sp;
	f.has_fp = !dwfl_frame_reg(state, RBP, &fp);
	f.fp = f.has_fp ? fp : 0;
	if (!pki_unwind_guess(&f, read_word, u, &caller))
		return;
	if (!caller.ip) {
		add_frame(u, NULL, UINT64_MAX);
		u->depth++;
		return;
	}
	memset(u->regs, 0, sizeof(u->regs));
	u->regs[RBP] = caller.fp;
	u->regs[RSP] = caller.sp;
	u->pc = caller.ip; /* u->sp stays the stack copy's start */
	u->restart = true;
}

/* The CFI row libdw unwinds the frame at lookup by (.eh_frame first). */
static Dwarf_Frame *cfi_row(Dwfl_Module *mod, Dwarf_Addr lookup)
{
	Dwarf_Addr bias;
	Dwarf_CFI *cfi = dwfl_module_eh_cfi(mod, &bias);
	Dwarf_Frame *row = NULL;

	if (cfi && !dwarf_cfi_addrframe(cfi, lookup - bias, &row))
		return row;
	cfi = dwfl_module_dwarf_cfi(mod, &bias);
	if (cfi && !dwarf_cfi_addrframe(cfi, lookup - bias, &row))
		return row;
	return NULL;
}

/* Register r of the last frame, when libdw knew it. */
static bool last_reg(const struct uw_last *l, uint64_t r, Dwarf_Word *val)
{
	if (r >= LAST_REGS || !(l->have & (1u << r)))
		return false;
	*val = l->regs[r];
	return true;
}

/* The CFA of row for the last frame, for the plain rule (a register plus
 * an offset). */
static bool cfa_of(Dwarf_Frame *row, const struct uw_last *l, Dwarf_Word *cfa)
{
	Dwarf_Op *ops;
	size_t nops;
	Dwarf_Word reg, regno, off;

	if (dwarf_frame_cfa(row, &ops, &nops) || nops != 1)
		return false;
	if (ops[0].atom == DW_OP_bregx) {
		regno = ops[0].number;
		off = ops[0].number2;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		regno = ops[0].atom - DW_OP_breg0;
		off = ops[0].number;
	} else {
		return false;
	}
	if (!last_reg(l, regno, &reg))
		return false;
	*cfa = reg + off;
	return true;
}

/*
 * Whether the caller of the last frame (u->last) has a return address of
 * 0 saved on the stack, and a frame pointer that is not undefined.  libdw
 * ends the chain there; perf's libunwind takes 0 as a caller, shows it as
 * ffffffffffffffff (0 minus one) and ends after it.
 */
static bool caller_at_zero(struct pki_unwinder *u)
{
	const struct uw_last *l = &u->last;
	Dwarf_Frame *row = cfi_row(l->mod, l->lookup);
	Dwarf_Op mem[3], *ops;
	size_t nops;
	Dwarf_Word cfa, at, ra = 1, fp;
	bool zero = false;
	int ra_reg;

	if (!row)
		return false;
	ra_reg = dwarf_frame_info(row, NULL, NULL, NULL);
	/* the return address at CFA + offset, a location (no stack value) */
	if (ra_reg >= 0 && !dwarf_frame_register(row, ra_reg, mem, &ops, &nops) && nops &&
	    nops <= 2 && ops[0].atom == DW_OP_call_frame_cfa &&
	    (nops == 1 || ops[1].atom == DW_OP_plus_uconst) && cfa_of(row, l, &cfa)) {
		at = cfa + (nops == 2 ? ops[1].number : 0);
		zero = read_word(u, at, &ra) && !ra;
	}
	/* libunwind: no frame pointer location in the caller, no caller */
	if (zero && !dwarf_frame_register(row, RBP, mem, &ops, &nops) && !nops)
		zero = ops == NULL && last_reg(l, RBP, &fp);
	free(row);
	return zero;
}

/* The last frame's registers, should libdw end the chain after it (the
 * state goes with the callback; the CFI is read only then). */
static void keep_last(struct pki_unwinder *u, Dwfl_Frame *state, Dwfl_Module *mod,
		      Dwarf_Addr lookup)
{
	struct uw_last *l = &u->last;

	l->mod = mod;
	l->lookup = lookup;
	l->have = 0;
	for (unsigned r = 0; r < LAST_REGS; r++)
		if (!dwfl_frame_reg(state, r, &l->regs[r]))
			l->have |= 1u << r;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct pki_unwinder *u = arg;
	Dwarf_Addr pc, ip;
	bool activation;
	struct uw_file *f;
	Dwfl_Module *mod;

	/* asking whether the frame is an activation unwinds it: the module
	 * must be known first, or libdw falls back to frame pointers */
	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	module_at(u, pc);
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	ip = pc;
	/* a caller's return address is past its call: perf shows the call
	 * (a guessed caller starts a run, as if it were the sample's) */
	if (!activation || u->from_guess)
		pc--;
	u->from_guess = false;
	if (!pc)
		return DWARF_CB_ABORT;
	f = file_at(u, pc);
	mod = module_of(u, f, pc);
	add_frame(u, mod, pc);
	if (++u->depth >= u->max_stack || u->n >= u->max || !mod)
		return DWARF_CB_ABORT;
	if (no_cfi(f)) {
		guess_caller(u, state, ip);
		return DWARF_CB_ABORT;
	}
	if (u->arch == PKI_ARCH_X86_64)
		keep_last(u, state, mod, activation ? ip : ip - 1);
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
	u->guessed = false;
	for (;;) {
		int err;

		u->restart = false;
		u->last.mod = NULL;
		u->from_guess = u->guessed;
		err = dwfl_getthread_frames(u->dwfl, 1, frame_cb, u);
		if (err && !u->n)
			pki_debug("unwind: %s", dwfl_errmsg(-1));
		/* libdw ended the chain where perf's goes on to 0 */
		if (!err && u->last.mod && u->depth < u->max_stack && u->n < u->max &&
		    caller_at_zero(u))
			add_frame(u, NULL, UINT64_MAX);
		if (!u->restart)
			break;
		u->guessed = true; /* from the caller guess_caller() found */
	}
	return u->n;
}
