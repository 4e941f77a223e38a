/* Viscous fluxes of the multicomponent Navier-Stokes equations (reacting flow, physics/mixture.h):
 * the air's stress tensor with the mixture's viscosity, Fourier's heat flux, Fick diffusion of
 * the species with a correction velocity, and the enthalpy the diffusion carries. Pointwise HD
 * functions shared by the CPU and CUDA backends; the sign convention is navierstokes.h's:
 *   F_visc = (0, tau_1j, tau_2j, tau_3j, tau_ij u_i + lambda dT/dx_j - sum_k h_k J_k,j, -J_0,j ..)
 * and dU/dt + div(F_adv - F_visc) = S.
 *
 * Transport model (Poinsot & Veynante, "Theoretical and Numerical Combustion", 2nd ed. 2005,
 * Ch. 1: diffusion velocities with a correction velocity, the energy flux; Sec. 1.2: constant
 * Lewis numbers):
 *   mu(T)       the air's laws (viscosity.h: constant, Sutherland, power law; keys mu0, Ts, Tref,
 *               ExpoSuth), independent of the composition;
 *   lambda      = mu cp(T, Y) / Pr, cp of the mixture from the NASA-7 data;
 *   rho D_k     = mu / (Pr Le_k) (constant Lewis number, D_k = lambda / (rho cp Le_k)) or
 *               = mu / Sc_k (constant Schmidt number, D_k = mu / (rho Sc_k)): mu times
 *               MixTransport.diff_factor[k];
 *   J_k         = -rho D_k grad Y_k + rho Y_k V_c,  V_c = sum_j D_j grad Y_j: Fick's law in mass
 *               fractions with the correction velocity that makes sum_k J_k = 0 whenever
 *               sum_k Y_k = 1 (P&V write it for the Hirschfelder-Curtiss law in mole fractions),
 *               so the diffusion moves no mass;
 *   q           = -lambda grad T + sum_k h_k J_k   (no Dufour effect, no radiation), h_k the
 *               specific enthalpy of species k with its formation part.
 * The lifted (BR1) variables are (u, v, w, T, Y_0 .. Y_{ns-1}): n_lift = HX_NLIFT + ns, the
 * first four as for air, so the air's stress and conduction formulas apply unchanged. */
#ifndef HEXDG_NAVIERSTOKES_MIX_H
#define HEXDG_NAVIERSTOKES_MIX_H

#include <math.h>

#include "physics/bc.h"
#include "physics/mixture.h"
#include "physics/navierstokes.h"

/* Index of the gradient of Y_0 among the lifted variables, and their largest number. */
#define LIFT_SPEC0 HX_NLIFT
#define HX_NLIFT_MAX (HX_NLIFT + HX_MAX_SPECIES)

/* Species diffusivities of a run (SpeciesLewis or SpeciesSchmidt). Plain data. */
typedef struct MixTransport {
  double diff_factor[HX_MAX_SPECIES]; /* rho D_k = mu diff_factor[k]: 1/(Pr Le_k) or 1/Sc_k */
  double diff_factor_max;             /* max_k diff_factor[k] (viscous time step) */
} MixTransport;

/* prim and Y of the conservative state U for the viscous terms: mix_cons_to_prim with the Newton
 * guess prim[TEMP] on entry (returned: 0, or 1 for a state without a temperature, which keeps the
 * guess, and without density also gets Y = 0; the time step's admissibility check stops a run
 * that reaches such a state). */
HD static inline int mix_transport_state(const ChemMech *m, const double *U, double *prim,
                                         double *Y) {
  double c;
  const int rc = mix_cons_to_prim(m, U, prim, Y, &c);
  if (!(U[DENS] > 0.0))
    for (int k = 0; k < m->n_species; k++)
      Y[k] = 0.0;
  return rc;
}

/* w = (u, v, w, T, Y_0 .. Y_{ns-1}) of a mixture point. */
HD static inline void mix_lifting_variables(int ns, const double *prim, const double *Y,
                                            double *w) {
  lifting_variables(prim, w);
  for (int k = 0; k < ns; k++)
    w[LIFT_SPEC0 + k] = Y[k];
}

