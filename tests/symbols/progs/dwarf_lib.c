// SPDX-License-Identifier: MIT
/* Shared library of dwarf_unwind.c: a call into libm, and a function that
 * calls back into the program (frames of two objects interleaved). */
#include <math.h>

double dwl_work(double x, int n)
{
	for (int i = 0; i < n; i++)
		x = sin(x) + cos(x) * 1.0001;
	return x;
}

double dwl_callback(double (*fn)(double), double x)
{
	return fn(x) + 1.0;
}
