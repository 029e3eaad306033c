// SPDX-License-Identifier: MIT
/*
 * gen_replay_records: write perf.data files whose callchains hold garbage
 * frames in no map, for comparing perfkit report with perf report where
 * perf's lookups of unresolved symbols miss (their addresses compare by a
 * signed difference, no total order once two lie 2^63 or more apart).
 * Deterministic: a fixed seed, the same file on every run.
 *
 *	gen_replay_records MODE OUTPUT BINARY
 *
 * BINARY is an ELF executable with a symbol table, mapped into every
 * process so that some frames resolve (exit status 77 when it has too few
 * functions).  MODE:
 *	late	one comm whose unmapped addresses stay below 2^63 for the
 *		first part of the file, then stacks with addresses above come
 *		in; the earlier stacks keep repeating after that
 *	comms	two comms, one spreading (late), one whose unmapped addresses
 *		always lie within 2^47 of each other
 *	kernel	kernel samples (PERF_CONTEXT_KERNEL, then kernel addresses
 *		in no map) mixed with user garbage in one comm
 *	events	two events, every comm above, each event turning its stacks
 *		wide at another time
 *	aslr	no garbage: processes of one comm map BINARY at bases 2^32
 *		apart (as address space randomization puts them) and its
 *		first page, the ELF header, in no symbol, between them;
 *		frames lie in functions or in that page.  One DSO's frames
 *		with a symbol and without: perf's call trees compare those
 *		by address, the first by symbol start among themselves, so a
 *		lookup of a node's children can pass by an equal one (the
 *		same function, another process) and make a second.  Every
 *		sample's leaf is another address of the program headers
 *		(no symbol, not even a data object): each stack is sampled
 *		once.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfkit/perfkit.h>
#include "gen_records.h"

#define NR_SAMPLES  3000
#define MAX_DEPTH   10
#define NR_LOW	    60	/* stacks of a comm with low addresses only */
#define NR_HIGH	    20	/* and with one address at 2^63 or above */
#define MAX_FUNCS   24
#define PIE_BASE    0x555555554000ULL
#define KERNEL_TEXT 0xffffffff81000000ULL
#define PERIOD	    250000
#define RUN_START   0xb09f353df0000000ULL

/* sample_id_all trailer for TID|TIME|ID|CPU */
static void trailer(struct rec *r, uint32_t pid, uint32_t tid, uint64_t time, uint64_t id)
{
	u32x2(r, pid, tid);
	u64(r, time);
	u64(r, id);
	u32x2(r, 0, 0);
}

/* The executable mapped into every process and the functions in it. */
struct image {
	const char *path;
	uint64_t start, len, pgoff; /* its executable segment, mapped */
	uint64_t base;		    /* load address of its vaddr 0 */
	uint64_t func[MAX_FUNCS], size[MAX_FUNCS];
	int nr_func;
};

