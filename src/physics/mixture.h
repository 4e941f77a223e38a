/* Thermally perfect multicomponent gas (reacting flow): the conservative variables are
 * U = (rho, rho u, rho v, rho w, rho E, rho Y_0 .. rho Y_{ns-1}), nVar = 5 + ns. The five flow
 * variables keep the air layout, so that every flux formula of euler.h, splitflux.h and
 * riemann.h serves the mixture as it is once p and c come from the mixture's equation of state;
 * the species are a block beside them whose fluxes follow the mass flux (their sum is the mass
 * flux). The thermodynamics is the chemistry library's NASA-7 data (chem/thermo.h):
 * e(T, Y) = sum Y_k u_k(T) with formation energies, p = rho R_mix T, R_mix = R / W.
 * Pointwise HD functions shared by the CPU and CUDA backends. */
#ifndef HEXDG_MIXTURE_H
#define HEXDG_MIXTURE_H

#include <math.h>

#include "chem/thermo.h"
#include "physics/euler.h"
#include "physics/physics.h"
#include "physics/splitflux.h"

/* Largest mechanism the flow solver takes (local arrays of the pointwise functions). */
#define HX_MAX_SPECIES 64
#define HX_NVAR_MAX (HX_NVAR + HX_MAX_SPECIES)
/* Index of the first partial density rho Y_0 in U. */
#define HX_SPEC0 HX_NVAR

/* Primitive state of a mixture point: prim (rho, u, v, w, p, T) as for air, the mass fractions
 * Y_k = rho Y_k / rho and the frozen speed of sound. prim[TEMP] on entry is the initial guess of
 * the Newton iteration for T (any value outside (CHEM_T_LOW, CHEM_T_HIGH): none). Returns 0, or
 * 1 for a state without a temperature (rho <= 0 or e outside the NASA range): p is then -1 so
 * that the admissibility checks (time step, positivity) catch it; never a NaN from here.
 * ns = m->n_species, passed in so that the CUDA kernels instantiated per mechanism size unroll the
 * species loops (Y stays in registers). T: Newton on the mixture's NASA-7 coefficients
 * (chem_mix_T_from_u_near_n, chem/thermo.h). */
HD static inline int mix_cons_to_prim_n(const ChemMech *m, int ns, const double *U, double *prim,
                                        double *Y, double *c) {
  const double rho = U[DENS];
  double T = prim[TEMP];
  prim[PDENS] = rho;
  if (!(rho > 0.0)) {
    prim[VEL1] = prim[VEL2] = prim[VEL3] = 0.0;
    prim[PRES] = -1.0;
    *c = 0.0;
    return 1;
  }
  const double s_rho = 1.0 / rho;
  for (int k = 0; k < ns; k++)
    Y[k] = U[HX_SPEC0 + k] * s_rho;
  prim[VEL1] = U[MOM1] * s_rho;
  prim[VEL2] = U[MOM2] * s_rho;
  prim[VEL3] = U[MOM3] * s_rho;
  const double e = U[ENER] * s_rho - 0.5 * (prim[VEL1] * prim[VEL1] + prim[VEL2] * prim[VEL2] +
                                            prim[VEL3] * prim[VEL3]);
  /* the mixture's NASA-7 coefficients: every Newton step and cp cost one polynomial */
  ChemMixNasa mn;
  chem_mix_nasa_n(m, ns, Y, 1, T, &mn);
  if (chem_mix_T_from_u_near_n(m, ns, Y, 1, e, &mn, &T) != 0) {
    prim[PRES] = -1.0;
    *c = 0.0;
    return 1;
  }
  chem_mix_nasa_at_n(m, ns, Y, 1, T, &mn);
  const double R_mix = CHEM_R * mn.inv_W;
  const double cp = chem_mix_cp_mass(&mn, T);
  prim[TEMP] = T;
  prim[PRES] = rho * R_mix * T;
  *c = sqrt(cp / (cp - R_mix) * R_mix * T); /* frozen: gamma = cp / cv at fixed Y */
  return 0;
}
/* mix_cons_to_prim_n over the mechanism's species */
HD static inline int mix_cons_to_prim(const ChemMech *m, const double *U, double *prim, double *Y,
                                      double *c) {
  return mix_cons_to_prim_n(m, m->n_species, U, prim, Y, c);
}

