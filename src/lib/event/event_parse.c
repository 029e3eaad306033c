// SPDX-License-Identifier: MIT
/*
 * The event-string parser: perf's -e language.
 *
 *   list     := item (',' item)*
 *   item     := '{' event (',' event)* '}' [':' mods] | event
 *   event    := pmu '/' [term (',' term)*] '/' [':' mods]
 *             | 'mem:' addr ['/' len] [':' access] [':' mods]
 *             | 'r' hex [':' mods] | symbol [':' mods] | cache [':' mods]
 *             | sys ':' name [':' mods]     (globs allowed in sys and name)
 *             | alias [':' mods]            (an events/ entry of some PMU)
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/hw_breakpoint.h>
#include "event_internal.h"
#include "event_parser.h"

int pki_parse_fail(struct parser *p, size_t pos, int ret, const char *fmt, ...)
{
	if (p->ret)
		return p->ret;
	p->ret = ret;
	if (p->err) {
		va_list ap;

		p->err->pos = (int)pos;
		va_start(ap, fmt);
		vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
		va_end(ap);
	}
	return ret;
}

static bool is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.' || c == '*' ||
	       c == '?' || c == '[' || c == ']' || c == '!';
}

static size_t scan_name(struct parser *p)
{
	size_t start = p->pos;

	while (is_name_char(pki_parse_peek(p)))
		p->pos++;
	return p->pos - start;
}

static struct pk_event *add_event(struct parser *p, const char *name, size_t len)
{
	struct pk_event *ev, *arr;

	arr = realloc(p->list->ev, (p->list->nr + 1) * sizeof(*arr));
	if (!arr)
		return NULL;
	p->list->ev = arr;
	ev = &arr[p->list->nr];
	memset(ev, 0, sizeof(*ev));
	ev->name = strndup(name, len);
	if (!ev->name)
		return NULL;
	ev->attr.size = sizeof(ev->attr);
	ev->attr.exclude_guest = 1; /* perf's default when no modifier says otherwise */
	ev->leader = (int)p->list->nr;
	ev->group_size = 1;
	ev->scale = 1.0;
	p->list->nr++;
	return ev;
}

static void free_event(struct pk_event *ev)
{
	free(ev->name);
	free(ev->pmu);
	free(ev->filter);
	free(ev->cpus);
	free(ev->unit);
	free(ev->probe_target);
}

int pk_event_list_set_filter(struct pk_event_list *list, size_t first, const char *filter,
			     char *msg, size_t msgsize)
{
	if (!filter || first >= list->nr) {
		if (msg)
			snprintf(msg, msgsize, "--filter option should follow a -e tracepoint");
		return -EINVAL;
	}
	for (size_t i = first; i < list->nr; i++) {
		if (list->ev[i].attr.type == PERF_TYPE_TRACEPOINT)
			continue;
		if (msg)
			snprintf(msg, msgsize,
				 "--filter option should follow a -e tracepoint (%s is not one)",
				 list->ev[i].name);
		return -EINVAL;
	}
	for (size_t i = first; i < list->nr; i++) {
		char *copy = strdup(filter);

		if (!copy)
			return -ENOMEM;
		free(list->ev[i].filter);
		list->ev[i].filter = copy;
	}
	return 0;
}

void pk_event_list_free(struct pk_event_list *list)
{
	if (!list)
		return;
	for (size_t i = 0; i < list->nr; i++)
		free_event(&list->ev[i]);
	free(list->ev);
	list->ev = NULL;
	list->nr = 0;
}

/* Event kinds ------------------------------------------------------------ */

static int parse_u64(const char *s, size_t len, uint64_t *v)
{
	char buf[32], *end;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = 0;
	if (buf[0] == '-')
		return -EINVAL;
	errno = 0;
	*v = strtoull(buf, &end, 0);
	return errno || *end ? -EINVAL : 0;
}

