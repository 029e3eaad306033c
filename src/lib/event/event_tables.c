// SPDX-License-Identifier: MIT
/* The symbolic events perf knows by name: hardware, software and cache. */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "event_internal.h"
#include "internal.h"

#define HW(n, a, c) {n, a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c}
#define SW(n, a, c) {n, a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c}

/* Indexed by config: the name table doubles as the attr-to-name map. */
const struct pki_symbol pki_hw_symbols[] = {
	HW("cycles", "cpu-cycles", CPU_CYCLES),
	HW("instructions", NULL, INSTRUCTIONS),
	HW("cache-references", NULL, CACHE_REFERENCES),
	HW("cache-misses", NULL, CACHE_MISSES),
	HW("branches", "branch-instructions", BRANCH_INSTRUCTIONS),
	HW("branch-misses", NULL, BRANCH_MISSES),
	HW("bus-cycles", NULL, BUS_CYCLES),
	HW("stalled-cycles-frontend", "idle-cycles-frontend", STALLED_CYCLES_FRONTEND),
	HW("stalled-cycles-backend", "idle-cycles-backend", STALLED_CYCLES_BACKEND),
	HW("ref-cycles", NULL, REF_CPU_CYCLES),
};
const size_t pki_nr_hw_symbols = PK_ARRAY_SIZE(pki_hw_symbols);

const struct pki_symbol pki_sw_symbols[] = {
	SW("cpu-clock", NULL, CPU_CLOCK),
	SW("task-clock", NULL, TASK_CLOCK),
	SW("page-faults", "faults", PAGE_FAULTS),
	SW("context-switches", "cs", CONTEXT_SWITCHES),
	SW("cpu-migrations", "migrations", CPU_MIGRATIONS),
	SW("minor-faults", NULL, PAGE_FAULTS_MIN),
	SW("major-faults", NULL, PAGE_FAULTS_MAJ),
	SW("alignment-faults", NULL, ALIGNMENT_FAULTS),
	SW("emulation-faults", NULL, EMULATION_FAULTS),
	SW("dummy", NULL, DUMMY),
	SW("bpf-output", NULL, BPF_OUTPUT),
	SW("cgroup-switches", NULL, CGROUP_SWITCHES),
};
const size_t pki_nr_sw_symbols = PK_ARRAY_SIZE(pki_sw_symbols);

static bool word_is(const char *word, const char *s, size_t len)
{
	return word && strlen(word) == len && !strncasecmp(word, s, len);
}

const struct pki_symbol *pki_symbol_find(const char *name, size_t len)
{
	for (size_t i = 0; i < pki_nr_hw_symbols; i++) {
		if (word_is(pki_hw_symbols[i].name, name, len) ||
		    word_is(pki_hw_symbols[i].alias, name, len))
			return &pki_hw_symbols[i];
	}
	for (size_t i = 0; i < pki_nr_sw_symbols; i++) {
		if (word_is(pki_sw_symbols[i].name, name, len) ||
		    word_is(pki_sw_symbols[i].alias, name, len))
			return &pki_sw_symbols[i];
	}
	return NULL;
}

/* Spellings of the cache types, operations and results; the first is perf's. */
static const char *const cache_types[PERF_COUNT_HW_CACHE_MAX][5] = {
	{"L1-dcache", "l1-d", "l1d", "L1-data"},
	{"L1-icache", "l1-i", "l1i", "L1-instruction"},
	{"LLC", "L2"},
	{"dTLB", "d-tlb", "Data-TLB"},
	{"iTLB", "i-tlb", "Instruction-TLB"},
	{"branch", "branches", "bpu", "btb", "bpc"},
	{"node"},
};

/* [0] is the singular used before a result, [1] the plural used alone. */
static const char *const cache_ops[PERF_COUNT_HW_CACHE_OP_MAX][5] = {
	{"load", "loads", "read"},
	{"store", "stores", "write"},
	{"prefetch", "prefetches", "speculative-read", "speculative-load"},
};

static const char *const cache_results[PERF_COUNT_HW_CACHE_RESULT_MAX][5] = {
	{"refs", "Reference", "ops", "access"},
	{"misses", "miss"},
};

