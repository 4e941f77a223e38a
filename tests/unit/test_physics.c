/* Pointwise Euler physics: EOS, split fluxes, Riemann solvers, exact functions.
 * Properties checked on random admissible states and random unit normals. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../test_rng.h"
#include "physics/eos.h"
#include "physics/euler.h"
#include "physics/exactfunc.h"
#include "physics/riemann.h"
#include "physics/splitflux.h"

#define N_SAMPLES 200

static const int all_splits[] = {SPLIT_SD, SPLIT_MO, SPLIT_DU, SPLIT_KG, SPLIT_PI, SPLIT_CH};
#define N_SPLITS 6
static const int all_solvers[] = {
    RIEMANN_LF,  RIEMANN_HLLC, RIEMANN_ROE, RIEMANN_ROEL2, RIEMANN_ROE_ENTROPYFIX,
    RIEMANN_HLL, RIEMANN_HLLE, RIEMANN_HLLEM, RIEMANN_CH};
#define N_SOLVERS 9

static PhysParams gas(void) {
  PhysParams pp = {0}; /* mu0 = 0: Euler */
  physparams_set(&pp, 1.4, 287.058);
  return pp;
}

/* rho in [0.5, 2], |u_i| <= vmax, p in [0.5, 2] */
static void random_prim(Rng *rng, const PhysParams *pp, double vmax, double *prim) {
  prim[PDENS] = rng_uniform(rng, 0.5, 2.0);
  for (int k = 0; k < 3; k++)
    prim[VEL1 + k] = rng_uniform(rng, -vmax, vmax);
  prim[PRES] = rng_uniform(rng, 0.5, 2.0);
  prim_set_temperature(pp, prim);
}

static void random_state(Rng *rng, const PhysParams *pp, double *U, double *prim) {
  random_prim(rng, pp, 1.5, prim);
  prim_to_cons(pp, prim, U);
}

static double dot3(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double *a, const double *b, double *c) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static void random_unit(Rng *rng, double *n) {
  double len2;
  do {
    for (int k = 0; k < 3; k++)
      n[k] = rng_uniform(rng, -1.0, 1.0);
    len2 = dot3(n, n);
  } while (len2 < 0.01 || len2 > 1.0);
  for (int k = 0; k < 3; k++)
    n[k] /= sqrt(len2);
}

/* Random unit normal n and tangents t1, t2 completing an orthonormal right-handed frame. */
static void random_frame(Rng *rng, double *n, double *t1, double *t2) {
  double a[3];
  random_unit(rng, n);
  random_unit(rng, a);
  cross3(n, a, t1);
  const double len = sqrt(dot3(t1, t1));
  for (int k = 0; k < 3; k++)
    t1[k] /= len;
  cross3(n, t1, t2);
}

static double max_abs(const double *a, int n) {
  double m = 0.0;
  for (int i = 0; i < n; i++)
    m = fmax(m, fabs(a[i]));
  return m;
}

/* |a - b| <= tol * max(1, |b|) componentwise, with a readable failure message */
static void assert_close(const double *a, const double *b, int n, double tol, const char *what) {
  const double scale = fmax(1.0, max_abs(b, n));
  for (int i = 0; i < n; i++) {
    if (!(fabs(a[i] - b[i]) <= tol * scale)) {
      print_error("%s: component %d: %.17g vs %.17g (tol %g)\n", what, i, a[i], b[i], tol * scale);
      fail();
    }
  }
}

static void flux_of(const PhysParams *pp, const double *U, const double *n, double *F) {
  double prim[HX_NPRIM];
  cons_to_prim(pp, U, prim);
  euler_flux_normal(U, prim, n, F);
}

/* ---------------------------------------------------------------- EOS */

static void test_cons_prim_roundtrip(void **state) {
  (void)state;
  const PhysParams pp = gas();
  Rng rng = {12345};
  for (int s = 0; s < N_SAMPLES; s++) {
    double prim[HX_NPRIM], U[HX_NVAR], prim2[HX_NPRIM], U2[HX_NVAR];
    random_prim(&rng, &pp, 3.0, prim);
    prim_to_cons(&pp, prim, U);
    cons_to_prim(&pp, U, prim2);
    assert_close(prim2, prim, HX_NPRIM - 1, 1e-14, "prim -> cons -> prim");
    assert_true(fabs(prim2[TEMP] - prim[PRES] / (prim[PDENS] * pp.R)) <= 1e-14 * prim2[TEMP]);
    prim_to_cons(&pp, prim2, U2);
    assert_close(U2, U, HX_NVAR, 1e-14, "cons -> prim -> cons");
    /* rho E = p/(kappa-1) + rho |u|^2 / 2 and c^2 = kappa p / rho */
    const double c = speed_of_sound(&pp, prim2);
    assert_true(fabs(c * c - 1.4 * prim[PRES] / prim[PDENS]) <= 1e-14 * c * c);
  }
}

/* ---------------------------------------------------------------- split fluxes */

static void test_split_consistency(void **state) {
  (void)state;
  const PhysParams pp = gas();
  Rng rng = {777};
  for (int s = 0; s < N_SAMPLES; s++) {
    double U[HX_NVAR], prim[HX_NPRIM], m[3], F_exact[HX_NVAR], F[HX_NVAR];
    random_state(&rng, &pp, U, prim);
    for (int k = 0; k < 3; k++)
      m[k] = rng_uniform(&rng, -2.0, 2.0); /* metric: not unit */
    euler_flux_normal(U, prim, m, F_exact);
    for (int i = 0; i < N_SPLITS; i++) {
      split_volume_flux(all_splits[i], &pp, U, prim, U, prim, m, m, F);
      assert_close(F, F_exact, HX_NVAR, 1e-13, "split volume flux consistency");
      split_surface_flux(all_splits[i], &pp, U, prim, U, prim, m, F);
      assert_close(F, F_exact, HX_NVAR, 1e-13, "split surface flux consistency");
    }
  }
}

