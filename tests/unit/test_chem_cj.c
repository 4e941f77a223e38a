/* Chapman-Jouguet detonations (src/chem/cj.c) against Cantera (tests/data/chem/cj_reference.csv,
 * written by tools/chem_cj_reference.py with equilibrate('TV') and its own search): D_cj, T2, p2
 * for H2-air, H2-O2 and H2-O2-Ar with Burke 2012 and h2o2; plus properties that need no oracle:
 * the products leave the wave at the equilibrium sound speed (the Rayleigh line touches the
 * equilibrium Hugoniot: Fickett & Davis 1979, sec. 2A), D rises on both sides of the CJ volume,
 * an inert gas has no CJ point. */
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

#include "chem/cj.h"
#include "chem/equil.h"
#include "chem_test_util.h"

#define D_TOL 1e-3     /* relative, CJ speed */
#define T_TOL 5.0      /* K, CJ temperature */
#define P_TOL 5e-3     /* relative, CJ pressure */
#define SONIC_TOL 1e-5 /* relative, |D - u2| against the equilibrium sound speed */

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* equilibrium pressure at (u, v), the products Y as the starting composition */
static double equilibrium_p(const ChemMech *m, const double *Y, double u, double v, double *work) {
  double T = 2000;
  assert_int_equal(chem_T_from_u(m, Y, 1, u, &T), 0);
  double p = CHEM_R * T / (v * chem_mean_mw(m, Y, 1));
  memcpy(work, Y, sizeof(double) * (size_t)m->n_species);
  assert_int_equal(chem_equilibrate(m, CHEM_EQ_UV, &T, &p, work), HX_OK);
  return p;
}

/* equilibrium sound speed a^2 = -v^2 dp/dv at fixed s, by central differences along the isentrope
 * du = -p dv (trapezoidal, third-order in dv) */
static double equilibrium_sound_speed(const ChemMech *m, double T, double p, const double *Y) {
  double v = CHEM_R * T / (p * chem_mean_mw(m, Y, 1)), u = chem_u_mass(m, T, Y, 1), dv = 1e-4 * v;
  double *work = malloc(sizeof(double) * (size_t)m->n_species), p_side[2];
  for (int s = 0; s < 2; s++) {
    double dvs = s ? dv : -dv, ps = p;
    for (int it = 0; it < 4; it++)
      ps = equilibrium_p(m, Y, u - 0.5 * (p + ps) * dvs, v + dvs, work);
    p_side[s] = ps;
  }
  free(work);
  return sqrt(-v * v * (p_side[1] - p_side[0]) / (2 * dv));
}

/* "H2:2;O2:1" (the CSV's X field) -> mass fractions */
static void x_field_to_Y(const ChemMech *m, const char *field, double *Y) {
  char spec[256];
  snprintf(spec, sizeof spec, "%s", field);
  for (char *c = spec; *c; c++)
    if (*c == ';') *c = ',';
  chem_test_mass_fractions(m, spec, Y);
}

