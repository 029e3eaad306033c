// SPDX-License-Identifier: MIT
/*
 * MiniDebugInfo: some distributions strip a binary's .symtab but keep the
 * names of its local functions as a small xz-compressed ELF in the section
 * .gnu_debugdata.  Without it those functions would have no names at all.
 */
#include <errno.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "elf_internal.h"
#include "internal.h"

/* A decompressed image larger than this is taken for a corrupt section. */
#define DEBUGDATA_MAX (256u << 20)

static int xz_grow(uint8_t **buf, size_t *cap)
{
	size_t ncap = *cap ? *cap * 2 : 1u << 16;
	uint8_t *n;

	if (*cap >= DEBUGDATA_MAX)
		return -EFBIG;
	if (ncap > DEBUGDATA_MAX)
		ncap = DEBUGDATA_MAX;
	n = realloc(*buf, ncap);
	if (!n)
		return -ENOMEM;
	*buf = n;
	*cap = ncap;
	return 0;
}

/* Decompress an .xz stream; *out is the caller's to free. */
static int xz_decode(const void *in, size_t in_len, uint8_t **out, size_t *out_len)
{
	lzma_stream strm = LZMA_STREAM_INIT;
	uint8_t *buf = NULL;
	size_t cap = 0;
	lzma_ret ret;
	int err = 0;

	if (lzma_stream_decoder(&strm, DEBUGDATA_MAX, 0) != LZMA_OK)
		return -ENOMEM;
	strm.next_in = in;
	strm.avail_in = in_len;
	do {
		if (strm.avail_out == 0) {
			size_t used = cap;

			err = xz_grow(&buf, &cap);
			if (err)
				break;
			strm.next_out = buf + used;
			strm.avail_out = cap - used;
		}
		ret = lzma_code(&strm, LZMA_FINISH);
	} while (ret == LZMA_OK);
	if (!err && ret != LZMA_STREAM_END)
		err = -EINVAL;
	*out_len = cap - strm.avail_out;
	lzma_end(&strm);
	if (err) {
		free(buf);
		return err;
	}
	*out = buf;
	return 0;
}

int pki_elf_open_debugdata(struct pki_elf_file *out, Elf *runtime, const char *path)
{
	GElf_Shdr shdr;
	Elf_Scn *scn = pki_elf_section(runtime, ".gnu_debugdata", &shdr);
	Elf_Data *data = scn && shdr.sh_type == SHT_PROGBITS ? elf_getdata(scn, NULL) : NULL;
	uint8_t *image;
	size_t len;
	int err;

	*out = (struct pki_elf_file){.fd = -1};
	if (!data || !data->d_buf || !data->d_size)
		return -ENOENT;
	err = xz_decode(data->d_buf, data->d_size, &image, &len);
	if (err) {
		pki_debug("%s: .gnu_debugdata is not a usable xz stream", path);
		return err;
	}
	out->image = image;
	out->elf = elf_memory((char *)image, len);
	if (!out->elf || elf_kind(out->elf) != ELF_K_ELF) {
		pki_debug("%s: .gnu_debugdata does not hold an ELF image", path);
		pki_elf_file_close(out);
		return -EINVAL;
	}
	snprintf(out->path, sizeof(out->path), "%s(.gnu_debugdata)", path);
	return 0;
}
