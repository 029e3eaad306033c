// SPDX-License-Identifier: MIT
/*
 * read_perf_data: print the samples of a perf.data with the reader API.
 *
 * Opens the file (any perf version, either byte order, compressed or not;
 * "-" reads a pipe-mode stream from standard input), walks its records in
 * time order, decodes each PERF_RECORD_SAMPLE and prints the fields every
 * sample type has, then a count per event.
 *
 *	read_perf_data [-q] perf.data
 *
 * -q prints only the counts.  Exits 1 when the file cannot be read.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <perfkit/perfkit.h>

#define MAX_EVENTS 64

static void print_sample(const struct pk_record *rec, const struct pk_sample *s)
{
	const char *event = rec->attr && rec->attr->name ? rec->attr->name : "?";

	printf("%6u/%-6u", s->pid, s->tid);
	if (rec->time != PK_NO_TIME)
		printf(" %" PRIu64 ".%09" PRIu64, rec->time / 1000000000, rec->time % 1000000000);
	printf(" %-20s ip %#" PRIx64 " period %" PRIu64 "\n", event, s->ip, s->period);
}

int main(int argc, char **argv)
{
	struct pk_reader_opts opts = {.sz = sizeof(opts), .order = PK_ORDER_TIME};
	uint64_t per_attr[MAX_EVENTS] = {0}, total = 0;
	const struct pk_record *rec;
	struct pk_reader *r;
	bool quiet = argc > 2 && !strcmp(argv[1], "-q");
	const char *path = argv[argc - 1];
	int rc;

	if (argc < 2) {
		fprintf(stderr, "usage: read_perf_data [-q] perf.data\n");
		return 2;
	}
	if (pk_reader_open(&r, path, &opts)) {
		fprintf(stderr, "%s\n", r ? pk_reader_error(r) : "out of memory");
		pk_reader_close(r);
		return 1;
	}
	while ((rc = pk_reader_next(r, &rec)) > 0) {
		struct pk_sample s;

		if (rec->type != PK_RECORD_SAMPLE || pk_sample_decode(rec, &s, NULL))
			continue;
		if (!quiet)
			print_sample(rec, &s);
		if (rec->attr && rec->attr->index < MAX_EVENTS)
			per_attr[rec->attr->index]++;
		total++;
	}
	if (rc < 0)
		fprintf(stderr, "%s\n", pk_reader_error(r));
	for (uint32_t i = 0; i < pk_reader_nr_attrs(r) && i < MAX_EVENTS; i++)
		printf("%s: %" PRIu64 " samples\n", pk_reader_attr(r, i)->name, per_attr[i]);
	printf("total: %" PRIu64 " samples\n", total);
	pk_reader_close(r);
	return rc < 0;
}