static void test_split_symmetry(void **state) {
  (void)state;
  const PhysParams pp = gas();
  Rng rng = {4242};
  for (int s = 0; s < N_SAMPLES; s++) {
    double UL[HX_NVAR], UR[HX_NVAR], pL[HX_NPRIM], pR[HX_NPRIM], mL[3], mR[3];
    random_state(&rng, &pp, UL, pL);
    random_state(&rng, &pp, UR, pR);
    for (int k = 0; k < 3; k++) {
      mL[k] = rng_uniform(&rng, -2.0, 2.0);
      mR[k] = rng_uniform(&rng, -2.0, 2.0);
    }
    for (int i = 0; i < N_SPLITS; i++) {
      double F1[HX_NVAR], F2[HX_NVAR];
      split_volume_flux(all_splits[i], &pp, UL, pL, UR, pR, mL, mR, F1);
      split_volume_flux(all_splits[i], &pp, UR, pR, UL, pL, mR, mL, F2);
      assert_close(F1, F2, HX_NVAR, 1e-13, "split volume flux symmetry");
      split_volume_flux(all_splits[i], &pp, UL, pL, UR, pR, mL, mL, F1);
      split_volume_flux(all_splits[i], &pp, UR, pR, UL, pL, mL, mL, F2);
      assert_close(F1, F2, HX_NVAR, 1e-13, "split volume flux symmetry, equal metrics");
      split_surface_flux(all_splits[i], &pp, UL, pL, UR, pR, mL, F1);
      split_surface_flux(all_splits[i], &pp, UR, pR, UL, pL, mL, F2);
      assert_close(F1, F2, HX_NVAR, 1e-13, "split surface flux symmetry");
    }
  }
}

/* Kinetic energy preservation (Jameson 2008, J. Sci. Comput. 34; Gassner et al. 2016): the momentum
 * flux is {u} f_rho + p~ n for MO, KG, PI and CH. The standard-DG and Ducros fluxes are not of this
 * form.
 */
static void test_split_kinetic_energy_form(void **state) {
  (void)state;
  const PhysParams pp = gas();
  const int kep_splits[] = {SPLIT_MO, SPLIT_KG, SPLIT_PI, SPLIT_CH};
  Rng rng = {99};
  int du_violates = 0;
  for (int s = 0; s < N_SAMPLES; s++) {
    double UL[HX_NVAR], UR[HX_NVAR], pL[HX_NPRIM], pR[HX_NPRIM], n[3];
    random_state(&rng, &pp, UL, pL);
    random_state(&rng, &pp, UR, pR);
    random_unit(&rng, n);
    for (int i = 0; i < 5; i++) {
      const int which = i < 4 ? kep_splits[i] : SPLIT_DU;
      double F[HX_NVAR], rest[3], tangential[3];
      split_surface_flux(which, &pp, UL, pL, UR, pR, n, F);
      for (int k = 0; k < 3; k++)
        rest[k] = F[MOM1 + k] - 0.5 * (pL[VEL1 + k] + pR[VEL1 + k]) * F[DENS];
      cross3(rest, n, tangential); /* rest must be parallel to n */
      if (i < 4) {
        assert_true(max_abs(tangential, 3) <= 1e-13 * fmax(1.0, max_abs(F, HX_NVAR)));
      } else if (max_abs(tangential, 3) > 1e-6) {
        du_violates = 1;
      }
    }
  }
  assert_true(du_violates); /* the check can fail */
}

/* Entropy variables v and entropy flux potential psi = rho u.n of S = -rho s/(kappa-1),
 * s = ln(p rho^-kappa) (Tadmor 1987; Chandrashekar 2013 Sec. 3). */
static void entropy_variables(const PhysParams *pp, const double *prim, double *v) {
  const double rho = prim[PDENS], p = prim[PRES];
  const double s = log(p) - pp->kappa * log(rho);
  const double vel2 = prim[VEL1] * prim[VEL1] + prim[VEL2] * prim[VEL2] + prim[VEL3] * prim[VEL3];
  v[0] = (pp->kappa - s) / pp->kappa_m1 - 0.5 * rho * vel2 / p;
  for (int k = 0; k < 3; k++)
    v[1 + k] = rho * prim[VEL1 + k] / p;
  v[4] = -rho / p;
}

/* Tadmor's condition (vR - vL) . F#(UL, UR) = psiR - psiL for Chandrashekar's flux */
static void test_ch_entropy_conservation(void **state) {
  (void)state;
  const PhysParams pp = gas();
  Rng rng = {2024};
  for (int s = 0; s < N_SAMPLES; s++) {
    double UL[HX_NVAR], UR[HX_NVAR], pL[HX_NPRIM], pR[HX_NPRIM], n[3], F[HX_NVAR];
    double vL[HX_NVAR], vR[HX_NVAR];
    random_state(&rng, &pp, UL, pL);
    random_state(&rng, &pp, UR, pR);
    if (s % 4 == 0) { /* nearly equal states exercise the series branch of the log mean */
      for (int v = 0; v < HX_NVAR; v++)
        UR[v] = UL[v] * (1.0 + 1e-3 * rng_uniform(&rng, -1, 1));
      cons_to_prim(&pp, UR, pR);
    }
    random_unit(&rng, n);
    split_surface_flux(SPLIT_CH, &pp, UL, pL, UR, pR, n, F);
    entropy_variables(&pp, pL, vL);
    entropy_variables(&pp, pR, vR);
    double lhs = 0.0, scale = 0.0;
    for (int v = 0; v < HX_NVAR; v++) {
      lhs += (vR[v] - vL[v]) * F[v];
      scale += fabs(vR[v] * F[v]) + fabs(vL[v] * F[v]);
    }
    const double rhs = UR[DENS] * dot3(pR + VEL1, n) - UL[DENS] * dot3(pL + VEL1, n);
    assert_true(fabs(lhs - rhs) <= 1e-12 * scale);
  }
}

static void test_log_mean(void **state) {
  (void)state;
  Rng rng = {5};
  for (int s = 0; s < N_SAMPLES; s++) {
    const double a = rng_uniform(&rng, 0.1, 10.0);
    const double eps = pow(10.0, rng_uniform(&rng, -9.0, 0.0)) * (s % 2 ? 1.0 : -0.5);
    const double b = a * (1.0 + eps);
    /* (b - a) / ln(b/a) in long double */
    const long double ref =
        (long double)a * ((long double)b / a - 1.0L) / log1pl((long double)b / a - 1.0L);
    assert_true(fabsl(log_mean(a, b) - ref) <= 2e-14L * ref);
    assert_true(fabs(log_mean(a, b) - log_mean(b, a)) <= 1e-15 * a);
  }
  assert_true(log_mean(3.0, 3.0) == 3.0);
}

