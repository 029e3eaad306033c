/* SPDX-License-Identifier: MIT */
/*
 * The event-string parser's state, shared by its files (event_parse.c:
 * lists, groups and event kinds; event_mods.c: modifiers).
 */
#ifndef PK_EVENT_PARSER_H
#define PK_EVENT_PARSER_H

#include <stdbool.h>
#include <stddef.h>
#include "event_internal.h"

struct parser {
	const char *s;
	size_t pos;
	struct pk_event_list *list;
	const struct pk_event_parse_opts *opts;
	struct pk_parse_error *err;
	int ret;
	size_t last_tok; /* start of the last token, where perf points at junk after it */
};

/* Note the first error (message, and position in the string) and return
 * ret; later errors keep the first. */
__attribute__((format(printf, 4, 5))) int pki_parse_fail(struct parser *p, size_t pos, int ret,
							 const char *fmt, ...);

static inline char pki_parse_peek(const struct parser *p)
{
	return p->s[p->pos];
}

/* What modifiers (":ukhGHpPISDWe") set; a group's add to what each of its
 * members already has. */
struct pki_mods {
	int eu, ek, eh, eH, eG, eI, precise;
	bool exclude, exclude_GH, sample_read, pinned, weak, exclusive, precise_max;
};

/* Modifiers at p->pos (after the ':'), up to the first non-letter, from
 * nothing or from ev's. */
int pki_parse_mods(struct parser *p, struct pki_mods *m, const struct pk_event *ev);
void pki_apply_mods(struct pk_event *ev, const struct pki_mods *m);
/* ":mods" after the events of the list from index first, if any; a
 * single event is then named as written, name_start on. */
int pki_maybe_mods(struct parser *p, size_t first, size_t name_start);

#endif
