/* Navier-Stokes physics: viscosity laws, viscous fluxes, viscous time-step coefficient, the
 * manufactured solution's viscous source and the Taylor-Green vortex initial state. */
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
#include "physics/navierstokes.h"
#include "physics/viscosity.h"

#define N_SAMPLES 200

/* Air-like gas with the given law; FLEXI's default Pr, Ts, Tref, ExpoSuth. */
static PhysParams gas(int law, double mu0, double R) {
  PhysParams pp = {0};
  physparams_set(&pp, 1.4, R);
  physparams_set_transport(&pp, law, mu0, 0.72, 110.4, 273.15, 1.5);
  return pp;
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

static void random_prim(Rng *rng, const PhysParams *pp, double *prim) {
  prim[PDENS] = rng_uniform(rng, 0.5, 2.0);
  for (int k = 0; k < 3; k++)
    prim[VEL1 + k] = rng_uniform(rng, -1.5, 1.5);
  prim[PRES] = rng_uniform(rng, 0.5, 2.0);
  prim_set_temperature(pp, prim);
}

/* g[d][v] = d w_v / d x_d of the lifting variables */
static void random_gradients(Rng *rng, double g[3][HX_NLIFT]) {
  for (int d = 0; d < 3; d++)
    for (int v = 0; v < HX_NLIFT; v++)
      g[d][v] = rng_uniform(rng, -2.0, 2.0);
}

static void fluxes(const PhysParams *pp, const double *prim, double g[3][HX_NLIFT],
                   double F[3][HX_NVAR]) {
  viscous_fluxes_xyz(pp, prim, g[0], g[1], g[2], F[0], F[1], F[2]);
}

static void random_rotation(Rng *rng, double Q[3][3]) {
  double a[3], b[3], c[3], len;
  do {
    for (int k = 0; k < 3; k++) {
      a[k] = rng_uniform(rng, -1.0, 1.0);
      b[k] = rng_uniform(rng, -1.0, 1.0);
    }
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
    len = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
  } while (len < 0.1 || sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]) < 0.1);
  /* Gram-Schmidt: columns a/|a|, c x a / |.|, c/|c| */
  const double la = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  for (int k = 0; k < 3; k++) {
    a[k] /= la;
    c[k] /= len;
  }
  b[0] = c[1] * a[2] - c[2] * a[1];
  b[1] = c[2] * a[0] - c[0] * a[2];
  b[2] = c[0] * a[1] - c[1] * a[0];
  for (int k = 0; k < 3; k++) {
    Q[k][0] = a[k];
    Q[k][1] = b[k];
    Q[k][2] = c[k];
  }
}

/* ---------------------------------------------------------------- viscosity laws */

/* Sutherland: mu(Tref) = mu0; air at 300 K with White's mu0 = 1.716e-5 Pa s at 273.15 K and
 * Ts = 110.4 K: (300/273.15)^1.5 = 1.1510126, (273.15+110.4)/(300+110.4) = 0.9345760, so
 * mu = 1.716e-5 * 1.1510126 * 0.9345760 = 1.84592e-5 (tables: 184.6e-7, Incropera & DeWitt,
 * Table A.4). Below Ts the law is linear in T and continuous at Ts. */
static void test_sutherland(void **state) {
  (void)state;
  const PhysParams pp = gas(VISC_SUTHERLAND, 1.716e-5, 287.058);
  assert_true(fabs(viscosity(&pp, 273.15) - 1.716e-5) <= 1e-15 * 1.716e-5);
  const double mu300 = viscosity(&pp, 300.0);
  assert_true(fabs(mu300 - 1.716e-5 * 1.1510126 * 0.9345760) <= 1e-6 * mu300);
  assert_true(fabs(mu300 - 1.846e-5) <= 1e-3 * mu300);
  const double below = viscosity(&pp, 110.4 * (1.0 - 1e-12));
  const double above = viscosity(&pp, 110.4);
  assert_true(fabs(below - above) <= 1e-10 * above);
  assert_true(fabs(viscosity(&pp, 40.0) - 0.5 * viscosity(&pp, 80.0)) <= 1e-15 * above);
  /* the power branch is not linear */
  assert_true(fabs(viscosity(&pp, 400.0) - 2.0 * viscosity(&pp, 200.0)) > 1e-3 * mu300);
}

