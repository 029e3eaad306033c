/* SPDX-License-Identifier: MIT */
/* debuginfod as the last symbol source, behind the local files. */
#ifndef PK_DEBUGINFOD_INTERNAL_H
#define PK_DEBUGINFOD_INTERNAL_H

#include <perfkit/symbols.h>
#include "elf_internal.h"

/*
 * The symbol search's hook, called once it has tried every local file.
 * For the roles of src still unfilled (the symbols, the runtime binary
 * that places them), fetch the executable and then the debug file with
 * build id bid from the servers in DEBUGINFOD_URLS and offer them to src
 * as local files are offered (pki_symsrc_offer).  The executable is asked
 * for first: without a binary to place them, a debug file's symbols are
 * of no use, and it is not fetched.  Does nothing without DEBUGINFOD_URLS,
 * without a build id, for names like "[vdso]", or when perfkit is built
 * without libdebuginfod.
 */
void pki_debuginfod_complete(struct pki_symsrc *src, const char *path,
			     const struct pk_build_id *bid);

/* DEBUGINFOD_URLS when set and not empty, else NULL. */
const char *pki_debuginfod_urls(void);

#endif
