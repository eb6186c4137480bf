/* The seeded PRNG every choice of a stressor comes from (rng.c). */
#ifndef STRESS_RNG_H
#define STRESS_RNG_H

#include <stdint.h>

/* ---- PRNG (xoshiro256**, seeded with splitmix64) ---------------------- */

struct rng {
	uint64_t s[4];
};

uint64_t splitmix64(uint64_t *state);
void rng_init(struct rng *r, uint64_t seed, uint64_t stream);
uint64_t rng_next(struct rng *r);
uint64_t rng_below(struct rng *r, uint64_t n);	/* 0..n-1, n > 0 */

#endif
