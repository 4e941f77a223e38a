/* The random field of IniNoiseAmplitude (physics/noise.h): zero mean and unit variance over
 * space, wave numbers inside the requested band, independent of z for IniNoiseDims = 2,
 * reproducible from the seed. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "physics/noise.h"

static NoiseModes nm; /* 32 kB: not on the test's stack */

/* Mean and variance of n over a box of 200 longest wavelengths: the cross terms average out. */
static void test_moments(void **state) {
  (void)state;
  for (int dims = 2; dims <= 3; dims++) {
    noise_modes_init(&nm, 7, 256, 1e-3, 1e-2, dims);
    uint64_t s = 12345;
    const int n = 40000;
    double sum = 0.0, sum2 = 0.0;
    for (int i = 0; i < n; i++) {
      const double x[3] = {2.0 * noise_uniform(&s), 2.0 * noise_uniform(&s),
                           2.0 * noise_uniform(&s)};
      const double v = noise_value(&nm, x);
      sum += v;
      sum2 += v * v;
    }
    const double mean = sum / n, var = sum2 / n - mean * mean;
    assert_true(fabs(mean) < 0.03); /* 4 standard errors of 40000 samples */
    assert_true(fabs(var - 1.0) < 0.05);
  }
}

static void test_band_and_plane(void **state) {
  (void)state;
  const double two_pi = 6.283185307179586;
  noise_modes_init(&nm, 3, 1024, 2e-3, 5e-3, 2);
  assert_int_equal(nm.n, 1024);
  for (int m = 0; m < nm.n; m++) {
    const double k =
        sqrt(nm.k[m][0] * nm.k[m][0] + nm.k[m][1] * nm.k[m][1] + nm.k[m][2] * nm.k[m][2]);
    assert_true(k >= two_pi / 5e-3 * (1.0 - 1e-12) && k <= two_pi / 2e-3 * (1.0 + 1e-12));
    assert_true(nm.k[m][2] == 0.0);
  }
  const double a[3] = {0.1, 0.2, 0.0}, b[3] = {0.1, 0.2, 0.37};
  assert_true(noise_value(&nm, a) == noise_value(&nm, b));
  noise_modes_init(&nm, 3, 1024, 2e-3, 5e-3, 3);
  assert_true(noise_value(&nm, a) != noise_value(&nm, b));
}

static void test_reproducible(void **state) {
  (void)state;
  const double x[3] = {0.013, -0.002, 0.0004};
  noise_modes_init(&nm, 11, 64, 1e-3, 1e-2, 3);
  const double v1 = noise_value(&nm, x);
  noise_modes_init(&nm, 11, 64, 1e-3, 1e-2, 3);
  assert_true(noise_value(&nm, x) == v1);
  noise_modes_init(&nm, 12, 64, 1e-3, 1e-2, 3);
  assert_true(noise_value(&nm, x) != v1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_moments),
      cmocka_unit_test(test_band_and_plane),
      cmocka_unit_test(test_reproducible),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
