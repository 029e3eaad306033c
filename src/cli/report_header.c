// SPDX-License-Identifier: MIT
/*
 * perfkit report --header-only [-I]: the file header and every feature
 * section, in the layout of perf report --header-only.  Sections that perf
 * prints only with -I (topology, caches, memory) get a one-line hint
 * without it.
 */
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "header_print.h"

static bool needs_full(unsigned int feat)
{
	return feat == PK_FEAT_CPU_TOPOLOGY || feat == PK_FEAT_NUMA_TOPOLOGY ||
	       feat == PK_FEAT_CACHE || feat == PK_FEAT_MEM_TOPOLOGY ||
	       feat == PK_FEAT_HYBRID_TOPOLOGY;
}

static bool feature_bit(const struct pk_header *h, unsigned int feat)
{
	return (h->features[feat / 64] >> (feat % 64)) & 1;
}

/* perf names the events from EVENT_DESC; the walk stops at an attr of size
 * 0, which perf takes as the end of its list. */
static void print_event_desc(FILE *out, const struct pk_header *h)
{
	for (uint32_t i = 0; i < h->nr_event_desc; i++) {
		const struct pk_event_desc *d = &h->event_desc[i];

		if (!d->attr.size)
			break;
		fprintf(out, "# event : name = %s, ", d->name);
		if (d->nr_ids) {
			fprintf(out, ", id = {");
			for (uint32_t j = 0; j < d->nr_ids; j++)
				fprintf(out, "%s %" PRIu64, j ? "," : "", d->ids[j]);
			fprintf(out, " }");
		}
		header_print_attr_fields(out, &d->attr);
		fputc('\n', out);
	}
}

static const char *event_name(const struct pk_header *h, uint32_t idx)
{
	return idx < h->nr_event_desc && h->event_desc[idx].name ? h->event_desc[idx].name : "";
}

static void print_groups(FILE *out, const struct pk_header *h)
{
	for (uint32_t i = 0; i < h->nr_groups; i++) {
		const struct pk_group_desc *g = &h->groups[i];
		bool anon = !g->name || !strcmp(g->name, "{anon_group}");

		if (g->nr_members <= 1)
			continue;
		fprintf(out, "# group: %s{%s", anon ? "" : g->name, event_name(h, g->leader_idx));
		for (uint32_t m = 1; m < g->nr_members; m++)
			fprintf(out, ",%s", event_name(h, g->leader_idx + m));
		fprintf(out, "}\n");
	}
}

static void print_caps(FILE *out, const struct pk_pmu_caps *p)
{
	const char *pmu = p->pmu_name ? p->pmu_name : "cpu";

	if (!p->nr) {
		fprintf(out, "# %s pmu capabilities: not available\n", pmu);
		return;
	}
	fprintf(out, "# %s pmu capabilities: ", pmu);
	for (uint32_t i = 0; i < p->nr; i++)
		fprintf(out, "%s%s=%s", i ? ", " : "", p->names[i], p->values[i]);
	fputc('\n', out);
}

/* A recorded argument, its single quotes escaped as perf prints them. */
static void print_cmdline_arg(FILE *out, const char *arg)
{
	for (; *arg; arg++) {
		if (*arg == '\'')
			fputc('\\', out);
		fputc(*arg, out);
	}
	fputc(' ', out);
}

