/* Riemann = HLLEM on the CUDA backend against the CPU backend: Sod's tube on LGL nodes in pure DG
 * (the face kernels' riemann_flux) and with FV blending (the FV volume kernel's HLLEM instance),
 * 100 steps, relative L2 difference <= 1e-12 (HLLEM with FV switching on Gauss nodes:
 * test_gpu_fv_gauss). Skipped where no GPU is visible. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "gpu/gpu.h"
#include "regression/harness.h"

#include "agreement.h" /* after harness.h, which it uses */

static const char *const SOD[] = {"ProjectName = gpu_hllem",
                                  "MeshFile = box",
                                  "BoxElems = (/100,1,1/)",
                                  "BoxLower = (/0., 0., 0./)",
                                  "BoxUpper = (/1., 0.01, 0.01/)",
                                  "BoxPeriodic = (/F,T,T/)",
                                  "N = 3",
                                  "NodeType = GAUSS-LOBATTO",
                                  "SplitDG = PI",
                                  "Riemann = HLLEM",
                                  "IniExactFunc = 11",
                                  "tend = 1e10",
                                  "maxIter = 100",
                                  "CFLscale = 0.5",
                                  "CalcErrorNorms = F",
                                  NULL};

static int have_gpu(void) {
  if (gpu_device_count() > 0) return 1;
  printf("  no CUDA device visible: GPU tests skipped\n");
  return 0;
}

static void test_dg_agreement(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  const double d = gpu_cpu_difference(SOD, NULL);
  printf("  Sod, DG, HLLEM: relative L2 difference GPU-CPU %.3e\n", d);
  assert_true(d < 1e-12);
}

static void test_fv_agreement(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  const char *extra[] = {"IndicatorType = hennemann", "FV_alpha_max = 1.", NULL};
  const double d = gpu_cpu_difference(SOD, extra);
  printf("  Sod, FV blending, HLLEM: relative L2 difference GPU-CPU %.3e\n", d);
  assert_true(d < 1e-12);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_dg_agreement),
                                     cmocka_unit_test(test_fv_agreement)};
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  return rc == 0 && gpu_device_count() == 0 ? 77 : rc; /* no GPU: skipped, not passed */
}
