// SPDX-License-Identifier: MIT
/*
 * Tracepoint fields through libtraceevent.  The recording's TRACING_DATA
 * (header feature, or pipe-mode record) carries the event formats, the
 * kernel's function names, printk formats and saved comms; we feed them to
 * a tep handle the first time a tracepoint sample is printed.  Every size
 * in the blob is checked against what is left of it.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "session_internal.h"
#include "internal.h"

#if __has_include(<event-parse.h>)
#include <event-parse.h>
#include <trace-seq.h>
#include "bswap.h"

/* Which calls into libtraceevent to make: see safe_parse(). */
#define MAX_SKIPPED 16

struct parse_ctl {
	int progress_fd;		/* >= 0 in the probing child */
	uint32_t step;			/* calls into libtraceevent so far */
	uint32_t skip[MAX_SKIPPED];	/* steps that crashed the probe */
	int nr_skip;
};

struct blob {
	const uint8_t *p;
	size_t left;
	bool swap;
	bool bad;
	struct parse_ctl *ctl;
};

static const void *take(struct blob *b, uint64_t n)
{
	const void *p = b->p;

	if (b->bad || n > b->left) {
		b->bad = true;
		return NULL;
	}
	b->p += n;
	b->left -= n;
	return p;
}

static uint32_t take32(struct blob *b)
{
	const void *p = take(b, 4);
	uint32_t v = 0;

	if (p)
		memcpy(&v, p, 4);
	return b->swap ? __builtin_bswap32(v) : v;
}

static uint64_t take64(struct blob *b)
{
	const void *p = take(b, 8);
	uint64_t v = 0;

	if (p)
		memcpy(&v, p, 8);
	return b->swap ? __builtin_bswap64(v) : v;
}

static const char *take_str(struct blob *b)
{
	const char *s = (const char *)b->p;
	size_t n = strnlen(s, b->left);

	if (n == b->left) {
		b->bad = true;
		return NULL;
	}
	take(b, n + 1);
	return s;
}

/* A NUL-terminated copy of n bytes, for the text parsers. */
static char *take_text(struct blob *b, uint64_t n)
{
	const void *p = take(b, n);
	char *s;

	if (!p)
		return NULL;
	s = malloc(n + 1);
	if (s) {
		memcpy(s, p, n);
		s[n] = '\0';
	}
	return s;
}

/*
 * libtraceevent (1.7) dereferences NULL on some formats whose brackets or
 * quotes do not close (a truncated or corrupt format), or that hold bytes
 * other than printable ASCII and white space (kernel formats never do), so
 * such an event is skipped before it gets there.
 */
static bool format_is_balanced(const char *fmt, uint64_t size)
{
	char stack[64];
	size_t depth = 0;
	bool quoted = false;

	for (uint64_t i = 0; i < size; i++) {
		char c = fmt[i];

		if ((c < ' ' || c > '~') && c != '\t' && c != '\n' && c != '\r')
			return false;
		if (quoted) {
			if (c == '\\' && i + 1 < size)
				i++;
			else if (c == '"')
				quoted = false;
			continue;
		}
		if (c == '"') {
			quoted = true;
		} else if (c == '(' || c == '{' || c == '[') {
			if (depth == sizeof(stack))
				return false;
			stack[depth++] = c == '(' ? ')' : c == '{' ? '}' : ']';
		} else if (c == ')' || c == '}' || c == ']') {
			if (!depth || stack[--depth] != c)
				return false;
		}
	}
	return !quoted && !depth;
}

/* Is name (len bytes) declared as a field in head: " name;" or "*name[" etc.? */
static bool field_declared(const char *head, size_t head_len, const char *name, size_t len)
{
	static const char seps[] = " *\t", ends[] = ";[";
	char pat[130];

	if (!len || len + 2 > sizeof(pat))
		return false;
	memcpy(pat + 1, name, len);
	for (const char *s = seps; *s; s++) {
		for (const char *e = ends; *e; e++) {
			pat[0] = *s;
			pat[len + 1] = *e;
			if (memmem(head, head_len, pat, len + 2))
				return true;
		}
	}
	return false;
}

