/* Approximate Riemann solvers for the Euler equations, selected by FLEXI's Riemann ids (physics.h).
 *
 * riemann_flux rotates both states into the face frame (n, t1, t2), solves the 1-D problem in
 * the normal direction and rotates the momentum flux back (rotational invariance of the
 * Euler equations, Toro 2009, Sec. 3.2.2). UL is the master side, n points from L to R; the result
 * is F* . n per unit area.
 *
 * Split-form DG (split != SPLIT_NONE): as in FLEXI, the central part (F(UL) + F(UR))/2 of LF,
 * Roe, RoeEntropyFix and RoeL2 is replaced by the two-point flux split_surface_flux so that
 * surface and volume fluxes agree; CH is always built on a two-point flux (Chandrashekar's flux
 * when split == SPLIT_NONE). HLLC, HLL, HLLE and HLLEM are upwind solvers without a central part
 * and ignore split. Pointwise HD functions shared by the CPU and CUDA backends. */
#ifndef HEXDG_RIEMANN_H
#define HEXDG_RIEMANN_H

#include <math.h>

#include "physics/eos.h"
#include "physics/physics.h"
#include "physics/splitflux.h"

/* One side of the face in the rotated frame: velocity components (u_n, u_t1, u_t2). */
typedef struct {
  double U[HX_NVAR];
  double prim[HX_NPRIM];
  double c;          /* speed of sound */
  double sqrt_rho;   /* sqrt(rho), for Roe averages */
  double H;          /* specific total enthalpy (rho E + p) / rho */
  double F[HX_NVAR]; /* physical flux in the normal direction */
} RiemannState;

/* Roe-averaged quantities (Roe 1981, JCP 43), sqrt(rho)-weighted. */
typedef struct {
  double vel[3];
  double H;
  double c;
  double rho; /* sqrt(rhoL rhoR) */
} RoeAverage;

/* A face state in the rotated frame from its conservative state U (five flow variables), its
 * primitive state prim (rho, u, v, w, p, T) and speed of sound c: the gas model only enters
 * through prim and c (ideal gas: riemann_rotate_state; thermally perfect mixture: riemann_mix.h). */
HD static inline void riemann_rotate_with(const double *U, const double *prim, double c,
                                          const double n[3], const double t1[3],
                                          const double t2[3], RiemannState *s) {
  const double e_n[3] = {1.0, 0.0, 0.0};
  s->prim[PDENS] = prim[PDENS];
  s->prim[VEL1] = prim[VEL1] * n[0] + prim[VEL2] * n[1] + prim[VEL3] * n[2];
  s->prim[VEL2] = prim[VEL1] * t1[0] + prim[VEL2] * t1[1] + prim[VEL3] * t1[2];
  s->prim[VEL3] = prim[VEL1] * t2[0] + prim[VEL2] * t2[1] + prim[VEL3] * t2[2];
  s->prim[PRES] = prim[PRES];
  s->prim[TEMP] = prim[TEMP];
  s->U[DENS] = U[DENS];
  s->U[MOM1] = U[DENS] * s->prim[VEL1];
  s->U[MOM2] = U[DENS] * s->prim[VEL2];
  s->U[MOM3] = U[DENS] * s->prim[VEL3];
  s->U[ENER] = U[ENER];
  s->c = c;
  s->sqrt_rho = sqrt(U[DENS]);
  s->H = total_enthalpy(s->U, s->prim);
  euler_flux_normal(s->U, s->prim, e_n, s->F);
}

HD static inline void riemann_rotate_state(const PhysParams *pp, const double *U, const double n[3],
                                           const double t1[3], const double t2[3],
                                           RiemannState *s) {
  double prim[HX_NPRIM];
  cons_to_prim(pp, U, prim);
  riemann_rotate_with(U, prim, speed_of_sound(pp, prim), n, t1, t2, s);
}

