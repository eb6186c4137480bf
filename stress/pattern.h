/* The verifiable data pattern written and checked by the I/O stressors (pattern.c). */
#ifndef STRESS_PATTERN_H
#define STRESS_PATTERN_H

#include <stddef.h>
#include <stdint.h>

/* ---- data pattern ----------------------------------------------------- */

#define PAT_MAGIC 0x3142535345525453ULL	/* "STRESSB1" little-endian */

struct pat_hdr {
	uint64_t magic;
	uint64_t offset;
	uint64_t gen;
	uint64_t seed;
	uint64_t csum;		/* FNV-1a 64 over the block with csum = 0 */
	uint32_t writer;
	uint32_t bs;
};

void pattern_fill(void *buf, uint32_t bs, uint64_t off, uint32_t writer,
		  uint64_t gen, uint64_t seed);
/* Check a block. want_writer < 0 / want_gen == 0: accept any. Returns 0 when
 * OK, 1 on mismatch with a one-line reason in why. */
int pattern_check(const void *buf, uint32_t bs, uint64_t off, long want_writer,
		  uint64_t want_gen, char *why, size_t whylen);
int block_is_zero(const void *buf, uint32_t bs);
/* prints the MISMATCH line; at most 20 per process */
void report_mismatch(const char *dev, uint64_t off, const char *why);

#endif
