// SPDX-License-Identifier: MIT
/*
 * What perf report's view options change in the histogram: how much of a
 * callchain is used (--max-stack), which frames are hidden (-U), and the
 * totals percentages are of (--percentage).
 */
#include <stdlib.h>
#include <string.h>
#include "hist_internal.h"

size_t pki_hist_max_stack(int32_t opt, size_t dflt)
{
	if (opt < 0)
		return 0;
	return opt ? (size_t)opt : dflt;
}

/* perf -U resolves every frame and keeps those with a symbol, in order:
 * --max-stack has counted the hidden ones already. */
size_t pki_frames_drop_unresolved(struct pk_frame *frames, size_t n)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++)
		if (frames[i].loc.sym)
			frames[kept++] = frames[i];
	return kept;
}

/*
 * A DWARF sample in caller order: perf cuts its two parts apart, the
 * recorded (kernel) chain walked from its end, keeping the outermost
 * max_stack frames, and the unwound user chain by the unwinder, from the
 * leaf.  The kernel frames come first (callee first, as everywhere).
 */
static size_t unwound_caller(struct pk_session *s, const struct pk_session_sample *ev,
			     struct pk_frame *frames, size_t cap, size_t max_stack)
{
	size_t n = pk_session_callchain_max(s, ev, frames, cap, max_stack), k;
	/* the recorded frames, context markers left out, are at most as many
	 * as its entries: no more than max_stack of them, nothing was cut */
	size_t most = ev->sample.callchain_nr < cap ? (size_t)ev->sample.callchain_nr : cap;
	struct pk_session_sample recorded;
	struct pk_frame *kernel;

	if (n < max_stack || most <= max_stack)
		return n;
	kernel = malloc(most * sizeof(*kernel));
	if (!kernel)
		return n; /* the innermost frames, then */
	recorded = *ev;
	recorded.sample.type &= ~(uint64_t)PERF_SAMPLE_STACK_USER;
	k = pk_session_callchain_max(s, &recorded, kernel, most, most);
	if (k > max_stack)
		memcpy(frames, kernel + k - max_stack, max_stack * sizeof(*frames));
	free(kernel);
	return n;
}

/* perf walks a recorded callchain from the end in caller order, so
 * --max-stack keeps the outermost frames there; an unwound (DWARF) chain
 * is cut by the unwinder, from the leaf, whatever the order */
size_t pki_hist_callchain(bool caller, struct pk_session *s, const struct pk_session_sample *ev,
			  struct pk_frame *frames, size_t cap, size_t max_stack)
{
	size_t n;

	if (caller && (ev->sample.type & PERF_SAMPLE_STACK_USER))
		return unwound_caller(s, ev, frames, cap, max_stack);
	if (!caller)
		return pk_session_callchain_max(s, ev, frames, cap, max_stack);
	n = pk_session_callchain_max(s, ev, frames, cap, cap);
	if (n <= max_stack)
		return n;
	memmove(frames, frames + n - max_stack, max_stack * sizeof(*frames));
	return max_stack;
}

void pk_hist_event_kept(const struct pk_hist_event *ev, uint32_t m, uint64_t *nr_samples,
			uint64_t *period)
{
	uint64_t n = 0, p = 0;

	for (uint64_t i = 0; ev && i < ev->nr_entries; i++) {
		const struct pk_hist_entry *e = &ev->entries[i];

		if (e->members && m < ev->nr_members) {
			n += e->members[m].nr_samples;
			p += e->members[m].self;
		} else if (!m) {
			n += e->nr_samples;
			p += e->self;
		}
	}
	*nr_samples = n;
	*period = p;
}
