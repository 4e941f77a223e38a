/* Reproducible random states for the tests that sample pointwise functions: xorshift64*
 * (Vigna 2016, ACM TOMS 42), uniform doubles from the top 53 bits. */
#ifndef HEXDG_TEST_RNG_H
#define HEXDG_TEST_RNG_H
#include <stdint.h>

typedef struct {
  uint64_t s;
} Rng;

/* A uniform double in [lo, hi). */
static inline double rng_uniform(Rng *rng, double lo, double hi) {
  rng->s ^= rng->s >> 12;
  rng->s ^= rng->s << 25;
  rng->s ^= rng->s >> 27;
  const uint64_t r = rng->s * 2685821657736338717ULL;
  return lo + (hi - lo) * (double)(r >> 11) * (1.0 / 9007199254740992.0);
}
#endif
