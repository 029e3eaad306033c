// SPDX-License-Identifier: MIT
/*
 * Feature sections of perf.data (file mode: the sections after the data;
 * pipe mode: HEADER_FEATURE records): dispatch, the small fixed-layout
 * sections, string helpers, and freeing.  Larger decoders live in
 * features_topology.c and features_events.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "features_internal.h"
#include "reader_internal.h"

int pki_feat_string(struct pki_cursor *c, char **out, const char **why)
{
	uint32_t len = pki_cursor_u32(c);
	const char *s;

	if (c->bad) {
		*why = "string length runs past the end of the section";
		return -EINVAL;
	}
	if (len > pki_cursor_left(c)) {
		*why = "string is longer than the section";
		return -EINVAL;
	}
	s = pki_cursor_str(c, len);
	if (!s) {
		*why = "string is not NUL-terminated";
		return -EINVAL;
	}
	*out = strdup(s);
	return *out ? 0 : -ENOMEM;
}

void pki_string_list_free(struct pk_string_list *l)
{
	for (uint32_t i = 0; l->str && i < l->nr; i++)
		free(l->str[i]);
	free(l->str);
	l->str = NULL;
	l->nr = 0;
}

int pki_feat_string_list(struct pki_cursor *c, struct pk_string_list *l, const char **why)
{
	uint32_t nr = pki_cursor_u32(c);
	int err;

	if (c->bad || !pki_feat_fits(c, nr, PKI_STRING_MIN)) {
		*why = "string list count is larger than the section";
		return -EINVAL;
	}
	l->str = calloc(nr ? nr : 1, sizeof(*l->str));
	if (!l->str)
		return -ENOMEM;
	for (l->nr = 0; l->nr < nr; l->nr++) {
		err = pki_feat_string(c, &l->str[l->nr], why);
		if (err)
			return err;
	}
	return 0;
}

int pki_feat_u32_array(struct pki_cursor *c, uint32_t nr, uint32_t **out)
{
	*out = calloc(nr ? nr : 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (uint32_t i = 0; i < nr; i++)
		(*out)[i] = pki_cursor_u32(c);
	return 0;
}

/* A section that is one perf_header_string: which field of h it fills. */
static char **string_field(struct pk_header *h, unsigned int feat)
{
	switch (feat) {
	case PK_FEAT_HOSTNAME:
		return &h->hostname;
	case PK_FEAT_OSRELEASE:
		return &h->osrelease;
	case PK_FEAT_VERSION:
		return &h->version;
	case PK_FEAT_ARCH:
		return &h->arch;
	case PK_FEAT_CPUDESC:
		return &h->cpudesc;
	case PK_FEAT_CPUID:
		return &h->cpuid;
	default:
		return NULL;
	}
}

static int copy_bytes(const void *data, size_t len, const void **out, uint64_t *out_len)
{
	void *p = malloc(len ? len : 1);

	if (!p)
		return -ENOMEM;
	memcpy(p, data, len);
	*out = p;
	*out_len = len;
	return 0;
}

/* Sections of a fixed size: read every field, then check the cursor once. */
static int decode_fixed(struct pk_header *h, unsigned int feat, struct pki_cursor *c)
{
	switch (feat) {
	case PK_FEAT_NRCPUS:
		h->nr_cpus_avail = pki_cursor_u32(c);
		h->nr_cpus_online = pki_cursor_u32(c);
		break;
	case PK_FEAT_TOTAL_MEM:
		h->total_mem_kb = pki_cursor_u64(c);
		break;
	case PK_FEAT_SAMPLE_TIME:
		h->sample_time_first = pki_cursor_u64(c);
		h->sample_time_last = pki_cursor_u64(c);
		break;
	case PK_FEAT_CLOCKID:
		h->clockid_res_ns = pki_cursor_u64(c);
		break;
	case PK_FEAT_DIR_FORMAT:
		h->dir_format_version = pki_cursor_u64(c);
		break;
	case PK_FEAT_COMPRESSED:
		h->comp_version = pki_cursor_u32(c);
		h->comp_type = pki_cursor_u32(c);
		h->comp_level = pki_cursor_u32(c);
		h->comp_ratio = pki_cursor_u32(c);
		h->comp_mmap_len = pki_cursor_u32(c);
		break;
	case PK_FEAT_CLOCK_DATA:
		h->clock_data_version = pki_cursor_u32(c);
		h->clock_data_clockid = pki_cursor_u32(c);
		h->clock_data_wall_ns = pki_cursor_u64(c);
		h->clock_data_clockid_ns = pki_cursor_u64(c);
		break;
	default:
		return 1; /* not a fixed-size section */
	}
	return c->bad ? -EINVAL : 0;
}