static int parse_breakpoint(struct parser *p, size_t start)
{
	struct pk_event *ev;
	uint64_t addr, len = 0;
	unsigned int type = 0;
	size_t a = p->pos, n;

	while (isxdigit((unsigned char)pki_parse_peek(p)) || pki_parse_peek(p) == 'x' ||
	       pki_parse_peek(p) == 'X')
		p->pos++;
	if (parse_u64(p->s + a, p->pos - a, &addr))
		return pki_parse_fail(p, start, -EINVAL, "breakpoint address expected");
	if (pki_parse_peek(p) == '/') {
		a = ++p->pos;
		while (isalnum((unsigned char)pki_parse_peek(p)))
			p->pos++;
		if (parse_u64(p->s + a, p->pos - a, &len) ||
		    (len != 1 && len != 2 && len != 4 && len != 8))
			return pki_parse_fail(p, a, -EINVAL,
					      "breakpoint length must be 1, 2, 4 or 8");
	}
	if (pki_parse_peek(p) == ':') {
		a = p->pos + 1;
		n = 0;
		while (strchr("rwx", p->s[a + n]) && p->s[a + n])
			n++;
		if (n && (!p->s[a + n] || strchr(":,}", p->s[a + n]))) {
			for (size_t i = 0; i < n; i++)
				type |= p->s[a + i] == 'r' ? HW_BREAKPOINT_R
					: p->s[a + i] == 'w' ? HW_BREAKPOINT_W : HW_BREAKPOINT_X;
			p->pos = a + n;
		}
	}
	if (!type)
		type = HW_BREAKPOINT_R | HW_BREAKPOINT_W;
	if ((type & HW_BREAKPOINT_X) && (type & HW_BREAKPOINT_RW))
		return pki_parse_fail(p, start, -EINVAL,
				      "breakpoint cannot be both execute and read/write");
	if (!len)
		len = type == HW_BREAKPOINT_X ? sizeof(long) : HW_BREAKPOINT_LEN_4;
	ev = add_event(p, p->s + start, p->pos - start);
	if (!ev)
		return pki_parse_fail(p, start, -ENOMEM, "out of memory");
	ev->attr.type = PERF_TYPE_BREAKPOINT;
	ev->attr.bp_type = type;
	ev->attr.bp_addr = addr;
	ev->attr.bp_len = len;
	ev->attr.sample_period = 1;
	ev->pmu = strdup("breakpoint");
	return pki_maybe_mods(p, p->list->nr - 1, start);
}

static bool is_raw(const char *s, size_t len)
{
	if (len < 2 || s[0] != 'r')
		return false;
	for (size_t i = 1; i < len; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return false;
	}
	return len <= 17;
}

static int parse_terms_and_mods(struct parser *p, const struct pki_pmu *pmu, struct pk_event *ev,
				size_t start);

static int add_simple(struct parser *p, size_t start, size_t len, uint32_t type, uint64_t config,
		      const char *pmu)
{
	struct pk_event *ev = add_event(p, p->s + start, len);

	if (!ev)
		return pki_parse_fail(p, start, -ENOMEM, "out of memory");
	ev->attr.type = type;
	ev->attr.config = config;
	ev->pmu = strdup(pmu);
	if (type == PERF_TYPE_SOFTWARE &&
	    (config == PERF_COUNT_SW_TASK_CLOCK || config == PERF_COUNT_SW_CPU_CLOCK)) {
		ev->unit = strdup("msec");
		ev->scale = 1e-6;
	}
	if (pki_parse_peek(p) == '/') { /* "cpu-clock/name=x,period=n/" */
		p->pos++;
		free(ev->name);
		ev->name = strdup("");
		if (!ev->name)
			return pki_parse_fail(p, start, -ENOMEM, "out of memory");
		return parse_terms_and_mods(p, NULL, ev, start);
	}
	return pki_maybe_mods(p, p->list->nr - 1, start);
}

/* A tool event: a software dummy attr that is never opened. */
static int add_tool(struct parser *p, size_t start, size_t len, unsigned int tool)
{
	struct pk_event *ev = add_event(p, p->s + start, len);

	if (!ev)
		return pki_parse_fail(p, start, -ENOMEM, "out of memory");
	ev->attr.type = PERF_TYPE_SOFTWARE;
	ev->attr.config = PERF_COUNT_SW_DUMMY;
	ev->tool = tool;
	ev->pmu = strdup("tool");
	ev->unit = strdup("ns");
	if (!ev->pmu || !ev->unit)
		return pki_parse_fail(p, start, -ENOMEM, "out of memory");
	return pki_maybe_mods(p, p->list->nr - 1, start);
}

