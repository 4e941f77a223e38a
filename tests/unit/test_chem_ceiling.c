/* The thermodynamics above the polynomials' ceiling T_hi (ChemMech.nasa_ext): Cantera's h2o2
 * mechanism, whose O2 fit (to 3500 K) extrapolates to cp/R = 1 at 6260 K. Below T_hi every
 * property is the fit's (extrapolated as Cantera does), above it each species keeps cp(T_hi):
 * cp, h and s are continuous at T_hi, e(T) increases to CHEM_T_HIGH, and a shock-heated state
 * above T_hi (a triple-point collision in the H2-O2-Ar detonation reached one) gets its
 * temperature and pressure back from its conservative variables instead of being rejected. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "chem/mech.h"
#include "chem/thermo.h"
#include "chem_paths.h"
#include "core/error.h"
#include "physics/mixture.h"

static ChemMech *h2o2_or_skip(void) {
  char path[4096];
  chem_test_mech_path("h2o2", path, sizeof path);
  if (!chem_test_have(path)) return NULL;
  ChemMech *m = NULL;
  assert_int_equal(chem_mech_load(path, NULL, &m), HX_OK);
  return m;
}

static void assert_rel(double got, double want, double tol, const char *what) {
  if (!(fabs(got - want) <= tol * fabs(want)))
    fail_msg("%s: got %.17g, want %.17g (tol %g)", what, got, want, tol);
}

/* The ceiling is where a fit fails, and the continuation joins the fit there. */
static void test_ceiling_and_continuity(void **state) {
  (void)state;
  ChemMech *m = h2o2_or_skip();
  if (!m) skip();
  const int o2 = chem_species_index(m, "O2");
  const double T = m->T_hi;
  /* O2's extrapolated cp/R reaches 1 within 10 K above the ceiling, not below it */
  assert_true(T > 6000.0 && T < CHEM_T_HIGH);
  assert_true(chem_nasa_cp_R(chem_nasa_poly_coeffs(m, o2, T), T) > 1.0 + 1e-6);
  assert_true(chem_nasa_cp_R(chem_nasa_poly_coeffs(m, o2, T + 10.0), T + 10.0) <= 1.0 + 1e-6);
  for (int k = 0; k < m->n_species; k++) {
    const double *a = chem_nasa_poly_coeffs(m, k, T), *x = m->nasa_ext + 7 * k;
    assert_rel(chem_nasa_cp_R(x, T), chem_nasa_cp_R(a, T), 1e-14, "cp/R at T_hi");
    assert_rel(chem_nasa_h_RT(x, T, 1.0 / T), chem_nasa_h_RT(a, T, 1.0 / T), 1e-13, "h/RT at T_hi");
    assert_rel(chem_nasa_s_R(x, T, log(T)), chem_nasa_s_R(a, T, log(T)), 1e-13, "s/R at T_hi");
    /* above: cp constant, dh/dT = cp (h(T2) - h(T1) = cp (T2 - T1)) */
    const double T1 = 7000.0, T2 = 9000.0, cp = chem_cp_R(m, k, T1);
    assert_true(chem_cp_R(m, k, T2) == cp);
    assert_rel(chem_h_RT(m, k, T2) * T2 - chem_h_RT(m, k, T1) * T1, cp * (T2 - T1), 1e-11,
               "h(9000 K) - h(7000 K)");
    /* below: exactly the fit */
    for (double t = 300.0; t < T; t += 977.0)
      assert_true(chem_cp_R(m, k, t) == chem_nasa_cp_R(chem_nasa_poly_coeffs(m, k, t), t));
  }
  chem_mech_free(m);
}

/* The burnt H2:O2:Ar = 2:1:7 mixture and pure O2 (the species whose fit fails): e(T) increases
 * from T_hi - 1000 K to CHEM_T_HIGH, in the per-species sums and in the mixture coefficients of
 * the flow solver's Newton iteration alike. */
