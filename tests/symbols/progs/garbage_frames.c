// SPDX-License-Identifier: MIT
/*
 * Workload for symbols_vs_perf.sh: callchains whose frames point into data,
 * as frame-pointer unwinding gives for code built without frame pointers.
 *
 * Two threads spin (one in user space, one in system calls) with rbp set to
 * a hand-made list of frames whose return addresses point at objects in
 * .rodata, .data and .bss, at a vtable and a typeinfo of a library loaded
 * with dlopen(), at labels, into no map at all, and at a kernel address.
 * The main thread reads the clock through the vdso meanwhile.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct frame {
	struct frame *next;
	void *ret;
};

static const long ro_table[64] = {1, 2, 3, 4, 5};
long rw_table[64];
int data_var = 5;
static struct frame frames[24];

/* an untyped label in .data, one in a text-named data section, a hidden
 * label in code and an object without a size */
extern char data_label[], rodata_text_label[], hidden_label[], sizeless_object[];
/* two untyped symbols at one address (from crt1.o): perf keeps the later one */
extern char __data_start[];
__asm__(".pushsection .data.lbl,\"aw\"\n.globl data_label\ndata_label: .quad 1, 2, 3, 4\n"
	".popsection\n"
	".pushsection .rodata.text_like,\"a\"\n.globl rodata_text_label\n"
	"rodata_text_label: .quad 1, 2, 3, 4\n.popsection\n"
	".pushsection .data.obj,\"aw\"\n.globl sizeless_object\n.type sizeless_object, @object\n"
	"sizeless_object: .quad 5, 6, 7, 8\n.popsection\n"
	".text\n.globl hidden_label\n.hidden hidden_label\nhidden_label: nop\n nop\n nop\n nop\n ret\n");

__attribute__((noinline)) void spin(struct frame *f, long n)
{
	__asm__ volatile("push %%rbp\n\tmov %1, %%rbp\n1:\n\tdec %0\n\tjnz 1b\n\tpop %%rbp"
			 : "+r"(n)
			 : "r"(f)
			 : "memory");
}

__attribute__((noinline)) void sys_spin(struct frame *f, long n)
{
	__asm__ volatile("push %%rbp\n\tmov %1, %%rbp\n1:\n\tmov $39, %%eax\n\tsyscall\n\t"
			 "dec %0\n\tjnz 1b\n\tpop %%rbp"
			 : "+r"(n)
			 : "r"(f)
			 : "memory", "rax", "rcx", "r11");
}

static void *worker(void *arg)
{
	spin(arg, 700000000L);
	sys_spin(arg, 1000000L);
	return NULL;
}

int main(void)
{
	void *h = dlopen("libstdc++.so.6", RTLD_NOW);
	char *vt = h ? dlsym(h, "_ZTVSt9bad_alloc") : NULL;
	void *ti = h ? dlsym(h, "_ZTISt9bad_alloc") : NULL;
	void *ret[] = {(char *)ro_table + 24, (char *)rw_table + 8, &data_var, vt ? vt + 16 : NULL,
		       ti, (char *)main + 5, data_label + 8, rodata_text_label + 8,
		       hidden_label + 2, sizeless_object + 16, (void *)0x7ffd00001234UL,
		       (void *)0x1234, (char *)&frames[3] + 4, __data_start + 4, (void *)0xffffffff81000000UL};
	int n = sizeof(ret) / sizeof(ret[0]);
	struct timespec ts;
	pthread_t t;
	long sum = 0;

	for (int i = 0; i < n; i++) {
		frames[i].ret = ret[i];
		frames[i].next = i + 1 < n ? &frames[i + 1] : NULL;
	}
	if (pthread_create(&t, NULL, worker, &frames[0]))
		return 1;
	for (int i = 0; i < 3000000; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		sum += ts.tv_nsec & 1;
	}
	pthread_join(t, NULL);
	printf("%ld\n", sum);
	return 0;
}