/* As riemann_rotate_state, from a primitive state (rho, u, v, w, p; the temperature entry is not
 * read), without the conversions cons -> prim and back (the FV subcell operator reconstructs
 * primitive variables, fvblend.h): one reciprocal square root of the density gives sqrt(rho)
 * and 1/rho. */
HD static inline void riemann_rotate_prim(const PhysParams *pp, const double *prim,
                                          const double n[3], const double t1[3], const double t2[3],
                                          RiemannState *s) {
  const double e_n[3] = {1.0, 0.0, 0.0};
  /* one reciprocal square root gives sqrt(rho) and 1/rho */
  const double rho = prim[PDENS], p = prim[PRES], r = hx_rsqrt(rho), s_rho = r * r;
  s->prim[PDENS] = rho;
  s->prim[VEL1] = prim[VEL1] * n[0] + prim[VEL2] * n[1] + prim[VEL3] * n[2];
  s->prim[VEL2] = prim[VEL1] * t1[0] + prim[VEL2] * t1[1] + prim[VEL3] * t1[2];
  s->prim[VEL3] = prim[VEL1] * t2[0] + prim[VEL2] * t2[1] + prim[VEL3] * t2[2];
  s->prim[PRES] = p;
  s->prim[TEMP] = p * s_rho / pp->R;
  const double kin = 0.5 * (s->prim[VEL1] * s->prim[VEL1] + s->prim[VEL2] * s->prim[VEL2] +
                            s->prim[VEL3] * s->prim[VEL3]);
  s->U[DENS] = rho;
  s->U[MOM1] = rho * s->prim[VEL1];
  s->U[MOM2] = rho * s->prim[VEL2];
  s->U[MOM3] = rho * s->prim[VEL3];
  s->U[ENER] = pp->s_kappa_m1 * p + rho * kin;
  s->c = sqrt(pp->kappa * p * s_rho);
  s->sqrt_rho = rho * r;
  s->H = pp->kappa * pp->s_kappa_m1 * p * s_rho + kin;
  euler_flux_normal(s->U, s->prim, e_n, s->F);
}

HD static inline RoeAverage riemann_roe_average(const PhysParams *pp, const RiemannState *L,
                                                const RiemannState *R) {
  RoeAverage roe;
  const double sqrt_rhoL = L->sqrt_rho;
  const double sqrt_rhoR = R->sqrt_rho;
  const double s_sum = 1.0 / (sqrt_rhoL + sqrt_rhoR);
  for (int k = 0; k < 3; k++)
    roe.vel[k] = (sqrt_rhoL * L->prim[VEL1 + k] + sqrt_rhoR * R->prim[VEL1 + k]) * s_sum;
  roe.H = (sqrt_rhoL * L->H + sqrt_rhoR * R->H) * s_sum;
  const double vel2 = roe.vel[0] * roe.vel[0] + roe.vel[1] * roe.vel[1] + roe.vel[2] * roe.vel[2];
  roe.c = sqrt(pp->kappa_m1 * (roe.H - 0.5 * vel2));
  roe.rho = sqrt_rhoL * sqrt_rhoR;
  return roe;
}

/* Central part: (F_L + F_R)/2, or the split-form two-point flux in the normal direction. */
HD static inline void riemann_central(int split, const PhysParams *pp, const RiemannState *L,
                                      const RiemannState *R, double *F) {
  if (split == SPLIT_NONE) {
    for (int v = 0; v < HX_NVAR; v++)
      F[v] = 0.5 * (L->F[v] + R->F[v]);
  } else {
    const double e_n[3] = {1.0, 0.0, 0.0};
    split_surface_flux(split, pp, L->U, L->prim, R->U, R->prim, e_n, F);
  }
}

/* Local Lax-Friedrichs (Rusanov): central - lambda/2 (UR - UL),
 * lambda = max|u_n| + max c (FLEXI's estimate). */
HD static inline double riemann_lf_speed(const RiemannState *L, const RiemannState *R) {
  return fmax(fabs(L->prim[VEL1]), fabs(R->prim[VEL1])) + fmax(L->c, R->c);
}

