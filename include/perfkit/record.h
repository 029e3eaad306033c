/* SPDX-License-Identifier: MIT */
/*
 * perfkit/record.h - records as the reader delivers them, and their
 * decoded (typed) forms.
 *
 * A struct pk_record points at the raw bytes of one record in the byte
 * order of the file.  pk_record_decode() turns a non-sample record into a
 * struct pk_record_fields; pk_sample_decode() (perfkit/sample.h) does the
 * same for PERF_RECORD_SAMPLE.  Consumers never look at the raw bytes.
 */
#ifndef PERFKIT_RECORD_H
#define PERFKIT_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Record types written by the kernel (1..63) and by perf itself (64..). */
enum pk_record_type {
	PK_RECORD_MMAP = 1,
	PK_RECORD_LOST = 2,
	PK_RECORD_COMM = 3,
	PK_RECORD_EXIT = 4,
	PK_RECORD_THROTTLE = 5,
	PK_RECORD_UNTHROTTLE = 6,
	PK_RECORD_FORK = 7,
	PK_RECORD_READ = 8,
	PK_RECORD_SAMPLE = 9,
	PK_RECORD_MMAP2 = 10,
	PK_RECORD_AUX = 11,
	PK_RECORD_ITRACE_START = 12,
	PK_RECORD_LOST_SAMPLES = 13,
	PK_RECORD_SWITCH = 14,
	PK_RECORD_SWITCH_CPU_WIDE = 15,
	PK_RECORD_NAMESPACES = 16,
	PK_RECORD_KSYMBOL = 17,
	PK_RECORD_BPF_EVENT = 18,
	PK_RECORD_CGROUP = 19,
	PK_RECORD_TEXT_POKE = 20,
	PK_RECORD_AUX_OUTPUT_HW_ID = 21,
	PK_RECORD_KERNEL_MAX, /* first kernel type we do not know */

	PK_RECORD_HEADER_ATTR = 64,
	PK_RECORD_HEADER_EVENT_TYPE = 65,
	PK_RECORD_HEADER_TRACING_DATA = 66,
	PK_RECORD_HEADER_BUILD_ID = 67,
	PK_RECORD_FINISHED_ROUND = 68,
	PK_RECORD_ID_INDEX = 69,
	PK_RECORD_AUXTRACE_INFO = 70,
	PK_RECORD_AUXTRACE = 71,
	PK_RECORD_AUXTRACE_ERROR = 72,
	PK_RECORD_THREAD_MAP = 73,
	PK_RECORD_CPU_MAP = 74,
	PK_RECORD_STAT_CONFIG = 75,
	PK_RECORD_STAT = 76,
	PK_RECORD_STAT_ROUND = 77,
	PK_RECORD_EVENT_UPDATE = 78,
	PK_RECORD_TIME_CONV = 79,
	PK_RECORD_HEADER_FEATURE = 80,
	PK_RECORD_COMPRESSED = 81,
	PK_RECORD_FINISHED_INIT = 82,
	PK_RECORD_COMPRESSED2 = 83,
	PK_RECORD_USER_MAX, /* first perf-side type we do not know */

	PK_RECORD_TYPE_LIMIT = 128, /* size of per-type counter arrays */
};

/* misc bits of the record header */
#define PK_MISC_CPUMODE_MASK    0x7
#define PK_MISC_MMAP_BUILD_ID   (1 << 14)
#define PK_MISC_SWITCH_OUT      (1 << 13)
#define PK_MISC_SWITCH_PREEMPT  (1 << 14)
#define PK_MISC_COMM_EXEC       (1 << 13)
#define PK_MISC_EXACT_IP        (1 << 14)

/* "no time": the record carries no timestamp */
#define PK_NO_TIME UINT64_MAX

struct pk_attr;

/*
 * One record, as delivered by pk_reader_next().  The pointers stay valid
 * until the next call to pk_reader_next() or pk_reader_close().
 */
struct pk_record {
	uint32_t type;
	uint16_t misc;
	uint16_t size;		/* header.size: bytes at raw */
	uint64_t file_offset;	/* where it starts; for records unpacked from a
				 * COMPRESSED record, that record's offset */
	const void *raw;	/* size bytes, in the byte order of the file */
	bool swapped;		/* raw is in the other byte order */
	bool unpacked;		/* came out of a COMPRESSED/COMPRESSED2 record */
	const struct pk_attr *attr; /* attr it belongs to, or NULL */
	uint64_t time;		/* timestamp, or PK_NO_TIME */
	/*
	 * Bytes that follow the record in the stream without being counted in
	 * header.size: the AUXTRACE payload, the pipe-mode TRACING_DATA blob.
	 * NULL with extra_size > 0 when the reader skipped them unread.
	 */
	const void *extra;
	uint64_t extra_size;
};

