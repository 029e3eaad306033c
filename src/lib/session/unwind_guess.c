// SPDX-License-Identifier: MIT
/*
 * The caller perf's unwinder guesses for an x86-64 frame whose CFI it
 * cannot find.  perf unwinds with libunwind; perfkit with libdw, which
 * finds CFI wherever libunwind does in perf but for one case (a binary
 * its process also maps lower, see unwind.c).  There perf's chain goes on
 * by libunwind's guesses from the frame pointer, and perfkit's must go on
 * the same way to show the same frames.
 *
 * libunwind (1.6, the one perf 6.1 links) tries, in this order:
 * - a PLT entry (jmp *x(%rip); push $n; jmp y): nothing pushed yet, the
 *   return address is at the stack pointer and the caller's stack
 *   pointer 8 above it;
 * - a frame pointer with no value, or the value 0: the end of the chain;
 * - a frame pointer pointing into the stack at most 16 KiB above the
 *   stack pointer, at a readable word (the caller's frame pointer), with
 *   the return address in the next word.  Its guess of the caller's stack
 *   pointer is the frame's plus 16, not the frame pointer's.
 * Anything else ends the chain, and so does the PLT case without a frame
 * pointer value.
 */
#include "unwind_internal.h"

#define FP_REACH 0x4000 /* how far above the stack pointer a frame pointer may be */

static bool is_plt_entry(pki_read_word_fn *read, void *arg, uint64_t ip)
{
	uint64_t w0, w1;

	if (!read(arg, ip, &w0) || !read(arg, ip + 8, &w1))
		return false;
	/* ff 25 (jmp *rel32(%rip)) at 0, 68 (push imm32) at 6, e9 (jmp
	 * rel32) at 11: little-endian bytes of the two words */
	return (w0 & 0xffff) == 0x25ff && ((w0 >> 48) & 0xff) == 0x68 &&
	       ((w1 >> 24) & 0xff) == 0xe9;
}

bool pki_unwind_guess(const struct pki_guess_frame *f, pki_read_word_fn *read, void *arg,
		      struct pki_guess_frame *caller)
{
	uint64_t saved_fp, ra;

	if (is_plt_entry(read, arg, f->ip)) {
		if (!f->has_fp || !read(arg, f->sp, &ra))
			return false;
		*caller = (struct pki_guess_frame){
			.ip = ra, .sp = f->sp + 8, .fp = f->fp, .has_fp = true};
		return true;
	}
	if (!f->has_fp || !f->fp)
		return false;
	if (f->fp < f->sp || f->fp - f->sp > FP_REACH || !read(arg, f->fp, &saved_fp))
		return false;
	if (!read(arg, f->fp + 8, &ra))
		return false;
	*caller = (struct pki_guess_frame){
		.ip = ra, .sp = f->sp + 16, .fp = saved_fp, .has_fp = true};
	return true;
}