/* Viscosity mu(T) (returned), heat conductivity lambda = mu cp(T, Y) / Pr and the species'
 * specific enthalpies h[k] = h_k(T) (J/kg, formation enthalpy included) of a mixture point. */
HD static inline double mix_transport_point(const PhysParams *pp, const ChemMech *m,
                                            const double *prim, const double *Y, double *lambda,
                                            double *h) {
  const double T = prim[TEMP], inv_T = 1.0 / T, RT = CHEM_R * T, mu = viscosity(pp, T);
  double cp_R = 0.0; /* cp / R (R the universal gas constant) as chem_cp_mass sums it */
  for (int k = 0; k < m->n_species; k++) {
    const double *a = chem_nasa_coeffs(m, k, T);
    cp_R += Y[k] * chem_nasa_cp_R(a, T) / m->mw[k];
    h[k] = chem_nasa_h_RT(a, T, inv_T) * RT / m->mw[k];
  }
  *lambda = mu * (cp_R * CHEM_R) / pp->Pr;
  return mu;
}

/* Viscous flux through n (not necessarily unit) from the stress and conduction terms of
 * viscous_stress_with and the gradients gx, gy, gz [n_lift] of the lifted variables: the air's
 * five components, then -J_k . n for every species, whose enthalpy flux enters the energy. */
HD static inline void mix_viscous_flux_from_stress(int ns, const MixTransport *tr, double mu,
                                                   const double *prim, const double *Y,
                                                   const double *h, const double tau[9],
                                                   const double cond[3], const double *gx,
                                                   const double *gy, const double *gz,
                                                   const double n[3], double *F) {
  viscous_flux_from_stress(prim, tau, cond, n, F);
  double rho_vc = 0.0; /* rho V_c . n = sum_k rho D_k grad Y_k . n */
  for (int k = 0; k < ns; k++) {
    const int v = LIFT_SPEC0 + k;
    F[HX_SPEC0 + k] = mu * tr->diff_factor[k] * (gx[v] * n[0] + gy[v] * n[1] + gz[v] * n[2]);
    rho_vc += F[HX_SPEC0 + k];
  }
  for (int k = 0; k < ns; k++) {
    F[HX_SPEC0 + k] -= Y[k] * rho_vc;
    F[ENER] += h[k] * F[HX_SPEC0 + k];
  }
}

/* The viscous flux F . n (5 + ns components) of the mixture state (prim, Y) with lifted
 * gradients gx, gy, gz [n_lift]. */
HD static inline void mix_viscous_flux_normal(const PhysParams *pp, const ChemMech *m,
                                              const MixTransport *tr, const double *prim,
                                              const double *Y, const double *gx, const double *gy,
                                              const double *gz, const double n[3], double *F) {
  double h[HX_MAX_SPECIES], lambda, tau[9], cond[3];
  const double mu = mix_transport_point(pp, m, prim, Y, &lambda, h);
  viscous_stress_with(mu, lambda, gx, gy, gz, tau, cond);
  mix_viscous_flux_from_stress(m->n_species, tr, mu, prim, Y, h, tau, cond, gx, gy, gz, n, F);
}

/* BR1 lifting value on a boundary face from the inner (wL) and outer (wR) lifted variables, as
 * bc_lifting_value for air (FLEXI's Lifting_GetBoundaryFlux): the wall state at the no-slip walls
 * (3, 4); at the slip wall (9) the mean of the inner state and the inner state without its normal
 * velocity, i.e. 3/4 inner + 1/4 mirror state (inner temperature and mass fractions); the mean of
 * inner and outer state otherwise. */
HD static inline void mix_bc_lifting_value(int type, int n_lift, const double *wL, const double *wR,
                                           double *w) {
  const double a = type == BC_WALL_ADIABATIC || type == BC_WALL_ISOTHERMAL ? 1.0
                   : type == BC_WALL_SLIP                                   ? 0.25
                                                                            : 0.5;
  for (int v = 0; v < n_lift; v++)
    w[v] = a == 1.0 ? wR[v] : (1.0 - a) * wL[v] + a * wR[v];
}

