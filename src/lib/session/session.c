// SPDX-License-Identifier: MIT
/*
 * The session: reads in time order, keeps the machine up to date and
 * hands out samples resolved to thread, map, DSO and symbol.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "session_internal.h"
#include "unwind_internal.h"
#include "internal.h"

struct pki_maps *pki_session_kernel_maps(struct pk_session *s);

static void set_error(struct pk_session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_error(struct pk_session *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->error, sizeof(s->error), fmt, ap);
	va_end(ap);
}

int pk_session_open(struct pk_session **out, const char *path, const struct pk_session_opts *opts)
{
	struct pk_reader_opts ro = {.sz = sizeof(ro)};
	struct pk_session *s = calloc(1, sizeof(*s));
	int err;

	*out = s;
	if (!s)
		return -ENOMEM;
	if (opts)
		memcpy(&s->opts, opts, opts->sz < sizeof(s->opts) ? opts->sz : sizeof(s->opts));
	s->opts.sz = sizeof(s->opts);
	s->cache = calloc(PKI_ADDR_CACHE, sizeof(*s->cache));
	s->locs = calloc(PKI_LOC_CACHE, sizeof(*s->locs));
	if (!s->cache || !s->locs) {
		set_error(s, "%s: out of memory", path);
		return -ENOMEM;
	}
	ro.force = s->opts.force;
	ro.order = s->opts.file_order ? PK_ORDER_FILE : PK_ORDER_TIME;
	err = pk_reader_open(&s->reader, path, &ro);
	if (err) {
		set_error(s, "%s", s->reader ? pk_reader_error(s->reader) : strerror(-err));
		return err;
	}
	return 0;
}

void pk_session_close(struct pk_session *s)
{
	if (!s)
		return;
	pki_session_trace_free(s);
	pki_threads_free(s);
	pki_inlines_free(s);
	pki_thread_counts_free(&s->counts);
	pki_maps_put(s->kernel_maps);
	pki_dsos_free(s);
	pk_reader_close(s->reader);
	free((char *)s->kref_name);
	free(s->cache);
	free(s->locs);
	free(s);
}

const char *pk_session_error(const struct pk_session *s)
{
	return s ? s->error : "out of memory";
}

struct pk_reader *pk_session_reader(const struct pk_session *s)
{
	return s->reader;
}

uint64_t pk_session_lost_samples(const struct pk_session *s)
{
	return s->lost_samples;
}

uint64_t pk_session_nr_bad_samples(const struct pk_session *s)
{
	return s->nr_bad_samples;
}

static bool kernel_mode(uint8_t cpumode)
{
	return cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
}

/*
 * With a vmlinux (-k) perf's kernel map is the image's .text where the
 * kernel ran, not the recorded MMAP's range: inside it is the kernel,
 * outside it no map (modules keep theirs).  True when that decided.
 */
static bool resolve_vmlinux(struct pk_session *s, const struct pki_map *map, uint64_t addr,
			    struct pk_location *out)
{
	struct pk_dso *k = s->kernel_dso;

	if (!s->opts.vmlinux || s->opts.kallsyms || !k)
		return false;
	pki_dso_load(s, k);
	if (!k->has_text)
		return false;
	if (addr >= k->text_start && addr < k->text_end) {
		out->dso = k;
		out->sym = pki_dso_lookup(s, k, addr);
		return true;
	}
	return !map || map->dso == k;
}

static void resolve_in(struct pk_session *s, const struct pki_maps *maps, uint8_t cpumode,
		       uint64_t addr, struct pk_location *out)
{
	const struct pki_map *map = pki_maps_find(maps, addr);

	memset(out, 0, sizeof(*out));
	out->ip = out->addr = addr;
	out->cpumode = cpumode;
	if (kernel_mode(cpumode) && resolve_vmlinux(s, map, addr, out))
		return;
	if (!map && s->kernel_dso && kernel_mode(cpumode)) {
		/* past the end of the recorded kernel map (init text, which the
		 * MMAP record stops short of) perf still finds kallsyms symbols,
		 * through /proc/kcore's larger text segment: do the same */
		out->sym = pki_dso_lookup(s, s->kernel_dso, addr);
		if (out->sym)
			out->dso = s->kernel_dso;
		return;
	}
	if (!map)
		return;
	out->dso = map->dso;
	if (map->dso->kernel && map->dso != s->kernel_dso) {
		/* a module: its symbols are in the kernel's kallsyms */
		out->addr = addr - map->start + map->pgoff;
		out->sym = s->kernel_dso ? pki_dso_lookup(s, s->kernel_dso, addr) : NULL;
		return;
	}
	out->addr = map->dso->identity ? addr : addr - map->start + map->pgoff;
	out->sym = pki_dso_lookup(s, map->dso, out->addr);
}

/*
 * What an address resolves to depends only on the maps searched (their
 * version) and the DSOs' symbols, which never change once loaded: so it
 * is answered from the location cache when it can be.
 */
