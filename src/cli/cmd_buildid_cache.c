// SPDX-License-Identifier: MIT
/* perfkit buildid-cache: add, remove, purge and list the entries of perf's
 * build-id cache (~/.debug), with perf buildid-cache's options. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include <perfkit/buildid.h>
#include <perfkit/symbols.h>

static const char buildid_cache_usage[] =
	"usage: perfkit buildid-cache [<options>]\n"
	"\n"
	"Manage perf's build-id cache, shared with perf: $PERF_BUILDID_DIR, else\n"
	"~/.debug.  File lists are comma-separated.\n"
	"\n"
	"    -a, --add <files>     add the files\n"
	"    -r, --remove <files>  remove the files' current build ids\n"
	"    -p, --purge <files>   remove every build id cached for the files\n"
	"    -P, --purge-all       remove every entry\n"
	"    -u, --update <files>  replace the files' entries (add if missing)\n"
	"    -M, --missing <file>  list the build ids of a perf.data not cached\n"
	"    -l, --list            list the entries whose file is here unchanged\n"
	"    -f, --force           read a perf.data owned by another user\n"
	"    -v, --verbose         say what is done\n"
	"        --buildid-dir <dir>  use this cache directory\n"
	"    -h, --help            show this help\n"
	"\n"
	"Not implemented (refused): -k/--kcore, --debuginfod, --target-ns.\n";

enum { OPT_BUILDID_DIR = 256, OPT_DEBUGINFOD, OPT_TARGET_NS };

static const struct option long_opts[] = {
	{"add", required_argument, NULL, 'a'},
	{"remove", required_argument, NULL, 'r'},
	{"purge", required_argument, NULL, 'p'},
	{"purge-all", no_argument, NULL, 'P'},
	{"update", required_argument, NULL, 'u'},
	{"missing", required_argument, NULL, 'M'},
	{"list", no_argument, NULL, 'l'},
	{"kcore", required_argument, NULL, 'k'},
	{"force", no_argument, NULL, 'f'},
	{"verbose", no_argument, NULL, 'v'},
	{"buildid-dir", required_argument, NULL, OPT_BUILDID_DIR},
	{"debuginfod", optional_argument, NULL, OPT_DEBUGINFOD},
	{"target-ns", required_argument, NULL, OPT_TARGET_NS},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct bc_opts {
	const char *add, *remove, *purge, *update, *missing, *dir;
	bool purge_all, list, force;
	int verbose;
};

typedef int (*file_op)(struct pk_buildid_cache *c, const char *file, int verbose);

/* Run op on every name of a comma-separated list; 1 if any failed. */
static int each_file(struct pk_buildid_cache *c, const char *list, file_op op, int verbose)
{
	char *copy = strdup(list), *save = NULL;
	int failed = 0;

	if (!copy)
		return 1;
	for (char *f = strtok_r(copy, ",", &save); f; f = strtok_r(NULL, ",", &save))
		failed |= op(c, f, verbose);
	free(copy);
	return failed;
}

static int op_add(struct pk_buildid_cache *c, const char *file, int verbose)
{
	int err = pk_buildid_cache_add(c, file, NULL);

	if (err < 0) {
		cli_error("couldn't add %s: %s", file, pk_buildid_cache_error(c));
		return 1;
	}
	if (verbose)
		fprintf(stderr, "Adding %s: %s\n", file, err ? "Ok" : "already cached");
	return 0;
}

static int op_remove(struct pk_buildid_cache *c, const char *file, int verbose)
{
	struct pk_build_id bid;
	int err = pk_elf_build_id(file, &bid);

	if (err) {
		cli_error("couldn't remove %s: %s", file,
			  err == -ENOENT ? "no such file" : "no build id");
		return 1;
	}
	if (pk_buildid_cache_remove(c, &bid)) {
		cli_error("couldn't remove %s: %s", file, pk_buildid_cache_error(c));
		return 1;
	}
	if (verbose)
		fprintf(stderr, "Removing %s: Ok\n", file);
	return 0;
}

static int op_purge(struct pk_buildid_cache *c, const char *file, int verbose)
{
	int n = pk_buildid_cache_purge(c, file);

	if (n < 0) {
		cli_error("couldn't purge %s: %s", file, pk_buildid_cache_error(c));
		return 1;
	}
	if (verbose)
		fprintf(stderr, "Removing %s: Ok (%d build ids)\n", file, n);
	return 0;
}

