// SPDX-License-Identifier: MIT
// Workload for symbol_sources.sh: templates, a lambda and std::sort, whose
// frames only a .symtab names well (local template instances, the lambda's
// closure type), and libstdc++.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace sources {
template <typename T> struct Ring {
	std::vector<T> v;
	explicit Ring(size_t n) : v(n) {}
	__attribute__((noinline)) T mix(int rounds) const
	{
		T x = 1;
		for (int r = 0; r < rounds; r++)
			for (const T &e : v)
				x = x * 31 + e;
		return x;
	}
};
} // namespace sources

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 4;
	std::vector<unsigned> v(1 << 18);
	unsigned long seed = 7, acc = 0;
	auto by_digits = [](unsigned a, unsigned b) { return a % 1000 < b % 1000; };
	sources::Ring<unsigned long> ring(1 << 14);
	std::function<unsigned long(int)> mixer = [&ring](int n) { return ring.mix(n); };

	for (int r = 0; r < rounds; r++) {
		for (auto &e : v)
			e = (unsigned)(seed = seed * 6364136223846793005ul + 1);
		std::sort(v.begin(), v.end(), by_digits);
		acc += v[v.size() / 2] + mixer(40);
	}
	printf("%lu\n", acc & 1);
	return 0;
}
