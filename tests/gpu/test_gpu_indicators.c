/* FLEXI's indicators and FV switching on the CUDA backend against the CPU backend: every new
 * IndicatorType (persson, jameson, ducros, DucrosTimesJST, halfhalf, checkerboard, fv, and
 * hennemann with FV_Mode = switching; FVBoundaries), switched and blended, on Sod's tube and on a
 * moving Mach 2 shock through a curved 3-D box (Jameson's ghost layer across faces of every
 * orientation); relative L2 difference of the states after 50 steps <= 1e-10 (a switch decided
 * differently would show as O(1e-3) and more). On the GPU alone: a switched run keeps mass and
 * energy of Sod to round-off. Skipped where no GPU is visible. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "dg/indicator.h"
#include "gpu/gpu.h"
#include "physics/eos.h"
#include "regression/harness.h"

#include "agreement.h" /* after harness.h, which it uses */

static const char *const SOD[] = {"ProjectName = gpu_ind_sod",
                                  "MeshFile = box",
                                  "BoxElems = (/60,1,1/)",
                                  "BoxLower = (/0., 0., 0./)",
                                  "BoxUpper = (/1., 0.02, 0.02/)",
                                  "BoxPeriodic = (/F,T,T/)",
                                  "N = 3",
                                  "NodeType = GAUSS-LOBATTO",
                                  "SplitDG = PI",
                                  "Riemann = HLLC",
                                  "IniExactFunc = 11",
                                  "tend = 1e10",
                                  "maxIter = 50",
                                  "CFLscale = 0.5",
                                  "CalcErrorNorms = F",
                                  "FV_Mode = switching",
                                  "FV_LimiterType = MinMod",
                                  NULL};

static const char *const SHOCK3D[] = {"ProjectName = gpu_ind_shock",
                                      "MeshFile = box",
                                      "BoxElems = (/8,3,3/)",
                                      "NGeo = 3",
                                      "BoxCurving = 0.04",
                                      "BoxLower = (/0., 0., 0./)",
                                      "BoxUpper = (/10., 3., 3./)",
                                      "BoxPeriodic = (/F,T,T/)",
                                      "N = 3",
                                      "NodeType = GAUSS-LOBATTO",
                                      "SplitDG = PI",
                                      "Riemann = Roe",
                                      "IniExactFunc = 10",
                                      "MachShock = 2.",
                                      "PreShockDens = 1.",
                                      "tend = 1e10",
                                      "maxIter = 50",
                                      "CFLscale = 0.5",
                                      "CalcErrorNorms = F",
                                      "FV_Mode = switching",
                                      NULL};

static int have_gpu(void) {
  if (gpu_device_count() > 0) return 1;
  printf("  no CUDA device visible: GPU tests skipped\n");
  return 0;
}

/* CPU and GPU runs of base + extra; returns the relative L2 difference of the states. */
static double agreement(const char *const *base, const char *const *extra, const char *what) {
  double d = gpu_cpu_difference(base, extra);
  printf("  %-58s relative L2 difference GPU-CPU %.3e\n", what, d);
  return d;
}

