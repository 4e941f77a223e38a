/* Low-storage Runge-Kutta schemes by FLEXI's TimeDiscMethod names, in one of two forms.
 * Williamson 2N (form RK_2N), registers U and k:
 *   k  = A[s]*k + dt*R(U, t + c[s]*dt)
 *   U += B[s]*k                                  (A[0] = 0)
 * Ketcheson 3S* (form RK_3SSTAR; Ketcheson, J. Comput. Phys. 229 (2010) 1763-1773, Alg. 3S*),
 * registers S1 = U, S2 and S3 = U at the start of the step:
 *   s = 0:  S2 = S3 = U,           U += B[0]*dt*R(U, t)
 *   s > 0:  S2 += delta[s]*U,      U = gamma1[s]*U + gamma2[s]*S2 + gamma3[s]*S3 + B[s]*dt*R(U, t +
 * c[s]*dt) cfl_alpha[N] is the N-dependent factor that multiplies CFLscale (N = 1..HX_NMAX),
 * separately for Gauss and Gauss-Lobatto nodes; dfl_alpha likewise for the viscous time step. */
#ifndef HEXDG_RK_TABLES_H
#define HEXDG_RK_TABLES_H

#include "basis/basis.h"
#include "core/hd.h"

typedef enum { RK_2N, RK_3SSTAR } RKForm;

typedef struct {
  const char *name; /* FLEXI spelling, e.g. "carpenterrk4-5" */
  const char *reference;
  int order;
  int n_stages;
  RKForm form;
  const double *A, *B, *c;                        /* A: RK_2N only (NULL for 3S*) */
  const double *gamma1, *gamma2, *gamma3, *delta; /* RK_3SSTAR only (NULL for 2N) */
  const double *cfl_alpha_gauss;                  /* [HX_NMAX+1], index N */
  const double *cfl_alpha_lobatto;                /* [HX_NMAX+1], index N */
  const double *dfl_alpha_gauss;
  const double *dfl_alpha_lobatto;
} LowStorageRK;

/* Find a scheme by name (case-insensitive). Returns NULL if unknown. */
const LowStorageRK *rk_find(const char *name);
/* Number of schemes and the i-th (for --help lists and tests). */
int rk_count(void);
const LowStorageRK *rk_at(int i);

/* The coefficients (a, b) of the fused 2N update k = a*k + dt*R, U += b*k (the GPU kernels') that
 * stage st uses: (A[st], B[st]) for 2N; for 3S*, (0, B[0]) at st = 0 and (1, B[st]) after
 * rk3s_prepare_node has put the stage's register combination into k. */
void rk_fused_coefs(const LowStorageRK *rk, int st, double *a, double *b);

/* 3S* stage st > 0 before the fused 2N update of one degree of freedom, with the stage's
 * coefficients g = (gamma1, gamma2, gamma3, delta, B): S2 += delta*U and
 * k = ((gamma1-1)*U + gamma2*S2 + gamma3*S3)/B, so that U + B*(k + dt*R) is the 3S* stage value.
 * Needs B != 0 (true for every 3S* table here; test_rk checks it). */
static inline HD void rk3s_prepare_node(const double g[5], double u, double *s2, double s3,
                                        double *k) {
  const double s2_new = *s2 + g[3] * u;
  *s2 = s2_new;
  *k = ((g[0] - 1.0) * u + g[1] * s2_new + g[2] * s3) / g[4];
}

/* The five coefficients of rk3s_prepare_node for stage st > 0 of a 3S* scheme. */
void rk3s_stage_coefs(const LowStorageRK *rk, int st, double g[5]);

#endif
