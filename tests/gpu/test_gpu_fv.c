/* FV subcell shock capturing on the CUDA backend against the CPU backend: Sod with the Hennemann
 * indicator and every reconstruction, a moving shock across a curved 3-D box (all directions,
 * spreading), a fixed blend with viscosity; agreement after 100 steps <= 1e-12 relative L2. On
 * the GPU alone: alpha = 0 reproduces pure DG bit for bit, a pure FV run (alpha = 1) keeps a free
 * stream on a curved mesh, totals are conserved with blending active, and a run that fails
 * writes the last admissible state. Skipped where no GPU is visible. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "analysis/analyze.h"
#include "dg/fv.h"
#include "dg/indicator.h"
#include "gpu/gpu.h"
#include "physics/eos.h"
#include "regression/harness.h"

#include "agreement.h" /* after harness.h, which it uses */

static const char *const SOD[] = {
    "ProjectName = gpu_fv_sod", "MeshFile = box", "BoxElems = (/100,1,1/)",
    "BoxLower = (/0., 0., 0./)", "BoxUpper = (/1., 0.01, 0.01/)", "BoxPeriodic = (/F,T,T/)",
    "N = 3", "NodeType = GAUSS-LOBATTO", "SplitDG = PI", "Riemann = HLLC", "IniExactFunc = 11",
    "tend = 1e10", "maxIter = 100", "CFLscale = 0.5", "CalcErrorNorms = F",
    "IndicatorType = hennemann", "FV_alpha_max = 1.", "FV_doExtendAlpha = T", NULL};

/* moving Mach 2 shock along x through a curved box: blended elements in the bulk and at faces of
 * every orientation */
static const char *const SHOCK3D[] = {
    "ProjectName = gpu_fv_shock", "MeshFile = box", "BoxElems = (/8,3,3/)", "NGeo = 3",
    "BoxCurving = 0.04", "BoxLower = (/0., 0., 0./)", "BoxUpper = (/10., 3., 3./)",
    "BoxPeriodic = (/F,T,T/)", "N = 3", "NodeType = GAUSS-LOBATTO", "SplitDG = PI",
    "Riemann = Roe", "IniExactFunc = 10", "MachShock = 2.", "PreShockDens = 1.",
    "tend = 1e10", "maxIter = 100", "CFLscale = 0.5", "CalcErrorNorms = F",
    "IndicatorType = hennemann", "FV_alpha_max = 0.8", "FV_doExtendAlpha = T",
    "FV_nExtendAlpha = 2", NULL};

static const char *const MMS[] = {
    "ProjectName = gpu_fv_mms", "MeshFile = box", "BoxElems = (/3,2,2/)", "NGeo = 3",
    "BoxCurving = 0.05", "IniExactFunc = 4", "AdvVel = (/1., 1., 1./)", "tend = 1e10",
    "maxIter = 100", "CalcErrorNorms = F", "NodeType = GAUSS-LOBATTO", NULL};

static int have_gpu(void) {
  if (gpu_device_count() > 0) return 1;
  printf("  no CUDA device visible: GPU tests skipped\n");
  return 0;
}

/* CPU and GPU runs of base + extra; returns the relative L2 difference. */
static double agreement(const char *const *base, const char *const *extra, const char *what) {
  double d = gpu_cpu_difference(base, extra);
  printf("  %-44s relative L2 difference GPU-CPU %.3e\n", what, d);
  return d;
}

static void test_sod_agreement(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  const char *lim[] = {"FirstOrder", "MinMod", "vanLeer", "Superbee", "Central"};
  for (int l = 0; l < 5; l++) {
    char opt[64], what[96];
    snprintf(opt, sizeof opt, "FV_LimiterType = %s", lim[l]);
    snprintf(what, sizeof what, "Sod, split PI, HLLC, %s:", lim[l]);
    const char *extra[] = {opt, NULL};
    assert_true(agreement(SOD, extra, what) <= 1e-12);
  }
  const char *weak[] = {"SplitDG = none", "Riemann = Roe", "FV_doExtendAlpha = F", NULL};
  assert_true(agreement(SOD, weak, "Sod, weak form, Roe, no spreading:") <= 1e-12);
}

static void test_shock_3d_and_viscous_agreement(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  assert_true(agreement(SHOCK3D, NULL, "moving shock, curved 3-D box, N = 3:") <= 1e-12);
  const char *vl[] = {"FV_LimiterType = vanLeer", "N = 5", NULL};
  assert_true(agreement(SHOCK3D, vl, "moving shock, curved 3-D box, N = 5, vanLeer:") <= 1e-12);
  const char *visc[] = {"SplitDG = PI", "mu0 = 0.01", "N = 4", "IndicatorType = fixed",
                        "FV_alpha_fix = 0.6", "BoxPeriodic = (/T,F,T/)", NULL};
  assert_true(agreement(MMS, visc, "Navier-Stokes MMS, fixed alpha = 0.6, walls:") <= 1e-12);
  const char *n7[] = {"SplitDG = PI", "N = 7", "IndicatorType = fixed", "FV_alpha_fix = 0.3",
                      NULL};
  assert_true(agreement(MMS, n7, "Euler MMS, N = 7, fixed alpha = 0.3:") <= 1e-12);
}

