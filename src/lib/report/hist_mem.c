// SPDX-License-Identifier: MIT
/*
 * Large zeroed tables that are written soon after they are allocated.
 *
 * Fresh anonymous memory is mapped lazily.  When a table's page is first
 * read (a hash probe, a "+="), the kernel maps the shared zero page; the
 * write that follows then faults again, copies it, and, because the
 * histogram runs several threads, flushes the TLB of every CPU running
 * them with an interrupt.  On the 348 MB benchmark file that was 42,000
 * pairs of faults and most of report's system time.  Asking for the pages
 * writable up front costs one system call per table instead.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "hist_internal.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older kernels say EINVAL */
#endif

/* below this, the pages are few and mostly come from malloc's own heap */
#define POPULATE_FROM (64 * 1024)

void pki_populate(void *p, size_t len)
{
	/* madvise() wants whole pages, and they are not 4 KiB everywhere */
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t first = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t end = ((uintptr_t)p + len) & ~(page - 1);

	if (len < POPULATE_FROM || end <= first)
		return;
	/* only a hint: on failure the pages fault in one by one, as before */
	(void)madvise((void *)first, end - first, MADV_POPULATE_WRITE);
}

void *pki_calloc_hot(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (p && n)
		pki_populate(p, n * size); /* calloc checked n * size */
	return p;
}

/*
 * The same in another thread, for arrays a busy thread is about to fill:
 * the kernel clears each page it maps (on this VM a tenth of the replay's
 * time went to that), and the other core, idle meanwhile, can as well.
 * The arrays must stay where they are until pki_populate_join().
 */
static void *populate_run(void *arg)
{
	struct pki_populate_job *job = arg;

	for (unsigned i = 0; i < job->nr; i++)
		pki_populate(job->p[i], job->len[i]);
	return NULL;
}

void pki_populate_start(struct pki_populate_job *job)
{
	job->started = !pthread_create(&job->thread, NULL, populate_run, job);
}

void pki_populate_join(struct pki_populate_job *job)
{
	if (job->started)
		pthread_join(job->thread, NULL);
	job->started = false;
}
