/* SPDX-License-Identifier: MIT */
/*
 * perfkit/report.h - summaries of a recording.
 */
#ifndef PERFKIT_REPORT_H
#define PERFKIT_REPORT_H

#include <perfkit/reader.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Per-event counts, as in "perf report --stats". */
struct pk_attr_stats {
	uint64_t nr_samples;
	uint64_t nr_lost_samples;	/* samples lost, summed over LOST_SAMPLES */
};

/* Record counts of a whole recording. */
struct pk_record_stats {
	uint64_t nr[PK_RECORD_TYPE_LIMIT];	/* records of each type */
	uint64_t total;
	uint64_t nr_unknown_id;		/* samples that matched no attr */
	uint64_t lost;			/* sum of LOST records' counts */
	bool has_auxtrace;		/* AUXTRACE_INFO was seen */
	uint32_t nr_attrs;
	struct pk_attr_stats *attrs;	/* nr_attrs, same order as the reader's */
};

/*
 * Read every remaining record of r in file order and count them.  On
 * success returns 0; on a read error returns the negative errno with the
 * counts of the records before the fault filled in.  Free with
 * pk_record_stats_free() in both cases.
 */
int pk_record_stats_collect(struct pk_reader *r, struct pk_record_stats *out);
void pk_record_stats_free(struct pk_record_stats *st);

/*
 * Histograms, as perf report builds them (declarations of the analysis
 * module, src/lib/report/).  Samples are grouped by the sort keys; each
 * entry has its own ("self") period and, with callchains, the period of
 * the samples it appears in ("children").  Memory belongs to the pk_hist.
 */
struct pk_session;
struct pk_dso;
struct pk_symbol;

enum pk_hist_key {
	PK_HIST_KEY_COMM,
	PK_HIST_KEY_PID, /* perf's "pid": thread id and comm */
	PK_HIST_KEY_DSO,
	PK_HIST_KEY_SYM,
	PK_HIST_KEY_CPU,
	PK_HIST_KEY_TRACE, /* perf's "trace": a tracepoint's formatted
			    * fields ("N/A" for other events) */
	PK_HIST_KEY_PARENT, /* perf's "parent": the first function of the
			     * callchain matching pk_hist_opts.parent_regex */
	PK_HIST_KEY_TIME, /* perf's "time": the sample's time, rounded down
			   * to pk_hist_opts.time_quantum */
	PK_HIST_KEY_MAX,
};

/* Key by perf's --sort name ("comm", "pid", "dso", "sym", "cpu", "trace",
 * "parent", "time"); -1 if unknown. */
int pk_hist_key_parse(const char *name, size_t len);

/* One step of pk_hist_opts.order. */
enum pk_hist_by_what {
	PK_HIST_BY_CHILDREN = 1, /* children period, callers first on ties */
	PK_HIST_BY_SELF,	 /* self period (then group members') */
	PK_HIST_BY_SAMPLES,	 /* number of samples */
	PK_HIST_BY_KEY,		 /* the key's order */
};

struct pk_hist_by {
	enum pk_hist_by_what what;
	enum pk_hist_key key; /* PK_HIST_BY_KEY */
};

/*
 * The names of a --symbols list as perf reads it: an entry that is a
 * whole hex number ("fc", "0x1250") filters by address, the others by
 * name.  Writes the names, comma separated, to out (at most len bytes,
 * NUL-terminated when len > 0) and returns how many there are.
 */
size_t pk_hist_symbol_names(const char *list, char *out, size_t len);