/* ---------------------------------------------------------------- Riemann solvers */

static void test_riemann_consistency(void **state) {
  (void)state;
  const PhysParams pp = gas();
  Rng rng = {31337};
  for (int s = 0; s < N_SAMPLES; s++) {
    double U[HX_NVAR], prim[HX_NPRIM], n[3], t1[3], t2[3], F_exact[HX_NVAR], F[HX_NVAR];
    random_state(&rng, &pp, U, prim);
    random_frame(&rng, n, t1, t2);
    euler_flux_normal(U, prim, n, F_exact);
    for (int i = 0; i < N_SOLVERS; i++) {
      for (int split = SPLIT_NONE; split <= SPLIT_CH; split++) {
        riemann_flux(all_solvers[i], split, &pp, U, U, n, t1, t2, F);
        assert_close(F, F_exact, HX_NVAR, 1e-13, "Riemann consistency");
      }
    }
  }
}

static void test_riemann_conservation(void **state) {
  (void)state;
  const PhysParams pp = gas();
  Rng rng = {8080};
  for (int s = 0; s < N_SAMPLES; s++) {
    double UL[HX_NVAR], UR[HX_NVAR], pL[HX_NPRIM], pR[HX_NPRIM], n[3], t1[3], t2[3];
    random_state(&rng, &pp, UL, pL);
    random_state(&rng, &pp, UR, pR);
    random_frame(&rng, n, t1, t2);
    const double mn[3] = {-n[0], -n[1], -n[2]}, mt1[3] = {-t1[0], -t1[1], -t1[2]};
    for (int i = 0; i < N_SOLVERS; i++) {
      for (int split = SPLIT_NONE; split <= SPLIT_CH; split++) {
        double F1[HX_NVAR], F2[HX_NVAR];
        riemann_flux(all_solvers[i], split, &pp, UL, UR, n, t1, t2, F1);
        riemann_flux(all_solvers[i], split, &pp, UR, UL, mn, mt1, t2, F2);
        for (int v = 0; v < HX_NVAR; v++)
          F2[v] = -F2[v];
        assert_close(F1, F2, HX_NVAR, 1e-12, "Riemann conservation");
      }
    }
  }
}

static void random_rotation(Rng *rng, double Q[3][3]) {
  double a[3], b[3], c[3];
  random_frame(rng, a, b, c);
  for (int k = 0; k < 3; k++) {
    Q[k][0] = a[k];
    Q[k][1] = b[k];
    Q[k][2] = c[k];
  }
}

static void rotate_vec(double Q[3][3], const double *x, double *y) {
  for (int i = 0; i < 3; i++)
    y[i] = Q[i][0] * x[0] + Q[i][1] * x[1] + Q[i][2] * x[2];
}

static void rotate_state(double Q[3][3], const double *U, double *QU) {
  QU[DENS] = U[DENS];
  rotate_vec(Q, U + MOM1, QU + MOM1);
  QU[ENER] = U[ENER];
}

/* F*(QUL, QUR, Qn) = Q F*(UL, UR, n) for a random rotation Q, and independence of the
 * choice of tangents (rotation of t1, t2 about n). */
static void test_riemann_rotational_invariance(void **state) {
  (void)state;
  const PhysParams pp = gas();
  Rng rng = {555};
  for (int s = 0; s < N_SAMPLES; s++) {
    double UL[HX_NVAR], UR[HX_NVAR], pL[HX_NPRIM], pR[HX_NPRIM], n[3], t1[3], t2[3], Q[3][3];
    double QUL[HX_NVAR], QUR[HX_NVAR], Qn[3], Qt1[3], Qt2[3], s1[3], s2[3];
    random_state(&rng, &pp, UL, pL);
    random_state(&rng, &pp, UR, pR);
    random_frame(&rng, n, t1, t2);
    random_rotation(&rng, Q);
    rotate_state(Q, UL, QUL);
    rotate_state(Q, UR, QUR);
    rotate_vec(Q, n, Qn);
    rotate_vec(Q, t1, Qt1);
    rotate_vec(Q, t2, Qt2);
    const double theta = rng_uniform(&rng, 0.0, 2.0 * HX_PI);
    for (int k = 0; k < 3; k++) {
      s1[k] = cos(theta) * t1[k] + sin(theta) * t2[k];
      s2[k] = -sin(theta) * t1[k] + cos(theta) * t2[k];
    }
    for (int i = 0; i < N_SOLVERS; i++) {
      for (int split = SPLIT_NONE; split <= SPLIT_CH; split++) {
        double F[HX_NVAR], QF[HX_NVAR], FQ[HX_NVAR], Ft[HX_NVAR];
        riemann_flux(all_solvers[i], split, &pp, UL, UR, n, t1, t2, F);
        riemann_flux(all_solvers[i], split, &pp, QUL, QUR, Qn, Qt1, Qt2, FQ);
        rotate_state(Q, F, QF);
        assert_close(FQ, QF, HX_NVAR, 1e-12, "Riemann rotational invariance");
        riemann_flux(all_solvers[i], split, &pp, UL, UR, n, s1, s2, Ft);
        assert_close(Ft, F, HX_NVAR, 1e-12, "Riemann independence of the tangents");
      }
    }
  }
}

/* When every wave moves to the right (left), the upwind-type solvers return F(UL) (F(UR)):
 * for Roe this is the Roe property sum_k alpha_k lambda_k r_k = F(UR) - F(UL). */
