// SPDX-License-Identifier: MIT
/*
 * The build-id cache: where it is, perf's names for its files, adding
 * atomically, removing, purging, listing.  The ELF under test is a copy of
 * this test program (it has a GNU build id) in a temporary directory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <perfkit/buildid.h>
#include <perfkit/symbols.h>

struct fx {
	char root[256];	 /* temporary directory */
	char cache[512]; /* root/cache */
	char prog[512];	 /* root/bin/prog, a copy of this program */
	struct pk_build_id bid;
	char hex[65];
	struct pk_buildid_cache *c;
};

static void copy(const char *from, const char *to)
{
	char buf[65536];
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	size_t n;

	assert_non_null(in);
	assert_non_null(out);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		assert_int_equal(fwrite(buf, 1, n, out), n);
	fclose(in);
	fclose(out);
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct pk_buildid_cache_opts o = {.sz = sizeof(o)};
	char self[PATH_MAX], dir[384];
	ssize_t n;

	snprintf(f->root, sizeof(f->root), "/tmp/pk-bidc-XXXXXX");
	assert_non_null(mkdtemp(f->root));
	snprintf(f->cache, sizeof(f->cache), "%s/cache", f->root);
	snprintf(dir, sizeof(dir), "%s/bin", f->root);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(f->prog, sizeof(f->prog), "%s/prog", dir);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	assert_true(n > 0);
	self[n] = 0;
	copy(self, f->prog);
	chmod(f->prog, 0755);
	assert_int_equal(pk_elf_build_id(f->prog, &f->bid), 0);
	pk_build_id_hex(&f->bid, f->hex);
	o.dir = f->cache;
	assert_int_equal(pk_buildid_cache_open(&f->c, &o), 0);
	*state = f;
	return 0;
}

static int rm_tree(const char *path)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	return system(cmd);
}

static int teardown(void **state)
{
	struct fx *f = *state;

	pk_buildid_cache_close(f->c);
	rm_tree(f->root);
	free(f);
	return 0;
}

static void test_hex(void **state)
{
	struct pk_build_id a, b;
	char hex[65];

	(void)state;
	assert_int_equal(pk_build_id_parse("00ff10Ab", &a), 0);
	assert_int_equal(a.size, 4);
	pk_build_id_hex(&a, hex);
	assert_string_equal(hex, "00ff10ab");
	assert_int_equal(pk_build_id_parse("abc", &b), -EINVAL);
	assert_int_equal(pk_build_id_parse("zz", &b), -EINVAL);
	assert_int_equal(pk_build_id_parse("", &b), -EINVAL);
}

static void test_dir_precedence(void **state)
{
	struct pk_buildid_cache_opts o = {.sz = sizeof(o), .dir = "/x/y/"};
	struct pk_buildid_cache *c;

	const char *home = getenv("HOME");
	char *saved = home ? strdup(home) : NULL;

	(void)state;
	setenv("HOME", "/home/h", 1);
	setenv("PERF_BUILDID_DIR", "/env/dir", 1);
	assert_int_equal(pk_buildid_cache_open(&c, &o), 0);
	assert_string_equal(pk_buildid_cache_dir(c), "/x/y");
	pk_buildid_cache_close(c);
	assert_int_equal(pk_buildid_cache_open(&c, NULL), 0);
	assert_string_equal(pk_buildid_cache_dir(c), "/env/dir");
	pk_buildid_cache_close(c);
	unsetenv("PERF_BUILDID_DIR");
	assert_int_equal(pk_buildid_cache_open(&c, NULL), 0);
	assert_string_equal(pk_buildid_cache_dir(c), "/home/h/.debug");
	pk_buildid_cache_close(c);
	unsetenv("HOME");
	assert_int_equal(pk_buildid_cache_open(&c, NULL), -ENOENT);
	pk_buildid_cache_close(c);
	if (saved)
		setenv("HOME", saved, 1);
	free(saved);
}

