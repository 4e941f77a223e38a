/* The ZND structure (src/chem/znd.c) of the 2-D detonation's mixture, H2:O2:Ar 2:1:7 at 298 K
 * and 6.67 kPa (Cantera's h2o2 mechanism; skipped without it):
 *  - the von Neumann state closes the Rankine-Hugoniot conditions (mass, momentum, energy and the
 *    state equation) to round-off;
 *  - energy is conserved along the profile (the ODEs carry only mass and momentum);
 *  - an overdriven wave (1.1 D_cj) ends where its Rayleigh line crosses the equilibrium Hugoniot
 *    (chem_hugoniot_equilibrium, the equilibrium solver: an independent path to the same state);
 *  - at D_cj the profile approaches the CJ state (chem_cj_detonation);
 *  - the half-reaction length is within 20 % of the 1.4 mm the literature gives for this mixture
 *    with another mechanism (Deiterding 2011, J. Combust. 738969; Oran et al. 1998); hexdg's own
 *    value is printed. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "chem/cj.h"
#include "chem/znd.h"
#include "chem_test_util.h"

#define T1 298.0
#define P1 6670.0
#define X1 "H2:2,O2:1,AR:7"

static void test_von_neumann_closes_the_jump_conditions(void **state) {
  (void)state;
  ChemMech *m = chem_test_load("h2o2");
  if (!m) {
    skip();
    return;
  }
  double *Y = malloc(sizeof(double) * m->n_species);
  chem_test_mass_fractions(m, X1, Y);
  const double D = 1700.0, W = chem_mean_mw(m, Y, 1), rho1 = P1 * W / (CHEM_R * T1);
  double T2, p2, rho2, w2;
  assert_int_equal(chem_frozen_shock(m, T1, P1, Y, D, &T2, &p2, &rho2, &w2), HX_OK);
  const double mass = rho2 * w2 / (rho1 * D) - 1;
  const double momentum = (p2 + rho2 * w2 * w2) / (P1 + rho1 * D * D) - 1;
  const double energy = (chem_h_mass(m, T2, Y, 1) + 0.5 * w2 * w2 - chem_h_mass(m, T1, Y, 1) -
                         0.5 * D * D) / (0.5 * D * D);
  const double eos = p2 / (rho2 * CHEM_R * T2 / W) - 1;
  printf("  von Neumann at %g m/s: T %.2f K, p/p1 %.3f, rho2/rho1 %.4f; residuals %.1e %.1e %.1e "
         "%.1e\n", D, T2, p2 / P1, rho2 / rho1, mass, momentum, energy, eos);
  assert_true(fabs(mass) < 1e-12 && fabs(momentum) < 1e-12);
  assert_true(fabs(energy) < 1e-9 && fabs(eos) < 1e-9);
  assert_true(w2 < D && p2 > 10 * P1); /* the strong root, not the trivial one */
  /* a weak shock, 0.5 % above the frozen sound speed: the root near v2/v1 = 1 is found too, with
   * the ideal-gas pressure ratio of Mach 1.005 to within the heat capacity's change over it */
  const double cp = chem_cp_mass(m, T1, Y, 1), gam = cp / (cp - CHEM_R / W);
  const double c1 = sqrt(gam * P1 / rho1), Dw = 1.005 * c1;
  assert_int_equal(chem_frozen_shock(m, T1, P1, Y, Dw, &T2, &p2, &rho2, &w2), HX_OK);
  const double ratio = 1 + 2 * gam / (gam + 1) * (1.005 * 1.005 - 1); /* normal shock, p2/p1 */
  printf("  weak shock, Mach 1.005: p2/p1 %.6f (calorically perfect %.6f), v2/v1 %.5f\n", p2 / P1,
         ratio, w2 / Dw);
  assert_true(fabs(p2 / P1 - ratio) < 1e-3 * ratio && w2 < Dw);
  free(Y);
  chem_mech_free(m);
}

/* the volume ratio where the equilibrium Hugoniot's Rayleigh line has speed D, strong branch
 * (v2/v1 below the CJ point's, where D falls as v2/v1 grows) */