static void test_constant_and_power_law(void **state) {
  (void)state;
  PhysParams pp = gas(VISC_CONSTANT, 0.3, 1.0);
  assert_true(viscosity(&pp, 0.1) == 0.3 && viscosity(&pp, 1e4) == 0.3);
  assert_true(viscosity_dT(&pp, 2.0) == 0.0);
  physparams_set_transport(&pp, VISC_POWERLAW, 0.3, 0.72, 110.4, 2.5, 0.76);
  assert_true(fabs(viscosity(&pp, 2.5) - 0.3) <= 1e-15);
  assert_true(fabs(viscosity(&pp, 5.0) - 0.3 * pow(2.0, 0.76)) <= 1e-15);
}

/* viscosity_dT is the derivative of every law (4th-order central differences), on both sides of
 * Sutherland's temperature. */
static void test_viscosity_derivative(void **state) {
  (void)state;
  const int laws[3] = {VISC_CONSTANT, VISC_SUTHERLAND, VISC_POWERLAW};
  const double temps[4] = {30.0, 100.0, 250.0, 700.0};
  for (int l = 0; l < 3; l++) {
    const PhysParams pp = gas(laws[l], 1.716e-5, 287.058);
    for (int i = 0; i < 4; i++) {
      const double T = temps[i], h = 1e-3 * T;
      const double fd = (8.0 * (viscosity(&pp, T + h) - viscosity(&pp, T - h)) -
                         (viscosity(&pp, T + 2 * h) - viscosity(&pp, T - 2 * h))) /
                        (12.0 * h);
      assert_true(fabs(viscosity_dT(&pp, T) - fd) <= 1e-8 * viscosity(&pp, T) / T);
    }
  }
}

/* lambda = mu cp / Pr; FLEXI's viscous time-step coefficient max(4/3, kappa/Pr) mu / rho. */
static void test_conductivity_and_spectral_coeff(void **state) {
  (void)state;
  PhysParams pp = gas(VISC_CONSTANT, 2e-3, 287.058);
  const double cp = 1.4 * 287.058 / 0.4;
  assert_true(fabs(heat_conductivity(&pp, 2e-3) - 2e-3 * cp / 0.72) <= 1e-15 * cp);
  const double prim[HX_NPRIM] = {1.25, 0.1, 0.2, 0.3, 1e5, 1e5 / (1.25 * 287.058)};
  assert_true(fabs(viscous_spectral_coeff(&pp, prim) - 1.4 / 0.72 * 2e-3 / 1.25) <= 1e-18);
  physparams_set_transport(&pp, VISC_CONSTANT, 2e-3, 2.0, 110.4, 273.15, 1.5); /* kappa/Pr < 4/3 */
  assert_true(fabs(viscous_spectral_coeff(&pp, prim) - 4.0 / 3.0 * 2e-3 / 1.25) <= 1e-18);
}

/* ---------------------------------------------------------------- viscous fluxes */

static void test_uniform_state_has_no_viscous_flux(void **state) {
  (void)state;
  const int laws[3] = {VISC_CONSTANT, VISC_SUTHERLAND, VISC_POWERLAW};
  Rng rng = {42};
  for (int s = 0; s < N_SAMPLES; s++) {
    const PhysParams pp = gas(laws[s % 3], rng_uniform(&rng, 0.0, 1.0), 1.0);
    double prim[HX_NPRIM], g[3][HX_NLIFT] = {{0}}, F[3][HX_NVAR], n[3], Fn[HX_NVAR];
    random_prim(&rng, &pp, prim);
    fluxes(&pp, prim, g, F);
    for (int d = 0; d < 3; d++) {
      n[d] = rng_uniform(&rng, -1.0, 1.0);
      for (int v = 0; v < HX_NVAR; v++)
        assert_true(F[d][v] == 0.0);
    }
    viscous_flux_normal(&pp, prim, g[0], g[1], g[2], n, Fn);
    for (int v = 0; v < HX_NVAR; v++)
      assert_true(Fn[v] == 0.0);
  }
}

/* Textbook stresses: simple shear u = G y gives tau_xy = tau_yx = mu G and nothing else;
 * uniform dilatation u = D x gives tau_xx = 4/3 mu D, tau_yy = tau_zz = -2/3 mu D (Stokes);
 * rigid rotation (antisymmetric gradient) gives no stress; the energy flux is tau u + lambda
 * grad T. */
