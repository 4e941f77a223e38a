/* Helpers the chemistry tests share (tests/unit/test_chem_reactor.c, test_chem_rodas.c,
 * tests/gpu/test_gpu_chem.c): a mechanism by short name (NULL if its file is missing: the caller
 * skips), mass fractions from a mole-fraction string, element totals and their drift, the
 * ignition-delay check against Cantera's tests/data/chem/ignition_<name>.csv for either
 * integrator, and cells spread over a constant-pressure ignition. Include after cmocka.h (and
 * its prerequisites: setjmp.h, stdarg.h, stddef.h). */
#ifndef HEXDG_TEST_CHEM_TEST_UTIL_H
#define HEXDG_TEST_CHEM_TEST_UTIL_H
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chem/batch.h"
#include "chem/thermo.h"
#include "chem_paths.h"
#include "core/error.h"

/* stoichiometric hydrogen-air, the composition of the ignition_<name>.csv references */
#define CHEM_TEST_X_H2_AIR "H2:2,O2:1,N2:3.76"

/* the mechanism of a short name (chem_test_mech_path); NULL, with the reason printed, if its
 * file is missing: the caller skips */
static inline ChemMech *chem_test_load(const char *name) {
  char path[4096];
  chem_test_mech_path(name, path, sizeof path);
  if (!chem_test_have(path)) return NULL;
  ChemMech *m = NULL;
  assert_int_equal(chem_mech_load(path, NULL, &m), HX_OK);
  return m;
}

/* mass fractions from a mole-fraction string */
static inline void chem_test_mass_fractions(const ChemMech *m, const char *X, double *Y) {
  assert_int_equal(chem_parse_composition(m, X, "X", Y), HX_OK);
  chem_mole_to_mass(m, Y, 1, Y, 1);
}

/* max over elements of |b - b0| / max(b0): 0 up to rounding if the integration conserves */
static inline double chem_test_element_drift(const ChemMech *m, const double *b0, const double *Y) {
  double b[CHEM_MAX_ELEMENTS], scale = 0, d = 0;
  chem_element_totals(m, Y, 1, b);
  for (int e = 0; e < m->n_elements; e++)
    scale = fmax(scale, fabs(b0[e]));
  for (int e = 0; e < m->n_elements; e++)
    d = fmax(d, fabs(b[e] - b0[e]) / scale);
  return d;
}

/* Ignition delays of every row of tests/data/chem/ignition_<name>.csv (H2-air) with the
 * integrator CHEM_INTEGRATOR_RADAU5 or CHEM_INTEGRATOR_RODAS: within 1 %, the final temperature
 * within 0.1 %, element drift <= 1e-12 along every history, at least 24 cases. Returns quietly
 * (the test passes) if the mechanism is missing. */
static inline void chem_test_check_ignition(const char *name, int integrator) {
  const char *integ = integrator == CHEM_INTEGRATOR_RODAS ? "RODAS4" : "Radau5";
  ChemMech *m = chem_test_load(name);
  if (!m) return;
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/data/chem/ignition_%s.csv", HEXDG_SOURCE_DIR, name);
  FILE *fp = fopen(path, "r");
  assert_non_null(fp);
  int ns = m->n_species, cases = 0;
  double *Y0 = malloc(sizeof(double) * ns), b0[CHEM_MAX_ELEMENTS];
  chem_test_mass_fractions(m, CHEM_TEST_X_H2_AIR, Y0);
  chem_element_totals(m, Y0, 1, b0);
  ChemIntegratorOptions o = {1e-8, 1e-15, 200000, 0.0}; /* as the CSV's Cantera runs */
  double worst = 0, worst_drift = 0;
  long steps = 0;
  char line[512], mode_s[8];
  printf("  %s %s: mode p/atm T0/K tau_cantera/s tau_hexdg/s rel.err T_end err/K steps\n", name,
         integ);
  while (fgets(line, sizeof line, fp)) {
    double p_atm, T0, tau_ref, Tend_ref, tend;
    if (line[0] == '#' || sscanf(line, "%7[^,],%lf,%lf,%lf,%lf,%lf", mode_s, &p_atm, &T0, &tau_ref,
                                 &Tend_ref, &tend) != 6)
      continue;
    int mode = !strcmp(mode_s, "cp") ? CHEM_MODE_CP : CHEM_MODE_CV;
    ChemHistory h;
    assert_int_equal(
        chem_reactor_history_with(m, integrator, mode, T0, p_atm * CHEM_P_ATM, Y0, tend, &o, &h),
        HX_OK);
    double rel = fabs(h.ignition_delay / tau_ref - 1), drift = 0;
    for (long r = 0; r < h.n; r++)
      drift = fmax(drift, chem_test_element_drift(m, b0, h.Y + r * ns));
    printf("  %s %s %s %4g %6g %.6e %.6e %.1e %.1e %ld\n", name, integ, mode_s, p_atm, T0, tau_ref,
           h.ignition_delay, rel, h.T_end - Tend_ref, h.steps);
    worst = fmax(worst, rel), worst_drift = fmax(worst_drift, drift);
    steps += h.steps;
    assert_true(rel <= 0.01);
    assert_true(fabs(h.T_end - Tend_ref) <= 1e-3 * Tend_ref);
    assert_true(drift <= 1e-12);
    chem_history_free(&h);
    cases++;
  }
  fclose(fp);
  printf("  %s %s: %d cases, max ignition-delay error %.2e, max element drift %.1e, "
         "%.0f steps per case\n",
         name, integ, cases, worst, worst_drift, cases ? (double)steps / cases : 0.0);
  assert_true(cases >= 24);
  free(Y0);
  chem_mech_free(m);
}

/* n cells from a constant-pressure ignition of X at T0, p0: states at times spread evenly over
 * [0, 2 tau] (a Radau5 history at tight tolerances), species-major y, densities rho */
static inline void chem_test_make_cells(const ChemMech *m, const char *X, double T0, double p0,
                                        long n, double *y, double *rho) {
  int ns = m->n_species;
  double *Y0 = malloc(sizeof(double) * ns);
  chem_test_mass_fractions(m, X, Y0);
  ChemIntegratorOptions o = {1e-9, 1e-14, 100000, 0.0};
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
#endif