/* alpha = 0 everywhere: the blended operator is the DG operator, bit for bit. */
static void test_alpha_zero_is_dg(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  const char *dg[] = {"SplitDG = PI", "N = 4", "mu0 = 0.01", "Backend = cuda", NULL};
  const char *fv0[] = {"SplitDG = PI", "N = 4", "mu0 = 0.01", "Backend = cuda",
                       "IndicatorType = fixed", "FV_alpha_fix = 0.", NULL};
  long n1, n2;
  double *a = harness_run_copy(MMS, dg, &n1), *b = harness_run_copy(MMS, fv0, &n2);
  assert_true(a && b);
  assert_int_equal(n1, n2);
  assert_int_equal(memcmp(a, b, sizeof(double) * n1), 0);
  printf("  alpha = 0 on the GPU: bitwise identical to pure DG (%ld values)\n", n1);
  free(a);
  free(b);
}

/* Pure FV (alpha = 1) with second-order reconstruction keeps a free stream on a curved mesh: the
 * telescoping subcell metrics. */
static void test_fv_freestream_gpu(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  const char *base[] = {"ProjectName = gpu_fv_freestream", "MeshFile = box",
                        "BoxElems = (/3,2,3/)", "NGeo = 4", "BoxCurving = 0.08", "N = 4",
                        "NodeType = GAUSS-LOBATTO", "SplitDG = PI", "IniExactFunc = 1",
                        "RefState = (/1.2, 0.4, -0.3, 0.25, 0.9/)", "tend = 10.",
                        "maxIter = 50", "CalcErrorNorms = F", "Backend = cuda",
                        "IndicatorType = fixed", "FV_alpha_fix = 1.", NULL};
  const char *lim[] = {"FV_LimiterType = FirstOrder", "FV_LimiterType = MinMod",
                       "FV_LimiterType = Central"};
  for (int l = 0; l < 3; l++) {
    const char *extra[] = {lim[l], NULL};
    Simulation *sim = harness_sim(base, extra, NULL);
    assert_non_null(sim);
    assert_int_equal(simulation_run(sim), HX_OK);
    double dev = harness_freestream_deviation(sim->solver);
    printf("  pure FV free stream on the GPU, %s: max|U-Uinf| = %.3e\n", lim[l], dev);
    assert_true(dev < 1e-12);
    simulation_destroy(sim);
  }
}

/* Periodic curved box, the shock's density jump turned into a periodic profile (IniExactFunc 10
 * on a periodic box: two discontinuities): totals stay to round-off with blending everywhere. */
static void test_conservation_gpu(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  const char *extra[] = {"BoxPeriodic = (/T,T,T/)", "Backend = cuda", "maxIter = 200", NULL};
  Simulation *sim = harness_sim(SHOCK3D, extra, NULL);
  assert_non_null(sim);
  double t0[HX_NVAR], t1[HX_NVAR];
  analyze_totals(sim->solver, t0);
  assert_int_equal(simulation_run(sim), HX_OK);
  analyze_totals(sim->solver, t1);
  double alo, ahi;
  long nact;
  fv_compute_alpha(sim->solver, sim->solver->U);
  fv_alpha_range(sim->solver, &alo, &ahi, &nact);
  double worst = 0.0;
  for (int v = 0; v < HX_NVAR; v++) {
    double scale = fabs(t0[v]) > 1e-300 ? fabs(t0[v]) : 1.0;
    if (v >= MOM1 && v <= MOM3) scale = fabs(t0[ENER]); /* zero totals: relative to energy */
    worst = fmax(worst, fabs(t1[v] - t0[v]) / scale);
  }
  printf("  conservation on the GPU with blending (%ld elements blended, alpha max %.3f): max "
         "relative change of the totals %.3e\n", nact, ahi, worst);
  assert_true(nact > 0);
  assert_true(worst <= 1e-12);
  simulation_destroy(sim);
}

/* A run made to fail (pure DG, no positivity limiter, far too large a time step) stops with
 * HX_ERR_NUMERIC and leaves the last admissible state, at an earlier time, as the solution and
 * in the state file. */
static void test_last_good_state_gpu(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  const char *extra[] = {"Backend = cuda", "IndicatorType = fixed", "FV_alpha_fix = 0.",
                         "FV_PositivityLimiter = F", "CFLscale = 1.6", "maxIter = 1000",
                         "SplitDG = none", NULL};
  Simulation *sim = harness_sim(SOD, extra, NULL);
  assert_non_null(sim);
  int rc = simulation_run(sim);
  assert_int_equal(rc, HX_ERR_NUMERIC);
  assert_int_equal(simulation_sync_host(sim), HX_OK);
  double rho_min, p_min;
  harness_min_rho_p(sim->solver, &rho_min, &p_min);
  printf("  failed GPU run: restored state at t = %.6e after %ld steps, min rho %.3e, min p "
         "%.3e, written to %s\n", sim->t, sim->iter, rho_min, p_min, sim->last_state);
  assert_true(rho_min > 0.0 && p_min > 0.0);
  assert_true(sim->iter > 0);
  assert_int_equal(access(sim->last_state, F_OK), 0);
  simulation_destroy(sim);
}

int main(void) {
  harness_scratch_dir("gpu_fv");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sod_agreement),
      cmocka_unit_test(test_shock_3d_and_viscous_agreement),
      cmocka_unit_test(test_alpha_zero_is_dg),
      cmocka_unit_test(test_fv_freestream_gpu),
      cmocka_unit_test(test_conservation_gpu),
      cmocka_unit_test(test_last_good_state_gpu),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  return rc == 0 && gpu_device_count() == 0 ? 77 : rc; /* no GPU: skipped, not passed */
}