static void test_riemann_supersonic_upwind(void **state) {
  (void)state;
  const PhysParams pp = gas();
  const int solvers[] = {RIEMANN_HLLC,           RIEMANN_ROE, RIEMANN_ROEL2,
                         RIEMANN_ROE_ENTROPYFIX, RIEMANN_HLL, RIEMANN_HLLE};
  Rng rng = {1001};
  for (int s = 0; s < N_SAMPLES; s++) {
    double pL[HX_NPRIM], pR[HX_NPRIM], UL[HX_NVAR], UR[HX_NVAR], n[3], t1[3], t2[3];
    double FL[HX_NVAR], FR[HX_NVAR];
    random_frame(&rng, n, t1, t2);
    random_prim(&rng, &pp, 0.5, pL);
    const double sign = s % 2 ? 1.0 : -1.0;
    for (int k = 0; k < 3; k++)
      pL[VEL1 + k] += sign * 4.0 * n[k]; /* normal Mach number > 1.6 */
    for (int v = 0; v < HX_NPRIM; v++)
      pR[v] = pL[v] * (1.0 + 0.1 * rng_uniform(&rng, -1, 1));
    prim_to_cons(&pp, pL, UL);
    prim_to_cons(&pp, pR, UR);
    flux_of(&pp, UL, n, FL);
    flux_of(&pp, UR, n, FR);
    for (int i = 0; i < 6; i++) {
      double F[HX_NVAR];
      riemann_flux(solvers[i], SPLIT_NONE, &pp, UL, UR, n, t1, t2, F);
      assert_close(F, sign > 0 ? FL : FR, HX_NVAR, 1e-12, "supersonic upwinding");
    }
  }
}

/* A stationary contact with shear (u.n = 0, equal pressure) gives exactly the pressure flux
 * for the solvers that resolve contact and shear waves. */
static void test_riemann_stationary_contact(void **state) {
  (void)state;
  const PhysParams pp = gas();
  const int solvers[] = {RIEMANN_HLLC, RIEMANN_ROE, RIEMANN_ROEL2, RIEMANN_ROE_ENTROPYFIX};
  Rng rng = {77};
  for (int s = 0; s < N_SAMPLES; s++) {
    double pL[HX_NPRIM], pR[HX_NPRIM], UL[HX_NVAR], UR[HX_NVAR], n[3], t1[3], t2[3];
    random_frame(&rng, n, t1, t2);
    random_prim(&rng, &pp, 1.0, pL);
    random_prim(&rng, &pp, 1.0, pR);
    pR[PRES] = pL[PRES];
    const double unL = dot3(pL + VEL1, n), unR = dot3(pR + VEL1, n);
    for (int k = 0; k < 3; k++) {
      pL[VEL1 + k] -= unL * n[k];
      pR[VEL1 + k] -= unR * n[k];
    }
    prim_to_cons(&pp, pL, UL);
    prim_to_cons(&pp, pR, UR);
    const double expected[HX_NVAR] = {0.0, pL[PRES] * n[0], pL[PRES] * n[1], pL[PRES] * n[2], 0.0};
    for (int i = 0; i < 4; i++) {
      double F[HX_NVAR];
      riemann_flux(solvers[i], SPLIT_NONE, &pp, UL, UR, n, t1, t2, F);
      assert_close(F, expected, HX_NVAR, 1e-13, "stationary contact");
    }
  }
}

/* Roe's flux is exact for an isolated shock: F_Roe(post, pre) = F(post) for a shock moving into
 * the pre-shock gas (Roe 1981). States from the moving-shock exact function 10. */
static void test_riemann_roe_shock(void **state) {
  (void)state;
  const PhysParams pp = gas();
  Rng rng = {3};
  ExactFuncParams ef = {0};
  for (int s = 0; s < 50; s++) {
    double pre[3], post[3], UL[HX_NVAR], UR[HX_NVAR], n[3], t1[3], t2[3], F[HX_NVAR];
    double F_post[HX_NVAR], F_pre[HX_NVAR];
    ef.mach_shock = rng_uniform(&rng, 1.0, 5.0);
    ef.pre_shock_dens = rng_uniform(&rng, 0.5, 2.0);
    exact_shock_states(&ef, &pp, pre, post);
    random_frame(&rng, n, t1, t2);
    const double prim_post[HX_NPRIM] = {post[0],        post[1] * n[0], post[1] * n[1],
                                        post[1] * n[2], post[2],        0.0};
    const double prim_pre[HX_NPRIM] = {pre[0], 0.0, 0.0, 0.0, pre[2], 0.0};
    prim_to_cons(&pp, prim_post, UL);
    prim_to_cons(&pp, prim_pre, UR);
    flux_of(&pp, UL, n, F_post);
    flux_of(&pp, UR, n, F_pre);
    /* Rankine-Hugoniot with shock speed Ms (the pre-shock sound speed is 1) */
    for (int v = 0; v < HX_NVAR; v++) {
      const double jump = ef.mach_shock * (UL[v] - UR[v]);
      assert_true(fabs(F_post[v] - F_pre[v] - jump) <= 1e-12 * fmax(1.0, fabs(jump)));
    }
    riemann_flux(RIEMANN_ROE, SPLIT_NONE, &pp, UL, UR, n, t1, t2, F);
    assert_close(F, F_post, HX_NVAR, 1e-12, "Roe flux at an isolated shock");
  }
}

/* Rusanov: central flux minus lambda/2 (UR - UL) with FLEXI's lambda = max|u.n| + max c. */
static void test_riemann_lf_rusanov(void **state) {
  (void)state;
  const PhysParams pp = gas();
  Rng rng = {11};
  for (int s = 0; s < N_SAMPLES; s++) {
    double UL[HX_NVAR], UR[HX_NVAR], pL[HX_NPRIM], pR[HX_NPRIM], n[3], t1[3], t2[3];
    double FL[HX_NVAR], FR[HX_NVAR], F[HX_NVAR], expected[HX_NVAR];
    random_state(&rng, &pp, UL, pL);
    random_state(&rng, &pp, UR, pR);
    random_frame(&rng, n, t1, t2);
    euler_flux_normal(UL, pL, n, FL);
    euler_flux_normal(UR, pR, n, FR);
    const double lambda = fmax(fabs(dot3(pL + VEL1, n)), fabs(dot3(pR + VEL1, n))) +
                          fmax(speed_of_sound(&pp, pL), speed_of_sound(&pp, pR));
    for (int v = 0; v < HX_NVAR; v++)
      expected[v] = 0.5 * (FL[v] + FR[v]) - 0.5 * lambda * (UR[v] - UL[v]);
    riemann_flux(RIEMANN_LF, SPLIT_NONE, &pp, UL, UR, n, t1, t2, F);
    assert_close(F, expected, HX_NVAR, 1e-13, "Rusanov flux");
  }
}

/* HLLC star states: U*_K = U_K + (F*_K - F_K)/s_K must satisfy the Rankine-Hugoniot condition
 * across the contact, F*_R - F*_L = s* (U*_R - U*_L) (Toro 2009, Ch. 10), with equal pressure
 * and normal velocity s* on both sides. */
