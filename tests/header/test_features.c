// SPDX-License-Identifier: MIT
/*
 * Unit tests of the feature section decoders on hand-built bytes.  Every
 * test runs twice: sections written in little-endian and in big-endian
 * (the decoder then sees swapped = true on this little-endian host).
 * Each well-formed section is also cut at every length to check that a
 * truncated section fails cleanly (or decodes its optional prefix).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "reader_internal.h"

struct buf {
	uint8_t b[8192];
	size_t len;
	bool be;
};

static void put(struct buf *w, uint64_t v, int n)
{
	for (int i = 0; i < n; i++) {
		int shift = w->be ? 8 * (n - 1 - i) : 8 * i;

		w->b[w->len++] = (uint8_t)(v >> shift);
	}
}

static void u16(struct buf *w, uint16_t v)
{
	put(w, v, 2);
}

static void u32(struct buf *w, uint32_t v)
{
	put(w, v, 4);
}

static void u64(struct buf *w, uint64_t v)
{
	put(w, v, 8);
}

static void raw(struct buf *w, const void *p, size_t n)
{
	memcpy(w->b + w->len, p, n);
	w->len += n;
}

/* perf_header_string: length padded to 8 (perf pads to 64; both occur) */
static void str(struct buf *w, const char *s)
{
	uint32_t len = (strlen(s) + 1 + 7) & ~7u;

	u32(w, len);
	memset(w->b + w->len, 0, len);
	memcpy(w->b + w->len, s, strlen(s));
	w->len += len;
}

