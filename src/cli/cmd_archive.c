// SPDX-License-Identifier: MIT
/* perfkit archive: the build-id cache entries a recording needs, in one
 * FILE.tar.bz2 to unpack into ~/.debug elsewhere, as perf archive makes. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include <perfkit/buildid.h>

static const char archive_usage[] =
	"usage: perfkit archive [<options>] [FILE]\n"
	"\n"
	"Write FILE.tar.bz2 (FILE is perf.data by default) with the build-id cache\n"
	"entries of every DSO that samples of FILE landed in, named as in the\n"
	"cache: `tar xf FILE.tar.bz2 -C ~/.debug` on another machine lets perf\n"
	"report and perfkit report name the symbols there.  The cache is\n"
	"$PERF_BUILDID_DIR, else ~/.debug; perfkit record fills it.\n"
	"\n"
	"        --buildid-dir <dir>  take the entries from this cache directory\n"
	"    -f, --force           read a file owned by another user\n"
	"    -h, --help            show this help\n";

enum { OPT_BUILDID_DIR = 256 };

static const struct option long_opts[] = {
	{"buildid-dir", required_argument, NULL, OPT_BUILDID_DIR},
	{"force", no_argument, NULL, 'f'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

/* The build ids of the DSOs with samples into *out (free() it), *nr of
 * them; -1 when the file cannot be read (said on stderr). */
static int hit_ids(const char *file, bool force, struct pk_build_id **out, size_t *nr)
{
	struct pk_buildid_list_opts o = {.sz = sizeof(o), .force = force, .with_hits = true};
	struct pk_buildid_list *l;
	struct pk_build_id *ids = NULL;

	*nr = 0;
	if (pk_buildid_list_open(&l, file, &o)) {
		cli_error("%s", pk_buildid_list_error(l));
		pk_buildid_list_close(l);
		return -1;
	}
	if (pk_buildid_list_count(l))
		ids = calloc(pk_buildid_list_count(l), sizeof(*ids));
	for (size_t i = 0; ids && i < pk_buildid_list_count(l); i++) {
		const struct pk_build_id_entry *e = pk_buildid_list_entry(l, i);

		if (!e->build_id_size)
			continue; /* a DSO hit that has no build id */
		ids[*nr].size = e->build_id_size;
		memcpy(ids[*nr].data, e->build_id, sizeof(ids[*nr].data));
		(*nr)++;
	}
	pk_buildid_list_close(l);
	*out = ids;
	return 0;
}

static int write_archive(const char *file, const char *dir, bool force)
{
	struct pk_buildid_cache_opts co = {.sz = sizeof(co), .dir = dir};
	struct pk_buildid_cache *c = NULL;
	struct pk_build_id *ids = NULL;
	char out[4096];
	size_t nr, missing;
	int n, ret = 1;

	if (snprintf(out, sizeof(out), "%s.tar.bz2", file) >= (int)sizeof(out)) {
		cli_error("archive: %s: name too long", file);
		return 1;
	}
	if (hit_ids(file, force, &ids, &nr))
		return 1;
	if (!nr) {
		cli_error("archive: %s: no build ids found", file);
		free(ids);
		return 1;
	}
	if (pk_buildid_cache_open(&c, &co)) {
		cli_error("%s", pk_buildid_cache_error(c));
		goto out;
	}
	n = pk_buildid_cache_archive(c, ids, nr, out, &missing);
	if (n < 0) {
		cli_error("archive: %s", pk_buildid_cache_error(c));
		goto out;
	}
	if (missing)
		fprintf(stderr,
			"perfkit: archive: %zu of %zu build ids are not in %s: "
			"their DSOs are left out\n",
			missing, nr, pk_buildid_cache_dir(c));
	printf("Now please run:\n\n$ tar xvf %s -C ~/.debug\n\n"
	       "wherever you need to run 'perf report' or 'perfkit report' on.\n",
	       out);
	ret = 0;
out:
	pk_buildid_cache_close(c);
	free(ids);
	return ret;
}

int cmd_archive(int argc, char **argv)
{
	const char *dir = NULL;
	bool force = false;
	int ch;

	while ((ch = getopt_long(argc, argv, "fh", long_opts, NULL)) != -1) {
		switch (ch) {
		case OPT_BUILDID_DIR:
			dir = optarg;
			break;
		case 'f':
			force = true;
			break;
		case 'h':
			fputs(archive_usage, stdout);
			return 0;
		default:
			fputs(archive_usage, stderr);
			return 129;
		}
	}
	if (argc - optind > 1) {
		cli_error("archive: unexpected argument '%s'", argv[optind + 1]);
		return 129;
	}
	cli_setup_library_output(0);
	return write_archive(optind < argc ? argv[optind] : "perf.data", dir, force);
}
