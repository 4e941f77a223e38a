/* FV subcell operator and DG/FV blending (dg/fv.c, dg/indicator.c):
 * - alpha = 0 leaves the DG operator bitwise unchanged;
 * - the FV operator (alpha = 1) and a blend keep a free stream on a curved mesh (subcell metrics);
 * - the totals stay constant to round-off with blending active on a periodic box with strong
 *   density jumps;
 * - the FV operator alone converges with first order (FirstOrder) and second order (Central,
 *   MinMod) on a smooth density wave. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "harness.h"
#include "dg/indicator.h"

static const char *const CURVED[] = {
    "ProjectName = fv_operator", "MeshFile = box", "BoxElems = (/3,2,3/)", "NGeo = 4",
    "BoxCurving = 0.08", "N = 4", "NodeType = GAUSS-LOBATTO", "SplitDG = PI",
    "Riemann = RoeEntropyFix", "CalcErrorNorms = F", "tend = 10.", NULL};

static void test_alpha_zero_is_dg(void **state) {
  (void)state;
  const char *vortex[] = {"IniExactFunc = 7", "RefState = (/1., 0.5, 0.3, 0.2, 1./)",
                          "IniAmplitude = 1.", "IniHalfwidth = 0.5", "maxIter = 5", NULL};
  const char *forms[][3] = {{"SplitDG = PI", "Riemann = RoeEntropyFix", NULL},
                            {"SplitDG = none", "Riemann = HLLC", NULL}};
  for (int f = 0; f < 2; f++) {
    const char *dg_lines[16], *fv_lines[16];
    int n = 0;
    for (int i = 0; vortex[i]; i++) dg_lines[n] = fv_lines[n] = vortex[i], n++;
    for (int i = 0; forms[f][i]; i++) dg_lines[n] = fv_lines[n] = forms[f][i], n++;
    dg_lines[n] = NULL;
    fv_lines[n++] = "IndicatorType = fixed";
    fv_lines[n++] = "FV_alpha_fix = 0.";
    fv_lines[n] = NULL;
    Simulation *a = harness_sim(CURVED, dg_lines, NULL), *b = harness_sim(CURVED, fv_lines, NULL);
    assert_non_null(a);
    assert_non_null(b);
    long n_val = (long)a->solver->n_var * a->solver->n_dof;
    dg_time_derivative(a->solver, a->solver->U, a->solver->Ut, 0.0);
    dg_time_derivative(b->solver, b->solver->U, b->solver->Ut, 0.0);
    assert_memory_equal(a->solver->Ut, b->solver->Ut, sizeof(double) * n_val);
    assert_int_equal(simulation_run(a), HX_OK);
    assert_int_equal(simulation_run(b), HX_OK);
    assert_memory_equal(a->solver->U, b->solver->U, sizeof(double) * n_val);
    printf("  %s: Ut and U after 5 steps bitwise equal with alpha = 0\n", forms[f][0]);
    simulation_destroy(a);
    simulation_destroy(b);
  }
}

static void test_free_stream(void **state) {
  (void)state;
  const char *alphas[] = {"FV_alpha_fix = 1.", "FV_alpha_fix = 0.5"};
  const char *limiters[] = {"FV_LimiterType = FirstOrder", "FV_LimiterType = MinMod"};
  for (int a = 0; a < 2; a++)
    for (int l = 0; l < 2; l++) {
      const char *extra[] = {"IniExactFunc = 1", "RefState = (/1.2, 0.4, -0.3, 0.25, 0.9/)",
                             "maxIter = 20", "IndicatorType = fixed", alphas[a], limiters[l],
                             NULL};
      Simulation *sim = harness_sim(CURVED, extra, NULL);
      assert_non_null(sim);
      assert_int_equal(simulation_run(sim), HX_OK);
      double dev = harness_freestream_deviation(sim->solver);
      printf("  free stream, %s, %s: max|U-Uinf| = %.3e\n", alphas[a], limiters[l], dev);
      assert_true(dev < 1e-12);
      simulation_destroy(sim);
    }
}

static void test_conservation_with_blending(void **state) {
  (void)state;
  /* Sod's states on a periodic curved box: jumps at x = 0.5 and x = +-1 */
  const char *extra[] = {"BoxElems = (/8,2,2/)", "NGeo = 2", "BoxCurving = 0.04", "N = 3",
                         "IniExactFunc = 11", "maxIter = 40", "IndicatorType = hennemann",
                         "FV_alpha_max = 1.", "FV_doExtendAlpha = T", NULL};
  Simulation *sim = harness_sim(CURVED, extra, NULL);
  assert_non_null(sim);
  double before[HX_NVAR], after[HX_NVAR], scale = 0.0, amin, amax;
  long n_active;
  analyze_totals(sim->solver, before);
  for (int v = 0; v < HX_NVAR; v++) scale = fmax(scale, fabs(before[v]));
  assert_int_equal(simulation_run(sim), HX_OK);
  analyze_totals(sim->solver, after);
  fv_alpha_range(sim->solver, &amin, &amax, &n_active);
  printf("  conservation, %ld steps, alpha in [%.3f, %.3f], %ld of %d elements blended:",
         sim->iter, amin, amax, n_active, sim->solver->mesh->n_elems);
  for (int v = 0; v < HX_NVAR; v++) {
    double rel = fabs(after[v] - before[v]) / scale;
    printf(" %.1e", rel);
    assert_true(rel < 1e-12);
  }
  printf("\n");
  assert_true(n_active > 0 && amax > 0.1);
  simulation_destroy(sim);
}

