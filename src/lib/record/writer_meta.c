// SPDX-License-Identifier: MIT
/*
 * What a perf.data writer is told before the data (writer.c writes it):
 * the events' attrs and sample ids, event groups, feature sections and
 * build ids.  Each call checks its arguments against what was added so far
 * and fails with a message on the writer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "writer_internal.h"

int pk_writer_add_attr(struct pk_writer *w, const struct perf_event_attr *attr, const char *name,
		       const uint64_t *ids, size_t nr_ids)
{
	struct wattr *na, *a;
	size_t full = sizeof(struct perf_event_attr);
	size_t n = attr->size && attr->size < full ? attr->size : full;

	if (w->started)
		return pki_writer_fail(w, -EBUSY, "attrs must be added before the data");
	na = realloc(w->attrs, (w->nr_attrs + 1) * sizeof(*na));
	if (!na)
		return -ENOMEM;
	w->attrs = na;
	a = &na[w->nr_attrs];
	memset(a, 0, sizeof(*a));
	memcpy(&a->attr, attr, n);
	a->attr.size = full;
	if (name && !(a->name = strdup(name)))
		return -ENOMEM;
	w->nr_attrs++;
	if (nr_ids && pk_writer_add_ids(w, w->nr_attrs - 1, ids, nr_ids))
		return -ENOMEM;
	return (int)(w->nr_attrs - 1);
}

int pk_writer_add_ids(struct pk_writer *w, uint32_t idx, const uint64_t *ids, size_t nr_ids)
{
	struct wattr *a;
	uint64_t *n;

	if (idx >= w->nr_attrs || w->started)
		return -EINVAL;
	a = &w->attrs[idx];
	if (nr_ids > (SIZE_MAX / 8) - a->nr_ids - 1)
		return -ENOMEM;
	n = realloc(a->ids, (a->nr_ids + nr_ids) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	memcpy(n + a->nr_ids, ids, nr_ids * sizeof(*n));
	a->ids = n;
	a->nr_ids += nr_ids;
	return 0;
}

int pk_writer_add_group(struct pk_writer *w, const char *name, uint32_t leader, uint32_t nr_members)
{
	struct wgroup *ng;

	if (nr_members < 1 || leader >= w->nr_attrs || nr_members > w->nr_attrs - leader)
		return pki_writer_fail(w, -EINVAL, "group of %u from attr %u is out of range",
				       nr_members, leader);
	ng = realloc(w->groups, (w->nr_groups + 1) * sizeof(*ng));
	if (!ng)
		return -ENOMEM;
	w->groups = ng;
	ng[w->nr_groups].name = strdup(name ? name : "{anon_group}");
	if (!ng[w->nr_groups].name)
		return -ENOMEM;
	ng[w->nr_groups].leader = leader;
	ng[w->nr_groups].nr_members = nr_members;
	w->nr_groups++;
	return 0;
}

int pk_writer_set_feature(struct pk_writer *w, unsigned int feat, const void *data, size_t size)
{
	struct pki_wbuf *b;

	if (feat == 0 || feat >= PK_FEAT_KNOWN_MAX)
		return pki_writer_fail(w, -EINVAL, "feature %u is not one the writer knows", feat);
	b = &w->feat[feat];
	b->len = 0;
	b->oom = false;
	pki_wbuf_put(b, data, size);
	if (b->oom)
		return -ENOMEM;
	w->feat_set[feat] = true;
	return 0;
}

int pk_writer_set_feature_string(struct pk_writer *w, unsigned int feat, const char *s)
{
	struct pki_wbuf b = {0};
	int err;

	pki_wbuf_string(&b, s);
	err = b.oom ? -ENOMEM : pk_writer_set_feature(w, feat, b.p, b.len);
	pki_wbuf_free(&b);
	return err;
}

int pk_writer_add_build_id(struct pk_writer *w, uint16_t misc, int32_t pid, const uint8_t *id,
			   size_t id_size, const char *filename)
{
	struct pki_wbuf *b = &w->build_ids;
	size_t name_len = strlen(filename) + 1;
	size_t padded = (name_len + 63) / 64 * 64;
	uint8_t bid[24] = {0};
	struct perf_event_header h;

	if (id_size == 0 || id_size > 20)
		return pki_writer_fail(w, -EINVAL, "%s: build id of %zu bytes", filename, id_size);
	if (8 + 4 + 24 + padded > PKI_WRITER_REC_MAX)
		return pki_writer_fail(w, -ENAMETOOLONG, "%s: name too long for a build id",
				       filename);
	memcpy(bid, id, id_size);
	bid[20] = (uint8_t)id_size;
	/* PERF_RECORD_MISC_BUILD_ID_SIZE: byte 20 holds the size */
	h.type = PK_RECORD_HEADER_BUILD_ID;
	h.misc = misc | (1u << 15);
	h.size = (uint16_t)(8 + 4 + 24 + padded);
	pki_wbuf_put(b, &h, sizeof(h));
	pki_wbuf_put(b, &pid, sizeof(pid));
	pki_wbuf_put(b, bid, sizeof(bid));
	pki_wbuf_put(b, filename, name_len);
	pki_wbuf_zero(b, padded - name_len);
	if (b->oom)
		return -ENOMEM;
	w->nr_build_ids++;
	return 0;
}