struct pk_hist_opts {
	size_t sz;			/* sizeof(struct pk_hist_opts) */
	const enum pk_hist_key *keys;	/* NULL: comm, dso, sym */
	uint32_t nr_keys;
	bool children;			/* accumulate callchain entries */
	/* filters: comma separated lists, NULL for none */
	const char *comms, *pids, *tids, *dsos, *symbols;
	int callchain;			/* enum pk_callchain_order: trees under
					 * the entries, 0 for none */
	uint32_t nr_threads;		/* 0: as many as help (up to three,
					 * by the CPUs usable), 1: the
					 * caller's thread only, n: up to n */
	int group;			/* enum pk_hist_group, 0: no groups */
	int32_t max_stack;		/* frames of each callchain used (perf's
					 * --max-stack): 0 for perf's default
					 * (127), negative for none */
	bool hide_unresolved;		/* drop samples and callchain frames
					 * without a symbol (perf's -U) */
	/*
	 * 0: every entry's call tree complete.  Above 0: a hint that only
	 * the trees of entries whose callchain period (children with
	 * children, else self) reaches this percentage of their event's
	 * total_period will be read (perf report draws no branch of the
	 * others in its graph, flat and folded modes at that limit).  The
	 * others may then get a root without children that has only its
	 * max_depth.  Trees of entries that merge with others are kept.
	 */
	double callchain_min_percent;
	/* Keys the final order of the entries skips, bit (1 << key): perf's
	 * output order skips a key whose column it hides because a filter
	 * names a single value (--comms one); other orders keep it. */
	uint32_t elided_keys;
	/* The final order of the entries, step by step (perf orders by the
	 * columns -F names, after the --sort keys); NULL for the default:
	 * children (with children), self, then the keys.  Keys named must be
	 * among keys. */
	const struct pk_hist_by *order;
	uint32_t nr_order;
	/* Samples this filter rejects are dropped before anything counts
	 * them (perf report's --cpu and --time; the filters above hide
	 * instead); NULL keeps all.  Borrowed until pk_hist_build() returns. */
	const struct pk_sample_filter *keep;
	/* perf's second pass merging entries equal under the keys (which only
	 * a comm key given to --sort turns on in perf) left out: set when the
	 * keys came from -F, or from --sort without comm. */
	bool no_collapse;
	/* perf's symbol key compares the DSOs' names first unless the DSO
	 * is one of its --sort keys: set when the DSO key came from -F alone
	 * (the symbol key then still compares them). */
	bool dso_from_fields;
	/* The parent key (perf's -p): the first callchain frame, walked in
	 * parent_order, whose symbol name this extended regex matches; NULL
	 * for perf's default, "^sys_|^do_page_fault".  Only read with
	 * PK_HIST_KEY_PARENT among the keys. */
	const char *parent_regex;
	int parent_order;		/* enum pk_callchain_order: CALLER walks
					 * from the outermost frame, else from
					 * the sample's own (also for
					 * ignore_callees) */
	/* Entries without a parent are hidden as the filters' are (perf's
	 * -x); without the parent key, that is all of them. */
	bool exclude_other;
	/* perf's --ignore-callees: in a callchain read (children, call
	 * trees or the parent key), the last frame in parent_order whose
	 * symbol name this extended regex matches (and that is not the
	 * parent) takes the sample's place, its callees left out; NULL for
	 * none. */
	const char *ignore_callees;
	/* The time key's unit in ns (perf's --time-quantum); 0 for perf's
	 * default, 100 ms. */
	uint64_t time_quantum;
	/* The trace key's values raw (perf's --raw-trace):
	 * pk_session_trace_format_raw()'s, not the print line's. */
	bool raw_trace;
};

/*
 * Event groups (perf report's group view).  A group's events share one
 * histogram, that of its leader: every entry any member has, with each
 * member's values side by side; entries only members hit have zeros for
 * the leader.  Members then have no pk_hist_event of their own.
 */
enum pk_hist_group {
	PK_HIST_GROUP_NONE,	/* every event on its own */
	PK_HIST_GROUP_FILE,	/* the groups the file describes
				 * (HEADER_GROUP_DESC) */
	PK_HIST_GROUP_ALL,	/* as FILE; a file without groups gets one
				 * of all its events, led by the first
				 * (perf report --group) */
};

/* One member's values in a group entry. */
struct pk_hist_value {
	uint64_t self, children, nr_samples;
};

/* One event of a group, the leader first. */
struct pk_hist_member {
	const struct pk_attr *attr;
	uint64_t nr_samples;
	uint64_t total_period;
};

struct pk_thread;
struct pk_callchain_node;