static void test_textbook_stresses(void **state) {
  (void)state;
  const PhysParams pp = gas(VISC_SUTHERLAND, 1.716e-5, 287.058);
  const double prim[HX_NPRIM] = {1.2, 3.0, -2.0, 0.5, 1e5, 290.3};
  const double mu = viscosity(&pp, 290.3), lambda = heat_conductivity(&pp, mu);
  const double G = 7.0, D = -3.0, W = 5.0;
  double F[3][HX_NVAR];

  double shear[3][HX_NLIFT] = {{0}};
  shear[1][LIFT_VEL1] = G; /* du/dy */
  fluxes(&pp, prim, shear, F);
  const double f_shear[HX_NVAR] = {0.0, 0.0, mu * G, 0.0, mu * G * prim[VEL2]};
  const double g_shear[HX_NVAR] = {0.0, mu * G, 0.0, 0.0, mu * G * prim[VEL1]};
  const double zero[HX_NVAR] = {0};
  assert_close(F[0], f_shear, HX_NVAR, 1e-14, "simple shear, f");
  assert_close(F[1], g_shear, HX_NVAR, 1e-14, "simple shear, g");
  assert_close(F[2], zero, HX_NVAR, 1e-14, "simple shear, h");

  double dil[3][HX_NLIFT] = {{0}};
  dil[0][LIFT_VEL1] = D;
  fluxes(&pp, prim, dil, F);
  const double tau_xx = 4.0 / 3.0 * mu * D, tau_yy = -2.0 / 3.0 * mu * D;
  const double f_dil[HX_NVAR] = {0.0, tau_xx, 0.0, 0.0, tau_xx * prim[VEL1]};
  const double g_dil[HX_NVAR] = {0.0, 0.0, tau_yy, 0.0, tau_yy * prim[VEL2]};
  const double h_dil[HX_NVAR] = {0.0, 0.0, 0.0, tau_yy, tau_yy * prim[VEL3]};
  assert_close(F[0], f_dil, HX_NVAR, 1e-14, "dilatation, f");
  assert_close(F[1], g_dil, HX_NVAR, 1e-14, "dilatation, g");
  assert_close(F[2], h_dil, HX_NVAR, 1e-14, "dilatation, h");

  double rot[3][HX_NLIFT] = {{0}};
  rot[1][LIFT_VEL1] = -W; /* u = -W y, v = W x */
  rot[0][LIFT_VEL2] = W;
  rot[2][LIFT_TEMP] = 11.0; /* plus conduction along z */
  fluxes(&pp, prim, rot, F);
  const double h_cond[HX_NVAR] = {0.0, 0.0, 0.0, 0.0, lambda * 11.0};
  assert_close(F[0], zero, HX_NVAR, 1e-14, "rigid rotation, f");
  assert_close(F[1], zero, HX_NVAR, 1e-14, "rigid rotation, g");
  assert_close(F[2], h_cond, HX_NVAR, 1e-14, "conduction, h");
}

/* For random states and gradients: no mass flux, symmetric and traceless stress (Stokes
 * hypothesis), viscous_flux_normal = f n0 + g n1 + h n2, linearity in the gradients. */
