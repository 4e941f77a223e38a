/* Eddy-viscosity LES end to end on the CPU: a small Taylor-Green vortex (periodic box) with each
 * SGS model runs, keeps mass, momentum and energy to round-off (the eddy viscosity only changes
 * a viscous flux whose face values both neighbours share), and dissipates more kinetic energy
 * than the run without a model. Also the damped Smagorinsky model in a channel with walls. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "analysis/analyze.h"
#include "harness.h"

static const char *const TGV[] = {"ProjectName = les_tgv",
                                  "MeshFile = box",
                                  "BoxElems = (/4,4,4/)",
                                  "BoxLower = (/0.,0.,0./)",
                                  "BoxUpper = (/2*pi,2*pi,2*pi/)",
                                  "BoxPeriodic = (/T,T,T/)",
                                  "N = 3",
                                  "TestCase = taylorgreenvortex",
                                  "TGVVersion = 2",
                                  "MachNumber = 0.1",
                                  "IniExactFunc = 0",
                                  "R = 71.42857142857143",
                                  "mu0 = 6.25e-4",
                                  "Pr = 0.71",
                                  "CFLscale = 0.7",
                                  "tend = 1.0",
                                  "CalcErrorNorms = F",
                                  "Backend = cpu",
                                  "CS = 0.1",
                                  NULL};

/* Kinetic energy 1/2 rho |u|^2 integrated with the solution quadrature. */
static double kinetic_energy(const Solver *s) {
  const int np = s->np, n3 = s->n_dof_elem;
  const double *w = s->disc.w;
  double ek = 0.0;
  for (int e = 0; e < s->mesh->n_elems; e++) {
    const double *U = &s->U[(long)e * HX_NVAR * n3], *sJ = &s->geo.sJ[(long)e * n3];
    for (int q = 0; q < n3; q++) {
      int i = q % np, j = (q / np) % np, k = q / (np * np);
      double m2 =
          U[n3 + q] * U[n3 + q] + U[2 * n3 + q] * U[2 * n3 + q] + U[3 * n3 + q] * U[3 * n3 + q];
      ek += w[i] * w[j] * w[k] / sJ[q] * 0.5 * m2 / U[q];
    }
  }
  return ek;
}

/* Runs the TGV with eddyViscType = model; returns the final kinetic energy. */
static double run_tgv(const char *model, const char *extra_node) {
  char key[64];
  snprintf(key, sizeof key, "eddyViscType = %s", model);
  const char *extra[] = {key, extra_node, NULL};
  Simulation *sim = harness_sim(TGV, extra, NULL);
  assert_non_null(sim);
  double before[HX_NVAR], after[HX_NVAR], scale = 0.0;
  analyze_totals(sim->solver, before);
  for (int v = 0; v < HX_NVAR; v++)
    scale = fmax(scale, fabs(before[v]));
  double ek0 = kinetic_energy(sim->solver);
  assert_int_equal(simulation_run(sim), HX_OK);
  analyze_totals(sim->solver, after);
  double ek = kinetic_energy(sim->solver);
  printf("  %-12s %s: %ld steps, E_k %.10f -> %.10f, conservation:", model,
         extra_node ? extra_node : "", sim->iter, ek0, ek);
  for (int v = 0; v < HX_NVAR; v++) {
    double rel = fabs(after[v] - before[v]) / scale;
    printf(" %.1e", rel);
    assert_true(rel < 1e-12);
  }
  printf("\n");
  simulation_destroy(sim);
  return ek;
}

static void check_models(const char *node_line) {
  double ek_none = run_tgv("none", node_line);
  const char *models[] = {"smagorinsky", "vreman", "sigma"};
  for (int m = 0; m < 3; m++) {
    double ek = run_tgv(models[m], node_line);
    printf("    extra dissipation of %s: %.3e (relative %.2e)\n", models[m], ek_none - ek,
           (ek_none - ek) / ek_none);
    assert_true(ek < ek_none * (1.0 - 1e-9));
  }
}

static void test_tgv_lgl(void **state) {
  (void)state;
  check_models("NodeType = GAUSS-LOBATTO");
}

static void test_tgv_gauss(void **state) {
  (void)state;
  check_models("NodeType = GAUSS"); /* weak form */
}

/* Channel with no-slip walls at y = 0 and y = 2, damped Smagorinsky: runs and keeps mass. */
static void test_channel_van_driest(void **state) {
  (void)state;
  const char *const base[] = {"ProjectName = les_channel",
                              "MeshFile = box",
                              "BoxElems = (/3,3,2/)",
                              "BoxLower = (/0,0,0/)",
                              "BoxUpper = (/3,2,1/)",
                              "BoxPeriodic = (/T,F,T/)",
                              "N = 3",
                              "NodeType = GAUSS-LOBATTO",
                              "IniExactFunc = 1",
                              "RefState = (/1., 0.3, 0., 0., 10./)",
                              "mu0 = 1e-3",
                              "tend = 0.2",
                              "CalcErrorNorms = F",
                              "Backend = cpu",
                              "BoundaryName = BC_yminus",
                              "BoundaryType = (/3,0/)",
                              "BoundaryName = BC_yplus",
                              "BoundaryType = (/3,0/)",
                              "eddyViscType = smagorinsky",
                              "CS = 0.1",
                              "VanDriest = T",
                              NULL};
  Simulation *sim = harness_sim(base, NULL, NULL);
  assert_non_null(sim);
  double before[HX_NVAR], after[HX_NVAR];
  analyze_totals(sim->solver, before);
  assert_int_equal(simulation_run(sim), HX_OK);
  analyze_totals(sim->solver, after);
  double rel = fabs(after[0] - before[0]) / before[0];
  printf("  channel, Van Driest: %ld steps, mass change %.1e\n", sim->iter, rel);
  assert_true(rel < 1e-12);
  simulation_destroy(sim);
}

int main(void) {
  harness_scratch_dir("les");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tgv_lgl),
      cmocka_unit_test(test_tgv_gauss),
      cmocka_unit_test(test_channel_van_driest),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
