// SPDX-License-Identifier: MIT
/* perfkit check: one screen on what this machine supports (pk_check_run). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"

static const char check_usage[] =
	"usage: perfkit check [--json]\n"
	"\n"
	"What this machine and kernel allow: perf_event_paranoid and capabilities,\n"
	"PMUs, rdpmc, tracefs, kprobe/uprobe PMUs, the sample-rate, stack and mlock\n"
	"limits, and a live open of one event of each kind with the reason when it\n"
	"fails.  Run it when perfkit record or stat refuses to start.  Also where\n"
	"report and script look for symbols, and whether debuginfod is in use.\n"
	"\n"
	"    --json                the same as one JSON object\n"
	"    -h, --help            show this help\n";

static const char *yes_no(bool b)
{
	return b ? "yes" : "no";
}

static void print_limit(const char *name, int v, const char *unit)
{
	if (v == PK_LIMIT_UNKNOWN)
		printf("  %-30s unknown\n", name);
	else
		printf("  %-30s %d%s\n", name, v, unit);
}

static void print_rlimit(const char *name, uint64_t v, const char *unit)
{
	if (v == UINT64_MAX)
		printf("  %-30s unlimited\n", name);
	else
		printf("  %-30s %llu%s\n", name, (unsigned long long)v, unit);
}

/* Where a user who sees [unknown] can put debug info, and debuginfod's state. */
static void print_symbols(void)
{
	struct pk_symbol_places sp;

	pk_symbol_places_get(&sp, NULL);
	printf("\nsymbols (looked for in this order):\n");
	printf("  %-30s %s/.build-id/\n", "build-id cache", sp.buildid_dir);
	printf("  %-30s %s/.build-id/\n", "debug files by build id", sp.debug_dir);
	printf("  %-30s beside the binary, in its .debug/, under %s/<its directory>/\n",
	       ".gnu_debuglink targets", sp.debug_dir);
	printf("  %-30s %s\n", "the binary itself", "its .symtab, else .dynsym");
	printf("  %-30s %s\n", "debuginfod support",
	       !sp.debuginfod_built ? "not built in (needs libdebuginfod-dev)"
	       : !sp.debuginfod_urls[0] ? "built in (libdebuginfod.so.1 loads when asked)"
	       : sp.debuginfod_loads	  ? "built in, libdebuginfod.so.1 loads"
			      : "built in, but libdebuginfod.so.1 does not load (libdebuginfod1)");
	printf("  %-30s %s\n", "DEBUGINFOD_URLS",
	       sp.debuginfod_urls[0] ? sp.debuginfod_urls : "not set: nothing is fetched");
	if (sp.debuginfod_built)
		printf("  %-30s %s\n", "debuginfod cache", sp.debuginfod_cache);
}