/* Identity trailer of non-sample records (sample_id_all), and the same
 * fields of a sample.  'present' holds the PERF_SAMPLE_* bits found. */
struct pk_sample_id {
	uint64_t present;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu, res;
};

struct pk_build_id {
	uint8_t size;
	uint8_t data[32];
};

/* One value of a read_format block. */
struct pk_read_value {
	uint64_t value;
	uint64_t id;
	uint64_t lost;
};

/* PERF_SAMPLE_READ / PERF_RECORD_READ contents. */
struct pk_read {
	uint64_t format;	/* read_format of the attr */
	uint64_t time_enabled;
	uint64_t time_running;
	uint64_t nr;		/* 1 unless PERF_FORMAT_GROUP */
	struct pk_read_value one; /* the only value when !GROUP, else the first */
	const void *group;	/* nr raw entries when GROUP; pk_read_value_at() */
};

/* CPU map as stored in CPU_MAP and EVENT_UPDATE(CPUS) records. */
enum pk_cpu_map_kind {
	PK_CPU_MAP_CPUS = 0,	/* array of u16 cpu numbers */
	PK_CPU_MAP_MASK = 1,	/* bitmap of u32 or u64 words */
	PK_CPU_MAP_RANGE = 2,	/* start_cpu..end_cpu, plus -1 when any_cpu */
};

struct pk_cpu_map_data {
	uint16_t kind;		/* enum pk_cpu_map_kind */
	uint32_t nr;		/* cpus in the map (including the any-cpu -1) */
	uint16_t nr_entries;	/* CPUS: u16 entries; MASK: mask words */
	uint16_t long_size;	/* MASK: 4 or 8 */
	uint8_t any_cpu;	/* RANGE */
	uint16_t start_cpu, end_cpu; /* RANGE */
	const void *data;	/* CPUS: u16 array; MASK: the words */
};

/* Decoded non-sample record.  Strings point into the record, or into the
 * reader, with the lifetime of the record; they are always NUL-terminated
 * (a missing terminator in the file is a decode error). */
