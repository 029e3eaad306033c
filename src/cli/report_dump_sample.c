// SPDX-License-Identifier: MIT
/*
 * perfkit report -D: a sample, every field its sample_type has.  The
 * summary line and the callchain, branch and weight lines follow perf's
 * layout; fields perf does not print get lines in the same "... name:"
 * style.
 */
#include <inttypes.h>
#include "cli.h"
#include "report_dump.h"

static void dump_read_value(FILE *out, const char *indent, struct pk_read_value v, uint64_t format)
{
	fprintf(out, "%s id %016" PRIx64 ", value %016" PRIx64, indent, v.id, v.value);
	if (format & PK_FORMAT_LOST)
		fprintf(out, ", lost %" PRIu64, v.lost);
	fputc('\n', out);
}

static void dump_read(FILE *out, const struct pk_sample *s)
{
	const struct pk_read *rd = &s->read;

	fprintf(out, "... sample_read:\n");
	if (rd->format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		fprintf(out, "...... time enabled %016" PRIx64 "\n", rd->time_enabled);
	if (rd->format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		fprintf(out, "...... time running %016" PRIx64 "\n", rd->time_running);
	if (!(rd->format & PERF_FORMAT_GROUP)) {
		dump_read_value(out, "....", rd->one, rd->format);
		return;
	}
	fprintf(out, ".... group nr %" PRIu64 "\n", rd->nr);
	for (uint64_t i = 0; i < rd->nr; i++)
		dump_read_value(out, ".....", pk_read_value_at(rd, s->swapped, i), rd->format);
}

static void dump_callchain(FILE *out, const struct pk_sample *s)
{
	fprintf(out, "... FP chain: nr:%" PRIu64 "\n", s->callchain_nr);
	for (uint64_t i = 0; i < s->callchain_nr; i++)
		fprintf(out, "..... %2" PRIu64 ": %016" PRIx64 "\n", i,
			pk_sample_callchain_at(s, i));
}

static void dump_branches(FILE *out, const struct pk_sample *s)
{
	fprintf(out, "... branch stack: nr:%" PRIu64 "\n", s->branch_nr);
	if (s->branch_has_hw_idx)
		fprintf(out, "... hw_idx: %#" PRIx64 "\n", s->branch_hw_idx);
	for (uint64_t i = 0; i < s->branch_nr; i++) {
		struct pk_branch_entry e = pk_sample_branch_at(s, i);
		uint64_t f = e.flags;

		/* flags: mispred, predicted, in_tx, abort at bits 0..3 */
		fprintf(out,
			"..... %2" PRIu64 ": %016" PRIx64 " -> %016" PRIx64
			" %u cycles %c%c%c%c %x \n",
			i, e.from, e.to, (unsigned int)((f >> 4) & 0xffff), (f & 1) ? 'M' : ' ',
			(f & 2) ? 'P' : ' ', (f & 8) ? 'A' : ' ', (f & 4) ? 'T' : ' ',
			(unsigned int)((f >> 20) & 0xf));
		if (s->branch_counters)
			fprintf(out, "....... counters: %#" PRIx64 "\n",
				pk_u64_at(s->branch_counters, s->swapped, i));
	}
}

static void dump_regs(FILE *out, const char *what, const struct pk_regs *regs, bool swapped)
{
	uint64_t mask = regs->mask;
	uint32_t i = 0;

	fprintf(out, "... %s regs: mask %#" PRIx64 " ABI %s\n", what, mask,
		regs->abi == PERF_SAMPLE_REGS_ABI_64   ? "64-bit"
		: regs->abi == PERF_SAMPLE_REGS_ABI_32 ? "32-bit"
						       : "none");
	for (unsigned int bit = 0; bit < 64 && i < regs->nr; bit++) {
		if (!(mask & (1ull << bit)))
			continue;
		fprintf(out, ".... reg%-2u 0x%016" PRIx64 "\n", bit, pk_regs_at(regs, swapped, i));
		i++;
	}
}

static void dump_weight(FILE *out, const struct pk_sample *s)
{
	if (s->type & PK_SAMPLE_WEIGHT_STRUCT)
		fprintf(out, "... weight: %" PRIu64 ",0x%x,0x%x\n", s->weight, s->weight_var2,
			s->weight_var3);
	else
		fprintf(out, "... weight: %" PRIu64 "\n", s->weight);
}

/* Fields after the callchain, in the kernel's order. */
static void dump_tail(FILE *out, const struct pk_sample *s)
{
	uint64_t t = s->type;

	if (t & PERF_SAMPLE_RAW)
		fprintf(out, "... raw size: %u\n", s->raw_size);
	if (t & PERF_SAMPLE_BRANCH_STACK)
		dump_branches(out, s);
	if (t & PERF_SAMPLE_REGS_USER)
		dump_regs(out, "user", &s->regs_user, s->swapped);
	if (t & PERF_SAMPLE_STACK_USER)
		fprintf(out, "... ustack: size %" PRIu64 ", dyn_size %" PRIu64 "\n",
			s->stack_user_size, s->stack_user_dyn_size);
	if (t & (PERF_SAMPLE_WEIGHT | PK_SAMPLE_WEIGHT_STRUCT))
		dump_weight(out, s);
	if (t & PERF_SAMPLE_DATA_SRC)
		fprintf(out, "... data_src: %#" PRIx64 "\n", s->data_src);
	if (t & PERF_SAMPLE_TRANSACTION)
		fprintf(out, "... transaction: %" PRIx64 "\n", s->transaction);
	if (t & PERF_SAMPLE_REGS_INTR)
		dump_regs(out, "intr", &s->regs_intr, s->swapped);
	if (t & PERF_SAMPLE_PHYS_ADDR)
		fprintf(out, "... phys_addr: 0x%" PRIx64 "\n", s->phys_addr);
	if (t & PK_SAMPLE_CGROUP)
		fprintf(out, "... cgroup: %#" PRIx64 "\n", s->cgroup);
	if (t & PK_SAMPLE_DATA_PAGE_SIZE)
		fprintf(out, "... data page size: %" PRIu64 "\n", s->data_page_size);
	if (t & PK_SAMPLE_CODE_PAGE_SIZE)
		fprintf(out, "... code page size: %" PRIu64 "\n", s->code_page_size);
	if (t & PERF_SAMPLE_AUX)
		fprintf(out, "... aux size: %" PRIu64 "\n", s->aux_size);
}

void dump_sample(FILE *out, const struct pk_record *rec, const struct pk_sample *s)
{
	uint64_t t = s->type;

	fprintf(out, "(IP, 0x%x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64 "\n",
		rec->misc, (int32_t)s->pid, (int32_t)s->tid, s->ip, s->period, s->addr);
	if (t & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER))
		fprintf(out, "... id: %" PRIu64 "\n", s->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		fprintf(out, "... stream_id: %" PRIu64 "\n", s->stream_id);
	if (t & PERF_SAMPLE_CPU)
		fprintf(out, "... cpu: %u\n", s->cpu);
	if (t & PERF_SAMPLE_READ)
		dump_read(out, s);
	if (t & PERF_SAMPLE_CALLCHAIN)
		dump_callchain(out, s);
	dump_tail(out, s);
}