struct pk_hist_entry {
	const char *comm;		/* interned, lives with the pk_hist */
	const struct pk_thread *thread;	/* lives with the session */
	int32_t pid, tid;
	uint32_t cpu;
	const struct pk_dso *dso;	/* NULL: no map */
	const struct pk_symbol *sym;	/* NULL: unresolved */
	uint64_t addr;			/* DSO-relative address (unresolved) */
	uint64_t first_addr;		/* DSO-relative address that made the
					 * entry: perf shows a data object as
					 * "name+offset" from it */
	char level;			/* 'k' kernel, '.' user, 'H' hypervisor */
	bool hidden;			/* internal: made by a sample the filters
					 * reject; never set in returned entries */
	uint64_t self;			/* period of the samples here */
	uint64_t children;		/* self + samples calling through here */
	uint64_t nr_samples;
	struct pk_callchain_node *callchain; /* call tree, NULL without one */
	/* in a group: the values of each member (pk_hist_event.members
	 * order; [0] repeats self, children, nr_samples); else NULL */
	const struct pk_hist_value *members;
	const char *trace; /* the trace key's value, interned, lives
			    * with the pk_hist; else NULL */
	const char *parent; /* the parent key's symbol name, interned,
			     * lives with the pk_hist; NULL: none ("[other]") */
	uint64_t time;	    /* the time key's: ns, a multiple of the quantum
			     * (0 without the key or a sample time) */
};

/* One event (attr) of the recording with its sorted entries. */
struct pk_hist_event {
	const struct pk_attr *attr;
	uint64_t nr_samples;
	uint64_t total_period;
	uint64_t nr_entries;
	const struct pk_hist_entry *entries; /* sorted as perf prints them */
	/* the group it leads: 1 and the event itself outside groups;
	 * nr_samples and total_period above are the leader's own */
	uint32_t nr_members;
	const struct pk_hist_member *members;
	const char *group_name;		/* named group, else NULL */
	bool group_forced;		/* made by PK_HIST_GROUP_ALL */
};

struct pk_hist;

/*
 * Read every sample of the session and build the histograms.  Returns 0
 * and *out (free with pk_hist_free()), or a negative errno (the session's
 * error says why).
 */
int pk_hist_build(struct pk_hist **out, struct pk_session *s, const struct pk_hist_opts *opts);
void pk_hist_free(struct pk_hist *h);

/* Events with at least one sample, in attr order. */
uint32_t pk_hist_nr_events(const struct pk_hist *h);
const struct pk_hist_event *pk_hist_event(const struct pk_hist *h, uint32_t i);

/*
 * Samples and period of the entries of an event (member m of its group,
 * 0 for the leader or a lone event), that is of the samples the filters
 * kept: perf's totals with --percentage relative.
 */
void pk_hist_event_kept(const struct pk_hist_event *ev, uint32_t m, uint64_t *nr_samples,
			uint64_t *period);

/* Sum of the LOST_SAMPLES records. */
uint64_t pk_hist_lost_samples(const struct pk_hist *h);

/*
 * Call trees under histogram entries (perf report -g).  Each entry gets
 * the callchains of its samples (with children, the part of the chain
 * from the entry on) merged into a tree with one node per distinct call
 * path prefix.  The root node (pk_hist_entry.callchain) stands for no
 * frame: its children are the first frames of the chains.  The tree
 * belongs to the pk_hist.
 */
enum pk_callchain_order {
	PK_CALLCHAIN_NONE,	/* no trees */
	PK_CALLCHAIN_CALLEE,	/* chains start at the sampled function */
	PK_CALLCHAIN_CALLER,	/* chains start at the outermost caller */
};

struct pk_callchain_node {
	const struct pk_symbol *sym;	/* NULL: unresolved, see ip */
	const struct pk_dso *dso;	/* NULL: in no map */
	uint64_t ip;			/* address as recorded */
	uint64_t hit;			/* period of the chains ending here */
	uint64_t children_hit;		/* period of the chains going on */
	const struct pk_callchain_node *parent;	/* NULL for the root */
	uint32_t max_depth;		/* root: frames of the longest chain */
	uint32_t tree_rank;		/* place among its siblings in perf's
					 * tree order (DSO, symbol, address) */
	uint32_t nr_children;
	/* by hit + children_hit, largest first, then by tree_rank */
	struct pk_callchain_node **children;
};


