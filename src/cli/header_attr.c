// SPDX-License-Identifier: MIT
/*
 * The attr part of report --header-only's "# event :" lines.  perf prints
 * the non-zero fields of perf_event_attr in a fixed order, some under a
 * "{ a, b }" name because they share a union; bit masks as "A|B" names in
 * the order of perf's own tables (not bit order: IDENTIFIER comes before
 * DATA_SRC).  The order and spelling here were checked against perf 6.1's
 * output on the corpus.
 */
#include <inttypes.h>
#include "header_print.h"

struct bit_name {
	uint64_t bit;
	const char *name;
};

static const struct bit_name sample_type_names[] = {
	{PERF_SAMPLE_IP, "IP"},
	{PERF_SAMPLE_TID, "TID"},
	{PERF_SAMPLE_TIME, "TIME"},
	{PERF_SAMPLE_ADDR, "ADDR"},
	{PERF_SAMPLE_READ, "READ"},
	{PERF_SAMPLE_CALLCHAIN, "CALLCHAIN"},
	{PERF_SAMPLE_ID, "ID"},
	{PERF_SAMPLE_CPU, "CPU"},
	{PERF_SAMPLE_PERIOD, "PERIOD"},
	{PERF_SAMPLE_STREAM_ID, "STREAM_ID"},
	{PERF_SAMPLE_RAW, "RAW"},
	{PERF_SAMPLE_BRANCH_STACK, "BRANCH_STACK"},
	{PERF_SAMPLE_REGS_USER, "REGS_USER"},
	{PERF_SAMPLE_STACK_USER, "STACK_USER"},
	{PERF_SAMPLE_IDENTIFIER, "IDENTIFIER"},
	{PERF_SAMPLE_REGS_INTR, "REGS_INTR"},
	{PERF_SAMPLE_DATA_SRC, "DATA_SRC"},
	{PERF_SAMPLE_WEIGHT, "WEIGHT"},
	{PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR"},
	{PERF_SAMPLE_AUX, "AUX"},
	{PERF_SAMPLE_CGROUP, "CGROUP"},
	{PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE"},
	{PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE"},
	{PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT"},
	{0, NULL},
};

static const struct bit_name read_format_names[] = {
	{PERF_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED"},
	{PERF_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING"},
	{PERF_FORMAT_ID, "ID"},
	{PERF_FORMAT_GROUP, "GROUP"},
	{1u << 4, "LOST"}, /* PERF_FORMAT_LOST: newer than some system headers */
	{0, NULL},
};

static const struct bit_name branch_type_names[] = {
	{PERF_SAMPLE_BRANCH_USER, "USER"},
	{PERF_SAMPLE_BRANCH_KERNEL, "KERNEL"},
	{PERF_SAMPLE_BRANCH_HV, "HV"},
	{PERF_SAMPLE_BRANCH_ANY, "ANY"},
	{PERF_SAMPLE_BRANCH_ANY_CALL, "ANY_CALL"},
	{PERF_SAMPLE_BRANCH_ANY_RETURN, "ANY_RETURN"},
	{PERF_SAMPLE_BRANCH_IND_CALL, "IND_CALL"},
	{PERF_SAMPLE_BRANCH_ABORT_TX, "ABORT_TX"},
	{PERF_SAMPLE_BRANCH_IN_TX, "IN_TX"},
	{PERF_SAMPLE_BRANCH_NO_TX, "NO_TX"},
	{PERF_SAMPLE_BRANCH_COND, "COND"},
	{PERF_SAMPLE_BRANCH_CALL_STACK, "CALL_STACK"},
	{PERF_SAMPLE_BRANCH_IND_JUMP, "IND_JUMP"},
	{PERF_SAMPLE_BRANCH_CALL, "CALL"},
	{PERF_SAMPLE_BRANCH_NO_FLAGS, "NO_FLAGS"},
	{PERF_SAMPLE_BRANCH_NO_CYCLES, "NO_CYCLES"},
	{PERF_SAMPLE_BRANCH_TYPE_SAVE, "TYPE_SAVE"},
	{PERF_SAMPLE_BRANCH_HW_INDEX, "HW_INDEX"},
	{0, NULL},
};

enum field_format { F_UNSIGNED, F_SIGNED, F_HEX, F_BITS };

struct attr_field {
	const char *name;
	uint64_t value;
	enum field_format format;
	const struct bit_name *bits;
};

static void print_bits(FILE *out, uint64_t value, const struct bit_name *bits)
{
	const char *sep = "";

	for (; bits->name; bits++) {
		if (value & bits->bit) {
			fprintf(out, "%s%s", sep, bits->name);
			sep = "|";
		}
	}
}

static void print_field(FILE *out, const struct attr_field *f)
{
	if (!f->value)
		return;
	fprintf(out, ", %s = ", f->name);
	switch (f->format) {
	case F_UNSIGNED:
		fprintf(out, "%" PRIu64, f->value);
		break;
	case F_SIGNED:
		fprintf(out, "%" PRId64, (int64_t)f->value);
		break;
	case F_HEX:
		fprintf(out, "%#" PRIx64, f->value);
		break;
	case F_BITS:
		print_bits(out, f->value, f->bits);
		break;
	}
}

#define U(name, v)    {name, (v), F_UNSIGNED, NULL}
#define FLAG(member)  U(#member, a->member)
#define HEX(name, v)  {name, (v), F_HEX, NULL}
#define BITS(name, v, table) {name, (v), F_BITS, table}

void header_print_attr_fields(FILE *out, const struct perf_event_attr *a)
{
	const struct attr_field fields[] = {
		U("type", a->type),
		U("size", a->size),
		HEX("config", a->config),
		U("{ sample_period, sample_freq }", a->sample_period),
		BITS("sample_type", a->sample_type, sample_type_names),
		BITS("read_format", a->read_format, read_format_names),
		FLAG(disabled),
		FLAG(inherit),
		FLAG(pinned),
		FLAG(exclusive),
		FLAG(exclude_user),
		FLAG(exclude_kernel),
		FLAG(exclude_hv),
		FLAG(exclude_idle),
		FLAG(mmap),
		FLAG(comm),
		FLAG(freq),
		FLAG(inherit_stat),
		FLAG(enable_on_exec),
		FLAG(task),
		FLAG(watermark),
		FLAG(precise_ip),
		FLAG(mmap_data),
		FLAG(sample_id_all),
		FLAG(exclude_host),
		FLAG(exclude_guest),
		FLAG(exclude_callchain_kernel),
		FLAG(exclude_callchain_user),
		FLAG(mmap2),
		FLAG(comm_exec),
		FLAG(use_clockid),
		FLAG(context_switch),
		FLAG(write_backward),
		FLAG(namespaces),
		FLAG(ksymbol),
		FLAG(bpf_event),
		FLAG(aux_output),
		FLAG(cgroup),
		FLAG(text_poke),
		FLAG(build_id),
		FLAG(inherit_thread),
		FLAG(remove_on_exec),
		FLAG(sigtrap),
		U("{ wakeup_events, wakeup_watermark }", a->wakeup_events),
		U("bp_type", a->bp_type),
		HEX("{ bp_addr, config1 }", a->config1),
		HEX("{ bp_len, config2 }", a->config2),
		BITS("branch_sample_type", a->branch_sample_type, branch_type_names),
		HEX("sample_regs_user", a->sample_regs_user),
		U("sample_stack_user", a->sample_stack_user),
		{"clockid", (uint64_t)(int64_t)a->clockid, F_SIGNED, NULL},
		HEX("sample_regs_intr", a->sample_regs_intr),
		U("aux_watermark", a->aux_watermark),
		U("sample_max_stack", a->sample_max_stack),
		U("aux_sample_size", a->aux_sample_size),
		U("sig_data", a->sig_data),
	};

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		print_field(out, &fields[i]);
}
