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
#include "chem_paths.h"
#include "core/error.h"
#include "gpu/chem_gpu.h"
#include "gpu/gpu.h"

/* n cells from a constant-pressure ignition of X at T0, times evenly over [0, 2 tau] */
static void make_cells(const ChemMech *m, const char *X, double T0, double p0, long n, double *y,
                       double *rho) {
  const int ns = m->n_species;
  double *Y0 = malloc(sizeof(double) * ns);
  assert_int_equal(chem_parse_composition(m, X, "X", Y0), HX_OK);
  double W = 0;
  for (int k = 0; k < ns; k++)
    W += Y0[k] * m->mw[k];
  for (int k = 0; k < ns; k++)
    Y0[k] *= m->mw[k] / W;
  ChemIntegratorOptions o = chem_integrator_options_default();
  o.rtol = 1e-9;
  o.atol = 1e-14;
  ChemHistory h;
  assert_int_equal(chem_reactor_history(m, CHEM_MODE_CP, T0, p0, Y0, 0.1, &o, &h), HX_OK);
  for (long c = 0; c < n; c++) {
    double t = 2 * h.ignition_delay * (double)((c * 7919) % n) / n;
    long r = 0;
    while (r + 1 < h.n && h.t[r + 1] <= t)
      r++;
    y[c] = h.T[r];
    for (int k = 0; k < ns; k++)
      y[(size_t)(k + 1) * n + c] = h.Y[r * ns + k];
    rho[c] = h.p[r] / (CHEM_R * h.T[r]) * chem_mean_mw(m, y + n + c, n);
  }
  chem_history_free(&h);
  free(Y0);
}

static void agree_with(const char *name, const char *X, int single, int integrator) {
  char path[4096];
  chem_test_mech_path(name, path, sizeof path);
  if (!chem_test_have(path)) skip();
  ChemMech *m = NULL;
  assert_int_equal(chem_mech_load(path, NULL, &m), HX_OK);
  const long n = 3000;
  const int nu = m->n_species + 1;
  double *y_cpu = malloc(sizeof(double) * nu * n), *y_gpu = malloc(sizeof(double) * nu * n);
  double *rho = malloc(sizeof(double) * n);
  int *st_cpu = malloc(sizeof(int) * n), *st_gpu = malloc(sizeof(int) * n);
  int *sp_cpu = malloc(sizeof(int) * n), *sp_gpu = malloc(sizeof(int) * n);
  make_cells(m, X, 1200, CHEM_P_ATM, n, y_cpu, rho);
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
  agree_with("burke", "H2:2,O2:1,N2:3.76", 0, CHEM_INTEGRATOR_RODAS);
}
static void burke_bulk_sparse(void **state) {
  (void)state;
  agree("burke", "H2:2,O2:1,N2:3.76", 0);
}
static void burke_single(void **state) {
  (void)state;
  agree("burke", "H2:2,O2:1,N2:3.76", 1);
}
static void gri30_bulk_sparse(void **state) {
  (void)state;
  agree("gri30", "CH4:1,O2:2,N2:7.52", 0);
}

/* too few steps: cells fail with a status and finite numbers, the GPU reports the first one */
static void failing_cells(void **state) {
  (void)state;
  char path[4096];
  chem_test_mech_path("burke", path, sizeof path);
  if (!chem_test_have(path)) skip();
  ChemMech *m = NULL;
  assert_int_equal(chem_mech_load(path, NULL, &m), HX_OK);
  const long n = 500;
  const int nu = m->n_species + 1;
  double *y = malloc(sizeof(double) * nu * n), *rho = malloc(sizeof(double) * n);
  int *status = malloc(sizeof(int) * n);
  make_cells(m, "H2:2,O2:1,N2:3.76", 1200, CHEM_P_ATM, n, y, rho);
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
