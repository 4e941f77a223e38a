/* Ideal-gas equation of state: conversions between conservative and primitive variables.
 * Pointwise HD functions shared by the CPU and CUDA backends (see core/hd.h). */
#ifndef HEXDG_EOS_H
#define HEXDG_EOS_H

#include <math.h>

#include "physics/physics.h"

/* 1/sqrt(x): the device's rsqrt, 1/sqrt on the host (they differ in the last bits). */
HD static inline double hx_rsqrt(double x) {
#ifdef __CUDA_ARCH__
  return rsqrt(x);
#else
  return 1.0 / sqrt(x);
#endif
}

/* Fill every derived gas constant from kappa (ratio of specific heats) and R. */
HD static inline void physparams_set(PhysParams *pp, double kappa, double R) {
  pp->kappa = kappa;
  pp->R = R;
  pp->kappa_m1 = kappa - 1.0;
  pp->s_kappa_m1 = 1.0 / (kappa - 1.0);
  pp->kappa_p1 = kappa + 1.0;
  pp->cv = R / (kappa - 1.0);
  pp->cp = kappa * R / (kappa - 1.0);
}

/* p = (kappa-1) (rho E - |rho u|^2 / (2 rho)) */
HD static inline double pressure_from_cons(const PhysParams *pp, const double *U) {
  const double mom2 = U[MOM1] * U[MOM1] + U[MOM2] * U[MOM2] + U[MOM3] * U[MOM3];
  return pp->kappa_m1 * (U[ENER] - 0.5 * mom2 / U[DENS]);
}

/* prim = (rho, u, v, w, p, T) with T = p / (rho R). */
HD static inline void cons_to_prim(const PhysParams *pp, const double *U, double *prim) {
  const double s_rho = 1.0 / U[DENS];
  prim[PDENS] = U[DENS];
  prim[VEL1] = U[MOM1] * s_rho;
  prim[VEL2] = U[MOM2] * s_rho;
  prim[VEL3] = U[MOM3] * s_rho;
  prim[PRES] = pressure_from_cons(pp, U);
  prim[TEMP] = prim[PRES] * s_rho / pp->R;
}

/* Uses rho, velocity and p of prim; the temperature entry is not read. */
HD static inline void prim_to_cons(const PhysParams *pp, const double *prim, double *U) {
  const double rho = prim[PDENS];
  const double vel2 = prim[VEL1] * prim[VEL1] + prim[VEL2] * prim[VEL2] + prim[VEL3] * prim[VEL3];
  U[DENS] = rho;
  U[MOM1] = rho * prim[VEL1];
  U[MOM2] = rho * prim[VEL2];
  U[MOM3] = rho * prim[VEL3];
  U[ENER] = pp->s_kappa_m1 * prim[PRES] + 0.5 * rho * vel2;
}

/* Set prim[TEMP] = p / (rho R) from the density and pressure entries. */
HD static inline void prim_set_temperature(const PhysParams *pp, double *prim) {
  prim[TEMP] = prim[PRES] / (prim[PDENS] * pp->R);
}

/* c = sqrt(kappa p / rho) from a primitive state. */
HD static inline double speed_of_sound(const PhysParams *pp, const double *prim) {
  return sqrt(pp->kappa * prim[PRES] / prim[PDENS]);
}

/* Specific total enthalpy H = (rho E + p) / rho. */
HD static inline double total_enthalpy(const double *U, const double *prim) {
  return (U[ENER] + prim[PRES]) / U[DENS];
}

#endif