/* Files in dir whose name starts with '.': leftovers of the temp+rename. */
static int hidden_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += de->d_name[0] == '.' && strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static void test_add_layout(void **state)
{
	struct fx *f = *state;
	char path[PATH_MAX], want[PATH_MAX], link[PATH_MAX], target[PATH_MAX];
	struct pk_build_id have;
	ssize_t n;

	assert_int_equal(pk_buildid_cache_add(f->c, f->prog, NULL), 1);
	/* <dir>/<abs path>/<hex>/elf */
	assert_int_equal(pk_buildid_cache_path(f->c, f->prog, &f->bid, path, sizeof(path)), 0);
	snprintf(want, sizeof(want), "%s%s/%s/elf", f->cache, f->prog, f->hex);
	assert_string_equal(path, want);
	assert_int_equal(pk_elf_build_id(path, &have), 0);
	assert_memory_equal(have.data, f->bid.data, f->bid.size);
	/* .build-id/xx/rest -> ../../<path>/<hex>, relative as perf makes it */
	snprintf(link, sizeof(link), "%s/.build-id/%.2s/%s", f->cache, f->hex, f->hex + 2);
	n = readlink(link, target, sizeof(target) - 1);
	assert_true(n > 0);
	target[n] = 0;
	snprintf(want, sizeof(want), "../..%s/%s", f->prog, f->hex);
	assert_string_equal(target, want);
	assert_true(pk_buildid_cache_has(f->c, &f->bid));
	*strrchr(path, '/') = 0;
	assert_int_equal(hidden_files(path), 0);
	*strrchr(link, '/') = 0;
	assert_int_equal(hidden_files(link), 0);
	/* found by build id alone, as symbol lookup does */
	assert_int_equal(pk_buildid_cache_find(f->c, &f->bid, "elf", path, sizeof(path)), 0);
	snprintf(want, sizeof(want), "%s/.build-id/%.2s/%s/elf", f->cache, f->hex, f->hex + 2);
	assert_string_equal(path, want);
	assert_int_equal(pk_buildid_cache_find(f->c, &f->bid, "kallsyms", path, sizeof(path)),
			 -ENOENT);
	/* a second add finds it there */
	assert_int_equal(pk_buildid_cache_add(f->c, f->prog, &f->bid), 0);
}

static void test_special_names(void **state)
{
	struct fx *f = *state;
	struct pk_build_id bid = {.size = 20, .data = {1, 2, 3}};
	char path[PATH_MAX], want[PATH_MAX];

	assert_int_equal(pk_buildid_cache_path(f->c, PK_BUILDID_KALLSYMS, &bid, path, sizeof(path)),
			 0);
	snprintf(want, sizeof(want),
		 "%s/[kernel.kallsyms]/0102030000000000000000000000000000000000/kallsyms",
		 f->cache);
	assert_string_equal(path, want);
	assert_int_equal(pk_buildid_cache_path(f->c, PK_BUILDID_VDSO, &bid, path, sizeof(path)), 0);
	snprintf(want, sizeof(want), "%s/[vdso]/0102030000000000000000000000000000000000/vdso",
		 f->cache);
	assert_string_equal(path, want);
}

static void test_vdso(void **state)
{
	struct fx *f = *state;
	struct pk_build_id bid, have;
	char path[PATH_MAX];

	if (pk_vdso_build_id(&bid))
		skip();
	assert_int_equal(pk_buildid_cache_add(f->c, PK_BUILDID_VDSO, &bid), 1);
	assert_int_equal(pk_buildid_cache_path(f->c, PK_BUILDID_VDSO, &bid, path, sizeof(path)), 0);
	assert_int_equal(pk_elf_build_id(path, &have), 0);
	assert_memory_equal(have.data, bid.data, bid.size);
}

static void test_wrong_build_id(void **state)
{
	struct fx *f = *state;
	struct pk_build_id other = f->bid;
	char path[PATH_MAX];
	struct stat st;

	other.data[0] ^= 0xff;
	assert_int_equal(pk_buildid_cache_add(f->c, f->prog, &other), -ESTALE);
	assert_true(strstr(pk_buildid_cache_error(f->c), "build id") != NULL);
	assert_int_equal(pk_buildid_cache_path(f->c, f->prog, &other, path, sizeof(path)), 0);
	assert_int_not_equal(stat(path, &st), 0);
	assert_false(pk_buildid_cache_has(f->c, &other));
	assert_true(pk_buildid_cache_add(f->c, "/nonexistent/file", NULL) < 0);
}

static void test_remove(void **state)
{
	struct fx *f = *state;
	char path[PATH_MAX];
	struct stat st;

	assert_int_equal(pk_buildid_cache_add(f->c, f->prog, NULL), 1);
	assert_int_equal(pk_buildid_cache_remove(f->c, &f->bid), 0);
	assert_false(pk_buildid_cache_has(f->c, &f->bid));
	pk_buildid_cache_path(f->c, f->prog, &f->bid, path, sizeof(path));
	*strrchr(path, '/') = 0;
	assert_int_not_equal(stat(path, &st), 0);
	assert_int_equal(pk_buildid_cache_remove(f->c, &f->bid), -ENOENT);
}

