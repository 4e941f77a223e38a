/* Two-point (split-form) fluxes F#(UL, UR) for the split-form DGSEM, selected by FLEXI's SplitDG
 * ids (physics.h): SD standard DG, MO Morinishi, DU Ducros, KG Kennedy-Gruber, PI Pirozzoli,
 * CH Chandrashekar. Overview and the two-point flux framework: Gassner, Winters & Kopriva 2016,
 * JCP 327 ("Split form nodal DG schemes with SBP property for the compressible Euler equations").
 *
 * Averages: {a} = (aL + aR)/2, a_ln = logarithmic mean. Every flux is symmetric in (L, R) and
 * consistent: F#(U, U) . m = F(U) . m. No factor 2 is folded in (FLEXI folds the factor 2 of the
 * split volume integral into its volume fluxes; hexdg leaves it to the DG operator).
 * Pointwise HD functions shared by the CPU and CUDA backends. */
#ifndef HEXDG_SPLITFLUX_H
#define HEXDG_SPLITFLUX_H

#include <math.h>

#include "physics/euler.h"
#include "physics/physics.h"

/* Logarithmic mean (a - b) / (ln a - ln b) for a, b > 0, evaluated stably near a == b with the
 * series of Ismail & Roe 2009 (JCP 228): with f = (a-b)/(a+b), u = f^2,
 * ln(a/b) / (2 f) = 1 + u/3 + u^2/5 + u^3/7 + ... for small u. Two more terms than Ismail & Roe
 * keep the truncation error below 1e-13 at the switch u = 1e-2. */
HD static inline double log_mean(double a, double b) {
  const double zeta = a / b;
  const double f = (zeta - 1.0) / (zeta + 1.0);
  const double u = f * f;
  double series;
  if (u < 1.0e-2) {
    series = 1.0 + u * (1.0 / 3.0 + u * (1.0 / 5.0 + u * (1.0 / 7.0 + u * (1.0 / 9.0 + u / 11.0))));
  } else {
    series = log(zeta) / (2.0 * f);
  }
  return (a + b) / (2.0 * series);
}

/* Helper for the kinetic-energy-preserving family (KG, PI, CH): mass flux f_rho, momentum flux
 * f_rho {u} + p_avg m and a given energy flux. */
HD static inline void split_assemble_kep(double mass_flux, const double *vel_avg, double p_avg,
                                         double energy_flux, const double *m, double *F) {
  F[DENS] = mass_flux;
  F[MOM1] = mass_flux * vel_avg[0] + p_avg * m[0];
  F[MOM2] = mass_flux * vel_avg[1] + p_avg * m[1];
  F[MOM3] = mass_flux * vel_avg[2] + p_avg * m[2];
  F[ENER] = energy_flux;
}

/* Standard DG central flux {F} . m. */
HD static inline void split_flux_sd(const double *UL, const double *primL, const double *UR,
                                    const double *primR, const double *m, double *F) {
  double FL[HX_NVAR], FR[HX_NVAR];
  euler_flux_normal(UL, primL, m, FL);
  euler_flux_normal(UR, primR, m, FR);
  for (int v = 0; v < HX_NVAR; v++)
    F[v] = 0.5 * (FL[v] + FR[v]);
}

/* Morinishi 2010 (JCP 229): {rho u_m}, {rho u_m}{u} + {p} m, and the energy flux
 * {(rho e + p) u_m} + sum_k {rho u_m u_k}{u_k} - 1/2 {rho u_m |u|^2} (Gassner et al. 2016). */
HD static inline void split_flux_mo(const double *UL, const double *primL, const double *UR,
                                    const double *primR, const double *m, double *F) {
  const double *uL = primL + VEL1, *uR = primR + VEL1;
  const double umL = uL[0] * m[0] + uL[1] * m[1] + uL[2] * m[2];
  const double umR = uR[0] * m[0] + uR[1] * m[1] + uR[2] * m[2];
  const double vel2L = uL[0] * uL[0] + uL[1] * uL[1] + uL[2] * uL[2];
  const double vel2R = uR[0] * uR[0] + uR[1] * uR[1] + uR[2] * uR[2];
  const double rhoep_L = UL[ENER] - 0.5 * UL[DENS] * vel2L + primL[PRES]; /* rho e + p */
  const double rhoep_R = UR[ENER] - 0.5 * UR[DENS] * vel2R + primR[PRES];
  const double qL = UL[DENS] * umL, qR = UR[DENS] * umR; /* rho u_m */
  const double p_avg = 0.5 * (primL[PRES] + primR[PRES]);
  double vel_avg[3];
  double energy = 0.5 * (rhoep_L * umL + rhoep_R * umR) - 0.25 * (qL * vel2L + qR * vel2R);
  for (int k = 0; k < 3; k++) {
    vel_avg[k] = 0.5 * (uL[k] + uR[k]);
    energy += 0.5 * (qL * uL[k] + qR * uR[k]) * vel_avg[k];
  }
  split_assemble_kep(0.5 * (qL + qR), vel_avg, p_avg, energy, m, F);
}