struct tp_ctx {
	struct parser *p;
	size_t start;
	int added;
};

static int add_tracepoint(const char *sys, const char *name, long id, void *arg)
{
	struct tp_ctx *c = arg;
	char full[512];
	int n = snprintf(full, sizeof(full), "%s:%s", sys, name);
	struct pk_event *ev = add_event(c->p, full, n > 0 ? (size_t)n : 0);

	if (!ev)
		return pki_parse_fail(c->p, c->start, -ENOMEM, "out of memory");
	ev->attr.type = PERF_TYPE_TRACEPOINT;
	ev->attr.config = (uint64_t)id;
	ev->attr.sample_period = 1;
	ev->pmu = strdup("tracepoint");
	c->added++;
	return 0;
}

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static int parse_tracepoint(struct parser *p, size_t start, size_t syslen)
{
	const char *tracefs = pki_tracefs_root(p->opts);
	struct tp_ctx c = {p, start, 0};
	char sys[256], name[256];
	size_t nstart, nlen;
	size_t first = p->list->nr;

	p->pos++; /* ':' */
	nstart = p->pos;
	nlen = scan_name(p);
	if (!nlen)
		return pki_parse_fail(p, nstart, -EINVAL, "tracepoint name expected after '%.*s:'",
				      (int)syslen, p->s + start);
	if (syslen >= sizeof(sys) || nlen >= sizeof(name))
		return pki_parse_fail(p, start, -ENAMETOOLONG, "tracepoint name too long");
	memcpy(sys, p->s + start, syslen);
	sys[syslen] = 0;
	memcpy(name, p->s + nstart, nlen);
	name[nlen] = 0;
	if (!has_glob(sys) && !has_glob(name)) {
		long id = pki_tracepoint_id(tracefs, sys, name);

		if (id < 0)
			return pki_parse_fail(p, start, -ENOENT,
					      "unknown tracepoint '%s:%s' (no %s/events/%s/%s)",
					      sys, name, tracefs, sys, name);
		if (add_tracepoint(sys, name, id, &c))
			return p->ret;
	} else {
		int ret = pki_tracepoint_foreach(tracefs, sys, name, false, add_tracepoint, &c);

		if (ret)
			return p->ret ? p->ret
				      : pki_parse_fail(p, start, ret, "cannot list tracepoints");
		if (!c.added)
			return pki_parse_fail(p, start, -ENOENT, "no tracepoint matches '%s:%s'",
					      sys, name);
	}
	return pki_maybe_mods(p, first, start);
}

/* Apply "a=1,b,c=0x2" terms (an events/ alias body) to attr. */
static int apply_alias_terms(const struct pki_pmu *pmu, struct perf_event_attr *attr,
			     const char *body)
{
	char buf[512], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", body);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		uint64_t v = 1;

		while (isspace((unsigned char)*tok))
			tok++;
		if (eq) {
			*eq = 0;
			if (parse_u64(eq + 1, strlen(eq + 1), &v))
				return -EINVAL;
		}
		int ret = pki_pmu_apply_term(pmu, attr, tok, v);
		if (ret)
			return ret;
	}
	return 0;
}

static int fill_pmu_event(struct parser *p, struct pk_event *ev, const struct pki_pmu *pmu,
			  const char *pmu_name)
{
	ev->attr.type = pmu->type;
	ev->pmu = strdup(pmu_name);
	if (!ev->pmu || pki_pmu_cpumask(pmu, &ev->cpus, &ev->nr_cpus))
		return pki_parse_fail(p, p->pos, -ENOMEM, "out of memory");
	return 0;
}

/*
 * perf's terms about how an event is recorded rather than what it counts:
 * 1 when term (value v, or the string at val/vl) was one of them, 0 when
 * not, < 0 on a bad value.
 */
