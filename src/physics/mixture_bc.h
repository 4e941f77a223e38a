/* Exact functions, boundary states and the face flux of the thermally perfect mixture
 * (physics/mixture.h), pointwise HD functions shared by the CPU (dg/mixture.c, dg/fillflux.c)
 * and CUDA (gpu/mix_kernels.cu) backends. ref_U: the conservative RefStates [RefState][nv]. */
#ifndef HEXDG_MIXTURE_BC_H
#define HEXDG_MIXTURE_BC_H

#include <math.h>

#include "physics/bc.h"
#include "physics/exactfunc.h"
#include "physics/mixture.h"
#include "physics/riemann_mix.h"

/* IniExactFunc 17: the species wave advected with AdvVel at the pressure of RefState
 * IniRefState: rho = rho0 (1 + A/2 sin(2 pi f phi)), Y_k ~ Y0_k (1 + A sin(2 pi f phi + 0.7 k))
 * normalised, phi = sum_i (x_i - a_i t). Uniform u and p make any profile of x - a t an exact
 * solution of the multicomponent Euler equations (a contact wave), so no source term is needed;
 * the temperature p W / (rho R) varies with rho and W, and with it the energy through the NASA
 * polynomials. */
HD static inline void mix_species_wave(const ChemMech *m, const ExactFuncParams *ef,
                                       const double *ref, const double x[3], double t,
                                       double *U) {
  double phi = 0.0, Y[HX_MAX_SPECIES], sum = 0.0;
  for (int k = 0; k < 3; k++)
    phi += x[k] - ef->adv_vel[k] * t;
  const double arg = 2.0 * HX_PI * ef->frequency * phi, A = ef->amplitude;
  for (int k = 0; k < m->n_species; k++) {
    Y[k] = ref[HX_SPEC0 + k] / ref[DENS] * (1.0 + A * sin(arg + 0.7 * k));
    sum += Y[k];
  }
  for (int k = 0; k < m->n_species; k++)
    Y[k] /= sum;
  const double rho = ef->ref_prim[ef->ref_state][PDENS] * (1.0 + 0.5 * A * sin(arg));
  const double p = ef->ref_prim[ef->ref_state][PRES];
  mix_prim_to_cons(m, rho, ef->adv_vel, mix_temperature(m, rho, p, Y), Y, U);
}

/* The mixture's exact function (IniExactFunc 1, 16, 17) at x, t: U with 5 + ns entries. */
HD static inline void mix_exact_state(const ChemMech *m, const ExactFuncParams *ef,
                                      const double *ref_U, const double x[3], double t,
                                      double *U) {
  const int nv = HX_NVAR + m->n_species;
  if (ef->which == EXACT_SPECIES_MMS) {
    mix_species_wave(m, ef, ref_U + (size_t)ef->ref_state * nv, x, t, U);
    return;
  }
  const int ref = ef->which == EXACT_TWO_STATE ? exact_two_state_side(ef, x) : ef->ref_state;
  for (int v = 0; v < nv; v++)
    U[v] = ref_U[(size_t)ref * nv + v];
}

/* Outer state of a boundary face point of BC type `type` (2: the exact function; 9: the slip
 * wall's mirror state, normal momentum reversed) from the inner state uL and the outward unit
 * normal n. */
HD static inline void mix_bc_outer_state(const ChemMech *m, const ExactFuncParams *ef,
                                         const double *ref_U, int type, const double *uL,
                                         const double n[3], const double x[3], double t,
                                         double *uR) {
  if (type == BC_EXACT) {
    mix_exact_state(m, ef, ref_U, x, t, uR);
    return;
  }
  const int nv = HX_NVAR + m->n_species;
  const double mn = uL[MOM1] * n[0] + uL[MOM2] * n[1] + uL[MOM3] * n[2];
  for (int v = 0; v < nv; v++)
    uR[v] = uL[v];
  for (int k = 0; k < 3; k++)
    uR[MOM1 + k] = uL[MOM1 + k] - 2.0 * mn * n[k];
}

/* The mixture's numerical flux between two face states (riemann_mix.h); the Newton iteration for
 * T starts from T_guess on both sides. */
HD static inline void mix_face_flux(int riemann, int split, const PhysParams *pp,
                                    const ChemMech *m, double T_guess, const double *uL,
                                    const double *uR, const double n[3], const double t1[3],
                                    const double t2[3], double *F) {
  double pL[HX_NPRIM], pR[HX_NPRIM], YL[HX_MAX_SPECIES], YR[HX_MAX_SPECIES], cL, cR;
  pL[TEMP] = pR[TEMP] = T_guess;
  mix_cons_to_prim(m, uL, pL, YL, &cL);
  mix_cons_to_prim(m, uR, pR, YR, &cR);
  riemann_mix_flux(riemann, split, pp, m->n_species, uL, pL, YL, cL, uR, pR, YR, cR, n, t1, t2,
                   F);
}

#endif
