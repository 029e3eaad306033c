// SPDX-License-Identifier: MIT
/*
 * Unit tests of the profile and its exporters on hand-built profiles
 * (fixture.c): exact folded output, escaping of hostile names in every
 * format, gzip framing of pprof, bounded memory with many samples.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <cmocka.h>
#include "export/export_internal.h"

int fixture_build(struct pk_profile **out);

struct out {
	char *buf;
	size_t len;
};

static struct out export_to_mem(enum pk_export_format f)
{
	struct out o = {0};
	struct pk_profile *p;
	FILE *m = open_memstream(&o.buf, &o.len);

	assert_non_null(m);
	assert_int_equal(fixture_build(&p), 0);
	assert_int_equal(pk_export(p, f, m), 0);
	fclose(m);
	pk_profile_free(p);
	return o;
}

static void test_folded(void **state)
{
	static const char want[] = "<script>alert(1)</script>\"'&;main;cold 2\n"
				   "<script>alert(1)</script>\"'&;main;hot 6\n"
				   "<script>alert(1)</script>\"'&;main;hot;"
				   "<img src=x onerror=window.__pwned=true> 1\n"
				   "worker;main;hot 3\n";
	struct out o = export_to_mem(PK_EXPORT_FOLDED);

	(void)state;
	assert_string_equal(o.buf, want);
	free(o.buf);
}

static char *json_of(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	pki_json_str(m, s);
	fclose(m);
	return buf;
}

static char *xml_of(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	pki_xml_str(m, s);
	fclose(m);
	return buf;
}

static void test_json_escape(void **state)
{
	char *s;

	(void)state;
	s = json_of("<script>alert(1)</script>\"'&");
	assert_string_equal(s, "\"\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\\\"\\u0027"
			       "\\u0026\"");
	free(s);
	s = json_of("a\\b\n\x01\x7f");
	assert_string_equal(s, "\"a\\\\b\\n\\u0001\\u007f\"");
	free(s);
	s = json_of("caf\xc3\xa9 \xff\xc3("); /* valid é kept, bad bytes replaced */
	assert_string_equal(s, "\"caf\xc3\xa9 \\ufffd\\ufffd(\"");
	free(s);
	s = json_of("\xed\xa0\x80"); /* a UTF-16 surrogate is not UTF-8 */
	assert_string_equal(s, "\"\\ufffd\\ufffd\\ufffd\"");
	free(s);
}

static void test_xml_escape(void **state)
{
	char *s;

	(void)state;
	s = xml_of("<script>alert(1)</script>\"'&\x02");
	assert_string_equal(s, "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;&#xfffd;");
	free(s);
}

static void test_svg_hostile(void **state)
{
	struct out o = export_to_mem(PK_EXPORT_SVG);

	(void)state;
	assert_null(strstr(o.buf, "<img"));
	assert_null(strstr(o.buf, "<script>alert"));
	assert_non_null(strstr(o.buf, "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;"));
	assert_non_null(strstr(o.buf, "&lt;img src=x onerror=window.__pwned=true&gt; (1 samples"));
	/* one script element: ours */
	assert_non_null(strstr(o.buf, "<script"));
	assert_null(strstr(strstr(o.buf, "<script") + 1, "<script"));
	free(o.buf);
}

/* JSON outputs carry no raw '<' at all: every name was escaped. */
static void check_json_clean(enum pk_export_format f, const char *must)
{
	struct out o = export_to_mem(f);

	assert_null(strchr(o.buf, '<'));
	assert_non_null(strstr(o.buf, "\\u003cscript\\u003ealert(1)"));
	assert_non_null(strstr(o.buf, must));
	free(o.buf);
}

static void test_json_formats(void **state)
{
	(void)state;
	check_json_clean(PK_EXPORT_SPEEDSCOPE, "\"weights\":[");
	check_json_clean(PK_EXPORT_GECKO, "\"stackTable\":");
	check_json_clean(PK_EXPORT_CHROME, "\"stackFrames\":");
}

static void test_speedscope_weights(void **state)
{
	struct out o = export_to_mem(PK_EXPORT_SPEEDSCOPE);
	const char *w = strstr(o.buf, "\"weights\":[");

	(void)state;
	/* the hostile thread: cold 2, hot 6, evil 1 in insertion order */
	assert_non_null(w);
	assert_int_equal(strncmp(w, "\"weights\":[6,2,1],\"endValue\":9", 30), 0);
	free(o.buf);
}

