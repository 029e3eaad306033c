// SPDX-License-Identifier: MIT
/*
 * Escaping of names from the recording.  Comm, DSO and symbol names are
 * whatever the profiled program chose, so they are treated as hostile:
 * JSON strings escape quotes, backslashes, controls and also <, >, & (so
 * a string can sit inside an HTML <script> block), and invalid UTF-8
 * becomes U+FFFD so that strict parsers accept the file.
 */
#include <stdint.h>
#include "export_internal.h"

/* Length of the valid UTF-8 sequence at s, or 0 when it is not valid. */
static int utf8_len(const unsigned char *s)
{
	int n;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void pki_json_str(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	fputc('"', f);
	while (*s) {
		int n = utf8_len(s);

		if (!n) {
			fputs("\\ufffd", f);
			s++;
			continue;
		}
		if (n > 1) {
			fwrite(s, 1, (size_t)n, f);
			s += n;
			continue;
		}
		switch (*s) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '<':
		case '>':
		case '&':
		case '\'':
			fprintf(f, "\\u%04x", *s);
			break;
		default:
			if (*s < 0x20 || *s == 0x7f)
				fprintf(f, "\\u%04x", *s);
			else
				fputc(*s, f);
		}
		s++;
	}
	fputc('"', f);
}

void pki_xml_str(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	while (*s) {
		int n = utf8_len(s);

		if (!n || (n == 1 && (*s < 0x20 || *s == 0x7f))) {
			fputs("&#xfffd;", f); /* XML 1.0 has no way to say these */
			s++;
			continue;
		}
		if (n > 1) {
			fwrite(s, 1, (size_t)n, f);
			s += n;
			continue;
		}
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*s, f);
		}
		s++;
	}
}
