/* The time step of FV-blended elements (FV_Mode = blending), FLEXI's rule: an element with
 * FV_alpha > FV_alpha_min takes the smaller of the DG limit CFLscale alpha_LGL(N) / (2N+1) 2 and
 * the FV limit CFLscale alpha_Gauss(1) min(w_LGL) / 2 * 2 over its spectral radius (GALAEXI
 * calctimestep.f90, FLEXI timedisc_func.f90 fillCFL_DFL). Checked here, on Sod's shock tube:
 *   - the first step's dt reads the indicator of the initial state and equals the bound evaluated
 *     in this file from the nodes' states (per element min over the limits / radius);
 *   - alpha = 0 everywhere (and alpha = FV_alpha_min) gives the pure DG dt bit for bit, alpha
 *     just above FV_alpha_min the FV limit everywhere;
 *   - later steps read the last stage's blending factors, and an analysis in between (which
 *     recomputes s->fv.alpha) does not change the next dt;
 *   - FLEXI's fv_blend/sod set-up (CFL 0.9, CH, RoeEntropyFix, MinMod) runs to t = 0.2. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "dg/indicator.h"
#include "harness.h"

static const char *const SOD[] = {"ProjectName = fv_blend_dt",
                                  "MeshFile = box",
                                  "BoxElems = (/50,1,1/)",
                                  "BoxLower = (/0., 0., 0./)",
                                  "BoxUpper = (/1., 0.5, 0.5/)",
                                  "BoxPeriodic = (/F,T,T/)",
                                  "N = 3",
                                  "NodeType = GAUSS-LOBATTO",
                                  "SplitDG = CH",
                                  "Riemann = RoeEntropyFix",
                                  "TimeDiscMethod = carpenterrk4-5",
                                  "IniExactFunc = 11",
                                  "tend = 0.2",
                                  "CFLscale = 0.9",
                                  "CalcErrorNorms = F",
                                  "Backend = cpu",
                                  "IndicatorType = persson",
                                  "FV_LimiterType = MinMod",
                                  NULL};

/* The box's element edges: 1/50, 0.5, 0.5. */
static const double EDGE[3] = {1.0 / 50.0, 0.5, 0.5};

/* sum over the directions of max over the element's nodes of (|v_d| + c) 2 / h_d: the spectral
 * radius sJ (|v . Ja^d| + c |Ja^d|) of an affine box element, from the conserved states. */
static double elem_radius(const Solver *s, int e) {
  const int n3 = s->n_dof_elem;
  const double kappa = s->phys.kappa;
  double lam[3] = {0.0, 0.0, 0.0};
  for (int q = 0; q < n3; q++) {
    double u[HX_NVAR];
    for (int v = 0; v < HX_NVAR; v++)
      u[v] = s->U[((long)e * HX_NVAR + v) * n3 + q];
    const double vel[3] = {u[1] / u[0], u[2] / u[0], u[3] / u[0]};
    const double p =
        (kappa - 1.0) * (u[4] - 0.5 * u[0] * (vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2]));
    const double c = sqrt(kappa * p / u[0]);
    for (int d = 0; d < 3; d++)
      lam[d] = fmax(lam[d], (fabs(vel[d]) + c) * 2.0 / EDGE[d]);
  }
  return lam[0] + lam[1] + lam[2];
}

/* The limits of carpenterrk4-5 at N = 3, CFLscale 0.9: DG with the LGL table, FV with the Gauss
 * alpha at N = 1 and the smallest LGL weight 2 / (N (N+1)) = 1/6. */
static double dg_factor(void) {
  return 0.9 * rk_find("carpenterrk4-5")->cfl_alpha_lobatto[3] / 7.0 * 2.0;
}
static double fv_factor(void) {
  return 0.9 * rk_find("carpenterrk4-5")->cfl_alpha_gauss[1] * (1.0 / 6.0) / 2.0 * 2.0;
}

/* min over the elements of the limit / radius, an element blended where alpha > alpha_min. */
static double expected_dt(const Solver *s, const double *alpha, double *dt_dg_only) {
  double dt = 1e300, dt_dg = 1e300;
  for (int e = 0; e < s->mesh->n_elems; e++) {
    const double lam = elem_radius(s, e), dg = dg_factor() / lam;
    const double blended = fmin(dg_factor(), fv_factor()) / lam;
    dt = fmin(dt, alpha[e] > s->fv.alpha_min ? blended : dg);
    dt_dg = fmin(dt_dg, dg);
  }
  *dt_dg_only = dt_dg;
  return dt;
}

