// SPDX-License-Identifier: MIT
/* Feature sections describing the machine: CPU and NUMA topology, caches,
 * memory blocks, hybrid PMUs. */
#include <stdlib.h>
#include "features_internal.h"

static int fail(const char **why, const char *what)
{
	*why = what;
	return -EINVAL;
}

/*
 * Three revisions, each appending to the previous: sibling lists; then
 * core/socket id per CPU; then die siblings and die id per CPU.  The per-CPU
 * arrays have no count of their own: it is NRCPUS' nr_cpus_avail, which
 * comes earlier in the file (a lower feature bit).
 */
int pki_feat_cpu_topology(struct pk_header *h, struct pki_cursor *c, const char **why)
{
	struct pk_cpu_topology *t = &h->cpu_topology;
	uint32_t nr = h->nr_cpus_avail;
	int err;

	err = pki_feat_string_list(c, &t->core_siblings, why);
	if (!err)
		err = pki_feat_string_list(c, &t->thread_siblings, why);
	if (err || !pki_cursor_left(c))
		return err;
	if (!pki_feat_fits(c, nr, 8))
		return fail(why, "core/socket ids do not fit in the section for nr_cpus_avail");
	t->core_id = calloc(nr ? nr : 1, sizeof(*t->core_id));
	t->socket_id = calloc(nr ? nr : 1, sizeof(*t->socket_id));
	if (!t->core_id || !t->socket_id)
		return -ENOMEM;
	t->nr_cpus = nr;
	for (uint32_t i = 0; i < nr; i++) {
		t->core_id[i] = pki_cursor_u32(c);
		t->socket_id[i] = pki_cursor_u32(c);
	}
	if (!pki_cursor_left(c))
		return 0;
	err = pki_feat_string_list(c, &t->die_siblings, why);
	if (err)
		return err;
	if (!pki_feat_fits(c, nr, 4))
		return fail(why, "die ids do not fit in the section for nr_cpus_avail");
	return pki_feat_u32_array(c, nr, &t->die_id);
}

int pki_feat_numa_topology(struct pk_header *h, struct pki_cursor *c, const char **why)
{
	uint32_t nr = pki_cursor_u32(c);
	int err;

	if (c->bad || !pki_feat_fits(c, nr, 20 + PKI_STRING_MIN))
		return fail(why, "NUMA node count is larger than the section");
	h->numa_nodes = calloc(nr ? nr : 1, sizeof(*h->numa_nodes));
	if (!h->numa_nodes)
		return -ENOMEM;
	for (h->nr_numa_nodes = 0; h->nr_numa_nodes < nr; h->nr_numa_nodes++) {
		struct pk_numa_node *n = &h->numa_nodes[h->nr_numa_nodes];

		n->node = pki_cursor_u32(c);
		n->mem_total = pki_cursor_u64(c);
		n->mem_free = pki_cursor_u64(c);
		err = pki_feat_string(c, &n->cpus, why);
		if (err)
			return err;
	}
	return 0;
}

int pki_feat_cache(struct pk_header *h, struct pki_cursor *c, const char **why)
{
	uint32_t nr;
	int err = 0;

	h->cache_version = pki_cursor_u32(c);
	nr = pki_cursor_u32(c);
	if (c->bad)
		return fail(why, "section is too short for its version and count");
	if (h->cache_version != 1)
		return fail(why, "unknown cache description version");
	if (!pki_feat_fits(c, nr, 16 + 3 * PKI_STRING_MIN))
		return fail(why, "cache level count is larger than the section");
	h->caches = calloc(nr ? nr : 1, sizeof(*h->caches));
	if (!h->caches)
		return -ENOMEM;
	for (h->nr_caches = 0; h->nr_caches < nr; h->nr_caches++) {
		struct pk_cache_level *l = &h->caches[h->nr_caches];

		l->level = pki_cursor_u32(c);
		l->line_size = pki_cursor_u32(c);
		l->sets = pki_cursor_u32(c);
		l->ways = pki_cursor_u32(c);
		err = pki_feat_string(c, &l->type, why);
		if (!err)
			err = pki_feat_string(c, &l->size, why);
		if (!err)
			err = pki_feat_string(c, &l->map, why);
		if (err) {
			h->nr_caches++; /* so that clear frees its strings */
			return err;
		}
	}
	return 0;
}

