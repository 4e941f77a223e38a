/* Approximate Riemann solvers for the thermally perfect multicomponent gas (physics/mixture.h).
 *
 * The five flow variables use the formulas of riemann.h on states whose pressure and (frozen)
 * speed of sound come from the mixture's equation of state; what depends on the gas model is
 * written here:
 *   - the Roe-average speed of sound: with formation enthalpies in H the ideal-gas relation
 *     c~^2 = (kappa-1)(H~ - |u~|^2/2) does not hold; c~^2 is the sqrt(rho)-weighted mean of c^2
 *     plus (gamma~-1)/2 sqrt(rhoL rhoR)/(sqrt(rhoL)+sqrt(rhoR))^2 |du|^2 (the identity behind
 *     Einfeldt 1988, SIAM J. Numer. Anal. 25, eq. (5.8), written with the mean frozen gamma), which
 *     is Roe's c~ exactly for a calorically perfect gas and is defined for any equation of state;
 *   - Roe's dissipation with pressure-based wave strengths (the form used for reacting flow by
 *     Shuen, Liou & van Leer 1990, JCP 90): the two acoustic waves carry
 *     alpha_-/+ = (dp -/+ rho~ c~ du) / (2 c~^2) along r_-/+ = (1, u -/+ c, v, w, H -/+ u c), and
 *     everything else of the jump dU (entropy, shear and species waves, which all travel with
 *     u~) is dissipated with |u~|, so no eigenvector of the mixture's energy is needed;
 *   - the species: F_k = F_rho Y_k of the upwind side of the mass flux (Larrouturou 1991, JCP 95:
 *     the mass fractions stay positive and sum_k F_k = F_rho exactly).
 * Riemann = LF, HLL, HLLE, HLLC, Roe and RoeEntropyFix are defined for the mixture; RoeL2 and CH
 * are not (their dissipation belongs to the calorically perfect gas). Pointwise HD functions. */
#ifndef HEXDG_RIEMANN_MIX_H
#define HEXDG_RIEMANN_MIX_H

#include <math.h>

#include "physics/mixture.h"
#include "physics/riemann.h"

HD static inline int riemann_mix_supported(int solver) {
  return solver == RIEMANN_LF || solver == RIEMANN_HLL || solver == RIEMANN_HLLE ||
         solver == RIEMANN_HLLC || solver == RIEMANN_ROE || solver == RIEMANN_ROE_ENTROPYFIX;
}

/* Roe averages of velocity and enthalpy (Roe 1981) with Einfeldt's speed of sound. */
HD static inline RoeAverage riemann_mix_roe_average(const RiemannState *L, const RiemannState *R) {
  RoeAverage roe;
  const double wl = L->sqrt_rho, wr = R->sqrt_rho, s_sum = 1.0 / (wl + wr);
  for (int k = 0; k < 3; k++)
    roe.vel[k] = (wl * L->prim[VEL1 + k] + wr * R->prim[VEL1 + k]) * s_sum;
  roe.H = (wl * L->H + wr * R->H) * s_sum;
  /* (gamma~ - 1)/2 with the sqrt(rho)-weighted frozen gamma = rho c^2 / p: for a calorically
   * perfect gas this is Roe's c~ exactly */
  const double gL = L->U[DENS] * L->c * L->c / L->prim[PRES];
  const double gR = R->U[DENS] * R->c * R->c / R->prim[PRES];
  const double eta2 = 0.5 * ((wl * gL + wr * gR) * s_sum - 1.0) * wl * wr * s_sum * s_sum;
  double du2 = 0.0;
  for (int k = 0; k < 3; k++) {
    const double du = R->prim[VEL1 + k] - L->prim[VEL1 + k];
    du2 += du * du;
  }
  roe.c = sqrt((wl * L->c * L->c + wr * R->c * R->c) * s_sum + eta2 * du2);
  roe.rho = wl * wr;
  return roe;
}

/* Harten & Hyman's entropy fix (variant HH2, as riemann_1d_roe_entropy_fix) of |lambda|. */
HD static inline double riemann_mix_abs_fixed(double lambda, double lambda_l, double lambda_r) {
  const double delta = fmax(0.0, fmax(lambda - lambda_l, lambda_r - lambda));
  return fabs(lambda) < delta ? 0.5 * (lambda * lambda / delta + delta) : fabs(lambda);
}

/* Roe's flux with the pressure-based wave strengths described above; entropy_fix: HH2 on every
 * wave. */
