/* SPDX-License-Identifier: MIT */
/* The build-id cache's state, shared by its files; not installed. */
#ifndef PK_BUILDID_INTERNAL_H
#define PK_BUILDID_INTERNAL_H

#include <limits.h>
#include <perfkit/buildid.h>

struct pk_buildid_cache {
	char dir[PATH_MAX - 256]; /* room for the names made from it */
	char err[PATH_MAX + 256];
};

__attribute__((format(printf, 3, 4))) int pki_bidc_fail(struct pk_buildid_cache *c, int err,
							const char *fmt, ...);

/* Recorded build ids are padded to 20 bytes: equal when the shorter one
 * is a prefix of the longer, which has only zeros beyond it. */
bool pki_build_id_equal(const struct pk_build_id *a, const struct pk_build_id *b);

/* "<dir>/.build-id/xx/rest" of hex. */
int pki_bidc_link_path(const struct pk_buildid_cache *c, const char *hex, char *buf, size_t len);

/* The entry directory the link of hex points to, "<dir>/<path>/<hex>";
 * -ENOENT without a link, -EINVAL for a link that leaves the cache. */
int pki_bidc_link_target(const struct pk_buildid_cache *c, const char *hex, char *buf, size_t len);

/* vdso.c: a copy of this process's vdso (free() it), or NULL. */
void *pki_vdso_image(size_t *size);
/* The build id in an ELF image in memory: 0 or -EINVAL. */
int pki_elf_mem_build_id(const void *image, size_t size, struct pk_build_id *out);

/* copy.c: write a file into dir as name atomically (temp + rename). */
int pki_bidc_copy_file(struct pk_buildid_cache *c, const char *src, const char *dst);
int pki_bidc_write_mem(struct pk_buildid_cache *c, const void *p, size_t n, const char *dst);
/* mkdir -p; 0 or a negative errno. */
int pki_mkdirs(const char *path, mode_t mode);
/* rm -rf (never follows symbolic links); 0 or a negative errno. */
int pki_rm_rf(const char *path);
/* Point link at target atomically, replacing what was there. */
int pki_bidc_symlink(struct pk_buildid_cache *c, const char *target, const char *link);

#endif