static bool host_be(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

static int decode(struct pk_header *h, unsigned int feat, const struct buf *w, const char **why)
{
	return pki_feature_decode(h, feat, w->b, w->len, w->be != host_be(), why);
}

/* Decode successfully, then check every shorter cut fails or is accepted
 * without crashing, leaking or leaving the feature marked present on error. */
static void decode_ok(struct pk_header *h, unsigned int feat, const struct buf *w)
{
	const char *why = NULL;

	for (size_t cut = 0; cut < w->len; cut++) {
		struct pk_header t = {0};
		int err = pki_feature_decode(&t, feat, w->b, cut, w->be != host_be(), &why);

		if (err) {
			assert_int_equal(err, -EINVAL);
			assert_non_null(why);
			assert_false(pk_header_has(&t, feat));
		}
		pki_header_free(&t);
	}
	assert_int_equal(decode(h, feat, w, &why), 0);
	assert_true(pk_header_has(h, feat));
}

static void expect_einval(unsigned int feat, const struct buf *w)
{
	struct pk_header h = {0};
	const char *why = NULL;

	assert_int_equal(decode(&h, feat, w, &why), -EINVAL);
	assert_non_null(why);
	assert_false(pk_header_has(&h, feat));
	pki_header_free(&h);
}

#define BOTH_ORDERS(fn)                                                                            \
	static void fn##_le(void **state)                                                          \
	{                                                                                          \
		(void)state;                                                                       \
		fn(false);                                                                         \
	}                                                                                          \
	static void fn##_be(void **state)                                                          \
	{                                                                                          \
		(void)state;                                                                       \
		fn(true);                                                                          \
	}

static void strings(bool be)
{
	struct buf w = {.be = be};
	struct pk_header h = {0};

	str(&w, "myhost");
	decode_ok(&h, PK_FEAT_HOSTNAME, &w);
	assert_string_equal(h.hostname, "myhost");
	/* pipe mode may repeat a section: the second one replaces the first */
	w.len = 0;
	str(&w, "other");
	decode_ok(&h, PK_FEAT_HOSTNAME, &w);
	assert_string_equal(h.hostname, "other");
	decode_ok(&h, PK_FEAT_CPUID, &w);
	assert_string_equal(h.cpuid, "other");
	pki_header_free(&h);

	/* no NUL inside the length */
	w.len = 0;
	u32(&w, 4);
	raw(&w, "abcd", 4);
	expect_einval(PK_FEAT_OSRELEASE, &w);
	/* length past the end */
	w.len = 0;
	u32(&w, 1000);
	raw(&w, "ab\0\0", 4);
	expect_einval(PK_FEAT_VERSION, &w);
}
BOTH_ORDERS(strings)

static void fixed(bool be)
{
	struct buf w = {.be = be};
	struct pk_header h = {0};

	u32(&w, 8);
	u32(&w, 6);
	decode_ok(&h, PK_FEAT_NRCPUS, &w);
	assert_int_equal(h.nr_cpus_avail, 8);
	assert_int_equal(h.nr_cpus_online, 6);

	w.len = 0;
	u64(&w, 16299868);
	decode_ok(&h, PK_FEAT_TOTAL_MEM, &w);
	assert_int_equal(h.total_mem_kb, 16299868);

	w.len = 0;
	u64(&w, 1000);
	u64(&w, 3000000);
	decode_ok(&h, PK_FEAT_SAMPLE_TIME, &w);
	assert_int_equal(h.sample_time_first, 1000);
	assert_int_equal(h.sample_time_last, 3000000);

	w.len = 0;
	u64(&w, 1);
	decode_ok(&h, PK_FEAT_CLOCKID, &w);
	assert_int_equal(h.clockid_res_ns, 1);
	decode_ok(&h, PK_FEAT_DIR_FORMAT, &w);
	assert_int_equal(h.dir_format_version, 1);

	w.len = 0;
	u32(&w, 1);
	u32(&w, 1);
	u32(&w, 3);
	u32(&w, 2);
	u32(&w, 65536);
	decode_ok(&h, PK_FEAT_COMPRESSED, &w);
	assert_int_equal(h.comp_type, 1);
	assert_int_equal(h.comp_level, 3);
	assert_int_equal(h.comp_ratio, 2);
	assert_int_equal(h.comp_mmap_len, 65536);

	w.len = 0;
	u32(&w, 1);
	u32(&w, 1);
	u64(&w, 1762878703344339000ull);
	u64(&w, 1642884550397ull);
	decode_ok(&h, PK_FEAT_CLOCK_DATA, &w);
	assert_int_equal(h.clock_data_clockid, 1);
	assert_int_equal(h.clock_data_wall_ns, 1762878703344339000ull);
	assert_int_equal(h.clock_data_clockid_ns, 1642884550397ull);

	/* flags carry no data */
	w.len = 0;
	decode_ok(&h, PK_FEAT_BRANCH_STACK, &w);
	decode_ok(&h, PK_FEAT_STAT, &w);

	/* too short */
	u32(&w, 8);
	expect_einval(PK_FEAT_NRCPUS, &w);
	expect_einval(PK_FEAT_CLOCK_DATA, &w);
	pki_header_free(&h);
}
BOTH_ORDERS(fixed)

static void cmdline(bool be)
{
	struct buf w = {.be = be};
	struct pk_header h = {0};

	u32(&w, 3);
	str(&w, "/usr/bin/perf");
	str(&w, "record");
	str(&w, "true");
	decode_ok(&h, PK_FEAT_CMDLINE, &w);
	assert_int_equal(h.cmdline.nr, 3);
	assert_string_equal(h.cmdline.str[0], "/usr/bin/perf");
	assert_string_equal(h.cmdline.str[2], "true");
	pki_header_free(&h);

	/* a count that cannot fit is refused before allocating */
	w.len = 0;
	u32(&w, 0x40000000);
	str(&w, "x");
	expect_einval(PK_FEAT_CMDLINE, &w);
}
BOTH_ORDERS(cmdline)

static void build_id_event(struct buf *w, uint16_t misc, int32_t pid, uint8_t id_size,
			   const char *name)
{
	size_t name_len = (strlen(name) + 1 + 7) & ~7u;
	uint8_t id[24] = {0};

	for (int i = 0; i < 20; i++)
		id[i] = (uint8_t)(0xa0 + i);
	id[20] = id_size;
	u32(w, PK_RECORD_HEADER_BUILD_ID);
	u16(w, misc);
	u16(w, (uint16_t)(36 + name_len));
	u32(w, (uint32_t)pid);
	raw(w, id, 24);
	memset(w->b + w->len, 0, name_len);
	memcpy(w->b + w->len, name, strlen(name));
	w->len += name_len;
}

static void build_id(bool be)
{
	struct buf w = {.be = be};
	struct pk_header h = {0};

	build_id_event(&w, PERF_RECORD_MISC_KERNEL, -1, 0, "[kernel.kallsyms]");
	build_id_event(&w, PERF_RECORD_MISC_USER | (1u << 15), 42, 16, "/usr/bin/true");
	decode_ok(&h, PK_FEAT_BUILD_ID, &w);
	assert_int_equal(h.nr_build_ids, 2);
	assert_int_equal(h.build_ids[0].pid, -1);
	assert_int_equal(h.build_ids[0].build_id_size, 20);
	assert_string_equal(h.build_ids[0].filename, "[kernel.kallsyms]");
	assert_int_equal(h.build_ids[1].pid, 42);
	assert_int_equal(h.build_ids[1].build_id_size, 16);
	assert_int_equal(h.build_ids[1].build_id[0], 0xa0);
	assert_int_equal(h.build_ids[1].build_id[19], 0xa0 + 19);
	assert_string_equal(h.build_ids[1].filename, "/usr/bin/true");
	pki_header_free(&h);

	/* a record of size 0 would loop forever if accepted */
	w.len = 0;
	u32(&w, PK_RECORD_HEADER_BUILD_ID);
	u16(&w, 0);
	u16(&w, 0);
	u64(&w, 0);
	expect_einval(PK_FEAT_BUILD_ID, &w);
}
BOTH_ORDERS(build_id)

static uint64_t be_flags(bool be);

static void event_attr(struct buf *w, uint32_t size, uint32_t type, uint64_t config,
		       uint64_t sample_type)
{
	size_t start = w->len;

	u32(w, type);
	u32(w, size);
	u64(w, config);
	u64(w, 4000);
	u64(w, sample_type);
	u64(w, PERF_FORMAT_ID);
	/* flags word: disabled (bit 0) and freq (bit 10); bit order flips on
	 * big-endian, byte order too */
	u64(w, be_flags(w->be));
	while (w->len < start + size)
		w->b[w->len++] = 0;
}

static void event_desc(bool be)
{
	struct buf w = {.be = be};
	struct pk_header h = {0};

	u32(&w, 2);
	u32(&w, 112);
	event_attr(&w, 112, PERF_TYPE_HARDWARE, 0, PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	u32(&w, 2);
	str(&w, "cycles:pp");
	u64(&w, 11);
	u64(&w, 12);
	event_attr(&w, 112, PERF_TYPE_SOFTWARE, 9, PERF_SAMPLE_TIME);
	u32(&w, 0);
	str(&w, "dummy:u");
	decode_ok(&h, PK_FEAT_EVENT_DESC, &w);
	assert_int_equal(h.nr_event_desc, 2);
	assert_string_equal(h.event_desc[0].name, "cycles:pp");
	assert_int_equal(h.event_desc[0].nr_ids, 2);
	assert_int_equal(h.event_desc[0].ids[1], 12);
	assert_int_equal(h.event_desc[0].attr.size, 112);
	assert_int_equal(h.event_desc[0].attr.sample_period, 4000);
	assert_int_equal(h.event_desc[0].attr.sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	assert_int_equal(h.event_desc[0].attr.disabled, 1);
	assert_int_equal(h.event_desc[0].attr.freq, 1);
	assert_int_equal(h.event_desc[0].attr.inherit, 0);
	assert_int_equal(h.event_desc[1].attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(h.event_desc[1].attr.config, 9);
	assert_string_equal(h.event_desc[1].name, "dummy:u");
	assert_int_equal(h.event_desc[1].nr_ids, 0);
	pki_header_free(&h);

	/* attr size below the first published size */
	w.len = 0;
	u32(&w, 1);
	u32(&w, 16);
	u64(&w, 0);
	u64(&w, 0);
	u32(&w, 0);
	str(&w, "x");
	expect_einval(PK_FEAT_EVENT_DESC, &w);
	/* id count larger than the section */
	w.len = 0;
	u32(&w, 1);
	u32(&w, 64);
	event_attr(&w, 64, 0, 0, 0);
	u32(&w, 0x10000000);
	str(&w, "x");
	expect_einval(PK_FEAT_EVENT_DESC, &w);
}

static void cpu_topology(bool be)
{
	struct buf w = {.be = be};
	struct pk_header h = {0};

	h.nr_cpus_avail = 2;
	/* first revision only */
	u32(&w, 1);
	str(&w, "0-1");
	u32(&w, 2);
	str(&w, "0");
	str(&w, "1");
	decode_ok(&h, PK_FEAT_CPU_TOPOLOGY, &w);
	assert_int_equal(h.cpu_topology.core_siblings.nr, 1);
	assert_string_equal(h.cpu_topology.core_siblings.str[0], "0-1");
	assert_int_equal(h.cpu_topology.thread_siblings.nr, 2);
	assert_string_equal(h.cpu_topology.thread_siblings.str[1], "1");
	assert_null(h.cpu_topology.core_id);
	assert_int_equal(h.cpu_topology.nr_cpus, 0);

	/* second revision: core and socket id per CPU */
	u32(&w, 0);
	u32(&w, 0);
	u32(&w, 1);
	u32(&w, 0);
	decode_ok(&h, PK_FEAT_CPU_TOPOLOGY, &w);
	assert_int_equal(h.cpu_topology.nr_cpus, 2);
	assert_int_equal(h.cpu_topology.core_id[1], 1);
	assert_int_equal(h.cpu_topology.socket_id[1], 0);
	assert_null(h.cpu_topology.die_id);

	/* third revision: dies */
	u32(&w, 1);
	str(&w, "0-1");
	u32(&w, 0);
	u32(&w, 0);
	decode_ok(&h, PK_FEAT_CPU_TOPOLOGY, &w);
	assert_int_equal(h.cpu_topology.die_siblings.nr, 1);
	assert_non_null(h.cpu_topology.die_id);
	assert_int_equal(h.cpu_topology.die_id[1], 0);

	/* more CPUs than the ids present */
	h.nr_cpus_avail = 1000;
	assert_int_equal(decode(&h, PK_FEAT_CPU_TOPOLOGY, &w, &(const char *){NULL}), -EINVAL);
	assert_false(pk_header_has(&h, PK_FEAT_CPU_TOPOLOGY));
	assert_null(h.cpu_topology.core_siblings.str);
	pki_header_free(&h);
}
BOTH_ORDERS(cpu_topology)

static void numa_pmu_group(bool be)
{
	struct buf w = {.be = be};
	struct pk_header h = {0};

	u32(&w, 2);
	u32(&w, 0);
	u64(&w, 33479172);
	u64(&w, 13471416);
	str(&w, "0-7,16-23");
	u32(&w, 1);
	u64(&w, 33554432);
	u64(&w, 21360316);
	str(&w, "8-15,24-31");
	decode_ok(&h, PK_FEAT_NUMA_TOPOLOGY, &w);
	assert_int_equal(h.nr_numa_nodes, 2);
	assert_int_equal(h.numa_nodes[1].node, 1);
	assert_int_equal(h.numa_nodes[1].mem_free, 21360316);
	assert_string_equal(h.numa_nodes[1].cpus, "8-15,24-31");

	w.len = 0;
	u32(&w, 2);
	u32(&w, 4);
	str(&w, "cpu");
	u32(&w, 0xffff0000u);
	str(&w, "hwmon_acpitz");
	decode_ok(&h, PK_FEAT_PMU_MAPPINGS, &w);
	assert_int_equal(h.nr_pmu_mappings, 2);
	assert_int_equal(h.pmu_mappings[1].type, 0xffff0000u);
	assert_string_equal(h.pmu_mappings[1].name, "hwmon_acpitz");

	w.len = 0;
	u32(&w, 1);
	str(&w, "{anon_group}");
	u32(&w, 0);
	u32(&w, 2);
	decode_ok(&h, PK_FEAT_GROUP_DESC, &w);
	assert_int_equal(h.nr_groups, 1);
	assert_string_equal(h.groups[0].name, "{anon_group}");
	assert_int_equal(h.groups[0].nr_members, 2);

	w.len = 0;
	u64(&w, 2);
	u64(&w, 0x1000);
	u64(&w, 0x200);
	u64(&w, 0x2000);
	u64(&w, 0x300);
	decode_ok(&h, PK_FEAT_AUXTRACE, &w);
	assert_int_equal(h.nr_auxtrace_index, 2);
	assert_int_equal(h.auxtrace_index[1].file_offset, 0x2000);
	assert_int_equal(h.auxtrace_index[1].size, 0x300);
	pki_header_free(&h);

	w.len = 0;
	u64(&w, UINT64_MAX);
	expect_einval(PK_FEAT_AUXTRACE, &w);
	w.len = 0;
	u32(&w, UINT32_MAX);
	expect_einval(PK_FEAT_NUMA_TOPOLOGY, &w);
	expect_einval(PK_FEAT_PMU_MAPPINGS, &w);
	expect_einval(PK_FEAT_GROUP_DESC, &w);
	expect_einval(PK_FEAT_HYBRID_TOPOLOGY, &w);
	expect_einval(PK_FEAT_CPU_PMU_CAPS, &w);
	expect_einval(PK_FEAT_PMU_CAPS, &w);
}
BOTH_ORDERS(numa_pmu_group)

static void cache_mem(bool be)
{
	struct buf w = {.be = be};
	struct pk_header h = {0};

	u32(&w, 1);
	u32(&w, 2);
	u32(&w, 1);
	u32(&w, 64);
	u32(&w, 64);
	u32(&w, 8);
	str(&w, "Data");
	str(&w, "32K");
	str(&w, "0-1");
	u32(&w, 3);
	u32(&w, 64);
	u32(&w, 4096);
	u32(&w, 16);
	str(&w, "Unified");
	str(&w, "4096K");
	str(&w, "0-3");
	decode_ok(&h, PK_FEAT_CACHE, &w);
	assert_int_equal(h.nr_caches, 2);
	assert_int_equal(h.caches[1].level, 3);
	assert_int_equal(h.caches[1].ways, 16);
	assert_string_equal(h.caches[1].type, "Unified");
	assert_string_equal(h.caches[1].size, "4096K");
	assert_string_equal(h.caches[1].map, "0-3");
	/* only version 1 exists */
	w.b[be ? 3 : 0] = 2;
	expect_einval(PK_FEAT_CACHE, &w);

	w.len = 0;
	u64(&w, 1);
	u64(&w, 0x8000000);
	u64(&w, 1);
	u64(&w, 0);
	u64(&w, 70);
	u64(&w, 70);
	u64(&w, 0x3ffff);
	u64(&w, 0x3f);
	decode_ok(&h, PK_FEAT_MEM_TOPOLOGY, &w);
	assert_int_equal(h.mem_block_size, 0x8000000);
	assert_int_equal(h.nr_mem_nodes, 1);
	assert_int_equal(h.mem_nodes[0].size, 70);
	assert_int_equal(h.mem_nodes[0].map[0], 0x3ffff);
	assert_int_equal(h.mem_nodes[0].map[1], 0x3f);
	pki_header_free(&h);

	/* a bitmap larger than the section */
	w.len = 0;
	u64(&w, 1);
	u64(&w, 0x8000000);
	u64(&w, 1);
	u64(&w, 0);
	u64(&w, UINT64_MAX);
	u64(&w, UINT64_MAX);
	expect_einval(PK_FEAT_MEM_TOPOLOGY, &w);
}
BOTH_ORDERS(cache_mem)

static void caps_hybrid(bool be)
{
	struct buf w = {.be = be};
	struct pk_header h = {0};

	u32(&w, 2);
	str(&w, "branches");
	str(&w, "32");
	str(&w, "pmu_name");
	str(&w, "skylake");
	decode_ok(&h, PK_FEAT_CPU_PMU_CAPS, &w);
	assert_int_equal(h.cpu_pmu_caps.nr, 2);
	assert_string_equal(h.cpu_pmu_caps.names[1], "pmu_name");
	assert_string_equal(h.cpu_pmu_caps.values[1], "skylake");
	assert_null(h.cpu_pmu_caps.pmu_name);

	w.len = 0;
	u32(&w, 2);
	u32(&w, 1);
	str(&w, "mtc");
	str(&w, "1");
	str(&w, "intel_pt");
	u32(&w, 0);
	str(&w, "cpu_atom");
	decode_ok(&h, PK_FEAT_PMU_CAPS, &w);
	assert_int_equal(h.nr_pmu_caps, 2);
	assert_string_equal(h.pmu_caps[0].pmu_name, "intel_pt");
	assert_string_equal(h.pmu_caps[0].names[0], "mtc");
	assert_int_equal(h.pmu_caps[1].nr, 0);
	assert_string_equal(h.pmu_caps[1].pmu_name, "cpu_atom");

	w.len = 0;
	u32(&w, 2);
	str(&w, "cpu_core");
	str(&w, "0-15");
	str(&w, "cpu_atom");
	str(&w, "16-23");
	decode_ok(&h, PK_FEAT_HYBRID_TOPOLOGY, &w);
	assert_int_equal(h.nr_hybrid_nodes, 2);
	assert_string_equal(h.hybrid_nodes[1].pmu_name, "cpu_atom");
	assert_string_equal(h.hybrid_nodes[1].cpus, "16-23");
	pki_header_free(&h);
}
BOTH_ORDERS(caps_hybrid)

static void bytes_and_unknown(bool be)
{
	struct buf w = {.be = be};
	struct pk_header h = {0};
	const char *why = NULL;

	raw(&w, "tracing!", 8);
	decode_ok(&h, PK_FEAT_TRACING_DATA, &w);
	assert_int_equal(h.tracing_data_size, 8);
	assert_memory_equal(h.tracing_data, "tracing!", 8);
	decode_ok(&h, PK_FEAT_BPF_PROG_INFO, &w);
	decode_ok(&h, PK_FEAT_BPF_BTF, &w);
	assert_int_equal(h.bpf_btf_size, 8);
	/* unknown bits are ignored, not errors */
	assert_int_equal(decode(&h, 200, &w, &why), 0);
	assert_false(pk_header_has(&h, 200));
	assert_int_equal(decode(&h, PK_FEAT_RESERVED, &w, &why), 0);
	pki_header_free(&h);
	assert_null(h.tracing_data);
}
BOTH_ORDERS(bytes_and_unknown)

/* The flags word of perf_event_attr with disabled (bit 0) and freq (bit 10)
 * set, as the writing machine lays the bitfield out. */
static uint64_t be_flags(bool be)
{
	uint64_t le = (1ull << 0) | (1ull << 10);
	uint64_t out = 0;

	if (!be)
		return le;
	/* big-endian allocates bitfields from the most significant bit */
	for (int bit = 0; bit < 64; bit++)
		if (le & (1ull << bit))
			out |= 1ull << (63 - bit);
	return out;
}

BOTH_ORDERS(event_desc)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strings_le),	     cmocka_unit_test(strings_be),
		cmocka_unit_test(fixed_le),	     cmocka_unit_test(fixed_be),
		cmocka_unit_test(cmdline_le),	     cmocka_unit_test(cmdline_be),
		cmocka_unit_test(build_id_le),	     cmocka_unit_test(build_id_be),
		cmocka_unit_test(event_desc_le),     cmocka_unit_test(event_desc_be),
		cmocka_unit_test(cpu_topology_le),   cmocka_unit_test(cpu_topology_be),
		cmocka_unit_test(numa_pmu_group_le), cmocka_unit_test(numa_pmu_group_be),
		cmocka_unit_test(cache_mem_le),	     cmocka_unit_test(cache_mem_be),
		cmocka_unit_test(caps_hybrid_le),    cmocka_unit_test(caps_hybrid_be),
		cmocka_unit_test(bytes_and_unknown_le), cmocka_unit_test(bytes_and_unknown_be),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
