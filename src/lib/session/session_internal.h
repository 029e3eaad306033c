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
	struct pk_symtab *symtab; /* NULL when nothing could be loaded */
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
	uint64_t gen;		/* changes with every insert */
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
#define PKI_ADDR_CACHE 65536

struct pki_addr_cache_entry {
	const struct pk_dso *dso;
	uint64_t addr;
	const struct pk_symbol *sym;
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
	uint64_t lost_samples;
	struct pki_addr_cache_entry *cache;
	struct tep_handle *tep;	/* tracepoint formats, parsed on first use */
	bool tep_failed;
	struct pki_inlines *inlines; /* inlined frames found by unwinding */
};

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

/* dso.c */
struct pk_dso *pki_dso_findnew(struct pk_session *s, const char *name,
			       const struct pk_build_id *bid, bool kernel);
const struct pk_symbol *pki_dso_lookup(struct pk_session *s, struct pk_dso *d, uint64_t addr);
void pki_dsos_free(struct pk_session *s);

/* tracepoint.c */
void pki_session_trace_free(struct pk_session *s);

/* machine.c */
int pki_machine_process(struct pk_session *s, const struct pk_record *rec);

#endif