/* As many '?' as ':' outside string literals, from p to end, and none of
 * the characters C expressions do not use there ('@', '$', '#', '`'). */
static bool ternaries_complete(const char *p, const char *end)
{
	long open = 0;
	bool quoted = false;

	for (; p < end; p++) {
		if (quoted) {
			if (*p == '\\' && p + 1 < end)
				p++;
			else if (*p == '"')
				quoted = false;
		} else if (*p == '"') {
			quoted = true;
		} else if (*p == '?') {
			open++;
		} else if (*p == ':') {
			open--;
		} else if (*p == '@' || *p == '$' || *p == '#' || *p == '`') {
			return false;
		}
	}
	return open == 0;
}

/*
 * libtraceevent (1.7) also dereferences NULL when __print_flags() or
 * __print_symbolic() names a field the format does not define, or when a
 * '?' of the print format has no ':'.  So every REC->field must be one of
 * the format's fields and the ternaries must be whole (true of every
 * format a kernel writes).
 */
static bool format_fields_known(const char *fmt, uint64_t size)
{
	static const char print_fmt[] = "print fmt:";
	const char *pf = memmem(fmt, size, print_fmt, sizeof(print_fmt) - 1);
	const char *end = fmt + size, *p;

	if (!pf)
		return true;
	if (!ternaries_complete(pf + sizeof(print_fmt) - 1, end))
		return false;
	for (p = pf; (p = memmem(p, (size_t)(end - p), "REC->", 5)); ) {
		const char *name = p += 5;

		while (p < end && (*p == '_' || (*p >= '0' && *p <= '9') ||
				   ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z')))
			p++;
		if (!field_declared(fmt, (size_t)(pf - fmt), name, (size_t)(p - name)))
			return false;
	}
	return true;
}

/*
 * Number the next call into libtraceevent; false when it is to be left
 * out.  In the probing child, the number goes down the pipe first, so the
 * parent knows which call was running if the child dies.
 */
static bool next_step(struct blob *b)
{
	struct parse_ctl *c = b->ctl;
	uint32_t step = c->step++;

	for (int i = 0; i < c->nr_skip; i++)
		if (c->skip[i] == step)
			return false;
	if (c->progress_fd >= 0 && write(c->progress_fd, &step, sizeof(step)) != sizeof(step))
		return false;
	return true;
}

static void parse_formats(struct tep_handle *tep, struct blob *b, uint32_t nr, const char *sys)
{
	for (uint32_t i = 0; i < nr && !b->bad; i++) {
		uint64_t size = take64(b);
		const char *fmt = take(b, size);

		if (fmt && format_is_balanced(fmt, size) && format_fields_known(fmt, size) &&
		    next_step(b))
			tep_parse_event(tep, fmt, size, sys);
	}
}

static void parse_kallsyms(struct tep_handle *tep, char *text)
{
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *end, *name, *mod;
		unsigned long long addr = strtoull(line, &end, 16);

		if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
			continue;
		name = end + 3;
		mod = strchr(name, '\t');
		if (mod) {
			*mod++ = '\0';
			if (*mod == '[')
				mod++;
			mod[strcspn(mod, "]")] = '\0';
		}
		tep_register_function(tep, name, addr, mod);
	}
}

static void parse_printk(struct tep_handle *tep, char *text)
{
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *end, *fmt;
		unsigned long long addr = strtoull(line, &end, 16);

		fmt = strstr(end, ": ");
		if (end == line || !fmt)
			continue;
		fmt += 2;
		if (*fmt == '"') {
			fmt++;
			if (*fmt && fmt[strlen(fmt) - 1] == '"')
				fmt[strlen(fmt) - 1] = '\0';
		}
		/* libtraceevent looks two bytes before the end of the string
		 * for a "\n" to strip: shorter strings would make it read
		 * before the start of its copy */
		if (strlen(fmt) >= 3)
			tep_register_print_string(tep, fmt, addr);
	}
}

static void parse_cmdlines(struct tep_handle *tep, char *text)
{
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *comm;
		long pid = strtol(line, &comm, 10);

		if (comm != line && *comm == ' ')
			tep_register_comm(tep, comm + 1, (int)pid);
	}
}