static void test_pprof_gzip(void **state)
{
	struct out o = export_to_mem(PK_EXPORT_PPROF);
	unsigned char raw[65536];
	z_stream zs = {0};

	(void)state;
	assert_true(o.len > 18);
	assert_int_equal((unsigned char)o.buf[0], 0x1f);
	assert_int_equal((unsigned char)o.buf[1], 0x8b);
	assert_int_equal(inflateInit2(&zs, 15 + 16), Z_OK);
	zs.next_in = (unsigned char *)o.buf;
	zs.avail_in = (uInt)o.len;
	zs.next_out = raw;
	zs.avail_out = sizeof(raw);
	assert_int_equal(inflate(&zs, Z_FINISH), Z_STREAM_END);
	/* field 1 (sample_type), wire type 2: the first tag of the message */
	assert_int_equal(raw[0], 0x0a);
	assert_non_null(memmem(raw, zs.total_out, "deadbeef", 8));
	assert_non_null(memmem(raw, zs.total_out, "/usr/bin/fixture", 16));
	inflateEnd(&zs);
	free(o.buf);
}

static void test_html(void **state)
{
	struct out o;
	const char *a;
	int closes = 0;

	(void)state;
	if (!pk_export_html_available())
		skip();
	o = export_to_mem(PK_EXPORT_HTML);
	assert_null(strstr(o.buf, "<script>alert"));
	assert_null(strstr(o.buf, "<img"));
	assert_null(strstr(o.buf, "<b>"));
	for (a = o.buf; (a = strstr(a, "</script")); a++)
		closes++;
	assert_int_equal(closes, 2); /* the JSON block and the bundle */
	free(o.buf);
}

static void test_html_missing_bundle_message(void **state)
{
	struct pk_profile *p;

	(void)state;
	if (pk_export_html_available())
		skip();
	assert_int_equal(fixture_build(&p), 0);
	assert_int_equal(pk_export_html(p, stdout), -ENOENT);
	assert_non_null(strstr(pk_profile_error(p), "build-web.sh"));
	pk_profile_free(p);
}

/* Many samples over few stacks: the profile stays as small as the stacks. */
static void test_bounded_memory(void **state)
{
	struct pk_profile_opts opts = {.sz = sizeof(opts), .no_sample_log = true};
	struct pk_profile_frame f[3] = {{.function = "c"}, {.function = "b"}, {.function = "a"}};
	struct pk_profile *p;
	uint32_t ev;
	uint64_t sum = 0;

	(void)state;
	assert_int_equal(pk_profile_new(&p, &opts), 0);
	assert_int_equal(pk_profile_add_event(p, "cpu-clock", &ev), 0);
	for (uint32_t i = 0; i < 300000; i++) {
		struct pk_profile_sample s = {.frames = f + i % 3,
					      .nr_frames = 3 - i % 3,
					      .pid = 1,
					      .tid = 1,
					      .comm = "x",
					      .cpu = i % 4,
					      .time = 1000000ULL * i,
					      .event = ev,
					      .period = 1};

		assert_int_equal(pk_profile_add_sample(p, &s), 0);
	}
	assert_int_equal(pk_profile_nr_samples(p, ev), 300000);
	assert_int_equal(pk_profile_nr_stacks(p), 3);
	assert_int_equal(p->nr_nodes, 3); /* a, a;b, a;b;c: prefixes are shared */
	assert_true(p->nr_strs < 10);
	/* the timeline kept every sample while its buckets merged */
	for (uint32_t i = 0; i < p->nr_buckets; i++)
		sum += p->threads[0].buckets[i];
	assert_int_equal(sum, 300000);
	pk_profile_free(p);
}

static void test_bad_event(void **state)
{
	struct pk_profile *p;
	struct pk_profile_sample s = {.event = 3};

	(void)state;
	assert_int_equal(pk_profile_new(&p, NULL), 0);
	assert_int_equal(pk_profile_add_sample(p, &s), -EINVAL);
	pk_profile_free(p);
}

static void test_format_names(void **state)
{
	enum pk_export_format f;

	(void)state;
	assert_int_equal(pk_export_format_parse("flamegraph", &f), 0);
	assert_int_equal(f, PK_EXPORT_SVG);
	assert_int_equal(pk_export_format_parse("speedscope", &f), 0);
	assert_int_equal(f, PK_EXPORT_SPEEDSCOPE);
	assert_int_equal(pk_export_format_parse("nope", &f), -EINVAL);
	assert_string_equal(pk_export_format_name(PK_EXPORT_PPROF), "pprof");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_folded),
		cmocka_unit_test(test_json_escape),
		cmocka_unit_test(test_xml_escape),
		cmocka_unit_test(test_svg_hostile),
		cmocka_unit_test(test_json_formats),
		cmocka_unit_test(test_speedscope_weights),
		cmocka_unit_test(test_pprof_gzip),
		cmocka_unit_test(test_html),
		cmocka_unit_test(test_html_missing_bundle_message),
		cmocka_unit_test(test_bounded_memory),
		cmocka_unit_test(test_bad_event),
		cmocka_unit_test(test_format_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