/* Ducros et al. 2000 (JCP 161): {rho}{u_m}, {rho u}{u_m} + {p} m, ({rho E} + {p}){u_m}. */
HD static inline void split_flux_du(const double *UL, const double *primL, const double *UR,
                                    const double *primR, const double *m, double *F) {
  const double um_avg =
      0.5 * ((primL[VEL1] + primR[VEL1]) * m[0] + (primL[VEL2] + primR[VEL2]) * m[1] +
             (primL[VEL3] + primR[VEL3]) * m[2]);
  const double p_avg = 0.5 * (primL[PRES] + primR[PRES]);
  F[DENS] = 0.5 * (UL[DENS] + UR[DENS]) * um_avg;
  F[MOM1] = 0.5 * (UL[MOM1] + UR[MOM1]) * um_avg + p_avg * m[0];
  F[MOM2] = 0.5 * (UL[MOM2] + UR[MOM2]) * um_avg + p_avg * m[1];
  F[MOM3] = 0.5 * (UL[MOM3] + UR[MOM3]) * um_avg + p_avg * m[2];
  F[ENER] = (0.5 * (UL[ENER] + UR[ENER]) + p_avg) * um_avg;
}

/* The per-node quantity of KG (specific total energy rhoE/rho) and PI (specific total enthalpy
 * (rhoE+p)/rho); 0 for the other fluxes. Volume integrals compute it once per node, so that the
 * pair loop needs no division. */
HD static inline double split_node_aux(int which, const double *U, const double *prim) {
  if (which == SPLIT_KG) return U[ENER] / U[DENS];
  if (which == SPLIT_PI) return (U[ENER] + prim[PRES]) / U[DENS];
  return 0.0;
}

/* KG and PI from the means of the two nodes' density, velocity, pressure and node quantity aux
 * (split_node_aux) and the mean metric m: the two-point part of these fluxes is the averaging
 * alone, which the GPU volume integral does from halves stored per node. */
HD static inline void split_flux_kg_pi_means(int use_enthalpy, double rho_avg,
                                             const double *vel_avg, double p_avg, double aux_avg,
                                             const double *m, double *F) {
  const double um_avg = vel_avg[0] * m[0] + vel_avg[1] * m[1] + vel_avg[2] * m[2];
  const double mass = rho_avg * um_avg;
  const double energy = use_enthalpy ? mass * aux_avg : mass * aux_avg + p_avg * um_avg;
  split_assemble_kep(mass, vel_avg, p_avg, energy, m, F);
}

/* Kennedy & Gruber 2008 (JCP 227), use_enthalpy = 0: {rho}{u_m}, {rho}{u_m}{u} + {p} m,
 * {rho}{u_m}{E} + {p}{u_m} with E = rho E / rho.
 * Pirozzoli 2011 (Annu. Rev. Fluid Mech. 43), use_enthalpy = 1: same mass and momentum flux,
 * energy flux {rho}{u_m}{H} with H = (rho E + p) / rho. auxL/auxR: split_node_aux of the nodes. */
HD static inline void split_flux_kg_pi_aux(int use_enthalpy, const double *UL, const double *primL,
                                           double auxL, const double *UR, const double *primR,
                                           double auxR, const double *m, double *F) {
  double vel_avg[3];
  for (int k = 0; k < 3; k++)
    vel_avg[k] = 0.5 * (primL[VEL1 + k] + primR[VEL1 + k]);
  split_flux_kg_pi_means(use_enthalpy, 0.5 * (UL[DENS] + UR[DENS]), vel_avg,
                         0.5 * (primL[PRES] + primR[PRES]), 0.5 * (auxL + auxR), m, F);
}

HD static inline void split_flux_kg_pi(int use_enthalpy, const double *UL, const double *primL,
                                       const double *UR, const double *primR, const double *m,
                                       double *F) {
  const int which = use_enthalpy ? SPLIT_PI : SPLIT_KG;
  split_flux_kg_pi_aux(use_enthalpy, UL, primL, split_node_aux(which, UL, primL), UR, primR,
                       split_node_aux(which, UR, primR), m, F);
}

/* Chandrashekar 2013 (Commun. Comput. Phys. 14), entropy conserving and kinetic energy
 * preserving, with beta = rho / (2 p): mass rho_ln {u_m}, momentum mass {u} + p_hat m with
 * p_hat = {rho} / (2 {beta}), energy mass * H_hat with
 * H_hat = 1 / (2 (kappa-1) beta_ln) + p_hat / rho_ln + uL.uR / 2. */
