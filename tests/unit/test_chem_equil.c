/* Chemical equilibrium (src/chem/equil.c) against Cantera's equilibrate()
 * (tests/data/chem/equil_*.csv, written by tools/chem_equil_reference.py): HP and UV temperatures,
 * UV pressures, major species and the element totals, for h2o2, Burke 2012 and GRI-Mech 3.0; plus
 * properties that need no oracle: the law of mass action at the TP equilibrium, inert mixtures left
 * alone, bad input rejected. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "chem/equil.h"
#include "core/error.h"
#include "chem/mech.h"
#include "chem/thermo.h"
#include "chem_paths.h"

#define MAX_COLS 32
#define T_TOL 1.0      /* K: the acceptance bound */
#define P_TOL 1e-4     /* relative, UV pressure */
#define Y_TOL 1e-6     /* absolute, major species */
#define ELEM_TOL 1e-12 /* relative, element totals */

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* "H2:2;O2:1;N2:3.76" (the CSV's X field) -> mass fractions Y[ns] */
static void x_spec_to_Y(const ChemMech *m, const char *spec, double *Y) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", spec);
  for (char *c = buf; *c; c++)
    if (*c == ';') *c = ',';
  assert_int_equal(chem_parse_composition(m, buf, "X", Y), HX_OK);
  chem_mole_to_mass(m, Y, 1, Y, 1);
}

static double max_element_error(const ChemMech *m, const double *Y0, const double *Y) {
  double b0[CHEM_MAX_ELEMENTS], b[CHEM_MAX_ELEMENTS], err = 0;
  chem_element_totals(m, Y0, 1, b0);
  chem_element_totals(m, Y, 1, b);
  for (int e = 0; e < m->n_elements; e++)
    if (b0[e] > 0)
      err = fmax(err, fabs(b[e] - b0[e]) / b0[e]);
    else
      assert_true(b[e] == 0);
  return err;
}

typedef struct {
  double dT, dp, dY, delem, seconds;
  int rows;
} ModeStats;

static int split_csv(char *line, char **cols) {
  int n = 0;
  line[strcspn(line, "\r\n")] = 0;
  for (char *c = strtok(line, ","); c && n < MAX_COLS; c = strtok(NULL, ","))
    cols[n++] = c;
  return n;
}

/* every row of tests/data/chem/equil_<mech>.csv */
static void check_mech_against_cantera(const char *mech) {
  char path[4096], csv[4096];
  chem_test_mech_path(mech, path, sizeof path);
  if (!chem_test_have(path)) {
    skip();
    return;
  }
  snprintf(csv, sizeof csv, "%s/tests/data/chem/equil_%s.csv", HEXDG_SOURCE_DIR, mech);
  FILE *f = fopen(csv, "r");
  if (!f) fprintf(stderr, "%s missing: run tools/chem_equil_reference.py\n", csv);
  assert_non_null(f);
  ChemMech *m = NULL;
  assert_int_equal(chem_mech_load(path, NULL, &m), 0);
  int ns = m->n_species;
  double *Y0 = malloc(sizeof(double) * (size_t)ns), *Y = malloc(sizeof(double) * (size_t)ns);

  char header[1024], line[4096], *cols[MAX_COLS];
  assert_non_null(fgets(header, sizeof header, f));
  int ncol = split_csv(header, cols), major[MAX_COLS];
  for (int c = 6; c < ncol; c++) {
    major[c] = chem_species_index(m, cols[c] + 2); /* "Y_H2O" */
    assert_true(major[c] >= 0);
  }
  ModeStats st[3] = {{0}};
  while (fgets(line, sizeof line, f)) {
    int n = split_csv(line, cols);
    assert_int_equal(n, ncol);
    int mode = chem_equil_mode_from_name(cols[0]);
    assert_true(mode >= 0);
    double T = atof(cols[1]), p = atof(cols[2]), T_ref = atof(cols[4]), p_ref = atof(cols[5]);
    x_spec_to_Y(m, cols[3], Y0);
    memcpy(Y, Y0, sizeof(double) * (size_t)ns);
    double t0 = now_s();
    int rc = chem_equilibrate(m, mode, &T, &p, Y);
    double dt = now_s() - t0;
    if (rc)
      fprintf(stderr, "%s %s T0 %s p0 %s X %s: failed\n", mech, cols[0], cols[1], cols[2], cols[3]);
    assert_int_equal(rc, 0);
    ModeStats *s = &st[mode];
    double dY = 0;
    for (int c = 6; c < ncol; c++)
      dY = fmax(dY, fabs(Y[major[c]] - atof(cols[c])));
    double dT = fabs(T - T_ref), dp = fabs(p - p_ref) / p_ref, de = max_element_error(m, Y0, Y);
    if (dT > T_TOL || dp > P_TOL || dY > Y_TOL || de > ELEM_TOL)
      fprintf(
          stderr,
          "%s %s T0 %s p0 %s X %s: T %.10g (Cantera %.10g) p %.10g (%.10g) dY %.3g elements %.3g\n",
          mech, cols[0], cols[1], cols[2], cols[3], T, T_ref, p, p_ref, dY, de);
    assert_true(dT <= T_TOL);
    assert_true(dp <= P_TOL);
    assert_true(dY <= Y_TOL);
    assert_true(de <= ELEM_TOL);
    s->dT = fmax(s->dT, dT);
    s->dp = fmax(s->dp, dp);
    s->dY = fmax(s->dY, dY);
    s->delem = fmax(s->delem, de);
    s->seconds += dt;
    s->rows++;
  }
  for (int mode = 0; mode < 3; mode++)
    if (st[mode].rows)
      printf("  %-6s %s: %2d rows, max |T - Cantera| %.2e K, |p/p_Cantera - 1| %.2e, |Y - Cantera| "
             "%.2e, "
             "element totals %.2e; %.0f us per equilibrium\n",
             mech, chem_equil_mode_name(mode), st[mode].rows, st[mode].dT, st[mode].dp, st[mode].dY,
             st[mode].delem, 1e6 * st[mode].seconds / st[mode].rows);
  fclose(f);
  free(Y0);
  free(Y);
  chem_mech_free(m);
}