#define OPS(r, w, p) ((r) | (w) << 1 | (p) << 2)
/* Which operations each type supports, as perf's tables have it. */
static const unsigned char cache_valid_ops[PERF_COUNT_HW_CACHE_MAX] = {
	OPS(1, 1, 1), OPS(1, 0, 1), OPS(1, 1, 1), OPS(1, 1, 1), OPS(1, 0, 0), OPS(1, 0, 0),
	OPS(1, 1, 1),
};

bool pki_cache_op_valid(unsigned int type, unsigned int op)
{
	return type < PERF_COUNT_HW_CACHE_MAX && op < PERF_COUNT_HW_CACHE_OP_MAX &&
	       (cache_valid_ops[type] >> op & 1);
}

unsigned int pki_cache_nr_types(void)
{
	return PERF_COUNT_HW_CACHE_MAX;
}

const char *pki_cache_type_name(unsigned int type)
{
	return type < PERF_COUNT_HW_CACHE_MAX ? cache_types[type][0] : NULL;
}

/* Match one '-'-separated word of s against a spelling table row set. */
static int match_word(const char *const (*table)[5], int rows, const char **s, const char *end,
		      bool need_dash_or_end)
{
	int best = -1;
	size_t best_len = 0;

	for (int r = 0; r < rows; r++) {
		for (int k = 0; k < 5 && table[r][k]; k++) {
			size_t l = strlen(table[r][k]);

			if (l > (size_t)(end - *s) || strncasecmp(*s, table[r][k], l))
				continue;
			if (need_dash_or_end && *s + l != end && (*s)[l] != '-')
				continue;
			if (l > best_len) {
				best = r;
				best_len = l;
			}
		}
	}
	if (best >= 0)
		*s += best_len;
	return best;
}

bool pki_cache_event_parse(const char *name, size_t len, uint64_t *config)
{
	const char *s = name, *end = name + len;
	int type, op = -1, result = -1, w;

	type = match_word(cache_types, PERF_COUNT_HW_CACHE_MAX, &s, end, true);
	if (type < 0)
		return false;
	/* Up to two more words, an operation and a result, in either order. */
	for (int i = 0; i < 2 && s < end; i++) {
		if (*s++ != '-')
			return false;
		w = match_word(cache_ops, PERF_COUNT_HW_CACHE_OP_MAX, &s, end, true);
		if (w >= 0 && op < 0) {
			op = w;
			continue;
		}
		w = match_word(cache_results, PERF_COUNT_HW_CACHE_RESULT_MAX, &s, end, true);
		if (w >= 0 && result < 0) {
			result = w;
			continue;
		}
		return false;
	}
	if (s != end)
		return false;
	if (op < 0)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (!pki_cache_op_valid(type, op))
		return false;
	if (result < 0)
		result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	*config = (uint64_t)type | (uint64_t)op << 8 | (uint64_t)result << 16;
	return true;
}

int pki_cache_event_name(uint64_t config, char *buf, size_t size)
{
	unsigned int type = config & 0xff, op = (config >> 8) & 0xff, result = (config >> 16) & 0xff;

	if (type >= PERF_COUNT_HW_CACHE_MAX)
		return snprintf(buf, size, "unknown-ext-hardware-cache-type");
	if (op >= PERF_COUNT_HW_CACHE_OP_MAX)
		return snprintf(buf, size, "unknown-ext-hardware-cache-op");
	if (result >= PERF_COUNT_HW_CACHE_RESULT_MAX)
		return snprintf(buf, size, "unknown-ext-hardware-cache-result");
	if (!pki_cache_op_valid(type, op))
		return snprintf(buf, size, "invalid-cache");
	if (result == PERF_COUNT_HW_CACHE_RESULT_ACCESS)
		return snprintf(buf, size, "%s-%s", cache_types[type][0], cache_ops[op][1]);
	return snprintf(buf, size, "%s-%s-%s", cache_types[type][0], cache_ops[op][0],
			cache_results[result][0]);
}
