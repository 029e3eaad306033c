// SPDX-License-Identifier: MIT
/*
 * Fuzz the ELF symbolizer: any bytes as a binary.  A corrupt file must
 * load as an error or a table whose lookups are safe, never crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <perfkit/perfkit.h>
#include <perfkit/symbols.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void probe(const struct pk_symtab *st, const uint8_t *data, size_t size)
{
	size_t n = pk_symtab_count(st);
	uint64_t addr = 0;

	for (size_t i = 0; i < n && i < 1000; i++) {
		const struct pk_symbol *s = pk_symtab_at(st, i);

		if (!s || !s->name)
			abort();
		(void)strlen(s->name);
		(void)pk_symtab_lookup(st, s->start);
	}
	if (size >= 8)
		memcpy(&addr, data + size - 8, 8);
	(void)pk_symtab_lookup(st, addr);
	(void)pk_symtab_lookup(st, 0);
	(void)pk_symtab_lookup(st, UINT64_MAX);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pk_symtab_opts opts = {.sz = sizeof(opts), .debug_dir = "/nonexistent",
				      .buildid_dir = "/nonexistent"};
	struct pk_build_id bid;
	struct pk_symtab *st = NULL;
	char path[64];
	int fd;

	fd = memfd_create("fuzz-elf", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (!pk_symtab_load_elf(&st, path, NULL, &opts)) {
		probe(st, data, size);
		pk_symtab_free(st);
	}
	(void)pk_elf_build_id(path, &bid);
	close(fd);
	return 0;
}
