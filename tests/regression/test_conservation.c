/* Conservation: on a periodic curved box the discrete totals (integrals of the five conserved
 * variables with the solution quadrature) must stay constant to round-off, because the surface
 * fluxes of neighbours cancel exactly. Checked for the weak and the split form. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "harness.h"

static const char *const BASE[] = {
    "ProjectName = conservation", "MeshFile = box", "BoxElems = (/3,3,2/)", "NGeo = 3",
    "BoxCurving = 0.06", "N = 3", "IniExactFunc = 7", "RefState = (/1., 0.5, 0.3, 0.2, 1./)",
    "tend = 1.0", "CalcErrorNorms = F", "Riemann = RoeEntropyFix", NULL};

static void check_totals(const char *const *extra, const char *label) {
  Simulation *sim = harness_sim(BASE, extra, NULL);
  assert_non_null(sim);
  double before[HX_NVAR], after[HX_NVAR], scale = 0.0;
  analyze_totals(sim->solver, before);
  for (int v = 0; v < HX_NVAR; v++) scale = fmax(scale, fabs(before[v]));
  assert_int_equal(simulation_run(sim), HX_OK);
  analyze_totals(sim->solver, after);
  printf("  %s (%ld steps):", label, sim->iter);
  for (int v = 0; v < HX_NVAR; v++) {
    double rel = fabs(after[v] - before[v]) / scale;
    printf(" %.1e", rel);
    assert_true(rel < 1e-12);
  }
  printf("\n");
  assert_true(sim->iter > 10);
  simulation_destroy(sim);
}

static void test_weak_gauss(void **state) {
  (void)state;
  const char *extra[] = {"NodeType = GAUSS", NULL};
  check_totals(extra, "weak form, GAUSS");
}

static void test_split_pi(void **state) {
  (void)state;
  const char *extra[] = {"NodeType = GAUSS-LOBATTO", "SplitDG = PI", NULL};
  check_totals(extra, "split PI, GAUSS-LOBATTO");
}

static void test_split_ch(void **state) {
  (void)state;
  const char *extra[] = {"NodeType = GAUSS-LOBATTO", "SplitDG = CH", "Riemann = CH", NULL};
  check_totals(extra, "split CH, Riemann CH");
}

int main(void) {
  harness_scratch_dir("conservation");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_weak_gauss),
      cmocka_unit_test(test_split_pi),
      cmocka_unit_test(test_split_ch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
