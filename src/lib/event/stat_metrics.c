// SPDX-License-Identifier: MIT
/* What perf stat derives from counts, and mean/stddev over repeated runs. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <perfkit/counter.h>

void pk_stat_acc_add(struct pk_stat_acc *a, double v)
{
	double delta;

	a->n += 1;
	delta = v - a->mean;
	a->mean += delta / a->n;
	a->m2 += delta * (v - a->mean);
}

double pk_stat_acc_stddev(const struct pk_stat_acc *a)
{
	if (a->n < 2)
		return 0;
	/* Standard deviation of the mean: sample variance over n. */
	return sqrt(a->m2 / (a->n - 1) / a->n);
}

double pk_stat_acc_rel_stddev(const struct pk_stat_acc *a)
{
	return a->mean ? 100.0 * pk_stat_acc_stddev(a) / a->mean : 0;
}

static bool is_hw(const struct perf_event_attr *a, uint64_t config)
{
	return a->type == PERF_TYPE_HARDWARE && a->config == config;
}

static bool is_sw(const struct perf_event_attr *a, uint64_t config)
{
	return a->type == PERF_TYPE_SOFTWARE && a->config == config;
}

static bool is_clock(const struct perf_event_attr *a)
{
	return is_sw(a, PERF_COUNT_SW_TASK_CLOCK) || is_sw(a, PERF_COUNT_SW_CPU_CLOCK);
}

#define CACHE(type, op, res) ((type) | (op) << 8 | (res) << 16)
#define LOADS(type) CACHE(PERF_COUNT_HW_CACHE_##type, PERF_COUNT_HW_CACHE_OP_READ, \
			  PERF_COUNT_HW_CACHE_RESULT_ACCESS)
#define LOAD_MISSES(type) CACHE(PERF_COUNT_HW_CACHE_##type, PERF_COUNT_HW_CACHE_OP_READ, \
				PERF_COUNT_HW_CACHE_RESULT_MISS)

static bool is_cache(const struct perf_event_attr *a, uint64_t config)
{
	return a->type == PERF_TYPE_HW_CACHE && a->config == config;
}

void pk_stat_ctx_add(struct pk_stat_ctx *ctx, const struct perf_event_attr *a, double count)
{
	if (is_clock(a)) {
		ctx->nr_clocks += 1;
		ctx->task_clock_ns += (count - ctx->task_clock_ns) / ctx->nr_clocks;
	} else if (is_hw(a, PERF_COUNT_HW_CPU_CYCLES)) {
		ctx->cycles += count;
	} else if (is_hw(a, PERF_COUNT_HW_INSTRUCTIONS)) {
		ctx->instructions += count;
	} else if (is_hw(a, PERF_COUNT_HW_BRANCH_INSTRUCTIONS)) {
		ctx->branches += count;
	} else if (is_hw(a, PERF_COUNT_HW_CACHE_REFERENCES)) {
		ctx->cache_refs += count;
	} else if (is_hw(a, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND)) {
		ctx->stalled_front += count;
	} else if (is_hw(a, PERF_COUNT_HW_STALLED_CYCLES_BACKEND)) {
		ctx->stalled_back += count;
	} else if (is_cache(a, LOADS(L1D))) {
		ctx->l1d_loads += count;
	} else if (is_cache(a, LOADS(L1I))) {
		ctx->l1i_loads += count;
	} else if (is_cache(a, LOADS(LL))) {
		ctx->llc_loads += count;
	} else if (is_cache(a, LOADS(DTLB))) {
		ctx->dtlb_loads += count;
	} else if (is_cache(a, LOADS(ITLB))) {
		ctx->itlb_loads += count;
	}
}

static bool set(struct pk_stat_metric *out, double v, const char *fmt, const char *unit)
{
	out->value = v;
	snprintf(out->fmt, sizeof(out->fmt), "%s", fmt);
	snprintf(out->unit, sizeof(out->unit), "%s", unit);
	return true;
}

static bool ratio(struct pk_stat_metric *out, double count, double total, const char *unit)
{
	return total ? set(out, 100.0 * count / total, "%7.2f%%", unit) : false;
}

/* Events per second of task-clock, with perf's K/M/G prefix. */
static bool rate(const struct pk_stat_ctx *ctx, double count, struct pk_stat_metric *out)
{
	double r;
	const char *unit = "/sec";

	if (!ctx->nr_clocks)
		return false;
	r = ctx->task_clock_ns ? 1e9 * count / ctx->task_clock_ns : 0;
	if (r > 1e9) {
		r /= 1e9;
		unit = "G/sec";
	} else if (r > 1e6) {
		r /= 1e6;
		unit = "M/sec";
	} else if (r > 1e3) {
		r /= 1e3;
		unit = "K/sec";
	}
	return set(out, r, "%8.3f", unit);
}

/* Miss ratios of the cache events against their loads. */
static int cache_ratio(const struct pk_stat_ctx *ctx, const struct perf_event_attr *a,
		       double count, struct pk_stat_metric *out)
{
	static const struct {
		uint64_t config;
		size_t off;
		const char *unit;
	} table[] = {
		{LOAD_MISSES(L1D), offsetof(struct pk_stat_ctx, l1d_loads), "of all L1-dcache accesses"},
		{LOAD_MISSES(L1I), offsetof(struct pk_stat_ctx, l1i_loads), "of all L1-icache accesses"},
		{LOAD_MISSES(LL), offsetof(struct pk_stat_ctx, llc_loads), "of all LL-cache accesses"},
		{LOAD_MISSES(DTLB), offsetof(struct pk_stat_ctx, dtlb_loads), "of all dTLB cache accesses"},
		{LOAD_MISSES(ITLB), offsetof(struct pk_stat_ctx, itlb_loads), "of all iTLB cache accesses"},
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (!is_cache(a, table[i].config))
			continue;
		double total = *(const double *)((const char *)ctx + table[i].off);
		return total ? ratio(out, count, total, table[i].unit) : -1;
	}
	return -1;
}

bool pk_stat_metric(const struct pk_stat_ctx *ctx, const struct perf_event_attr *a, double count,
		    struct pk_stat_metric *out)
{
	memset(out, 0, sizeof(*out));
	if (is_clock(a))
		return ctx->elapsed_ns ? set(out, count / ctx->elapsed_ns, "%8.3f", "CPUs utilized")
				       : false;
	if (is_hw(a, PERF_COUNT_HW_CPU_CYCLES))
		return ctx->task_clock_ns ? set(out, count / ctx->task_clock_ns, "%8.3f", "GHz")
					  : false;
	if (is_hw(a, PERF_COUNT_HW_INSTRUCTIONS))
		return ctx->cycles ? set(out, count / ctx->cycles, "%7.2f ", "insn per cycle")
				   : false;
	if (is_hw(a, PERF_COUNT_HW_BRANCH_MISSES) && ctx->branches)
		return ratio(out, count, ctx->branches, "of all branches");
	if (is_hw(a, PERF_COUNT_HW_CACHE_MISSES) && ctx->cache_refs)
		return set(out, 100.0 * count / ctx->cache_refs, "%8.3f %%", "of all cache refs");
	if (is_hw(a, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND) && ctx->cycles)
		return ratio(out, count, ctx->cycles, "frontend cycles idle");
	if (is_hw(a, PERF_COUNT_HW_STALLED_CYCLES_BACKEND) && ctx->cycles)
		return ratio(out, count, ctx->cycles, "backend cycles idle");
	if (a->type == PERF_TYPE_HW_CACHE && cache_ratio(ctx, a, count, out) > 0)
		return true;
	return rate(ctx, count, out);
}