static void test_hllc_star_states(void **state) {
  (void)state;
  const PhysParams pp = gas();
  Rng rng = {2718};
  int n_checked = 0;
  for (int s = 0; s < N_SAMPLES; s++) {
    double UL[HX_NVAR], UR[HX_NVAR], pL[HX_NPRIM], pR[HX_NPRIM], n[3], t1[3], t2[3];
    double FsL[HX_NVAR], FsR[HX_NVAR], UsL[HX_NVAR], UsR[HX_NVAR];
    RiemannState L, R;
    random_state(&rng, &pp, UL, pL);
    random_state(&rng, &pp, UR, pR);
    random_frame(&rng, n, t1, t2);
    riemann_rotate_state(&pp, UL, n, t1, t2, &L);
    riemann_rotate_state(&pp, UR, n, t1, t2, &R);
    const RoeAverage roe = riemann_roe_average(&pp, &L, &R);
    const double sl = roe.vel[0] - roe.c, sr = roe.vel[0] + roe.c;
    if (!(sl < 0.0 && sr > 0.0)) continue;
    const double mu_l = L.U[DENS] * (sl - L.prim[VEL1]), mu_r = R.U[DENS] * (sr - R.prim[VEL1]);
    const double s_star =
        (R.prim[PRES] - L.prim[PRES] + L.prim[VEL1] * mu_l - R.prim[VEL1] * mu_r) / (mu_l - mu_r);
    riemann_hllc_star(&L, sl, s_star, FsL);
    riemann_hllc_star(&R, sr, s_star, FsR);
    for (int v = 0; v < HX_NVAR; v++) {
      UsL[v] = L.U[v] + (FsL[v] - L.F[v]) / sl;
      UsR[v] = R.U[v] + (FsR[v] - R.F[v]) / sr;
    }
    double jump[HX_NVAR], expected[HX_NVAR];
    for (int v = 0; v < HX_NVAR; v++) {
      jump[v] = FsR[v] - FsL[v];
      expected[v] = s_star * (UsR[v] - UsL[v]);
    }
    assert_close(jump, expected, HX_NVAR, 1e-12, "HLLC Rankine-Hugoniot across the contact");
    assert_true(fabs(UsL[MOM1] / UsL[DENS] - s_star) <= 1e-12 * fmax(1.0, fabs(s_star)));
    assert_true(fabs(UsR[MOM1] / UsR[DENS] - s_star) <= 1e-12 * fmax(1.0, fabs(s_star)));
    n_checked++;
  }
  assert_true(n_checked > N_SAMPLES / 2);
}

/* HLLE takes Einfeldt's signal speeds min(u~ - c~, uL - beta cL) and max(u~ + c~, uR + beta cR),
 * beta = sqrt((kappa-1)/(2 kappa)) (Einfeldt 1988). In the symmetric double rarefaction
 * (Toro 2009, test 2: rho 1, u -/+2, p 0.4) the side estimates are the larger ones, while HLL keeps
 * the Roe speeds -/+c~. */
static void test_hlle_einfeldt_speeds(void **state) {
  (void)state;
  const PhysParams pp = gas();
  const double pL[HX_NPRIM] = {1.0, -2.0, 0.0, 0.0, 0.4, 0.0};
  const double pR[HX_NPRIM] = {1.0, 2.0, 0.0, 0.0, 0.4, 0.0};
  const double n[3] = {1, 0, 0}, t1[3] = {0, 1, 0}, t2[3] = {0, 0, 1};
  double UL[HX_NVAR], UR[HX_NVAR], FL[HX_NVAR], FR[HX_NVAR], F[HX_NVAR], expected[HX_NVAR];
  prim_to_cons(&pp, pL, UL);
  prim_to_cons(&pp, pR, UR);
  flux_of(&pp, UL, n, FL);
  flux_of(&pp, UR, n, FR);
  const double c = sqrt(1.4 * 0.4), beta = sqrt(0.4 / 2.8);
  const double H = (UL[ENER] + 0.4) / 1.0, c_roe = sqrt(0.4 * H); /* Roe velocity is 0 */
  const double speeds[2] = {2.0 + beta * c, c_roe};
  const int solvers[2] = {RIEMANN_HLLE, RIEMANN_HLL};
  for (int i = 0; i < 2; i++) {
    const double sl = -speeds[i], sr = speeds[i];
    for (int v = 0; v < HX_NVAR; v++)
      expected[v] = (sr * FL[v] - sl * FR[v] + sl * sr * (UR[v] - UL[v])) / (sr - sl);
    riemann_flux(solvers[i], SPLIT_NONE, &pp, UL, UR, n, t1, t2, F);
    assert_close(F, expected, HX_NVAR, 1e-14, i == 0 ? "HLLE speeds" : "HLL speeds");
  }
}

/* Tadmor's entropy inequality (vR - vL) . F* <= psiR - psiL for the entropy-stable choices:
 * CH (entropy-conserving flux plus dissipation) and LF on top of the CH two-point flux. */
static void test_riemann_entropy_stable(void **state) {
  (void)state;
  const PhysParams pp = gas();
  Rng rng = {1618};
  for (int s = 0; s < N_SAMPLES; s++) {
    double UL[HX_NVAR], UR[HX_NVAR], pL[HX_NPRIM], pR[HX_NPRIM], n[3], t1[3], t2[3];
    double vL[HX_NVAR], vR[HX_NVAR];
    random_state(&rng, &pp, UL, pL);
    random_state(&rng, &pp, UR, pR);
    random_frame(&rng, n, t1, t2);
    entropy_variables(&pp, pL, vL);
    entropy_variables(&pp, pR, vR);
    const double psi_jump = UR[DENS] * dot3(pR + VEL1, n) - UL[DENS] * dot3(pL + VEL1, n);
    const int solvers[3][2] = {
        {RIEMANN_CH, SPLIT_NONE}, {RIEMANN_CH, SPLIT_CH}, {RIEMANN_LF, SPLIT_CH}};
    for (int i = 0; i < 3; i++) {
      double F[HX_NVAR], production = -psi_jump;
      riemann_flux(solvers[i][0], solvers[i][1], &pp, UL, UR, n, t1, t2, F);
      for (int v = 0; v < HX_NVAR; v++)
        production += (vR[v] - vL[v]) * F[v];
      assert_true(production <= 1e-12);
    }
  }
}

