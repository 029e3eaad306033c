/* SPDX-License-Identifier: MIT */
/*
 * DWARF unwinding of the user stacks that samples carry (perf record
 * --call-graph dwarf): the interface between the session and unwind*.c.
 */
#ifndef PK_UNWIND_INTERNAL_H
#define PK_UNWIND_INTERNAL_H

#include <elfutils/libdwfl.h>
#include "session_internal.h"

enum pki_unwind_arch { PKI_ARCH_NONE, PKI_ARCH_X86_64, PKI_ARCH_AARCH64 };

/*
 * Append the user frames unwound from ev's registers and stack copy to
 * frames (callee first, with perf's inlined frames after each), at most
 * max_stack unwound and max written.  Returns how many were written: 0
 * when the sample has no stack copy or nothing could be unwound.
 */
size_t pki_unwind_user(struct pk_session *s, const struct pk_session_sample *ev,
		       struct pk_frame *frames, size_t max, size_t max_stack);

/* The per-process unwinder that pki_maps keeps (unwind.c). */
void pki_unwinder_free(struct pki_unwinder *u);

/* unwind_regs.c: the architecture of the recording, from its header. */
enum pki_unwind_arch pki_unwind_arch(struct pk_session *s);

/*
 * The initial registers, in DWARF numbering, from the sample's user
 * registers: fills regs[0..*nr) and *pc.  Registers the sample lacks are
 * 0, as perf takes them.  Returns false when the architecture or ABI is
 * not one we unwind.
 */
bool pki_unwind_regs(enum pki_unwind_arch arch, const struct pk_sample *s, uint64_t *regs,
		     unsigned *nr, uint64_t *pc, uint64_t *sp);

/*
 * unwind_inline.c: the frames perf shows for the code at addr (of
 * loc->dso, in module mod) that was inlined there, innermost first and
 * ending with the function itself; 0 when the debug info says nothing
 * (then the frame stands alone).
 */
/* unwind_guess.c: an x86-64 frame as perf's libunwind guesses callers. */
struct pki_guess_frame {
	uint64_t ip; /* its code address (a caller's: the return address) */
	uint64_t sp; /* its stack pointer */
	uint64_t fp; /* its frame pointer (rbp), when has_fp */
	bool has_fp;
};

/* A word of the sample's memory as perf reads it (stack copy or file). */
typedef bool pki_read_word_fn(void *arg, uint64_t addr, uint64_t *out);

/*
 * The caller libunwind guesses for frame f when it finds no CFI for it
 * (x86-64 only): true with *caller set, false when the chain ends there.
 */
bool pki_unwind_guess(const struct pki_guess_frame *f, pki_read_word_fn *read, void *arg,
		      struct pki_guess_frame *caller);

size_t pki_inline_frames(struct pk_session *s, Dwfl_Module *mod, Dwarf_Addr pc,
			 const struct pk_location *loc, struct pk_frame *frames, size_t max);
void pki_inlines_free(struct pk_session *s);

#endif
