// SPDX-License-Identifier: MIT
/*
 * debuginfod: debug files and binaries fetched by build id from the
 * servers in DEBUGINFOD_URLS, as perf and gdb do.  It is the last source
 * of the symbol search, asked only for what no local file with the right
 * build id gave, and only when the user set DEBUGINFOD_URLS: without it
 * nothing here runs, so the library opens no connection and starts no
 * thread of libcurl's unless asked.
 *
 * libdebuginfod is loaded with dlopen() on the first fetch, as libdw
 * does: linked in, it would bring libcurl and some thirty libraries (6 MB
 * more memory, and libcurl's global setup) into every program using
 * libperfkit, for a feature that most runs never ask for.
 *
 * A fetch that stalls is abandoned after DEBUGINFOD_TIMEOUT (libdebuginfod
 * reads it), or when it is not set after IDLE_LIMIT seconds without an
 * answer or without a byte: libdebuginfod's own default (90 s, and
 * retries) per file would stop a report for minutes on a server that
 * never answers.  After such a timeout the servers are not asked again by
 * this process.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <gelf.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "buildid/buildid_internal.h"
#include "debuginfod_internal.h"
#include "elf_internal.h"
#include "internal.h"

#ifdef PK_HAVE_DEBUGINFOD
#include <elfutils/debuginfod.h>
#endif

#define IDLE_LIMIT 15 /* seconds without progress, DEBUGINFOD_TIMEOUT unset */

const char *pki_debuginfod_urls(void)
{
	const char *urls = getenv("DEBUGINFOD_URLS");

	return urls && *urls ? urls : NULL;
}

bool pk_debuginfod_built(void)
{
#ifdef PK_HAVE_DEBUGINFOD
	return true;
#else
	return false;
#endif
}

#ifdef PK_HAVE_DEBUGINFOD

/* The functions used, from the library loaded on first use. */
static struct {
	__typeof__(debuginfod_begin) *begin;
	__typeof__(debuginfod_end) *end;
	__typeof__(debuginfod_find_debuginfo) *find_debuginfo;
	__typeof__(debuginfod_find_executable) *find_executable;
	__typeof__(debuginfod_set_progressfn) *set_progressfn;
	__typeof__(debuginfod_set_user_data) *set_user_data;
	__typeof__(debuginfod_get_user_data) *get_user_data;
	bool ok;
} dl;

static pthread_once_t dl_once = PTHREAD_ONCE_INIT;

#define DL_SYM(h, name) (*(void **)&dl.name = dlsym(h, "debuginfod_" #name))

static void dl_load(void)
{
	/* never closed: libcurl does not like to be unloaded */
	void *h = dlopen(DEBUGINFOD_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		pki_debug("debuginfod: %s", dlerror());
		return;
	}
	dl.ok = DL_SYM(h, begin) && DL_SYM(h, end) && DL_SYM(h, find_debuginfo) &&
		DL_SYM(h, find_executable) && DL_SYM(h, set_progressfn) &&
		DL_SYM(h, set_user_data) && DL_SYM(h, get_user_data);
	if (!dl.ok)
		pki_debug("debuginfod: %s lacks a function", DEBUGINFOD_SONAME);
}

bool pk_debuginfod_loads(void)
{
	pthread_once(&dl_once, dl_load);
	return dl.ok;
}

static atomic_bool servers_gave_up;