static void test_flux_structure(void **state) {
  (void)state;
  Rng rng = {2024};
  for (int s = 0; s < N_SAMPLES; s++) {
    const PhysParams pp = gas(s % 2 ? VISC_POWERLAW : VISC_CONSTANT, 0.4, 1.0);
    double prim[HX_NPRIM], g[3][HX_NLIFT], g2[3][HX_NLIFT], gsum[3][HX_NLIFT];
    double F[3][HX_NVAR], F2[3][HX_NVAR], Fsum[3][HX_NVAR], n[3], Fn[HX_NVAR], comb[HX_NVAR];
    random_prim(&rng, &pp, prim);
    random_gradients(&rng, g);
    random_gradients(&rng, g2);
    const double a = rng_uniform(&rng, -2.0, 2.0);
    for (int d = 0; d < 3; d++) {
      n[d] = rng_uniform(&rng, -2.0, 2.0);
      for (int v = 0; v < HX_NLIFT; v++)
        gsum[d][v] = g[d][v] + a * g2[d][v];
    }
    fluxes(&pp, prim, g, F);
    fluxes(&pp, prim, g2, F2);
    fluxes(&pp, prim, gsum, Fsum);
    const double scale = fmax(1.0, max_abs(F[0], HX_NVAR));
    for (int d = 0; d < 3; d++) {
      assert_true(F[d][DENS] == 0.0);
      for (int e = 0; e < 3; e++)
        assert_true(fabs(F[d][MOM1 + e] - F[e][MOM1 + d]) <= 1e-14 * scale);
      for (int v = 0; v < HX_NVAR; v++)
        assert_true(fabs(Fsum[d][v] - F[d][v] - a * F2[d][v]) <= 1e-13 * scale);
    }
    assert_true(fabs(F[0][MOM1] + F[1][MOM2] + F[2][MOM3]) <= 1e-14 * scale);
    viscous_flux_normal(&pp, prim, g[0], g[1], g[2], n, Fn);
    for (int v = 0; v < HX_NVAR; v++)
      comb[v] = F[0][v] * n[0] + F[1][v] * n[1] + F[2][v] * n[2];
    assert_close(Fn, comb, HX_NVAR, 1e-14, "normal flux = f n0 + g n1 + h n2");
  }
}

/* Rotating the frame (u' = Q u, grad' = Q grad Q^T, grad T' = Q grad T, n' = Q n) rotates the
 * momentum part of F.n and leaves the mass and energy parts unchanged. */
static void test_flux_rotational_invariance(void **state) {
  (void)state;
  Rng rng = {555};
  for (int s = 0; s < N_SAMPLES; s++) {
    const PhysParams pp = gas(VISC_SUTHERLAND, 1e-2, 1.0);
    double prim[HX_NPRIM], qprim[HX_NPRIM], g[3][HX_NLIFT], qg[3][HX_NLIFT], Q[3][3];
    double n[3], qn[3], F[HX_NVAR], QF[HX_NVAR], FQ[HX_NVAR];
    random_prim(&rng, &pp, prim);
    random_gradients(&rng, g);
    random_rotation(&rng, Q);
    for (int k = 0; k < 3; k++)
      n[k] = rng_uniform(&rng, -1.0, 1.0);
    for (int v = 0; v < HX_NPRIM; v++)
      qprim[v] = prim[v];
    for (int i = 0; i < 3; i++) {
      qprim[VEL1 + i] = 0.0;
      qn[i] = 0.0;
      for (int k = 0; k < 3; k++) {
        qprim[VEL1 + i] += Q[i][k] * prim[VEL1 + k];
        qn[i] += Q[i][k] * n[k];
      }
    }
    for (int d = 0; d < 3; d++) {
      qg[d][LIFT_TEMP] = 0.0;
      for (int k = 0; k < 3; k++)
        qg[d][LIFT_TEMP] += Q[d][k] * g[k][LIFT_TEMP];
      for (int i = 0; i < 3; i++) { /* (Q G Q^T)_{i d}, G_{k l} = g[l][LIFT_VEL1 + k] */
        double sum = 0.0;
        for (int k = 0; k < 3; k++)
          for (int l = 0; l < 3; l++)
            sum += Q[i][k] * g[l][LIFT_VEL1 + k] * Q[d][l];
        qg[d][LIFT_VEL1 + i] = sum;
      }
    }
    viscous_flux_normal(&pp, prim, g[0], g[1], g[2], n, F);
    viscous_flux_normal(&pp, qprim, qg[0], qg[1], qg[2], qn, FQ);
    QF[DENS] = F[DENS];
    QF[ENER] = F[ENER];
    for (int i = 0; i < 3; i++)
      QF[MOM1 + i] = Q[i][0] * F[MOM1] + Q[i][1] * F[MOM2] + Q[i][2] * F[MOM3];
    assert_close(FQ, QF, HX_NVAR, 1e-12, "viscous flux rotational invariance");
  }
}

static void test_lifting_variables(void **state) {
  (void)state;
  const double prim[HX_NPRIM] = {1.1, 0.2, -0.3, 0.4, 2.0, 5.0};
  double w[HX_NLIFT];
  lifting_variables(prim, w);
  assert_true(w[LIFT_VEL1] == 0.2 && w[LIFT_VEL2] == -0.3 && w[LIFT_VEL3] == 0.4);
  assert_true(w[LIFT_TEMP] == 5.0);
}

