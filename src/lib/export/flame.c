// SPDX-License-Identifier: MIT
/*
 * Stacks merged by frame name into one tree: what a flame graph draws.
 * Frames are named as stackcollapse names them (pki_frame_name), so the
 * SVG, the HTML report and the folded output agree.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "export_internal.h"

/*
 * stackcollapse's tidying of a function name: the argument list of a
 * demangled C++ name goes (unless the name is all parentheses, as with
 * "(anonymous namespace)"), and ';' - the frame separator - becomes ':'.
 */
void pki_tidy_name(const char *in, char *out, size_t len)
{
	size_t n = 0;

	for (const char *s = in; *s && n + 1 < len; s++) {
		if (*s == '(' && s != in && strncmp(s, "(anonymous namespace)", 21))
			break;
		out[n++] = *s == ';' ? ':' : *s;
	}
	out[n] = '\0';
}

int pki_loc_names(struct pk_profile *p, uint32_t **names)
{
	return pki_loc_names_as(p, names, true);
}

int pki_loc_names_as(struct pk_profile *p, uint32_t **names, bool tidy_names)
{
	char label[512], tidy[512];
	uint32_t *n = malloc((p->nr_locs ? p->nr_locs : 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (size_t i = 0; i < p->nr_locs; i++) {
		const char *l = pki_loc_label(p, (uint32_t)i, label, sizeof(label));

		pki_tidy_name(l, tidy, sizeof(tidy));
		if (pki_profile_intern(p, tidy_names && tidy[0] ? tidy : l, &n[i])) {
			free(n);
			return -ENOMEM;
		}
	}
	*names = n;
	return 0;
}

struct child_key {
	uint32_t parent, name;
};

/* Nodes are found by (parent, name); parents are kept in a side array. */
struct flame_build {
	struct pki_flame *fl;
	uint32_t *parent;
	size_t cap_parent;
};

static bool child_eq2(const void *ctx, uint32_t idx, const void *key)
{
	const struct flame_build *b = ctx;
	const struct child_key *k = key;

	return b->fl->nodes[idx].name == k->name && b->parent[idx] == k->parent;
}

static int child_of(struct flame_build *b, uint32_t parent, uint32_t name, uint32_t *out)
{
	struct pki_flame *fl = b->fl;
	struct child_key k = {parent, name};
	struct pki_islot *slot;

	if (pki_itab_reserve(&fl->tab))
		return -ENOMEM;
	slot = pki_itab_find(&fl->tab, pki_hash_bytes(&k, sizeof(k), 0), child_eq2, b, &k);
	if (slot->idx != PKI_NONE) {
		*out = slot->idx;
		return 0;
	}
	if (pki_grow((void **)&fl->nodes, &fl->cap, fl->nr, sizeof(*fl->nodes)) ||
	    pki_grow((void **)&b->parent, &b->cap_parent, fl->nr, sizeof(*b->parent)))
		return -ENOMEM;
	fl->nodes[fl->nr] = (struct pki_fnode){.name = name,
					       .first_child = PKI_NONE,
					       .next_sibling = fl->nodes[parent].first_child};
	fl->nodes[parent].first_child = (uint32_t)fl->nr;
	b->parent[fl->nr] = parent;
	slot->idx = *out = (uint32_t)fl->nr++;
	return pki_itab_added(&fl->tab);
}

static int add_path(struct flame_build *b, const uint32_t *names, size_t n, bool inverted,
		    uint64_t value)
{
	uint32_t cur = 0;

	b->fl->nodes[0].value += value;
	for (size_t i = 0; i < n; i++) {
		if (child_of(b, cur, names[inverted ? n - 1 - i : i], &cur))
			return -ENOMEM;
		b->fl->nodes[cur].value += value;
	}
	b->fl->nodes[cur].self += value;
	return 0;
}

int pki_flame_build(struct pk_profile *p, struct pki_flame *fl, uint32_t event, bool inverted,
		    bool with_comm)
{
	struct flame_build b = {.fl = fl};
	uint32_t *names = NULL, *frames = NULL, all;
	size_t cap_frames = 0;
	int err = -ENOMEM;

	memset(fl, 0, sizeof(*fl));
	if (pki_profile_intern(p, "all", &all) || pki_loc_names(p, &names) ||
	    pki_grow((void **)&fl->nodes, &fl->cap, 0, sizeof(*fl->nodes)))
		goto out;
	fl->nodes[0] =
		(struct pki_fnode){.name = all, .first_child = PKI_NONE, .next_sibling = PKI_NONE};
	fl->nr = 1;
	if (pki_grow((void **)&b.parent, &b.cap_parent, 0, sizeof(*b.parent)))
		goto out;
	b.parent[0] = PKI_NONE;
	for (size_t i = 0; i < p->nr_entries; i++) {
		const struct pki_entry *e = &p->entries[i];
		int depth;
		size_t n = 0;

		if (event != PKI_NONE && e->event != event)
			continue;
		depth = pki_node_path(p, e->node);
		if (depth < 0 ||
		    pki_grow((void **)&frames, &cap_frames, (size_t)depth + 1, sizeof(*frames)))
			goto out;
		if (with_comm)
			frames[n++] = p->threads[e->thread].comm;
		for (int d = 0; d < depth; d++)
			frames[n++] = names[p->path[d]];
		if (add_path(&b, frames, n, inverted, e->samples))
			goto out;
	}
	err = 0;
out:
	free(names);
	free(frames);
	free(b.parent);
	if (err)
		pki_flame_free(fl);
	return err;
}

void pki_flame_free(struct pki_flame *fl)
{
	free(fl->nodes);
	pki_itab_free(&fl->tab);
	memset(fl, 0, sizeof(*fl));
}
