/* Low-storage (Williamson 2N) Runge-Kutta schemes by FLEXI's TimeDiscMethod names:
 *   k  = A[s]*k + dt*R(U, t + c[s]*dt)
 *   U += B[s]*k                                  (A[0] = 0)
 * cfl_alpha[N] is the N-dependent factor that multiplies CFLscale (N = 1..HX_NMAX), separately for
 * Gauss and Gauss-Lobatto nodes; dfl_alpha likewise for the viscous time step. */
#ifndef HEXDG_RK_TABLES_H
#define HEXDG_RK_TABLES_H

#include "basis/basis.h"

typedef struct {
  const char *name;    /* FLEXI spelling, e.g. "carpenterrk4-5" */
  const char *reference;
  int order;
  int n_stages;
  const double *A, *B, *c;
  const double *cfl_alpha_gauss;   /* [HX_NMAX+1], index N */
  const double *cfl_alpha_lobatto; /* [HX_NMAX+1], index N */
  const double *dfl_alpha_gauss;
  const double *dfl_alpha_lobatto;
} LowStorageRK;

/* Find a scheme by name (case-insensitive). Returns NULL if unknown. */
const LowStorageRK *rk_find(const char *name);
/* Number of schemes and the i-th (for --help lists and tests). */
int rk_count(void);
const LowStorageRK *rk_at(int i);

#endif