static void parse_text_section(struct tep_handle *tep, struct blob *b, uint64_t size,
			       void (*parse)(struct tep_handle *, char *))
{
	char *text = take_text(b, size);

	if (text && next_step(b))
		parse(tep, text);
	free(text);
}

static struct tep_handle *parse_tracing_data(const void *data, uint64_t size,
					     struct parse_ctl *ctl)
{
	static const uint8_t magic[10] = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};
	struct blob b = {.p = data, .left = size, .ctl = ctl};
	struct tep_handle *tep;
	const char *version;
	const uint8_t *m;
	uint8_t big, long_size;
	uint64_t sz;
	char *hp;

	m = take(&b, 10);
	if (!m || memcmp(m, magic, 10) || !(version = take_str(&b)) || b.left < 6)
		return NULL;
	big = *(const uint8_t *)take(&b, 1);
	long_size = *(const uint8_t *)take(&b, 1);
	b.swap = big != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	tep = tep_alloc();
	if (!tep)
		return NULL;
	tep_set_file_bigendian(tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? TEP_BIG_ENDIAN
									  : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, long_size);
	tep_set_page_size(tep, (int)take32(&b));
	if (!take(&b, 12))
		goto out;
	sz = take64(&b);
	hp = take_text(&b, sz);
	if (hp && next_step(&b))
		tep_parse_header_page(tep, hp, sz, long_size);
	free(hp);
	if (!take(&b, 13))
		goto out;
	take(&b, take64(&b));
	parse_formats(tep, &b, take32(&b), "ftrace");
	for (uint32_t n = take32(&b), i = 0; i < n && !b.bad; i++) {
		const char *sys = take_str(&b);

		if (sys)
			parse_formats(tep, &b, take32(&b), sys);
	}
	parse_text_section(tep, &b, take32(&b), parse_kallsyms);
	parse_text_section(tep, &b, take32(&b), parse_printk);
	if (strcmp(version, "0.6") >= 0 && b.left >= 8)
		parse_text_section(tep, &b, take64(&b), parse_cmdlines);
out:
	return tep;
}

/* Sanitizer runtimes (fuzzing, CI) report a crash and run the fuzzer's
 * death callback, which saves the input as a crash; in the probing child a
 * crash is expected, so neither must happen. */
extern void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

static void ignore_death(void)
{
}

/* The probing child dies quietly of the default action of any signal. */
static void quiet_child(void)
{
	static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP};
	int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(ignore_death);
	if (devnull >= 0) {
		dup2(devnull, STDERR_FILENO);
		dup2(devnull, STDOUT_FILENO);
	}
}

#define PROBE_DONE UINT32_MAX
#define MAX_PROBES (MAX_SKIPPED + 1)

/*
 * One parse in a child process: 1 when it went through, 0 when it died
 * (*culprit: the step it was in), -1 when it cannot tell.
 */
static int probe_once(const void *data, uint64_t size, const struct parse_ctl *ctl,
		      uint32_t *culprit)
{
	uint32_t step, last = PROBE_DONE;
	int fds[2], status;
	bool started = false;
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		struct parse_ctl c = *ctl;
		struct tep_handle *tep;

		close(fds[0]);
		quiet_child();
		c.progress_fd = fds[1];
		c.step = 0;
		tep = parse_tracing_data(data, size, &c);
		step = PROBE_DONE;
		if (write(fds[1], &step, sizeof(step)) != sizeof(step))
			_exit(1);
		(void)tep; /* the process ends here: no need to free */
		_exit(0);
	}
	close(fds[1]);
	while (read(fds[0], &step, sizeof(step)) == sizeof(step)) {
		last = step;
		started = true;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && last == PROBE_DONE)
		return 1;
	if (!started || last == PROBE_DONE)
		return -1;
	*culprit = last;
	return 0;
}