static int by_addr(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

static int read_image(struct image *im, const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	const Elf64_Ehdr *eh;
	const Elf64_Phdr *ph = NULL;
	const Elf64_Shdr *sh;
	uint64_t cand[256][2];
	long n;
	int nr = 0;

	im->path = path;
	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > (long)sizeof(*eh) && !fseek(f, 0, 0))
		buf = malloc((size_t)n);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	eh = (const Elf64_Ehdr *)buf;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(*ph) > (uint64_t)n ||
	    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(*sh) > (uint64_t)n)
		goto bad;
	for (int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *p = (const Elf64_Phdr *)(buf + eh->e_phoff) + i;

		if (p->p_type == PT_LOAD && (p->p_flags & PF_X) && !ph)
			ph = p;
	}
	if (!ph)
		goto bad;
	im->base = eh->e_type == ET_DYN ? PIE_BASE : 0;
	im->start = im->base + (ph->p_vaddr & ~0xfffULL);
	im->len = (ph->p_memsz + (ph->p_vaddr & 0xfff) + 0xfff) & ~0xfffULL;
	im->pgoff = ph->p_offset & ~0xfffULL;
	sh = (const Elf64_Shdr *)(buf + eh->e_shoff);
	for (int i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *strs;
		const Elf64_Sym *sym;

		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
			continue;
		strs = &sh[sh[i].sh_link];
		if (sh[i].sh_offset + sh[i].sh_size > (uint64_t)n ||
		    strs->sh_offset + strs->sh_size > (uint64_t)n)
			goto bad;
		sym = (const Elf64_Sym *)(buf + sh[i].sh_offset);
		for (uint64_t j = 0; j < sh[i].sh_size / sizeof(*sym) && nr < 256; j++) {
			if (ELF64_ST_TYPE(sym[j].st_info) != STT_FUNC || sym[j].st_size < 16 ||
			    sym[j].st_value < ph->p_vaddr ||
			    sym[j].st_value + sym[j].st_size > ph->p_vaddr + ph->p_memsz)
				continue;
			cand[nr][0] = sym[j].st_value;
			cand[nr++][1] = sym[j].st_size;
		}
	}
	qsort(cand, (size_t)nr, sizeof(cand[0]), by_addr);
	/* distinct, non-overlapping functions, spread over the list */
	for (int i = 0; i < nr && im->nr_func < MAX_FUNCS; i += nr / MAX_FUNCS + 1) {
		int k = im->nr_func;

		if (k && cand[i][0] < im->func[k - 1] + im->size[k - 1])
			continue;
		im->func[k] = cand[i][0];
		im->size[k] = cand[i][1];
		im->nr_func++;
	}
	free(buf);
	return im->nr_func >= 4 ? 0 : -1;
bad:
	free(buf);
	return -1;
}

/* An address inside function i, as a return address would be. */
static uint64_t func_ip(const struct image *im, int i)
{
	return im->base + im->func[i] + 1 + rnd() % (im->size[i] - 2);
}

/* Unmapped addresses, some of the kind frame-pointer walks find in text
 * and data, some random. */
static const uint64_t low_fixed[] = {
	0x6e6572617020676eULL, 0x4141414141414141ULL, 0x10, 0x1, 0x7ffc0badc0deULL,
	0x2e2e2e2e2e2e2e2eULL, 0x7f0000001234ULL, 0x3000, 0x5f5f5f5f5f5f5f5fULL,
	0x7ffffffffffff000ULL,
};

static const uint64_t high_fixed[] = {
	0xb09f353df0000000ULL, 0x8000000000000010ULL, 0xdeadbeefdeadbeefULL,
	0xc0ffee0000000000ULL, 0x9e3779b97f4a7c15ULL, 0xfeedfacecafe0000ULL,
};

#define NR_LOW_FIXED  (sizeof(low_fixed) / sizeof(low_fixed[0]))
#define NR_HIGH_FIXED (sizeof(high_fixed) / sizeof(high_fixed[0]))

/* below 2^63 */
static uint64_t low_addr(void)
{
	return rnd() % 4 ? rnd() >> 1 : low_fixed[rnd() % NR_LOW_FIXED];
}

/* at 2^63 or above, below the kernel's maps */
static uint64_t high_addr(void)
{
	return rnd() % 2 ? high_fixed[rnd() % NR_HIGH_FIXED]
			 : (1ULL << 63 | rnd() >> 2) & 0xfeffffffffffffffULL;
}

/* within 2^47 of each other */
static uint64_t calm_addr(void)
{
	return 0x1000 + rnd() % (1ULL << 47);
}

/* kernel addresses below its text: the direct map, in no map */
static uint64_t kernel_addr(void)
{
	return 0xffff888100000000ULL + (rnd() % 64) * 0x1000 + rnd() % 0x100;
}

struct stack {
	uint64_t ip[MAX_DEPTH + 2];	/* the callchain, with context markers */
	int n;
	bool kernel;
};

enum { CALM, WIDE, KMIX };

struct comm {
	const char *name;
	uint32_t pid;
	int kind;
	struct stack st[NR_LOW + NR_HIGH];
};

/* A user frame: resolved in the image or garbage of the comm's kind. */
static uint64_t user_frame(const struct image *im, int kind, bool high)
{
	if (rnd() % 2)
		return func_ip(im, (int)(rnd() % (uint64_t)im->nr_func));
	if (kind == CALM)
		return calm_addr();
	return high ? high_addr() : low_addr();
}