/* ---------------------------------------------------------------- manufactured solution */

typedef struct {
  const ExactFuncParams *ef;
  const PhysParams *pp;
} ExactCase;

static const double FD8[4] = {4.0 / 5.0, -1.0 / 5.0, 4.0 / 105.0, -1.0 / 280.0};

static void lift_at(const ExactCase *ec, const double *x, double t, double *w) {
  double U[HX_NVAR], prim[HX_NPRIM];
  exact_func(ec->ef, ec->pp, x, t, U);
  cons_to_prim(ec->pp, U, prim);
  lifting_variables(prim, w);
}

/* grad[d][v] = d w_v / d x_d by 8th-order central differences */
static void lift_gradient(const ExactCase *ec, const double *x, double t, double h,
                          double grad[3][HX_NLIFT]) {
  for (int d = 0; d < 3; d++) {
    for (int v = 0; v < HX_NLIFT; v++)
      grad[d][v] = 0.0;
    for (int j = 0; j < 4; j++) {
      double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]}, wp[HX_NLIFT], wm[HX_NLIFT];
      xp[d] += (j + 1) * h;
      xm[d] -= (j + 1) * h;
      lift_at(ec, xp, t, wp);
      lift_at(ec, xm, t, wm);
      for (int v = 0; v < HX_NLIFT; v++)
        grad[d][v] += FD8[j] * (wp[v] - wm[v]) / h;
    }
  }
}

/* F_adv - F_visc in direction d at x, the viscous part from finite-difference gradients */
static void net_flux(const ExactCase *ec, const double *x, double t, double h, int d, double *F_adv,
                     double *F_visc) {
  double U[HX_NVAR], prim[HX_NPRIM], grad[3][HX_NLIFT], F[3][HX_NVAR];
  const double e[3] = {d == 0, d == 1, d == 2};
  exact_func(ec->ef, ec->pp, x, t, U);
  cons_to_prim(ec->pp, U, prim);
  euler_flux_normal(U, prim, e, F_adv);
  lift_gradient(ec, x, t, h, grad);
  viscous_fluxes_xyz(ec->pp, prim, grad[0], grad[1], grad[2], F[0], F[1], F[2]);
  for (int v = 0; v < HX_NVAR; v++)
    F_visc[v] = F[d][v];
}

/* dU/dt + div(F_adv - F_visc) of the exact function: 8th-order central differences in t and x,
 * nested differences for the gradients of the viscous flux. scale[v] is the largest of the
 * three terms (for a relative tolerance), visc[v] = -div F_visc alone. */
static void ns_residual(const ExactCase *ec, const double *x, double t, double h, double *res,
                        double *scale, double *visc) {
  double dUdt[HX_NVAR] = {0}, div_adv[HX_NVAR] = {0}, div_visc[HX_NVAR] = {0};
  for (int j = 0; j < 4; j++) {
    double Up[HX_NVAR], Um[HX_NVAR];
    exact_func(ec->ef, ec->pp, x, t + (j + 1) * h, Up);
    exact_func(ec->ef, ec->pp, x, t - (j + 1) * h, Um);
    for (int v = 0; v < HX_NVAR; v++)
      dUdt[v] += FD8[j] * (Up[v] - Um[v]) / h;
    for (int d = 0; d < 3; d++) {
      double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
      double Fap[HX_NVAR], Fam[HX_NVAR], Fvp[HX_NVAR], Fvm[HX_NVAR];
      xp[d] += (j + 1) * h;
      xm[d] -= (j + 1) * h;
      net_flux(ec, xp, t, h, d, Fap, Fvp);
      net_flux(ec, xm, t, h, d, Fam, Fvm);
      for (int v = 0; v < HX_NVAR; v++) {
        div_adv[v] += FD8[j] * (Fap[v] - Fam[v]) / h;
        div_visc[v] += FD8[j] * (Fvp[v] - Fvm[v]) / h;
      }
    }
  }
  for (int v = 0; v < HX_NVAR; v++) {
    res[v] = dUdt[v] + div_adv[v] - div_visc[v];
    visc[v] = -div_visc[v];
    scale[v] = fmax(fabs(dUdt[v]), fmax(fabs(div_adv[v]), fabs(div_visc[v])));
  }
}