static void print_text(const struct pk_check *c)
{
	const struct pk_limits *l = &c->limits;

	printf("kernel: %s\n\n", c->kernel);
	printf("permissions:\n");
	print_limit("perf_event_paranoid", l->paranoid, "");
	printf("  %-30s %s\n", "  which means", pk_paranoid_meaning(l->paranoid));
	printf("  %-30s %s (CAP_PERFMON %s, CAP_SYS_ADMIN %s, CAP_SYS_PTRACE %s)\n",
	       "privileged", yes_no(pk_limits_privileged(l)), yes_no(l->cap_perfmon),
	       yes_no(l->cap_sys_admin), yes_no(l->cap_sys_ptrace));
	print_limit("kptr_restrict", l->kptr_restrict, "");
	printf("\nlimits:\n");
	print_limit("perf_event_max_sample_rate", l->max_sample_rate, " Hz");
	print_limit("perf_event_max_stack", l->max_stack, " frames");
	print_limit("perf_event_max_contexts_per_stack", l->max_contexts_per_stack, "");
	print_limit("perf_event_mlock_kb", l->mlock_kb, " KiB per CPU");
	print_rlimit("RLIMIT_MEMLOCK", l->memlock_cur == UINT64_MAX ? UINT64_MAX
								     : l->memlock_cur / 1024,
		     " KiB");
	print_rlimit("RLIMIT_NOFILE", l->nofile_cur, " descriptors");
	print_limit("nmi_watchdog", l->nmi_watchdog, l->nmi_watchdog > 0 ? " (holds a counter)"
									 : "");
	printf("\nPMUs (%d):\n", c->nr_pmus);
	for (int i = 0; i < c->nr_pmus; i++) {
		const struct pk_check_pmu *p = &c->pmus[i];

		printf("  %-20s type %-4d %3d events%s%s\n", p->name, p->type, p->nr_events,
		       p->cpumask[0] ? "  cpumask " : "", p->cpumask);
	}
	printf("  %-30s %s\n", "hardware PMU (cycles)", yes_no(c->hw_pmu));
	printf("  %-30s %s\n", "rdpmc (user page)", yes_no(c->rdpmc_user));
	if (c->rdpmc_sysfs >= 0)
		printf("  %-30s %d\n", "rdpmc (sysfs cpu/rdpmc)", c->rdpmc_sysfs);
	printf("  %-30s %s\n", "kprobe PMU", yes_no(c->kprobe_pmu));
	printf("  %-30s %s\n", "uprobe PMU", yes_no(c->uprobe_pmu));
	printf("  %-30s %s\n", "tracefs", c->tracefs[0] ? c->tracefs : "not mounted");
	printf("\nwhat opens:\n");
	for (int k = 0; k < PK_CHECK_NR_PROBES; k++) {
		const struct pk_check_probe *p = &c->probes[k];

		printf("  %-34s %s%s%s\n", pk_check_probe_name(k),
		       p->err == 0 ? "OK" : (p->err > 0 ? "opens, but" : "not supported"),
		       p->detail[0] ? (p->err > 0 ? " " : ": ") : "", p->detail);
	}
	print_symbols();
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void print_json(const struct pk_check *c)
{
	const struct pk_limits *l = &c->limits;
	struct pk_symbol_places sp;

	pk_symbol_places_get(&sp, NULL);
	printf("{\"kernel\": ");
	json_str(c->kernel);
	printf(", \"perf_event_paranoid\": %d, \"privileged\": %s, \"cap_perfmon\": %s"
	       ", \"cap_sys_admin\": %s, \"max_sample_rate\": %d, \"max_stack\": %d"
	       ", \"mlock_kb\": %d, \"nofile\": %llu, \"hw_pmu\": %s, \"rdpmc_user\": %s"
	       ", \"kprobe_pmu\": %s, \"uprobe_pmu\": %s, \"tracefs\": ",
	       l->paranoid, pk_limits_privileged(l) ? "true" : "false",
	       l->cap_perfmon ? "true" : "false", l->cap_sys_admin ? "true" : "false",
	       l->max_sample_rate, l->max_stack, l->mlock_kb, (unsigned long long)l->nofile_cur,
	       c->hw_pmu ? "true" : "false", c->rdpmc_user ? "true" : "false",
	       c->kprobe_pmu ? "true" : "false", c->uprobe_pmu ? "true" : "false");
	json_str(c->tracefs);
	printf(", \"pmus\": [");
	for (int i = 0; i < c->nr_pmus; i++) {
		printf("%s{\"name\": ", i ? ", " : "");
		json_str(c->pmus[i].name);
		printf(", \"type\": %d}", c->pmus[i].type);
	}
	printf("], \"probes\": [");
	for (int k = 0; k < PK_CHECK_NR_PROBES; k++) {
		printf("%s{\"what\": ", k ? ", " : "");
		json_str(pk_check_probe_name(k));
		printf(", \"ok\": %s, \"detail\": ", c->probes[k].err == 0 ? "true" : "false");
		json_str(c->probes[k].detail);
		putchar('}');
	}
	printf("], \"symbols\": {\"buildid_dir\": ");
	json_str(sp.buildid_dir);
	printf(", \"debug_dir\": ");
	json_str(sp.debug_dir);
	printf(", \"debuginfod\": %s, \"debuginfod_loads\": %s, \"debuginfod_urls\": ",
	       sp.debuginfod_built ? "true" : "false", sp.debuginfod_loads ? "true" : "false");
	json_str(sp.debuginfod_urls);
	printf(", \"debuginfod_cache\": ");
	json_str(sp.debuginfod_cache);
	printf("}}\n");
}

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	struct pk_check c;
	bool json = false;
	int o;

	while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (o) {
		case 'j':
			json = true;
			break;
		case 'h':
			fputs(check_usage, stdout);
			return 0;
		default:
			fputs(check_usage, stderr);
			return 129;
		}
	}
	if (optind < argc) {
		cli_error("check: unexpected argument '%s' (see --help)", argv[optind]);
		return 129;
	}
	pk_check_run(&c, NULL, NULL);
	if (json)
		print_json(&c);
	else
		print_text(&c);
	return 0;
}
