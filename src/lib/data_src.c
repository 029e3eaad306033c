// SPDX-License-Identifier: MIT
/*
 * PERF_SAMPLE_DATA_SRC decoded into words, as perf 6.1's script prints
 * them, and perf's names of page sizes.  The words and their quirks
 * ("N/A hit" for a hit at no level, "L5" for an unnamed level number,
 * "Remote " with nothing after it) are perf's, so outputs can be diffed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <perfkit/sample.h>

/* Field positions of union perf_mem_data_src (little-endian bit order). */
#define DS(v, shift, bits) (((v) >> (shift)) & ((1ULL << (bits)) - 1))

struct pki_strbuf {
	char *p;
	size_t len, cap; /* len may exceed cap: what would have been written */
};

static void sb_add(struct pki_strbuf *b, const char *s)
{
	size_t n = strlen(s);

	if (b->len < b->cap) {
		size_t room = b->cap - b->len;

		memcpy(b->p + b->len, s, n < room ? n : room);
	}
	b->len += n;
}

/* Names of the set bits of m, joined by " or "; returns how many. */
static int sb_bits(struct pki_strbuf *b, uint64_t m, const char *const *names, size_t nr,
		   bool sep_first)
{
	int printed = 0;

	for (size_t i = 0; m && i < nr; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		if (printed++ || sep_first)
			sb_add(b, " or ");
		sb_add(b, names[i]);
		sep_first = false;
	}
	return printed;
}

static void op_words(struct pki_strbuf *b, uint64_t op)
{
	static const char *const names[] = {"N/A", "LOAD", "STORE", "PFETCH", "EXEC"};

	for (size_t i = 0; i < 5; i++) {
		if (op & (1ULL << i)) {
			sb_add(b, names[i]);
			return;
		}
	}
	sb_add(b, "No");
}

static void lvl_words(struct pki_strbuf *b, uint64_t ds)
{
	static const char *const lvl[] = {
		"N/A",
		"HIT",
		"MISS",
		"L1",
		"LFB/MAB",
		"L2",
		"L3",
		"Local RAM",
		"Remote RAM (1 hop)",
		"Remote RAM (2 hops)",
		"Remote Cache (1 hop)",
		"Remote Cache (2 hops)",
		"I/O",
		"Uncached",
	};
	static const char *const lvlnum[16] = {
		[0x09] = "CXL", [0x0a] = "I/O",	 [0x0b] = "Any cache", [0x0c] = "LFB/MAB",
		[0x0d] = "RAM", [0x0e] = "PMEM", [0x0f] = "N/A",
	};
	static const char *const hops[] = {"N/A", "core, same node", "node, same socket",
					   "socket, same board", "board"};
	uint64_t m = DS(ds, 5, 14), num = DS(ds, 33, 4), hop = DS(ds, 43, 3);
	size_t start = b->len;
	int printed;

	if (DS(ds, 37, 1))
		sb_add(b, "Remote ");
	if (hop) {
		/* with a hop level perf leaves the old-style level bits out;
		 * it indexes past its table for hops 5..7: say so */
		sb_add(b, hop < 5 ? hops[hop] : "?");
		sb_add(b, " ");
		printed = 0;
	} else {
		printed = sb_bits(b, m & ~6ULL, lvl, 14, false);
	}
	if (num) {
		char l[8];

		if (printed)
			sb_add(b, " or ");
		snprintf(l, sizeof(l), "L%u", (unsigned)num);
		sb_add(b, lvlnum[num] ? lvlnum[num] : l);
	}
	if (b->len == start)
		sb_add(b, "N/A");
	if (m & 2)
		sb_add(b, " hit");
	if (m & 4)
		sb_add(b, " miss");
}

static void snoop_words(struct pki_strbuf *b, uint64_t ds)
{
	static const char *const snoop[] = {"N/A", "None", "Hit", "Miss", "HitM"};
	static const char *const snoopx[] = {"Fwd", "Peer"};
	int n = sb_bits(b, DS(ds, 19, 5), snoop, 5, false);

	n += sb_bits(b, DS(ds, 38, 2), snoopx, 2, n > 0);
	if (!n)
		sb_add(b, "N/A");
}

static void tlb_words(struct pki_strbuf *b, uint64_t ds)
{
	static const char *const tlb[] = {"N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault"};
	uint64_t m = DS(ds, 26, 7);

	if (!sb_bits(b, m & ~6ULL, tlb, 7, false))
		sb_add(b, "N/A");
	if (m & 2)
		sb_add(b, " hit");
	if (m & 4)
		sb_add(b, " miss");
}

static void lock_blk_words(struct pki_strbuf *b, uint64_t ds)
{
	uint64_t lock = DS(ds, 24, 2), blk = DS(ds, 40, 3);

	sb_add(b, "|LCK ");
	sb_add(b, (lock & 1) ? "N/A" : (lock & 2) ? "Yes" : "No");
	sb_add(b, "|BLK ");
	if (!blk || (blk & 1)) {
		sb_add(b, " N/A");
		return;
	}
	if (blk & 2)
		sb_add(b, " Data");
	if (blk & 4)
		sb_add(b, " Addr");
}

size_t pk_data_src_format(uint64_t data_src, char *buf, size_t len)
{
	struct pki_strbuf b = {.p = buf, .cap = len ? len - 1 : 0};

	sb_add(&b, "|OP ");
	op_words(&b, DS(data_src, 0, 5));
	sb_add(&b, "|LVL ");
	lvl_words(&b, data_src);
	sb_add(&b, "|SNP ");
	snoop_words(&b, data_src);
	sb_add(&b, "|TLB ");
	tlb_words(&b, data_src);
	lock_blk_words(&b, data_src);
	if (!len)
		return 0;
	if (b.len > b.cap)
		b.len = b.cap;
	buf[b.len] = 0;
	return b.len;
}

size_t pk_page_size_format(uint64_t size, char *buf, size_t len)
{
	static const char unit[] = "BKMG";
	int i = 0;
	int n;

	if (!len)
		return 0;
	if (!size) {
		n = snprintf(buf, len, "N/A");
	} else {
		/* perf divides while more than one unit remains: 1024 stays
		 * "1024B", 2048 becomes "2K" */
		while (size / 1024 > 1 && i < 3) {
			size /= 1024;
			i++;
		}
		n = snprintf(buf, len, "%" PRIu64 "%c", size, unit[i]);
	}
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}