/* The dissipation of CH is Rusanov's, lambda/2 (UR - UL), up to second order in the jump: its
 * energy component is an approximation of d(rho E) in Chandrashekar's averaged variables. */
static void test_ch_dissipation_is_rusanov_to_second_order(void **state) {
  (void)state;
  const PhysParams pp = gas();
  Rng rng = {141};
  for (int s = 0; s < N_SAMPLES; s++) {
    double UL[HX_NVAR], UR[HX_NVAR], pL[HX_NPRIM], pR[HX_NPRIM], n[3], t1[3], t2[3];
    double F_ch[HX_NVAR], F_lf[HX_NVAR];
    const double eps = 1e-4;
    random_state(&rng, &pp, UL, pL);
    for (int v = 0; v < HX_NPRIM; v++)
      pR[v] = pL[v] + eps * rng_uniform(&rng, -1.0, 1.0);
    prim_to_cons(&pp, pR, UR);
    random_frame(&rng, n, t1, t2);
    riemann_flux(RIEMANN_CH, SPLIT_CH, &pp, UL, UR, n, t1, t2, F_ch);
    riemann_flux(RIEMANN_LF, SPLIT_CH, &pp, UL, UR, n, t1, t2, F_lf);
    assert_close(F_ch, F_lf, HX_NVAR, 50.0 * eps * eps, "CH vs LF dissipation");
  }
}

/* ---------------------------------------------------------------- exact functions */

typedef struct {
  const ExactFuncParams *ef;
  const PhysParams *pp;
} ExactCase;

/* R = dU/dt + div F(U) of the exact function at (x, t) by 8th-order central differences. */
static void pde_residual(const ExactCase *ec, const double *x, double t, double h, double *res,
                         double *scale) {
  static const double coef[4] = {4.0 / 5.0, -1.0 / 5.0, 4.0 / 105.0, -1.0 / 280.0};
  double dUdt[HX_NVAR] = {0}, div[HX_NVAR] = {0};
  for (int j = 0; j < 4; j++) {
    double Up[HX_NVAR], Um[HX_NVAR];
    exact_func(ec->ef, ec->pp, x, t + (j + 1) * h, Up);
    exact_func(ec->ef, ec->pp, x, t - (j + 1) * h, Um);
    for (int v = 0; v < HX_NVAR; v++)
      dUdt[v] += coef[j] * (Up[v] - Um[v]) / h;
    for (int d = 0; d < 3; d++) {
      double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]}, e[3] = {0, 0, 0};
      double Fp[HX_NVAR], Fm[HX_NVAR];
      xp[d] += (j + 1) * h;
      xm[d] -= (j + 1) * h;
      e[d] = 1.0;
      exact_func(ec->ef, ec->pp, xp, t, Up);
      exact_func(ec->ef, ec->pp, xm, t, Um);
      flux_of(ec->pp, Up, e, Fp);
      flux_of(ec->pp, Um, e, Fm);
      for (int v = 0; v < HX_NVAR; v++)
        div[v] += coef[j] * (Fp[v] - Fm[v]) / h;
    }
  }
  *scale = 0.0;
  for (int v = 0; v < HX_NVAR; v++) {
    res[v] = dUdt[v] + div[v];
    *scale = fmax(*scale, fmax(fabs(dUdt[v]), fabs(div[v])));
  }
}

static void test_mms_source(void **state) {
  (void)state;
  const PhysParams pp = gas();
  Rng rng = {616};
  ExactFuncParams ef = {0};
  ef.which = EXACT_SINE_MMS;
  assert_true(exact_has_source(EXACT_SINE_MMS));
  for (int s = 0; s < 50; s++) {
    const ExactCase ec = {&ef, &pp};
    double x[3], res[HX_NVAR], S[HX_NVAR], scale;
    ef.amplitude = s == 0 ? 0.1 : rng_uniform(&rng, 0.05, 0.5);
    ef.frequency = s == 0 ? 1.0 : rng_uniform(&rng, 0.5, 2.0);
    for (int k = 0; k < 3; k++) {
      ef.adv_vel[k] = rng_uniform(&rng, -1.0, 1.0);
      x[k] = rng_uniform(&rng, -1.0, 1.0);
    }
    const double t = rng_uniform(&rng, 0.0, 1.0);
    pde_residual(&ec, x, t, 1e-2, res, &scale);
    exact_source(&ef, &pp, x, t, S);
    for (int v = 0; v < HX_NVAR; v++)
      assert_true(fabs(S[v] - res[v]) <= 1e-7 * scale);
    /* the manufactured state itself */
    double U[HX_NVAR];
    exact_func(&ef, &pp, x, t, U);
    const double g = 2.0 + ef.amplitude * sin(HX_PI * ef.frequency * (x[0] + x[1] + x[2]) -
                                              2.0 * HX_PI * ef.adv_vel[0] * t);
    const double expected[HX_NVAR] = {g, g, g, g, g * g};
    assert_close(U, expected, HX_NVAR, 1e-15, "manufactured solution");
  }
}

/* Exact solutions without source: the sine density wave (2) and the isentropic vortex (7). */
static void test_exact_solutions_solve_euler(void **state) {
  (void)state;
  const PhysParams pp = gas();
  Rng rng = {4711};
  ExactFuncParams ef = {0};
  const double ref[HX_NPRIM] = {1.2, 0.7, -0.3, 0.4, 1.5, 0.0};
  for (int v = 0; v < HX_NPRIM; v++)
    ef.ref_prim[0][v] = ref[v];
  ef.n_ref_states = 1;
  ef.halfwidth = 0.2;
  ef.axis[2] = 1.0;
  for (int s = 0; s < 40; s++) {
    const ExactCase ec = {&ef, &pp};
    double x[3], res[HX_NVAR], S[HX_NVAR], scale;
    ef.which = s % 2 ? EXACT_SINE_DENSITY : EXACT_SHU_VORTEX;
    ef.amplitude = ef.which == EXACT_SINE_DENSITY ? 0.3 : 0.2 + rng_uniform(&rng, 0.0, 2.0);
    ef.frequency = 0.5;
    for (int k = 0; k < 3; k++) {
      ef.adv_vel[k] = rng_uniform(&rng, -1.0, 1.0);
      ef.center[k] = rng_uniform(&rng, -0.2, 0.2);
      x[k] = ef.center[k] + rng_uniform(&rng, -0.4, 0.4);
    }
    const double t = rng_uniform(&rng, 0.0, 0.1);
    for (int k = 0; k < 3; k++)
      x[k] += ref[VEL1 + k] * t;
    pde_residual(&ec, x, t, ef.which == EXACT_SHU_VORTEX ? 2e-3 : 1e-2, res, &scale);
    assert_false(exact_has_source(ef.which));
    exact_source(&ef, &pp, x, t, S);
    for (int v = 0; v < HX_NVAR; v++) {
      assert_true(S[v] == 0.0);
      assert_true(fabs(res[v]) <= 1e-7 * scale);
    }
  }
}

