// SPDX-License-Identifier: MIT
/*
 * perf's grouping and ordering of branch entries, replayed: its input
 * tree (entries merge where a walk finds an equal one), the collapsed
 * tree (the same walk again, in the input tree's order) and the output
 * tree (by count, then the sort keys).  perf's branch comparisons are no
 * total order, so only the same walks over the same tree shapes give the
 * same merges and the same order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "branch_internal.h"

#define NIL PKI_RBIDX_NIL

static int64_t cmp_null(const void *l, const void *r)
{
	if (!l && !r)
		return 0;
	return !l ? -1 : 1;
}

/* perf's DSO comparison of (l, r): names in l, r order */
static int64_t dso_cmp(const struct pk_dso *l, const struct pk_dso *r)
{
	if (!l || !r)
		return cmp_null(r, l);
	return strcmp(pk_dso_short_name(l), pk_dso_short_name(r));
}

static int64_t sym_cmp(const struct pk_symbol *l, const struct pk_symbol *r)
{
	if (!l || !r)
		return cmp_null(l, r);
	if (l == r)
		return 0;
	if (l->start != r->start)
		return (int64_t)(r->start - l->start);
	return (int64_t)(r->end - l->end);
}

/* symbol_from / symbol_to: unresolved ends by their recorded address */
static int64_t side_cmp(const struct pk_branch_side *l, const struct pk_branch_side *r)
{
	if (!l->sym && !r->sym)
		return (int64_t)(r->addr - l->addr);
	return sym_cmp(l->sym, r->sym);
}

/* perf's "symbol" in branch mode: the target, its DSO as the "dso" key */
static int64_t target_cmp(const struct pk_branch_hist_entry *l,
			  const struct pk_branch_hist_entry *r)
{
	int64_t c;

	if (!l->to.sym && !r->to.sym)
		return (int64_t)(r->to.addr - l->to.addr);
	c = dso_cmp(r->to.dso, l->to.dso);
	return c ? c : sym_cmp(l->to.sym, r->to.sym);
}

static int64_t key_cmp(enum pk_branch_key k, const struct pk_branch_hist_entry *l,
		       const struct pk_branch_hist_entry *r)
{
	switch (k) {
	case PK_BRANCH_KEY_COMM:
		return strcmp(r->comm, l->comm);
	case PK_BRANCH_KEY_PID:
		return (int64_t)r->tid - l->tid;
	case PK_BRANCH_KEY_CPU:
		return (int64_t)(int32_t)r->cpu - (int32_t)l->cpu;
	case PK_BRANCH_KEY_DSO:
		return dso_cmp(r->to.dso, l->to.dso);
	case PK_BRANCH_KEY_SYM:
	case PK_BRANCH_KEY_IPC:
		return target_cmp(l, r);
	case PK_BRANCH_KEY_DSO_FROM:
		return dso_cmp(l->from.dso, r->from.dso);
	case PK_BRANCH_KEY_DSO_TO:
		return dso_cmp(l->to.dso, r->to.dso);
	case PK_BRANCH_KEY_SYM_FROM:
		return side_cmp(&l->from, &r->from);
	case PK_BRANCH_KEY_SYM_TO:
		return side_cmp(&l->to, &r->to);
	case PK_BRANCH_KEY_MISPREDICT:
		return l->mispred != r->mispred || l->predicted != r->predicted;
	case PK_BRANCH_KEY_IN_TX:
		return l->in_tx != r->in_tx;
	case PK_BRANCH_KEY_ABORT:
		return l->abort != r->abort;
	case PK_BRANCH_KEY_CYCLES:
		return (int64_t)l->cycles - (int64_t)r->cycles;
	default:
		return 0;
	}
}

/* The output order's key comparison: perf sorts symbols by name there. */
static int64_t key_sort(enum pk_branch_key k, const struct pk_branch_hist_entry *l,
			const struct pk_branch_hist_entry *r)
{
	if (k != PK_BRANCH_KEY_SYM)
		return key_cmp(k, l, r);
	if (!l->to.sym || !r->to.sym)
		return cmp_null(l->to.sym, r->to.sym);
	return strcmp(r->to.sym->name, l->to.sym->name);
}

static int64_t entry_cmp(const struct pki_branch_sort *s, const struct pk_branch_hist_entry *l,
			 const struct pk_branch_hist_entry *r)
{
	int64_t c = 0;

	for (uint32_t i = 0; i < s->nr_keys && !c; i++)
		c = key_cmp(s->keys[i], l, r);
	return c;
}

