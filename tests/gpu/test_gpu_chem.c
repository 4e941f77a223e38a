/* Batched chemistry on the GPU against the CPU: the same cells (states spread over an ignition
 * history), the same tolerances, both schedules. The GPU runs the same Radau IIA code with a
 * strided workspace, so the results must agree inside the integrator tolerance (in practice to
 * round-off: the arithmetic is the same, only FMA contraction differs). A cell given too few steps
 * must fail with a status, keep finite numbers, and not disturb the other cells. Skipped (77)
 * without a GPU. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "chem/batch.h"
#include "chem/mech.h"
#include "chem/thermo.h"
#include "chem_test_util.h"
#include "core/error.h"
#include "gpu/chem_gpu.h"
#include "gpu/gpu.h"

static void agree_with(const char *name, const char *X, int single, int integrator) {
  ChemMech *m = chem_test_load(name);
  if (!m) skip();
  const long n = 3000;
  const int nu = m->n_species + 1;
  double *y_cpu = malloc(sizeof(double) * nu * n), *y_gpu = malloc(sizeof(double) * nu * n);
  double *rho = malloc(sizeof(double) * n);
  int *st_cpu = malloc(sizeof(int) * n), *st_gpu = malloc(sizeof(int) * n);
  int *sp_cpu = malloc(sizeof(int) * n), *sp_gpu = malloc(sizeof(int) * n);
  chem_test_make_cells(m, X, 1200, CHEM_P_ATM, n, y_cpu, rho);
  memcpy(y_gpu, y_cpu, sizeof(double) * nu * n);
  ChemIntegratorOptions o = chem_integrator_options_default();
  o.rtol = 1e-8;
  o.atol = 1e-12;
  const double dt = 1e-5;
  assert_int_equal(chem_batch_integrate_with(m, integrator, CHEM_MODE_CV, n, y_cpu, rho, dt, &o,
                                             st_cpu, sp_cpu, NULL),
                   HX_OK);
  ChemGpu *g = NULL;
  assert_int_equal(chem_gpu_create(m, &g), HX_OK);
  ChemSchedule sch = chem_schedule_default();
  sch.single_launch = single;
  sch.integrator = integrator;
  ChemGpuStats st;
  assert_int_equal(chem_gpu_integrate_host(g, CHEM_MODE_CV, (int)n, y_gpu, rho, dt, &o, &sch,
                                           sp_gpu, st_gpu, &st),
                   HX_OK);
  double dT = 0, dY = 0;
  long dsteps = 0;
  for (long c = 0; c < n; c++) {
    assert_int_equal(st_gpu[c], CHEM_DONE);
    dT = fmax(dT, fabs(y_gpu[c] - y_cpu[c]) / y_cpu[c]);
    for (int k = 1; k < nu; k++)
      dY = fmax(dY, fabs(y_gpu[k * n + c] - y_cpu[k * n + c]));
    dsteps += labs((long)sp_gpu[c] - sp_cpu[c]);
  }
  printf("  %s %s %s: %ld cells, max |dT|/T %.2e, max |dY| %.2e, steps differ by %ld in total, "
         "GPU %.3f ms (%d launches, sparse %.3f ms)\n",
         name, integrator == CHEM_INTEGRATOR_RODAS ? "RODAS4" : "Radau5",
         single ? "single launch" : "bulk-sparse", n, dT, dY, dsteps, 1e3 * st.seconds, st.launches,
         1e3 * st.sparse_seconds);
  /* inside the tolerance: rtol on T, rtol * max Y + atol on the mass fractions */
  assert_true(dT <= o.rtol);
  assert_true(dY <= o.rtol + o.atol);
  chem_gpu_destroy(g);
  chem_mech_free(m);
  free(y_cpu), free(y_gpu), free(rho), free(st_cpu), free(st_gpu), free(sp_cpu), free(sp_gpu);
}

static void agree(const char *name, const char *X, int single) {
  agree_with(name, X, single, CHEM_INTEGRATOR_RADAU5);
}

static void burke_rodas(void **state) {
  (void)state;
  agree_with("burke", CHEM_TEST_X_H2_AIR, 0, CHEM_INTEGRATOR_RODAS);
}
static void burke_bulk_sparse(void **state) {
  (void)state;
  agree("burke", CHEM_TEST_X_H2_AIR, 0);
}
static void burke_single(void **state) {
  (void)state;
  agree("burke", CHEM_TEST_X_H2_AIR, 1);
}
static void gri30_bulk_sparse(void **state) {
  (void)state;
  agree("gri30", "CH4:1,O2:2,N2:7.52", 0);
}

/* too few steps: cells fail with a status and finite numbers, the GPU reports the first one */
static void failing_cells(void **state) {
  (void)state;
  ChemMech *m = chem_test_load("burke");
  if (!m) skip();
  const long n = 500;
  const int nu = m->n_species + 1;
  double *y = malloc(sizeof(double) * nu * n), *rho = malloc(sizeof(double) * n);
  int *status = malloc(sizeof(int) * n);
  chem_test_make_cells(m, CHEM_TEST_X_H2_AIR, 1200, CHEM_P_ATM, n, y, rho);
  ChemIntegratorOptions o = chem_integrator_options_default();
  o.max_steps = 3;
  ChemGpu *g = NULL;
  assert_int_equal(chem_gpu_create(m, &g), HX_OK);
  ChemSchedule sch = chem_schedule_default();
  ChemGpuStats st;
  assert_int_equal(
      chem_gpu_integrate_host(g, CHEM_MODE_CV, (int)n, y, rho, 1e-3, &o, &sch, NULL, status, &st),
      HX_OK);
  assert_true(st.n_failed > 0);
  assert_int_equal(status[st.first_failed], CHEM_FAIL_STEPS);
  for (long i = 0; i < nu * n; i++)
    assert_true(isfinite(y[i]));
  printf("  %d of %ld cells failed as asked (first: cell %d, %s)\n", st.n_failed, n,
         st.first_failed, chem_status_name(st.first_status));
  chem_gpu_destroy(g);
  chem_mech_free(m);
  free(y), free(rho), free(status);
}

int main(void) {
  if (gpu_device_count() < 1) {
    printf("no CUDA device visible: GPU chemistry tests skipped\n");
    return 77;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(burke_bulk_sparse), cmocka_unit_test(burke_single),
      cmocka_unit_test(gri30_bulk_sparse), cmocka_unit_test(burke_rodas),
      cmocka_unit_test(failing_cells),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