static void test_h2o2_vs_cantera(void **state) {
  (void)state;
  check_mech_against_cantera("h2o2");
}

static void test_burke_vs_cantera(void **state) {
  (void)state;
  check_mech_against_cantera("burke");
}

static void test_gri30_vs_cantera(void **state) {
  (void)state;
  check_mech_against_cantera("gri30");
}

static ChemMech *load_or_skip(const char *mech) {
  char path[4096];
  chem_test_mech_path(mech, path, sizeof path);
  if (!chem_test_have(path)) return NULL;
  ChemMech *m = NULL;
  assert_int_equal(chem_mech_load(path, NULL, &m), 0);
  return m;
}

/* ln Kp of sum_k nu_k S_k from the standard Gibbs energies, and sum_k nu_k ln(X_k p/p_atm) */
static void mass_action(const ChemMech *m, double T, double p, const double *Y, const char **sp,
                        const double *nu, int n, double *ln_K, double *ln_Q) {
  double W = chem_mean_mw(m, Y, 1);
  *ln_K = *ln_Q = 0;
  for (int i = 0; i < n; i++) {
    int k = chem_species_index(m, sp[i]);
    assert_true(k >= 0);
    *ln_K -= nu[i] * chem_g_RT(m, k, T);
    *ln_Q += nu[i] * log(Y[k] * W / m->mw[k] * p / CHEM_P_ATM);
  }
}

/* At the TP equilibrium every reaction satisfies the law of mass action: ln Q = ln Kp. Checked for
 * dissociations spanning 40 orders of magnitude of concentration (rich, lean, 300 to 3500 K). */
static void test_mass_action(void **state) {
  (void)state;
  ChemMech *m = load_or_skip("h2o2");
  if (!m) {
    skip();
    return;
  }
  const char *r1[] = {"H2O", "H2", "O2"}, *r2[] = {"H2", "H"}, *r3[] = {"H2O", "OH", "H"};
  const double nu1[] = {-1, 1, 0.5}, nu2[] = {-1, 2}, nu3[] = {-1, 1, 1};
  const char *specs[] = {"H2:2;O2:1;N2:3.76", "H2:0.5;O2:1;AR:4", "H2:6;O2:1"};
  const double temps[] = {300, 1000, 2500, 3500}, pres[] = {1e3, 101325, 1e7};
  double *Y = malloc(sizeof(double) * (size_t)m->n_species), worst = 0;
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 4; b++)
      for (int c = 0; c < 3; c++) {
        double T = temps[b], p = pres[c], ln_K, ln_Q;
        x_spec_to_Y(m, specs[a], Y);
        assert_int_equal(chem_equilibrate(m, CHEM_EQ_TP, &T, &p, Y), 0);
        assert_true(T == temps[b] && p == pres[c]);
        const char **rs[] = {r1, r2, r3};
        const double *nus[] = {nu1, nu2, nu3};
        for (int r = 0; r < 3; r++) {
          mass_action(m, T, p, Y, rs[r], nus[r], r == 1 ? 2 : 3, &ln_K, &ln_Q);
          worst = fmax(worst, fabs(ln_Q - ln_K));
          assert_true(fabs(ln_Q - ln_K) < 1e-8 * fmax(1, fabs(ln_K)));
        }
      }
  printf("  law of mass action at TP equilibria: max |ln Q - ln K| %.2e\n", worst);
  free(Y);
  chem_mech_free(m);
}

/* Inert input (pure AR: an element in one species only; N2 without N chemistry): every mode returns
 * the input state. */
