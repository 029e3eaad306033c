// SPDX-License-Identifier: MIT
/*
 * Fuzz the TRACING_DATA parser (event formats, kallsyms, printk formats,
 * saved comms handed to libtraceevent) with any bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int pki_tracing_data_try(const void *data, uint64_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * libtraceevent 1.7 leaks a few bytes inside tep_parse_event() on some
 * malformed formats (fuzz/regressions/fuzz_tracepoint/leak-*): not ours to
 * fix, so leak checking is off for this target (and for the replay test,
 * which links it, under ASan); crashes still count.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact-size copy, so reading past the end is caught */
	void *copy = malloc(size ? size : 1);

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	(void)pki_tracing_data_try(copy, size);
	free(copy);
	return 0;
}
