// SPDX-License-Identifier: MIT
/*
 * gen_script_records: write perf.data files that exercise perf script's
 * rarer columns and records, for comparing perfkit script with perf script
 * where this machine cannot record them (no PMU: no memory samples).
 *
 *	gen_script_records mem OUTPUT     raw event, WEIGHT_STRUCT, DATA_SRC,
 *	                                  PHYS_ADDR, page sizes, many data_src values
 *	gen_script_records weight OUTPUT  raw event, plain WEIGHT and DATA_SRC
 *	gen_script_records side OUTPUT    every side-band record perf script
 *	                                  --show-*-events prints, between samples
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfkit/perfkit.h>
#include "gen_records.h"

#define PID   4242
#define CHILD 4243

/* sample_id_all trailer for TID|TIME|ID|CPU */
static void trailer(struct rec *r, uint32_t pid, uint32_t tid, uint64_t time, uint32_t cpu)
{
	u32x2(r, pid, tid);
	u64(r, time);
	u64(r, 1);
	u32x2(r, cpu, 0);
}

/* One bit out of n, or none, most of the time: keeps the decoded text
 * under the 100 bytes perf formats it into. */
static uint64_t few_bits(int n)
{
	uint64_t v = 0;

	if (rnd() % 4)
		v |= 1ULL << (rnd() % n);
	if (rnd() % 4 == 0)
		v |= 1ULL << (rnd() % n);
	return v;
}

static uint64_t data_src_value(int i)
{
	uint64_t op, lvl, snoop, lock, tlb, lvlnum, remote, snoopx, blk, hops;

	if (i == 0)
		return 0;
	if (i < 1 + 46) /* every bit below mem_rsvd on its own */
		return 1ULL << (i - 1);
	if (i < 47 + 16) /* every mem_lvl_num */
		return (uint64_t)(i - 47) << 33 | 0x2 << 5 | 0x2;
	op = few_bits(5);
	lvl = few_bits(14);
	snoop = few_bits(5);
	lock = rnd() % 4;
	tlb = few_bits(7);
	lvlnum = rnd() % 16;
	remote = rnd() % 2;
	snoopx = rnd() % 4;
	blk = rnd() % 8;
	hops = rnd() % 5; /* perf 6.1 reads past its table above 4 */
	return op | lvl << 5 | snoop << 19 | lock << 24 | tlb << 26 | lvlnum << 33 | remote << 37 |
	       snoopx << 38 | blk << 40 | hops << 43;
}

static const uint64_t page_sizes[] = {0,    1,	   1023,       1024,	   2047,       2048,
				      4096, 65536, 2ULL << 20, 1ULL << 30, 3ULL << 40, 5ULL << 50};

#define NPAGES (sizeof(page_sizes) / sizeof(page_sizes[0]))