struct fetch {
	char what[192];		/* "debug info of libfoo.so" */
	bool tty, printed, timed_out;
	double start, last_change;
	long last_bytes;
	int idle_limit;		/* 0: leave it to libdebuginfod */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Called by libdebuginfod about once a second.  Until a server answers
 * with the file's size, bytes only counts the calls: the wait for the
 * answer is then what the limit bounds; after it, a transfer that stops.
 */
static int on_progress(debuginfod_client *c, long bytes, long total)
{
	struct fetch *f = dl.get_user_data(c);
	double t = now_s();

	if (!f)
		return 0;
	if (total > 0 && bytes != f->last_bytes) {
		f->last_bytes = bytes;
		f->last_change = t;
	}
	if (f->idle_limit && t - f->last_change > f->idle_limit) {
		f->timed_out = true;
		return 1; /* abandon the transfer */
	}
	/* quick fetches print nothing: no flicker for each small file */
	if (f->tty && t - f->start >= 0.5) {
		if (total > 0)
			fprintf(stderr, "\r\033[Kdebuginfod: fetching %s: %ld of %ld KiB", f->what,
				bytes / 1024, total / 1024);
		else
			fprintf(stderr, "\r\033[Kdebuginfod: fetching %s: waiting %.0f s", f->what,
				t - f->start);
		fflush(stderr);
		f->printed = true;
	}
	return 0;
}

static void fetch_init(struct fetch *f, const char *name, enum pk_debuginfod_kind kind)
{
	const char *base = name ? strrchr(name, '/') : NULL;
	const char *timeout = getenv("DEBUGINFOD_TIMEOUT");

	memset(f, 0, sizeof(*f));
	snprintf(f->what, sizeof(f->what), "%s%s%s",
		 kind == PK_DEBUGINFOD_DEBUGINFO ? "debug info" : "executable",
		 name ? " of " : "", base ? base + 1 : name ? name : "");
	f->tty = isatty(STDERR_FILENO);
	f->start = f->last_change = now_s();
	f->idle_limit = timeout && *timeout ? 0 : IDLE_LIMIT;
}

static int fetch_named(const struct pk_build_id *bid, enum pk_debuginfod_kind kind,
		       const char *name, char **path)
{
	debuginfod_client *c;
	struct fetch f;
	int fd;

	*path = NULL;
	if (!bid || !bid->size)
		return -EINVAL;
	if (!pki_debuginfod_urls())
		return -ENOENT;
	if (atomic_load(&servers_gave_up))
		return -ETIMEDOUT;
	if (!pk_debuginfod_loads())
		return -ENOSYS;
	c = dl.begin();
	if (!c)
		return -ENOMEM;
	fetch_init(&f, name, kind);
	dl.set_user_data(c, &f);
	dl.set_progressfn(c, on_progress);
	if (kind == PK_DEBUGINFOD_DEBUGINFO)
		fd = dl.find_debuginfo(c, bid->data, bid->size, path);
	else
		fd = dl.find_executable(c, bid->data, bid->size, path);
	dl.end(c);
	if (f.printed)
		fprintf(stderr, "\r\033[K");
	if (f.timed_out) {
		if (fd >= 0)
			close(fd);
		fd = -ETIMEDOUT;
		pki_warn("debuginfod: no answer in %d s fetching %s; not asking again "
			 "(DEBUGINFOD_TIMEOUT=SECONDS waits longer)",
			 f.idle_limit, f.what);
	} else if (fd == -ETIME || fd == -ETIMEDOUT) {
		pki_warn("debuginfod: %s: timed out (DEBUGINFOD_TIMEOUT); not asking again",
			 f.what);
	}
	/* one wait for a dead server per run, not one per file */
	if (fd == -ETIME || fd == -ETIMEDOUT)
		atomic_store(&servers_gave_up, true);
	if (fd < 0) {
		free(*path);
		*path = NULL;
		pki_debug("debuginfod: %s: %s", f.what, strerror(-fd));
		return fd;
	}
	close(fd);
	pki_debug("debuginfod: %s: %s", f.what, *path);
	return 0;
}

#else /* !PK_HAVE_DEBUGINFOD */

bool pk_debuginfod_loads(void)
{
	return false;
}

static int fetch_named(const struct pk_build_id *bid, enum pk_debuginfod_kind kind,
		       const char *name, char **path)
{
	(void)bid;
	(void)kind;
	(void)name;
	*path = NULL;
	return -ENOSYS;
}

#endif

int pk_debuginfod_fetch(const struct pk_build_id *bid, enum pk_debuginfod_kind kind, char **path)
{
	return fetch_named(bid, kind, NULL, path);
}

/* A fetched file is offered to the search like a local one, its build id checked. */
static void fetch_offer(struct pki_symsrc *src, const char *name, const struct pk_build_id *bid,
			enum pk_debuginfod_kind kind)
{
	char *path;

	if (fetch_named(bid, kind, name, &path))
		return;
	if (!pki_symsrc_offer(src, path, bid))
		pki_debug("debuginfod: %s: not an ELF file with the wanted build id, or of no use",
			  path);
	free(path);
}

/*
 * The executable first: it places the symbols, and an unstripped one on
 * the server names them too.  A debug file alone cannot place its
 * symbols: without a binary it is not fetched.
 */
void pki_debuginfod_complete(struct pki_symsrc *src, const char *path,
			     const struct pk_build_id *bid)
{
	if ((src->syms.elf && src->runtime.elf) || !bid || !bid->size || !path ||
	    path[0] == '[' || !pk_debuginfod_built() || !pki_debuginfod_urls())
		return;
	if (!src->runtime.elf)
		fetch_offer(src, path, bid, PK_DEBUGINFOD_EXECUTABLE);
	if (src->runtime.elf && !src->syms.elf)
		fetch_offer(src, path, bid, PK_DEBUGINFOD_DEBUGINFO);
}
