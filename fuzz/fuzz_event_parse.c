// SPDX-License-Identifier: MIT
/*
 * Fuzz the event-list parser (-e strings).  sysfs and tracefs are the fake
 * trees of tests/event/data, so what is found does not depend on the
 * machine the fuzzer runs on.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <perfkit/perfkit.h>
#include <perfkit/event.h>

#ifndef PERFKIT_SRC_DIR
#define PERFKIT_SRC_DIR "."
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("PERFKIT_SYSFS", PERFKIT_SRC_DIR "/tests/event/data/sysfs", 1);
	setenv("PERFKIT_TRACEFS", PERFKIT_SRC_DIR "/tests/event/data/tracefs", 1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pk_event_list list = {0};
	struct pk_parse_error err;
	char name[256];
	char *str;

	if (size > 4096)
		return 0;
	str = malloc(size + 1);
	if (!str)
		return 0;
	memcpy(str, data, size);
	str[size] = '\0';
	if (!pk_event_list_parse(&list, str, NULL, &err)) {
		for (size_t i = 0; i < list.nr; i++)
			(void)pk_event_attr_name(&list.ev[i].attr, name, sizeof(name));
	} else {
		/* the error position must point into the string */
		if (err.pos < 0 || (size_t)err.pos > size || !memchr(err.msg, '\0', sizeof(err.msg)))
			abort();
	}
	pk_event_list_free(&list);
	free(str);
	return 0;
}
