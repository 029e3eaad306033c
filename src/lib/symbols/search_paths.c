// SPDX-License-Identifier: MIT
/*
 * Where the symbol search looks, told to the user (`perfkit check`): a
 * user whose report shows [unknown] needs to know where to put a debug
 * file, and whether debuginfod is in play at all.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "debuginfod_internal.h"
#include "elf_internal.h"

static const char *env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

static const char *home(void)
{
	const char *h = env("HOME");

	return h ? h : "/root";
}

/* libdebuginfod's choice, in its order (the old location while it exists). */
static void debuginfod_cache(char *buf, size_t len)
{
	struct stat st;

	if (env("DEBUGINFOD_CACHE_PATH")) {
		snprintf(buf, len, "%s", env("DEBUGINFOD_CACHE_PATH"));
		return;
	}
	snprintf(buf, len, "%s/.debuginfod_client_cache", home());
	if (!stat(buf, &st) && S_ISDIR(st.st_mode))
		return;
	if (env("XDG_CACHE_HOME"))
		snprintf(buf, len, "%s/debuginfod_client", env("XDG_CACHE_HOME"));
	else
		snprintf(buf, len, "%s/.cache/debuginfod_client", home());
}

void pk_symbol_places_get(struct pk_symbol_places *out, const struct pk_symtab_opts *opts)
{
	const char *urls = pki_debuginfod_urls();
	char dir[PATH_MAX];

	memset(out, 0, sizeof(*out));
	out->sz = sizeof(*out);
	snprintf(out->buildid_dir, sizeof(out->buildid_dir), "%s",
		 pki_buildid_dir(opts, dir, sizeof(dir)));
	snprintf(out->debug_dir, sizeof(out->debug_dir), "%s",
		 opts && opts->debug_dir ? opts->debug_dir : "/usr/lib/debug");
	out->debuginfod_built = pk_debuginfod_built();
	/* loading it costs: only when it would be used */
	out->debuginfod_loads = urls && pk_debuginfod_loads();
	snprintf(out->debuginfod_urls, sizeof(out->debuginfod_urls), "%s", urls ? urls : "");
	debuginfod_cache(out->debuginfod_cache, sizeof(out->debuginfod_cache));
}
