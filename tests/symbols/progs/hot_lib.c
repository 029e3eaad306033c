/* The shared library of hot_sources.c: a loop of its own. */
unsigned long lib_mix(unsigned long x, int rounds)
{
	for (int i = 0; i < rounds; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}
