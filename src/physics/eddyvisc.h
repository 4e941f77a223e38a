/* Subgrid-scale eddy-viscosity models for LES (FLEXI's eddyViscType): pointwise HD functions
 * shared by the CPU and CUDA backends (see core/hd.h).
 *
 * Every model has the form mu_t = rho * coef * D(g), with g_ij = du_i/dx_j the resolved velocity
 * gradient, coef = (C Delta damp)^2 precomputed per node (dg/eddyvisc.c) and D the model's
 * differential operator (units 1/s):
 *   Smagorinsky (1963):        D = |S| = sqrt(2 S_ij S_ij),  S = (g + g^T)/2,       C = CS
 *   Vreman (2004, eq. 5-8):    D = sqrt(B_b / (a_ij a_ij)),  a_ij = du_j/dx_i,      C^2 = 2.5 CS^2
 *   sigma (Nicoud et al. 2011, eq. 15): D = s3 (s1 - s2)(s2 - s3) / s1^2,           C = CS
 * with s1 >= s2 >= s3 >= 0 the singular values of g. */
#ifndef HEXDG_EDDYVISC_H
#define HEXDG_EDDYVISC_H

#include <math.h>

#include "core/hd.h"
#include "physics/physics.h"
#include "physics/viscosity.h"

/* FLEXI's integer codes of eddyViscType (2: dynamic Smagorinsky, not implemented here). */
enum { SGS_NONE = 0, SGS_SMAGORINSKY = 1, SGS_DYNSMAG = 2, SGS_VREMAN = 3, SGS_SIGMA = 4 };

/* Van Driest's damping constant A+ (Van Driest 1956, J. Aeronaut. Sci. 23:1007). */
#define SGS_VAN_DRIEST_APLUS 26.0
/* Vreman's constant c = 2.5 CS^2 (Vreman 2004, Phys. Fluids 16:3670, below eq. 8). */
#define SGS_VREMAN_FACTOR 2.5

/* The velocity gradient g[i][j] = du_i/dx_j from the lifted gradients gx, gy, gz [HX_NLIFT]. */
HD static inline void sgs_velocity_gradient(const double *gx, const double *gy, const double *gz,
                                            double g[3][3]) {
  for (int i = 0; i < 3; i++) {
    g[i][0] = gx[LIFT_VEL1 + i];
    g[i][1] = gy[LIFT_VEL1 + i];
    g[i][2] = gz[LIFT_VEL1 + i];
  }
}

/* |S| = sqrt(2 S_ij S_ij) (Smagorinsky 1963, Mon. Weather Rev. 91:99). */
HD static inline double sgs_strain_rate_norm(const double g[3][3]) {
  double ss = 0.0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      const double s = 0.5 * (g[i][j] + g[j][i]);
      ss += s * s;
    }
  return sqrt(2.0 * ss);
}

/* sqrt(B_beta / (alpha_ij alpha_ij)) with alpha_ij = du_j/dx_i and beta = alpha^T alpha without
 * the Delta^2 (it is in coef): Vreman 2004, eq. (5)-(8). Zero where alpha vanishes, and where
 * round-off makes B (a sum of the 2x2 principal minors of a positive semidefinite matrix, >= 0)
 * negative. */
HD static inline double sgs_vreman_operator(const double g[3][3]) {
  double b[3][3], aa = 0.0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      double acc = 0.0; /* beta_ij = alpha_mi alpha_mj = g_im g_jm */
      for (int m = 0; m < 3; m++)
        acc += g[i][m] * g[j][m];
      b[i][j] = acc;
      aa += g[i][j] * g[i][j];
    }
  const double B = b[0][0] * b[1][1] - b[0][1] * b[0][1] + b[0][0] * b[2][2] - b[0][2] * b[0][2] +
                   b[1][1] * b[2][2] - b[1][2] * b[1][2];
  if (aa <= 0.0 || B <= 0.0) return 0.0;
  return sqrt(B / aa);
}

/* The singular values s[0] >= s[1] >= s[2] of g: square roots of the eigenvalues of G = g^T g
 * from its invariants (Nicoud et al. 2011, Phys. Fluids 23:085106, Appendix, eq. A1-A4). */