/* Per node: u64 node, u64 bits, then a bitmap (u64 bits again, u64 words). */
int pki_feat_mem_topology(struct pk_header *h, struct pki_cursor *c, const char **why)
{
	uint64_t nr;

	h->mem_version = pki_cursor_u64(c);
	h->mem_block_size = pki_cursor_u64(c);
	nr = pki_cursor_u64(c);
	if (c->bad)
		return fail(why, "section is too short for its version, block size and count");
	if (!pki_feat_fits(c, nr, 24))
		return fail(why, "memory node count is larger than the section");
	h->mem_nodes = calloc(nr ? nr : 1, sizeof(*h->mem_nodes));
	if (!h->mem_nodes)
		return -ENOMEM;
	for (h->nr_mem_nodes = 0; h->nr_mem_nodes < nr; h->nr_mem_nodes++) {
		struct pk_mem_node *n = &h->mem_nodes[h->nr_mem_nodes];
		uint64_t words;

		n->node = pki_cursor_u64(c);
		pki_cursor_u64(c); /* the node's size: the bitmap's again */
		n->size = pki_cursor_u64(c);
		if (c->bad)
			return fail(why, "memory node runs past the end of the section");
		words = n->size / 64 + (n->size % 64 != 0);
		if (!pki_feat_fits(c, words, 8))
			return fail(why, "memory node bitmap is larger than the section");
		n->map = calloc(words ? words : 1, sizeof(*n->map));
		if (!n->map)
			return -ENOMEM;
		for (uint64_t w = 0; w < words; w++)
			n->map[w] = pki_cursor_u64(c);
	}
	return 0;
}

int pki_feat_hybrid_topology(struct pk_header *h, struct pki_cursor *c, const char **why)
{
	uint32_t nr = pki_cursor_u32(c);
	int err = 0;

	if (c->bad || !pki_feat_fits(c, nr, 2 * PKI_STRING_MIN))
		return fail(why, "hybrid node count is larger than the section");
	h->hybrid_nodes = calloc(nr ? nr : 1, sizeof(*h->hybrid_nodes));
	if (!h->hybrid_nodes)
		return -ENOMEM;
	for (h->nr_hybrid_nodes = 0; h->nr_hybrid_nodes < nr && !err; h->nr_hybrid_nodes++) {
		struct pk_hybrid_node *n = &h->hybrid_nodes[h->nr_hybrid_nodes];

		err = pki_feat_string(c, &n->pmu_name, why);
		if (!err)
			err = pki_feat_string(c, &n->cpus, why);
	}
	return err;
}

void pki_feat_topology_clear(struct pk_header *h, unsigned int feat)
{
	struct pk_cpu_topology *t = &h->cpu_topology;

	switch (feat) {
	case PK_FEAT_CPU_TOPOLOGY:
		pki_string_list_free(&t->core_siblings);
		pki_string_list_free(&t->thread_siblings);
		pki_string_list_free(&t->die_siblings);
		free(t->core_id);
		free(t->socket_id);
		free(t->die_id);
		*t = (struct pk_cpu_topology){0};
		break;
	case PK_FEAT_NUMA_TOPOLOGY:
		for (uint32_t i = 0; h->numa_nodes && i < h->nr_numa_nodes; i++)
			free(h->numa_nodes[i].cpus);
		free(h->numa_nodes);
		h->numa_nodes = NULL;
		h->nr_numa_nodes = 0;
		break;
	case PK_FEAT_CACHE:
		for (uint32_t i = 0; h->caches && i < h->nr_caches; i++) {
			free(h->caches[i].type);
			free(h->caches[i].size);
			free(h->caches[i].map);
		}
		free(h->caches);
		h->caches = NULL;
		h->nr_caches = 0;
		h->cache_version = 0;
		break;
	case PK_FEAT_MEM_TOPOLOGY:
		for (uint64_t i = 0; h->mem_nodes && i < h->nr_mem_nodes; i++)
			free(h->mem_nodes[i].map);
		free(h->mem_nodes);
		h->mem_nodes = NULL;
		h->nr_mem_nodes = 0;
		break;
	case PK_FEAT_HYBRID_TOPOLOGY:
		for (uint32_t i = 0; h->hybrid_nodes && i < h->nr_hybrid_nodes; i++) {
			free(h->hybrid_nodes[i].pmu_name);
			free(h->hybrid_nodes[i].cpus);
		}
		free(h->hybrid_nodes);
		h->hybrid_nodes = NULL;
		h->nr_hybrid_nodes = 0;
		break;
	}
}