static void test_energy_increases(void **state) {
  (void)state;
  ChemMech *m = h2o2_or_skip();
  if (!m) skip();
  double X[2][HX_MAX_SPECIES] = {{0}}, Y[HX_MAX_SPECIES];
  X[0][chem_species_index(m, "H2O")] = 0.2, X[0][chem_species_index(m, "AR")] = 0.7;
  X[0][chem_species_index(m, "OH")] = 0.05, X[0][chem_species_index(m, "O2")] = 0.05;
  X[1][chem_species_index(m, "O2")] = 1.0;
  for (int c = 0; c < 2; c++) {
    chem_mole_to_mass(m, X[c], 1, Y, 1);
    double prev = -HUGE_VAL;
    for (double T = m->T_hi - 1000.0; T <= CHEM_T_HIGH; T += 25.0) {
      const double e = chem_u_mass(m, T, Y, 1);
      ChemMixNasa mn;
      chem_mix_nasa_n(m, m->n_species, Y, 1, T, &mn);
      const double e_mix = chem_mix_h_mass(&mn, T) - CHEM_R * mn.inv_W * T;
      assert_rel(e_mix, e, 1e-12, "mixture coefficients against species sums");
      if (!(e > prev)) fail_msg("composition %d: e(%g K) = %g <= e(%g K) = %g", c, T, e, T - 25, prev);
      prev = e;
    }
  }
  chem_mech_free(m);
}

/* U of a state at T (6000 .. 9500 K) back to T and p, from several first guesses: the flow
 * solver's mix_cons_to_prim and the reactors' chem_T_from_u. Before the continuation every
 * state above T_hi failed here (p = -1: the run stopped as non-physical). */
static void test_round_trip_above_ceiling(void **state) {
  (void)state;
  ChemMech *m = h2o2_or_skip();
  if (!m) skip();
  double X[HX_MAX_SPECIES] = {0}, Y[HX_MAX_SPECIES], Y_out[HX_MAX_SPECIES];
  X[chem_species_index(m, "H2O")] = 0.2, X[chem_species_index(m, "AR")] = 0.7;
  X[chem_species_index(m, "OH")] = 0.05, X[chem_species_index(m, "O2")] = 0.05;
  chem_mole_to_mass(m, X, 1, Y, 1);
  const double W = chem_mean_mw(m, Y, 1), vel[3] = {1500.0, -300.0, 0.0};
  const double temps[] = {6000.0, m->T_hi - 1e-3, m->T_hi, 6400.0, 7500.0, 9500.0};
  const double guesses[] = {0.0, 2500.0, 6200.0, 9000.0};
  for (size_t i = 0; i < sizeof temps / sizeof *temps; i++)
    for (size_t g = 0; g < sizeof guesses / sizeof *guesses; g++) {
      const double T = temps[i], p = 3e5, rho = p * W / (CHEM_R * T);
      double U[HX_NVAR_MAX], prim[HX_NPRIM], c;
      mix_prim_to_cons(m, rho, vel, T, Y, U);
      prim[TEMP] = guesses[g];
      if (mix_cons_to_prim(m, U, prim, Y_out, &c) != 0)
        fail_msg("no temperature for T = %g K (guess %g K)", T, guesses[g]);
      assert_rel(prim[TEMP], T, 1e-12, "T from U");
      assert_rel(prim[PRES], p, 1e-12, "p from U");
      assert_true(c > 0.0);
      double Tu = guesses[g];
      assert_int_equal(chem_T_from_u(m, Y, 1, chem_u_mass(m, T, Y, 1), &Tu), 0);
      assert_rel(Tu, T, 1e-12, "chem_T_from_u");
    }
  /* beyond CHEM_T_HIGH the state is still refused */
  double U[HX_NVAR_MAX], prim[HX_NPRIM], c;
  mix_prim_to_cons(m, 0.1, vel, 1.2 * CHEM_T_HIGH, Y, U);
  prim[TEMP] = 0.0;
  assert_int_equal(mix_cons_to_prim(m, U, prim, Y_out, &c), 1);
  assert_true(prim[PRES] == -1.0);
  chem_mech_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ceiling_and_continuity),
      cmocka_unit_test(test_energy_increases),
      cmocka_unit_test(test_round_trip_above_ceiling),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