static void make_stack(struct stack *s, const struct image *im, int kind, bool high)
{
	int depth = 2 + (int)(rnd() % (MAX_DEPTH - 3)), wide = high ? (int)(rnd() % depth) : -1;

	s->n = 0;
	s->kernel = kind == KMIX && rnd() % 3 == 0;
	if (s->kernel) {
		int nk = 1 + (int)(rnd() % 3);

		s->ip[s->n++] = PERF_CONTEXT_KERNEL;
		for (int i = 0; i < nk; i++)
			s->ip[s->n++] = kernel_addr();
		depth -= nk;
		if (depth < 1)
			depth = 1;
		wide = wide >= depth ? depth - 1 : wide;
	}
	s->ip[s->n++] = PERF_CONTEXT_USER;
	for (int i = 0; i < depth; i++) {
		/* the leaf resolves mostly: garbage sample ips are rarer */
		if (i == 0 && rnd() % 2)
			s->ip[s->n++] = func_ip(im, (int)(rnd() % (uint64_t)im->nr_func));
		else
			s->ip[s->n++] = user_frame(im, kind, high && i == wide);
		if (i == wide && high)
			s->ip[s->n - 1] = high_addr();
	}
}

static void make_comm(struct comm *c, const struct image *im)
{
	for (int i = 0; i < NR_LOW + NR_HIGH; i++)
		make_stack(&c->st[i], im, c->kind, c->kind != CALM && i >= NR_LOW);
}