static int record_term(struct parser *p, struct pk_event *ev, const char *term, size_t vs,
		       size_t vl, uint64_t v)
{
	const char *val = p->s + vs;

	if (!strcmp(term, "call-graph")) {
		if (vl == 2 && !strncmp(val, "fp", 2))
			ev->rec.callgraph = PK_EVENT_CG_FP;
		else if (vl == 5 && !strncmp(val, "dwarf", 5))
			ev->rec.callgraph = PK_EVENT_CG_DWARF;
		else if (vl == 2 && !strncmp(val, "no", 2))
			ev->rec.callgraph = PK_EVENT_CG_NONE;
		else
			return pki_parse_fail(p, vs, -EINVAL, "call-graph must be fp, dwarf or no");
		return 1;
	}
	if (!strcmp(term, "metric-id"))
		return 1; /* names the event in metrics, which record has none of */
	if (!vl && (!strcmp(term, "inherit") || !strcmp(term, "no-inherit"))) {
		ev->rec.inherit = term[0] == 'n' ? -1 : 1;
		return 1;
	}
	if (!strcmp(term, "stack-size")) {
		if (v < 8 || v > 65528)
			return pki_parse_fail(p, vs, -EINVAL, "stack-size must be 8..65528");
		ev->rec.stack_size = (uint32_t)((v + 7) & ~7ULL);
		return 1;
	}
	if (!strcmp(term, "max-stack")) {
		if (!v || v > UINT16_MAX)
			return pki_parse_fail(p, vs, -EINVAL, "max-stack must be 1..65535");
		ev->rec.max_stack = (uint16_t)v;
		return 1;
	}
	if (!strcmp(term, "time") || !strcmp(term, "percore")) {
		if (!v) /* every sample of a recording carries its time */
			return pki_parse_fail(p, vs, -EINVAL, "%s=0 is not supported", term);
		return 1; /* percore: a stat aggregation, nothing to record */
	}
	if (!strcmp(term, "overwrite") || !strcmp(term, "no-overwrite"))
		return pki_parse_fail(p, vs - 1 - strlen(term), -EINVAL,
				      "per-event %s is not supported (use record --overwrite)",
				      term);
	return 0;
}

/* One term "name[=value]" of pmu/.../, at p->pos. */
static int parse_term(struct parser *p, const struct pki_pmu *pmu, struct pk_event *ev)
{
	size_t ts = p->pos, tl, vs, vl = 0;
	char term[128], alias[512];
	uint64_t v = 1;
	int ret;

	while (isalnum((unsigned char)pki_parse_peek(p)) || pki_parse_peek(p) == '_' ||
	       pki_parse_peek(p) == '-' || pki_parse_peek(p) == '.')
		p->pos++;
	tl = p->pos - ts;
	if (!tl || tl >= sizeof(term))
		return pki_parse_fail(p, ts, -EINVAL, "term expected");
	memcpy(term, p->s + ts, tl);
	term[tl] = 0;
	vs = p->pos + 1;
	if (pki_parse_peek(p) == '=') {
		p->pos++;
		while (pki_parse_peek(p) && pki_parse_peek(p) != ',' && pki_parse_peek(p) != '/')
			p->pos++;
		vl = p->pos - vs;
		if (!strcmp(term, "name")) {
			char *n = strndup(p->s + vs, vl);
			if (!n)
				return pki_parse_fail(p, vs, -ENOMEM, "out of memory");
			free(ev->name);
			ev->name = n;
			return 0;
		}
		if (!strcmp(term, "call-graph") || !strcmp(term, "metric-id"))
			return record_term(p, ev, term, vs, vl, 0) < 0 ? -EINVAL : 0;
		if (parse_u64(p->s + vs, vl, &v))
			return pki_parse_fail(p, vs, -EINVAL, "number expected for term '%s'",
					      term);
	}
	if (!strcmp(term, "period") || !strcmp(term, "freq")) {
		if (!strcmp(term, "freq"))
			ev->attr.freq = 1;
		ev->attr.sample_period = v;
		return 0;
	}
	if ((ret = record_term(p, ev, term, vs, vl, v)))
		return ret < 0 ? ret : 0;
	if (!pmu)	/* a symbolic event: only the generic terms above */
		return pki_parse_fail(p, ts, -EINVAL, "unknown term '%s' for a symbolic event",
				      term);
	ret = pki_pmu_apply_term(pmu, &ev->attr, term, v);
	if (ret == -ENOENT && !vl && !pki_pmu_event_alias(pmu, term, alias, sizeof(alias))) {
		if (apply_alias_terms(pmu, &ev->attr, alias))
			return pki_parse_fail(p, ts, -EINVAL, "bad events/%s in sysfs: '%s'", term,
					      alias);
		free(ev->unit);
		pki_pmu_event_scale_unit(pmu, term, &ev->scale, &ev->unit);
		return 0;
	}
	if (ret == -ENOENT)
		return pki_parse_fail(p, ts, -EINVAL, "unknown term '%s' for pmu '%s'", term,
				      strrchr(pmu->dir, '/') + 1);
	if (ret == -ERANGE)
		return pki_parse_fail(p, vs, -ERANGE, "value too big for format of '%s'", term);
	if (ret)
		return pki_parse_fail(p, ts, ret, "bad format of term '%s' in sysfs", term);
	return 0;
}

