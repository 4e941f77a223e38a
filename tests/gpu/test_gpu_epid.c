/* EPID on the GPU (src/gpu/power.c): a run of about two seconds on the CUDA backend (Euler,
 * 16^3 elements, N = 5, ~0.9 M DOF) measures the GPU's energy through NVML. Asserts that the
 * meter works on a machine with a GPU (no "n/a"), that EPID > 0, and that the mean power,
 * energy / wall time of the time stepping, lies between 50 W and 1000 W (an idle H100 draws
 * ~70 W, its limit is 700 W). Skipped (77) where no GPU is visible. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <omp.h>

#include "gpu/gpu.h"
#include "regression/harness.h"

static const char *const CASE[] = {"ProjectName = gpu_epid",
                                   "MeshFile = box",
                                   "BoxElems = (/16,16,16/)",
                                   "N = 5",
                                   "NodeType = GAUSS-LOBATTO",
                                   "SplitDG = PI",
                                   "IniExactFunc = 4",
                                   "AdvVel = (/1., 1., 1./)",
                                   "tend = 100",
                                   "maxIter = 600",
                                   "Analyze_dt = 100",
                                   "CalcErrorNorms = F",
                                   "Backend = cuda",
                                   "CalcEPID = T",
                                   NULL};

static void test_epid_is_positive_and_plausible(void **state) {
  (void)state;
  if (gpu_device_count() == 0) {
    printf("  no GPU visible: skipped\n");
    return;
  }
  Simulation *sim = harness_sim(CASE, NULL, NULL);
  assert_non_null(sim);
  assert_int_equal(sim->backend, BACKEND_CUDA);
  double t0 = omp_get_wtime();
  assert_int_equal(simulation_run(sim), HX_OK);
  double joules = power_meter_joules(sim->power), wall = omp_get_wtime() - t0;
  assert_non_null(sim->power);
  const char *why = power_meter_reason(sim->power);
  long stages = sim->iter * sim->td.rk->n_stages;
  double dof = (double)sim->solver->n_dof_elem * sim->solver->mesh->n_global_elems;
  double epid = power_epid(joules, dof, stages), watts = joules / wall;
  printf("  %s: %.3f J in %.3f s (%.1f W mean) over %.0f DOF x %ld stages: EPID %.4e J "
         "(%s)%s%s\n",
         sim->device_name, joules, wall, watts, dof, stages, epid, power_meter_method(sim->power),
         why[0] ? "; n/a: " : "", why);
  assert_true(why[0] == 0);
  assert_true(epid > 0.0);
  assert_true(watts > 50.0 && watts < 1000.0);
  simulation_destroy(sim);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_epid_is_positive_and_plausible),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  return rc == 0 && gpu_device_count() == 0 ? 77 : rc; /* no GPU: skipped, not passed */
}