/* U of density rho, velocity vel, temperature T and mass fractions Y (ns entries). */
HD static inline void mix_prim_to_cons(const ChemMech *m, double rho, const double *vel, double T,
                                       const double *Y, double *U) {
  const double e = chem_u_mass(m, T, Y, 1);
  U[DENS] = rho;
  U[MOM1] = rho * vel[0];
  U[MOM2] = rho * vel[1];
  U[MOM3] = rho * vel[2];
  U[ENER] = rho * (e + 0.5 * (vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2]));
  for (int k = 0; k < m->n_species; k++)
    U[HX_SPEC0 + k] = rho * Y[k];
}

/* Density of p, T and Y: rho = p W / (R T). */
HD static inline double mix_density(const ChemMech *m, double p, double T, const double *Y) {
  return p * chem_mean_mw(m, Y, 1) / (CHEM_R * T);
}

/* Temperature of p, rho and Y: T = p W / (rho R). */
HD static inline double mix_temperature(const ChemMech *m, double rho, double p, const double *Y) {
  return p * chem_mean_mw(m, Y, 1) / (rho * CHEM_R);
}

/* The species fluxes of a mass flux: F_k = F_rho Y_k, so that sum_k F_k = F_rho whenever
 * sum_k Y_k = 1 (the consistency condition of Larrouturou 1991, JCP 95, 59-84). */
HD static inline void mix_species_flux(int ns, double mass_flux, const double *Y, double *F) {
  for (int k = 0; k < ns; k++)
    F[HX_SPEC0 + k] = mass_flux * Y[k];
}

/* Species part of the two-point volume flux between nodes L and R (contravariant vectors mL, mR),
 * given the flow part F (F[DENS]: the two-point mass flux):
 *   SD: (rho Y_k u.m)_L/2 + (rho Y_k u.m)_R/2, the standard DG volume flux;
 *   DU: {rho Y_k}{u.m}, the Ducros et al. 2000 form of a transported scalar;
 *   KG, PI, MO: F_rho {Y_k}: the triple product {rho}{u.m}{Y_k} of Kennedy & Gruber 2008
 *   (JCP 227, eq. (26) applied to phi = Y_k) for KG and PI, whose mass flux is {rho}{u.m};
 *   the same rule on Morinishi's mass flux {rho u.m}.
 * In every case sum_k F_k = F_rho, so the species keep the mass flux. CH is not defined for the
 * mixture (its energy flux belongs to the calorically perfect gas). */
HD static inline void mix_split_species_flux(int which, int ns, const double *UL,
                                             const double *primL, const double *YL,
                                             const double *UR, const double *primR,
                                             const double *YR, const double *mL, const double *mR,
                                             double *F) {
  if (which == SPLIT_SD) {
    const double qL = 0.5 * UL[DENS] * (primL[VEL1] * mL[0] + primL[VEL2] * mL[1] + primL[VEL3] * mL[2]);
    const double qR = 0.5 * UR[DENS] * (primR[VEL1] * mR[0] + primR[VEL2] * mR[1] + primR[VEL3] * mR[2]);
    for (int k = 0; k < ns; k++)
      F[HX_SPEC0 + k] = qL * YL[k] + qR * YR[k];
  } else if (which == SPLIT_DU) {
    double um = 0.0;
    for (int d = 0; d < 3; d++)
      um += 0.25 * (primL[VEL1 + d] + primR[VEL1 + d]) * (mL[d] + mR[d]);
    for (int k = 0; k < ns; k++)
      F[HX_SPEC0 + k] = 0.5 * (UL[HX_SPEC0 + k] + UR[HX_SPEC0 + k]) * um;
  } else {
    for (int k = 0; k < ns; k++)
      F[HX_SPEC0 + k] = F[DENS] * 0.5 * (YL[k] + YR[k]);
  }
}

/* The split forms a mixture supports (mix_split_species_flux). */
HD static inline int mix_split_supported(int which) {
  return which == SPLIT_NONE || which == SPLIT_SD || which == SPLIT_DU || which == SPLIT_KG ||
         which == SPLIT_PI || which == SPLIT_MO;
}

/* The physical flux F(U) . n of the mixture (n not necessarily unit). */
HD static inline void mix_flux_normal(int ns, const double *U, const double *prim, const double *Y,
                                      const double n[3], double *F) {
  euler_flux_normal(U, prim, n, F);
  mix_species_flux(ns, F[DENS], Y, F);
}

/* Rate of heat release -sum_k h_k(T) wdot_k W_k (W/m^3) from the molar production rates wdot
 * (kmol/m^3/s). */
HD static inline double mix_heat_release(const ChemMech *m, double T, const double *wdot) {
  double q = 0.0;
  for (int k = 0; k < m->n_species; k++)
    q -= chem_h_RT(m, k, T) * CHEM_R * T * wdot[k];
  return q;
}

#endif
