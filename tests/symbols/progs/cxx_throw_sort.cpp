// SPDX-License-Identifier: MIT
// Workload for report_parity.sh: C++ exceptions thrown and caught in a loop
// (libstdc++'s and libgcc's unwinder, whose callchains mix resolved and
// unresolved frames of several DSOs), then std::sort with a lambda, whose
// inlined templates (named without linkage names) nest in one another and
// in main under DWARF unwinding.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <vector>

struct item {
	int a;
	double b;
};

static int __attribute__((noinline)) thrower(int i)
{
	if (i % 3 == 0)
		throw std::runtime_error("x");
	return i;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 300000;
	long s = 0;

	for (long i = 0; i < n; i++) {
		try {
			s += thrower((int)i);
		} catch (const std::exception &e) {
			s++;
		}
	}
	std::vector<item> v(1500000);
	for (int r = 0; r < 3; r++) {
		for (auto &x : v)
			x = {rand(), rand() * 0.5};
		std::sort(v.begin(), v.end(),
			  [](const item &l, const item &r) { return l.b < r.b; });
	}
	printf("%ld %d\n", s, v[0].a);
	return 0;
}