void pk_session_resolve(struct pk_session *s, const struct pk_thread *t, uint8_t cpumode,
			uint64_t addr, struct pk_location *out)
{
	const struct pki_maps *maps = NULL;
	struct pki_loc_entry *e;

	if (kernel_mode(cpumode))
		maps = pki_session_kernel_maps(s);
	else if (cpumode == PERF_RECORD_MISC_USER || cpumode == PERF_RECORD_MISC_GUEST_USER)
		/* no fallback to the kernel maps: perf has none for samples */
		maps = t ? t->maps : NULL;
	if (!maps || !s->locs) {
		resolve_in(s, maps, cpumode, addr, out);
		return;
	}
	e = pki_loc_slot(s, maps, cpumode, addr);
	if (e->maps == maps && e->gen == maps->gen && e->loc.ip == addr &&
	    e->loc.cpumode == cpumode) {
		*out = e->loc;
		return;
	}
	resolve_in(s, maps, cpumode, addr, out);
	e->maps = maps;
	e->gen = maps->gen;
	e->loc = *out;
}

/* perf: addresses from the kernel start up are the kernel's (64-bit) */
static bool kernel_half(uint64_t addr)
{
	return addr >> 63;
}

void pk_session_resolve_fallback(struct pk_session *s, const struct pk_thread *t,
				 uint8_t cpumode, uint64_t addr, struct pk_location *out)
{
	uint8_t other = kernel_half(addr) ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;

	pk_session_resolve(s, t, cpumode, addr, out);
	if (!out->dso && other != cpumode)
		pk_session_resolve(s, t, other, addr, out);
}

int pk_session_next_any(struct pk_session *s, struct pk_session_sample *ev,
			const struct pk_record **other)
{
	const struct pk_record *rec;
	int err;

	*other = NULL;
	while ((err = pk_reader_next(s->reader, &rec)) > 0) {
		const char *why = NULL;

		if (rec->type != PK_RECORD_SAMPLE) {
			err = pki_machine_process(s, rec);
			if (err) {
				set_error(s, "%s: out of memory", pk_reader_path(s->reader));
				return err;
			}
			*other = rec;
			return 1;
		}
		/* not a memset of the whole: pk_sample_decode() clears the
		 * sample, and a sample is hundreds of bytes */
		ev->rec = rec;
		ev->attr = rec->attr;
		ev->thread = NULL;
		if (!rec->attr || pk_sample_decode(rec, &ev->sample, &why)) {
			s->nr_bad_samples++;
			pki_debug("offset %#llx: sample skipped: %s",
				  (unsigned long long)rec->file_offset, why ? why : "no attr");
			continue;
		}
		if (ev->sample.type & PERF_SAMPLE_TID)
			ev->thread = pki_thread_findnew(s, (int32_t)ev->sample.pid,
							(int32_t)ev->sample.tid);
		else
			ev->thread = pki_thread_findnew(s, -1, -1);
		pk_session_resolve(s, ev->thread, rec->misc & PK_MISC_CPUMODE_MASK, ev->sample.ip,
				   &ev->loc);
		pki_count_sample(s, &ev->loc);
		return 1;
	}
	if (err < 0)
		set_error(s, "%s", pk_reader_error(s->reader));
	return err;
}

int pk_session_next(struct pk_session *s, struct pk_session_sample *ev)
{
	const struct pk_record *other;
	int err;

	while ((err = pk_session_next_any(s, ev, &other)) > 0 && other)
		;
	return err;
}

const struct pk_thread *pk_session_thread(struct pk_session *s, int32_t pid, int32_t tid)
{
	return pki_thread_findnew(s, pid, tid);
}

/* 0: an address, 1: a context marker, -1: a value no kernel writes, which
 * makes perf drop the whole callchain as corrupt */
static int context_marker(uint64_t ip, uint8_t *cpumode)
{
	if (ip < (uint64_t)PERF_CONTEXT_MAX)
		return 0;
	switch (ip) {
	case PERF_CONTEXT_HV:
		*cpumode = PERF_RECORD_MISC_HYPERVISOR;
		break;
	case PERF_CONTEXT_KERNEL:
		*cpumode = PERF_RECORD_MISC_KERNEL;
		break;
	case PERF_CONTEXT_USER:
		*cpumode = PERF_RECORD_MISC_USER;
		break;
	case PERF_CONTEXT_GUEST_KERNEL:
		*cpumode = PERF_RECORD_MISC_GUEST_KERNEL;
		break;
	case PERF_CONTEXT_GUEST_USER:
		*cpumode = PERF_RECORD_MISC_GUEST_USER;
		break;
	case PERF_CONTEXT_GUEST:
		break;
	default:
		return -1;
	}
	return 1;
}

size_t pk_session_callchain_max(struct pk_session *s, const struct pk_session_sample *ev,
				struct pk_frame *frames, size_t cap, size_t max_stack)
{
	uint8_t cpumode = PERF_RECORD_MISC_USER;
	size_t n = 0, max = cap < max_stack ? cap : max_stack;

	if (!(ev->sample.type & PERF_SAMPLE_CALLCHAIN))
		return 0;
	for (uint64_t i = 0; i < ev->sample.callchain_nr && n < max; i++) {
		uint64_t ip = pk_sample_callchain_at(&ev->sample, i);
		int marker = context_marker(ip, &cpumode);

		if (marker < 0)
			return 0;
		if (marker)
			continue;
		pk_session_resolve(s, ev->thread, cpumode, ip, &frames[n++].loc);
	}
	/* --call-graph dwarf: the recorded chain (the kernel's part), then
	 * the user frames unwound from the stack copy, as perf orders them */
	return n + pki_unwind_user(s, ev, frames + n, cap - n, max_stack);
}

size_t pk_session_callchain(struct pk_session *s, const struct pk_session_sample *ev,
			    struct pk_frame *frames, size_t max)
{
	return pk_session_callchain_max(s, ev, frames, max, max);
}