HD static inline void riemann_1d_lf(int split, const PhysParams *pp, const RiemannState *L,
                                    const RiemannState *R, double *F) {
  const double lambda = riemann_lf_speed(L, R);
  riemann_central(split, pp, L, R, F);
  for (int v = 0; v < HX_NVAR; v++)
    F[v] -= 0.5 * lambda * (R->U[v] - L->U[v]);
}

/* HLL flux for given signal speeds sl < sr (Harten, Lax & van Leer 1983; Toro 2009, Ch. 10). */
HD static inline void riemann_hll_formula(const RiemannState *L, const RiemannState *R, double sl,
                                          double sr, double *F) {
  if (sl >= 0.0) {
    for (int v = 0; v < HX_NVAR; v++)
      F[v] = L->F[v];
  } else if (sr <= 0.0) {
    for (int v = 0; v < HX_NVAR; v++)
      F[v] = R->F[v];
  } else {
    const double s_den = 1.0 / (sr - sl);
    for (int v = 0; v < HX_NVAR; v++)
      F[v] = (sr * L->F[v] - sl * R->F[v] + sl * sr * (R->U[v] - L->U[v])) * s_den;
  }
}

/* HLL with Roe-average signal speeds u~ -/+ c~ (Davis 1988 / Einfeldt 1988 estimate, as FLEXI). */
HD static inline void riemann_1d_hll(const PhysParams *pp, const RiemannState *L,
                                     const RiemannState *R, double *F) {
  const RoeAverage roe = riemann_roe_average(pp, L, R);
  riemann_hll_formula(L, R, roe.vel[0] - roe.c, roe.vel[0] + roe.c, F);
}

/* HLLE (Einfeldt 1988, SIAM J. Numer. Anal. 25): sl = min(u~ - c~, uL - beta cL, 0),
 * sr = max(u~ + c~, uR + beta cR, 0) with beta = sqrt((kappa-1)/(2 kappa)). */
HD static inline void riemann_1d_hlle(const PhysParams *pp, const RiemannState *L,
                                      const RiemannState *R, double *F) {
  const RoeAverage roe = riemann_roe_average(pp, L, R);
  const double beta = sqrt(0.5 * pp->kappa_m1 / pp->kappa);
  const double sl = fmin(fmin(roe.vel[0] - roe.c, L->prim[VEL1] - beta * L->c), 0.0);
  const double sr = fmax(fmax(roe.vel[0] + roe.c, R->prim[VEL1] + beta * R->c), 0.0);
  riemann_hll_formula(L, R, sl, sr, F);
}

/* Star-region flux F_K + s_K (U*_K - U_K) of HLLC (Toro 2009, Ch. 10). */
HD static inline void riemann_hllc_star(const RiemannState *K, double s_k, double s_star,
                                        double *F) {
  const double s_mu = s_k - K->prim[VEL1];
  const double factor = K->U[DENS] * s_mu / (s_k - s_star);
  const double E_star = K->U[ENER] / K->U[DENS] +
                        (s_star - K->prim[VEL1]) * (s_star + K->prim[PRES] / (K->U[DENS] * s_mu));
  const double U_star[HX_NVAR] = {factor, factor * s_star, factor * K->prim[VEL2],
                                  factor * K->prim[VEL3], factor * E_star};
  for (int v = 0; v < HX_NVAR; v++)
    F[v] = K->F[v] + s_k * (U_star[v] - K->U[v]);
}

/* HLLC for given signal speeds sl < sr with Toro's contact speed estimate (Toro, Spruce &
 * Speares 1994, Shock Waves 4; Toro 2009, Ch. 10). */
