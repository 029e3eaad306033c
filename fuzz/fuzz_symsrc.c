// SPDX-License-Identifier: MIT
/*
 * Fuzz the choice of symbol sources: the input is split into a binary and
 * a debug file put where its .gnu_debuglink may point (beside it and in
 * .debug/), with a recorded build id taken from the input too.  Corrupt
 * program headers, build ids that do not match, a debuglink that names
 * the binary itself and a broken .gnu_debugdata must all end as an error
 * or a safe table.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <perfkit/perfkit.h>
#include <perfkit/symbols.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

static int put(const char *name, const uint8_t *data, size_t size)
{
	char path[128];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f)
		return -1;
	n = fwrite(data, 1, size, f);
	return fclose(f) || n != size ? -1 : 0;
}

static void load(const char *bin, const struct pk_build_id *bid)
{
	struct pk_symtab_opts opts = {.sz = sizeof(opts), .debug_dir = "/nonexistent",
				      .buildid_dir = "/nonexistent"};
	struct pk_symtab *st = NULL;

	if (!pk_symtab_load_elf(&st, bin, bid, &opts)) {
		for (size_t i = 0; i < pk_symtab_count(st) && i < 1000; i++)
			if (!pk_symtab_at(st, i) || !pk_symtab_at(st, i)->name)
				abort();
		(void)pk_symtab_lookup(st, 0x1000);
		pk_symtab_free(st);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pk_build_id bid = {.size = 20};
	char bin[128], sub[128];
	uint32_t split;

	if (size < 24)
		return 0;
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/fuzz-symsrc-%d", (int)getpid());
		mkdir(dir, 0700);
		snprintf(sub, sizeof(sub), "%s/.debug", dir);
		mkdir(sub, 0700);
	}
	memcpy(&split, data, 4);
	memcpy(bid.data, data + 4, 20);
	data += 24;
	size -= 24;
	split = size ? split % (uint32_t)(size + 1) : 0;
	if (put("bin", data, split) || put("bin.debug", data + split, size - split) ||
	    put(".debug/bin.debug", data + split, size - split))
		return 0;
	snprintf(bin, sizeof(bin), "%s/bin", dir);
	load(bin, NULL);
	load(bin, &bid);
	return 0;
}