static pki_feat_decoder variable_decoder(unsigned int feat)
{
	switch (feat) {
	case PK_FEAT_BUILD_ID:
		return pki_feat_build_id;
	case PK_FEAT_EVENT_DESC:
		return pki_feat_event_desc;
	case PK_FEAT_CPU_TOPOLOGY:
		return pki_feat_cpu_topology;
	case PK_FEAT_NUMA_TOPOLOGY:
		return pki_feat_numa_topology;
	case PK_FEAT_PMU_MAPPINGS:
		return pki_feat_pmu_mappings;
	case PK_FEAT_GROUP_DESC:
		return pki_feat_group_desc;
	case PK_FEAT_AUXTRACE:
		return pki_feat_auxtrace;
	case PK_FEAT_CACHE:
		return pki_feat_cache;
	case PK_FEAT_MEM_TOPOLOGY:
		return pki_feat_mem_topology;
	case PK_FEAT_CPU_PMU_CAPS:
		return pki_feat_cpu_pmu_caps;
	case PK_FEAT_HYBRID_TOPOLOGY:
		return pki_feat_hybrid_topology;
	case PK_FEAT_PMU_CAPS:
		return pki_feat_pmu_caps;
	default:
		return NULL;
	}
}

/* Free what one feature owns, so that a repeated section (pipe mode may
 * send one twice) or a failed decode leaves nothing behind. */
static void clear_feature(struct pk_header *h, unsigned int feat)
{
	char **s = string_field(h, feat);

	if (s) {
		free(*s);
		*s = NULL;
		return;
	}
	switch (feat) {
	case PK_FEAT_TRACING_DATA:
		free((void *)h->tracing_data);
		h->tracing_data = NULL;
		h->tracing_data_size = 0;
		break;
	case PK_FEAT_BPF_PROG_INFO:
		free((void *)h->bpf_prog_info);
		h->bpf_prog_info = NULL;
		h->bpf_prog_info_size = 0;
		break;
	case PK_FEAT_BPF_BTF:
		free((void *)h->bpf_btf);
		h->bpf_btf = NULL;
		h->bpf_btf_size = 0;
		break;
	case PK_FEAT_CMDLINE:
		pki_string_list_free(&h->cmdline);
		break;
	default:
		pki_feat_topology_clear(h, feat);
		pki_feat_events_clear(h, feat);
		break;
	}
}

static int decode_one(struct pk_header *h, unsigned int feat, struct pki_cursor *c,
		      const void *data, size_t len, const char **why)
{
	char **s = string_field(h, feat);
	pki_feat_decoder dec;
	int err;

	if (s)
		return pki_feat_string(c, s, why);
	switch (feat) {
	case PK_FEAT_TRACING_DATA:
		return copy_bytes(data, len, &h->tracing_data, &h->tracing_data_size);
	case PK_FEAT_BPF_PROG_INFO:
		return copy_bytes(data, len, &h->bpf_prog_info, &h->bpf_prog_info_size);
	case PK_FEAT_BPF_BTF:
		return copy_bytes(data, len, &h->bpf_btf, &h->bpf_btf_size);
	case PK_FEAT_CMDLINE:
		return pki_feat_string_list(c, &h->cmdline, why);
	case PK_FEAT_BRANCH_STACK:
	case PK_FEAT_STAT:
		return 0; /* a flag: the section carries nothing */
	}
	err = decode_fixed(h, feat, c);
	if (err < 0)
		*why = "section is shorter than its fixed layout";
	if (err <= 0)
		return err;
	dec = variable_decoder(feat);
	return dec ? dec(h, c, why) : 1;
}

int pki_feature_decode(struct pk_header *h, unsigned int feat, const void *data, size_t len,
		       bool swapped, const char **why)
{
	struct pki_cursor c = pki_cursor_make(data, len, swapped);
	int err;

	*why = NULL;
	if (feat == PK_FEAT_RESERVED || feat >= PK_FEAT_KNOWN_MAX)
		return 0; /* unknown: ignored, as perf does */
	if (feat == PK_FEAT_TRACING_DATA && h->pipe && h->tracing_data) {
		/* pipe mode: the TRACING_DATA record already gave the bytes */
		h->have[feat / 64] |= 1ull << (feat % 64);
		return 0;
	}
	clear_feature(h, feat);
	h->have[feat / 64] &= ~(1ull << (feat % 64));
	err = decode_one(h, feat, &c, data, len, why);
	if (err > 0)
		return 0;
	if (err) {
		clear_feature(h, feat);
		if (!*why)
			*why = err == -ENOMEM ? "out of memory" : "malformed section";
		return err;
	}
	h->have[feat / 64] |= 1ull << (feat % 64);
	return 0;
}

void pki_header_free(struct pk_header *h)
{
	for (unsigned int feat = 1; feat < PK_FEAT_KNOWN_MAX; feat++)
		clear_feature(h, feat);
	memset(h->have, 0, sizeof(h->have));
}