static void print_small(FILE *out, const struct pk_header *h, unsigned int feat)
{
	switch (feat) {
	case PK_FEAT_HOSTNAME:
		fprintf(out, "# hostname : %s\n", h->hostname);
		break;
	case PK_FEAT_OSRELEASE:
		fprintf(out, "# os release : %s\n", h->osrelease);
		break;
	case PK_FEAT_VERSION:
		fprintf(out, "# perf version : %s\n", h->version);
		break;
	case PK_FEAT_ARCH:
		fprintf(out, "# arch : %s\n", h->arch);
		break;
	case PK_FEAT_NRCPUS:
		fprintf(out, "# nrcpus online : %u\n# nrcpus avail : %u\n", h->nr_cpus_online,
			h->nr_cpus_avail);
		break;
	case PK_FEAT_CPUDESC:
		fprintf(out, "# cpudesc : %s\n", h->cpudesc);
		break;
	case PK_FEAT_CPUID:
		fprintf(out, "# cpuid : %s\n", h->cpuid);
		break;
	case PK_FEAT_TOTAL_MEM:
		fprintf(out, "# total memory : %" PRIu64 " kB\n", h->total_mem_kb);
		break;
	case PK_FEAT_CMDLINE:
		fprintf(out, "# cmdline : ");
		for (uint32_t i = 0; i < h->cmdline.nr; i++)
			print_cmdline_arg(out, h->cmdline.str[i]);
		fputc('\n', out);
		break;
	case PK_FEAT_BRANCH_STACK:
		fprintf(out, "# contains samples with branch stack\n");
		break;
	case PK_FEAT_AUXTRACE:
		fprintf(out, "# contains AUX area data (e.g. instruction trace)\n");
		break;
	case PK_FEAT_STAT:
		fprintf(out, "# contains stat data\n");
		break;
	case PK_FEAT_CLOCKID:
		/* perf multiplies the stored resolution (it is in ns) by 1000 */
		fprintf(out, "# clockid frequency: %" PRIu64 " MHz\n", h->clockid_res_ns * 1000);
		break;
	case PK_FEAT_DIR_FORMAT:
		fprintf(out, "# directory data version : %" PRIu64 "\n", h->dir_format_version);
		break;
	case PK_FEAT_COMPRESSED:
		fprintf(out, "# compressed : %s, level = %d, ratio = %d\n",
			h->comp_type == 1 ? "Zstd" : "Unknown", (int)h->comp_level,
			(int)h->comp_ratio);
		break;
	}
}

static void print_sample_time(FILE *out, const struct pk_header *h)
{
	const uint64_t ns = 1000000000ull;

	fprintf(out, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n",
		h->sample_time_first / ns, h->sample_time_first % ns / 1000);
	fprintf(out, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n",
		h->sample_time_last / ns, h->sample_time_last % ns / 1000);
	fprintf(out, "# sample duration : %10.3f ms\n",
		(double)(h->sample_time_last - h->sample_time_first) / 1e6);
}

static void print_lists(FILE *out, const struct pk_header *h, unsigned int feat)
{
	switch (feat) {
	case PK_FEAT_NUMA_TOPOLOGY:
		for (uint32_t i = 0; i < h->nr_numa_nodes; i++) {
			const struct pk_numa_node *n = &h->numa_nodes[i];

			fprintf(out, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64
				     " kB\n# node%u cpu list : %s\n",
				n->node, n->mem_total, n->mem_free, n->node, n->cpus);
		}
		break;
	case PK_FEAT_PMU_MAPPINGS:
		fprintf(out, "# pmu mappings: ");
		if (!h->nr_pmu_mappings)
			fprintf(out, "not available");
		for (uint32_t i = 0; i < h->nr_pmu_mappings; i++)
			fprintf(out, "%s%s = %u", i ? ", " : "", h->pmu_mappings[i].name,
				h->pmu_mappings[i].type);
		fputc('\n', out);
		break;
	case PK_FEAT_CACHE:
		fprintf(out, "# CPU cache info:\n");
		for (uint32_t i = 0; i < h->nr_caches; i++)
			fprintf(out, "#  L%d %-15s %8s [%s]\n", (int)h->caches[i].level,
				h->caches[i].type, h->caches[i].size, h->caches[i].map);
		break;
	case PK_FEAT_HYBRID_TOPOLOGY:
		fprintf(out, "# hybrid cpu system:\n");
		for (uint32_t i = 0; i < h->nr_hybrid_nodes; i++)
			fprintf(out, "# %s cpu list : %s\n", h->hybrid_nodes[i].pmu_name,
				h->hybrid_nodes[i].cpus);
		break;
	case PK_FEAT_PMU_CAPS:
		for (uint32_t i = 0; i < h->nr_pmu_caps; i++)
			print_caps(out, &h->pmu_caps[i]);
		break;
	}
}

