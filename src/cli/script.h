/* SPDX-License-Identifier: MIT */
/* perfkit script: shared between its files. */
#ifndef PK_CLI_SCRIPT_H
#define PK_CLI_SCRIPT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <perfkit/perfkit.h>
#include <perfkit/session.h>

/* Output fields, named as in perf script -F. */
enum script_field {
	SF_COMM = 1 << 0,
	SF_TID = 1 << 1,
	SF_PID = 1 << 2,
	SF_TIME = 1 << 3,
	SF_CPU = 1 << 4,
	SF_EVENT = 1 << 5,
	SF_TRACE = 1 << 6,
	SF_IP = 1 << 7,
	SF_SYM = 1 << 8,
	SF_SYMOFF = 1 << 9,
	SF_DSO = 1 << 10,
	SF_ADDR = 1 << 11,
	SF_PERIOD = 1 << 12,
	SF_BRSTACK = 1 << 13,
	SF_BRSTACKSYM = 1 << 14,
};

struct script_event_fmt {
	unsigned fields;	/* what this event prints */
	bool callchain;		/* the event records callchains */
};

struct obuf;

struct script_ctx {
	FILE *out;
	struct obuf *ob;		/* samples are printed through it */
	struct pk_session *session;
	bool nanosecs;
	int name_width;
	uint32_t nr_attrs;
	struct script_event_fmt *fmt; /* per attr index */
	struct pk_frame *frames;
	char *trace_buf;		/* tracepoint fields, formatted */
	size_t trace_len;
};

#define SCRIPT_MAX_STACK 127

void script_print_sample(struct script_ctx *c, const struct pk_session_sample *ev);
/* The brstack or brstacksym field (script_branch.c). */
void script_print_brstack(struct script_ctx *c, const struct pk_session_sample *ev, unsigned f);

#endif
