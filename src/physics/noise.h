/* A reproducible random field of unit variance for perturbing initial states (IniNoiseAmplitude):
 * n(x) = sqrt(2 / M) sum_m cos(k_m . x + phi_m) over M random plane waves (the randomization
 * method of Kraichnan 1970, Phys. Fluids 13:22), wavelengths log-uniform in [lmin, lmax],
 * directions uniform on the sphere (or in the x-y plane), phases uniform. A function of x alone,
 * so every rank, backend and partition sees the same field. Host only (set-up). */
#ifndef HEXDG_NOISE_H
#define HEXDG_NOISE_H

#include <math.h>
#include <stdint.h>

#define NOISE_MAX_MODES 1024

typedef struct {
  int n;
  double k[NOISE_MAX_MODES][3], phase[NOISE_MAX_MODES];
} NoiseModes;

/* splitmix64 (Steele, Lea & Flood 2014): a uniform double in [0, 1) from the top 53 bits */
static inline double noise_uniform(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

/* The M = n modes of seed; dims = 2 keeps the wave vectors in the x-y plane (2-D runs with one
 * element layer in z). */
static inline void noise_modes_init(NoiseModes *nm, uint64_t seed, int n, double lmin, double lmax,
                                    int dims) {
  const double two_pi = 6.283185307179586476925;
  uint64_t s = seed;
  nm->n = n < NOISE_MAX_MODES ? n : NOISE_MAX_MODES;
  for (int m = 0; m < nm->n; m++) {
    const double lambda = lmin * exp(noise_uniform(&s) * log(lmax / lmin));
    const double kk = two_pi / lambda, phi = two_pi * noise_uniform(&s);
    const double cz = dims == 2 ? 0.0 : 2.0 * noise_uniform(&s) - 1.0; /* cos of the polar angle */
    const double sz = sqrt(1.0 - cz * cz);
    nm->k[m][0] = kk * sz * cos(phi);
    nm->k[m][1] = kk * sz * sin(phi);
    nm->k[m][2] = kk * cz;
    nm->phase[m] = two_pi * noise_uniform(&s);
  }
}

/* n(x): zero mean and unit variance over space (for many modes nearly Gaussian). */
static inline double noise_value(const NoiseModes *nm, const double x[3]) {
  double sum = 0.0;
  for (int m = 0; m < nm->n; m++)
    sum += cos(nm->k[m][0] * x[0] + nm->k[m][1] * x[1] + nm->k[m][2] * x[2] + nm->phase[m]);
  return sum * sqrt(2.0 / nm->n);
}

#endif