HD static inline void riemann_hllc_speeds(const RiemannState *L, const RiemannState *R, double sl,
                                          double sr, double *F) {
  if (sl >= 0.0) {
    for (int v = 0; v < HX_NVAR; v++)
      F[v] = L->F[v];
    return;
  }
  if (sr <= 0.0) {
    for (int v = 0; v < HX_NVAR; v++)
      F[v] = R->F[v];
    return;
  }
  const double mu_l = L->U[DENS] * (sl - L->prim[VEL1]);
  const double mu_r = R->U[DENS] * (sr - R->prim[VEL1]);
  const double s_star =
      (R->prim[PRES] - L->prim[PRES] + L->prim[VEL1] * mu_l - R->prim[VEL1] * mu_r) / (mu_l - mu_r);
  if (s_star >= 0.0)
    riemann_hllc_star(L, sl, s_star, F);
  else
    riemann_hllc_star(R, sr, s_star, F);
}

/* HLLC with Roe-average signal speeds u~ -/+ c~ (FLEXI's choice). */
HD static inline void riemann_1d_hllc(const PhysParams *pp, const RiemannState *L,
                                      const RiemannState *R, double *F) {
  const RoeAverage roe = riemann_roe_average(pp, L, R);
  riemann_hllc_speeds(L, R, roe.vel[0] - roe.c, roe.vel[0] + roe.c, F);
}

/* Right eigenvectors r_1..r_5 of the 1-D Roe matrix (Toro 2009, Ch. 11), rows = waves. */
HD static inline void riemann_roe_eigenvectors(const RoeAverage *roe, double r[5][HX_NVAR]) {
  const double u = roe->vel[0], v = roe->vel[1], w = roe->vel[2];
  const double c = roe->c, H = roe->H;
  const double r_rows[5][HX_NVAR] = {{1.0, u - c, v, w, H - u * c},
                                     {1.0, u, v, w, 0.5 * (u * u + v * v + w * w)},
                                     {0.0, 0.0, 1.0, 0.0, v},
                                     {0.0, 0.0, 0.0, 1.0, w},
                                     {1.0, u + c, v, w, H + u * c}};
  for (int k = 0; k < 5; k++)
    for (int q = 0; q < HX_NVAR; q++)
      r[k][q] = r_rows[k][q];
}

/* Energy jump left for the acoustic and entropy waves: d(rho E) minus what the two shear waves
 * carry (Toro 2009, Ch. 11). */
HD static inline double riemann_roe_energy_jump(const RoeAverage *roe, const double *dU) {
  const double v = roe->vel[1], w = roe->vel[2];
  return dU[ENER] - (dU[MOM2] - v * dU[DENS]) * v - (dU[MOM3] - w * dU[DENS]) * w;
}

/* Wave strengths from the conservative jump dU and the energy jump d5 of
 * riemann_roe_energy_jump (Toro 2009, Ch. 11). */
HD static inline void riemann_roe_wave_strengths(const PhysParams *pp, const RoeAverage *roe,
                                                 const double *dU, double d5, double *alpha) {
  const double u = roe->vel[0], v = roe->vel[1], w = roe->vel[2];
  const double c = roe->c;
  alpha[2] = dU[MOM2] - v * dU[DENS];
  alpha[3] = dU[MOM3] - w * dU[DENS];
  alpha[1] = pp->kappa_m1 / (c * c) * (dU[DENS] * (roe->H - u * u) + u * dU[MOM1] - d5);
  alpha[0] = 0.5 / c * (dU[DENS] * (u + c) - dU[MOM1] - c * alpha[1]);
  alpha[4] = dU[DENS] - alpha[0] - alpha[1];
}

/* central - 1/2 sum_k alpha_k |lambda_k| r_k */
HD static inline void riemann_roe_assemble(int split, const PhysParams *pp, const RiemannState *L,
                                           const RiemannState *R, const RoeAverage *roe,
                                           const double *alpha, const double *abs_lambda,
                                           double *F) {
  double r[5][HX_NVAR];
  riemann_roe_eigenvectors(roe, r);
  riemann_central(split, pp, L, R, F);
  for (int k = 0; k < 5; k++)
    for (int v = 0; v < HX_NVAR; v++)
      F[v] -= 0.5 * alpha[k] * abs_lambda[k] * r[k][v];
}

