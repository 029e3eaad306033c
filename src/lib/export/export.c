// SPDX-License-Identifier: MIT
/* Exporter dispatch: format names, FILE or descriptor output. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "export_internal.h"

static const char *const format_names[PK_EXPORT_NR] = {
	[PK_EXPORT_FOLDED] = "folded",
	[PK_EXPORT_SVG] = "flamegraph",
	[PK_EXPORT_HTML] = "html",
	[PK_EXPORT_PPROF] = "pprof",
	[PK_EXPORT_SPEEDSCOPE] = "speedscope",
	[PK_EXPORT_GECKO] = "gecko",
	[PK_EXPORT_CHROME] = "chrome",
};

int pk_export_format_parse(const char *name, enum pk_export_format *out)
{
	for (int i = 0; i < PK_EXPORT_NR; i++) {
		if (!strcmp(name, format_names[i])) {
			*out = (enum pk_export_format)i;
			return 0;
		}
	}
	if (!strcmp(name, "svg")) {
		*out = PK_EXPORT_SVG;
		return 0;
	}
	return -EINVAL;
}

const char *pk_export_format_name(enum pk_export_format f)
{
	return (unsigned int)f < PK_EXPORT_NR ? format_names[f] : "?";
}

int pki_export_finish(struct pk_profile *p, FILE *out)
{
	if (fflush(out) || ferror(out)) {
		pki_profile_fail(p, "write failed: %s", strerror(errno ? errno : EIO));
		return -EIO;
	}
	return 0;
}

int pk_export(struct pk_profile *p, enum pk_export_format f, FILE *out)
{
	switch (f) {
	case PK_EXPORT_FOLDED:
		return pk_export_folded(p, out);
	case PK_EXPORT_SVG:
		return pk_export_svg(p, out);
	case PK_EXPORT_HTML:
		return pk_export_html(p, out);
	case PK_EXPORT_PPROF:
		return pk_export_pprof(p, out);
	case PK_EXPORT_SPEEDSCOPE:
		return pk_export_speedscope(p, out);
	case PK_EXPORT_GECKO:
		return pk_export_gecko(p, out);
	case PK_EXPORT_CHROME:
		return pk_export_chrome(p, out);
	default:
		pki_profile_fail(p, "unknown export format %d", (int)f);
		return -EINVAL;
	}
}

int pk_export_fd(struct pk_profile *p, enum pk_export_format f, int fd)
{
	int dupfd = dup(fd);
	FILE *out;
	int err;

	if (dupfd < 0 || !(out = fdopen(dupfd, "w"))) {
		if (dupfd >= 0)
			close(dupfd);
		pki_profile_fail(p, "cannot write to descriptor %d: %s", fd, strerror(errno));
		return -errno;
	}
	err = pk_export(p, f, out);
	if (fclose(out) && !err) {
		pki_profile_fail(p, "write failed: %s", strerror(errno));
		err = -EIO;
	}
	return err;
}