static int parse_pmu_event(struct parser *p, size_t start, size_t len)
{
	char pmu_name[128];
	struct pki_pmu pmu;
	struct pk_event *ev;
	int ret;

	if (len >= sizeof(pmu_name))
		return pki_parse_fail(p, start, -ENAMETOOLONG, "PMU name too long");
	memcpy(pmu_name, p->s + start, len);
	pmu_name[len] = 0;
	if (pki_pmu_open(&pmu, pki_sysfs_root(p->opts), pmu_name))
		return pki_parse_fail(p, start, -ENOENT, "unknown PMU '%s'", pmu_name);
	p->pos++; /* '/' */
	ev = add_event(p, "", 0);
	if (!ev)
		return pki_parse_fail(p, start, -ENOMEM, "out of memory");
	ev->attr.exclude_guest = 1;
	if ((ret = fill_pmu_event(p, ev, &pmu, pmu_name)))
		return ret;
	return parse_terms_and_mods(p, &pmu, ev, start);
}

/* "term,term/" then modifiers, after the opening '/' of ev (started at start). */
static int parse_terms_and_mods(struct parser *p, const struct pki_pmu *pmu, struct pk_event *ev,
				size_t start)
{
	int ret;

	while (pki_parse_peek(p) != '/') {
		if (!pki_parse_peek(p))
			return pki_parse_fail(p, start, -EINVAL, "missing the closing '/'");
		if ((ret = parse_term(p, pmu, ev)))
			return ret;
		if (pki_parse_peek(p) == ',')
			p->pos++;
		else if (pki_parse_peek(p) != '/')
			return pki_parse_fail(p, p->pos, -EINVAL, "',' or '/' expected");
	}
	p->last_tok = p->pos;
	p->pos++;
	if (!*ev->name) {
		free(ev->name);
		if (!(ev->name = strndup(p->s + start, p->pos - start)))
			return pki_parse_fail(p, start, -ENOMEM, "out of memory");
	}
	/* Modifiers follow the closing '/' directly ("cpu/.../pp") or after ':'. */
	if (pki_parse_peek(p) == ':' || isalpha((unsigned char)pki_parse_peek(p))) {
		char *named = strdup(ev->name);
		size_t before = p->pos;
		struct pki_mods m;

		if (!named)
			return pki_parse_fail(p, start, -ENOMEM, "out of memory");
		if (pki_parse_peek(p) == ':') {
			ret = pki_maybe_mods(p, p->list->nr - 1, start);
		} else {
			ret = pki_parse_mods(p, &m, NULL);
			if (!ret) {
				pki_apply_mods(&p->list->ev[p->list->nr - 1], &m);
				free(p->list->ev[p->list->nr - 1].name);
				p->list->ev[p->list->nr - 1].name = strndup(p->s + start, p->pos - start);
			}
		}
		/* A name= term wins over the spelled string. */
		if (!ret && strncmp(named, p->s + start, before - start)) {
			free(p->list->ev[p->list->nr - 1].name);
			p->list->ev[p->list->nr - 1].name = named;
		} else {
			free(named);
		}
		return ret;
	}
	return 0;
}

