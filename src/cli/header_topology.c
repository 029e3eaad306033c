// SPDX-License-Identifier: MIT
/* report --header-only: the CPU topology, memory topology and reference
 * clock sections, in perf's layout. */
#include <inttypes.h>
#include <string.h>
#include <time.h>
#include "header_print.h"

static void print_list(FILE *out, const char *label, const struct pk_string_list *l)
{
	for (uint32_t i = 0; i < l->nr; i++)
		fprintf(out, "# %s : %s\n", label, l->str[i]);
}

void header_print_cpu_topology(FILE *out, const struct pk_header *h)
{
	const struct pk_cpu_topology *t = &h->cpu_topology;
	bool dies = t->die_siblings.nr > 0;

	print_list(out, "sibling sockets", &t->core_siblings);
	print_list(out, "sibling dies   ", &t->die_siblings);
	print_list(out, "sibling threads", &t->thread_siblings);
	if (!t->core_id) {
		fprintf(out, dies ? "# Core ID, Die ID and Socket ID information is not available\n"
				  : "# Core ID and Socket ID information is not available\n");
		return;
	}
	/* perf prints the ids as signed: an offline CPU shows -1 */
	for (uint32_t i = 0; i < t->nr_cpus; i++) {
		if (dies && t->die_id)
			fprintf(out, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i,
				(int32_t)t->core_id[i], (int32_t)t->die_id[i],
				(int32_t)t->socket_id[i]);
		else
			fprintf(out, "# CPU %u: Core ID %d, Socket ID %d\n", i,
				(int32_t)t->core_id[i], (int32_t)t->socket_id[i]);
	}
}

/* Size with a binary unit as perf writes it: divide while more than one
 * unit remains, up to G ("32G", "512M"). */
static void format_size(char *buf, size_t len, uint64_t n)
{
	static const char units[] = "BKMG";
	int i = 0;

	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	snprintf(buf, len, "%" PRIu64 "%c", n, units[i]);
}

static bool bit_set(const struct pk_mem_node *n, uint64_t b)
{
	return (n->map[b / 64] >> (b % 64)) & 1;
}

/* Set bits as ranges "0-17,32-269"; like perf, cut to len - 1 chars. */
static void format_ranges(char *buf, size_t len, const struct pk_mem_node *n)
{
	size_t pos = 0;

	buf[0] = '\0';
	for (uint64_t b = 0; b < n->size && pos + 1 < len; b++) {
		uint64_t end = b;
		int w;

		if (!bit_set(n, b))
			continue;
		while (end + 1 < n->size && bit_set(n, end + 1))
			end++;
		if (end == b)
			w = snprintf(buf + pos, len - pos, "%s%" PRIu64, pos ? "," : "", b);
		else
			w = snprintf(buf + pos, len - pos, "%s%" PRIu64 "-%" PRIu64, pos ? "," : "",
				     b, end);
		if (w < 0 || (size_t)w >= len - pos)
			return; /* truncated, as perf's fixed buffer does */
		pos += w;
		b = end;
	}
}

static uint64_t count_bits(const struct pk_mem_node *n)
{
	uint64_t nr = 0;

	for (uint64_t b = 0; b < n->size; b++)
		nr += bit_set(n, b);
	return nr;
}

void header_print_mem_topology(FILE *out, const struct pk_header *h)
{
	fprintf(out, "# memory nodes (nr %d, block size 0x%" PRIx64 "):\n", (int)h->nr_mem_nodes,
		h->mem_block_size);
	for (uint64_t i = 0; i < h->nr_mem_nodes; i++) {
		const struct pk_mem_node *n = &h->mem_nodes[i];
		char size[50], map[100];

		format_size(size, sizeof(size), h->mem_block_size * count_bits(n));
		format_ranges(map, sizeof(map), n);
		fprintf(out, "#  %3" PRIu64 " [%s]: %s\n", n->node, size, map);
	}
}

static const char *clockid_name(uint32_t id)
{
	switch (id) {
	case CLOCK_REALTIME:
		return "realtime";
	case CLOCK_MONOTONIC:
		return "monotonic";
	case CLOCK_MONOTONIC_RAW:
		return "monotonic_raw";
	case CLOCK_BOOTTIME:
		return "boottime";
	case CLOCK_TAI:
		return "tai";
	default:
		return "(unknown)";
	}
}

void header_print_clock_data(FILE *out, const struct pk_header *h)
{
	const uint64_t ns = 1000000000ull;
	time_t tod_sec = h->clock_data_wall_ns / ns;
	unsigned int tod_usec = h->clock_data_wall_ns % ns / 1000;
	struct tm tm;
	char date[64] = "<error>";

	if (h->clock_data_version != 1) {
		fprintf(out, "# reference time disabled\n");
		return;
	}
	if (localtime_r(&tod_sec, &tm))
		strftime(date, sizeof(date), "%F %T", &tm);
	fprintf(out, "# clockid: %s (%u)\n", clockid_name(h->clock_data_clockid),
		h->clock_data_clockid);
	fprintf(out, "# reference time: %s.%06u = %lld.%06u (TOD) = %" PRIu64 ".%09" PRIu64
		     " (%s)\n",
		date, tod_usec, (long long)tod_sec, tod_usec, h->clock_data_clockid_ns / ns,
		h->clock_data_clockid_ns % ns, clockid_name(h->clock_data_clockid));
}
