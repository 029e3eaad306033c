/* SPDX-License-Identifier: MIT */
/*
 * perfkit/symbols.h - symbol tables of binaries, of the kernel and of JITs.
 *
 * A struct pk_symtab holds the function symbols of one DSO, sorted by
 * address, in the address space perf uses to symbolize: for ELF user-space
 * objects that is the file offset (what "ip - map start + map pgoff" gives),
 * for the kernel the run-time address.  Names are demangled when asked.
 *
 *	struct pk_symtab *st;
 *	if (pk_symtab_load_elf(&st, "/usr/bin/true", NULL, NULL) == 0) {
 *		const struct pk_symbol *s = pk_symtab_lookup(st, off);
 *		...
 *		pk_symtab_free(st);
 *	}
 *
 * Loading never trusts the file: a missing, truncated or corrupt binary is
 * an error return (or an empty table), never a crash.
 */
#ifndef PERFKIT_SYMBOLS_H
#define PERFKIT_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <perfkit/record.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One symbol: [start, end), name owned by the table. */
struct pk_symbol {
	uint64_t start;
	uint64_t end;
	const char *name;
	bool object;		/* a data object (ELF STT_OBJECT), not code */
	bool inlined;		/* a function inlined into the one at start..end
				 * (callchain frames of DWARF unwinding) */
};

struct pk_symtab;

struct pk_symtab_opts {
	size_t sz;		/* sizeof(struct pk_symtab_opts) */
	bool no_demangle;	/* keep mangled C++/Rust names */
	/* Where separate debug info and perf's build-id cache live; NULL for
	 * the defaults "/usr/lib/debug" and "$HOME/.debug". */
	const char *debug_dir;
	const char *buildid_dir;
	/* kallsyms: kernel symbols move by this much (recorded address of the
	 * reference symbol minus its address in the file read). */
	int64_t reloc;
	/* A root that the recorded paths are looked up under, as perf's
	 * --symfs (NULL: "/"); the build-id cache is not under it. */
	const char *symfs;
};

/*
 * Symbols of the ELF object at path.  When bid is not NULL (size > 0) only
 * files with that build id are used.  Symbols come from the first file
 * with a .symtab among, in order: perf's build-id cache, the
 * /usr/lib/debug/.build-id tree, the .gnu_debuglink target (beside the
 * binary, in its .debug/, under /usr/lib/debug/<dir>/), /usr/lib/debug/<path>
 * and the binary itself; else from the binary's .gnu_debugdata
 * (MiniDebugInfo) with its .dynsym, else from .dynsym alone.  Symbol
 * values become file offsets through the program headers of the binary
 * (or its copy in the cache), never those of a debug file: with no copy of
 * the binary there are no symbols rather than misplaced ones.  PLT entries
 * get "name@plt" symbols.  Returns 0 and a table the caller frees with
 * pk_symtab_free(), -ENOENT when no matching file exists, -EINVAL when the
 * files are not usable ELF.
 */
int pk_symtab_load_elf(struct pk_symtab **out, const char *path, const struct pk_build_id *bid,
		       const struct pk_symtab_opts *opts);

/*
 * Kernel symbols from a kallsyms file (normally "/proc/kallsyms").  Module
 * symbols ("name [mod]") are kept with their module in
 * pk_symtab_module().  Returns 0, or a negative errno.
 */
int pk_symtab_load_kallsyms(struct pk_symtab **out, const char *path,
			    const struct pk_symtab_opts *opts);

/*
 * Kernel symbols from a vmlinux image at path (perf's -k/--vmlinux): the
 * functions and labels of its .text from .symtab, at run-time addresses.
 * When bid is not NULL (size > 0) an image with another build id, or none,
 * is not used (-ENOENT).  ref_name and ref_addr say where a reference
 * symbol (perf records "_text" or "_stext") was in the recorded kernel:
 * the symbols move by ref_addr minus the image's value of that symbol
 * (KASLR); with ref_name NULL, or no such symbol, they stay where they were
 * linked.  Returns 0 and a table the caller frees with pk_symtab_free(),
 * -ENOENT, -EINVAL when the file is not an ELF image with .symtab and
 * .text, or another negative errno.
 */
int pk_symtab_load_vmlinux(struct pk_symtab **out, const char *path,
			   const struct pk_build_id *bid, const char *ref_name,
			   uint64_t ref_addr, const struct pk_symtab_opts *opts);

