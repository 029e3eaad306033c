// SPDX-License-Identifier: MIT
// Workload for symbols_vs_perf.sh: C++ names to demangle (namespaces,
// virtual functions, templates, the standard library), built without frame
// pointers so that -g callchains also carry garbage frames.
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace shapes {
struct Shape {
	virtual ~Shape() {}
	virtual double area(int k) const = 0;
};
struct Square : Shape {
	double s;
	explicit Square(double x) : s(x) {}
	double area(int k) const override
	{
		double r = 0;
		for (int i = 0; i < k; i++)
			r += s * s / (i + 1);
		return r;
	}
};
struct Circle : Shape {
	double r;
	explicit Circle(double x) : r(x) {}
	double area(int k) const override
	{
		double a = 0;
		for (int i = 0; i < k; i++)
			a += 3.14 * r * r / (i + 2);
		return a;
	}
};
} // namespace shapes

long table[4096];

template <typename T> T accumulate_all(const std::vector<T> &v)
{
	T s{};
	for (auto &x : v)
		s += x;
	return s;
}

int main()
{
	std::vector<shapes::Shape *> v;
	std::map<std::string, int> m;
	double t = 0;

	for (int i = 0; i < 1000; i++)
		v.push_back(i % 2 ? static_cast<shapes::Shape *>(new shapes::Square(i))
				  : new shapes::Circle(i));
	for (int it = 0; it < 800; it++) {
		for (auto s : v)
			t += s->area(200);
		for (int i = 0; i < 4096; i++)
			table[i] += i * it;
		m[std::to_string(it)] = it;
		std::vector<double> d(1000, 1.0);
		t += accumulate_all(d);
	}
	std::printf("%g %zu\n", t, m.size());
	return 0;
}
