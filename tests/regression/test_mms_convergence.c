/* Manufactured-solution convergence (IniExactFunc = 4 with its source term) on periodic boxes of
 * 2^3, 4^3, 8^3 elements: the experimental order of the L2 density error between the two finest
 * meshes must be at least N + 0.8, for the split form (PI, Gauss-Lobatto) and the weak form
 * (Gauss), N = 1..5. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "harness.h"

static const char *const BASE[] = {"ProjectName = mms", "MeshFile = box", "IniExactFunc = 4",
                                   "AdvVel = (/1., 1., 1./)", "tend = 0.5", "CFLscale = 0.5",
                                   "Riemann = RoeEntropyFix", "TimeDiscMethod = carpenterrk4-5",
                                   NULL};

static double l2_density_error(int N, int n_elems, const char *node, const char *split) {
  char sN[32], sE[64], sNode[64], sSplit[64];
  snprintf(sN, sizeof sN, "N = %d", N);
  snprintf(sE, sizeof sE, "BoxElems = (/%d,%d,%d/)", n_elems, n_elems, n_elems);
  snprintf(sNode, sizeof sNode, "NodeType = %s", node);
  snprintf(sSplit, sizeof sSplit, "SplitDG = %s", split);
  const char *extra[] = {sN, sE, sNode, split ? sSplit : NULL, NULL};
  Simulation *sim = harness_sim(BASE, extra, NULL);
  assert_non_null(sim);
  assert_int_equal(simulation_run(sim), HX_OK);
  double L2[HX_NVAR], Linf[HX_NVAR];
  analyze_error_norms(&sim->ana, sim->solver, sim->t, L2, Linf);
  simulation_destroy(sim);
  return L2[DENS];
}

static void convergence(const char *node, const char *split) {
  const int levels[] = {2, 4, 8};
  for (int N = 1; N <= 5; N++) {
    double err[3];
    for (int l = 0; l < 3; l++) err[l] = l2_density_error(N, levels[l], node, split);
    double eoc1 = log(err[0] / err[1]) / log(2.0), eoc2 = log(err[1] / err[2]) / log(2.0);
    printf("  %s %s N=%d  L2(rho): %.3e %.3e %.3e  EOC %.2f %.2f\n", node, split ? split : "weak",
           N, err[0], err[1], err[2], eoc1, eoc2);
    assert_true(eoc2 >= N + 0.8);
  }
}

static void test_split_pi_lobatto(void **state) {
  (void)state;
  convergence("GAUSS-LOBATTO", "PI");
}

static void test_weak_gauss(void **state) {
  (void)state;
  convergence("GAUSS", NULL);
}

int main(void) {
  harness_scratch_dir("mms");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_split_pi_lobatto),
      cmocka_unit_test(test_weak_gauss),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
