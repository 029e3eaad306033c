/* SPDX-License-Identifier: MIT */
/* debuginfod as the last symbol source, behind the local files. */
#ifndef PK_DEBUGINFOD_INTERNAL_H
#define PK_DEBUGINFOD_INTERNAL_H

#include <libelf.h>
#include <perfkit/symbols.h>

/*
 * The symbol search's hook, called once it has tried every local file.
 * For what it left unset (*syms_elf: the file whose .symtab names the
 * symbols; *rt_elf: the runtime binary whose program headers turn
 * addresses into file offsets), fetch the debug file and the executable
 * with build id bid from the servers in DEBUGINFOD_URLS, and open them
 * into (*syms_fd, *syms_elf) and (*rt_fd, *rt_elf), which the caller closes as
 * its own.  The executable is asked for first: without a binary to place
 * them, a debug file's symbols are of no use, and it is not fetched.
 * Does nothing without DEBUGINFOD_URLS, without a build id, for
 * names like "[vdso]", or when perfkit is built without libdebuginfod.
 */
void pki_debuginfod_complete(const char *path, const struct pk_build_id *bid, int *syms_fd,
			     Elf **syms_elf, int *rt_fd, Elf **rt_elf);

/* DEBUGINFOD_URLS when set and not empty, else NULL. */
const char *pki_debuginfod_urls(void);

#endif