static int mem_samples(struct pk_writer *w, bool wstruct, int n)
{
	struct rec r;
	int err = 0;

	for (int i = 0; !err && i < n; i++) {
		uint64_t t = 1000000000ULL + (uint64_t)i * 1000;

		/* user addresses only: perf and perfkit differ on kernel
		 * samples of a file without a kernel map */
		start(&r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		u64(&r, 0x401000 + (uint64_t)i * 4);
		u32x2(&r, PID, PID);
		u64(&r, t);
		u64(&r, i % 5 ? rnd() >> (rnd() % 64) : 0); /* ADDR */
		u64(&r, 1);				    /* ID */
		u32x2(&r, (uint32_t)i % 4, 0);		    /* CPU */
		u64(&r, 10009);				    /* PERIOD */
		if (wstruct)
			u64(&r, (rnd() % 4 ? rnd() % 1000 : rnd() % 100000) |
					(rnd() % 3 ? (uint64_t)(rnd() % 65536) << 32 : 0) |
					(uint64_t)(rnd() % 65536) << 48);
		else
			u64(&r, i % 7 ? rnd() % 5000 : rnd());
		u64(&r, data_src_value(i)); /* DATA_SRC */
		if (wstruct) {
			u64(&r, rnd() % 3 ? 0 : rnd());	  /* TRANSACTION */
			u64(&r, i % 4 ? rnd() >> 20 : 0); /* PHYS_ADDR */
			u64(&r, page_sizes[i % NPAGES]);
			u64(&r, page_sizes[(i * 7) % NPAGES]);
		}
		err = emit(w, &r);
	}
	return err;
}

static int write_comm(struct pk_writer *w, uint32_t pid, uint32_t tid, const char *comm, bool exec,
		      uint64_t t)
{
	struct rec r;

	start(&r, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
	u32x2(&r, pid, tid);
	str(&r, comm);
	trailer(&r, pid, tid, t, 0);
	return emit(w, &r);
}

static int write_sample(struct pk_writer *w, uint32_t pid, uint32_t tid, uint64_t ip, uint64_t t)
{
	struct rec r;

	start(&r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	u64(&r, ip);
	u32x2(&r, pid, tid);
	u64(&r, t);
	u64(&r, 1);
	u32x2(&r, 1, 0);
	u64(&r, 250000);
	return emit(w, &r);
}

static int side_task(struct pk_writer *w, struct rec *r, uint64_t t)
{
	int err = write_comm(w, PID, PID, "parent", false, t);

	start(r, PERF_RECORD_FORK, 0);
	u32x2(r, CHILD, PID);
	u32x2(r, CHILD, PID);
	u64(r, t + 10);
	trailer(r, PID, PID, t + 10, 1);
	err = err ?: emit(w, r);
	err = err ?: write_comm(w, CHILD, CHILD, "a-rather-long-child-name", true, t + 20);
	err = err ?: write_sample(w, CHILD, CHILD, 0x401234, t + 25);
	start(r, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);
	u32x2(r, CHILD, CHILD);
	u64(r, 0x400000);
	u64(r, 0x2000);
	u64(r, 0);
	str(r, "/usr/bin/child");
	trailer(r, CHILD, CHILD, t + 30, 1);
	err = err ?: emit(w, r);
	start(r, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA);
	u32x2(r, CHILD, CHILD);
	u64(r, 0x600000);
	u64(r, 0x1000);
	u64(r, 0x3000);
	str(r, "//anon");
	trailer(r, CHILD, CHILD, t + 31, 1);
	err = err ?: emit(w, r);
	start(r, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	u32x2(r, CHILD, CHILD);
	u64(r, 0x7f0000000000ULL);
	u64(r, 0x26000);
	u64(r, 0x1000);
	u32x2(r, 0xfe, 1);
	u64(r, 332383);
	u64(r, 7);
	u32x2(r, 5, 2);
	str(r, "/usr/lib/x86_64-linux-gnu/libfoo.so.1");
	trailer(r, CHILD, CHILD, t + 32, 1);
	err = err ?: emit(w, r);
	start(r, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER | PK_MISC_MMAP_BUILD_ID);
	u32x2(r, CHILD, CHILD);
	u64(r, 0x7f0000100000ULL);
	u64(r, 0x1000);
	u64(r, 0);
	{
		uint8_t bid[24] = {20, 0, 0, 0};

		for (int i = 0; i < 20; i++)
			bid[4 + i] = (uint8_t)(i * 13 + 1);
		put(r, bid, sizeof(bid));
	}
	u32x2(r, 7, 1);
	str(r, "/usr/lib/libbar.so");
	trailer(r, CHILD, CHILD, t + 33, 1);
	err = err ?: emit(w, r);
	start(r, PERF_RECORD_EXIT, 0);
	u32x2(r, CHILD, PID);
	u32x2(r, CHILD, PID);
	u64(r, t + 90);
	trailer(r, CHILD, CHILD, t + 90, 1);
	return err ?: emit(w, r);
}

static int side_switch(struct pk_writer *w, struct rec *r, uint64_t t)
{
	int err;

	start(r, PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT);
	trailer(r, PID, PID, t, 2);
	err = emit(w, r);
	start(r, PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT | PK_MISC_SWITCH_PREEMPT);
	trailer(r, PID, PID, t + 1, 2);
	err = err ?: emit(w, r);
	start(r, PERF_RECORD_SWITCH, 0);
	trailer(r, PID, PID, t + 2, 2);
	err = err ?: emit(w, r);
	start(r, PERF_RECORD_SWITCH_CPU_WIDE, PERF_RECORD_MISC_SWITCH_OUT);
	u32x2(r, 123456, 123457);
	trailer(r, PID, PID, t + 3, 3);
	err = err ?: emit(w, r);
	start(r, PERF_RECORD_SWITCH_CPU_WIDE, 0);
	u32x2(r, 0, 0);
	trailer(r, 0, 0, t + 4, 3);
	return err ?: emit(w, r);
}

static int side_namespaces(struct pk_writer *w, struct rec *r, uint64_t t)
{
	start(r, PERF_RECORD_NAMESPACES, 0);
	u32x2(r, PID, PID);
	u64(r, 7);
	for (int i = 0; i < 7; i++) {
		u64(r, 4 + (uint64_t)i);
		u64(r, 0xeffffff8ULL + (uint64_t)i);
	}
	trailer(r, PID, PID, t, 0);
	return emit(w, r);
}

static int side_misc(struct pk_writer *w, struct rec *r, uint64_t t)
{
	uint8_t bytes[16] = {0x0f, 0x1f, 0x44, 0x00, 0x00, 0xe9, 0x12, 0x34, 0x56, 0x78};
	int err;

	start(r, PERF_RECORD_LOST, 0);
	u64(r, 1);
	u64(r, 17);
	trailer(r, PID, PID, t, 0);
	err = emit(w, r);
	start(r, PERF_RECORD_LOST_SAMPLES, 0);
	u64(r, 5);
	trailer(r, PID, PID, t + 1, 0);
	err = err ?: emit(w, r);
	start(r, PERF_RECORD_KSYMBOL, 0);
	u64(r, 0xffffffffc0001000ULL);
	u32x2(r, 0x1e0, 1 | 0 << 16);
	str(r, "bpf_prog_6deef7357e7b4530_sd_fw_egress");
	trailer(r, 0, 0, t + 2, 0);
	err = err ?: emit(w, r);
	start(r, PERF_RECORD_BPF_EVENT, 0);
	u32x2(r, 1 | 0 << 16, 42);
	put(r, "\x6d\xee\xf7\x35\x7e\x7b\x45\x30", 8);
	trailer(r, 0, 0, t + 3, 0);
	err = err ?: emit(w, r);
	start(r, PERF_RECORD_CGROUP, 0);
	u64(r, 1234);
	str(r, "/system.slice/foo.service");
	trailer(r, PID, PID, t + 4, 0);
	err = err ?: emit(w, r);
	start(r, PERF_RECORD_TEXT_POKE, 0);
	u64(r, 0xffff888000001000ULL); /* no symbol: below kernel text */
	{
		uint16_t lens[2] = {5, 5};

		put(r, lens, 4);
	}
	put(r, bytes, 10);
	put(r, bytes, 2); /* pad to 8 */
	trailer(r, 0, 0, t + 5, 0);
	err = err ?: emit(w, r);
	start(r, PERF_RECORD_TEXT_POKE, 0);
	u64(r, 0xffff888000002000ULL);
	{
		uint16_t lens[2] = {0, 20};
		uint8_t nb[20];

		for (int i = 0; i < 20; i++)
			nb[i] = (uint8_t)(0xa0 + i);
		put(r, lens, 4);
		put(r, nb, 20);
	}
	trailer(r, 0, 0, t + 5, 0);
	err = err ?: emit(w, r);
	start(r, PERF_RECORD_THROTTLE, 0);
	u64(r, t + 6);
	u64(r, 1);
	u64(r, 1);
	trailer(r, PID, PID, t + 6, 0);
	return err ?: emit(w, r);
}

static int side_records(struct pk_writer *w)
{
	struct rec r;
	uint64_t t = 2000000000ULL;
	int err;

	err = side_task(w, &r, t);
	err = err ?: write_sample(w, PID, PID, 0x401000, t + 100);
	err = err ?: side_switch(w, &r, t + 200);
	err = err ?: pk_writer_finish_round(w);
	err = err ?: side_namespaces(w, &r, t + 300);
	err = err ?: write_sample(w, PID, PID, 0x401008, t + 350);
	err = err ?: side_misc(w, &r, t + 400);
	err = err ?: pk_writer_finish_round(w);
	err = err ?: write_sample(w, 7, 7, 0x401010, t + 500); /* a thread without comm */
	err = err ?: write_sample(w, PID, PID, 0x401020, t + 600);
	return err;
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr = {.size = sizeof(attr), .sample_id_all = 1, .disabled = 1};
	struct pk_writer_opts o = {.sz = sizeof(o)};
	const char *name = "cpu-clock";
	uint64_t id = 1;
	struct pk_writer *w;
	int err, mode;

	if (argc != 3) {
		fprintf(stderr, "usage: gen_script_records mem|weight|side OUTPUT\n");
		return 2;
	}
	mode = !strcmp(argv[1], "mem") ? 0 : !strcmp(argv[1], "weight") ? 1 : 2;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			   PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	if (mode < 2) {
		attr.type = PERF_TYPE_RAW;
		attr.config = 0x1cd;
		attr.sample_period = 10009;
		attr.precise_ip = 2;
		attr.sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
		attr.sample_type |= mode == 0 ? PK_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_TRANSACTION |
							PERF_SAMPLE_PHYS_ADDR |
							PK_SAMPLE_DATA_PAGE_SIZE |
							PK_SAMPLE_CODE_PAGE_SIZE
					      : PERF_SAMPLE_WEIGHT;
		name = "mem-loads";
	} else {
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = PERF_COUNT_SW_CPU_CLOCK;
		attr.sample_period = 250000;
		attr.mmap = attr.mmap2 = attr.comm = attr.task = 1;
		attr.context_switch = attr.namespaces = attr.ksymbol = attr.bpf_event = 1;
		attr.cgroup = attr.text_poke = 1;
	}
	err = pk_writer_open(&w, argv[2], &o);
	err = err ?: pk_writer_add_attr(w, &attr, name, &id, 1);
	err = err ?: pk_writer_start(w);
	if (!err && mode < 2)
		err = write_comm(w, PID, PID, "memtest", false, 999999000)
			      ?: mem_samples(w, mode == 0, mode == 0 ? 400 : 100);
	else if (!err)
		err = side_records(w);
	err = err ?: pk_writer_finish(w);
	if (err)
		fprintf(stderr, "gen_script_records: %s\n", pk_writer_error(w));
	pk_writer_close(w);
	return err ? 1 : 0;
}