/* The source of IniExactFunc 4 with mu0 > 0 is dU/dt + div(F_adv - F_visc) (relative 1e-7), for
 * every viscosity law (Sutherland on both branches) and two gas constants; the viscous part is
 * a sizeable share of it, so dropping it would fail. */
static void test_mms_navier_stokes_source(void **state) {
  (void)state;
  /* law, R, Ts, Tref, ExpoSuth: with R = 1, T = 0.4 (g - 1.5) lies in [0.08, 0.32] */
  const struct {
    int law;
    double R, Ts, Tref, expo;
  } cases[5] = {{VISC_CONSTANT, 287.058, 110.4, 273.15, 1.5},
                {VISC_CONSTANT, 1.0, 110.4, 273.15, 1.5},
                {VISC_SUTHERLAND, 1.0, 0.05, 0.2, 1.5},
                {VISC_SUTHERLAND, 1.0, 0.6, 0.2, 1.5},
                {VISC_POWERLAW, 1.0, 110.4, 0.2, 0.76}};
  Rng rng = {616};
  ExactFuncParams ef = {0};
  ef.which = EXACT_SINE_MMS;
  int n_viscous = 0;
  for (int s = 0; s < 25; s++) {
    PhysParams pp = {0};
    physparams_set(&pp, 1.4, cases[s % 5].R);
    physparams_set_transport(&pp, cases[s % 5].law, rng_uniform(&rng, 0.05, 0.5),
                             rng_uniform(&rng, 0.5, 1.0), cases[s % 5].Ts, cases[s % 5].Tref,
                             cases[s % 5].expo);
    const ExactCase ec = {&ef, &pp};
    double x[3], res[HX_NVAR], scale[HX_NVAR], visc[HX_NVAR], S[HX_NVAR];
    ef.amplitude = rng_uniform(&rng, 0.05, 0.3);
    ef.frequency = rng_uniform(&rng, 0.5, 1.5);
    for (int k = 0; k < 3; k++) {
      ef.adv_vel[k] = rng_uniform(&rng, -1.0, 1.0);
      x[k] = rng_uniform(&rng, -1.0, 1.0);
    }
    const double t = rng_uniform(&rng, 0.0, 1.0);
    ns_residual(&ec, x, t, 1e-2, res, scale, visc);
    exact_source(&ef, &pp, x, t, S);
    for (int v = 0; v < HX_NVAR; v++) {
      if (!(fabs(S[v] - res[v]) <= 1e-7 * scale[v])) {
        print_error("case %d var %d: source %.15g, residual %.15g\n", s % 5, v, S[v], res[v]);
        fail();
      }
    }
    if (fabs(visc[ENER]) > 1e-2 * scale[ENER]) n_viscous++;
  }
  assert_true(n_viscous >= 20); /* the viscous part is far above the tolerance at most points */
}

/* With constant viscosity the viscous part is FLEXI's 3 mu0 kappa w^2 A sin(phase) / Pr, and
 * mu0 = 0 gives the Euler source. */
static void test_mms_flexi_viscous_term(void **state) {
  (void)state;
  Rng rng = {99};
  ExactFuncParams ef = {0};
  ef.which = EXACT_SINE_MMS;
  for (int s = 0; s < N_SAMPLES; s++) {
    const double mu0 = rng_uniform(&rng, 0.01, 1.0);
    const PhysParams pp = gas(VISC_CONSTANT, mu0, 287.058);
    const PhysParams euler = gas(VISC_CONSTANT, 0.0, 287.058);
    double x[3], S[HX_NVAR], S_euler[HX_NVAR];
    ef.amplitude = rng_uniform(&rng, 0.05, 0.3);
    ef.frequency = rng_uniform(&rng, 0.5, 2.0);
    for (int k = 0; k < 3; k++) {
      ef.adv_vel[k] = rng_uniform(&rng, -1.0, 1.0);
      x[k] = rng_uniform(&rng, -1.0, 1.0);
    }
    const double t = rng_uniform(&rng, 0.0, 1.0);
    exact_source(&ef, &pp, x, t, S);
    exact_source(&ef, &euler, x, t, S_euler);
    const double w = HX_PI * ef.frequency;
    const double phase = w * (x[0] + x[1] + x[2]) - 2.0 * HX_PI * ef.adv_vel[0] * t;
    const double flexi = 3.0 * mu0 * 1.4 * w * w * ef.amplitude * sin(phase) / 0.72;
    for (int v = 0; v < ENER; v++)
      assert_true(S[v] == S_euler[v]);
    assert_true(fabs(S[ENER] - S_euler[ENER] - flexi) <= 1e-13 * fmax(1.0, fabs(S[ENER])));
  }
}

