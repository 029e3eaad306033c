/* SPDX-License-Identifier: MIT */
/*
 * perfkit/header.h - the perf.data header: file header fields and the
 * feature sections, decoded into plain structs.
 *
 * All memory belongs to the reader that produced the struct pk_header and
 * lives until pk_reader_close().
 */
#ifndef PERFKIT_HEADER_H
#define PERFKIT_HEADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

enum pk_feature {
	PK_FEAT_RESERVED = 0,
	PK_FEAT_TRACING_DATA = 1,
	PK_FEAT_BUILD_ID,
	PK_FEAT_HOSTNAME,
	PK_FEAT_OSRELEASE,
	PK_FEAT_VERSION,
	PK_FEAT_ARCH,
	PK_FEAT_NRCPUS,
	PK_FEAT_CPUDESC,
	PK_FEAT_CPUID,
	PK_FEAT_TOTAL_MEM,
	PK_FEAT_CMDLINE,
	PK_FEAT_EVENT_DESC,
	PK_FEAT_CPU_TOPOLOGY,
	PK_FEAT_NUMA_TOPOLOGY,
	PK_FEAT_BRANCH_STACK,
	PK_FEAT_PMU_MAPPINGS,
	PK_FEAT_GROUP_DESC,
	PK_FEAT_AUXTRACE,
	PK_FEAT_STAT,
	PK_FEAT_CACHE,
	PK_FEAT_SAMPLE_TIME,
	PK_FEAT_MEM_TOPOLOGY,
	PK_FEAT_CLOCKID,
	PK_FEAT_DIR_FORMAT,
	PK_FEAT_BPF_PROG_INFO,
	PK_FEAT_BPF_BTF,
	PK_FEAT_COMPRESSED,
	PK_FEAT_CPU_PMU_CAPS,
	PK_FEAT_CLOCK_DATA,
	PK_FEAT_HYBRID_TOPOLOGY,
	PK_FEAT_PMU_CAPS,
	PK_FEAT_KNOWN_MAX, /* first feature bit we do not decode */
	PK_FEAT_BITS = 256,
};

/* perf's upper-case name of a feature ("HOSTNAME"), or NULL. */
const char *pk_feature_name(unsigned int feat);

struct pk_string_list {
	uint32_t nr;
	char **str;
};

struct pk_build_id_entry {
	uint16_t misc;		/* PERF_RECORD_MISC_* of the build_id_event */
	int32_t pid;
	uint8_t build_id_size;	/* 20 unless misc has BUILD_ID_SIZE (1 << 15) */
	uint8_t build_id[32];
	char *filename;
};

struct pk_event_desc {
	uint32_t attr_index; /* index into the reader's attrs */
	struct perf_event_attr attr; /* as stored in EVENT_DESC, host order */
	uint32_t file_attr_size;     /* the attr's own size field */
	char *name;
	uint32_t nr_ids;
	uint64_t *ids;
};

struct pk_cpu_topology {
	struct pk_string_list core_siblings;
	struct pk_string_list thread_siblings;
	uint32_t nr_cpus;	/* entries in core_id/socket_id/die_id, 0 if absent */
	uint32_t *core_id;
	uint32_t *socket_id;
	struct pk_string_list die_siblings; /* third revision */
	uint32_t *die_id;	/* NULL unless the third revision is present */
};

struct pk_numa_node {
	uint32_t node;
	uint64_t mem_total, mem_free;
	char *cpus;
};

struct pk_pmu_mapping {
	uint32_t type;
	char *name;
};

struct pk_group_desc {
	char *name;
	uint32_t leader_idx;
	uint32_t nr_members;
};

struct pk_cache_level {
	uint32_t level, line_size, sets, ways;
	char *type, *size, *map;
};

struct pk_mem_node {
	uint64_t node;
	uint64_t size;		/* bits in the map (memory blocks) */
	uint64_t *map;		/* (size + 63) / 64 words */
};

struct pk_pmu_caps {
	char *pmu_name;		/* NULL for CPU_PMU_CAPS */
	uint32_t nr;
	char **names;
	char **values;
};

struct pk_hybrid_node {
	char *pmu_name;
	char *cpus;
};

struct pk_auxtrace_index_entry {
	uint64_t file_offset, size;
};

struct pk_header {
	/* file header */
	bool pipe;
	bool swapped;
	uint64_t header_size;
	uint64_t attr_size;
	uint64_t attrs_offset, attrs_size;
	uint64_t data_offset, data_size;
	uint64_t event_types_offset, event_types_size;
	uint64_t feat_offset;
	uint64_t features[4];	/* the 256-bit feature bitmap */

	/* which feature sections were present and decoded without error */
	uint64_t have[4];

	char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	uint32_t nr_cpus_avail, nr_cpus_online;
	uint64_t total_mem_kb;
	struct pk_string_list cmdline;

	uint32_t nr_build_ids;
	struct pk_build_id_entry *build_ids;

	uint32_t nr_event_desc;
	struct pk_event_desc *event_desc;

	struct pk_cpu_topology cpu_topology;

	uint32_t nr_numa_nodes;
	struct pk_numa_node *numa_nodes;

	uint32_t nr_pmu_mappings;
	struct pk_pmu_mapping *pmu_mappings;

	uint32_t nr_groups;
	struct pk_group_desc *groups;

	uint64_t nr_auxtrace_index;
	struct pk_auxtrace_index_entry *auxtrace_index;

	uint32_t cache_version;
	uint32_t nr_caches;
	struct pk_cache_level *caches;

	uint64_t sample_time_first, sample_time_last;

	uint64_t mem_version, mem_block_size;
	uint64_t nr_mem_nodes;
	struct pk_mem_node *mem_nodes;

	uint64_t clockid_res_ns;
	uint64_t dir_format_version;

	uint32_t comp_version, comp_type, comp_level, comp_ratio, comp_mmap_len;

	struct pk_pmu_caps cpu_pmu_caps;
	uint32_t nr_pmu_caps;
	struct pk_pmu_caps *pmu_caps;

	uint32_t clock_data_version, clock_data_clockid;
	uint64_t clock_data_wall_ns, clock_data_clockid_ns;

	uint32_t nr_hybrid_nodes;
	struct pk_hybrid_node *hybrid_nodes;

	/* kept as bytes (copies owned by the header): TRACING_DATA,
	 * BPF_PROG_INFO, BPF_BTF */
	const void *tracing_data;
	uint64_t tracing_data_size;
	const void *bpf_prog_info;
	uint64_t bpf_prog_info_size;
	const void *bpf_btf;
	uint64_t bpf_btf_size;
};

static inline bool pk_header_has(const struct pk_header *h, unsigned int feat)
{
	return feat < PK_FEAT_BITS && (h->have[feat / 64] >> (feat % 64)) & 1;
}

#ifdef __cplusplus
}
#endif
#endif