HD static inline void riemann_mix_roe(int entropy_fix, int split, const PhysParams *pp,
                                      const RiemannState *L, const RiemannState *R, double *F) {
  const RoeAverage roe = riemann_mix_roe_average(L, R);
  const double u = roe.vel[0], c = roe.c;
  const double d_u = R->prim[VEL1] - L->prim[VEL1], d_p = R->prim[PRES] - L->prim[PRES];
  const double s_2c2 = 0.5 / (c * c);
  const double a_m = s_2c2 * (d_p - roe.rho * c * d_u), a_p = s_2c2 * (d_p + roe.rho * c * d_u);
  const double r_m[HX_NVAR] = {1.0, u - c, roe.vel[1], roe.vel[2], roe.H - u * c};
  const double r_p[HX_NVAR] = {1.0, u + c, roe.vel[1], roe.vel[2], roe.H + u * c};
  double l_m = fabs(u - c), l_0 = fabs(u), l_p = fabs(u + c);
  if (entropy_fix) {
    l_m = riemann_mix_abs_fixed(u - c, L->prim[VEL1] - L->c, R->prim[VEL1] - R->c);
    l_0 = riemann_mix_abs_fixed(u, L->prim[VEL1], R->prim[VEL1]);
    l_p = riemann_mix_abs_fixed(u + c, L->prim[VEL1] + L->c, R->prim[VEL1] + R->c);
  }
  riemann_central(split, pp, L, R, F);
  for (int v = 0; v < HX_NVAR; v++) {
    const double rest = R->U[v] - L->U[v] - a_m * r_m[v] - a_p * r_p[v];
    F[v] -= 0.5 * (a_m * l_m * r_m[v] + a_p * l_p * r_p[v] + l_0 * rest);
  }
}

/* 1-D flux of the five flow variables in the rotated frame; unknown ids give NaN. */
HD static inline void riemann_mix_flux_1d(int solver, int split, const PhysParams *pp,
                                          const RiemannState *L, const RiemannState *R,
                                          double *F) {
  if (solver == RIEMANN_LF) {
    riemann_1d_lf(split, pp, L, R, F);
    return;
  }
  if (solver == RIEMANN_ROE || solver == RIEMANN_ROE_ENTROPYFIX) {
    riemann_mix_roe(solver == RIEMANN_ROE_ENTROPYFIX, split, pp, L, R, F);
    return;
  }
  const RoeAverage roe = riemann_mix_roe_average(L, R);
  if (solver == RIEMANN_HLL) {
    riemann_hll_formula(L, R, roe.vel[0] - roe.c, roe.vel[0] + roe.c, F);
  } else if (solver == RIEMANN_HLLE) {
    /* Einfeldt's beta = sqrt((gamma-1)/(2 gamma)) with the mean frozen gamma = rho c^2 / p */
    const double gamma = 0.5 * (L->U[DENS] * L->c * L->c / L->prim[PRES] +
                                R->U[DENS] * R->c * R->c / R->prim[PRES]);
    const double beta = sqrt(0.5 * (gamma - 1.0) / gamma);
    const double sl = fmin(fmin(roe.vel[0] - roe.c, L->prim[VEL1] - beta * L->c), 0.0);
    const double sr = fmax(fmax(roe.vel[0] + roe.c, R->prim[VEL1] + beta * R->c), 0.0);
    riemann_hll_formula(L, R, sl, sr, F);
  } else if (solver == RIEMANN_HLLC) {
    riemann_hllc_speeds(L, R, roe.vel[0] - roe.c, roe.vel[0] + roe.c, F);
  } else {
    for (int v = 0; v < HX_NVAR; v++)
      F[v] = nan("");
  }
}

/* Numerical flux F*(UL, UR) . n per unit area of the mixture (nVar = 5 + ns) for the orthonormal
 * frame (n, t1, t2), from both sides' conservative and primitive states, mass fractions and
 * speeds of sound (mix_cons_to_prim). pp is only read by the split-form central parts. */
HD static inline void riemann_mix_flux(int solver, int split, const PhysParams *pp, int ns,
                                       const double *UL, const double *primL, const double *YL,
                                       double cL, const double *UR, const double *primR,
                                       const double *YR, double cR, const double n[3],
                                       const double t1[3], const double t2[3], double *F) {
  RiemannState L, R;
  riemann_rotate_with(UL, primL, cL, n, t1, t2, &L);
  riemann_rotate_with(UR, primR, cR, n, t1, t2, &R);
  double F_rot[HX_NVAR];
  riemann_mix_flux_1d(solver, split, pp, &L, &R, F_rot);
  F[DENS] = F_rot[DENS];
  for (int k = 0; k < 3; k++)
    F[MOM1 + k] = n[k] * F_rot[MOM1] + t1[k] * F_rot[MOM2] + t2[k] * F_rot[MOM3];
  F[ENER] = F_rot[ENER];
  /* mix_species_flux of the upwind side, written per species (not a pointer to YL or YR, so that
   * a caller's Y arrays can stay in registers) */
  const int upwind_L = F[DENS] >= 0.0;
  for (int k = 0; k < ns; k++)
    F[HX_SPEC0 + k] = F[DENS] * (upwind_L ? YL[k] : YR[k]);
}

#endif