/* A bare name that some PMU's events/ directory defines. */
static int parse_pmu_alias(struct parser *p, size_t start, size_t len)
{
	const char *sysfs = pki_sysfs_root(p->opts);
	char dir[600], name[128], alias[512];
	struct dirent *de;
	struct pki_pmu pmu;
	DIR *d;
	int found = 0;

	if (len >= sizeof(name))
		return -ENOENT;
	memcpy(name, p->s + start, len);
	name[len] = 0;
	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices", sysfs);
	if (!(d = opendir(dir)))
		return -ENOENT;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.' || pki_pmu_open(&pmu, sysfs, de->d_name))
			continue;
		if (pki_pmu_event_alias(&pmu, name, alias, sizeof(alias)))
			continue;
		struct pk_event *ev = add_event(p, name, len);
		if (!ev || fill_pmu_event(p, ev, &pmu, de->d_name)) {
			closedir(d);
			return pki_parse_fail(p, start, -ENOMEM, "out of memory");
		}
		if (apply_alias_terms(&pmu, &ev->attr, alias)) {
			closedir(d);
			return pki_parse_fail(p, start, -EINVAL, "bad events/%s in sysfs", name);
		}
		free(ev->unit);
		pki_pmu_event_scale_unit(&pmu, name, &ev->scale, &ev->unit);
		found = 1;
	}
	closedir(d);
	if (!found)
		return -ENOENT;
	return pki_maybe_mods(p, p->list->nr - 1, start);
}

/* kprobe, kretprobe, uprobe, uretprobe: 0..3, else -1 */
static int probe_kind(const char *s, size_t len)
{
	static const char *const kinds[] = {"kprobe", "kretprobe", "uprobe", "uretprobe"};

	for (int i = 0; i < 4; i++)
		if (len == strlen(kinds[i]) && !strncmp(s, kinds[i], len))
			return i;
	return -1;
}

/* KIND:SPEC, where SPEC runs to the next ',' or '}' (paths may hold ':'). */
static int parse_probe(struct parser *p, size_t start, size_t len)
{
	int kind = probe_kind(p->s + start, len);
	size_t spec = ++p->pos;
	struct pk_event *ev;
	char msg[256];
	int ret;

	while (pki_parse_peek(p) && pki_parse_peek(p) != ',' && pki_parse_peek(p) != '}')
		p->pos++;
	if (p->pos == spec)
		return pki_parse_fail(p, spec, -EINVAL, "probe location expected");
	ev = add_event(p, p->s + start, p->pos - start);
	if (!ev)
		return pki_parse_fail(p, start, -ENOMEM, "out of memory");
	ret = pki_probe_event_init(ev, pki_sysfs_root(p->opts), kind >= 2, kind & 1, p->s + spec,
				   p->pos - spec, msg, sizeof(msg));
	if (ret)
		return pki_parse_fail(p, spec, ret, "%s", msg);
	return 0;
}