static void test_inert(void **state) {
  (void)state;
  ChemMech *m = load_or_skip("h2o2");
  if (!m) {
    skip();
    return;
  }
  int ns = m->n_species;
  double *Y0 = malloc(sizeof(double) * (size_t)ns), *Y = malloc(sizeof(double) * (size_t)ns);
  const char *specs[] = {"AR:1", "N2:1", "N2:3;AR:1"};
  for (int a = 0; a < 3; a++)
    for (int mode = 0; mode < 3; mode++) {
      double T = 1234.5, p = 2e5;
      x_spec_to_Y(m, specs[a], Y0);
      memcpy(Y, Y0, sizeof(double) * (size_t)ns);
      assert_int_equal(chem_equilibrate(m, mode, &T, &p, Y), 0);
      assert_true(fabs(T - 1234.5) < 1e-9 * 1234.5);
      assert_true(fabs(p - 2e5) < 1e-10 * 2e5);
      for (int k = 0; k < ns; k++)
        assert_true(fabs(Y[k] - Y0[k]) < 1e-14);
    }
  free(Y0);
  free(Y);
  chem_mech_free(m);
}

/* HP and UV hold their invariants: h (p) and u (v) of the result equal those of the input, and the
 * result is the TP equilibrium at its own T. */
static void test_invariants(void **state) {
  (void)state;
  ChemMech *m = load_or_skip("burke");
  if (!m) {
    skip();
    return;
  }
  int ns = m->n_species;
  double *Y0 = malloc(sizeof(double) * (size_t)ns), *Y = malloc(sizeof(double) * (size_t)ns);
  double *Y2 = malloc(sizeof(double) * (size_t)ns);
  x_spec_to_Y(m, "H2:2;O2:1;N2:3.76;HE:0.5", Y0);
  for (int mode = CHEM_EQ_HP; mode <= CHEM_EQ_UV; mode++) {
    double T0 = 500, p0 = 5e5, T = T0, p = p0;
    memcpy(Y, Y0, sizeof(double) * (size_t)ns);
    assert_int_equal(chem_equilibrate(m, mode, &T, &p, Y), 0);
    if (mode == CHEM_EQ_HP) {
      double h0 = chem_h_mass(m, T0, Y0, 1), h = chem_h_mass(m, T, Y, 1);
      assert_true(p == p0);
      assert_true(fabs(h - h0) < 1e-9 * fabs(chem_cp_mass(m, T, Y, 1) * T));
    } else {
      double u0 = chem_u_mass(m, T0, Y0, 1), u = chem_u_mass(m, T, Y, 1);
      double v0 = CHEM_R * T0 / (p0 * chem_mean_mw(m, Y0, 1)),
             v = CHEM_R * T / (p * chem_mean_mw(m, Y, 1));
      assert_true(fabs(u - u0) < 1e-9 * fabs(chem_cv_mass(m, T, Y, 1) * T));
      assert_true(fabs(v / v0 - 1) < 1e-12);
    }
    double T2 = T, p2 = p;
    memcpy(Y2, Y, sizeof(double) * (size_t)ns);
    assert_int_equal(chem_equilibrate(m, CHEM_EQ_TP, &T2, &p2, Y2), 0);
    for (int k = 0; k < ns; k++)
      assert_true(fabs(Y2[k] - Y[k]) < 1e-12);
  }
  free(Y0);
  free(Y);
  free(Y2);
  chem_mech_free(m);
}

static void test_bad_input(void **state) {
  (void)state;
  ChemMech *m = load_or_skip("h2o2");
  if (!m) {
    skip();
    return;
  }
  int ns = m->n_species;
  double *Y = malloc(sizeof(double) * (size_t)ns);
  double T = 300, p = 101325;
  x_spec_to_Y(m, "H2:2;O2:1", Y);
  assert_int_not_equal(chem_equilibrate(m, 7, &T, &p, Y), 0);
  T = -1;
  assert_int_not_equal(chem_equilibrate(m, CHEM_EQ_HP, &T, &p, Y), 0);
  T = 300;
  Y[0] = NAN;
  assert_int_not_equal(chem_equilibrate(m, CHEM_EQ_HP, &T, &p, Y), 0);
  for (int k = 0; k < ns; k++)
    Y[k] = 0;
  assert_int_not_equal(chem_equilibrate(m, CHEM_EQ_HP, &T, &p, Y), 0);
  assert_true(chem_equil_mode_from_name("hp") == CHEM_EQ_HP &&
              chem_equil_mode_from_name("UV") == CHEM_EQ_UV);
  assert_true(chem_equil_mode_from_name("tpx") == -1 && chem_equil_mode_from_name("") == -1);
  free(Y);
  chem_mech_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_h2o2_vs_cantera),
      cmocka_unit_test(test_burke_vs_cantera),
      cmocka_unit_test(test_gri30_vs_cantera),
      cmocka_unit_test(test_mass_action),
      cmocka_unit_test(test_inert),
      cmocka_unit_test(test_invariants),
      cmocka_unit_test(test_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