/*
 * Branch mode (perf report with branch stacks, the default when the
 * samples carry PERF_SAMPLE_BRANCH_STACK): every branch-stack entry of a
 * sample counts once, keyed by where it came from and went to.  Both ends
 * resolve through the sample's thread at sample time, kernel maps first,
 * then the process's; an address in neither has no DSO and level 'H'.
 */
enum pk_branch_key {
	PK_BRANCH_KEY_COMM,
	PK_BRANCH_KEY_PID,
	PK_BRANCH_KEY_DSO,		/* of the target, as perf's "dso" */
	PK_BRANCH_KEY_SYM,		/* of the target, as perf's "symbol" */
	PK_BRANCH_KEY_CPU,
	PK_BRANCH_KEY_DSO_FROM,
	PK_BRANCH_KEY_DSO_TO,
	PK_BRANCH_KEY_SYM_FROM,
	PK_BRANCH_KEY_SYM_TO,
	PK_BRANCH_KEY_MISPREDICT,
	PK_BRANCH_KEY_IN_TX,
	PK_BRANCH_KEY_ABORT,
	PK_BRANCH_KEY_CYCLES,
	PK_BRANCH_KEY_IPC,		/* perf's ipc_lbr: split by target */
	PK_BRANCH_KEY_MAX,
};

/* Key by perf's --sort name (a prefix is enough, as in perf: "sym" is
 * "symbol"); -1 if unknown.  ipc_lbr is never parsed: perf adds it. */
int pk_branch_key_parse(const char *name, size_t len);

/* One end of a branch. */
struct pk_branch_side {
	uint64_t addr;			/* as recorded */
	uint64_t al_addr;		/* DSO-relative; addr when in no map */
	const struct pk_dso *dso;	/* NULL: in no map */
	const struct pk_symbol *sym;	/* NULL: unresolved */
	char level;			/* 'k', '.', or 'H' for no map */
};

struct pk_branch_hist_entry {
	const char *comm;		/* interned, lives with the hist */
	const struct pk_thread *thread;	/* lives with the session */
	int32_t pid, tid;
	uint32_t cpu;
	char level;			/* the sample's: 'k', '.' or 'H' */
	struct pk_branch_side from, to;
	bool mispred, predicted, in_tx, abort;
	uint16_t cycles;
	uint8_t type;			/* PERF_BR_* */
	uint64_t count;			/* branches that landed here */
};

struct pk_branch_hist_event {
	const struct pk_attr *attr;
	uint64_t nr_branches;		/* perf's "Samples" and event count */
	uint64_t nr_entries;
	const struct pk_branch_hist_entry *entries; /* in perf's order */
};

struct pk_branch_hist_opts {
	size_t sz;			/* sizeof(struct pk_branch_hist_opts) */
	const enum pk_branch_key *keys;	/* NULL: perf's branch default,
					 * comm,dso_from,symbol_from,symbol_to,
					 * cycles */
	uint32_t nr_keys;
	/* filters on the sample (not the branches), as pk_hist_opts */
	const char *comms, *pids, *tids, *dsos, *symbols;
};

struct pk_branch_hist;

/* Whether any event of the recording samples branch stacks. */
bool pk_session_has_branch_stack(struct pk_session *s);

/*
 * Read every sample of the session and build the branch histograms.
 * Returns 0 and *out (free with pk_branch_hist_free()), or a negative
 * errno (-EINVAL: bad keys or filter list).
 */
int pk_branch_hist_build(struct pk_branch_hist **out, struct pk_session *s,
			 const struct pk_branch_hist_opts *opts);
void pk_branch_hist_free(struct pk_branch_hist *h);
/* Events with at least one branch, in attr order. */
uint32_t pk_branch_hist_nr_events(const struct pk_branch_hist *h);
const struct pk_branch_hist_event *pk_branch_hist_event(const struct pk_branch_hist *h,
							 uint32_t i);
uint64_t pk_branch_hist_lost_samples(const struct pk_branch_hist *h);

#ifdef __cplusplus
}
#endif
#endif