HD static inline void split_flux_ch(const PhysParams *pp, const double *UL, const double *primL,
                                    const double *UR, const double *primR, const double *m,
                                    double *F) {
  double vel_avg[3];
  for (int k = 0; k < 3; k++)
    vel_avg[k] = 0.5 * (primL[VEL1 + k] + primR[VEL1 + k]);
  const double um_avg = vel_avg[0] * m[0] + vel_avg[1] * m[1] + vel_avg[2] * m[2];
  const double betaL = 0.5 * UL[DENS] / primL[PRES];
  const double betaR = 0.5 * UR[DENS] / primR[PRES];
  const double rho_ln = log_mean(UL[DENS], UR[DENS]);
  const double beta_ln = log_mean(betaL, betaR);
  const double p_hat = 0.5 * (UL[DENS] + UR[DENS]) / (betaL + betaR);
  const double uLuR =
      primL[VEL1] * primR[VEL1] + primL[VEL2] * primR[VEL2] + primL[VEL3] * primR[VEL3];
  const double H_hat = 0.5 * pp->s_kappa_m1 / beta_ln + p_hat / rho_ln + 0.5 * uLuR;
  const double mass = rho_ln * um_avg;
  split_assemble_kep(mass, vel_avg, p_hat, mass * H_hat, m, F);
}

/* F#(UL, UR) . m for any direction m (for SD: {F} . m). Unknown ids give NaN. */
HD static inline void split_two_point_flux(int which, const PhysParams *pp, const double *UL,
                                           const double *primL, const double *UR,
                                           const double *primR, const double *m, double *F) {
  switch (which) {
  case SPLIT_SD:
    split_flux_sd(UL, primL, UR, primR, m, F);
    break;
  case SPLIT_MO:
    split_flux_mo(UL, primL, UR, primR, m, F);
    break;
  case SPLIT_DU:
    split_flux_du(UL, primL, UR, primR, m, F);
    break;
  case SPLIT_KG:
    split_flux_kg_pi(0, UL, primL, UR, primR, m, F);
    break;
  case SPLIT_PI:
    split_flux_kg_pi(1, UL, primL, UR, primR, m, F);
    break;
  case SPLIT_CH:
    split_flux_ch(pp, UL, primL, UR, primR, m, F);
    break;
  default:
    for (int v = 0; v < HX_NVAR; v++)
      F[v] = nan("");
    break;
  }
}

/* Contravariant two-point volume flux between nodes L and R with metric vectors mL, mR:
 * SD: (F(UL) . mL + F(UR) . mR) / 2, which with the split-form operator 2 D_ij F#_ij reproduces
 * the standard DGSEM volume integral exactly (the rows of D sum to zero);
 * others: F#(UL, UR) . {m} (Gassner, Winters & Kopriva 2016, metric averaging).
 * auxL/auxR: split_node_aux of the two nodes (precomputed once per node by the volume integral). */
HD static inline void split_volume_flux_aux(int which, const PhysParams *pp, const double *UL,
                                            const double *primL, double auxL, const double *UR,
                                            const double *primR, double auxR, const double *mL,
                                            const double *mR, double *F) {
  if (which == SPLIT_SD) {
    double FL[HX_NVAR], FR[HX_NVAR];
    euler_flux_normal(UL, primL, mL, FL);
    euler_flux_normal(UR, primR, mR, FR);
    for (int v = 0; v < HX_NVAR; v++)
      F[v] = 0.5 * (FL[v] + FR[v]);
    return;
  }
  const double m_avg[3] = {0.5 * (mL[0] + mR[0]), 0.5 * (mL[1] + mR[1]), 0.5 * (mL[2] + mR[2])};
  if (which == SPLIT_KG || which == SPLIT_PI)
    split_flux_kg_pi_aux(which == SPLIT_PI, UL, primL, auxL, UR, primR, auxR, m_avg, F);
  else
    split_two_point_flux(which, pp, UL, primL, UR, primR, m_avg, F);
}

HD static inline void split_volume_flux(int which, const PhysParams *pp, const double *UL,
                                        const double *primL, const double *UR, const double *primR,
                                        const double *mL, const double *mR, double *F) {
  split_volume_flux_aux(which, pp, UL, primL, split_node_aux(which, UL, primL), UR, primR,
                        split_node_aux(which, UR, primR), mL, mR, F);
}

/* Surface version F#(UL, UR) . n (SD: (F(UL) + F(UR)) / 2 . n), used as the central part of the
 * Riemann solvers so that surface and volume fluxes match. */
HD static inline void split_surface_flux(int which, const PhysParams *pp, const double *UL,
                                         const double *primL, const double *UR, const double *primR,
                                         const double *n, double *F) {
  split_two_point_flux(which, pp, UL, primL, UR, primR, n, F);
}

#endif
