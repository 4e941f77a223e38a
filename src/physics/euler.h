/* Physical (analytical) Euler fluxes. Pointwise HD functions shared by the CPU and CUDA backends.
 */
#ifndef HEXDG_EULER_H
#define HEXDG_EULER_H

#include <math.h>

#include "physics/physics.h"

/* F(U) . n for any (not necessarily unit) vector n; prim must belong to U. */
HD static inline void euler_flux_normal(const double *U, const double *prim, const double n[3],
                                        double *F) {
  const double vel_n = prim[VEL1] * n[0] + prim[VEL2] * n[1] + prim[VEL3] * n[2];
  const double p = prim[PRES];
  F[DENS] = U[DENS] * vel_n;
  F[MOM1] = U[MOM1] * vel_n + p * n[0];
  F[MOM2] = U[MOM2] * vel_n + p * n[1];
  F[MOM3] = U[MOM3] * vel_n + p * n[2];
  F[ENER] = (U[ENER] + p) * vel_n;
}

/* The three Cartesian flux vectors f, g, h of U. */
HD static inline void euler_fluxes_xyz(const double *U, const double *prim, double *f, double *g,
                                       double *h) {
  const double ex[3] = {1.0, 0.0, 0.0};
  const double ey[3] = {0.0, 1.0, 0.0};
  const double ez[3] = {0.0, 0.0, 1.0};
  euler_flux_normal(U, prim, ex, f);
  euler_flux_normal(U, prim, ey, g);
  euler_flux_normal(U, prim, ez, h);
}

#endif
