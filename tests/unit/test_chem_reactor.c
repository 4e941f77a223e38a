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
#include "chem_paths.h"
#include "core/error.h"

static const char *X_H2_AIR = "H2:2,O2:1,N2:3.76";

static ChemMech *load(const char *name) {
  char path[4096];
  chem_test_mech_path(name, path, sizeof path);
  if (!chem_test_have(path)) return NULL;
  ChemMech *m = NULL;
  assert_int_equal(chem_mech_load(path, NULL, &m), HX_OK);
  return m;
}

/* mass fractions from a mole-fraction string */
static void mass_fractions(const ChemMech *m, const char *X, double *Y) {
  int ns = m->n_species;
  assert_int_equal(chem_parse_composition(m, X, "X", Y), HX_OK);
  double sum = 0;
  for (int k = 0; k < ns; k++)
    sum += (Y[k] *= m->mw[k]);
  for (int k = 0; k < ns; k++)
    Y[k] /= sum;
}

/* element totals sum_k a_ke Y_k / W_k (kmol of atoms per kg) */
static void element_totals(const ChemMech *m, const double *Y, double *b) {
  for (int e = 0; e < m->n_elements; e++) {
    b[e] = 0;
    for (int k = 0; k < m->n_species; k++)
      b[e] += m->elem_comp[k * m->n_elements + e] * Y[k] / m->mw[k];
  }
}

/* max over elements of |b - b0| / max(b0): 0 up to rounding if the integration conserves */
static double element_drift(const ChemMech *m, const double *b0, const double *Y) {
  double b[CHEM_MAX_ELEMENTS], scale = 0, d = 0;
  element_totals(m, Y, b);
  for (int e = 0; e < m->n_elements; e++)
    scale = fmax(scale, fabs(b0[e]));
  for (int e = 0; e < m->n_elements; e++)
    d = fmax(d, fabs(b[e] - b0[e]) / scale);
  return d;
}

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
  ChemMech *m = load(name);
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

/* Ignition delays of every row of tests/data/chem/ignition_<name>.csv within 1 %. */
static void check_ignition(const char *name) {
  ChemMech *m = load(name);
  if (!m) return;
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/data/chem/ignition_%s.csv", HEXDG_SOURCE_DIR, name);
  FILE *fp = fopen(path, "r");
  assert_non_null(fp);
  int ns = m->n_species, cases = 0;
  double *Y0 = malloc(sizeof(double) * ns), b0[CHEM_MAX_ELEMENTS];
  mass_fractions(m, X_H2_AIR, Y0);
  element_totals(m, Y0, b0);
  ChemIntegratorOptions o = {1e-8, 1e-15, 200000, 0.0};
  double worst = 0, worst_drift = 0;
  char line[512], mode_s[8];
  printf("  %s: mode p/atm T0/K tau_cantera/s tau_hexdg/s rel.err T_end err/K steps\n", name);
  while (fgets(line, sizeof line, fp)) {
    double p_atm, T0, tau_ref, Tend_ref, tend;
    if (line[0] == '#' || sscanf(line, "%7[^,],%lf,%lf,%lf,%lf,%lf", mode_s, &p_atm, &T0, &tau_ref,
                                 &Tend_ref, &tend) != 6)
      continue;
    int mode = !strcmp(mode_s, "cp") ? CHEM_MODE_CP : CHEM_MODE_CV;
    ChemHistory h;
    assert_int_equal(chem_reactor_history(m, mode, T0, p_atm * CHEM_P_ATM, Y0, tend, &o, &h),
                     HX_OK);
    double rel = fabs(h.ignition_delay / tau_ref - 1), drift = 0;
    for (long r = 0; r < h.n; r++)
      drift = fmax(drift, element_drift(m, b0, h.Y + r * ns));
    printf("  %s %s %4g %6g %.6e %.6e %.1e %.1e %ld\n", name, mode_s, p_atm, T0, tau_ref,
           h.ignition_delay, rel, h.T_end - Tend_ref, h.steps);
    worst = fmax(worst, rel), worst_drift = fmax(worst_drift, drift);
    assert_true(rel <= 0.01);
    assert_true(fabs(h.T_end - Tend_ref) <= 1e-3 * Tend_ref);
    assert_true(drift <= 1e-12);
    chem_history_free(&h);
    cases++;
  }
  fclose(fp);
  printf("  %s: %d cases, max ignition-delay error %.2e, max element drift %.1e\n", name, cases,
         worst, worst_drift);
  assert_true(cases >= 24);
  free(Y0);
  chem_mech_free(m);
}

static void test_ignition_h2o2(void **state) {
  (void)state, check_ignition("h2o2");
}
static void test_ignition_burke(void **state) {
  (void)state, check_ignition("burke");
}

/* A batch over states spread along an ignition history: every cell done, elements conserved. */
static void test_batch(void **state) {
  (void)state;
  ChemMech *m = load("burke");
  if (!m) return;
  int ns = m->n_species, n = ns + 1;
  const long nc = 16;
  double *Y0 = malloc(sizeof(double) * ns), b0[CHEM_MAX_ELEMENTS];
  mass_fractions(m, X_H2_AIR, Y0);
  element_totals(m, Y0, b0);
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
    assert_true(element_drift(m, b0, Yc) <= 1e-12);
    assert_true(y[c] > 2000); /* every cell ignites within 1e-4 s (tau <= 2e-5 s) */
  }
  free(Y0), free(y), free(par), free(Yc);
  chem_mech_free(m);
}

/* A step cap of 3 fails every cell: a status, finite numbers (the initial, last accepted, state)
 * and an error return; a non-finite cell is refused with CHEM_FAIL_STATE. */
static void test_failing_cell(void **state) {
  (void)state;
  ChemMech *m = load("h2o2");
  if (!m) return;
  int ns = m->n_species, n = ns + 1;
  const long nc = 3;
  double *Y0 = malloc(sizeof(double) * ns);
  mass_fractions(m, X_H2_AIR, Y0);
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
