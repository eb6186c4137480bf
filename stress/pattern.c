/* The verifiable data pattern; see pattern.h. */
#include "common.h"

#include <stdio.h>

static uint64_t fnv1a64(const unsigned char *p, size_t n, uint64_t h)
{
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t block_csum(const unsigned char *buf, uint32_t bs)
{
	static const unsigned char zero[8];
	size_t co = offsetof(struct pat_hdr, csum);
	uint64_t h = 0xcbf29ce484222325ULL;

	h = fnv1a64(buf, co, h);
	h = fnv1a64(zero, 8, h);
	return fnv1a64(buf + co + 8, bs - co - 8, h);
}

static uint64_t payload_state(uint64_t off, uint32_t writer, uint64_t gen, uint64_t seed)
{
	uint64_t s = seed ^ 0x5bd1e9955bd1e995ULL;

	s ^= splitmix64(&s) ^ off;
	s ^= splitmix64(&s) ^ writer;
	s ^= splitmix64(&s) ^ gen;
	return s;
}

void pattern_fill(void *buf, uint32_t bs, uint64_t off, uint32_t writer,
		  uint64_t gen, uint64_t seed)
{
	struct pat_hdr *h = buf;
	uint64_t *w = buf;
	uint64_t st = payload_state(off, writer, gen, seed);

	for (size_t i = sizeof(*h) / 8; i < bs / 8; i++)
		w[i] = splitmix64(&st);
	h->magic = PAT_MAGIC;
	h->offset = off;
	h->gen = gen;
	h->seed = seed;
	h->writer = writer;
	h->bs = bs;
	h->csum = 0;
	h->csum = block_csum(buf, bs);
}

int block_is_zero(const void *buf, uint32_t bs)
{
	const uint64_t *w = buf;

	for (size_t i = 0; i < bs / 8; i++)
		if (w[i])
			return 0;
	return 1;
}

int pattern_check(const void *buf, uint32_t bs, uint64_t off, long want_writer,
		  uint64_t want_gen, char *why, size_t whylen)
{
	const struct pat_hdr *h = buf;
	const uint64_t *w = buf;

	if (h->magic != PAT_MAGIC) {
		snprintf(why, whylen, "bad_magic found=0x%016llx%s",
			 (unsigned long long)h->magic,
			 block_is_zero(buf, bs) ? " (block is all zero)" : "");
		return 1;
	}
	if (h->bs != bs) {
		snprintf(why, whylen, "bad_bs expected=%u found=%u", bs, h->bs);
		return 1;
	}
	if (h->offset != off) {
		snprintf(why, whylen, "misplaced_block found_off=%llu writer=%u gen=%llu",
			 (unsigned long long)h->offset, h->writer,
			 (unsigned long long)h->gen);
		return 1;
	}
	uint64_t c = block_csum(buf, bs);
	if (c != h->csum) {
		snprintf(why, whylen, "bad_checksum expected=0x%016llx found=0x%016llx "
			 "writer=%u gen=%llu", (unsigned long long)h->csum,
			 (unsigned long long)c, h->writer, (unsigned long long)h->gen);
		return 1;
	}
	uint64_t st = payload_state(off, h->writer, h->gen, h->seed);
	for (size_t i = sizeof(*h) / 8; i < bs / 8; i++) {
		if (w[i] != splitmix64(&st)) {
			snprintf(why, whylen, "bad_payload word=%zu writer=%u gen=%llu", i,
				 h->writer, (unsigned long long)h->gen);
			return 1;
		}
	}
	if ((want_writer >= 0 && h->writer != (uint32_t)want_writer) ||
	    (want_gen && h->gen != want_gen)) {
		snprintf(why, whylen, "stale_or_foreign expected_writer=%ld expected_gen=%llu "
			 "found_writer=%u found_gen=%llu", want_writer,
			 (unsigned long long)want_gen, h->writer, (unsigned long long)h->gen);
		return 1;
	}
	return 0;
}

void report_mismatch(const char *dev, uint64_t off, const char *why)
{
	static int reported;

	if (++reported > 20) {
		if (reported == 21)
			fprintf(stderr, "verify: further mismatches of this client not shown\n");
		return;
	}
	fprintf(stderr, "verify: MISMATCH dev=%s off=%llu reason=%s\n", dev,
		(unsigned long long)off, why);
}
