/* The time step of FV-blended elements on the CUDA backend against the CPU backend (FLEXI's rule:
 * alpha > FV_alpha_min takes the smaller of the DG and the FV limit; tests/regression/
 * test_fv_blend_dt.c checks the bound itself on the CPU):
 *   - the first step on the GPU is the CPU's dt of the initial state's indicator (<= 1e-14
 *     relative) and shorter than the DG limit alone;
 *   - FLEXI's fv_blend/sod settings (CFL 0.9) with an analysis every 0.01 (the CPU's analysis
 *     recomputes alpha, the GPU's does not: the dt must read neither) run 150 steps to the same
 *     time and state on both backends.
 * Skipped (77) where no GPU is visible. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "gpu/gpu.h"
#include "regression/harness.h"

static const char *const SOD[] = {"ProjectName = gpu_fv_blend_dt",
                                  "MeshFile = box",
                                  "BoxElems = (/100,1,1/)",
                                  "BoxLower = (/0., 0., 0./)",
                                  "BoxUpper = (/1., 0.01, 0.01/)",
                                  "BoxPeriodic = (/F,T,T/)",
                                  "Dimension = 2",
                                  "N = 3",
                                  "NodeType = GAUSS-LOBATTO",
                                  "SplitDG = CH",
                                  "Riemann = RoeEntropyFix",
                                  "IniExactFunc = 11",
                                  "tend = 0.2",
                                  "CFLscale = 0.9",
                                  "CalcErrorNorms = F",
                                  "IndicatorType = persson",
                                  "FV_LimiterType = MinMod",
                                  NULL};

static int have_gpu(void) {
  if (gpu_device_count() > 0) return 1;
  printf("  no CUDA device visible: GPU tests skipped\n");
  return 0;
}

static Simulation *sod(const char *backend, const char *extra, const char *extra2) {
  const char *lines[] = {backend, extra, extra2, NULL};
  Simulation *sim = harness_sim(SOD, lines, NULL);
  assert_non_null(sim);
  return sim;
}

static void test_first_step(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  Simulation *cpu = sod("Backend = cpu", "maxIter = 1", NULL);
  Simulation *dg = sod("Backend = cpu", "IndicatorType = none", NULL);
  Simulation *gpu = sod("Backend = cuda", "maxIter = 1", NULL);
  const double dt_cpu = timedisc_calc_dt(cpu->solver, &cpu->td);
  const double dt_dg = timedisc_calc_dt(dg->solver, &dg->td);
  assert_int_equal(simulation_run(gpu), HX_OK);
  printf("  first step: GPU dt %.15e, CPU %.15e, DG limit alone %.15e\n", gpu->t, dt_cpu, dt_dg);
  assert_true(fabs(gpu->t - dt_cpu) <= 1e-14 * dt_cpu);
  assert_true(dt_cpu < 0.5 * dt_dg);
  simulation_destroy(cpu);
  simulation_destroy(dg);
  simulation_destroy(gpu);
}

static void test_sod_with_analyses(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  const char *ana = "Analyze_dt = 0.01", *steps = "maxIter = 150";
  Simulation *cpu = sod("Backend = cpu", ana, steps), *gpu = sod("Backend = cuda", ana, steps);
  assert_int_equal(simulation_run(cpu), HX_OK);
  assert_int_equal(simulation_run(gpu), HX_OK);
  const long n = (long)cpu->solver->n_var * cpu->solver->n_dof;
  const double d = harness_rel_l2_diff(gpu->solver->U, cpu->solver->U, n);
  printf("  fv_blend/sod settings, 150 steps with an analysis every 0.01: t GPU %.15e, CPU "
         "%.15e; relative L2 difference GPU-CPU %.3e\n",
         gpu->t, cpu->t, d);
  assert_int_equal(gpu->iter, cpu->iter);
  assert_true(fabs(gpu->t - cpu->t) <= 1e-12 * cpu->t);
  assert_true(d <= 1e-10);
  simulation_destroy(cpu);
  simulation_destroy(gpu);
}

int main(void) {
  harness_scratch_dir("gpu_fv_blend_dt");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_first_step),
      cmocka_unit_test(test_sod_with_analyses),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  return rc == 0 && gpu_device_count() == 0 ? 77 : rc; /* no GPU: skipped, not passed */
}