/* Output tree: perf puts new left of old when this is > 0. */
static int64_t output_cmp(const struct pki_branch_sort *s, const struct pk_branch_hist_entry *n,
			  const struct pk_branch_hist_entry *o)
{
	int64_t c = n->count > o->count ? 1 : n->count < o->count ? -1 : 0;

	for (uint32_t i = 0; i < s->nr_keys && !c; i++)
		c = key_sort(s->keys[i], n, o);
	return c;
}

/* The tree's nodes in order into seq; returns how many. */
static size_t rb_inorder(const struct pki_rbidx *t, uint32_t *seq)
{
	size_t n = 0;

	for (uint32_t x = pki_rbidx_first(t); x != NIL; x = pki_rbidx_next(t, x))
		seq[n++] = x;
	return n;
}

static int grow(struct pki_branch_tree *t)
{
	size_t n = t->alloc ? t->alloc * 2 : 256;
	void *p;

	if (n >= NIL)
		return -ENOMEM;
#define GROW(field)                                                                                \
	do {                                                                                       \
		p = realloc(t->field, n * sizeof(*t->field));                                      \
		if (!p)                                                                            \
			return -ENOMEM;                                                            \
		t->field = p;                                                                      \
	} while (0)
	GROW(v);
	GROW(filtered);
	GROW(rb.left);
	GROW(rb.right);
	GROW(rb.parent);
	GROW(rb.red);
#undef GROW
	if (!t->alloc)
		t->rb.root = NIL;
	t->alloc = n;
	return 0;
}

int pki_branch_tree_add(struct pki_branch_tree *t, const struct pki_branch_sort *s,
			const struct pk_branch_hist_entry *key, bool filtered)
{
	uint32_t x, parent = NIL;
	bool left = false;

	if (t->nr == t->alloc && grow(t))
		return -ENOMEM;
	for (x = t->rb.root; x != NIL; x = left ? t->rb.left[x] : t->rb.right[x]) {
		int64_t c = entry_cmp(s, &t->v[x], key);

		if (!c) {
			t->v[x].count += key->count;
			return 0;
		}
		parent = x;
		left = c < 0;
	}
	t->v[t->nr] = *key;
	t->filtered[t->nr] = filtered;
	pki_rbidx_link(&t->rb, (uint32_t)t->nr, parent, left);
	t->nr++;
	return 0;
}

/* Insert seq into a fresh tree, merging equal entries (perf's collapse). */
static void collapse(struct pki_branch_tree *t, const struct pki_branch_sort *s,
		     const uint32_t *seq, size_t n)
{
	t->rb.root = NIL;
	for (size_t i = 0; i < n; i++) {
		uint32_t z = seq[i], x, parent = NIL;
		bool left = false, merged = false;

		for (x = t->rb.root; x != NIL; x = left ? t->rb.left[x] : t->rb.right[x]) {
			int64_t c = entry_cmp(s, &t->v[x], &t->v[z]);

			if (!c) {
				t->v[x].count += t->v[z].count;
				merged = true;
				break;
			}
			parent = x;
			left = c < 0;
		}
		if (!merged)
			pki_rbidx_link(&t->rb, z, parent, left);
	}
}

static void output_sort(struct pki_branch_tree *t, const struct pki_branch_sort *s,
			const uint32_t *seq, size_t n)
{
	t->rb.root = NIL;
	for (size_t i = 0; i < n; i++) {
		uint32_t z = seq[i], x, parent = NIL;
		bool left = false;

		for (x = t->rb.root; x != NIL; x = left ? t->rb.left[x] : t->rb.right[x]) {
			parent = x;
			left = output_cmp(s, &t->v[z], &t->v[x]) > 0;
		}
		pki_rbidx_link(&t->rb, z, parent, left);
	}
}

int pki_branch_tree_finish(struct pki_branch_tree *t, const struct pki_branch_sort *s)
{
	uint32_t *seq = malloc((t->nr ? t->nr : 1) * sizeof(*seq));
	size_t n;

	if (!seq)
		return -ENOMEM;
	n = rb_inorder(&t->rb, seq);
	if (s->collapse) {
		collapse(t, s, seq, n);
		n = rb_inorder(&t->rb, seq);
	}
	output_sort(t, s, seq, n);
	n = rb_inorder(&t->rb, seq);
	t->out = malloc((n ? n : 1) * sizeof(*t->out));
	if (!t->out) {
		free(seq);
		return -ENOMEM;
	}
	t->nr_out = 0;
	for (size_t i = 0; i < n; i++)
		if (!t->filtered[seq[i]])
			t->out[t->nr_out++] = t->v[seq[i]];
	free(seq);
	return 0;
}

void pki_branch_tree_free(struct pki_branch_tree *t)
{
	free(t->v);
	free(t->filtered);
	free(t->rb.left);
	free(t->rb.right);
	free(t->rb.parent);
	free(t->rb.red);
	free(t->out);
	memset(t, 0, sizeof(*t));
}
