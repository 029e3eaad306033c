/* SPDX-License-Identifier: MIT */
/*
 * The profile behind the exporters: interned strings, locations,
 * functions, mappings, a trie of unique stacks (root first, so shared
 * prefixes are stored once) and per (thread, stack, event) totals.
 */
#ifndef PK_EXPORT_INTERNAL_H
#define PK_EXPORT_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <perfkit/export.h>

#define PKI_NONE UINT32_MAX

/* Open-addressing table of indices into an array kept by its owner. */
struct pki_itab {
	struct pki_islot {
		uint32_t idx; /* PKI_NONE: empty */
		uint32_t hash;
	} * slots;
	size_t cap, n;
};

typedef bool (*pki_itab_eq)(const void *ctx, uint32_t idx, const void *key);

/* The slot for key: its idx is the element's or PKI_NONE (then the
 * caller stores the new index there and calls pki_itab_added()). */
struct pki_islot *pki_itab_find(struct pki_itab *t, uint32_t hash, pki_itab_eq eq, const void *ctx,
				const void *key);
int pki_itab_added(struct pki_itab *t);
int pki_itab_reserve(struct pki_itab *t);
void pki_itab_free(struct pki_itab *t);
uint32_t pki_hash_bytes(const void *p, size_t len, uint32_t seed);

/* Grow *arr (of elem bytes) so that index n fits; 0 or -ENOMEM. */
int pki_grow(void **arr, size_t *cap, size_t n, size_t elem);

struct pki_location {
	uint32_t name;	  /* string id, PKI_NONE when unknown */
	uint32_t dso;	  /* string id, PKI_NONE when unknown */
	uint32_t mapping; /* index, PKI_NONE when unknown */
	uint64_t addr;
	uint64_t ip; /* run-time address */
	bool kernel;
};

struct pki_mapping {
	uint32_t dso;
	uint64_t start, end, pgoff;
	struct pk_build_id build_id;
};

/* A trie node: the stack parent..., loc (root first). */
struct pki_node {
	uint32_t parent; /* PKI_NONE at the root */
	uint32_t loc;
	uint32_t depth; /* frames from the root, 1 for a root frame */
};

struct pki_thread {
	int32_t pid, tid;
	uint32_t comm; /* string id */
	uint64_t nr_samples;
	uint32_t *buckets; /* timeline: samples per time bucket */
};

struct pki_event {
	uint32_t name;
	uint64_t nr_samples, period;
};

/* Totals of one stack of one thread for one event. */
struct pki_entry {
	uint32_t thread, node, event;
	uint64_t samples, period;
};

/* One line of the sample log (disk, not memory). */
struct pki_logrec {
	uint64_t time;
	uint64_t period;
	uint32_t thread, node, event, cpu;
};

struct pki_slice {
	uint64_t start, end;
	int32_t pid, tid;
	uint32_t cpu;
};

struct pki_cpu {
	uint32_t cpu;
	uint32_t *buckets;
};

struct pk_profile {
	struct pk_profile_opts opts;
	char error[512];
	struct pk_unresolved *unresolved; /* of the file read, or NULL */

	char **strs;
	size_t nr_strs, cap_strs;
	struct pki_itab str_tab;

	struct pki_location *locs;
	size_t nr_locs, cap_locs;
	struct pki_itab loc_tab;

	struct pki_mapping *maps;
	size_t nr_maps, cap_maps;
	struct pki_itab map_tab;

	struct pki_node *nodes;
	size_t nr_nodes, cap_nodes;
	struct pki_itab node_tab;

	struct pki_thread *threads;
	size_t nr_threads, cap_threads;
	struct pki_itab thread_tab;

	struct pki_event *events;
	size_t nr_events, cap_events;
	uint32_t first_event; /* event of the first sample */

	struct pki_entry *entries;
	size_t nr_entries, cap_entries;
	struct pki_itab entry_tab;

	struct pki_cpu *cpus;
	size_t nr_cpus, cap_cpus;

	struct pki_slice *slices; /* bounded: see PKI_MAX_SLICES */
	size_t nr_slices, cap_slices;
	uint64_t nr_slices_dropped;

	/* timeline: bucket i covers [t0 + i * width, t0 + (i+1) * width) */
	uint32_t nr_buckets;
	uint64_t t0, width;

	FILE *log; /* per-sample log, NULL when off or failed */
	uint64_t nr_logged;
	bool log_moved; /* read since the last append */

	uint32_t *path; /* scratch for stacks */
	size_t cap_path;

	uint64_t nr_samples, nr_lost;
	uint64_t tmin, tmax;
	char *cmdline, *hostname, *title;
	uint64_t meta_start, meta_end;
};

#define PKI_MAX_SLICES (1u << 20)

int pki_profile_intern(struct pk_profile *p, const char *s, uint32_t *id);
__attribute__((format(printf, 2, 3))) int pki_profile_fail(struct pk_profile *p, const char *fmt,
							   ...);
const char *pki_str(const struct pk_profile *p, uint32_t id);

/* Frames of node, root first, into p->path; returns the count or -ENOMEM. */
int pki_node_path(struct pk_profile *p, uint32_t node);

/* Name of a location as perf script and stackcollapse show it: the
 * function, else "[dso basename]", else "[unknown]"; written to buf. */
const char *pki_loc_label(const struct pk_profile *p, uint32_t loc, char *buf, size_t len);
const char *pki_thread_label(const struct pk_profile *p, uint32_t thread, char *buf, size_t len);

/* Output helpers: escape for JSON (safe inside <script>) and XML. */
void pki_json_str(FILE *f, const char *s);
void pki_xml_str(FILE *f, const char *s);

/* stackcollapse's form of a function name, and that form interned for
 * every location (*names: nr_locs string ids, freed by the caller). */
void pki_tidy_name(const char *in, char *out, size_t len);
int pki_loc_names(struct pk_profile *p, uint32_t **names);
/* Same, with the names as recorded (tidy_names false): for pprof. */
int pki_loc_names_as(struct pk_profile *p, uint32_t **names, bool tidy_names);

/* A tree of frames merged by label, for flame graphs. */
struct pki_fnode {
	uint32_t name; /* string id */
	uint32_t first_child, next_sibling;
	uint64_t value; /* samples in this subtree */
	uint64_t self;
};

struct pki_flame {
	struct pki_fnode *nodes; /* [0] is the root ("all") */
	size_t nr, cap;
	struct pki_itab tab; /* (parent, name) -> node */
};

/* Build the merged tree for event (PKI_NONE: all events); inverted puts
 * leaves at the root (callers view).  with_comm adds the comm as a root
 * frame as stackcollapse does. */
int pki_flame_build(struct pk_profile *p, struct pki_flame *fl, uint32_t event, bool inverted,
		    bool with_comm);
void pki_flame_free(struct pki_flame *fl);

/* Sample log: rewind and read one record at a time; 1, 0 at end, -EIO. */
int pki_log_rewind(struct pk_profile *p);
int pki_log_read(struct pk_profile *p, struct pki_logrec *rec);

int pki_export_finish(struct pk_profile *p, FILE *out);

/* Entry indices ordered by thread, then event (then insertion): callers
 * walk one thread's entries as a run.  *order is freed by the caller. */
int pki_entry_order(const struct pk_profile *p, uint32_t **order);

/* The web bundle embedded by the build, or NULL. */
extern const unsigned char *const pki_web_js;
extern const size_t pki_web_js_len;
extern const unsigned char *const pki_web_css;
extern const size_t pki_web_css_len;

#endif