/* A link leading out of the cache is never followed to remove things. */
static void test_remove_refuses_escape(void **state)
{
	struct fx *f = *state;
	char dir[1024], link[PATH_MAX], victim[PATH_MAX];
	struct stat st;

	snprintf(victim, sizeof(victim), "%s/victim", f->root);
	assert_int_equal(mkdir(victim, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/.build-id/%.2s", f->cache, f->hex);
	snprintf(link, sizeof(link), "mkdir -p '%s'", dir);
	assert_int_equal(system(link), 0);
	snprintf(link, sizeof(link), "%s/%s", dir, f->hex + 2);
	assert_int_equal(symlink("../../../victim", link), 0);
	assert_int_equal(pk_buildid_cache_remove(f->c, &f->bid), -EINVAL);
	assert_int_equal(stat(victim, &st), 0);
}

struct seen {
	int n;
	char hex[4][65];
	bool valid[4];
	char name[4][PATH_MAX];
};

static int collect(const struct pk_buildid_cache_entry *e, void *arg)
{
	struct seen *s = arg;

	if (s->n < 4) {
		snprintf(s->hex[s->n], sizeof(s->hex[0]), "%s", e->hex);
		snprintf(s->name[s->n], sizeof(s->name[0]), "%s", e->name);
		s->valid[s->n] = e->valid;
	}
	s->n++;
	return 0;
}

static void test_list_and_purge(void **state)
{
	struct fx *f = *state;
	struct seen s = {0};
	char moved[PATH_MAX];

	assert_int_equal(pk_buildid_cache_list(f->c, collect, &s), 0); /* no cache yet */
	assert_int_equal(s.n, 0);
	assert_int_equal(pk_buildid_cache_add(f->c, f->prog, NULL), 1);
	assert_int_equal(pk_buildid_cache_list(f->c, collect, &s), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.hex[0], f->hex);
	assert_string_equal(s.name[0], f->prog);
	assert_true(s.valid[0]);
	/* the file gone: still listed, no longer valid (perf -l hides it) */
	snprintf(moved, sizeof(moved), "%s.moved", f->prog);
	assert_int_equal(rename(f->prog, moved), 0);
	memset(&s, 0, sizeof(s));
	assert_int_equal(pk_buildid_cache_list(f->c, collect, &s), 0);
	assert_int_equal(s.n, 1);
	assert_false(s.valid[0]);
	/* purge works on the path even though the file is gone */
	assert_int_equal(pk_buildid_cache_purge(f->c, f->prog), 1);
	assert_false(pk_buildid_cache_has(f->c, &f->bid));
	assert_int_equal(rename(moved, f->prog), 0);
	assert_int_equal(pk_buildid_cache_add(f->c, f->prog, NULL), 1);
	/* a gone name with ".." is refused rather than leave the cache */
	assert_int_equal(pk_buildid_cache_purge(f->c, "/nonexistent/../../etc"), -EINVAL);
	assert_int_equal(pk_buildid_cache_purge_all(f->c), 1);
	assert_false(pk_buildid_cache_has(f->c, &f->bid));
}

/* Writers racing to create the same entry, released together from a
 * pipe: each succeeds, and what is left is one complete file with its
 * link and no temporary file. */
static void race_round(struct fx *f)
{
	pid_t kids[4];
	int go[2], status;
	char c;

	assert_int_equal(pipe(go), 0);
	for (int k = 0; k < 4; k++) {
		kids[k] = fork();
		assert_true(kids[k] >= 0);
		if (kids[k] == 0) {
			close(go[1]);
			if (read(go[0], &c, 1) < 0)
				_exit(2);
			_exit(pk_buildid_cache_add(f->c, f->prog, NULL) < 0);
		}
	}
	close(go[0]);
	close(go[1]); /* end of file: all start */
	for (int k = 0; k < 4; k++) {
		assert_int_equal(waitpid(kids[k], &status, 0), kids[k]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
}

static void test_concurrent_add(void **state)
{
	struct fx *f = *state;
	struct pk_build_id have;
	char path[PATH_MAX];

	for (int round = 0; round < 8; round++) {
		pk_buildid_cache_purge_all(f->c);
		race_round(f);
		pk_buildid_cache_path(f->c, f->prog, &f->bid, path, sizeof(path));
		assert_int_equal(pk_elf_build_id(path, &have), 0);
		assert_memory_equal(have.data, f->bid.data, f->bid.size);
		assert_true(pk_buildid_cache_has(f->c, &f->bid));
		*strrchr(path, '/') = 0;
		assert_int_equal(hidden_files(path), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hex),
		cmocka_unit_test(test_dir_precedence),
		cmocka_unit_test_setup_teardown(test_add_layout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_special_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_vdso, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrong_build_id, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remove, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remove_refuses_escape, setup, teardown),
		cmocka_unit_test_setup_teardown(test_list_and_purge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_concurrent_add, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