/* every row of the CSV for one mechanism */
static void check_mech_against_cantera(const char *mech) {
  ChemMech *m = chem_test_load(mech);
  if (!m) {
    skip();
    return;
  }
  char csv[4096], line[512], name[32], X[128];
  snprintf(csv, sizeof csv, "%s/tests/data/chem/cj_reference.csv", HEXDG_SOURCE_DIR);
  FILE *f = fopen(csv, "r");
  if (!f) fprintf(stderr, "%s missing: run tools/chem_cj_reference.py\n", csv);
  assert_non_null(f);
  int ns = m->n_species, rows = 0;
  double *Y1 = malloc(sizeof(double) * (size_t)ns), *Y2 = malloc(sizeof(double) * (size_t)ns);
  double *Y_side = malloc(sizeof(double) * (size_t)ns);
  printf("  %-6s %-18s D_cj/(m/s) rel.err T2/K err/K p2/Pa rel.err | (D-u2)/a_eq-1 a_fr/a_eq "
         "D(x-0.01)/D-1 D(x+0.01)/D-1 ms\n",
         mech, "X");
  while (fgets(line, sizeof line, f)) {
    double T1, p1, D_ref, T2_ref, p2_ref, D, T2, p2;
    if (sscanf(line, "%31[^,],%127[^,],%lf,%lf,%lf,%lf,%lf", name, X, &T1, &p1, &D_ref, &T2_ref,
               &p2_ref) != 7 ||
        strcmp(name, mech))
      continue;
    x_field_to_Y(m, X, Y1);
    double t0 = now_s();
    assert_int_equal(chem_cj_detonation(m, T1, p1, Y1, &D, &T2, &p2, Y2), HX_OK);
    double seconds = now_s() - t0;
    /* sonic condition: D - u2 = D v2/v1 (mass) against the equilibrium and frozen sound speeds */
    double rho1 = p1 * chem_mean_mw(m, Y1, 1) / (CHEM_R * T1);
    double rho2 = p2 * chem_mean_mw(m, Y2, 1) / (CHEM_R * T2), x = rho1 / rho2;
    double a_eq = equilibrium_sound_speed(m, T2, p2, Y2);
    double cp = chem_cp_mass(m, T2, Y2, 1), cv = chem_cv_mass(m, T2, Y2, 1);
    double a_fr = sqrt(cp / cv * p2 / rho2);
    double D_lo, D_hi, T, p;
    assert_int_equal(chem_hugoniot_equilibrium(m, T1, p1, Y1, x - 0.01, &D_lo, &T, &p, Y_side), 0);
    assert_int_equal(chem_hugoniot_equilibrium(m, T1, p1, Y1, x + 0.01, &D_hi, &T, &p, Y_side), 0);
    double dD = D / D_ref - 1, dT = T2 - T2_ref, dp = p2 / p2_ref - 1, sonic = D * x / a_eq - 1;
    printf("  %-6s %-18s %.4f %+.1e %.2f %+.2f %.0f %+.1e | %+.1e %.4f %.1e %.1e %.2f\n", mech, X,
           D, dD, T2, dT, p2, dp, sonic, a_fr / a_eq, D_lo / D - 1, D_hi / D - 1, 1e3 * seconds);
    assert_true(fabs(dD) <= D_TOL);
    assert_true(fabs(dT) <= T_TOL);
    assert_true(fabs(dp) <= P_TOL);
    assert_true(fabs(sonic) <= SONIC_TOL);
    assert_true(a_fr > a_eq * (1 + 10 * SONIC_TOL)); /* the test tells the two speeds apart */
    assert_true(D_lo > D && D_hi > D);
    rows++;
  }
  assert_int_equal(rows, 3);
  fclose(f);
  free(Y1);
  free(Y2);
  free(Y_side);
  chem_mech_free(m);
}

static void test_burke_vs_cantera(void **state) {
  (void)state;
  check_mech_against_cantera("burke");
}

static void test_h2o2_vs_cantera(void **state) {
  (void)state;
  check_mech_against_cantera("h2o2");
}

/* an inert gas: D falls toward the sound speed as v2/v1 -> 1, so no minimum inside; bad input */
static void test_rejects_inert_and_bad_input(void **state) {
  (void)state;
  ChemMech *m = chem_test_load("h2o2");
  if (!m) {
    skip();
    return;
  }
  double *Y1 = malloc(sizeof(double) * (size_t)m->n_species);
  double *Y2 = malloc(sizeof(double) * (size_t)m->n_species), D = -1, T2 = -1, p2 = -1;
  chem_test_mass_fractions(m, "N2:1", Y1);
  assert_int_not_equal(chem_cj_detonation(m, 300, CHEM_P_ATM, Y1, &D, &T2, &p2, Y2), HX_OK);
  assert_true(D == -1 && T2 == -1 && p2 == -1);
  chem_test_mass_fractions(m, CHEM_TEST_X_H2_AIR, Y1);
  assert_int_not_equal(chem_cj_detonation(m, -300, CHEM_P_ATM, Y1, &D, &T2, &p2, Y2), HX_OK);
  assert_int_not_equal(chem_hugoniot_equilibrium(m, 300, CHEM_P_ATM, Y1, 1.2, &D, &T2, &p2, Y2),
                       HX_OK);
  free(Y1);
  free(Y2);
  chem_mech_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_burke_vs_cantera),
      cmocka_unit_test(test_h2o2_vs_cantera),
      cmocka_unit_test(test_rejects_inert_and_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