/* Viscous boundary flux with the inner gradients, as bc_viscous_flux_sgs for air: at the slip wall
 * the flux of the inner state (primL, YL) without its normal velocity, with the normal part of
 * every gradient removed (no heat or species flux through the wall); at the no-slip walls (3, 4)
 * the stress of the wall state (primR, YR) and, at the isothermal wall, the heat conduction
 * -lambda grad T, but no species diffusion (and so no enthalpy it carries); otherwise the mean of
 * the inner and the outer state's fluxes. */
HD static inline void mix_bc_viscous_flux(int type, const PhysParams *pp, const ChemMech *m,
                                          const MixTransport *tr, const double *primL,
                                          const double *YL, const double *primR,
                                          const double *YR, const double *gx, const double *gy,
                                          const double *gz, const double n[3], double *F) {
  const int nl = HX_NLIFT + m->n_species, nv = HX_NVAR + m->n_species;
  if (type == BC_WALL_SLIP) {
    double sx[HX_NLIFT + HX_MAX_SPECIES], sy[HX_NLIFT + HX_MAX_SPECIES],
        sz[HX_NLIFT + HX_MAX_SPECIES], pr[HX_NPRIM];
    for (int v = 0; v < nl; v++) { /* (I - n n^T) grad */
      const double gn = gx[v] * n[0] + gy[v] * n[1] + gz[v] * n[2];
      sx[v] = gx[v] - gn * n[0];
      sy[v] = gy[v] - gn * n[1];
      sz[v] = gz[v] - gn * n[2];
    }
    for (int v = 0; v < HX_NPRIM; v++)
      pr[v] = primL[v];
    const double vn = primL[VEL1] * n[0] + primL[VEL2] * n[1] + primL[VEL3] * n[2];
    for (int k = 0; k < 3; k++)
      pr[VEL1 + k] -= vn * n[k];
    mix_viscous_flux_normal(pp, m, tr, pr, YL, sx, sy, sz, n, F);
    return;
  }
  if (type == BC_WALL_ADIABATIC || type == BC_WALL_ISOTHERMAL) {
    double h[HX_MAX_SPECIES], lambda, tau[9], cond[3];
    const double mu = mix_transport_point(pp, m, primR, YR, &lambda, h);
    viscous_stress_with(mu, lambda, gx, gy, gz, tau, cond);
    if (type == BC_WALL_ADIABATIC) cond[0] = cond[1] = cond[2] = 0.0;
    viscous_flux_from_stress(primR, tau, cond, n, F);
    for (int k = 0; k < m->n_species; k++)
      F[HX_SPEC0 + k] = 0.0;
    return;
  }
  double FL[HX_NVAR + HX_MAX_SPECIES];
  mix_viscous_flux_normal(pp, m, tr, primR, YR, gx, gy, gz, n, F);
  mix_viscous_flux_normal(pp, m, tr, primL, YL, gx, gy, gz, n, FL);
  for (int v = 0; v < nv; v++)
    F[v] = 0.5 * (FL[v] + F[v]);
}

/* Coefficient of the viscous (DFL) time-step restriction at a mixture point (see
 * viscous_spectral_coeff): the largest diffusivity of momentum (4/3 nu), heat
 * (lambda / (rho cv) = gamma mu / (Pr rho), gamma = rho c^2 / p the frozen ratio of the specific
 * heats) and species (D_k), i.e. max(4/3, gamma/Pr, max_k diff_factor[k]) mu / rho. */
HD static inline double mix_viscous_spectral_coeff(const PhysParams *pp, const MixTransport *tr,
                                                   const double *prim, double c) {
  const double gamma_s_pr = prim[PDENS] * c * c / (prim[PRES] * pp->Pr);
  const double factor = fmax(fmax(4.0 / 3.0, gamma_s_pr), tr->diff_factor_max);
  return factor * viscosity(pp, prim[TEMP]) / prim[PDENS];
}

#endif