/* Address of the first symbol called name in a kallsyms file, or 0. */
uint64_t pk_kallsyms_lookup_name(const char *path, const char *name);

/*
 * A JIT's /tmp/perf-PID.map ("START SIZE name" lines, hex).  Returns 0 or
 * a negative errno (-ENOENT when the file does not exist).
 */
int pk_symtab_load_perf_map(struct pk_symtab **out, const char *path,
			    const struct pk_symtab_opts *opts);

void pk_symtab_free(struct pk_symtab *st);

/* The symbol containing addr, or NULL. */
const struct pk_symbol *pk_symtab_lookup(const struct pk_symtab *st, uint64_t addr);

/* Symbols in address order. */
size_t pk_symtab_count(const struct pk_symtab *st);
const struct pk_symbol *pk_symtab_at(const struct pk_symtab *st, size_t i);

/* Kernel tables: module of the i-th symbol ("" for the kernel proper). */
const char *pk_symtab_module(const struct pk_symtab *st, size_t i);

/*
 * Demangle a C++ (Itanium ABI) or Rust symbol name.  Returns a string the
 * caller frees with free(), or NULL when the name is not mangled or no
 * demangler is available.
 */
char *pk_demangle(const char *name);

/*
 * Read the GNU build id of the ELF file at path.  Returns 0, -ENOENT, or
 * -EINVAL (not ELF, or no build id note).
 */
int pk_elf_build_id(const char *path, struct pk_build_id *out);

/* The running kernel's build id, from /sys/kernel/notes. */
int pk_kernel_build_id(struct pk_build_id *out);

/* ---- debuginfod and where symbols are looked for ----------------------- */

/*
 * With DEBUGINFOD_URLS set (and libperfkit built with libdebuginfod),
 * pk_symtab_load_elf() fetches by build id what no local file gave: the
 * debug file for the symbols, the executable for the program headers.
 * Without DEBUGINFOD_URLS nothing is fetched.  DEBUGINFOD_TIMEOUT bounds a
 * fetch that makes no progress (15 s when unset; then no more fetches).
 * Progress is shown on stderr when it is a terminal.
 */
enum pk_debuginfod_kind {
	PK_DEBUGINFOD_DEBUGINFO,	/* the separate debug file */
	PK_DEBUGINFOD_EXECUTABLE,	/* the binary itself */
};

/* Whether this libperfkit was built with libdebuginfod. */
bool pk_debuginfod_built(void);

/*
 * Whether libdebuginfod.so.1 loads here (it is loaded on first use, not
 * linked: calling this loads it).  False when not built with it.
 */
bool pk_debuginfod_loads(void);

/*
 * Fetch the file of that kind with build id bid from the servers in
 * DEBUGINFOD_URLS into debuginfod's client cache (or find it there).
 * Returns 0 and the cached file's path in *path, which the caller frees
 * with free(); -ENOSYS when built without libdebuginfod or it does not
 * load, -ENOENT when
 * DEBUGINFOD_URLS is unset or no server has it, -ETIMEDOUT, or another
 * negative errno.
 */
int pk_debuginfod_fetch(const struct pk_build_id *bid, enum pk_debuginfod_kind kind,
			char **path);

/* Where pk_symtab_load_elf() looks for the symbols of a binary. */
struct pk_symbol_places {
	size_t sz;			/* sizeof(struct pk_symbol_places) */
	char buildid_dir[4096];		/* perf's build-id cache */
	char debug_dir[4096];		/* /usr/lib/debug */
	bool debuginfod_built;		/* pk_debuginfod_built() */
	bool debuginfod_loads;		/* pk_debuginfod_loads(), when
					 * DEBUGINFOD_URLS is set (else false) */
	char debuginfod_urls[4096];	/* $DEBUGINFOD_URLS, "" when unset */
	char debuginfod_cache[4096];	/* libdebuginfod's client cache */
};

/*
 * Fill *out for the options opts (NULL: the defaults), from the
 * environment ($HOME, PERF_BUILDID_DIR, DEBUGINFOD_URLS,
 * DEBUGINFOD_CACHE_PATH, XDG_CACHE_HOME).  The search order is: the
 * build-id cache, debug_dir/.build-id/, the .gnu_debuglink target beside
 * the binary, in its .debug/ and under debug_dir/<its directory>/, the
 * binary itself, then debuginfod.
 */
void pk_symbol_places_get(struct pk_symbol_places *out, const struct pk_symtab_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
