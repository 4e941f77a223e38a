/* Temporal order of every TimeDiscMethod on a DG run: the manufactured solution (IniExactFunc 4)
 * on a fixed 2^3 mesh at N = 2, CFLscale halved 4 times; the error is measured against a run of
 * the same semi-discretization with a 64 times smaller CFLscale (ketchesonrk4-20, the smallest
 * error constant), so the spatial error cancels and only the time integration error remains. The
 * order between the two finest steps must be within 0.2 of the scheme's order; the 3S* schemes'
 * 4th-order error constants are so small that 5th-order terms dominate at these steps (as on the
 * ODEs of test_rk), so for them the order must be at least the claim minus 0.2. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "harness.h"
#include "time/rk_tables.h"

static const char *const BASE[] = {"ProjectName = rk_temporal",
                                   "MeshFile = box",
                                   "BoxElems = (/2,2,2/)",
                                   "N = 2",
                                   "IniExactFunc = 4",
                                   "AdvVel = (/1., 1., 1./)",
                                   "tend = 0.1",
                                   "Riemann = RoeEntropyFix",
                                   NULL};

static double *run(const char *scheme, double cfl, long *n) {
  char sm[64], sc[64];
  snprintf(sm, sizeof sm, "TimeDiscMethod = %s", scheme);
  snprintf(sc, sizeof sc, "CFLscale = %.17g", cfl);
  const char *extra[] = {sm, sc, NULL};
  double *u = harness_run_copy(BASE, extra, n);
  assert_non_null(u);
  return u;
}

static double max_difference(const double *a, const double *b, long n) {
  double d = 0.0;
  for (long q = 0; q < n; q++)
    d = fmax(d, fabs(a[q] - b[q]));
  return d;
}

static void test_temporal_order(void **state) {
  (void)state;
  const double cfl0 = 0.8;
  long n_ref, n;
  double *ref = run("ketchesonrk4-20", cfl0 / 64.0, &n_ref);
  for (int r = 0; r < rk_count(); r++) {
    const LowStorageRK *rk = rk_at(r);
    double err[5];
    fprintf(stderr, "%-16s errors", rk->name);
    for (int m = 0; m < 5; m++) {
      double *u = run(rk->name, cfl0 / (1 << m), &n);
      assert_int_equal(n, n_ref);
      err[m] = max_difference(u, ref, n);
      free(u);
      fprintf(stderr, " %.3e", err[m]);
    }
    const double observed = log2(err[3] / err[4]);
    fprintf(stderr, "  order %.3f (claim %d)\n", observed, rk->order);
    assert_true(err[4] > 1e-12); /* above the reference's own time error and rounding */
    if (rk->form == RK_3SSTAR)
      assert_true(observed >= rk->order - 0.2);
    else
      assert_true(fabs(observed - rk->order) <= 0.2);
  }
  free(ref);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_temporal_order)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