/* Density L2 error of the sine wave advected once around a periodic 1-D-like box (the thin y and
 * z extent takes exact-function boundaries). */
static double wave_error(int n_elems, const char *limiter) {
  char elems[64];
  snprintf(elems, sizeof elems, "BoxElems = (/%d,1,1/)", n_elems);
  const char *lines[] = {"ProjectName = fv_eoc", "MeshFile = box", elems,
                         "BoxLower = (/0., 0., 0./)", "BoxUpper = (/2., 0.02, 0.02/)",
                         "BoxPeriodic = (/T,F,F/)", "N = 3", "NodeType = GAUSS-LOBATTO",
                         "SplitDG = PI", "Riemann = HLLC", "IniExactFunc = 2",
                         "AdvVel = (/1., 0., 0./)", "IniAmplitude = 0.2", "tend = 0.4",
                         "CalcErrorNorms = T", "IndicatorType = fixed", "FV_alpha_fix = 1.",
                         limiter, NULL};
  Simulation *sim = harness_sim(lines, NULL, NULL);
  assert_non_null(sim);
  assert_int_equal(simulation_run(sim), HX_OK);
  double L2[HX_NVAR], Linf[HX_NVAR];
  analyze_error_norms(&sim->ana, sim->solver, sim->t, L2, Linf);
  simulation_destroy(sim);
  return L2[DENS];
}

static void test_fv_order(void **state) {
  (void)state;
  const char *limiters[] = {"FV_LimiterType = FirstOrder", "FV_LimiterType = Central",
                            "FV_LimiterType = MinMod"};
  const double min_eoc[] = {0.8, 1.8, 1.4};
  for (int l = 0; l < 3; l++) {
    double e1 = wave_error(8, limiters[l]), e2 = wave_error(16, limiters[l]);
    double eoc = log(e1 / e2) / log(2.0);
    printf("  %-28s L2(rho) %.3e -> %.3e  EOC %.2f\n", limiters[l], e1, e2, eoc);
    assert_true(eoc > min_eoc[l]);
  }
}

int main(void) {
  harness_scratch_dir("fv_operator");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_alpha_zero_is_dg),
      cmocka_unit_test(test_free_stream),
      cmocka_unit_test(test_conservation_with_blending),
      cmocka_unit_test(test_fv_order),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
