/* The adiabatic reactor and its Radau5 integrator (src/chem/reactor.h, radau5.h, batch.c):
 * the analytic reactor Jacobian against central differences of the right-hand side; ignition
 * delays (CV, CP; H2-air, 1 and 20 atm, 950-2500 K) against Cantera's (tests/data/chem/
 * ignition_<mech>.csv from tools/chem_ignition_reference.py, same tolerances); element
 * conservation through every integration; a failing cell reports a status and finite numbers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "chem/batch.h"
#include "chem/radau5.h"
#include "chem/reactor.h"
#include "chem_test_util.h"
#include "core/error.h"

static double urand(unsigned *s) {
  *s = *s * 1664525u + 1013904223u;
  return (*s >> 8) / 16777216.0;
}

/* max over (i, j) of |J_ij - FD_ij| |y_j| / max_j |FD_ij| |y_j| (columns scaled by the state) */
static double jacobian_error(const ChemMech *m, int mode, double par, const double *y) {
  int n = m->n_species + 1;
  double *J = malloc(sizeof(double) * n * n), *F = malloc(sizeof(double) * n * n);
  double *fp = malloc(sizeof(double) * n), *fm = malloc(sizeof(double) * n);
  double *yp = malloc(sizeof(double) * n);
  double *w = malloc(sizeof(double) * chem_reactor_work(m));
  chem_reactor_jac(m, mode, par, y, 1, J, 1, w, 1);
  for (int j = 0; j < n; j++) {
    double d = 1e-6 * fabs(y[j]);
    memcpy(yp, y, sizeof(double) * n);
    yp[j] = y[j] + d;
    chem_reactor_rhs(m, mode, par, yp, 1, fp, 1, w, 1);
    yp[j] = y[j] - d;
    chem_reactor_rhs(m, mode, par, yp, 1, fm, 1, w, 1);
    for (int i = 0; i < n; i++)
      F[i * n + j] = (fp[i] - fm[i]) / (2 * d);
  }
  double err = 0;
  for (int i = 0; i < n; i++) {
    double scale = 0;
    for (int j = 0; j < n; j++)
      scale = fmax(scale, fabs(F[i * n + j] * y[j]));
    for (int j = 0; j < n; j++)
      if (scale > 0) err = fmax(err, fabs(J[i * n + j] - F[i * n + j]) * fabs(y[j]) / scale);
  }
  free(J), free(F), free(fp), free(fm), free(yp), free(w);
  return err;
}

static void check_jacobian(const char *name) {
  ChemMech *m = chem_test_load(name);
  if (!m) return;
  int ns = m->n_species, n = ns + 1;
  double *y = malloc(sizeof(double) * n);
  unsigned seed = 12345;
  for (int mode = 0; mode < 2; mode++) {
    double worst = 0;
    for (int trial = 0; trial < 20; trial++) {
      double T = 800 + 1700 * urand(&seed), p = CHEM_P_ATM * pow(10, -0.5 + 2 * urand(&seed));
      double sum = 0;
      y[0] = T;
      for (int k = 0; k < ns; k++)
        sum += (y[k + 1] = 1e-3 + urand(&seed));
      for (int k = 0; k < ns; k++)
        y[k + 1] /= sum;
      double par = mode == CHEM_MODE_CP ? p : p * chem_mean_mw(m, y + 1, 1) / (CHEM_R * T);
      worst = fmax(worst, jacobian_error(m, mode, par, y));
    }
    printf("  %s %s: reactor Jacobian vs central differences, max scaled error %.2e\n", name,
           mode ? "CP" : "CV", worst);
    assert_true(worst <= 1e-6);
  }
  free(y);
  chem_mech_free(m);
}

static void test_jacobian_h2o2(void **state) {
  (void)state, check_jacobian("h2o2");
}
static void test_jacobian_burke(void **state) {
  (void)state, check_jacobian("burke");
}
static void test_jacobian_gri30(void **state) {
  (void)state, check_jacobian("gri30");
}

