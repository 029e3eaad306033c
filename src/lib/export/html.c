// SPDX-License-Identifier: MIT
/*
 * The HTML report: one offline file.  The profile goes in as JSON inside
 * <script type="application/json"> (pki_json_str escapes '<', so no name
 * can close the element), followed by the front-end bundle that the build
 * embedded from web/dist (d3, d3-flame-graph; see scripts/build-web.sh).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "export_internal.h"

#define MIN_FRACTION   1e-4 /* flame frames narrower than this are left out */
#define MAX_FUNCS      500  /* per top list */
#define MAX_TL_THREADS 100

bool pk_export_html_available(void)
{
	return pki_web_js != NULL && pki_web_css != NULL;
}

struct func_stat {
	uint32_t name, dso;
	uint64_t self, total;
	size_t stamp; /* last entry counted in total, + 1 */
	bool keep;
};

static int cmp_self(const void *a, const void *b)
{
	const struct func_stat *x = *(struct func_stat *const *)a,
			       *y = *(struct func_stat *const *)b;

	return x->self < y->self ? 1 : x->self > y->self ? -1 : 0;
}

static int cmp_total(const void *a, const void *b)
{
	const struct func_stat *x = *(struct func_stat *const *)a,
			       *y = *(struct func_stat *const *)b;

	return x->total < y->total ? 1 : x->total > y->total ? -1 : 0;
}

static void count_entry(struct pk_profile *p, const uint32_t *names, struct func_stat *fs, size_t i,
			int depth)
{
	const struct pki_entry *e = &p->entries[i];

	for (int d = 0; d < depth; d++) {
		struct func_stat *f = &fs[names[p->path[d]]];

		if (f->dso == PKI_NONE)
			f->dso = p->locs[p->path[d]].dso;
		if (f->stamp != i + 1) { /* recursion counts once */
			f->stamp = i + 1;
			f->total += e->samples;
		}
		if (d == depth - 1)
			f->self += e->samples;
	}
}

static void mark_top(struct func_stat **sorted, size_t n, int (*cmp)(const void *, const void *))
{
	qsort(sorted, n, sizeof(*sorted), cmp);
	for (size_t i = 0; i < n && i < MAX_FUNCS; i++)
		sorted[i]->keep = true;
}

static int write_top(struct pk_profile *p, const uint32_t *names, FILE *out)
{
	size_t ns = p->nr_strs, n = 0;
	struct func_stat *fs = calloc(ns ? ns : 1, sizeof(*fs));
	struct func_stat **sorted = calloc(ns ? ns : 1, sizeof(*sorted));
	bool first = true;

	if (!fs || !sorted) {
		free(fs);
		free(sorted);
		return -ENOMEM;
	}
	for (size_t i = 0; i < ns; i++)
		fs[i].dso = PKI_NONE;
	for (size_t i = 0; i < p->nr_entries; i++) {
		int depth;

		if (p->entries[i].event != p->first_event)
			continue;
		depth = pki_node_path(p, p->entries[i].node);
		if (depth < 0)
			goto fail;
		count_entry(p, names, fs, i, depth);
	}
	for (size_t i = 0; i < ns; i++)
		if (fs[i].total)
			sorted[n++] = &fs[i];
	mark_top(sorted, n, cmp_self);
	mark_top(sorted, n, cmp_total);
	fputs(",\"top\":[", out);
	for (size_t i = 0; i < n; i++) {
		if (!sorted[i]->keep)
			continue;
		fputs(first ? "{\"name\":" : ",\n{\"name\":", out);
		first = false;
		pki_json_str(out, pki_str(p, (uint32_t)(sorted[i] - fs)));
		fputs(",\"dso\":", out);
		pki_json_str(out, sorted[i]->dso == PKI_NONE ? "" : pki_str(p, sorted[i]->dso));
		fprintf(out, ",\"self\":%llu,\"total\":%llu}", (unsigned long long)sorted[i]->self,
			(unsigned long long)sorted[i]->total);
	}
	fputs("]", out);
	free(fs);
	free(sorted);
	return 0;
fail:
	free(fs);
	free(sorted);
	return -ENOMEM;
}

static void write_fnode(struct pk_profile *p, const struct pki_flame *fl, uint32_t n,
			uint64_t total, FILE *out)
{
	const struct pki_fnode *f = &fl->nodes[n];
	bool first = true;

	fputs("{\"n\":", out);
	pki_json_str(out, pki_str(p, f->name));
	fprintf(out, ",\"v\":%llu", (unsigned long long)f->value);
	for (uint32_t c = f->first_child; c != PKI_NONE; c = fl->nodes[c].next_sibling) {
		if ((double)fl->nodes[c].value < MIN_FRACTION * (double)total)
			continue;
		fputs(first ? ",\"c\":[" : ",", out);
		first = false;
		write_fnode(p, fl, c, total, out);
	}
	fputs(first ? "}" : "]}", out);
}

static int write_flame(struct pk_profile *p, const char *key, bool inverted, FILE *out)
{
	struct pki_flame fl;

	if (pki_flame_build(p, &fl, p->first_event, inverted, !inverted))
		return -ENOMEM;
	fprintf(out, ",\"%s\":", key);
	write_fnode(p, &fl, 0, fl.nodes[0].value, out);
	pki_flame_free(&fl);
	return 0;
}

