// SPDX-License-Identifier: MIT
/*
 * Event modifiers, perf's ":ukhGHpPISDWe" after an event or a group: which
 * privilege levels and hosts are excluded, precision, and the rest.  As in
 * perf, the first of u, k or h excludes the other two levels, and the
 * first of G or H the other host.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "event_parser.h"

/*
 * Parse mods at p->pos (after ':'), up to the first non-letter.  An event's
 * own modifiers start from nothing; a group's are added to what each member
 * already has (ev), as perf does.
 */
int pki_parse_mods(struct parser *p, struct pki_mods *m, const struct pk_event *ev)
{
	memset(m, 0, sizeof(*m));
	size_t start = p->pos;

	if (ev) {
		const struct perf_event_attr *a = &ev->attr;

		m->eu = a->exclude_user;
		m->ek = a->exclude_kernel;
		m->eh = a->exclude_hv;
		m->eH = a->exclude_host;
		m->eG = a->exclude_guest;
		m->eI = a->exclude_idle;
		m->precise = a->precise_ip;
		m->exclude = m->eu || m->ek || m->eh;
		m->exclude_GH = ev->mods & PK_EVENT_MOD_GH;
		m->sample_read = ev->mods & PK_EVENT_MOD_SAMPLE_READ;
		m->pinned = a->pinned;
		m->exclusive = a->exclusive;
		m->weak = ev->mods & PK_EVENT_MOD_WEAK;
		m->precise_max = ev->mods & PK_EVENT_MOD_PRECISE_MAX;
	}

	while (isalpha((unsigned char)pki_parse_peek(p))) {
		char c = pki_parse_peek(p);

		switch (c) {
		case 'u':
		case 'k':
		case 'h':
			if (!m->exclude) {
				m->exclude = true;
				m->eu = m->ek = m->eh = 1;
			}
			if (c == 'u') {
				if (!m->exclude_GH)
					m->eG = 1;
				m->eu = 0;
			}
			if (c == 'k')
				m->ek = 0;
			if (c == 'h')
				m->eh = 0;
			break;
		case 'G':
		case 'H':
			if (!m->exclude_GH) {
				m->exclude_GH = true;
				m->eG = m->eH = 1;
			}
			if (c == 'G')
				m->eG = 0;
			else
				m->eH = 0;
			break;
		case 'p':
			m->precise++;
			if (!m->exclude_GH)
				m->eG = 1;
			break;
		case 'P':
			/* resolved when opening: the highest level the PMU takes */
			m->precise_max = true;
			break;
		case 'I':
			m->eI = 1;
			break;
		case 'S':
			m->sample_read = true;
			break;
		case 'D':
			m->pinned = true;
			break;
		case 'W':
			m->weak = true;
			break;
		case 'e':
			m->exclusive = true;
			break;
		default:
			return pki_parse_fail(p, start - 1, -EINVAL, "unknown modifier '%c'", c);
		}
		p->pos++;
	}
	if (p->pos == start)
		return pki_parse_fail(p, start - 1, -EINVAL, "modifier expected");
	p->last_tok = start;
	if (m->precise > 3)
		return pki_parse_fail(p, start, -EINVAL, "precise level greater than 3 (ppp)");
	return 0;
}

void pki_apply_mods(struct pk_event *ev, const struct pki_mods *m)
{
	struct perf_event_attr *a = &ev->attr;

	ev->mods = (m->exclude_GH ? PK_EVENT_MOD_GH : 0) |
		   (m->precise_max ? PK_EVENT_MOD_PRECISE_MAX : 0) |
		   (m->weak ? PK_EVENT_MOD_WEAK : 0) |
		   (m->sample_read ? PK_EVENT_MOD_SAMPLE_READ : 0);
	a->exclude_user = m->eu;
	a->exclude_kernel = m->ek;
	a->exclude_hv = m->eh;
	a->exclude_host = m->eH;
	a->exclude_guest = m->eG;
	a->exclude_idle = m->eI;
	a->precise_ip = m->precise;
	a->pinned = m->pinned;
	a->exclusive = m->exclusive;
	if (m->sample_read) {
		a->sample_type |= PERF_SAMPLE_READ;
		a->read_format |= PERF_FORMAT_ID;
	}
}

/* ":mods" after an event of the list starting at index first. */
int pki_maybe_mods(struct parser *p, size_t first, size_t name_start)
{
	struct pki_mods m;
	int ret;

	if (pki_parse_peek(p) != ':')
		return 0;
	p->pos++;
	ret = pki_parse_mods(p, &m, NULL);
	if (ret)
		return ret;
	for (size_t i = first; i < p->list->nr; i++) {
		struct pk_event *ev = &p->list->ev[i];
		size_t len = p->pos - name_start;

		pki_apply_mods(ev, &m);
		/* Single events are named as written, modifiers included. */
		if (p->list->nr - first == 1) {
			char *n = strndup(p->s + name_start, len);
			if (!n)
				return pki_parse_fail(p, name_start, -ENOMEM, "out of memory");
			free(ev->name);
			ev->name = n;
		}
	}
	return 0;
}