static int write_task(struct pk_writer *w, const struct comm *c, const struct image *im,
		      uint64_t t)
{
	struct rec r;
	int err;

	start(&r, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	u32x2(&r, c->pid, c->pid);
	str(&r, c->name);
	trailer(&r, c->pid, c->pid, t, 1);
	err = emit(w, &r);
	start(&r, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);
	u32x2(&r, c->pid, c->pid);
	u64(&r, im->start);
	u64(&r, im->len);
	u64(&r, im->pgoff);
	str(&r, im->path);
	trailer(&r, c->pid, c->pid, t + 1, 1);
	return err ?: emit(w, &r);
}

static int write_kernel_map(struct pk_writer *w)
{
	struct rec r;

	start(&r, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);
	u32x2(&r, (uint32_t)-1, 0);
	u64(&r, KERNEL_TEXT);
	u64(&r, 0x1000000);
	u64(&r, KERNEL_TEXT);
	str(&r, "[kernel.kallsyms]_text");
	trailer(&r, (uint32_t)-1, 0, 0, 1);
	return emit(w, &r);
}

static int write_sample(struct pk_writer *w, const struct comm *c, const struct stack *s,
			uint64_t id, uint64_t t)
{
	struct rec r;

	start(&r, PERF_RECORD_SAMPLE, s->kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER);
	u64(&r, s->ip[1]);
	u32x2(&r, c->pid, c->pid);
	u64(&r, t);
	u64(&r, id);
	u32x2(&r, (uint32_t)(t / 7) % 2, 0);
	u64(&r, PERIOD);
	u64(&r, (uint64_t)s->n);
	for (int i = 0; i < s->n; i++)
		u64(&r, s->ip[i]);
	return emit(w, &r);
}

/*
 * A fresh garbage frame into a sample's stack, its leaf or one of its two
 * outermost: a random one below 2^63 before its event's stacks turn wide,
 * after that the next of a run of ascending ones from 0xb09f353df0000000
 * (as a walk through an array of pointers gives).  Inserted in order, the
 * run rotates perf's tree until its addresses are ancestors of earlier
 * entries they compare wrongly with: those entries' lookups then miss.
 * Returns the run's last address.
 */
static uint64_t fresh_frame(struct stack *s, bool wide, uint64_t run)
{
	int f = s->kernel || rnd() % 3 ? s->n - 1 - (int)(rnd() % 2) : 1;

	if (s->ip[f] >= PERF_CONTEXT_MAX)
		return run;	/* a context marker: the user part is one frame */
	if (wide)
		run += 0x40;
	s->ip[f] = wide ? run : rnd() >> 1;
	return run;
}

/* A stack of comm c for a sample of an event whose stacks turn wide at
 * sample wide_at: skewed towards the first ones, as profiles are. */
static const struct stack *pick(const struct comm *c, int i, int wide_at, bool reverse)
{
	int n = c->kind != CALM && i >= wide_at ? NR_LOW + NR_HIGH : NR_LOW;
	int a = (int)(rnd() % (uint64_t)n), b = (int)(rnd() % (uint64_t)n);
	int k = a < b ? a : b;

	return &c->st[reverse ? n - 1 - k : k];
}

/* ---- aslr ---------------------------------------------------------- */

#define NR_PROCS	3
#define ASLR_BASE	0x555500000000ULL
#define ASLR_STEP	0x100000000ULL
#define HEADER_AT	0x80000000ULL /* a process' header page, above its text */
#define NR_PROC_STACKS	16
#define MAX_ASLR_DEPTH	4
#define PHDRS		0x40  /* the program headers: at least */
#define NR_PHDR_ADDRS	0x200 /* this many bytes, in no symbol */
#define NR_ASLR_SAMPLES (NR_PROCS * NR_PHDR_ADDRS)

static uint64_t aslr_base(int k)
{
	return ASLR_BASE + (uint64_t)k * ASLR_STEP;
}

static int write_aslr_task(struct pk_writer *w, const struct image *im, int k, uint64_t t)
{
	uint32_t pid = 1400 + 100 * (uint32_t)k;
	struct rec r;
	int err;

	start(&r, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	u32x2(&r, pid, pid);
	str(&r, "worker");
	trailer(&r, pid, pid, t, 1);
	err = emit(w, &r);
	start(&r, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);
	u32x2(&r, pid, pid);
	u64(&r, aslr_base(k) + im->start - im->base);
	u64(&r, im->len);
	u64(&r, im->pgoff);
	str(&r, im->path);
	trailer(&r, pid, pid, t + 1, 1);
	err = err ?: emit(w, &r);
	start(&r, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);
	u32x2(&r, pid, pid);
	u64(&r, aslr_base(k) + HEADER_AT);
	u64(&r, 0x1000);
	u64(&r, 0);
	str(&r, im->path);
	trailer(&r, pid, pid, t + 2, 1);
	return err ?: emit(w, &r);
}

/* A caller frame of process k: in one of the functions, or in the header
 * page. */
static uint64_t aslr_frame(const struct image *im, int k)
{
	int i = (int)(rnd() % (uint64_t)im->nr_func);

	if (rnd() % 2)
		return aslr_base(k) + HEADER_AT + PHDRS + rnd() % NR_PHDR_ADDRS;
	return aslr_base(k) + im->func[i] + 1 + rnd() % (im->size[i] - 2);
}

static int write_aslr(struct pk_writer *w, const struct image *im, uint64_t id, uint64_t t)
{
	static struct stack st[NR_PROCS][NR_PROC_STACKS];
	struct comm c = {.name = "worker"};
	int err = 0;

	for (int k = 0; k < NR_PROCS; k++) {
		for (int j = 0; j < NR_PROC_STACKS; j++) {
			struct stack *s = &st[k][j];
			int depth = 1 + (int)(rnd() % MAX_ASLR_DEPTH);

			s->n = 0;
			s->ip[s->n++] = PERF_CONTEXT_USER;
			s->ip[s->n++] = 0; /* the leaf, the sample's own */
			for (int d = 1; d < depth; d++)
				s->ip[s->n++] = aslr_frame(im, k);
		}
		err = err ?: write_aslr_task(w, im, k, t + 10 * (uint64_t)k);
	}
	for (int i = 0; i < NR_ASLR_SAMPLES && !err; i++) {
		int k = i % NR_PROCS;
		uint64_t a = rnd() % NR_PROC_STACKS, b = rnd() % NR_PROC_STACKS;
		struct stack s = st[k][a < b ? a : b];

		s.ip[1] = aslr_base(k) + HEADER_AT + PHDRS + (uint64_t)(i / NR_PROCS);
		t += 1000 + rnd() % 1000;
		c.pid = 1400 + 100 * (uint32_t)k;
		err = write_sample(w, &c, &s, id, t);
		if (!err && i % 500 == 499)
			err = pk_writer_finish_round(w);
	}
	return err;
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr = {.size = sizeof(attr), .sample_id_all = 1, .disabled = 1};
	struct pk_writer_opts o = {.sz = sizeof(o)};
	struct comm comms[] = {
		{.name = "late", .pid = 1100, .kind = WIDE},
		{.name = "calm", .pid = 1200, .kind = CALM},
		{.name = "kmix", .pid = 1300, .kind = KMIX},
	};
	int sel[3], nr_sel = 0, nr_ev = 1;
	bool aslr = false;
	static struct image im;
	uint64_t ids[2] = {1, 2}, t = 1000000000ULL, run = RUN_START;
	struct pk_writer *w;
	int err;

	if (argc != 4) {
		fprintf(stderr,
			"usage: gen_replay_records late|comms|kernel|events|aslr OUTPUT BINARY\n");
		return 2;
	}
	rnd_seed(0x2545f4914f6cdd1dULL);
	if (!strcmp(argv[1], "late")) {
		sel[nr_sel++] = 0;
	} else if (!strcmp(argv[1], "comms")) {
		sel[nr_sel++] = 0;
		sel[nr_sel++] = 1;
	} else if (!strcmp(argv[1], "kernel")) {
		sel[nr_sel++] = 2;
	} else if (!strcmp(argv[1], "events")) {
		for (int i = 0; i < 3; i++)
			sel[nr_sel++] = i;
		nr_ev = 2;
	} else if (!strcmp(argv[1], "aslr")) {
		aslr = true;
	} else {
		fprintf(stderr, "gen_replay_records: no mode %s\n", argv[1]);
		return 2;
	}
	if (read_image(&im, argv[3])) {
		fprintf(stderr, "gen_replay_records: %s: no ELF executable with functions\n",
			argv[3]);
		return 77;	/* a stripped build: nothing to resolve in */
	}
	if (aslr && !im.base) {
		fprintf(stderr, "gen_replay_records: %s: not position independent\n", argv[3]);
		return 77;
	}
	for (int i = 0; i < 3; i++)
		make_comm(&comms[i], &im);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.sample_period = PERIOD;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			   PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	attr.mmap = attr.comm = attr.task = attr.comm_exec = 1;
	err = pk_writer_open(&w, argv[2], &o);
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	err = err ?: pk_writer_add_attr(w, &attr, "cpu-clock", &ids[0], 1) < 0;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.mmap = attr.comm = attr.task = attr.comm_exec = 0;
	if (nr_ev == 2)
		err = err ?: pk_writer_add_attr(w, &attr, "task-clock", &ids[1], 1) < 0;
	err = err ?: pk_writer_add_host_features(w, argc, argv);
	err = err ?: pk_writer_start(w);
	err = err ?: write_kernel_map(w);
	if (aslr)
		err = err ?: write_aslr(w, &im, ids[0], t);
	for (int i = 0; i < nr_sel && !err; i++)
		err = write_task(w, &comms[sel[i]], &im, t + (uint64_t)i * 10);
	for (int i = 0; i < NR_SAMPLES && nr_sel && !err; i++) {
		int ev = nr_ev == 2 ? (int)(rnd() % 2) : 0;
		const struct comm *c = &comms[sel[rnd() % (uint64_t)nr_sel]];
		/* the second event turns wide later, and likes other stacks */
		int wide_at = ev ? NR_SAMPLES * 2 / 3 : NR_SAMPLES / 3;

		struct stack s = *pick(c, i, wide_at, ev == 1);

		t += 1000 + rnd() % 1000;
		if (c->kind != CALM && rnd() % 4 == 0)
			run = fresh_frame(&s, i >= wide_at, run);
		err = write_sample(w, c, &s, ids[ev], t);
		if (!err && i % 500 == 499)
			err = pk_writer_finish_round(w);
	}
	err = err ?: pk_writer_finish(w);
	if (err)
		fprintf(stderr, "gen_replay_records: %s\n", pk_writer_error(w));
	pk_writer_close(w);
	return err ? 1 : 0;
}
