/* Every TimeDiscMethod on the CUDA backend against the CPU backend (the 3S* schemes run on the GPU
 * as a register kernel before the fused 2N update, on the CPU in Ketcheson's direct form): after
 * 20 steps the relative L2 difference of U must be <= 1e-12 for the manufactured solution (Euler,
 * Navier-Stokes, curved box), <= 1e-10 for a mild FV-blended shock tube without the cut of alpha
 * at FV_alpha_min, <= 1e-6 for Sod with the cut and the positivity limiter (2N schemes; see
 * below), and <= 1e-10 for a reacting species wave with the chemistry stage (where the Li 2004
 * mechanism is present). Skipped (77) where no GPU is visible. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "../chem_paths.h"
#include "gpu/gpu.h"
#include "regression/harness.h"

#include "agreement.h" /* after harness.h, which it uses */
#include "time/rk_tables.h"

static const char *const MMS[] = {"ProjectName = gpu_rk",
                                  "MeshFile = box",
                                  "BoxElems = (/3,2,2/)",
                                  "NGeo = 3",
                                  "BoxCurving = 0.05",
                                  "IniExactFunc = 4",
                                  "AdvVel = (/1., 1., 1./)",
                                  "N = 3",
                                  "NodeType = GAUSS-LOBATTO",
                                  "SplitDG = PI",
                                  "tend = 1e10",
                                  "maxIter = 20",
                                  "CalcErrorNorms = F",
                                  NULL};

static const char *const SOD[] = {"ProjectName = gpu_rk_sod",
                                  "MeshFile = box",
                                  "BoxElems = (/16,1,1/)",
                                  "BoxLower = (/0., 0., 0./)",
                                  "BoxUpper = (/1., 0.0625, 0.0625/)",
                                  "BoxPeriodic = (/F,T,T/)",
                                  "N = 3",
                                  "NodeType = GAUSS-LOBATTO",
                                  "SplitDG = PI",
                                  "Riemann = HLLC",
                                  "IniExactFunc = 11",
                                  "IndicatorType = hennemann",
                                  "FV_alpha_max = 1.",
                                  "FV_LimiterType = MinMod",
                                  "FV_PositivityLimiter = T",
                                  "tend = 1e10",
                                  "maxIter = 20",
                                  "CalcErrorNorms = F",
                                  NULL};

static char mech_line[4200];
static int have_mech;

static const char *const WAVE[] = {
    "ProjectName = gpu_rk_mixture",
    "MeshFile = box",
    "BoxElems = (/3,2,2/)",
    "NGeo = 3",
    "BoxCurving = 0.06",
    "BoxLower = (/0.,0.,0./)",
    "BoxUpper = (/0.01,0.01,0.01/)", /* dt ~ 1e-6 s: 20 steps stay before ignition */
    "BoxPeriodic = (/T,T,T/)",
    "N = 3",
    "IniExactFunc = 17",
    "IniAmplitude = 0.2",
    "IniFrequency = 1.",
    "AdvVel = (/50.,30.,20./)",
    "RefState = (/0.2123976,50.,30.,20.,101325./)",
    "RefStateX = H2:2,O2:1,N2:3.76",
    "Riemann = HLLC",
    "NodeType = GAUSS-LOBATTO",
    "SplitDG = PI",
    "tend = 1e10",
    "maxIter = 20",
    "CalcErrorNorms = F",
    NULL};

static int have_gpu(void) {
  if (gpu_device_count() > 0) return 1;
  printf("  no CUDA device visible: GPU tests skipped\n");
  return 0;
}

/* base + the scheme + extra on the CPU and on the GPU: relative L2 difference of U. */
static double cpu_gpu_difference(const char *const *base, const char *scheme, const char *extra) {
  char sm[64];
  snprintf(sm, sizeof sm, "TimeDiscMethod = %s", scheme);
  const char *lines[] = {sm, extra, NULL};
  return gpu_cpu_difference(base, lines);
}

/* SOD made a mild shock tube (pressure ratio 2) with alpha not cut at FV_alpha_min: every scheme
 * stays far from the positivity floor, where the pressure (kappa-1)(E - rho|u|^2/2) cancels and
 * round-off differences grow without bound. */
static double mild_tube_difference(const char *scheme) {
  char sm[64];
  snprintf(sm, sizeof sm, "TimeDiscMethod = %s", scheme);
  const char *lines[] = {sm, "RefState = (/1.,0.,0.,0.,1./)", "RefState = (/0.5,0.,0.,0.,0.5/)",
                         "FV_alpha_min = 0.", NULL};
  return gpu_cpu_difference(SOD, lines);
}

static void test_every_scheme_agrees(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  for (int r = 0; r < rk_count(); r++) {
    const char *name = rk_at(r)->name;
    const double euler = cpu_gpu_difference(MMS, name, NULL);
    const double ns = cpu_gpu_difference(MMS, name, "mu0 = 0.01");
    const double sod = cpu_gpu_difference(SOD, name, NULL);
    const double mild = mild_tube_difference(name);
    printf("  %-16s relative L2 difference GPU-CPU after 20 steps: MMS Euler %.3e, MMS "
           "Navier-Stokes %.3e, mild tube with FV blending %.3e, Sod with FV blending + "
           "positivity %.3e\n",
           name, euler, ns, mild, sod);
    assert_true(euler <= 1e-12);
    assert_true(ns <= 1e-12);
    /* FV blending without the cut of alpha at FV_alpha_min (a jump): continuous in U, so the
     * two backends agree to round-off amplified by the limiters */
    assert_true(mild <= 1e-10);
    /* Sod: alpha's cut switches an element's blending on round-off differences, and Ketcheson's
     * 3S* schemes drive Sod to the positivity floor (they fail there without the limiter, on
     * either backend), where the pressure loses its digits to cancellation: the 3S* values are
     * printed, not bounded (their difference is open: docs/numerics.md). */
    if (rk_at(r)->form != RK_3SSTAR) assert_true(sod <= 1e-6);
  }
}

static void test_reacting_with_3sstar(void **state) {
  (void)state;
  if (!have_gpu() || !have_mech) skip();
  const char *schemes[] = {"ketchesonrk4-20", "ketchesonrk4-18", "toulorgerk4-8f"};
  for (int i = 0; i < 3; i++) {
    const double d = cpu_gpu_difference(WAVE, schemes[i], mech_line);
    printf("  %-16s reacting species wave (Li 2004, chemistry stage) GPU-CPU %.3e\n", schemes[i],
           d);
    assert_true(d <= 1e-10);
  }
}

int main(void) {
  char buf[4096];
  const char *path = chem_test_mech_path("li", buf, sizeof buf);
  have_mech = chem_test_have(path);
  snprintf(mech_line, sizeof mech_line, "Mechanism = %s", path);
  harness_scratch_dir("gpu_rk");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_scheme_agrees),
      cmocka_unit_test(test_reacting_with_3sstar),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  return rc == 0 && gpu_device_count() == 0 ? 77 : rc; /* no GPU: skipped, not passed */
}