/* One feature section; sections perf does not print (TRACING_DATA,
 * BUILD_ID, BPF_*) print nothing. */
static void print_feature(FILE *out, const struct pk_header *h, unsigned int feat, bool full)
{
	if (needs_full(feat) && !full) {
		fprintf(out, "# %s info available, use -I to display\n", pk_feature_name(feat));
		return;
	}
	if (!pk_header_has(h, feat))
		return; /* a bad section: the reader warned */
	switch (feat) {
	case PK_FEAT_EVENT_DESC:
		print_event_desc(out, h);
		break;
	case PK_FEAT_CPU_TOPOLOGY:
		header_print_cpu_topology(out, h);
		break;
	case PK_FEAT_GROUP_DESC:
		print_groups(out, h);
		break;
	case PK_FEAT_SAMPLE_TIME:
		print_sample_time(out, h);
		break;
	case PK_FEAT_MEM_TOPOLOGY:
		header_print_mem_topology(out, h);
		break;
	case PK_FEAT_CPU_PMU_CAPS:
		print_caps(out, &h->cpu_pmu_caps);
		break;
	case PK_FEAT_CLOCK_DATA:
		header_print_clock_data(out, h);
		break;
	default:
		print_small(out, h, feat);
		print_lists(out, h, feat);
		break;
	}
}

/* perf shows the input's modification time, in ctime(3)'s format. */
static void print_captured_on(FILE *out, struct pk_reader *r)
{
	const char *path = pk_reader_path(r);
	struct stat st;
	int err;

	/* the reader names standard input "stdin" */
	if (!strcmp(path, "stdin") && !isatty(STDIN_FILENO))
		err = fstat(STDIN_FILENO, &st);
	else
		err = stat(path, &st);
	fprintf(out, "# captured on    : %s", err ? "?\n" : ctime(&st.st_mtime));
}

static void print_file_header(FILE *out, struct pk_reader *r, const struct pk_header *h)
{
	fprintf(out, "# ========\n");
	print_captured_on(out, r);
	fprintf(out, "# header version : 1\n");
	fprintf(out, "# data offset    : %" PRIu64 "\n", h->data_offset);
	fprintf(out, "# data size      : %" PRIu64 "\n", h->data_size);
	fprintf(out, "# feat offset    : %" PRIu64 "\n", h->pipe ? 0 : h->feat_offset);
}

static void print_missing(FILE *out, const struct pk_header *h)
{
	fprintf(out, "# missing features: ");
	for (unsigned int feat = 1; feat < PK_FEAT_KNOWN_MAX; feat++)
		if (!feature_bit(h, feat))
			fprintf(out, "%s ", pk_feature_name(feat));
	fputc('\n', out);
}

/* Pipe mode: the features are records in the stream; read it all.  A
 * corrupt stream still shows what came before the fault, as perf does. */
static void read_pipe_features(struct pk_reader *r)
{
	const struct pk_record *rec;
	int err;

	while ((err = pk_reader_next(r, &rec)) > 0)
		;
	if (err < 0)
		fprintf(stderr, "perfkit: %s\n", pk_reader_error(r));
}

int report_header_only(struct pk_reader *r, FILE *out, bool full)
{
	const struct pk_header *h = pk_reader_header(r);

	print_file_header(out, r, h);
	if (h->pipe) {
		fprintf(out, "# ========\n#\n");
		read_pipe_features(r);
	}
	for (unsigned int feat = 1; feat < PK_FEAT_KNOWN_MAX; feat++)
		if (feature_bit(h, feat))
			print_feature(out, h, feat, full);
	if (!h->pipe) {
		print_missing(out, h);
		fprintf(out, "# ========\n#\n");
	}
	return 0;
}
