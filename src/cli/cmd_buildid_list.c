// SPDX-License-Identifier: MIT
/* perfkit buildid-list: the build ids in a perf.data, an ELF file or the
 * running kernel, printed as perf buildid-list prints them. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include <perfkit/buildid.h>
#include <perfkit/symbols.h>

static const char buildid_list_usage[] =
	"usage: perfkit buildid-list [<options>]\n"
	"\n"
	"Print the build id and name of every DSO a recording lists, as perf\n"
	"buildid-list does.  Given an ELF file with -i, print its build id.\n"
	"\n"
	"    -i, --input <file>    input file name (default perf.data)\n"
	"    -H, --with-hits       only the DSOs samples landed in\n"
	"    -k, --kernel          the running kernel's build id\n"
	"    -m, --kernel-maps     the running kernel's build id and address range\n"
	"    -f, --force           read a file owned by another user\n"
	"    -v, --verbose         say more on stderr\n"
	"    -h, --help            show this help\n";

static const struct option long_opts[] = {
	{"input", required_argument, NULL, 'i'}, {"with-hits", no_argument, NULL, 'H'},
	{"kernel", no_argument, NULL, 'k'},	 {"kernel-maps", no_argument, NULL, 'm'},
	{"force", no_argument, NULL, 'f'},	 {"verbose", no_argument, NULL, 'v'},
	{"help", no_argument, NULL, 'h'},	 {NULL, 0, NULL, 0},
};

static int print_kernel(bool maps)
{
	struct pk_build_id bid;
	char hex[65];
	uint64_t start, end;

	if (pk_kernel_build_id(&bid)) {
		cli_error("/sys/kernel/notes: cannot read the running kernel's build id");
		return 1;
	}
	pk_build_id_hex(&bid, hex);
	if (!maps) {
		printf("%s\n", hex);
		return 0;
	}
	/* the kernel map as perf makes it: _text to _etext of kallsyms */
	start = pk_kallsyms_lookup_name("/proc/kallsyms", "_text");
	end = pk_kallsyms_lookup_name("/proc/kallsyms", "_etext");
	if (!start || end <= start) {
		cli_error("/proc/kallsyms: kernel addresses are hidden (kptr_restrict)");
		return 1;
	}
	printf("%s %llx %llx %s\n", hex, (unsigned long long)start, (unsigned long long)end,
	       PK_BUILDID_KALLSYMS);
	return 0;
}

static int print_file(const char *path, bool hits, bool force)
{
	struct pk_buildid_list_opts o = {.sz = sizeof(o), .force = force, .with_hits = hits};
	struct pk_buildid_list *l;
	struct pk_build_id bid;
	char hex[65];
	int err;

	/* an ELF file: its own build id, as perf does */
	if (strcmp(path, "-") && !pk_elf_build_id(path, &bid)) {
		pk_build_id_hex(&bid, hex);
		printf("%s\n", hex);
		return 0;
	}
	err = pk_buildid_list_open(&l, path, &o);
	if (err) {
		cli_error("%s", pk_buildid_list_error(l));
		pk_buildid_list_close(l);
		return 1;
	}
	for (size_t i = 0; i < pk_buildid_list_count(l); i++) {
		const struct pk_build_id_entry *e = pk_buildid_list_entry(l, i);

		bid.size = e->build_id_size;
		memcpy(bid.data, e->build_id, sizeof(bid.data));
		pk_build_id_hex(&bid, hex);
		printf("%-40s %s\n", hex, e->filename);
	}
	pk_buildid_list_close(l);
	return 0;
}

int cmd_buildid_list(int argc, char **argv)
{
	const char *input = "perf.data";
	bool hits = false, kernel = false, maps = false, force = false;
	int c, verbose = 0;

	while ((c = getopt_long(argc, argv, "i:Hkmfvh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'H':
			hits = true;
			break;
		case 'k':
			kernel = true;
			break;
		case 'm':
			maps = true;
			break;
		case 'f':
			force = true;
			break;
		case 'v':
			verbose++;
			break;
		case 'h':
			fputs(buildid_list_usage, stdout);
			return 0;
		default:
			fputs(buildid_list_usage, stderr);
			return 129;
		}
	}
	if (optind < argc) {
		cli_error("buildid-list: unexpected argument '%s'", argv[optind]);
		return 129;
	}
	cli_setup_library_output(verbose);
	if (kernel || maps)
		return print_kernel(maps && !kernel);
	return print_file(input, hits, force);
}
