// SPDX-License-Identifier: MIT
/*
 * Replay the fuzz corpus and the saved crash inputs through the fuzz
 * targets, without libFuzzer: every input that once crashed stays fixed.
 * Usage: replay SRC_DIR (the tree holding fuzz/corpus and fuzz/regressions).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef int (*one_fn)(const uint8_t *data, size_t size);
typedef int (*init_fn)(int *argc, char ***argv);

int fuzz_reader_one(const uint8_t *data, size_t size);
int fuzz_event_parse_one(const uint8_t *data, size_t size);
int fuzz_event_parse_init(int *argc, char ***argv);
int fuzz_symbols_one(const uint8_t *data, size_t size);
int fuzz_symsrc_one(const uint8_t *data, size_t size);
int fuzz_tracepoint_one(const uint8_t *data, size_t size);
int fuzz_sample_one(const uint8_t *data, size_t size);
int fuzz_report_one(const uint8_t *data, size_t size);

static const struct target {
	const char *name;
	one_fn one;
	init_fn init;
} targets[] = {
	{"fuzz_reader", fuzz_reader_one, NULL},
	{"fuzz_event_parse", fuzz_event_parse_one, fuzz_event_parse_init},
	{"fuzz_symbols", fuzz_symbols_one, NULL},
	{"fuzz_symsrc", fuzz_symsrc_one, NULL},
	{"fuzz_tracepoint", fuzz_tracepoint_one, NULL},
	{"fuzz_sample", fuzz_sample_one, NULL},
	{"fuzz_report", fuzz_report_one, NULL},
};

static int replay_file(const struct target *t, const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	struct stat st;
	int ret = -1;

	if (!f)
		return -1;
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || st.st_size > (1 << 24))
		goto out;
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!buf || fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size)
		goto out;
	printf("%s %s\n", t->name, path);
	fflush(stdout);	/* the log names the input if the next call crashes */
	t->one(buf, (size_t)st.st_size);
	ret = 0;
out:
	free(buf);
	fclose(f);
	return ret;
}

/* Replay every regular file of dir; returns how many, or -1. */
static int replay_dir(const struct target *t, const char *dir)
{
	struct dirent *de;
	char path[8192];
	int n = 0;
	DIR *d = opendir(dir);

	if (!d)
		return 0;	/* a target may have no saved inputs */
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path) ||
		    replay_file(t, path)) {
			fprintf(stderr, "replay: cannot read %s\n", path);
			n = -1;
			break;
		}
		n++;
	}
	closedir(d);
	return n;
}

int main(int argc, char **argv)
{
	static const char *const kinds[] = {"corpus", "regressions"};
	char dir[4096];
	int total = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: replay SRC_DIR\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		const struct target *t = &targets[i];

		if (t->init)
			t->init(&argc, &argv);
		for (size_t k = 0; k < 2; k++) {
			int n;

			if (snprintf(dir, sizeof(dir), "%s/fuzz/%s/%s", argv[1], kinds[k],
				     t->name) >= (int)sizeof(dir))
				return 1;
			n = replay_dir(t, dir);
			if (n < 0)
				return 1;
			total += n;
		}
	}
	printf("replayed %d inputs\n", total);
	if (total == 0) {
		fprintf(stderr, "replay: no inputs found under %s/fuzz\n", argv[1]);
		return 1;
	}
	return 0;
}
