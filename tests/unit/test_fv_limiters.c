/* Slope limiters of the subcell FV (physics/fvblend.h, fv_limited_slope) in Sweby's form: with
 * sl = 1 and sr = r the limited slope is phi(r). TVD limiters lie in Sweby's region
 * 0 <= phi(r) <= min(2r, 2) for r > 0 and give phi(r) = 0 for r <= 0; symmetric limiters satisfy
 * s(sl, sr) = s(sr, sl) (phi(r)/r = phi(1/r)); every second-order limiter has phi(1) = 1; the
 * slope is odd in (sl, sr). Known members: Sweby beta = 1 is MinMod, beta = 2 Superbee. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "physics/fvblend.h"

typedef struct {
  int id;
  const char *name;
  int tvd;         /* in Sweby's region for r > 0 */
  int zero_at_neg; /* phi(r) = 0 for r <= 0 */
} Limiter;

static const Limiter LIMITERS[] = {
    {FV_LIM_MINMOD, "MinMod", 1, 1},
    {FV_LIM_SWEBY, "Sweby(1.5)", 1, 1},
    {FV_LIM_VANALBADA, "vanAlbada", 1, 1},
    {FV_LIM_GMINMOD, "gMinMod", 1, 1},
    /* FLEXI's OSPRE is not clipped where sl sr < 0 */
    {FV_LIM_OSPRE, "OSPRE", 1, 0},
    {FV_LIM_VANLEER, "vanLeer", 1, 1},
    {FV_LIM_SUPERBEE, "Superbee", 1, 1},
    {FV_LIM_CENTRAL, "Central", 0, 0},
};
#define N_LIMITERS ((int)(sizeof LIMITERS / sizeof LIMITERS[0]))

static double slope(int id, double sl, double sr) {
  return fv_limited_slope(id, sl, sr, 1.5);
}

static double phi(int id, double r) {
  return slope(id, 1.0, r);
}

static void test_second_order_and_symmetry(void **state) {
  (void)state;
  for (int l = 0; l < N_LIMITERS; l++) {
    const int id = LIMITERS[l].id;
    assert_true(fabs(phi(id, 1.0) - 1.0) < 1e-12);
    for (double a = -3.0; a <= 3.0; a += 0.125)
      for (double b = -3.0; b <= 3.0; b += 0.375) {
        assert_true(fabs(slope(id, a, b) - slope(id, b, a)) < 1e-13);
        assert_true(fabs(slope(id, -a, -b) + slope(id, a, b)) < 1e-13);
        /* scale invariance: s(c sl, c sr) = c s(sl, sr) */
        assert_true(fabs(slope(id, 4.0 * a, 4.0 * b) - 4.0 * slope(id, a, b)) < 1e-12);
      }
  }
}

static void test_sweby_region(void **state) {
  (void)state;
  for (int l = 0; l < N_LIMITERS; l++) {
    const Limiter *L = &LIMITERS[l];
    double phi_max = 0.0;
    for (double r = 1e-3; r <= 100.0; r *= 1.01) {
      const double f = phi(L->id, r);
      if (f > phi_max) phi_max = f;
      if (L->tvd) {
        assert_true(f >= 0.0);
        assert_true(f <= fmin(2.0 * r, 2.0) + 1e-13);
      }
    }
    for (double r = -100.0; r <= 0.0; r += 0.25)
      if (L->zero_at_neg) assert_true(phi(L->id, r) == 0.0);
    printf("  %-11s phi(1) = %.3f, max phi on (0, 100] = %.3f, phi(-0.5) = %.3f\n", L->name,
           phi(L->id, 1.0), phi_max, phi(L->id, -0.5));
  }
  /* known values: van Albada phi(r) = (r^2 + r)/(r^2 + 1), van Leer 2r/(1+r), OSPRE
   * 1.5 (r^2 + r)/(r^2 + r + 1) */
  for (double r = 0.1; r < 10.0; r *= 1.3) {
    assert_true(fabs(phi(FV_LIM_VANALBADA, r) - (r * r + r) / (r * r + 1.0)) < 1e-13);
    assert_true(fabs(phi(FV_LIM_VANLEER, r) - 2.0 * r / (1.0 + r)) < 1e-13);
    assert_true(fabs(phi(FV_LIM_OSPRE, r) - 1.5 * (r * r + r) / (r * r + r + 1.0)) < 1e-13);
    assert_true(fabs(phi(FV_LIM_GMINMOD, r) - 0.5 * (fmin(2.0 * r, 1.0) + fmin(2.0, r))) < 1e-13);
  }
}

static void test_sweby_family(void **state) {
  (void)state;
  for (double a = -3.0; a <= 3.0; a += 0.125)
    for (double b = -3.0; b <= 3.0; b += 0.25) {
      assert_true(fv_limited_slope(FV_LIM_SWEBY, a, b, 1.0) ==
                  fv_limited_slope(FV_LIM_MINMOD, a, b, 0.0));
      assert_true(fv_limited_slope(FV_LIM_SWEBY, a, b, 2.0) ==
                  fv_limited_slope(FV_LIM_SUPERBEE, a, b, 0.0));
      /* the family grows with beta between MinMod and Superbee */
      const double s1 = fabs(fv_limited_slope(FV_LIM_SWEBY, a, b, 1.2));
      const double s2 = fabs(fv_limited_slope(FV_LIM_SWEBY, a, b, 1.7));
      assert_true(s1 <= s2);
    }
  /* no slope: first order */
  assert_true(fv_limited_slope(FV_LIM_FIRST_ORDER, 1.0, 1.0, 1.5) == 0.0);
}

/* FLEXI's integer codes (src/fv/fv_limiter.f90) */
static void test_flexi_codes(void **state) {
  (void)state;
  assert_int_equal(FV_LIM_FIRST_ORDER, 0);
  assert_int_equal(FV_LIM_MINMOD, 1);
  assert_int_equal(FV_LIM_SWEBY, 2);
  assert_int_equal(FV_LIM_VANALBADA, 3);
  assert_int_equal(FV_LIM_GMINMOD, 4);
  assert_int_equal(FV_LIM_OSPRE, 5);
  assert_int_equal(FV_LIM_CENTRAL, 9);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_second_order_and_symmetry),
      cmocka_unit_test(test_sweby_region),
      cmocka_unit_test(test_sweby_family),
      cmocka_unit_test(test_flexi_codes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
