// SPDX-License-Identifier: MIT
/*
 * A program with SDT notes, written out by hand from the note layout
 * (owner "stapsdt", type 3: pc, base, semaphore, then provider, name and
 * argument strings) so that no sys/sdt.h is needed.  Built twice, the
 * second time with EXTRA, for perfkit list sdt's test.
 */
#define NOTE(prov, name)						\
	__asm__ volatile("990: nop\n"					\
		".pushsection .note.stapsdt,\"?\",\"note\"\n"		\
		".balign 4\n"						\
		".4byte 992f-991f, 994f-993f, 3\n"			\
		"991: .asciz \"stapsdt\"\n"				\
		"992: .balign 4\n"					\
		"993: .8byte 990b, _.stapsdt.base, 0\n"			\
		".asciz \"" prov "\"\n"					\
		".asciz \"" name "\"\n"					\
		".asciz \"\"\n"						\
		"994: .balign 4\n"					\
		".popsection\n"						\
		".ifndef _.stapsdt.base\n"				\
		".pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n" \
		".weak _.stapsdt.base\n.hidden _.stapsdt.base\n"	\
		"_.stapsdt.base: .space 1\n.size _.stapsdt.base, 1\n"	\
		".popsection\n.endif\n")

int main(int argc, char **argv)
{
	(void)argv;
	NOTE("pkprov", "start");
	if (argc > 5)
		NOTE("pkprov", "many_args");
	NOTE("other", "start");
#ifdef EXTRA
	NOTE("extra", "only_here");
#endif
	return 0;
}