static int op_update(struct pk_buildid_cache *c, const char *file, int verbose)
{
	struct pk_build_id bid;

	/* perf's update: drop the entry of the file's build id, add it anew */
	if (!pk_elf_build_id(file, &bid) && pk_buildid_cache_has(c, &bid))
		pk_buildid_cache_remove(c, &bid);
	return op_add(c, file, verbose);
}

static int print_valid(const struct pk_buildid_cache_entry *e, void *arg)
{
	(void)arg;
	if (e->valid)
		printf("%s %s\n", e->hex, e->name);
	return 0;
}

static int print_missing(struct pk_buildid_cache *c, const char *file, bool force)
{
	struct pk_buildid_list_opts o = {.sz = sizeof(o), .force = force};
	struct pk_buildid_list *l;
	struct pk_build_id bid;
	char hex[65];

	if (pk_buildid_list_open(&l, file, &o)) {
		cli_error("%s", pk_buildid_list_error(l));
		pk_buildid_list_close(l);
		return 1;
	}
	for (size_t i = 0; i < pk_buildid_list_count(l); i++) {
		const struct pk_build_id_entry *e = pk_buildid_list_entry(l, i);

		bid.size = e->build_id_size;
		memcpy(bid.data, e->build_id, sizeof(bid.data));
		if (!bid.size || pk_buildid_cache_has(c, &bid))
			continue;
		pk_build_id_hex(&bid, hex);
		printf("%-40s %s\n", hex, e->filename);
	}
	pk_buildid_list_close(l);
	return 0;
}

static int run(struct pk_buildid_cache *c, const struct bc_opts *o)
{
	int failed = 0, n;

	if (o->list)
		return pk_buildid_cache_list(c, print_valid, NULL) ? 1 : 0;
	if (o->add)
		failed |= each_file(c, o->add, op_add, o->verbose);
	if (o->remove)
		failed |= each_file(c, o->remove, op_remove, o->verbose);
	if (o->purge)
		failed |= each_file(c, o->purge, op_purge, o->verbose);
	if (o->purge_all) {
		n = pk_buildid_cache_purge_all(c);
		if (n < 0) {
			cli_error("couldn't purge the cache: %s", pk_buildid_cache_error(c));
			failed = 1;
		} else if (o->verbose) {
			fprintf(stderr, "Removed %d entries\n", n);
		}
	}
	if (o->missing)
		failed |= print_missing(c, o->missing, o->force);
	if (o->update)
		failed |= each_file(c, o->update, op_update, o->verbose);
	return failed;
}

static int parse(int argc, char **argv, struct bc_opts *o)
{
	int ch;

	while ((ch = getopt_long(argc, argv, "a:r:p:Pu:M:lk:fvh", long_opts, NULL)) != -1) {
		switch (ch) {
		case 'a':
			o->add = optarg;
			break;
		case 'r':
			o->remove = optarg;
			break;
		case 'p':
			o->purge = optarg;
			break;
		case 'P':
			o->purge_all = true;
			break;
		case 'u':
			o->update = optarg;
			break;
		case 'M':
			o->missing = optarg;
			break;
		case 'l':
			o->list = true;
			break;
		case 'f':
			o->force = true;
			break;
		case 'v':
			o->verbose++;
			break;
		case OPT_BUILDID_DIR:
			o->dir = optarg;
			break;
		case 'k':
			cli_error("buildid-cache: -k/--kcore is not implemented");
			return 1;
		case OPT_DEBUGINFOD:
			cli_error("buildid-cache: --debuginfod is not implemented");
			return 1;
		case OPT_TARGET_NS:
			cli_error("buildid-cache: --target-ns is not implemented");
			return 1;
		case 'h':
			fputs(buildid_cache_usage, stdout);
			return -1;
		default:
			fputs(buildid_cache_usage, stderr);
			return 129;
		}
	}
	if (optind < argc) {
		cli_error("buildid-cache: unexpected argument '%s'", argv[optind]);
		return 129;
	}
	return 0;
}

int cmd_buildid_cache(int argc, char **argv)
{
	struct bc_opts o = {0};
	struct pk_buildid_cache_opts co = {.sz = sizeof(co)};
	struct pk_buildid_cache *c;
	int ret = parse(argc, argv, &o);

	if (ret)
		return ret < 0 ? 0 : ret;
	cli_setup_library_output(o.verbose);
	co.dir = o.dir;
	if (pk_buildid_cache_open(&c, &co)) {
		cli_error("%s", pk_buildid_cache_error(c));
		pk_buildid_cache_close(c);
		return 1;
	}
	ret = run(c, &o);
	pk_buildid_cache_close(c);
	return ret;
}