struct pk_record_fields {
	uint32_t type;
	bool swapped;		 /* array fields are in the other byte order */
	struct pk_sample_id sid; /* present == 0 when there is no trailer */
	union {
		struct {
			uint32_t pid, tid;
			uint64_t addr, len, pgoff;
			/* MMAP2 only: either maj..ino_generation or build_id */
			uint32_t maj, min;
			uint64_t ino, ino_generation;
			struct pk_build_id build_id;
			bool has_build_id;
			uint32_t prot, flags;
			const char *filename;
		} mmap; /* MMAP and MMAP2 */
		struct {
			uint64_t id, lost;
		} lost;
		struct {
			uint32_t pid, tid;
			const char *comm;
		} comm;
		struct {
			uint32_t pid, ppid, tid, ptid;
			uint64_t time;
		} task; /* FORK and EXIT */
		struct {
			uint64_t time, id, stream_id;
		} throttle;
		struct {
			uint32_t pid, tid;
			/* the first (for !GROUP the only) value, for convenience */
			uint64_t value, time_enabled, time_running, id, lost;
			struct pk_read values; /* every read_format */
		} read; /* PERF_RECORD_READ */
		struct {
			uint64_t aux_offset, aux_size, flags;
		} aux;
		struct {
			uint32_t pid, tid;
		} itrace_start;
		struct {
			uint64_t lost;
		} lost_samples;
		struct {
			uint32_t next_prev_pid, next_prev_tid; /* CPU_WIDE only */
		} context_switch;
		struct {
			uint32_t pid, tid;
			uint64_t nr;
			const void *link_info; /* nr pairs of u64 dev, inode */
		} namespaces;
		struct {
			uint64_t addr;
			uint32_t len;
			uint16_t ksym_type, flags;
			const char *name;
		} ksymbol;
		struct {
			uint16_t type, flags;
			uint32_t id;
			uint8_t tag[8];
		} bpf_event;
		struct {
			uint64_t id;
			const char *path;
		} cgroup;
		struct {
			uint64_t addr;
			uint16_t old_len, new_len;
			const uint8_t *old_bytes, *new_bytes;
		} text_poke;
		struct {
			uint64_t hw_id;
		} aux_output_hw_id;
		struct {
			struct perf_event_attr attr; /* host order, zero-extended */
			uint32_t attr_size;	/* as found in the record */
			uint64_t nr_ids;
			const void *ids;	/* nr_ids u64: pk_u64_at() */
		} attr; /* HEADER_ATTR */
		struct {
			uint64_t event_id;
			const char *name;	/* points to name_buf: re-point after a copy */
			char name_buf[65];	/* old perf may drop the NUL */
		} event_type;
		struct {
			uint32_t size;
		} tracing_data;
		struct {
			int32_t pid;
			struct pk_build_id build_id;
			const char *filename;
		} build_id;
		struct {
			uint64_t nr;
			uint32_t entry_words;	/* 4, or 6 with machine_pid/vcpu */
			const void *entries; /* use pk_id_index_entry() */
		} id_index;
		struct {
			uint32_t type;
			uint64_t nr_priv;
			const void *priv;	/* nr_priv u64: pk_u64_at() */
		} auxtrace_info;
		struct {
			uint64_t size, offset, reference;
			uint32_t idx, tid, cpu;
		} auxtrace;
		struct {
			uint32_t type, code, cpu, pid, tid, fmt;
			uint64_t ip, time;		/* time: fmt >= 1 */
			uint32_t machine_pid, vcpu;	/* fmt >= 2 */
			const char *msg;
		} auxtrace_error;
		struct {
			uint64_t nr;
			const void *entries; /* use pk_thread_map_entry() */
		} thread_map;
		struct pk_cpu_map_data cpu_map;
		struct {
			uint64_t nr;
			const void *data; /* nr pairs of u64 tag, value: pk_u64_at() */
		} stat_config;
		struct {
			uint64_t id;
			uint32_t cpu, thread;
			uint64_t val, ena, run;
		} stat;
		struct {
			uint64_t type, time;
		} stat_round;
		struct {
			uint64_t type, id;	/* type: PK_EVENT_UPDATE_* */
			const char *name;	/* UNIT and NAME */
			double scale;		/* SCALE */
			struct pk_cpu_map_data cpus; /* CPUS */
		} event_update;
		struct {
			uint64_t time_shift, time_mult, time_zero;
			uint64_t time_cycles, time_mask;
			uint8_t cap_user_time_zero, cap_user_time_short;
			bool has_cycles;
		} time_conv;
		struct {
			uint64_t feat_id;
			const void *data;
			uint64_t size;
		} feature;
		struct {
			const void *data;
			uint64_t size;
		} compressed; /* COMPRESSED and COMPRESSED2 */
	};
};

/* perf's name of a record type, as in "perf report --stats" ("MMAP",
 * "FINISHED_ROUND", "ATTR", ...); NULL for a type we do not know. */
const char *pk_record_type_name(uint32_t type);

/*
 * Decode a non-sample record.  Returns 0, or -EINVAL when the record is
 * malformed (the reason in *why when why is not NULL; a static string),
 * or -ENOTSUP for PK_RECORD_SAMPLE and unknown types.
 */
int pk_record_decode(const struct pk_record *rec, struct pk_record_fields *out,
		     const char **why);

/* EVENT_UPDATE record types */
enum pk_event_update_type {
	PK_EVENT_UPDATE_UNIT = 0,
	PK_EVENT_UPDATE_SCALE = 1,
	PK_EVENT_UPDATE_NAME = 2,
	PK_EVENT_UPDATE_CPUS = 3,
};

/* misc bit of HEADER_BUILD_ID: build_id.size is valid (else 20 bytes) */
#define PK_MISC_BUILD_ID_SIZE (1 << 15)

/* Element i of an array of u64 inside a decoded record, in host order. */
uint64_t pk_u64_at(const void *base, bool swapped, uint64_t i);

/* i-th cpu of a decoded map (i < m->nr), -1 for "any cpu"; -1 also when i
 * is out of range. */
int32_t pk_cpu_map_at(const struct pk_cpu_map_data *m, bool swapped, uint32_t i);

struct pk_id_index_entry {
	uint64_t id, idx, cpu, tid;
	uint64_t machine_pid, vcpu; /* 0 when the file has no such fields */
};

/* i-th entry of an ID_INDEX record decoded by pk_record_decode(). */
int pk_id_index_entry(const struct pk_record *rec, uint64_t i, struct pk_id_index_entry *out);

struct pk_thread_map_entry {
	uint64_t pid;
	const char *comm; /* may not be NUL-terminated in the file: copied */
	char comm_buf[17];
};

int pk_thread_map_entry(const struct pk_record *rec, uint64_t i, struct pk_thread_map_entry *out);

#ifdef __cplusplus
}
#endif
#endif
