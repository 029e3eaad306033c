// SPDX-License-Identifier: MIT
/*
 * speedscope's file format: one "sampled" profile per thread and event,
 * frames shared.  Samples are the profile's unique stacks, root first,
 * each weighted by how many samples it stands for, so the file grows with
 * unique stacks rather than with samples.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "export_internal.h"

/* Frames are locations merged by name and DSO, numbered from 0. */
static int number_frames(struct pk_profile *p, const uint32_t *names, uint32_t **frame_of,
			 FILE *out)
{
	uint32_t *by_name = malloc((p->nr_strs ? p->nr_strs : 1) * sizeof(*by_name));
	uint32_t *fo = malloc((p->nr_locs ? p->nr_locs : 1) * sizeof(*fo));
	uint32_t nr = 0;

	if (!by_name || !fo) {
		free(by_name);
		free(fo);
		return -ENOMEM;
	}
	memset(by_name, 0xff, (p->nr_strs ? p->nr_strs : 1) * sizeof(*by_name));
	fputs("\"shared\":{\"frames\":[", out);
	for (size_t i = 0; i < p->nr_locs; i++) {
		uint32_t n = names[i];

		if (by_name[n] == PKI_NONE) {
			by_name[n] = nr++;
			fputs(nr > 1 ? ",{\"name\":" : "{\"name\":", out);
			pki_json_str(out, pki_str(p, n));
			if (p->locs[i].dso != PKI_NONE) {
				fputs(",\"file\":", out);
				pki_json_str(out, pki_str(p, p->locs[i].dso));
			}
			fputc('}', out);
		}
		fo[i] = by_name[n];
	}
	fputs("]}", out);
	free(by_name);
	*frame_of = fo;
	return 0;
}

/* One profile: the run order[from, to) of entries of one thread and event. */
static int write_profile(struct pk_profile *p, const uint32_t *order, size_t from, size_t to,
			 const uint32_t *frame_of, FILE *out)
{
	uint32_t thread = p->entries[order[from]].thread, event = p->entries[order[from]].event;
	char label[512];
	uint64_t total = 0;
	bool first = true;

	fputs("{\"type\":\"sampled\",\"name\":", out);
	pki_thread_label(p, thread, label, sizeof(label));
	if (p->nr_events > 1) {
		size_t l = strlen(label);

		snprintf(label + l, sizeof(label) - l, " %s", pki_str(p, p->events[event].name));
	}
	pki_json_str(out, label);
	fputs(",\"unit\":\"none\",\"startValue\":0,\"samples\":[", out);
	for (size_t i = from; i < to; i++) {
		const struct pki_entry *e = &p->entries[order[i]];
		int depth;

		depth = pki_node_path(p, e->node);
		if (depth < 0)
			return -ENOMEM;
		fputs(first ? "[" : ",[", out);
		first = false;
		for (int d = 0; d < depth; d++)
			fprintf(out, d ? ",%u" : "%u", frame_of[p->path[d]]);
		fputc(']', out);
	}
	fputs("],\"weights\":[", out);
	first = true;
	for (size_t i = from; i < to; i++) {
		const struct pki_entry *e = &p->entries[order[i]];

		fprintf(out, first ? "%llu" : ",%llu", (unsigned long long)e->samples);
		first = false;
		total += e->samples;
	}
	fprintf(out, "],\"endValue\":%llu}", (unsigned long long)total);
	return 0;
}

int pk_export_speedscope(struct pk_profile *p, FILE *out)
{
	uint32_t *names = NULL, *frame_of = NULL, *order = NULL;
	int err = -ENOMEM;

	if (pki_loc_names(p, &names) || pki_entry_order(p, &order))
		goto out;
	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",", out);
	if (number_frames(p, names, &frame_of, out))
		goto out;
	fputs(",\"profiles\":[", out);
	for (size_t i = 0, j; i < p->nr_entries; i = j) {
		const struct pki_entry *e = &p->entries[order[i]];

		for (j = i + 1; j < p->nr_entries && p->entries[order[j]].thread == e->thread &&
				p->entries[order[j]].event == e->event;
		     j++)
			;
		if (i)
			fputc(',', out);
		if (write_profile(p, order, i, j, frame_of, out))
			goto out;
	}
	fputs("],\"name\":", out);
	pki_json_str(out, p->title ? p->title : "perfkit profile");
	fputs(",\"activeProfileIndex\":0,\"exporter\":\"perfkit\"}\n", out);
	err = pki_export_finish(p, out);
out:
	if (err == -ENOMEM)
		pki_profile_fail(p, "speedscope: out of memory");
	free(names);
	free(frame_of);
	free(order);
	return err;
}
