/* Viscous (Navier-Stokes) fluxes of the lifted gradients and the viscous time-step coefficient.
 * Pointwise HD functions shared by the CPU and CUDA backends (see core/hd.h).
 *
 * Sign convention: the viscous fluxes returned here are the physical ones,
 *   F_visc = (0, tau_1j, tau_2j, tau_3j, tau_ij u_i + lambda dT/dx_j)   (direction j),
 * and the equations read dU/dt + div(F_adv - F_visc) = S. (FLEXI's EvalDiffFlux3D returns
 * -F_visc and adds it to the advective flux.)
 * Stokes hypothesis: tau = mu (grad u + grad u^T - 2/3 (div u) I); Fourier's law with
 * lambda = mu cp / Pr (viscosity.h). */
#ifndef HEXDG_NAVIERSTOKES_H
#define HEXDG_NAVIERSTOKES_H

#include <math.h>

#include "physics/physics.h"
#include "physics/viscosity.h"

/* The variables whose gradients BR1 lifts: w = (u, v, w, T) from prim = (rho, u, v, w, p, T).
 * prim[TEMP] must be filled (cons_to_prim does). */
HD static inline void lifting_variables(const double *prim, double *w) {
  w[LIFT_VEL1] = prim[VEL1];
  w[LIFT_VEL2] = prim[VEL2];
  w[LIFT_VEL3] = prim[VEL3];
  w[LIFT_TEMP] = prim[TEMP];
}

/* Forms of the BR1 lifting (FLEXI's doWeakLifting / doConservativeLifting):
 *   LIFT_WEAK:        J q_c = sum_d Dhat (Ja^d_c w) + Lhat w* n_c s        (conservative)
 *   LIFT_STRONG:      J q_c = sum_d Ja^d_c(i) (D w)_d + Lhat (w* - w^-) n_c s (FLEXI's default)
 *   LIFT_STRONG_CONS: J q_c = sum_d D (Ja^d_c (w - w_i)) + Lhat (w* - w^-) n_c s */
enum { LIFT_WEAK = 0, LIFT_STRONG = 1, LIFT_STRONG_CONS = 2 };

/* Face value of the lifting (to be multiplied by n_c s): weak form w* (mean of both sides, the
 * boundary value wR on boundary faces); strong forms w* - w^-, which for BR1 is (wR - wL)/2 on
 * inner faces for the master and, with its opposite normal, the same vector for the slave. */
HD static inline void br1_face_value_n(int form, int bc, int n_lift, const double *wL,
                                       const double *wR, double *out) {
  for (int v = 0; v < n_lift; v++) {
    if (form == LIFT_WEAK)
      out[v] = bc ? wR[v] : 0.5 * (wL[v] + wR[v]);
    else
      out[v] = bc ? wR[v] - wL[v] : 0.5 * (wR[v] - wL[v]);
  }
}

/* The same for the HX_NLIFT lifting variables of air. */
HD static inline void br1_face_value(int form, int bc, const double *wL, const double *wR,
                                     double *out) {
  br1_face_value_n(form, bc, HX_NLIFT, wL, wR, out);
}

/* Viscous stress tau[3 i + j] = tau_ij and conduction term cond[j] = lambda dT/dx_j from the
 * gradients gx, gy, gz (d/dx, d/dy, d/dz of the lifting variables) for given mu and lambda. */
HD static inline void viscous_stress_with(double mu, double lambda, const double *gx,
                                          const double *gy, const double *gz, double tau[9],
                                          double cond[3]) {
  /* du[i][j] = d u_i / d x_j */
  const double du[3][3] = {{gx[LIFT_VEL1], gy[LIFT_VEL1], gz[LIFT_VEL1]},
                           {gx[LIFT_VEL2], gy[LIFT_VEL2], gz[LIFT_VEL2]},
                           {gx[LIFT_VEL3], gy[LIFT_VEL3], gz[LIFT_VEL3]}};
  const double bulk = 2.0 / 3.0 * mu * (du[0][0] + du[1][1] + du[2][2]);
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++)
      tau[3 * i + j] = mu * (du[i][j] + du[j][i]);
    tau[4 * i] -= bulk;
  }
  cond[0] = lambda * gx[LIFT_TEMP];
  cond[1] = lambda * gy[LIFT_TEMP];
  cond[2] = lambda * gz[LIFT_TEMP];
}

/* The same with the gas's laws: mu = viscosity(prim[TEMP]), lambda = mu cp / Pr. */
HD static inline void viscous_stress(const PhysParams *pp, const double *prim, const double *gx,
                                     const double *gy, const double *gz, double tau[9],
                                     double cond[3]) {
  const double mu = viscosity(pp, prim[TEMP]);
  viscous_stress_with(mu, heat_conductivity(pp, mu), gx, gy, gz, tau, cond);
}

/* The same with an eddy viscosity (LES, physics/eddyvisc.h): mu -> mu + mu_t and
 * lambda -> lambda + lambda_t, lambda_t = cp mu_t / PrSGS (FLEXI's eddy-viscosity closure). */
HD static inline void viscous_stress_les(const PhysParams *pp, const double *prim, double mu_t,
                                         double lambda_t, const double *gx, const double *gy,
                                         const double *gz, double tau[9], double cond[3]) {
  const double mu = viscosity(pp, prim[TEMP]);
  viscous_stress_with(mu + mu_t, heat_conductivity(pp, mu) + lambda_t, gx, gy, gz, tau, cond);
}

