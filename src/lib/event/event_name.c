// SPDX-License-Identifier: MIT
/* perf's name for an attr that carries no name of its own. */
#include <stdio.h>
#include <linux/hw_breakpoint.h>
#include "event_internal.h"

/* snprintf that appends at *len and keeps counting past the buffer's end. */
static void append(char *buf, size_t size, int *len, const char *fmt, const char *s, int n)
{
	size_t at = (size_t)*len;
	int r = snprintf(at < size ? buf + at : NULL, at < size ? size - at : 0, fmt, n, s);

	if (r > 0)
		*len += r;
}

static void add_char(char *buf, size_t size, int *len, char c)
{
	char s[2] = {c, 0};

	append(buf, size, len, "%.*s", s, 1);
}

static void add_context(char *buf, size_t size, int *len, bool *any, bool excluded, char c)
{
	if (excluded)
		return;
	if (!*any)
		add_char(buf, size, len, ':');
	*any = true;
	add_char(buf, size, len, c);
}

/*
 * perf's suffix: the contexts still counted once any is excluded, then the
 * precision, then host/guest when they differ from what perf assumes.
 */
static void add_modifiers(const struct perf_event_attr *a, char *buf, size_t size, int *len)
{
	bool any = false, guest_excluded_default = false;

	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		add_context(buf, size, len, &any, a->exclude_kernel, 'k');
		add_context(buf, size, len, &any, a->exclude_user, 'u');
		add_context(buf, size, len, &any, a->exclude_hv, 'h');
		guest_excluded_default = true;
	}
	if (a->precise_ip) {
		if (!any)
			add_char(buf, size, len, ':');
		any = true;
		append(buf, size, len, "%.*s", "ppp", a->precise_ip);
		guest_excluded_default = true;
	}
	if (a->exclude_host || a->exclude_guest == guest_excluded_default) {
		add_context(buf, size, len, &any, a->exclude_host, 'H');
		add_context(buf, size, len, &any, a->exclude_guest, 'G');
	}
}

static int base_name(const struct perf_event_attr *a, char *buf, size_t size, bool *mods)
{
	*mods = true;
	switch (a->type) {
	case PERF_TYPE_HARDWARE:
		if (a->config < pki_nr_hw_symbols)
			return snprintf(buf, size, "%s", pki_hw_symbols[a->config].name);
		return snprintf(buf, size, "unknown-hardware");
	case PERF_TYPE_SOFTWARE:
		if (a->config < pki_nr_sw_symbols)
			return snprintf(buf, size, "%s", pki_sw_symbols[a->config].name);
		return snprintf(buf, size, "unknown-software");
	case PERF_TYPE_HW_CACHE:
		return pki_cache_event_name(a->config, buf, size);
	case PERF_TYPE_RAW:
		return snprintf(buf, size, "raw 0x%llx", (unsigned long long)a->config);
	case PERF_TYPE_BREAKPOINT: {
		unsigned int t = a->bp_type;
		return snprintf(buf, size, "mem:0x%llx:%s%s%s", (unsigned long long)a->bp_addr,
				t & HW_BREAKPOINT_R ? "r" : "", t & HW_BREAKPOINT_W ? "w" : "",
				t & HW_BREAKPOINT_X ? "x" : "");
	}
	case PERF_TYPE_TRACEPOINT:
		*mods = false;
		return snprintf(buf, size, "unknown tracepoint");
	default:
		*mods = false;
		return snprintf(buf, size, "unknown attr type: %u", a->type);
	}
}

int pk_event_attr_name(const struct perf_event_attr *attr, char *buf, size_t size)
{
	bool mods;
	int len = base_name(attr, buf, size, &mods);

	if (len < 0)
		return len;
	if (mods)
		add_modifiers(attr, buf, size, &len);
	return len;
}
