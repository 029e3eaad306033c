// SPDX-License-Identifier: MIT
/*
 * The vdso has no file: like perf, perfkit takes the running kernel's
 * from its own process (every 64-bit process maps the same image).
 */
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include "buildid_internal.h"
#include "symbols/elf_internal.h"

void *pki_vdso_image(size_t *size)
{
	uint64_t base = getauxval(AT_SYSINFO_EHDR), start, end;
	FILE *maps;
	char line[512];
	void *copy;

	*size = 0;
	if (!base || !(maps = fopen("/proc/self/maps", "re")))
		return NULL;
	while (fgets(line, sizeof(line), maps)) {
		if (sscanf(line, "%" SCNx64 "-%" SCNx64, &start, &end) == 2 && start == base &&
		    strstr(line, "[vdso]")) {
			*size = end - start;
			break;
		}
	}
	fclose(maps);
	if (!*size || *size > (64u << 20) || !(copy = malloc(*size))) {
		*size = 0;
		return NULL;
	}
	memcpy(copy, (const void *)(uintptr_t)base, *size);
	return copy;
}

int pki_elf_mem_build_id(const void *image, size_t size, struct pk_build_id *out)
{
	Elf *e;
	int err;

	elf_version(EV_CURRENT);
	e = elf_memory((char *)image, size);
	if (!e)
		return -EINVAL;
	err = pki_elf_read_build_id(e, out);
	elf_end(e);
	return err;
}

int pk_vdso_build_id(struct pk_build_id *out)
{
	size_t size;
	void *image = pki_vdso_image(&size);
	int err;

	if (!image)
		return -ENOENT;
	err = pki_elf_mem_build_id(image, size, out);
	free(image);
	return err ? -ENOENT : 0;
}