static double strong_point(const ChemMech *m, const double *Y, double D, double *T2, double *p2) {
  double *Y2 = malloc(sizeof(double) * m->n_species), lo = 0.2, hi = 0.7, Dx = 0;
  for (int it = 0; it < 60; it++) {
    double x = 0.5 * (lo + hi);
    assert_int_equal(chem_hugoniot_equilibrium(m, T1, P1, Y, x, &Dx, T2, p2, Y2), HX_OK);
    if (Dx > D)
      lo = x;
    else
      hi = x;
  }
  free(Y2);
  return 0.5 * (lo + hi);
}

/* The mixture (mass fractions in *Y, allocated) and its CJ detonation; without h2o2 the test is
 * skipped (cmocka's skip() leaves the test from here). */
static ChemMech *load_mixture_cj(double **Y, double *D_cj, double *T_cj, double *p_cj) {
  ChemMech *m = chem_test_load("h2o2");
  if (!m) skip();
  double *Y2 = malloc(sizeof(double) * m->n_species);
  *Y = malloc(sizeof(double) * m->n_species);
  chem_test_mass_fractions(m, X1, *Y);
  assert_int_equal(chem_cj_detonation(m, T1, P1, *Y, D_cj, T_cj, p_cj, Y2), HX_OK);
  free(Y2);
  return m;
}

static void test_overdriven_ends_on_the_equilibrium_hugoniot(void **state) {
  (void)state;
  double *Y, D_cj, T_cj, p_cj;
  ChemMech *m = load_mixture_cj(&Y, &D_cj, &T_cj, &p_cj);
  const double D = 1.1 * D_cj;
  ZndProfile z;
  assert_int_equal(chem_znd(m, T1, P1, Y, D, 1.0, &z), HX_OK);
  double T_eq, p_eq;
  const double x = strong_point(m, Y, D, &T_eq, &p_eq);
  const long e = z.n - 1;
  printf("  1.1 D_cj = %.2f m/s: ZND end T %.3f K p %.6e Pa (x %.3g m, end %d); equilibrium "
         "Hugoniot (v2/v1 %.4f) T %.3f K p %.6e Pa; energy error %.1e\n", D, z.T[e], z.p[e],
         z.x[e], z.end, x, T_eq, p_eq, z.energy_error);
  assert_int_equal(z.end, 0); /* the reactions are done before the sonic point */
  assert_true(fabs(z.T[e] - T_eq) < 1e-5 * T_eq);
  assert_true(fabs(z.p[e] - p_eq) < 1e-5 * p_eq);
  assert_true(z.energy_error < 1e-9);
  for (long i = 0; i < z.n; i += 97) { /* mass fractions sum to one along the way */
    double s = 0;
    for (int k = 0; k < m->n_species; k++) s += z.Y[(size_t)i * z.ns + k];
    assert_true(fabs(s - 1) < 1e-10);
  }
  chem_znd_free(&z);
  free(Y);
  chem_mech_free(m);
}

static void test_cj_profile_and_its_lengths(void **state) {
  (void)state;
  double *Y, D_cj, T_cj, p_cj;
  ChemMech *m = load_mixture_cj(&Y, &D_cj, &T_cj, &p_cj);
  ZndProfile z;
  assert_int_equal(chem_znd(m, T1, P1, Y, D_cj, 1.0, &z), HX_OK);
  const long e = z.n - 1;
  printf("  D_cj %.3f m/s: von Neumann %.2f K %.4e Pa; induction length %.4f mm, half-reaction "
         "length %.4f mm; at x = %.3g m T %.2f K (CJ %.2f) p %.5e Pa (CJ %.5e)\n", D_cj, z.T[0],
         z.p[0], 1e3 * z.x_induction, 1e3 * z.x_half, z.x[e], z.T[e], T_cj, z.p[e], p_cj);
  assert_true(fabs(z.T[e] - T_cj) < 5e-3 * T_cj); /* the slow approach to the sonic CJ point */
  assert_true(fabs(z.p[e] - p_cj) < 5e-2 * p_cj);
  assert_true(z.energy_error < 1e-9);
  assert_true(fabs(z.x_half - 1.4e-3) < 0.2 * 1.4e-3);
  assert_true(z.x_induction > 0 && z.x_induction < 2 * z.x_half);
  chem_znd_free(&z);
  free(Y);
  chem_mech_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_von_neumann_closes_the_jump_conditions),
      cmocka_unit_test(test_overdriven_ends_on_the_equilibrium_hugoniot),
      cmocka_unit_test(test_cj_profile_and_its_lengths),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