/* Roe 1981 without entropy fix (low_mach = 0), or L2Roe (low_mach = 1, Osswald et al.
 * 2016, Int. J. Numer. Meth. Fluids 81): the momentum jumps entering the dissipation are scaled by
 * the local Mach number z = |u~| / (c~ sqrt(kappa)) (FLEXI's definition; the energy jump d5 keeps
 * the unscaled momenta as in FLEXI), capped at 1 so that L2Roe falls back to Roe for z >= 1 as in
 * the paper. */
HD static inline void riemann_1d_roe(int split, int low_mach, const PhysParams *pp,
                                     const RiemannState *L, const RiemannState *R, double *F) {
  const RoeAverage roe = riemann_roe_average(pp, L, R);
  double dU[HX_NVAR], alpha[5];
  for (int v = 0; v < HX_NVAR; v++)
    dU[v] = R->U[v] - L->U[v];
  const double d5 = riemann_roe_energy_jump(&roe, dU);
  if (low_mach) {
    const double vel =
        sqrt(roe.vel[0] * roe.vel[0] + roe.vel[1] * roe.vel[1] + roe.vel[2] * roe.vel[2]);
    const double z = fmin(vel / (roe.c * sqrt(pp->kappa)), 1.0);
    dU[MOM1] *= z;
    dU[MOM2] *= z;
    dU[MOM3] *= z;
  }
  riemann_roe_wave_strengths(pp, &roe, dU, d5, alpha);
  const double abs_lambda[5] = {fabs(roe.vel[0] - roe.c), fabs(roe.vel[0]), fabs(roe.vel[0]),
                                fabs(roe.vel[0]), fabs(roe.vel[0] + roe.c)};
  riemann_roe_assemble(split, pp, L, R, &roe, alpha, abs_lambda, F);
}

/* Roe with Harten & Hyman 1983 (JCP 50) entropy fix, variant HH2 of Pelanti, Quartapelle &
 * Vigevano 2001 ("A review of entropy fixes as applied to Roe's linearization"), applied to every
 * wave as FLEXI does, and the wave strengths from the primitive jumps (Roe-Pike form,
 * Toro 2009, Ch. 11). */
HD static inline void riemann_1d_roe_entropy_fix(int split, const PhysParams *pp,
                                                 const RiemannState *L, const RiemannState *R,
                                                 double *F) {
  const RoeAverage roe = riemann_roe_average(pp, L, R);
  const double d_rho = R->prim[PDENS] - L->prim[PDENS];
  const double d_u = R->prim[VEL1] - L->prim[VEL1];
  const double d_p = R->prim[PRES] - L->prim[PRES];
  const double s_2c2 = 0.5 / (roe.c * roe.c);
  const double alpha[5] = {s_2c2 * (d_p - roe.rho * roe.c * d_u), d_rho - 2.0 * s_2c2 * d_p,
                           roe.rho * (R->prim[VEL2] - L->prim[VEL2]),
                           roe.rho * (R->prim[VEL3] - L->prim[VEL3]),
                           s_2c2 * (d_p + roe.rho * roe.c * d_u)};
  const double lambda[5] = {roe.vel[0] - roe.c, roe.vel[0], roe.vel[0], roe.vel[0],
                            roe.vel[0] + roe.c};
  const double lambda_l[5] = {L->prim[VEL1] - L->c, L->prim[VEL1], L->prim[VEL1], L->prim[VEL1],
                              L->prim[VEL1] + L->c};
  const double lambda_r[5] = {R->prim[VEL1] - R->c, R->prim[VEL1], R->prim[VEL1], R->prim[VEL1],
                              R->prim[VEL1] + R->c};
  double abs_lambda[5];
  for (int k = 0; k < 5; k++) {
    const double delta = fmax(0.0, fmax(lambda[k] - lambda_l[k], lambda_r[k] - lambda[k]));
    abs_lambda[k] =
        fabs(lambda[k]) < delta ? 0.5 * (lambda[k] * lambda[k] / delta + delta) : fabs(lambda[k]);
  }
  riemann_roe_assemble(split, pp, L, R, &roe, alpha, abs_lambda, F);
}