static int parse_event(struct parser *p)
{
	size_t start = p->pos, len = scan_name(p);
	const struct pki_symbol *sym;
	uint64_t config;
	int ret;

	p->last_tok = start;
	if (!len)
		return pki_parse_fail(p, start && p->s[start - 1] == ',' ? start - 1 : start,
				      -EINVAL,
				      pki_parse_peek(p) ? "event name expected"
							: "unexpected end, event name expected");
	if (len == 13 && !strncmp(p->s + start, "duration_time", len))
		return add_tool(p, start, len, PK_EVENT_TOOL_DURATION);
	if (len == 9 && !strncmp(p->s + start, "user_time", len))
		return add_tool(p, start, len, PK_EVENT_TOOL_USER_TIME);
	if (len == 11 && !strncmp(p->s + start, "system_time", len))
		return add_tool(p, start, len, PK_EVENT_TOOL_SYSTEM_TIME);
	/* Symbols first: "cpu-clock/name=x/" takes terms, it is not a PMU. */
	if ((sym = pki_symbol_find(p->s + start, len)))
		return add_simple(p, start, len, sym->type, sym->config,
				  sym->type == PERF_TYPE_HARDWARE ? "cpu" : "software");
	if (pki_cache_event_parse(p->s + start, len, &config))
		return add_simple(p, start, len, PERF_TYPE_HW_CACHE, config, "cpu");
	if (pki_parse_peek(p) == '/')
		return parse_pmu_event(p, start, len);
	if (len == 3 && !strncmp(p->s + start, "mem", 3) && pki_parse_peek(p) == ':') {
		p->pos++;
		return parse_breakpoint(p, start);
	}
	if (pki_parse_peek(p) == ':' && probe_kind(p->s + start, len) >= 0)
		return parse_probe(p, start, len);
	if (is_raw(p->s + start, len)) {
		config = strtoull(p->s + start + 1, NULL, 16);
		return add_simple(p, start, len, PERF_TYPE_RAW, config, "cpu");
	}
	if (pki_parse_peek(p) == ':' && is_name_char(p->s[p->pos + 1]))
		return parse_tracepoint(p, start, len);
	ret = parse_pmu_alias(p, start, len);
	if (ret != -ENOENT)
		return ret;
	return pki_parse_fail(p, start, -EINVAL, "unknown event '%.*s'", (int)len, p->s + start);
}

static int parse_group(struct parser *p)
{
	size_t open = p->pos, first = p->list->nr, mods_start;
	struct pki_mods m;
	int ret;

	p->pos++;
	for (;;) {
		if (pki_parse_peek(p) == '{')
			return pki_parse_fail(p, p->pos, -EINVAL, "groups cannot be nested");
		if ((ret = parse_event(p)))
			return ret;
		if (pki_parse_peek(p) == ',') {
			p->pos++;
			continue;
		}
		if (pki_parse_peek(p) == '}')
			break;
		return pki_parse_fail(p, pki_parse_peek(p) ? p->last_tok : open, -EINVAL,
				      pki_parse_peek(p) ? "',' or '}' expected" : "missing '}'");
	}
	p->pos++;
	for (size_t i = first; i < p->list->nr; i++) {
		p->list->ev[i].leader = (int)first;
		p->list->ev[i].group_size = i == first ? (int)(p->list->nr - first) : 1;
	}
	if (p->list->nr == first)
		return pki_parse_fail(p, open, -EINVAL, "empty group");
	if (pki_parse_peek(p) != ':')
		return 0;
	mods_start = ++p->pos;
	/*
	 * Added to each member's own modifiers.  Members keep their names:
	 * perf stat shows "cpu-clock", not "cpu-clock:u".
	 */
	for (size_t i = first; i < p->list->nr; i++) {
		p->pos = mods_start;
		if ((ret = pki_parse_mods(p, &m, &p->list->ev[i])))
			return ret;
		pki_apply_mods(&p->list->ev[i], &m);
	}
	return 0;
}

int pk_event_list_parse(struct pk_event_list *list, const char *str,
			const struct pk_event_parse_opts *opts, struct pk_parse_error *err)
{
	struct parser p = {.s = str, .list = list, .opts = opts, .err = err};
	size_t first = list ? list->nr : 0;

	if (err) {
		err->pos = 0;
		err->msg[0] = 0;
	}
	if (!str || !list)
		return pki_parse_fail(&p, 0, -EINVAL, "no event string or list");
	for (;;) {
		if (pki_parse_peek(&p) == '{' ? parse_group(&p) : parse_event(&p))
			break;
		if (!pki_parse_peek(&p))
			return 0;
		if (pki_parse_peek(&p) != ',') {
			pki_parse_fail(&p, p.last_tok, -EINVAL, "unexpected '%c' after this",
				       pki_parse_peek(&p));
			break;
		}
		p.pos++;
	}
	/* Leave the list as it was on entry. */
	for (size_t i = first; i < list->nr; i++)
		free_event(&list->ev[i]);
	list->nr = first;
	return p.ret ? p.ret : -EINVAL;
}