/* Viscous flux through a face with (not necessarily unit) normal n, from tau and cond. */
HD static inline void viscous_flux_from_stress(const double *prim, const double tau[9],
                                               const double cond[3], const double n[3], double *F) {
  F[DENS] = 0.0;
  F[ENER] = 0.0;
  for (int i = 0; i < 3; i++) {
    const double tau_n = tau[3 * i] * n[0] + tau[3 * i + 1] * n[1] + tau[3 * i + 2] * n[2];
    F[MOM1 + i] = tau_n;
    F[ENER] += tau_n * prim[VEL1 + i] + cond[i] * n[i];
  }
}

/* The three Cartesian viscous flux vectors f, g, h (5 components each) of the state prim
 * (rho, u, v, w, p, T) with lifted gradients gx, gy, gz [HX_NLIFT]. */
HD static inline void viscous_fluxes_xyz(const PhysParams *pp, const double *prim, const double *gx,
                                         const double *gy, const double *gz, double *f, double *g,
                                         double *h) {
  double tau[9], cond[3];
  const double ex[3] = {1.0, 0.0, 0.0};
  const double ey[3] = {0.0, 1.0, 0.0};
  const double ez[3] = {0.0, 0.0, 1.0};
  viscous_stress(pp, prim, gx, gy, gz, tau, cond);
  viscous_flux_from_stress(prim, tau, cond, ex, f);
  viscous_flux_from_stress(prim, tau, cond, ey, g);
  viscous_flux_from_stress(prim, tau, cond, ez, h);
}

/* F = f n0 + g n1 + h n2 for any (not necessarily unit) vector n. */
HD static inline void viscous_flux_normal(const PhysParams *pp, const double *prim,
                                          const double *gx, const double *gy, const double *gz,
                                          const double n[3], double *F) {
  double tau[9], cond[3];
  viscous_stress(pp, prim, gx, gy, gz, tau, cond);
  viscous_flux_from_stress(prim, tau, cond, n, F);
}

/* viscous_flux_normal with an eddy viscosity mu_t and its heat conductivity lambda_t. */
HD static inline void viscous_flux_normal_les(const PhysParams *pp, const double *prim,
                                              double mu_t, double lambda_t, const double *gx,
                                              const double *gy, const double *gz,
                                              const double n[3], double *F) {
  double tau[9], cond[3];
  viscous_stress_les(pp, prim, mu_t, lambda_t, gx, gy, gz, tau, cond);
  viscous_flux_from_stress(prim, tau, cond, n, F);
}

/* Per-node coefficient of FLEXI's viscous (DFL) time-step restriction,
 *   max(4/3, kappa/Pr) * mu(T) / rho
 * (flexi src/equations/navierstokes/calctimestep.f90, KAPPASPR_MAX_TIMESTEP_H in idealgas/eos.h).
 *
 * FLEXI's full viscous time step (CALCTIMESTEP and FillCFL_DFL in src/timedisc/): with
 * Ja^d (d = 1..3, the contravariant metric vectors Metrics_fTilde, _gTilde, _hTilde, i.e. J a^d)
 * and J the Jacobian at node (i,j,k) of element e,
 *   lambda_v(e, d) = max over the nodes of  viscous_spectral_coeff * |Ja^d|^2 / J^2
 *                    (|.|^2: sum of the three Cartesian components squared),
 *   dt_visc(e)     = DFLScale_eff * 4 / (lambda_v(e,1) + lambda_v(e,2) + lambda_v(e,3)),
 * evaluated only where that sum is > 0 (mu0 = 0: no viscous limit), and
 *   DFLScale_eff   = DFLScale * DFLScaleAlpha(min(N,10)) * RelativeDFL / (2N+1)^2,
 *   DFLScaleAlpha(1..10), Gauss:         1.12 0.76 0.55 0.41 0.32 0.25 0.20 0.17 0.14 0.12,
 *                         Gauss-Lobatto: 4.50 1.95 1.18 0.79 0.56 0.42 0.32 0.25 0.20 0.17,
 *   RelativeDFL: standardrk3-3 1.0, carpenterrk4-5 1.853, niegemannrk4-14 7.379,
 *                toulorgerk4-8c 3.328, toulorgerk3-7c 3.342, toulorgerk4-8f 3.142.
 * The element step is min(dt_conv(e), dt_visc(e)) and the global step the minimum over the
 * elements; each direction's maximum is taken over the nodes before the three are summed. */
/* How the time step treats a node of density rho and pressure p: 1 admissible (rho, p > 0); -1
 * the run stops (CheckAdmissibility = T, or a NaN density); 0 left out of the maximum (F: as
 * GALAEXI, whose CalcTimeStep flags only a NaN density and whose fmax drops the node's NaN speed
 * of sound). */
HD static inline int timestep_node_status(int check_admissible, double rho, double p) {
  if (rho > 0.0 && p > 0.0) return 1;
  return check_admissible || rho != rho ? -1 : 0;
}

HD static inline double viscous_spectral_coeff(const PhysParams *pp, const double *prim) {
  const double kappa_s_pr = pp->kappa / pp->Pr;
  const double factor = kappa_s_pr > 4.0 / 3.0 ? kappa_s_pr : 4.0 / 3.0;
  return factor * viscosity(pp, prim[TEMP]) / prim[PDENS];
}

#endif