/* Case 2: rho = 1 + A sin(2 pi f sum_i (x_i - a_i t)), velocity AdvVel, p = 1 */
static void test_sine_density_wave(void **state) {
  (void)state;
  const PhysParams pp = gas();
  ExactFuncParams ef = {0};
  ef.which = EXACT_SINE_DENSITY;
  ef.amplitude = 0.3;
  ef.frequency = 0.5;
  const double a[3] = {0.3, -0.2, 0.6}, t = 0.7;
  for (int k = 0; k < 3; k++)
    ef.adv_vel[k] = a[k];
  /* sum_i (x_i - a_i t) = 1/(4 f) = 0.5: the crest of the wave */
  const double x[3] = {0.5 + a[0] * t, a[1] * t, a[2] * t};
  double U[HX_NVAR], prim[HX_NPRIM];
  exact_func(&ef, &pp, x, t, U);
  cons_to_prim(&pp, U, prim);
  const double expected[5] = {1.3, a[0], a[1], a[2], 1.0};
  assert_close(prim, expected, 5, 1e-14, "sine density wave crest");
}

static void test_shu_vortex_isentropic(void **state) {
  (void)state;
  const PhysParams pp = gas();
  Rng rng = {8};
  ExactFuncParams ef = {0};
  const double ref[HX_NPRIM] = {1.0, 0.5, 0.25, 0.0, 1.0 / 1.4, 0.0};
  for (int v = 0; v < HX_NPRIM; v++)
    ef.ref_prim[0][v] = ref[v];
  ef.n_ref_states = 1;
  ef.which = EXACT_SHU_VORTEX;
  ef.amplitude = 5.0;
  ef.halfwidth = 1.0;
  ef.axis[2] = 1.0;
  for (int s = 0; s < N_SAMPLES; s++) {
    double x[3], U[HX_NVAR], prim[HX_NPRIM], U0[HX_NVAR];
    for (int k = 0; k < 3; k++)
      x[k] = rng_uniform(&rng, -3.0, 3.0);
    const double t = rng_uniform(&rng, 0.0, 2.0);
    exact_func(&ef, &pp, x, t, U);
    cons_to_prim(&pp, U, prim);
    const double entropy_ref = ref[PRES] / pow(ref[PDENS], pp.kappa);
    assert_true(fabs(prim[PRES] / pow(prim[PDENS], pp.kappa) - entropy_ref) <= 1e-13);
    /* the vortex is advected with the RefState velocity */
    const double x0[3] = {x[0] - ref[VEL1] * t, x[1] - ref[VEL2] * t, x[2] - ref[VEL3] * t};
    exact_func(&ef, &pp, x0, 0.0, U0);
    assert_close(U, U0, HX_NVAR, 1e-13, "vortex advection");
  }
  /* far from the core the RefState is recovered */
  double U[HX_NVAR], U_ref[HX_NVAR];
  const double far[3] = {30.0, -20.0, 0.3};
  exact_func(&ef, &pp, far, 0.0, U);
  prim_to_cons(&pp, ref, U_ref);
  assert_close(U, U_ref, HX_NVAR, 1e-12, "vortex far field");
}

static void test_exact_refstate(void **state) {
  (void)state;
  const PhysParams pp = gas();
  ExactFuncParams ef = {0};
  const double refs[3][5] = {
      {1.0, 0.1, 0.2, 0.3, 0.71}, {2.0, -1.0, 0.0, 0.5, 3.0}, {0.5, 0.0, 2.0, -0.25, 0.2}};
  for (int s = 0; s < 3; s++)
    for (int v = 0; v < 5; v++)
      ef.ref_prim[s][v] = refs[s][v];
  ef.n_ref_states = 3;
  ef.which = EXACT_REFSTATE;
  const double x[3] = {0.3, -2.0, 7.0};
  for (int s = 0; s < 3; s++) {
    double U[HX_NVAR];
    ef.ref_state = s;
    exact_func(&ef, &pp, x, 1.5, U);
    const double vel2 = refs[s][1] * refs[s][1] + refs[s][2] * refs[s][2] + refs[s][3] * refs[s][3];
    const double expected[HX_NVAR] = {refs[s][0], refs[s][0] * refs[s][1], refs[s][0] * refs[s][2],
                                      refs[s][0] * refs[s][3],
                                      refs[s][4] / 0.4 + 0.5 * refs[s][0] * vel2};
    assert_close(U, expected, HX_NVAR, 1e-15, "exact function 1 = RefState");
  }
  /* a RefState index out of range is not silently replaced */
  double U[HX_NVAR];
  ef.ref_state = 3;
  exact_func(&ef, &pp, x, 0.0, U);
  assert_true(isnan(U[DENS]));
}