static void write_counts(const uint32_t *b, uint32_t used, FILE *out)
{
	fputc('[', out);
	for (uint32_t i = 0; i < used; i++)
		fprintf(out, i ? ",%u" : "%u", b ? b[i] : 0);
	fputc(']', out);
}

static uint32_t used_buckets(const struct pk_profile *p)
{
	uint32_t used = 0;

	for (size_t t = 0; t < p->nr_threads; t++)
		for (uint32_t i = used; p->threads[t].buckets && i < p->nr_buckets; i++)
			if (p->threads[t].buckets[i])
				used = i + 1;
	return used;
}

static void write_timeline(struct pk_profile *p, FILE *out)
{
	uint32_t used = used_buckets(p), shown = 0;
	uint64_t floor_samples = 0;
	char label[512];

	/* the busiest threads only: a row each */
	if (p->nr_threads > MAX_TL_THREADS) {
		uint64_t lo = 0, hi = UINT64_MAX;

		while (lo < hi) { /* smallest count that keeps <= MAX rows */
			uint64_t mid = lo + (hi - lo) / 2, n = 0;

			for (size_t t = 0; t < p->nr_threads; t++)
				n += p->threads[t].nr_samples > mid;
			if (n <= MAX_TL_THREADS)
				hi = mid;
			else
				lo = mid + 1;
		}
		floor_samples = lo;
	}
	fprintf(out, ",\"timeline\":{\"width_ns\":%llu,\"buckets\":%u,\"threads\":[",
		(unsigned long long)p->width, used);
	for (size_t t = 0; t < p->nr_threads; t++) {
		if (p->threads[t].nr_samples <= floor_samples && floor_samples)
			continue;
		fputs(shown++ ? ",{\"label\":" : "{\"label\":", out);
		pki_json_str(out, pki_thread_label(p, (uint32_t)t, label, sizeof(label)));
		fputs(",\"counts\":", out);
		write_counts(p->threads[t].buckets, used, out);
		fputc('}', out);
	}
	fputs("],\"cpus\":[", out);
	for (size_t c = 0; c < p->nr_cpus; c++) {
		fprintf(out, "%s{\"cpu\":%u,\"counts\":", c ? "," : "", p->cpus[c].cpu);
		write_counts(p->cpus[c].buckets, used, out);
		fputc('}', out);
	}
	fputs("]}", out);
}

static void write_meta(struct pk_profile *p, FILE *out)
{
	uint64_t dur = p->tmin != PK_NO_TIME && p->tmax > p->tmin ? p->tmax - p->tmin : 0;

	fputs("{\"meta\":{\"title\":", out);
	pki_json_str(out, p->title ? p->title : "");
	fputs(",\"cmdline\":", out);
	pki_json_str(out, p->cmdline ? p->cmdline : "");
	fputs(",\"hostname\":", out);
	pki_json_str(out, p->hostname ? p->hostname : "");
	fprintf(out, ",\"duration_ns\":%llu,\"samples\":%llu,\"lost\":%llu,\"events\":[",
		(unsigned long long)dur, (unsigned long long)p->nr_samples,
		(unsigned long long)p->nr_lost);
	for (size_t i = 0; i < p->nr_events; i++) {
		fputs(i ? ",{\"name\":" : "{\"name\":", out);
		pki_json_str(out, pki_str(p, p->events[i].name));
		fprintf(out, ",\"samples\":%llu,\"period\":%llu}",
			(unsigned long long)p->events[i].nr_samples,
			(unsigned long long)p->events[i].period);
	}
	fprintf(out, "]},\"top_total\":%llu",
		(unsigned long long)(p->first_event != PKI_NONE
					     ? p->events[p->first_event].nr_samples
					     : 0));
}

static int write_data(struct pk_profile *p, FILE *out)
{
	uint32_t *names = NULL;
	int err = -ENOMEM;

	if (pki_loc_names(p, &names))
		return -ENOMEM;
	write_meta(p, out);
	if (write_top(p, names, out) || write_flame(p, "flame", false, out) ||
	    write_flame(p, "inverted", true, out))
		goto out;
	write_timeline(p, out);
	fputs("}", out);
	err = 0;
out:
	free(names);
	return err;
}

int pk_export_html(struct pk_profile *p, FILE *out)
{
	if (!pk_export_html_available()) {
		pki_profile_fail(p, "html: this build has no web bundle: run scripts/build-web.sh, "
				    "then rebuild");
		return -ENOENT;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n"
	      "<title>perfkit report</title>\n<style>\n",
	      out);
	fwrite(pki_web_css, 1, pki_web_css_len, out);
	fputs("\n</style></head>\n<body>\n<div id=\"app\"></div>\n"
	      "<script type=\"application/json\" id=\"perfkit-data\">",
	      out);
	if (write_data(p, out)) {
		pki_profile_fail(p, "html: out of memory");
		return -ENOMEM;
	}
	fputs("</script>\n<script>\n", out);
	fwrite(pki_web_js, 1, pki_web_js_len, out);
	fputs("\n</script>\n</body></html>\n", out);
	return pki_export_finish(p, out);
}