/* ---------------------------------------------------------------- Taylor-Green vortex */

static void tgv_prim(const PhysParams *pp, int version, double u0, double mach, const double *x,
                     double *prim) {
  double U[HX_NVAR];
  exact_tgv(pp, version, 1.0, u0, mach, x, U);
  cons_to_prim(pp, U, prim);
}

/* Divergence-free velocity (8th-order differences), constant density (version 1) or
 * temperature (version 2), FLEXI's expanded pressure, and the incompressible pressure Poisson
 * equation lap p = -rho0 (du_i/dx_j)(du_j/dx_i) (version 1). */
static void test_tgv_fields(void **state) {
  (void)state;
  const PhysParams pp = gas(VISC_CONSTANT, 6.25e-4, 71.42857);
  Rng rng = {1600};
  const double h = 1e-2, mach = 0.1, u0 = 1.0;
  const double p0 = 1.0 / (1.4 * mach * mach), T0 = p0 / pp.R;
  for (int s = 0; s < N_SAMPLES; s++) {
    const int version = s % 2 ? TGV_CONSTANT_DENSITY : TGV_CONSTANT_TEMPERATURE;
    double x[3], prim[HX_NPRIM], du[3][3] = {{0}}, lap_p = 0.0;
    for (int k = 0; k < 3; k++)
      x[k] = rng_uniform(&rng, 0.0, 2.0 * HX_PI);
    tgv_prim(&pp, version, u0, mach, x, prim);
    if (version == TGV_CONSTANT_DENSITY)
      assert_true(prim[PDENS] == 1.0);
    else
      assert_true(fabs(prim[TEMP] - T0) <= 1e-13 * T0);
    const double flexi_p = p0 + u0 * u0 / 16.0 *
                                    (cos(2 * x[0]) * cos(2 * x[2]) + 2 * cos(2 * x[1]) +
                                     2 * cos(2 * x[0]) + cos(2 * x[1]) * cos(2 * x[2]));
    assert_true(fabs(prim[PRES] - flexi_p) <= 1e-13 * p0);
    for (int d = 0; d < 3; d++) {
      for (int j = 0; j < 4; j++) {
        double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]}, pplus[HX_NPRIM],
               pm[HX_NPRIM];
        xp[d] += (j + 1) * h;
        xm[d] -= (j + 1) * h;
        tgv_prim(&pp, version, u0, mach, xp, pplus);
        tgv_prim(&pp, version, u0, mach, xm, pm);
        for (int i = 0; i < 3; i++)
          du[i][d] += FD8[j] * (pplus[VEL1 + i] - pm[VEL1 + i]) / h;
      }
    }
    assert_true(fabs(du[0][0] + du[1][1] + du[2][2]) <= 1e-10);
    if (version != TGV_CONSTANT_DENSITY) continue;
    /* 6th-order second differences of p - p0 (the weights sum to 0) for the Laplacian */
    static const double D2[4] = {-49.0 / 18.0, 3.0 / 2.0, -3.0 / 20.0, 1.0 / 90.0};
    const double hp = 0.05;
    for (int d = 0; d < 3; d++) {
      lap_p += D2[0] * (prim[PRES] - p0) / (hp * hp);
      for (int j = 1; j < 4; j++) {
        double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]}, pplus[HX_NPRIM],
               pm[HX_NPRIM];
        xp[d] += j * hp;
        xm[d] -= j * hp;
        tgv_prim(&pp, version, u0, mach, xp, pplus);
        tgv_prim(&pp, version, u0, mach, xm, pm);
        lap_p += D2[j] * (pplus[PRES] + pm[PRES] - 2.0 * p0) / (hp * hp);
      }
    }
    double rhs = 0.0;
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        rhs -= du[i][j] * du[j][i];
    assert_true(fabs(lap_p - rhs) <= 1e-6);
  }
}

