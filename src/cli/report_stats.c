// SPDX-License-Identifier: MIT
/* perfkit report --stats: record counts in perf's layout. */
#include <inttypes.h>
#include "cli.h"

static void print_totals(const struct pk_record_stats *st, FILE *out)
{
	fprintf(out, "\nAggregated stats:%s\n",
		st->has_auxtrace
			? " (excludes AUX area (e.g. instruction trace) decoded / synthesized events)"
			: "");
	fprintf(out, "%16s events: %10" PRIu64 "\n", "TOTAL", st->total);
	for (uint32_t t = 0; t < PK_RECORD_TYPE_LIMIT; t++) {
		const char *name = pk_record_type_name(t);

		if (!st->nr[t] || !name)
			continue;
		fprintf(out, "%16s events: %10" PRIu64 "  (%4.1f%%)\n", name, st->nr[t],
			100.0 * (double)st->nr[t] / (double)st->total);
	}
}

static void print_per_event(struct pk_reader *r, const struct pk_record_stats *st, FILE *out)
{
	for (uint32_t i = 0; i < st->nr_attrs; i++) {
		const struct pk_attr_stats *a = &st->attrs[i];

		if (!a->nr_samples && !a->nr_lost_samples)
			continue;
		fprintf(out, "%s stats:\n", pk_reader_attr(r, i)->name);
		if (a->nr_samples)
			fprintf(out, "%16s events: %10" PRIu64 "\n", "SAMPLE", a->nr_samples);
		if (a->nr_lost_samples)
			fprintf(out, "%16s events: %10" PRIu64 "\n", "LOST_SAMPLES",
				a->nr_lost_samples);
	}
}

int report_stats(struct pk_reader *r, FILE *out)
{
	struct pk_record_stats st;
	int err = pk_record_stats_collect(r, &st);

	print_totals(&st, out);
	print_per_event(r, &st, out);
	if (err)
		fprintf(stderr, "perfkit: %s\n", pk_reader_error(r));
	pk_record_stats_free(&st);
	return err;
}