static void test_ignition_h2o2(void **state) {
  (void)state, chem_test_check_ignition("h2o2", CHEM_INTEGRATOR_RADAU5);
}
static void test_ignition_burke(void **state) {
  (void)state, chem_test_check_ignition("burke", CHEM_INTEGRATOR_RADAU5);
}

/* A batch over states spread along an ignition history: every cell done, elements conserved. */
static void test_batch(void **state) {
  (void)state;
  ChemMech *m = chem_test_load("burke");
  if (!m) return;
  int ns = m->n_species, n = ns + 1;
  const long nc = 16;
  double *Y0 = malloc(sizeof(double) * ns), b0[CHEM_MAX_ELEMENTS];
  chem_test_mass_fractions(m, CHEM_TEST_X_H2_AIR, Y0);
  chem_element_totals(m, Y0, 1, b0);
  double *y = malloc(sizeof(double) * n * nc), *par = malloc(sizeof(double) * nc);
  double *Yc = malloc(sizeof(double) * ns);
  int status[16], steps[16];
  for (long c = 0; c < nc; c++) {
    y[c] = 1400 + 60 * c;
    for (int k = 0; k < ns; k++)
      y[(k + 1) * nc + c] = Y0[k];
    par[c] = c % 2 ? CHEM_P_ATM : 20 * CHEM_P_ATM;
  }
  ChemIntegratorOptions o = {1e-6, 1e-12, 100000, 0.0};
  assert_int_equal(chem_batch_integrate(m, CHEM_MODE_CP, nc, y, par, 1e-4, &o, status, steps, NULL),
                   HX_OK);
  for (long c = 0; c < nc; c++) {
    assert_int_equal(status[c], CHEM_DONE);
    for (int k = 0; k < ns; k++)
      Yc[k] = y[(k + 1) * nc + c];
    assert_true(chem_test_element_drift(m, b0, Yc) <= 1e-12);
    assert_true(y[c] > 2000); /* every cell ignites within 1e-4 s (tau <= 2e-5 s) */
  }
  free(Y0), free(y), free(par), free(Yc);
  chem_mech_free(m);
}

/* A step cap of 3 fails every cell: a status, finite numbers (the initial, last accepted, state)
 * and an error return; a non-finite cell is refused with CHEM_FAIL_STATE. */
static void test_failing_cell(void **state) {
  (void)state;
  ChemMech *m = chem_test_load("h2o2");
  if (!m) return;
  int ns = m->n_species, n = ns + 1;
  const long nc = 3;
  double *Y0 = malloc(sizeof(double) * ns);
  chem_test_mass_fractions(m, CHEM_TEST_X_H2_AIR, Y0);
  double *y = malloc(sizeof(double) * n * nc), par[3] = {CHEM_P_ATM, CHEM_P_ATM, CHEM_P_ATM};
  int status[3], steps[3];
  double tr[3];
  for (long c = 0; c < nc; c++) {
    y[c] = 1200;
    for (int k = 0; k < ns; k++)
      y[(k + 1) * nc + c] = Y0[k];
  }
  y[2] = NAN;
  ChemIntegratorOptions o = {1e-8, 1e-15, 3, 0.0};
  printf("  (an error report of the failing cells follows)\n");
  fflush(stdout);
  assert_int_equal(chem_batch_integrate(m, CHEM_MODE_CP, nc, y, par, 1e-3, &o, status, steps, tr),
                   HX_ERR_NUMERIC);
  for (long c = 0; c < 2; c++) {
    assert_int_equal(status[c], CHEM_FAIL_STEPS);
    assert_int_equal(steps[c], 3);
    assert_true(tr[c] < 1e-3);
    for (int i = 0; i < n; i++)
      assert_true(isfinite(y[i * nc + c]));
  }
  assert_int_equal(status[2], CHEM_FAIL_STATE);
  free(Y0), free(y);
  chem_mech_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_jacobian_h2o2),  cmocka_unit_test(test_jacobian_burke),
      cmocka_unit_test(test_jacobian_gri30), cmocka_unit_test(test_ignition_h2o2),
      cmocka_unit_test(test_ignition_burke), cmocka_unit_test(test_batch),
      cmocka_unit_test(test_failing_cell),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
