// SPDX-License-Identifier: MIT
// Workload for report_parity.sh: C++ exceptions thrown and caught in a loop
// (libstdc++'s and libgcc's unwinder, whose callchains mix resolved and
// unresolved frames of several DSOs), then std::sort, whose inlined
// templates nest in main under DWARF unwinding.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <vector>

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
	std::vector<int> v(2000000);
	for (int r = 0; r < 3; r++) {
		for (auto &x : v)
			x = rand();
		std::sort(v.begin(), v.end());
	}
	printf("%ld %d\n", s, v[0]);
	return 0;
}