/*
 * libtraceevent trusts the formats it is given, and a hostile file can
 * make it divide by zero or run off its buffers.  So the formats are first
 * parsed in a child process; each call that kills the child is left out,
 * and the child tries again, until a parse goes through.  Only then does
 * this process parse, without those calls.  The cost is one fork and a
 * second parse per file, paid the first time a tracepoint is printed.
 */
static struct tep_handle *safe_parse(const void *data, uint64_t size)
{
	struct parse_ctl ctl = {.progress_fd = -1};

	for (int round = 0; round < MAX_PROBES; round++) {
		uint32_t culprit;
		int r = probe_once(data, size, &ctl, &culprit);

		if (r < 0)
			return NULL;
		if (r > 0) {
			if (ctl.nr_skip)
				pki_warn("tracing data: left out %d event format%s that crash "
					 "libtraceevent", ctl.nr_skip, ctl.nr_skip > 1 ? "s" : "");
			ctl.step = 0;
			return parse_tracing_data(data, size, &ctl);
		}
		if (ctl.nr_skip == MAX_SKIPPED)
			break;
		ctl.skip[ctl.nr_skip++] = culprit;
	}
	pki_warn("tracing data: too many event formats crash libtraceevent; "
		 "tracepoint fields are not decoded");
	return NULL;
}

/* Parse a tracing-data blob and drop the result: for the fuzz targets. */
int pki_tracing_data_try(const void *data, uint64_t size);
int pki_tracing_data_try(const void *data, uint64_t size)
{
	struct tep_handle *tep = safe_parse(data, size);

	if (!tep)
		return -EINVAL;
	tep_free(tep);
	return 0;
}

static struct tep_handle *session_tep(struct pk_session *s)
{
	const struct pk_header *h = pk_reader_header(s->reader);

	if (s->tep || s->tep_failed)
		return s->tep;
	if (h && h->tracing_data && h->tracing_data_size)
		s->tep = safe_parse(h->tracing_data, h->tracing_data_size);
	s->tep_failed = !s->tep;
	return s->tep;
}

/* A string built in a caller's buffer, cut at its end. */
struct raw_out {
	char *buf;
	size_t len, at;
};

static void __attribute__((format(printf, 2, 3))) raw_printf(struct raw_out *o, const char *fmt,
							     ...)
{
	va_list ap;
	int n;

	if (o->at + 1 >= o->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->at, o->len - o->at, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->at = o->at + (size_t)n < o->len ? o->at + (size_t)n : o->len - 1;
}

static bool printable(const unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len && p[i]; i++)
		if (!isprint(p[i]) && !isspace(p[i]))
			return false;
	return true;
}

/* An array field: a string when it reads as one, else its bytes in hex
 * (perf 6.1's own libtraceevent's way). */
static void raw_array(struct raw_out *o, struct tep_handle *tep, const unsigned char *data,
		      size_t size, const struct tep_format_field *f)
{
	size_t off = (size_t)f->offset, len = (size_t)f->size;

	if (f->offset < 0 || f->size < 0 || off > size || len > size - off) {
		raw_printf(o, "?");
		return;
	}
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned long long v = tep_read_number(tep, data + off, f->size);

		off = v & 0xffff;
		len = (v >> 16) & 0xffff;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (size_t)f->offset + (size_t)f->size;
	}
	if (off > size || len > size - off) {
		raw_printf(o, "?");
		return;
	}
	if ((f->flags & TEP_FIELD_IS_STRING) && printable(data + off, len)) {
		raw_printf(o, "%.*s", (int)strnlen((const char *)data + off, len),
			   (const char *)data + off);
		return;
	}
	raw_printf(o, "ARRAY[");
	for (size_t i = 0; i < len; i++)
		raw_printf(o, "%s%02x", i ? ", " : "", data[off + i]);
	raw_printf(o, "]");
}

/* A number field as perf 6.1's libtraceevent prints it raw: pointers and
 * longs in hex, signed ones by their size, the others unsigned. */