/* HLLEM (Einfeldt, Munz, Roe & Sjogreen 1991, JCP 92, with the linearized contact and
 * shear waves of Roe's matrix): HLLE's speeds, and the HLL dissipation sl sr (UR - UL) / (sr - sl)
 * without the part delta (alpha_2 r_2 + alpha_3 r_3 + alpha_4 r_4) that the entropy and shear
 * waves carry, delta = c~ / (c~ + |(sl + sr) / 2|) (FLEXI's anti-diffusion coefficient; 1 for a
 * wave fan centred on the face). Wave strengths in the primitive (Roe-Pike) form as
 * riemann_1d_roe_entropy_fix, so a stationary contact is kept exactly. */
HD static inline void riemann_1d_hllem(const PhysParams *pp, const RiemannState *L,
                                       const RiemannState *R, double *F) {
  const RoeAverage roe = riemann_roe_average(pp, L, R);
  const double beta = sqrt(0.5 * pp->kappa_m1 / pp->kappa);
  const double sl = fmin(fmin(roe.vel[0] - roe.c, L->prim[VEL1] - beta * L->c), 0.0);
  const double sr = fmax(fmax(roe.vel[0] + roe.c, R->prim[VEL1] + beta * R->c), 0.0);
  if (sl >= 0.0 || sr <= 0.0) {
    riemann_hll_formula(L, R, sl, sr, F);
    return;
  }
  double r[5][HX_NVAR];
  riemann_roe_eigenvectors(&roe, r);
  const double delta = roe.c / (roe.c + fabs(0.5 * (sl + sr)));
  const double alpha[3] = {
      R->prim[PDENS] - L->prim[PDENS] - (R->prim[PRES] - L->prim[PRES]) / (roe.c * roe.c),
      roe.rho * (R->prim[VEL2] - L->prim[VEL2]), roe.rho * (R->prim[VEL3] - L->prim[VEL3])};
  const double s_den = 1.0 / (sr - sl);
  for (int v = 0; v < HX_NVAR; v++) {
    const double contact = alpha[0] * r[1][v] + alpha[1] * r[2][v] + alpha[2] * r[3][v];
    F[v] = (sr * L->F[v] - sl * R->F[v] + sl * sr * (R->U[v] - L->U[v] - delta * contact)) * s_den;
  }
}

/* Entropy-conserving two-point flux with FLEXI's scalar (Rusanov-type) dissipation whose energy
 * component is written in the averaged variables of Chandrashekar 2013: the jump of
 * rho E is approximated by drho (1/(2 (kappa-1) beta_ln) + uL.uR/2) + {rho}{u}.du
 * + {rho}/(2 (kappa-1)) d(1/beta). */
HD static inline void riemann_1d_ch(int split, const PhysParams *pp, const RiemannState *L,
                                    const RiemannState *R, double *F) {
  const double lambda = riemann_lf_speed(L, R);
  const double e_n[3] = {1.0, 0.0, 0.0};
  const int two_point = split == SPLIT_NONE ? SPLIT_CH : split;
  split_surface_flux(two_point, pp, L->U, L->prim, R->U, R->prim, e_n, F);
  const double betaL = 0.5 * L->U[DENS] / L->prim[PRES];
  const double betaR = 0.5 * R->U[DENS] / R->prim[PRES];
  const double beta_ln = log_mean(betaL, betaR);
  const double rho_avg = 0.5 * (L->U[DENS] + R->U[DENS]);
  const double d_rho = R->U[DENS] - L->U[DENS];
  double uLuR = 0.0, kinetic = 0.0;
  for (int k = 0; k < 3; k++) {
    const double uL = L->prim[VEL1 + k], uR = R->prim[VEL1 + k];
    uLuR += uL * uR;
    kinetic += rho_avg * 0.5 * (uL + uR) * (uR - uL);
  }
  for (int v = 0; v < ENER; v++)
    F[v] -= 0.5 * lambda * (R->U[v] - L->U[v]);
  F[ENER] -= 0.5 * lambda *
             (d_rho * (0.5 * pp->s_kappa_m1 / beta_ln + 0.5 * uLuR) + kinetic +
              0.5 * rho_avg * pp->s_kappa_m1 * (1.0 / betaR - 1.0 / betaL));
}

