/* SPDX-License-Identifier: MIT */
/* Session internals: threads, maps, DSOs of one recorded machine. */
#ifndef PK_SESSION_INTERNAL_H
#define PK_SESSION_INTERNAL_H

#include <perfkit/session.h>

struct tep_handle;
struct pki_unwinder;
struct pki_inlines;

struct pk_dso {
	char *name;		/* as in the MMAP record (or perf's rename) */
	const char *short_name;	/* points into name, or jit_name */
	char jit_name[32];
	struct pk_build_id bid;
	bool kernel;
	bool identity;		/* addresses are not file offsets */
	bool loaded;		/* symtab load attempted */
	int kind;		/* enum pki_dso_kind */
	uint32_t serial;	/* creation order: 0, 1, ... (perf compares
				 * DSOs by address, which follows it) */
	struct pk_symtab *symtab; /* NULL when nothing could be loaded */
	/* the kernel's symbols came from a vmlinux (-k): its .text, where the
	 * kernel ran, is all the kernel map covers, as in perf */
	bool has_text;
	uint64_t text_start, text_end;
	uint64_t nr_samples;	/* samples whose ip is here (unresolved.c) */
	uint64_t nr_unresolved;	/* of these, the ones without a symbol */
	struct pk_dso *next;	/* session's list */
};

enum pki_dso_kind { PKI_DSO_ELF, PKI_DSO_KERNEL, PKI_DSO_PERF_MAP, PKI_DSO_NONE };

struct pki_map {
	uint64_t start, end, pgoff;
	struct pk_dso *dso;
};

/* Maps of one process, shared by its threads. */
struct pki_maps {
	int refs;
	struct pki_map *v;
	size_t nr, alloc;
	uint64_t gen;		/* changes with every insert; the session's
				 * pki_maps_stamp() makes it unique among
				 * all the maps it ever had */
	struct pki_unwinder *unwinder; /* DWARF unwinding state, or NULL */
};

struct pk_thread {
	int32_t pid, tid;
	char *comm;
	struct pki_maps *maps;
	struct pk_thread *hash_next;
	struct pk_thread *all_next;
};

#define PKI_THREAD_BUCKETS 4096
#define PKI_ADDR_CACHE 16384

struct pki_addr_cache_entry {
	const struct pk_dso *dso;
	uint64_t addr;
	const struct pk_symbol *sym;
};

/*
 * Resolved addresses, kept per (maps version, cpumode, address) in a
 * direct-mapped table.  A system-wide recording's callchains name a few
 * thousand distinct frames millions of times; resolving one takes a
 * binary search of the maps and a symbol lookup, while this table is small
 * enough to stay in the CPU's cache.  A new mapping stamps a new maps
 * version, so the process' old entries miss from then on.
 */
#define PKI_LOC_CACHE_BITS 13
#define PKI_LOC_CACHE	   (1u << PKI_LOC_CACHE_BITS)

struct pki_loc_entry {
	const struct pki_maps *maps;
	uint64_t gen;
	struct pk_location loc; /* loc.ip and loc.cpumode are the key too */
};

/* Per-thread counter totals of PERF_RECORD_READ (thread_counts.c). */
struct pki_thread_counts {
	int32_t *pid, *tid; /* by row */
	size_t nr_threads, alloc_threads;
	uint64_t *sums; /* [row * nr_attrs + attr index] */
	uint32_t *slots; /* row + 1 by pid/tid hash */
	size_t nr_slots;
	uint32_t nr_attrs;
	uint32_t *order; /* attr indexes, as they first came */
	size_t nr_order;
	bool *seen;			 /* by attr index */
	const struct pk_attr **counters; /* what pk_session_thread_counts() */
	uint64_t *values;		 /* last handed out */
	bool full;			 /* MAX_SUMS reached */
};

struct pk_session {
	struct pk_reader *reader;
	struct pk_session_opts opts;
	char error[512];
	struct pk_thread *threads[PKI_THREAD_BUCKETS];
	struct pk_thread *all_threads;
	struct pki_maps *kernel_maps;
	bool have_kernel_mmap;
	struct pk_dso *dsos;
	struct pk_dso *kernel_dso;
	/* recorded address of the kernel's reference symbol (_text) */
	const char *kref_name;
	uint64_t kref_addr;
	uint64_t nr_bad_samples;
	uint64_t nr_samples;	/* samples delivered */
	uint64_t lost_samples;
	struct pki_addr_cache_entry *cache;
	struct pki_loc_entry *locs;	/* PKI_LOC_CACHE entries */
	uint64_t maps_clock;	/* the last maps version handed out */
	struct tep_handle *tep;	/* tracepoint formats, parsed on first use */
	bool tep_failed;
	struct pki_inlines *inlines; /* inlined frames found by unwinding */
	struct pki_thread_counts counts; /* perf record -s totals */
};

/* thread_counts.c */
int pki_thread_counts_add(struct pk_session *s, const struct pk_attr *attr, int32_t pid,
			  int32_t tid, uint64_t value);
void pki_thread_counts_free(struct pki_thread_counts *c);

/* threads.c */
struct pk_thread *pki_thread_find(struct pk_session *s, int32_t tid);
struct pk_thread *pki_thread_findnew(struct pk_session *s, int32_t pid, int32_t tid);
int pki_thread_set_comm(struct pk_thread *t, const char *comm);
int pki_thread_fork(struct pk_session *s, int32_t pid, int32_t tid, int32_t ppid, int32_t ptid);
void pki_threads_free(struct pk_session *s);

/* maps.c */
struct pki_maps *pki_maps_new(void);
struct pki_maps *pki_maps_clone(const struct pki_maps *m);
void pki_maps_put(struct pki_maps *m);
int pki_maps_insert(struct pki_maps *m, const struct pki_map *map);
const struct pki_map *pki_maps_find(const struct pki_maps *m, uint64_t addr);

/* Give m a version no maps of the session had before: the location cache
 * tells maps apart by (pointer, gen), and a freed maps' memory is reused. */
static inline void pki_maps_stamp(struct pk_session *s, struct pki_maps *m)
{
	if (m)
		m->gen = ++s->maps_clock;
}

static inline struct pki_loc_entry *pki_loc_slot(struct pk_session *s, const struct pki_maps *m,
						 uint8_t cpumode, uint64_t addr)
{
	uint64_t h = (addr ^ ((uintptr_t)m >> 4) ^ (m->gen << 20) ^ cpumode) *
		     0x9E3779B97F4A7C15ULL;

	return &s->locs[h >> (64 - PKI_LOC_CACHE_BITS)];
}

/* dso.c */
struct pk_dso *pki_dso_findnew(struct pk_session *s, const char *name,
			       const struct pk_build_id *bid, bool kernel);
const struct pk_symbol *pki_dso_lookup(struct pk_session *s, struct pk_dso *d, uint64_t addr);
/* Load d's symbols now if they are not yet (they are, on first lookup). */
void pki_dso_load(struct pk_session *s, struct pk_dso *d);
void pki_dsos_free(struct pk_session *s);

/* unresolved.c: count a delivered sample for pk_session_unresolved() */
static inline void pki_count_sample(struct pk_session *s, const struct pk_location *loc)
{
	/* the session owns its DSOs; locations only hand them out const */
	struct pk_dso *d = (struct pk_dso *)loc->dso;

	s->nr_samples++;
	if (!d)
		return;
	d->nr_samples++;
	d->nr_unresolved += !loc->sym;
}

/* tracepoint.c */
void pki_session_trace_free(struct pk_session *s);

/* machine.c */
int pki_machine_process(struct pk_session *s, const struct pk_record *rec);

#endif