static void raw_number(struct raw_out *o, unsigned long long v, const struct tep_format_field *f)
{
	if (f->flags & TEP_FIELD_IS_POINTER) {
		raw_printf(o, "0x%llx", v);
	} else if (f->flags & TEP_FIELD_IS_SIGNED) {
		if (f->size == 4 && (f->flags & TEP_FIELD_IS_LONG))
			raw_printf(o, "0x%x", (int)v);
		else if (f->size == 4)
			raw_printf(o, "%d", (int)v);
		else if (f->size == 2)
			raw_printf(o, "%2d", (short)v);
		else if (f->size == 1)
			raw_printf(o, "%1d", (signed char)v);
		else
			raw_printf(o, "%lld", (long long)v);
	} else if (f->flags & TEP_FIELD_IS_LONG) {
		raw_printf(o, "0x%llx", v);
	} else {
		raw_printf(o, "%llu", v);
	}
}

/* Every field of the event's own (not the common ones) as " name=value":
 * perf report --raw-trace.  The libtraceevent this links may print them
 * otherwise (by the print line's conversions), so they are printed here. */
static int raw_fields(struct tep_handle *tep, struct tep_event *event, const void *data,
		      size_t size, char *buf, size_t len)
{
	struct raw_out o = {buf, len, 0};

	for (struct tep_format_field *f = event->format.fields; f; f = f->next) {
		raw_printf(&o, " %s=", f->name);
		if (f->flags & TEP_FIELD_IS_ARRAY)
			raw_array(&o, tep, data, size, f);
		else if (f->offset < 0 || f->size <= 0 || f->size > 8 ||
			 (size_t)f->offset + (size_t)f->size > size)
			raw_printf(&o, "?");
		else
			raw_number(&o, tep_read_number(tep, (const char *)data + f->offset, f->size),
				   f);
	}
	return (int)o.at;
}

/* The sample's fields pretty-printed (the format's print line) or raw
 * (each " name=value", no print line). */
static int trace_format(struct pk_session *s, const struct pk_session_sample *ev, char *buf,
			size_t len, bool raw)
{
	struct tep_handle *tep = session_tep(s);
	struct tep_record rec = {0};
	struct tep_event *event;
	struct trace_seq seq;
	int n;

	if (len)
		buf[0] = '\0';
	if (!tep || !ev->attr || !ev->sample.raw)
		return -ENOENT;
	event = tep_find_event(tep, (int)ev->attr->attr.config);
	if (!event)
		return -ENOENT;
	rec.ts = ev->sample.time;
	rec.cpu = (int)ev->sample.cpu;
	rec.data = (void *)ev->sample.raw;
	rec.size = (int)ev->sample.raw_size;
	if (raw) {
		if (len)
			return raw_fields(tep, event, ev->sample.raw, ev->sample.raw_size, buf, len);
		return 0;
	}
	trace_seq_init(&seq);
	tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	n = snprintf(buf, len, "%s", seq.buffer ? seq.buffer : "");
	trace_seq_destroy(&seq);
	return n < 0 ? -EINVAL : n;
}

int pk_session_trace_format(struct pk_session *s, const struct pk_session_sample *ev, char *buf,
			    size_t len)
{
	return trace_format(s, ev, buf, len, false);
}

int pk_session_trace_format_raw(struct pk_session *s, const struct pk_session_sample *ev,
				char *buf, size_t len)
{
	return trace_format(s, ev, buf, len, true);
}

void pki_session_trace_free(struct pk_session *s)
{
	if (s->tep)
		tep_free(s->tep);
	s->tep = NULL;
}

#else /* no libtraceevent */

int pki_tracing_data_try(const void *data, uint64_t size);
int pki_tracing_data_try(const void *data, uint64_t size)
{
	(void)data;
	(void)size;
	return -ENOTSUP;
}

int pk_session_trace_format(struct pk_session *s, const struct pk_session_sample *ev, char *buf,
			    size_t len)
{
	(void)s;
	(void)ev;
	if (len)
		buf[0] = '\0';
	return -ENOENT;
}

int pk_session_trace_format_raw(struct pk_session *s, const struct pk_session_sample *ev,
				char *buf, size_t len)
{
	return pk_session_trace_format(s, ev, buf, len);
}

void pki_session_trace_free(struct pk_session *s)
{
	(void)s;
}
#endif
