// SPDX-License-Identifier: MIT
/* Record counts by type and by event ("perf report --stats"). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perfkit/report.h>
#include <perfkit/sample.h>

/* Attrs arrive during the stream in pipe mode: grow the per-attr array. */
static int fit_attrs(struct pk_record_stats *st, uint32_t nr)
{
	struct pk_attr_stats *n;

	if (nr <= st->nr_attrs)
		return 0;
	n = realloc(st->attrs, nr * sizeof(*n));
	if (!n)
		return -ENOMEM;
	memset(n + st->nr_attrs, 0, (nr - st->nr_attrs) * sizeof(*n));
	st->attrs = n;
	st->nr_attrs = nr;
	return 0;
}

static void count_record(struct pk_record_stats *st, const struct pk_record *rec)
{
	struct pk_record_fields f;

	st->nr[rec->type]++;
	st->total++;
	switch (rec->type) {
	case PK_RECORD_SAMPLE:
		if (rec->attr)
			st->attrs[rec->attr->index].nr_samples++;
		else
			st->nr_unknown_id++;
		break;
	case PK_RECORD_LOST_SAMPLES:
		/* perf adds up the samples lost, per event */
		if (rec->attr && !pk_record_decode(rec, &f, NULL))
			st->attrs[rec->attr->index].nr_lost_samples += f.lost_samples.lost;
		break;
	case PK_RECORD_LOST:
		if (!pk_record_decode(rec, &f, NULL))
			st->lost += f.lost.lost;
		break;
	case PK_RECORD_AUXTRACE_INFO:
		st->has_auxtrace = true;
		break;
	default:
		break;
	}
}

int pk_record_stats_collect(struct pk_reader *r, struct pk_record_stats *out)
{
	const struct pk_record *rec;
	int ret;

	memset(out, 0, sizeof(*out));
	while ((ret = pk_reader_next(r, &rec)) > 0) {
		ret = fit_attrs(out, pk_reader_nr_attrs(r));
		if (ret)
			break;
		count_record(out, rec);
	}
	if (!ret)
		ret = fit_attrs(out, pk_reader_nr_attrs(r));
	return ret;
}

void pk_record_stats_free(struct pk_record_stats *st)
{
	free(st->attrs);
	st->attrs = NULL;
	st->nr_attrs = 0;
}