static long count_blended(const Solver *s, const double *alpha) {
  long n = 0;
  for (int e = 0; e < s->mesh->n_elems; e++)
    n += alpha[e] > s->fv.alpha_min;
  return n;
}

/* The first step: td.alpha_dt is the initial state's indicator, dt the bound above, and the step
 * taken is that dt. */
static void test_first_step_reads_initial_indicator(void **state) {
  (void)state;
  const char *one[] = {"maxIter = 1", NULL};
  Simulation *sim = harness_sim(SOD, one, NULL);
  assert_non_null(sim);
  Solver *s = sim->solver;
  const int ne = s->mesh->n_elems;
  double *alpha0 = malloc(sizeof(double) * ne);
  assert_non_null(alpha0);
  fv_compute_alpha_at(s, s->U, 0.0);
  memcpy(alpha0, s->fv.alpha, sizeof(double) * ne);
  assert_non_null(sim->td.alpha_dt);
  assert_memory_equal(sim->td.alpha_dt, alpha0, sizeof(double) * ne);
  const long n_blended = count_blended(s, alpha0);
  double dt_dg, dt_exp = expected_dt(s, alpha0, &dt_dg);
  const double dt = timedisc_calc_dt(s, &sim->td);
  printf("  initial state: %ld of %d elements blended; dt %.15e (expected %.15e), DG limit alone "
         "%.15e: ratio %.4f (FV / DG factor %.4f)\n",
         n_blended, ne, dt, dt_exp, dt_dg, dt / dt_dg, fv_factor() / dg_factor());
  assert_true(n_blended > 0);
  assert_true(fabs(dt - dt_exp) <= 1e-13 * dt_exp);
  assert_true(dt < 0.5 * dt_dg);
  assert_int_equal(simulation_run(sim), HX_OK);
  assert_int_equal(sim->iter, 1);
  assert_memory_equal(&sim->t, &dt, sizeof dt); /* t = 0 + dt of the first step */
  free(alpha0);
  simulation_destroy(sim);
}

static double first_dt(const char *const *extra, Simulation **keep) {
  Simulation *sim = harness_sim(SOD, extra, NULL);
  assert_non_null(sim);
  const double dt = timedisc_calc_dt(sim->solver, &sim->td);
  if (keep)
    *keep = sim;
  else
    simulation_destroy(sim);
  return dt;
}

/* alpha = 0 (a density wave, also after 10 steps) and alpha = FV_alpha_min (Sod): the DG dt bit
 * for bit; alpha above FV_alpha_min everywhere: the FV limit over the largest radius. */
static void test_threshold(void **state) {
  (void)state;
  /* a density wave (pure DG stops on Sod's jump at CFL 0.9) */
  const char *none[] = {"IniExactFunc = 2",
                        "AdvVel = (/1., 0., 0./)",
                        "BoxPeriodic = (/T,T,T/)",
                        "IndicatorType = none",
                        "maxIter = 10",
                        NULL};
  const char *zero[] = {"IniExactFunc = 2",
                        "AdvVel = (/1., 0., 0./)",
                        "BoxPeriodic = (/T,T,T/)",
                        "IndicatorType = fixed",
                        "FV_alpha_fix = 0.",
                        "maxIter = 10",
                        NULL};
  const char *at_min[] = {"IndicatorType = fixed", "FV_alpha_fix = 0.01", "FV_alpha_min = 0.01",
                          NULL};
  const char *above[] = {"IndicatorType = fixed", "FV_alpha_fix = 0.0100001", "FV_alpha_min = 0.01",
                         NULL};
  Simulation *a = NULL, *b = NULL;
  const double dt_none = first_dt(none, &a), dt_zero = first_dt(zero, &b);
  assert_memory_equal(&dt_none, &dt_zero, sizeof(double));
  assert_int_equal(simulation_run(a), HX_OK);
  assert_int_equal(simulation_run(b), HX_OK);
  assert_memory_equal(&a->t, &b->t, sizeof(double));
  printf("  alpha = 0: dt %.15e as pure DG, t after 10 steps %.15e in both\n", dt_zero, a->t);
  simulation_destroy(a);
  simulation_destroy(b);
  const char *sod_dg[] = {"IndicatorType = none", NULL};
  const double dt_dg = first_dt(sod_dg, NULL), dt_at_min = first_dt(at_min, NULL);
  assert_memory_equal(&dt_dg, &dt_at_min, sizeof(double));
  Simulation *sim = NULL;
  const double dt_above = first_dt(above, &sim);
  double lam_max = 0.0;
  for (int e = 0; e < sim->solver->mesh->n_elems; e++)
    lam_max = fmax(lam_max, elem_radius(sim->solver, e));
  const double expect = fmin(dg_factor(), fv_factor()) / lam_max;
  printf("  alpha = FV_alpha_min: DG dt; alpha above it everywhere: dt %.15e (expected %.15e), "
         "%.4f of the DG dt\n",
         dt_above, expect, dt_above / dt_dg);
  assert_true(fabs(dt_above - expect) <= 1e-13 * expect);
  simulation_destroy(sim);
}