/* 1-D numerical flux in the rotated frame; unknown solver ids give NaN. */
HD static inline void riemann_flux_1d(int solver, int split, const PhysParams *pp,
                                      const RiemannState *L, const RiemannState *R, double *F) {
  switch (solver) {
  case RIEMANN_LF:
    riemann_1d_lf(split, pp, L, R, F);
    break;
  case RIEMANN_HLLC:
    riemann_1d_hllc(pp, L, R, F);
    break;
  case RIEMANN_ROE:
    riemann_1d_roe(split, 0, pp, L, R, F);
    break;
  case RIEMANN_ROEL2:
    riemann_1d_roe(split, 1, pp, L, R, F);
    break;
  case RIEMANN_ROE_ENTROPYFIX:
    riemann_1d_roe_entropy_fix(split, pp, L, R, F);
    break;
  case RIEMANN_HLL:
    riemann_1d_hll(pp, L, R, F);
    break;
  case RIEMANN_HLLE:
    riemann_1d_hlle(pp, L, R, F);
    break;
  case RIEMANN_HLLEM:
    riemann_1d_hllem(pp, L, R, F);
    break;
  case RIEMANN_CH:
    riemann_1d_ch(split, pp, L, R, F);
    break;
  default:
    for (int v = 0; v < HX_NVAR; v++)
      F[v] = nan("");
    break;
  }
}

/* The 1-D flux of two rotated states, rotated back to the Cartesian frame. */
HD static inline void riemann_flux_rotated(int solver, int split, const PhysParams *pp,
                                           const RiemannState *L, const RiemannState *R,
                                           const double n[3], const double t1[3],
                                           const double t2[3], double *F) {
  double F_rot[HX_NVAR];
  riemann_flux_1d(solver, split, pp, L, R, F_rot);
  F[DENS] = F_rot[DENS];
  for (int k = 0; k < 3; k++)
    F[MOM1 + k] = n[k] * F_rot[MOM1] + t1[k] * F_rot[MOM2] + t2[k] * F_rot[MOM3];
  F[ENER] = F_rot[ENER];
}

/* Numerical flux F*(UL, UR) . n per unit area for the orthonormal face frame (n, t1, t2). */
HD static inline void riemann_flux(int solver, int split, const PhysParams *pp, const double *UL,
                                   const double *UR, const double n[3], const double t1[3],
                                   const double t2[3], double *F) {
  RiemannState L, R;
  riemann_rotate_state(pp, UL, n, t1, t2, &L);
  riemann_rotate_state(pp, UR, n, t1, t2, &R);
  riemann_flux_rotated(solver, split, pp, &L, &R, n, t1, t2, F);
}

/* riemann_flux of two primitive states (rho, u, v, w, p) (riemann_rotate_prim). */
HD static inline void riemann_flux_prim(int solver, int split, const PhysParams *pp,
                                        const double *pL, const double *pR, const double n[3],
                                        const double t1[3], const double t2[3], double *F) {
  RiemannState L, R;
  riemann_rotate_prim(pp, pL, n, t1, t2, &L);
  riemann_rotate_prim(pp, pR, n, t1, t2, &R);
  riemann_flux_rotated(solver, split, pp, &L, &R, n, t1, t2, F);
}

/* Largest characteristic speed |u.n| + c |n| along n (n need not be unit, e.g. a metric vector). */
HD static inline double max_wave_speed(const PhysParams *pp, const double *U, const double *prim,
                                       const double n[3]) {
  (void)U;
  const double vel_n = prim[VEL1] * n[0] + prim[VEL2] * n[1] + prim[VEL3] * n[2];
  return fabs(vel_n) + speed_of_sound(pp, prim) * sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
}

#endif
