/*
 * A workload whose time is spread over its own functions (static ones
 * too, which only a .symtab names), a shared library when built with
 * -DWITH_LIB, and libc's qsort and memcpy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef WITH_LIB
unsigned long lib_mix(unsigned long x, int rounds);
#else
static unsigned long lib_mix(unsigned long x, int rounds)
{
	for (int i = 0; i < rounds; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}
#endif

static int by_value(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

static __attribute__((noinline)) unsigned long sort_round(unsigned *v, size_t n,
							  unsigned long seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 2862933555777941757ul + 3037000493ul;
		v[i] = (unsigned)(seed >> 33);
	}
	qsort(v, n, sizeof(*v), by_value);
	return seed ^ v[n / 2];
}

static __attribute__((noinline)) unsigned long copy_round(char *dst, const char *src,
							  size_t len)
{
	unsigned long sum = 0;

	for (int r = 0; r < 64; r++) {
		memcpy(dst, src, len);
		sum += (unsigned char)dst[r * 7];
	}
	return sum;
}

int main(int argc, char **argv)
{
	size_t n = 1 << 17, len = 1 << 20;
	unsigned *v = malloc(n * sizeof(*v));
	char *a = malloc(len), *b = malloc(len);
	int rounds = argc > 1 ? atoi(argv[1]) : 12;
	unsigned long acc = 1;

	if (!v || !a || !b)
		return 1;
	memset(a, 7, len);
	for (int r = 0; r < rounds; r++) {
		acc += sort_round(v, n, acc);
		acc += copy_round(b, a, len);
		acc = lib_mix(acc, 4000000);
	}
	printf("%lu\n", acc & 1);
	free(v);
	free(a);
	free(b);
	return 0;
}