static void test_sod_switching(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  const char *persson[] = {"IndicatorType = persson",    "IndVar = 1",
                           "IndStartTime = 0.",          "FV_IndUpperThreshold = -3.",
                           "FV_IndLowerThreshold = -4.", NULL};
  assert_true(agreement(SOD, persson, "Sod, switching, persson (-3 / -4):") <= 1e-10);
  const char *todg[] = {"IndicatorType = persson",
                        "FV_IndUpperThreshold = -3.",
                        "FV_IndLowerThreshold = -4.",
                        "FV_toDG_indicator = T",
                        "FV_toDG_limit = -5.5",
                        "FV_toDGinRK = T",
                        NULL};
  assert_true(agreement(SOD, todg, "Sod, switching, persson, FV_toDG_indicator, in RK:") <= 1e-10);
  const char *henn[] = {"IndicatorType = hennemann", "FV_IndUpperThreshold = 0.5",
                        "FV_IndLowerThreshold = 0.1", "FV_alpha_max = 1.", NULL};
  assert_true(agreement(SOD, henn, "Sod, switching, hennemann (0.5 / 0.1):") <= 1e-10);
  /* the Ducros sensor needs (div u)^2 >= 100 (FLEXI's threshold): Sod's resolved shock has it */
  const char *duc[] = {"IndicatorType = ducros", "FV_IndUpperThreshold = 0.05",
                       "FV_IndLowerThreshold = 0.01", NULL};
  assert_true(agreement(SOD, duc, "Sod, switching, ducros (0.05 / 0.01):") <= 1e-10);
  const char *djst[] = {"IndicatorType = DucrosTimesJST", "FV_Mode = blending",
                        "FV_IndUpperThreshold = 0.001",   "FV_alpha_max = 0.7",
                        "FV_doExtendAlpha = T",           NULL};
  assert_true(agreement(SOD, djst, "Sod, blending, DucrosTimesJST, spreading:") <= 1e-10);
  const char *half[] = {"IndicatorType = halfhalf", "BoxLower = (/-0.5, 0., 0./)",
                        "BoxUpper = (/0.5, 0.02, 0.02/)", NULL};
  assert_true(agreement(SOD, half, "Sod on [-0.5, 0.5], switching, halfhalf:") <= 1e-10);
  const char *fvb[] = {"IndicatorType = hennemann", "FV_Mode = blending", "FVBoundaries = T",
                       "FV_alpha_max = 0.8", NULL};
  assert_true(agreement(SOD, fvb, "Sod, blending, hennemann, FVBoundaries:") <= 1e-10);
  const char *fvbs[] = {"IndicatorType = persson",    "FVBoundaries = T",
                        "FVBoundaryType = 2",         "FV_IndUpperThreshold = -3.",
                        "FV_IndLowerThreshold = -4.", NULL};
  assert_true(agreement(SOD, fvbs, "Sod, switching, persson, FVBoundaries (type 2):") <= 1e-10);
  const char *cb[] = {"IndicatorType = checkerboard", NULL};
  assert_true(agreement(SOD, cb, "Sod, switching, checkerboard:") <= 1e-10);
  const char *all[] = {"IndicatorType = fv", "FV_SwitchConservative = F", NULL};
  assert_true(agreement(SOD, all, "Sod, switching, fv (all FV), non-conservative switch:") <=
              1e-10);
}

static void test_shock3d(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  const char *jst[] = {"IndicatorType = jameson", "IndVar = 6", "FV_IndUpperThreshold = 0.01",
                       "FV_IndLowerThreshold = 0.005", NULL};
  assert_true(agreement(SHOCK3D, jst, "Mach 2 shock, curved 3-D, switching, jameson (p):") <=
              1e-10);
  const char *pb[] = {"IndicatorType = persson",    "IndVar = 6", "FV_IndUpperThreshold = -3.",
                      "FV_IndLowerThreshold = -4.", "N = 4",      NULL};
  assert_true(agreement(SHOCK3D, pb, "Mach 2 shock, curved 3-D, switching, persson, N = 4:") <=
              1e-10);
}

/* Sod with switching on the GPU: the totals (quadrature of J U) of mass and energy keep their
 * initial values (the waves stay inside). */
static void test_conservation_gpu(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  const char *extra[] = {"IndicatorType = persson", "FV_IndUpperThreshold = -3.",
                         "FV_IndLowerThreshold = -4.", "Backend = cuda", NULL};
  Simulation *sim = harness_sim(SOD, extra, NULL);
  assert_non_null(sim);
  const Solver *s = sim->solver;
  double before[HX_NVAR], after[HX_NVAR];
  for (int pass = 0; pass < 2; pass++) {
    double *tot = pass ? after : before;
    if (pass) assert_int_equal(simulation_run(sim), HX_OK);
    for (int v = 0; v < HX_NVAR; v++)
      tot[v] = 0.0;
    int np = s->np, n3 = s->n_dof_elem;
    for (int e = 0; e < s->mesh->n_elems; e++)
      for (int q = 0; q < n3; q++)
        for (int v = 0; v < HX_NVAR; v++)
          tot[v] += s->disc.w[q % np] * s->disc.w[(q / np) % np] * s->disc.w[q / (np * np)] /
                    s->geo.sJ[(long)n3 * e + q] * s->U[((long)e * HX_NVAR + v) * n3 + q];
  }
  double dm = fabs(after[DENS] - before[DENS]) / before[DENS];
  double de = fabs(after[ENER] - before[ENER]) / before[ENER];
  printf("  GPU switching, Sod: mass change %.2e, energy change %.2e (relative)\n", dm, de);
  assert_true(dm < 1e-13 && de < 1e-13);
  simulation_destroy(sim);
}

int main(void) {
  harness_scratch_dir("gpu_indicators");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sod_switching),
      cmocka_unit_test(test_shock3d),
      cmocka_unit_test(test_conservation_gpu),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  return rc == 0 && gpu_device_count() == 0 ? 77 : rc; /* no GPU: skipped, not passed */
}