/* After a step td.alpha_dt holds the last stage's blending factors; an analysis, which computes
 * s->fv.alpha of the new state, leaves the next dt as it is. */
static void test_later_steps_read_last_stage(void **state) {
  (void)state;
  Simulation *sim = harness_sim(SOD, NULL, NULL);
  assert_non_null(sim);
  Solver *s = sim->solver;
  const int ne = s->mesh->n_elems;
  double t = 0.0;
  for (int step = 0; step < 5; step++) {
    const double dt = timedisc_calc_dt(s, &sim->td);
    assert_true(dt > 0.0);
    timedisc_rk_step(s, &sim->td, t, dt);
    t += dt;
  }
  assert_memory_equal(sim->td.alpha_dt, s->fv.alpha, sizeof(double) * ne);
  double *last = malloc(sizeof(double) * ne);
  assert_non_null(last);
  memcpy(last, s->fv.alpha, sizeof(double) * ne);
  double dt_dg, dt_exp = expected_dt(s, last, &dt_dg);
  const double dt = timedisc_calc_dt(s, &sim->td);
  fv_compute_alpha(s, s->U); /* what an analysis does */
  const double dt_after = timedisc_calc_dt(s, &sim->td);
  printf("  after 5 steps: %ld elements blended at the last stage, dt %.15e (expected %.15e), "
         "after an analysis %.15e\n",
         count_blended(s, last), dt, dt_exp, dt_after);
  assert_true(fabs(dt - dt_exp) <= 1e-13 * dt_exp);
  assert_memory_equal(&dt, &dt_after, sizeof dt);
  free(last);
  simulation_destroy(sim);
}

/* FLEXI's fv_blend/sod settings (CFL 0.9; the DG limit alone lets it fail in the first steps):
 * the run reaches t = 0.2 with positive density and pressure. */
static void test_flexi_sod_runs(void **state) {
  (void)state;
  const char *fine[] = {"BoxElems = (/100,1,1/)", "BoxUpper = (/1., 0.01, 0.01/)", "Dimension = 2",
                        "BoxPeriodic = (/F,T,T/)", NULL};
  Simulation *sim = harness_sim(SOD, fine, NULL);
  assert_non_null(sim);
  assert_int_equal(simulation_run(sim), HX_OK);
  double rho_min, p_min;
  harness_min_rho_p(sim->solver, &rho_min, &p_min);
  printf("  fv_blend/sod settings: t = %.6f after %ld steps, min rho %.4f, min p %.4f\n", sim->t,
         sim->iter, rho_min, p_min);
  assert_true(fabs(sim->t - 0.2) < 1e-12);
  assert_true(rho_min > 0.0 && p_min > 0.0);
  simulation_destroy(sim);
}

int main(void) {
  harness_scratch_dir("fv_blend_dt");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_first_step_reads_initial_indicator),
      cmocka_unit_test(test_threshold),
      cmocka_unit_test(test_later_steps_read_last_stage),
      cmocka_unit_test(test_flexi_sod_runs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