static void test_sod_states(void **state) {
  (void)state;
  const PhysParams pp = gas();
  ExactFuncParams ef = {0};
  ef.which = EXACT_SOD;
  exact_default_ref_states(&ef, &pp);
  const double left[HX_NVAR] = {1.0, 0.0, 0.0, 0.0, 1.0 / 0.4};
  const double right[HX_NVAR] = {0.125, 0.0, 0.0, 0.0, 0.1 / 0.4};
  const double xs[4] = {0.0, 0.5, 0.5000001, 1.0};
  for (int i = 0; i < 4; i++) {
    double U[HX_NVAR];
    const double x[3] = {xs[i], 0.3, 0.7};
    exact_func(&ef, &pp, x, 0.0, U);
    assert_close(U, i < 2 ? left : right, HX_NVAR, 1e-15, "Sod state");
    if (i == 1 || i == 2) continue; /* at t = 0.2 the waves have not reached x = 0 and 1 */
    exact_func(&ef, &pp, x, 0.2, U);
    assert_close(U, i < 2 ? left : right, HX_NVAR, 1e-15, "Sod state outside the waves");
  }
  /* star region on both sides of the contact: Toro 2009, Table 4.3, test 1 (p* = 0.30313,
   * u* = 0.92745, rho*L = 0.42632, rho*R = 0.26557) */
  const double star_rho[2] = {0.42632, 0.26557};
  for (int side = 0; side < 2; side++) {
    double U[HX_NVAR], prim[HX_NPRIM];
    const double x[3] = {0.5 + 0.92745 * 0.2 + (side ? 0.02 : -0.02), 0.0, 0.0};
    exact_func(&ef, &pp, x, 0.2, U);
    cons_to_prim(&pp, U, prim);
    assert_true(fabs(prim[PDENS] - star_rho[side]) < 1e-5);
    assert_true(fabs(prim[VEL1] - 0.92745) < 1e-5);
    assert_true(fabs(prim[PRES] - 0.30313) < 1e-5);
  }
}

static void test_shock_profile(void **state) {
  (void)state;
  const PhysParams pp = gas();
  ExactFuncParams ef = {0};
  ef.which = EXACT_SHOCK;
  ef.mach_shock = 1.5;
  ef.pre_shock_dens = 1.0;
  double pre[3], post[3], U[HX_NVAR], expected[HX_NVAR];
  exact_shock_states(&ef, &pp, pre, post);
  /* pre-shock gas at rest with sound speed 1 */
  assert_true(fabs(sqrt(pp.kappa * pre[2] / pre[0]) - 1.0) < 1e-15 && pre[1] == 0.0);
  const double t = 0.8, x_shock = 5.0 + 1.5 * t;
  const double x_left[3] = {x_shock - 10.0, 0.0, 0.0}, x_right[3] = {x_shock + 10.0, 0.0, 0.0};
  exact_func(&ef, &pp, x_left, t, U);
  exact_from_prim5(&pp, post[0], post[1], 0.0, 0.0, post[2], expected);
  assert_close(U, expected, HX_NVAR, 1e-14, "post-shock state left of the shock");
  exact_func(&ef, &pp, x_right, t, U);
  exact_from_prim5(&pp, pre[0], 0.0, 0.0, 0.0, pre[2], expected);
  assert_close(U, expected, HX_NVAR, 1e-14, "pre-shock state right of the shock");
  /* the tanh profile is centred at x_s = 5 + Ms t */
  double U_post[HX_NVAR], U_mid[HX_NVAR];
  const double x_mid[3] = {x_shock, 0.0, 0.0};
  exact_func(&ef, &pp, x_left, t, U_post);
  exact_func(&ef, &pp, x_mid, t, U_mid);
  for (int v = 0; v < HX_NVAR; v++)
    expected[v] = 0.5 * (U_post[v] + U[v]);
  assert_close(U_mid, expected, HX_NVAR, 1e-14, "shock position");
}

/* The double Mach reflection states are (to the rounding of the published values) connected by a
 * Mach 10 shock moving with speed 10 along its normal (sqrt(3)/2, -1/2). */
static void test_dmr_states(void **state) {
  (void)state;
  const PhysParams pp = gas();
  ExactFuncParams ef = {0};
  ef.which = EXACT_DMR;
  exact_default_ref_states(&ef, &pp);
  const double t = 0.1, n[3] = {0.86602540378443864676, -0.5, 0.0};
  const double behind[3] = {1.0 / 6.0 + (0.5 + 20.0 * t) / sqrt(3.0) - 0.01, 0.5, 0.0};
  const double ahead[3] = {behind[0] + 0.02, 0.5, 0.0};
  double UL[HX_NVAR], UR[HX_NVAR], FL[HX_NVAR], FR[HX_NVAR];
  exact_func(&ef, &pp, behind, t, UL);
  exact_func(&ef, &pp, ahead, t, UR);
  assert_true(fabs(UL[DENS] - 8.0) < 1e-15 && fabs(UR[DENS] - 1.4) < 1e-15);
  flux_of(&pp, UL, n, FL);
  flux_of(&pp, UR, n, FR);
  for (int v = 0; v < HX_NVAR; v++)
    assert_true(fabs(FL[v] - FR[v] - 10.0 * (UL[v] - UR[v])) <= 2e-3 * fabs(FL[v]) + 1e-12);
  /* inflow x = 0 is post-shock, outflow x = 4 pre-shock, whatever the time */
  const double inflow[3] = {0.0, 0.9, 0.0}, outflow[3] = {4.0, 0.0, 0.0};
  exact_func(&ef, &pp, inflow, 0.0, UL);
  exact_func(&ef, &pp, outflow, 1.0, UR);
  assert_true(UL[DENS] == 8.0 && UR[DENS] == 1.4);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cons_prim_roundtrip),
      cmocka_unit_test(test_split_consistency),
      cmocka_unit_test(test_split_symmetry),
      cmocka_unit_test(test_split_kinetic_energy_form),
      cmocka_unit_test(test_ch_entropy_conservation),
      cmocka_unit_test(test_log_mean),
      cmocka_unit_test(test_riemann_consistency),
      cmocka_unit_test(test_riemann_conservation),
      cmocka_unit_test(test_riemann_rotational_invariance),
      cmocka_unit_test(test_riemann_supersonic_upwind),
      cmocka_unit_test(test_riemann_stationary_contact),
      cmocka_unit_test(test_riemann_roe_shock),
      cmocka_unit_test(test_riemann_lf_rusanov),
      cmocka_unit_test(test_hllc_star_states),
      cmocka_unit_test(test_hlle_einfeldt_speeds),
      cmocka_unit_test(test_riemann_entropy_stable),
      cmocka_unit_test(test_ch_dissipation_is_rusanov_to_second_order),
      cmocka_unit_test(test_mms_source),
      cmocka_unit_test(test_exact_solutions_solve_euler),
      cmocka_unit_test(test_sine_density_wave),
      cmocka_unit_test(test_shu_vortex_isentropic),
      cmocka_unit_test(test_exact_refstate),
      cmocka_unit_test(test_sod_states),
      cmocka_unit_test(test_shock_profile),
      cmocka_unit_test(test_dmr_states),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
