// SPDX-License-Identifier: MIT
/*
 * Fuzz the reader and the decoders: any bytes, as a file and as a pipe,
 * in file order and in time order; every record is decoded.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <perfkit/perfkit.h>

static void consume(struct pk_reader *r)
{
	const struct pk_record *rec;
	struct pk_record_fields f;
	struct pk_sample s;
	int n = 0;

	while (pk_reader_next(r, &rec) > 0 && n++ < 100000) {
		if (rec->type == PK_RECORD_SAMPLE) {
			if (!pk_sample_decode(rec, &s, NULL)) {
				for (uint64_t i = 0; i < s.callchain_nr; i++)
					(void)pk_sample_callchain_at(&s, i);
				for (uint64_t i = 0; i < s.branch_nr; i++)
					(void)pk_sample_branch_at(&s, i);
			}
		} else {
			(void)pk_record_decode(rec, &f, NULL);
		}
	}
	(void)pk_reader_header(r);
}

static void read_as(const uint8_t *data, size_t size, enum pk_order order, bool pipe_mode)
{
	struct pk_reader_opts opts = {.sz = sizeof(opts), .order = order, .force = true,
				      .buffer_size = 1 << 17};
	struct pk_reader *r = NULL;
	int fd;

	if (pipe_mode) {
		int p[2];

		/* a pipe holds 64 KiB: keep inputs under it */
		if (size > 60000 || pipe(p))
			return;
		if (write(p[1], data, size) != (ssize_t)size) {
			close(p[0]);
			close(p[1]);
			return;
		}
		close(p[1]);
		fd = p[0];
	} else {
		fd = memfd_create("fuzz", 0);
		if (fd < 0)
			return;
		if (write(fd, data, size) != (ssize_t)size || lseek(fd, 0, SEEK_SET)) {
			close(fd);
			return;
		}
	}
	if (!pk_reader_open_fd(&r, fd, "fuzz", &opts))
		consume(r);
	pk_reader_close(r);
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	read_as(data, size, PK_ORDER_FILE, false);
	read_as(data, size, PK_ORDER_TIME, false);
	read_as(data, size, PK_ORDER_FILE, true);
	return 0;
}
