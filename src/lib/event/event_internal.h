/* SPDX-License-Identifier: MIT */
/* Shared by the event module's files: symbol tables, sysfs and tracefs lookups. */
#ifndef PK_EVENT_INTERNAL_H
#define PK_EVENT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <perfkit/event.h>

/* One symbolic event: a (type, config) pair and its spellings. */
struct pki_symbol {
	const char *name;	/* perf's canonical name */
	const char *alias;	/* a second spelling, or NULL */
	uint32_t type;
	uint64_t config;
};

extern const struct pki_symbol pki_hw_symbols[];
extern const size_t pki_nr_hw_symbols;
extern const struct pki_symbol pki_sw_symbols[];
extern const size_t pki_nr_sw_symbols;

/* Look a symbolic (hardware or software) event up by any of its spellings. */
const struct pki_symbol *pki_symbol_find(const char *name, size_t len);

/* Hardware cache events: parse "L1-dcache-load-misses" into a config. */
bool pki_cache_event_parse(const char *name, size_t len, uint64_t *config);
/* perf's name for a cache config, or its error word ("invalid-cache", ...). */
int pki_cache_event_name(uint64_t config, char *buf, size_t size);
/* Whether this cache type supports this operation (perf lists only these). */
bool pki_cache_op_valid(unsigned int type, unsigned int op);
unsigned int pki_cache_nr_types(void);
const char *pki_cache_type_name(unsigned int type);

/* The sysfs and tracefs roots from the options, the environment or defaults. */
const char *pki_sysfs_root(const struct pk_event_parse_opts *opts);
const char *pki_tracefs_root(const struct pk_event_parse_opts *opts);

/* A PMU under <sysfs>/bus/event_source/devices/<name>. */
struct pki_pmu {
	char dir[512];
	uint32_t type;
};

int pki_pmu_open(struct pki_pmu *pmu, const char *sysfs, const char *name);
/*
 * Apply "term=value" (value may be NULL for a flag term: 1) to attr using
 * the PMU's format/ files.  Returns 0, -ENOENT (unknown term) or -EINVAL.
 */
int pki_pmu_apply_term(const struct pki_pmu *pmu, struct perf_event_attr *attr,
		       const char *term, uint64_t value);
/* Read events/<name> into buf (NUL-terminated); -ENOENT when absent. */
int pki_pmu_event_alias(const struct pki_pmu *pmu, const char *name, char *buf, size_t size);
/* events/<name>.scale and .unit (defaults when absent). */
void pki_pmu_event_scale_unit(const struct pki_pmu *pmu, const char *name, double *scale,
			      char **unit);
/* cpumask of the PMU (uncore), or NULL/0 when it has none. */
int pki_pmu_cpumask(const struct pki_pmu *pmu, int **cpus, int *nr);

/* Parse a CPU list "0-3,5" into a sorted array; returns count or -errno. */
int pki_cpu_list_parse(const char *s, int **cpus);

/* Tracefs: the id of sys:name, or -errno. */
long pki_tracepoint_id(const char *tracefs, const char *sys, const char *name);
/*
 * Call fn for every tracepoint whose sys and name match the globs, sorted
 * as perf list sorts, or in directory order as perf's -e globs expand.
 */
int pki_tracepoint_foreach(const char *tracefs, const char *sys_glob, const char *name_glob,
			   bool sorted,
			   int (*fn)(const char *sys, const char *name, long id, void *arg),
			   void *arg);

/* Read a small text file into buf, trailing newline removed; length or -errno. */
int pki_read_small_file(const char *path, char *buf, size_t size);

/* SDT events of perf's build-id cache ($PERF_BUILDID_DIR or ~/.debug), in
 * perf list's order and spelling; stops when fn returns non-zero. */
int pki_sdt_foreach(int (*fn)(const char *name, void *arg), void *arg);

/* The perf_event_open system call as pk_evfd_open() makes it; tests put a
 * fake kernel in its place (NULL restores the real one). */
struct perf_event_attr;
typedef long pki_evfd_syscall_fn(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
				 unsigned long flags);
void pki_evfd_set_syscall(pki_evfd_syscall_fn *fn);

/*
 * kprobe/uprobe events (event_probe.c).  Fill ev (type, config1 pointing
 * at ev->probe_target, config2, retprobe bit) from spec, "FUNC[+OFF]" or
 * "0xADDR" for kprobes, "/PATH:SYM[+OFF]" or "/PATH:0xVADDR" for uprobes.
 * Returns 0 or -errno with msg set.
 */
int pki_probe_event_init(struct pk_event *ev, const char *sysfs, bool user, bool ret,
			 const char *spec, size_t len, char *msg, size_t msgsize);
/* File offset of sym+addr (or of the vaddr addr when sym is NULL) in the
 * ELF file path. */
int pki_uprobe_offset(const char *path, const char *sym, uint64_t addr, uint64_t *off,
		      char *msg, size_t msgsize);

#endif
