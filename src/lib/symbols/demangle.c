// SPDX-License-Identifier: MIT
/*
 * Demangling.  C++ names go through the C++ runtime's __cxa_demangle,
 * loaded on first use so the library does not link libstdc++; like perf,
 * we print the name without its parameter list, qualifiers or return type.
 * Rust legacy names additionally lose their "::h<hash>" and "$..$" escapes.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "symtab_internal.h"
#include "internal.h"

typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);

static cxa_demangle_fn cxa_demangle;
static pthread_once_t cxa_once = PTHREAD_ONCE_INIT;

static void load_cxa_demangle(void)
{
	void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);

	if (h)
		cxa_demangle = (cxa_demangle_fn)dlsym(h, "__cxa_demangle");
}

/* Index of the '(' matching the ')' at close, or -1. */
static long matching_open(const char *s, long close)
{
	int depth = 0;

	for (long i = close; i >= 0; i--) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0)
			return i;
	}
	return -1;
}

/* Cut "ret name<T>(args) const" down to "name<T>", in place. */
static void strip_signature(char *s)
{
	char *clone = strstr(s, " [clone ");
	long len, open, depth = 0, start = 0, close;

	/* GCC clones (".isra.0", ".constprop.0") print as the function */
	if (clone)
		*clone = '\0';
	len = (long)strlen(s);
	close = len - 1;
	while (close >= 0 && s[close] != ')')
		close--;
	if (close < 0)
		return;
	/* qualifiers after the parameter list are words, '&' or spaces */
	for (long i = close + 1; i < len; i++)
		if (!strchr(" &constvlaiexp", s[i]))
			return;
	open = matching_open(s, close);
	if (open <= 0)
		return;
	s[open] = '\0';
	/* a return type before the name (template functions) ends at the
	 * last space outside brackets */
	for (long i = 0; i < open; i++) {
		if (s[i] == '<' || s[i] == '(')
			depth++;
		else if ((s[i] == '>' || s[i] == ')') && depth > 0)
			depth--;
		else if (depth == 0 && !strncmp(s + i, "operator", 8) &&
			 (i == 0 || s[i - 1] == ':' || s[i - 1] == ' '))
			break;	/* "operator unsigned long": spaces of the name */
		else if (s[i] == ' ' && depth == 0)
			start = i + 1;
	}
	if (start)
		memmove(s, s + start, strlen(s + start) + 1);
}

static bool is_hex_hash(const char *s)
{
	if (s[0] != 'h' || strlen(s) != 17)
		return false;
	for (int i = 1; i < 17; i++)
		if (!strchr("0123456789abcdef", s[i]))
			return false;
	return true;
}

static const struct {
	const char *esc, *rep;
} rust_escapes[] = {
	{"$SP$", "@"}, {"$BP$", "*"}, {"$RF$", "&"}, {"$LT$", "<"}, {"$GT$", ">"},
	{"$LP$", "("}, {"$RP$", ")"}, {"$C$", ","}, {"$u7e$", "~"}, {"$u20$", " "},
	{"$u27$", "'"}, {"$u5b$", "["}, {"$u5d$", "]"}, {"$u7b$", "{"}, {"$u7d$", "}"},
	{"$u3b$", ";"}, {"$u2b$", "+"}, {"$u22$", "\""},
};

/* Rust legacy mangling, already through the C++ demangler. */
static void rust_cleanup(char *s)
{
	char *last = strrchr(s, ':');
	char *w = s;

	if (!last || last == s || last[-1] != ':' || !is_hex_hash(last + 1))
		return;
	last[-1] = '\0';
	for (const char *r = s; *r;) {
		bool done = false;

		if (r[0] == '.' && r[1] == '.') {
			*w++ = ':';
			*w++ = ':';
			r += 2;
			continue;
		}
		for (size_t i = 0; *r == '$' && i < PK_ARRAY_SIZE(rust_escapes); i++) {
			size_t n = strlen(rust_escapes[i].esc);

			if (!strncmp(r, rust_escapes[i].esc, n)) {
				*w++ = rust_escapes[i].rep[0];
				r += n;
				done = true;
				break;
			}
		}
		if (!done)
			*w++ = *r++;
	}
	*w = '\0';
}

char *pk_demangle(const char *name)
{
	char *out;
	int status = -1;

	if (!name || strncmp(name, "_Z", 2))
		return NULL;
	pthread_once(&cxa_once, load_cxa_demangle);
	if (!cxa_demangle)
		return NULL;
	out = cxa_demangle(name, NULL, NULL, &status);
	if (status || !out) {
		/* some clone suffixes defeat the runtime's demangler: without
		 * them the name prints the same once stripped */
		const char *dot = strchr(name, '.');
		char *base = dot ? strndup(name, (size_t)(dot - name)) : NULL;

		free(out);
		out = base ? cxa_demangle(base, NULL, NULL, &status) : NULL;
		free(base);
		if (status || !out) {
			free(out);
			return NULL;
		}
	}
	rust_cleanup(out);
	/* thunks keep their full signature in perf's output */
	if (strncmp(out, "virtual thunk to ", 17) && strncmp(out, "non-virtual thunk to ", 21) &&
	    strncmp(out, "covariant return thunk to ", 26))
		strip_signature(out);
	return out;
}
