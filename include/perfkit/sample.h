/* SPDX-License-Identifier: MIT */
/*
 * perfkit/sample.h - PERF_RECORD_SAMPLE decoded into a plain struct.
 *
 * pk_sample_decode() reads every PERF_SAMPLE_* field the attr asks for, in
 * the kernel's order, checking each length against the record size.  Array
 * fields point into the record (byte order of the file); read them with the
 * pk_sample_*_at() helpers, which swap when the file needs it.
 */
#ifndef PERFKIT_SAMPLE_H
#define PERFKIT_SAMPLE_H

#include <perfkit/record.h>

#ifdef __cplusplus
extern "C" {
#endif

/* sample_type bits newer than some system headers */
#define PK_SAMPLE_CGROUP         (1ULL << 21)
#define PK_SAMPLE_DATA_PAGE_SIZE (1ULL << 22)
#define PK_SAMPLE_CODE_PAGE_SIZE (1ULL << 23)
#define PK_SAMPLE_WEIGHT_STRUCT  (1ULL << 24)
#define PK_FORMAT_LOST           (1ULL << 4)
/* branch_sample_type bit (Linux 6.8): a u64 of counters per branch entry */
#define PK_SAMPLE_BRANCH_COUNTERS (1ULL << 19)

struct pk_branch_entry {
	uint64_t from, to;
	/*
	 * mispred:1 predicted:1 in_tx:1 abort:1 cycles:16 type:4 spec:2
	 * new_type:4 priv:3, from bit 0 up (the kernel's layout on a
	 * little-endian machine), whatever the byte order of the file.
	 */
	uint64_t flags;
};

struct pk_regs {
	uint64_t abi;		/* PERF_SAMPLE_REGS_ABI_*, 0 = none */
	uint64_t mask;		/* from the attr */
	uint32_t nr;		/* popcount(mask) when abi != 0 */
	const void *regs;	/* nr u64 */
};

struct pk_sample {
	uint64_t type;		/* sample_type used to decode it */
	uint16_t misc;
	uint64_t identifier;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu, res;
	uint64_t period;	/* without PERIOD: attr.sample_period (no freq) */
	struct pk_read read;

	uint64_t callchain_nr;
	const void *callchain;	/* callchain_nr u64 */

	uint32_t raw_size;
	const void *raw;	/* tracepoint data etc., never swapped */

	uint64_t branch_nr;
	uint64_t branch_hw_idx;
	bool branch_has_hw_idx;
	const void *branches;	/* branch_nr x 3 u64 */
	const void *branch_counters; /* branch_nr u64 with BRANCH_COUNTERS, or NULL */

	struct pk_regs regs_user;

	uint64_t stack_user_size;
	const void *stack_user;
	uint64_t stack_user_dyn_size;

	uint64_t weight;	/* WEIGHT, or WEIGHT_STRUCT var1_dw */
	uint16_t weight_var2;	/* WEIGHT_STRUCT only */
	uint16_t weight_var3;
	uint64_t data_src;
	uint64_t transaction;
	struct pk_regs regs_intr;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size;
	uint64_t code_page_size;
	uint64_t aux_size;
	const void *aux;

	bool swapped;		/* array fields are in the other byte order */
};

/*
 * Decode a PERF_RECORD_SAMPLE.  rec->attr must be set (the reader sets it).
 * Returns 0, -EINVAL for a malformed sample (reason in *why), -ENOTSUP when
 * rec is not a sample or has no attr.
 */
int pk_sample_decode(const struct pk_record *rec, struct pk_sample *out, const char **why);

/* Element i of the arrays above, in host byte order. */
uint64_t pk_sample_callchain_at(const struct pk_sample *s, uint64_t i);
struct pk_branch_entry pk_sample_branch_at(const struct pk_sample *s, uint64_t i);
uint64_t pk_regs_at(const struct pk_regs *regs, bool swapped, uint32_t i);
/*
 * perf's name for bit idx of a sample_regs_user/intr mask on arch (the
 * recording's uname machine, "x86_64", "aarch64", "armv7l"; NULL: x86_64),
 * or NULL when perf has none.
 */
const char *pk_reg_name(const char *arch, uint32_t idx);
struct pk_read_value pk_read_value_at(const struct pk_read *rd, bool swapped, uint64_t i);

/*
 * Decode the read_format block at p (at most len bytes) into out; returns
 * the number of bytes it used, or -EINVAL.
 */
int pk_read_decode(const void *p, size_t len, uint64_t read_format, bool swapped,
		   struct pk_read *out);

/*
 * Decode the sample_id_all trailer of a non-sample record with the given
 * sample_type.  Returns 0, or -EINVAL when the record is too short.
 */
int pk_sample_id_decode(const struct pk_record *rec, uint64_t sample_type,
			struct pk_sample_id *out);

/*
 * PERF_SAMPLE_DATA_SRC in words, as perf script prints it:
 * "|OP LOAD|LVL L1 or L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A"
 * (perf 6.1's words).  Writes at most len bytes to buf, NUL included,
 * cutting the text short when it is longer; returns the length written.
 */
size_t pk_data_src_format(uint64_t data_src, char *buf, size_t len);

/* perf's name of a page size (PERF_SAMPLE_DATA_PAGE_SIZE and
 * CODE_PAGE_SIZE): "4K", "2M", "1024B", "N/A" for 0.  Same contract. */
size_t pk_page_size_format(uint64_t size, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