/* Mean kinetic energy over [0, 2pi]^3 is U0^2/8 (trapezoidal rule, exact for these
 * trigonometric polynomials), the mean pressure is p0 = rho0 U0^2/(kappa Ms^2), and the Mach
 * number of the peak velocity U0 against c0 is Ms. */
static void test_tgv_means(void **state) {
  (void)state;
  const PhysParams pp = gas(VISC_CONSTANT, 0.0, 287.058);
  const int n = 16;
  const double u0s[2] = {1.0, 2.0}, mach = 0.2;
  for (int version = 1; version <= 2; version++) {
    for (int iu = 0; iu < 2; iu++) {
      const double u0 = u0s[iu];
      double ekin = 0.0, ekin_rho = 0.0, p_mean = 0.0, vmax = 0.0;
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
          for (int k = 0; k < n; k++) {
            const double x[3] = {2.0 * HX_PI * i / n, 2.0 * HX_PI * j / n, 2.0 * HX_PI * k / n};
            double prim[HX_NPRIM];
            tgv_prim(&pp, version, u0, mach, x, prim);
            const double v2 =
                prim[VEL1] * prim[VEL1] + prim[VEL2] * prim[VEL2] + prim[VEL3] * prim[VEL3];
            ekin += 0.5 * v2;
            ekin_rho += 0.5 * prim[PDENS] * v2;
            p_mean += prim[PRES];
            vmax = fmax(vmax, sqrt(v2));
          }
      const double n3 = (double)n * n * n;
      const double p0 = u0 * u0 / (1.4 * mach * mach);
      assert_true(fabs(ekin / n3 - u0 * u0 / 8.0) <= 1e-14);
      if (version == TGV_CONSTANT_DENSITY)
        assert_true(fabs(ekin_rho / n3 - u0 * u0 / 8.0) <= 1e-14);
      assert_true(fabs(p_mean / n3 - p0) <= 1e-13 * p0);
      assert_true(fabs(vmax - u0) <= 1e-14); /* the grid contains x = pi/2, y = z = 0 */
      assert_true(fabs(vmax / sqrt(1.4 * p0 / 1.0) - mach) <= 1e-14);
    }
  }
}

/* IniExactFunc 0 is the TGV with TestCase = taylorgreenvortex (rho0 = U0 = 1, MachNumber) and
 * undefined (NaN) without a test case. */
static void test_tgv_exact_func(void **state) {
  (void)state;
  const PhysParams pp = gas(VISC_CONSTANT, 0.0, 71.42857);
  ExactFuncParams ef = {0};
  ef.which = EXACT_TESTCASE;
  ef.test_case = TESTCASE_TGV;
  ef.tgv_version = TGV_CONSTANT_DENSITY;
  ef.tgv_mach = 0.1;
  const double x[3] = {0.3, 1.7, -2.2};
  double U[HX_NVAR], expected[HX_NVAR];
  exact_func(&ef, &pp, x, 0.0, U);
  exact_tgv(&pp, TGV_CONSTANT_DENSITY, 1.0, 1.0, 0.1, x, expected);
  assert_close(U, expected, HX_NVAR, 0.0, "IniExactFunc 0 = TGV");
  assert_false(exact_has_source(EXACT_TESTCASE));
  ef.test_case = TESTCASE_DEFAULT;
  exact_func(&ef, &pp, x, 0.0, U);
  assert_true(isnan(U[DENS]));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sutherland),
      cmocka_unit_test(test_constant_and_power_law),
      cmocka_unit_test(test_viscosity_derivative),
      cmocka_unit_test(test_conductivity_and_spectral_coeff),
      cmocka_unit_test(test_uniform_state_has_no_viscous_flux),
      cmocka_unit_test(test_textbook_stresses),
      cmocka_unit_test(test_flux_structure),
      cmocka_unit_test(test_flux_rotational_invariance),
      cmocka_unit_test(test_lifting_variables),
      cmocka_unit_test(test_mms_navier_stokes_source),
      cmocka_unit_test(test_mms_flexi_viscous_term),
      cmocka_unit_test(test_tgv_fields),
      cmocka_unit_test(test_tgv_means),
      cmocka_unit_test(test_tgv_exact_func),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
