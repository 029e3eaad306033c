// SPDX-License-Identifier: MIT
/*
 * Threads by tid.  Threads of a process share its maps; a new process
 * gets a copy of its parent's maps at FORK; a thread seen for the first
 * time in a sample is called ":TID" until a COMM names it, as in perf.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "session_internal.h"

static size_t bucket(int32_t tid)
{
	return (uint32_t)tid * 2654435761u % PKI_THREAD_BUCKETS;
}

struct pk_thread *pki_thread_find(struct pk_session *s, int32_t tid)
{
	for (struct pk_thread *t = s->threads[bucket(tid)]; t; t = t->hash_next)
		if (t->tid == tid)
			return t;
	return NULL;
}

static void unhash(struct pk_session *s, struct pk_thread *t)
{
	struct pk_thread **pp = &s->threads[bucket(t->tid)];

	while (*pp && *pp != t)
		pp = &(*pp)->hash_next;
	if (*pp)
		*pp = t->hash_next;
	/* stays on all_threads: events already delivered may point at it */
}

static struct pk_thread *thread_new(struct pk_session *s, int32_t pid, int32_t tid)
{
	struct pk_thread *t = calloc(1, sizeof(*t));
	char name[16];

	if (!t)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	if (tid == 0)
		snprintf(name, sizeof(name), "swapper");
	else
		snprintf(name, sizeof(name), ":%d", tid);
	t->comm = strdup(name);
	if (!t->comm) {
		free(t);
		return NULL;
	}
	t->hash_next = s->threads[bucket(tid)];
	s->threads[bucket(tid)] = t;
	t->all_next = s->all_threads;
	s->all_threads = t;
	return t;
}

struct pk_thread *pki_thread_findnew(struct pk_session *s, int32_t pid, int32_t tid)
{
	struct pk_thread *t = pki_thread_find(s, tid), *leader;

	if (t) {
		/* pid learnt later (a thread first seen with pid -1) */
		if (t->pid == -1 && pid != -1)
			t->pid = pid;
		return t;
	}
	t = thread_new(s, pid, tid);
	if (!t)
		return NULL;
	if (pid != -1 && pid != tid) {
		leader = pki_thread_findnew(s, pid, pid);
		if (leader && leader->maps) {
			t->maps = leader->maps;
			t->maps->refs++;
			return t;
		}
	}
	t->maps = pki_maps_new();
	pki_maps_stamp(s, t->maps);
	return t;
}

int pki_thread_set_comm(struct pk_thread *t, const char *comm)
{
	char *c = strdup(comm);

	if (!c)
		return -ENOMEM;
	free(t->comm);
	t->comm = c;
	return 0;
}

int pki_thread_fork(struct pk_session *s, int32_t pid, int32_t tid, int32_t ppid, int32_t ptid)
{
	struct pk_thread *parent, *t = pki_thread_find(s, tid);

	if (t)
		unhash(s, t);
	parent = pki_thread_findnew(s, ppid, ptid);
	t = pki_thread_findnew(s, pid, tid);
	if (!t || !parent)
		return -ENOMEM;
	if (parent->comm && parent->comm[0] != ':' && pki_thread_set_comm(t, parent->comm))
		return -ENOMEM;
	if (parent->pid != pid && parent->maps && t->maps != parent->maps) {
		struct pki_maps *copy = pki_maps_clone(parent->maps);

		if (!copy)
			return -ENOMEM;
		pki_maps_put(t->maps);
		pki_maps_stamp(s, copy);
		t->maps = copy;
	}
	return 0;
}

void pki_threads_free(struct pk_session *s)
{
	struct pk_thread *t = s->all_threads, *next;

	for (; t; t = next) {
		next = t->all_next;
		pki_maps_put(t->maps);
		free(t->comm);
		free(t);
	}
	s->all_threads = NULL;
	memset(s->threads, 0, sizeof(s->threads));
}

int32_t pk_thread_pid(const struct pk_thread *t)
{
	return t ? t->pid : -1;
}

int32_t pk_thread_tid(const struct pk_thread *t)
{
	return t ? t->tid : -1;
}

const char *pk_thread_comm(const struct pk_thread *t)
{
	return t && t->comm ? t->comm : ":-1";
}
