/* Pointwise integrands of the Taylor-Green vortex analysis (the columns of FLEXI's
 * <ProjectName>_TGVAnalysis.csv, flexi src/testcase/taylorgreenvortex/testcase.f90,
 * AnalyzeTestcase). Pure math shared by the CPU reduction (analysis/tgv.c) and a GPU reduction:
 * summing f * w_i w_j w_k J over all nodes gives the same integrals on either backend.
 * Formulas and sources: docs/tgv.md. */
#ifndef HEXDG_TGV_POINTWISE_H
#define HEXDG_TGV_POINTWISE_H

#include <math.h>

#include "physics/eos.h"
#include "physics/physics.h"
#include "physics/viscosity.h"

/* Indices of the volume integrals, all of the form int f dV. */
enum {
  TGV_SUM_EKIN = 0,       /* 1/2 |u|^2 */
  TGV_SUM_EKIN_COMP = 1,  /* 1/2 rho |u|^2 */
  TGV_SUM_ENSTROPHY = 2,  /* 1/2 rho |omega|^2 */
  TGV_SUM_GRADU = 3,      /* grad u : grad u */
  TGV_SUM_STRAIN = 4,     /* S : S, S = (grad u + grad u^T)/2 */
  TGV_SUM_STRAIN_DEV = 5, /* Sd : Sd, Sd = S - (div u)/3 I */
  TGV_SUM_PDIL = 6,       /* p div u */
  TGV_SUM_TEMP = 7,       /* T */
  TGV_SUM_ENTROPY = 8,    /* -rho (ln p - kappa ln rho) / (kappa - 1) */
  TGV_SUM_ED_S = 9,       /* mu(T) |omega|^2 */
  TGV_SUM_ED_D = 10       /* mu(T) (div u)^2 */
};
#define HX_TGV_NSUMS 11

/* f[HX_TGV_NSUMS]: the integrands at one node from the conservative state U[5] and the lifted
 * gradients grad_node[dir * HX_NLIFT + lift] = d(lift)/d(x_dir) (lift = LIFT_VEL1.. of
 * physics.h); *vort_mag = |omega| for the maximum vorticity. */
HD static inline void tgv_node_integrands(const PhysParams *pp, const double *U,
                                          const double *grad_node, double *f, double *vort_mag) {
  double prim[HX_NPRIM];
  cons_to_prim(pp, U, prim);
  /* G[a][b] = d u_a / d x_b */
  double G[3][3];
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++)
      G[a][b] = grad_node[b * HX_NLIFT + LIFT_VEL1 + a];
  const double div_u = G[0][0] + G[1][1] + G[2][2];
  const double omega[3] = {G[2][1] - G[1][2], G[0][2] - G[2][0], G[1][0] - G[0][1]};
  const double omega2 = omega[0] * omega[0] + omega[1] * omega[1] + omega[2] * omega[2];
  double gradu2 = 0.0, strain2 = 0.0, strain_dev2 = 0.0;
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) {
      const double s_ab = 0.5 * (G[a][b] + G[b][a]);
      const double sd_ab = a == b ? s_ab - div_u / 3.0 : s_ab;
      gradu2 += G[a][b] * G[a][b];
      strain2 += s_ab * s_ab;
      strain_dev2 += sd_ab * sd_ab;
    }
  const double rho = prim[PDENS], p = prim[PRES];
  const double vel2 = prim[VEL1] * prim[VEL1] + prim[VEL2] * prim[VEL2] + prim[VEL3] * prim[VEL3];
  const double mu = viscosity(pp, prim[TEMP]);
  f[TGV_SUM_EKIN] = 0.5 * vel2;
  f[TGV_SUM_EKIN_COMP] = 0.5 * rho * vel2;
  f[TGV_SUM_ENSTROPHY] = 0.5 * rho * omega2;
  f[TGV_SUM_GRADU] = gradu2;
  f[TGV_SUM_STRAIN] = strain2;
  f[TGV_SUM_STRAIN_DEV] = strain_dev2;
  f[TGV_SUM_PDIL] = p * div_u;
  f[TGV_SUM_TEMP] = prim[TEMP];
  f[TGV_SUM_ENTROPY] = -pp->s_kappa_m1 * rho * (log(p) - pp->kappa * log(rho));
  f[TGV_SUM_ED_S] = mu * omega2;
  f[TGV_SUM_ED_D] = mu * div_u * div_u;
  *vort_mag = sqrt(omega2);
}

#endif
