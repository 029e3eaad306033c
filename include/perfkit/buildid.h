/* SPDX-License-Identifier: MIT */
/*
 * perfkit/buildid.h - perf's build-id cache (~/.debug) and the build ids
 * of a recording.
 *
 * The cache keeps a copy of every binary a profile needs, by build id, in
 * the layout perf reads, so that perf and perfkit both find them:
 *
 *	<dir>/<absolute path of the file>/<build id hex>/elf
 *	<dir>/[kernel.kallsyms]/<build id hex>/kallsyms
 *	<dir>/[vdso]/<build id hex>/vdso
 *	<dir>/.build-id/<first 2 hex digits>/<the rest> -> ../../<path>/<hex>
 *
 * (the link is relative, so the whole tree can be moved or unpacked
 * elsewhere).  <dir> is, in order: the opts' dir, $PERF_BUILDID_DIR,
 * $HOME/.debug.  Files are written under a temporary name in their final
 * directory and renamed into place, so readers and concurrent writers
 * only ever see complete files; every copy is checked to carry the build
 * id it is filed under before it is renamed.
 *
 *	struct pk_buildid_cache *c;
 *	if (pk_buildid_cache_open(&c, NULL) == 0)
 *		pk_buildid_cache_add(c, "/usr/bin/ls", NULL);
 *	pk_buildid_cache_close(c);
 */
#ifndef PERFKIT_BUILDID_H
#define PERFKIT_BUILDID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <perfkit/header.h>
#include <perfkit/record.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "[kernel.kallsyms]" and "[vdso]": the names perf files those under. */
#define PK_BUILDID_KALLSYMS "[kernel.kallsyms]"
#define PK_BUILDID_VDSO	    "[vdso]"

/* Lower-case hex of bid into out (2 * size + 1 bytes, at most 65). */
void pk_build_id_hex(const struct pk_build_id *bid, char out[65]);

/* Parse hex (2 to 64 digits, even count) into *out: 0 or -EINVAL. */
int pk_build_id_parse(const char *hex, struct pk_build_id *out);

/* The build id of this process's vdso (the running kernel's): 0, or
 * -ENOENT without a vdso or a build id in it. */
int pk_vdso_build_id(struct pk_build_id *out);

struct pk_buildid_cache;

struct pk_buildid_cache_opts {
	size_t sz;	 /* sizeof(struct pk_buildid_cache_opts) */
	const char *dir; /* NULL: $PERF_BUILDID_DIR, else $HOME/.debug */
};

/*
 * Open the cache (nothing is created until something is added).  Returns
 * 0 or a negative errno; *out is set whenever memory allowed, so that
 * pk_buildid_cache_error() can tell why; close it in both cases.
 */
int pk_buildid_cache_open(struct pk_buildid_cache **out, const struct pk_buildid_cache_opts *opts);
void pk_buildid_cache_close(struct pk_buildid_cache *c);

/* The last error as one line, or ""; owned by the cache. */
const char *pk_buildid_cache_error(const struct pk_buildid_cache *c);

/* The cache's directory; owned by the cache. */
const char *pk_buildid_cache_dir(const struct pk_buildid_cache *c);

/*
 * Put a copy of name in the cache under bid, with its .build-id link.
 * name is an absolute path (a relative one is taken from the current
 * directory, symbolic links resolved), PK_BUILDID_KALLSYMS (a copy of
 * /proc/kallsyms) or PK_BUILDID_VDSO (this process's vdso).  bid NULL:
 * the file's own build id.  Nothing is added, and -ESTALE returned, when
 * the file does not carry bid (rebuilt since, or another kernel); a
 * separate debug file of the same build id under /usr/lib/debug/.build-id
 * is cached beside it as "debug", as perf does.  Returns 1 when added, 0
 * when it was already there, or a negative errno.
 */
int pk_buildid_cache_add(struct pk_buildid_cache *c, const char *name,
			 const struct pk_build_id *bid);

