// SPDX-License-Identifier: MIT
/* Print the attrs pk_event_list_parse() builds, one line per event, in the
 * form attr_vs_perf.sh extracts from `perf stat -vv`. */
#include <stdio.h>
#include <perfkit/event.h>

int main(int argc, char **argv)
{
	struct pk_event_list l = {0};
	struct pk_parse_error e;

	if (argc != 2)
		return 2;
	if (pk_event_list_parse(&l, argv[1], NULL, &e)) {
		printf("error at %d: %s\n", e.pos, e.msg);
		return 1;
	}
	for (size_t i = 0; i < l.nr; i++) {
		const struct perf_event_attr *a = &l.ev[i].attr;

		printf("type %u config 0x%llx config1 0x%llx eu %u ek %u eh %u eH %u eG %u eI %u "
		       "precise %u pinned %u\n",
		       a->type, (unsigned long long)a->config, (unsigned long long)a->config1,
		       (unsigned)a->exclude_user, (unsigned)a->exclude_kernel,
		       (unsigned)a->exclude_hv, (unsigned)a->exclude_host,
		       (unsigned)a->exclude_guest, (unsigned)a->exclude_idle,
		       (unsigned)a->precise_ip, (unsigned)a->pinned);
	}
	pk_event_list_free(&l);
	return 0;
}
