/* HLLEM (Einfeldt, Munz, Roe & Sjogreen 1991): the properties that set it apart from HLLE.
 * Consistency, conservation and rotational invariance are checked with every solver in
 * test_physics.c. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../test_rng.h"
#include "physics/eos.h"
#include "physics/euler.h"
#include "physics/riemann.h"

static PhysParams gas(void) {
  PhysParams pp = {0};
  physparams_set(&pp, 1.4, 287.058);
  return pp;
}

static void cons_of(const PhysParams *pp, double rho, double u, double v, double w, double p,
                    double *U) {
  double prim[HX_NPRIM] = {rho, u, v, w, p, 0.0};
  prim_set_temperature(pp, prim);
  prim_to_cons(pp, prim, U);
}

static double max_diff(const double *a, const double *b) {
  double d = 0.0;
  for (int v = 0; v < HX_NVAR; v++)
    d = fmax(d, fabs(a[v] - b[v]));
  return d;
}

static const double e_n[3] = {1.0, 0.0, 0.0}, e_t1[3] = {0.0, 1.0, 0.0}, e_t2[3] = {0.0, 0.0, 1.0};

/* A stationary contact (u = 0, equal pressure, density jump) with a shear jump in the tangential
 * velocity: the exact flux is (0, p n, 0) -- HLLEM returns it, HLLE adds dissipation. */
static void test_stationary_contact(void **state) {
  (void)state;
  const PhysParams pp = gas();
  const double rhos[][2] = {{1.0, 0.125}, {2.0, 1.5}, {0.3, 1.7}, {1.0, 10.0}};
  for (int c = 0; c < 4; c++) {
    double UL[HX_NVAR], UR[HX_NVAR], F[HX_NVAR], Fe[HX_NVAR];
    const double p = 0.7;
    cons_of(&pp, rhos[c][0], 0.0, 0.3, -0.2, p, UL);
    cons_of(&pp, rhos[c][1], 0.0, -0.4, 0.5, p, UR);
    const double F_exact[HX_NVAR] = {0.0, p, 0.0, 0.0, 0.0};
    riemann_flux(RIEMANN_HLLEM, SPLIT_NONE, &pp, UL, UR, e_n, e_t1, e_t2, F);
    riemann_flux(RIEMANN_HLLE, SPLIT_NONE, &pp, UL, UR, e_n, e_t1, e_t2, Fe);
    print_message("contact rho %g | %g: HLLEM error %.3e, HLLE error %.3e\n", rhos[c][0],
                  rhos[c][1], max_diff(F, F_exact), max_diff(Fe, F_exact));
    assert_true(max_diff(F, F_exact) < 1e-14);
    assert_true(max_diff(Fe, F_exact) > 1e-3); /* HLLE smears it */
  }
}

/* Where the left and right states differ only in a way that the contact and shear waves do not
 * carry (alpha_2 = alpha_3 = alpha_4 = 0: rho and p jump along an isentrope through a pure
 * acoustic jump, no tangential velocity jump) HLLEM equals HLLE. */
static void test_equals_hlle_without_contact(void **state) {
  (void)state;
  const PhysParams pp = gas();
  Rng rng = {4242};
  for (int s = 0; s < 200; s++) {
    const double rhoL = rng_uniform(&rng, 0.5, 2.0), pL = rng_uniform(&rng, 0.5, 2.0);
    const double u = rng_uniform(&rng, -0.5, 0.5), v = rng_uniform(&rng, -1, 1);
    const double w = rng_uniform(&rng, -1, 1);
    /* the right state by the 1-D Roe matrix's acoustic eigenvector: choose rhoR, then pR with
     * pR - pL = c~^2 (rhoR - rhoL) by a fixed-point iteration on the Roe average */
    const double rhoR = rhoL * rng_uniform(&rng, 0.8, 1.25);
    double pR = pL, UL[HX_NVAR], UR[HX_NVAR];
    cons_of(&pp, rhoL, u, v, w, pL, UL);
    for (int it = 0; it < 200; it++) {
      cons_of(&pp, rhoR, u, v, w, pR, UR);
      RiemannState L, R;
      riemann_rotate_state(&pp, UL, e_n, e_t1, e_t2, &L);
      riemann_rotate_state(&pp, UR, e_n, e_t1, e_t2, &R);
      const RoeAverage roe = riemann_roe_average(&pp, &L, &R);
      pR = pL + roe.c * roe.c * (rhoR - rhoL);
    }
    cons_of(&pp, rhoR, u, v, w, pR, UR);
    double F[HX_NVAR], Fe[HX_NVAR];
    riemann_flux(RIEMANN_HLLEM, SPLIT_NONE, &pp, UL, UR, e_n, e_t1, e_t2, F);
    riemann_flux(RIEMANN_HLLE, SPLIT_NONE, &pp, UL, UR, e_n, e_t1, e_t2, Fe);
    assert_true(max_diff(F, Fe) < 1e-12);
  }
}

/* Supersonic states: both solvers take the upwind flux. */
static void test_supersonic_upwind(void **state) {
  (void)state;
  const PhysParams pp = gas();
  double UL[HX_NVAR], UR[HX_NVAR], pL[HX_NPRIM], F[HX_NVAR], FL[HX_NVAR];
  cons_of(&pp, 1.0, 5.0, 0.1, 0.0, 1.0, UL);
  cons_of(&pp, 0.5, 4.0, -0.3, 0.2, 0.8, UR);
  cons_to_prim(&pp, UL, pL);
  euler_flux_normal(UL, pL, e_n, FL);
  riemann_flux(RIEMANN_HLLEM, SPLIT_NONE, &pp, UL, UR, e_n, e_t1, e_t2, F);
  assert_true(max_diff(F, FL) < 1e-13);
}

/* A contact moving with u > 0 (subsonic): the exact flux is the upwind (left) state's; with
 * delta = c~ / (c~ + |u~|) HLLEM's anti-diffusion cancels the HLL dissipation of the contact
 * exactly (Einfeldt et al. 1991), HLLE's does not. */
static void test_moving_contact_between(void **state) {
  (void)state;
  const PhysParams pp = gas();
  double UL[HX_NVAR], UR[HX_NVAR], F[HX_NVAR], Fe[HX_NVAR];
  const double u = 0.4, p = 1.0;
  cons_of(&pp, 1.0, u, 0.0, 0.0, p, UL);
  cons_of(&pp, 0.3, u, 0.0, 0.0, p, UR);
  /* exact: upwind (left) state's flux */
  double pL[HX_NPRIM], FL[HX_NVAR];
  cons_to_prim(&pp, UL, pL);
  euler_flux_normal(UL, pL, e_n, FL);
  riemann_flux(RIEMANN_HLLEM, SPLIT_NONE, &pp, UL, UR, e_n, e_t1, e_t2, F);
  riemann_flux(RIEMANN_HLLE, SPLIT_NONE, &pp, UL, UR, e_n, e_t1, e_t2, Fe);
  const double err_m = fabs(F[DENS] - FL[DENS]), err_e = fabs(Fe[DENS] - FL[DENS]);
  print_message("moving contact: HLLEM mass-flux error %.3e, HLLE %.3e\n", err_m, err_e);
  assert_true(err_m < 1e-13);
  assert_true(err_e > 1e-3);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_stationary_contact),
      cmocka_unit_test(test_equals_hlle_without_contact),
      cmocka_unit_test(test_supersonic_upwind),
      cmocka_unit_test(test_moving_contact_between),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