/* Whether the cache has an entry (the .build-id link) for bid. */
bool pk_buildid_cache_has(const struct pk_buildid_cache *c, const struct pk_build_id *bid);

/*
 * The path of the cached file for name and bid ("<dir>/<path>/<hex>/elf",
 * "kallsyms" or "vdso"), written to buf.  0, or -ENAMETOOLONG.  The file
 * may not exist.
 */
int pk_buildid_cache_path(const struct pk_buildid_cache *c, const char *name,
			  const struct pk_build_id *bid, char *buf, size_t len);

/*
 * For symbol lookup: "<dir>/.build-id/xx/<rest>/<kind>" (kind "elf",
 * "debug", "kallsyms" or "vdso") into buf, whatever file name the entry
 * was cached under.  0 when that file exists, -ENOENT when not (buf is
 * still filled), -ENAMETOOLONG.  The file is not checked: read its build
 * id before trusting it.
 */
int pk_buildid_cache_find(const struct pk_buildid_cache *c, const struct pk_build_id *bid,
			  const char *kind, char *buf, size_t len);

/* Remove the entry of bid: its .build-id link and its directory.  0, or
 * -ENOENT when not cached, or another negative errno. */
int pk_buildid_cache_remove(struct pk_buildid_cache *c, const struct pk_build_id *bid);

/* Remove every build id cached for path (perf's --purge).  Returns how
 * many were removed, or a negative errno. */
int pk_buildid_cache_purge(struct pk_buildid_cache *c, const char *path);

/* Remove every entry.  Returns how many, or a negative errno. */
int pk_buildid_cache_purge_all(struct pk_buildid_cache *c);

struct pk_buildid_cache_entry {
	struct pk_build_id bid;
	const char *hex;
	const char *name; /* the original file, or "[kernel.kallsyms]"... */
	const char *path; /* the entry's directory in the cache */
	bool valid;	  /* name (the running kernel for kallsyms) exists
			   * here and has this build id */
};

/*
 * Call fn for every entry, in the order of their build ids (perf's -l
 * order); fn returns 0 to go on, anything else stops the walk and is
 * returned.  The entry's strings live until fn returns.  0 for an empty
 * or missing cache; a negative errno.
 */
int pk_buildid_cache_list(struct pk_buildid_cache *c,
			  int (*fn)(const struct pk_buildid_cache_entry *e, void *arg), void *arg);

/*
 * Write a bzip2-compressed tar of the entries of ids (each .build-id link
 * and the directory it points to) to out, paths relative to the cache
 * directory, as perf archive does: `tar xf out -C ~/.debug` elsewhere
 * installs them.  An id not in the cache is skipped (counted in
 * *missing, which may be NULL).  Returns the number of entries archived,
 * or a negative errno (the partial output is removed).
 */
int pk_buildid_cache_archive(struct pk_buildid_cache *c, const struct pk_build_id *ids, size_t nr,
			     const char *out, size_t *missing);

/* ---- the build ids of a recording ------------------------------------ */

struct pk_buildid_list;

struct pk_buildid_list_opts {
	size_t sz;	/* sizeof(struct pk_buildid_list_opts) */
	bool force;	/* read a file owned by another user */
	bool with_hits; /* only DSOs that samples landed in (reads them all) */
};

/*
 * Read the build ids a recording lists (HEADER_BUILD_ID, or its records
 * in pipe mode), in the file's order.  Returns 0 or a negative errno;
 * *out is set whenever memory allowed (pk_buildid_list_error() tells
 * why); close it in both cases.
 */
int pk_buildid_list_open(struct pk_buildid_list **out, const char *path,
			 const struct pk_buildid_list_opts *opts);
size_t pk_buildid_list_count(const struct pk_buildid_list *l);
/* The i-th entry; owned by the list. */
const struct pk_build_id_entry *pk_buildid_list_entry(const struct pk_buildid_list *l, size_t i);
const char *pk_buildid_list_error(const struct pk_buildid_list *l);
void pk_buildid_list_close(struct pk_buildid_list *l);

#ifdef __cplusplus
}
#endif
#endif