HD static inline void sgs_singular_values(const double g[3][3], double s[3]) {
  double G[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      double acc = 0.0;
      for (int m = 0; m < 3; m++)
        acc += g[m][i] * g[m][j];
      G[i][j] = acc;
    }
  double trG2 = 0.0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      trG2 += G[i][j] * G[j][i];
  const double I1 = G[0][0] + G[1][1] + G[2][2];
  const double I2 = 0.5 * (I1 * I1 - trG2);
  const double I3 = G[0][0] * (G[1][1] * G[2][2] - G[1][2] * G[2][1]) -
                    G[0][1] * (G[1][0] * G[2][2] - G[1][2] * G[2][0]) +
                    G[0][2] * (G[1][0] * G[2][1] - G[1][1] * G[2][0]);
  const double a1 = I1 * I1 / 9.0 - I2 / 3.0;
  const double a2 = I1 * I1 * I1 / 27.0 - I1 * I2 / 6.0 + I3 / 2.0;
  double l[3] = {I1 / 3.0, I1 / 3.0, I1 / 3.0}; /* a1 = 0: G isotropic, three equal values */
  if (a1 > 1e-28 * I1 * I1) {
    const double sa1 = sqrt(a1);
    double c = a2 / (a1 * sa1);
    c = c > 1.0 ? 1.0 : c < -1.0 ? -1.0 : c;
    const double a3 = acos(c) / 3.0;
    l[0] = I1 / 3.0 + 2.0 * sa1 * cos(a3);
    l[1] = I1 / 3.0 - 2.0 * sa1 * cos(HX_PI / 3.0 + a3);
    l[2] = I1 / 3.0 - 2.0 * sa1 * cos(HX_PI / 3.0 - a3);
  }
  for (int k = 0; k < 3; k++)
    s[k] = l[k] > 0.0 ? sqrt(l[k]) : 0.0;
}

/* D_sigma = s3 (s1 - s2)(s2 - s3) / s1^2 (Nicoud et al. 2011, eq. 15); zero for g = 0. */
HD static inline double sgs_sigma_operator(const double g[3][3]) {
  double s[3];
  sgs_singular_values(g, s);
  if (s[0] <= 0.0) return 0.0;
  const double d = s[2] * (s[0] - s[1]) * (s[1] - s[2]) / (s[0] * s[0]);
  return d > 0.0 ? d : 0.0; /* round-off in nearly equal singular values */
}

/* The model's operator D(g) (1/s). */
HD static inline double sgs_operator(int model, const double g[3][3]) {
  switch (model) {
  case SGS_SMAGORINSKY:
    return sgs_strain_rate_norm(g);
  case SGS_VREMAN:
    return sgs_vreman_operator(g);
  case SGS_SIGMA:
    return sgs_sigma_operator(g);
  default:
    return 0.0;
  }
}

/* mu_t = rho coef D(g) from the lifted gradients; coef = (C Delta damp)^2 of the node. */
HD static inline double eddy_viscosity(int model, double coef, double rho, const double *gx,
                                       const double *gy, const double *gz) {
  double g[3][3];
  sgs_velocity_gradient(gx, gy, gz, g);
  return rho * coef * sgs_operator(model, g);
}

/* Van Driest damping of the mixing length, 1 - exp(-y+/A+) (Van Driest 1956). */
HD static inline double van_driest_damping(double y_plus) {
  return 1.0 - exp(-y_plus / SGS_VAN_DRIEST_APLUS);
}

/* Filter width of an element of volume vol at degree N: vol^(1/3) / (N + 1), FLEXI's DeltaS
 * (eddyVisc/smagorinsky.f90, InitSmagorinsky). */
HD static inline double sgs_filter_width(double vol, int N) {
  return cbrt(vol) / (N + 1.0);
}

/* Viscous spectral coefficient of the DFL time step with the SGS terms: the largest diffusivity
 * of momentum, 4/3 (mu + mu_t) / rho, and of heat, kappa (lambda + lambda_t) / (cp rho), with
 * lambda = mu cp / Pr, lambda_t = mu_t cp / PrSGS. FLEXI (calctimestep.f90) takes
 * max(4/3, kappa/Pr) (mu + mu_t) / rho, the same when PrSGS = Pr; mu_t is the element's largest
 * (FLEXI's muSGSMax). mu_t = 0 gives viscous_spectral_coeff (navierstokes.h). */
HD static inline double viscous_spectral_coeff_les(const PhysParams *pp, const double *prim,
                                                   double mu_t, double lambda_t) {
  const double mu = viscosity(pp, prim[TEMP]);
  const double momentum = 4.0 / 3.0 * (mu + mu_t);
  const double heat = pp->kappa * (mu * pp->lambda_factor + lambda_t) / pp->cp;
  return (momentum > heat ? momentum : heat) / prim[PDENS];
}

#endif
