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

/* No-slip wall state (3, 4): zero velocity, inner composition; the inner density and temperature
 * (adiabatic, T_wall <= 0) or the inner pressure at the wall temperature, rho = p W / (R T_wall)
 * (isothermal). */
HD static inline void mix_bc_wall_state(const ChemMech *m, double T_wall, const double *prim,
                                        const double *Y, double *uR) {
  const double zero[3] = {0.0, 0.0, 0.0};
  if (!(T_wall > 0.0)) {
    mix_prim_to_cons(m, prim[PDENS], zero, prim[TEMP], Y, uR);
    return;
  }
  const double rho = mix_density(m, prim[PRES], T_wall, Y);
  mix_prim_to_cons(m, rho, zero, T_wall, Y, uR);
}

/* 24 for the mixture, as the air's bc_outflow_pressure (Carlson 2011, Eqs. 25-26): subsonic
 * (u_n < c, frozen c; backflow included) the prescribed pressure p_set with the inner temperature,
 * velocity and composition, rho = p_set W / (R T); supersonic the inner state. Keeping T, not
 * rho: with the inner density, T = p_set W / (rho R) rises wherever the gas beside the boundary is
 * thinner than at p_set, and backflow carries that hotter gas in, so a low-density pocket at the
 * outflow heats without bound (the 2-D detonation's outflow reached 9950 K). */
HD static inline void mix_bc_outflow_pressure(const ChemMech *m, double p_set, const double n[3],
                                              const double *uL, const double *prim,
                                              const double *Y, double c, double *uR) {
  if (!(bc_normal_velocity(prim, n) < c)) {
    for (int v = 0; v < HX_NVAR + m->n_species; v++)
      uR[v] = uL[v];
    return;
  }
  mix_prim_to_cons(m, mix_density(m, p_set, prim[TEMP], Y), prim + VEL1, prim[TEMP], Y, uR);
}

/* The outer state of the density rho_b, pressure p_b and velocity vel with the inner composition:
 * T = p_b W / (rho_b R). */
HD static inline void mix_bc_state_rho_p(const ChemMech *m, double rho_b, double p_b,
                                         const double *vel, const double *Y, double *uR) {
  mix_prim_to_cons(m, rho_b, vel, mix_temperature(m, rho_b, p_b, Y), Y, uR);
}

/* 23 for the mixture: bc_outflow_mach (Carlson 2011, Eqs. 19-24) with the frozen ratio of the
 * specific heats gamma = rho c^2 / p of the inner point in place of kappa: the boundary pressure
 * from the inner normal Mach number and the prescribed one, rho_b = gamma p_b / c^2 (the inner
 * sound speed kept), inner velocity and composition. */
HD static inline void mix_bc_outflow_mach(const ChemMech *m, double mach_set, const double n[3],
                                          const double *prim, const double *Y, double c,
                                          double *uR) {
  const double gamma = prim[PDENS] * c * c / prim[PRES], mach_n = bc_normal_velocity(prim, n) / c;
  const double vel2 = prim[VEL1] * prim[VEL1] + prim[VEL2] * prim[VEL2] + prim[VEL3] * prim[VEL3];
  double p_b = prim[PRES] + 0.5 * prim[PDENS] * vel2;
  if (mach_n < 1.0) {
    const double half_gm1 = 0.5 * (gamma - 1.0);
    const double ratio =
        (1.0 + half_gm1 * mach_n * mach_n) / (1.0 + half_gm1 * mach_set * mach_set);
    p_b = prim[PRES] * pow(ratio, gamma / (gamma - 1.0));
  }
  mix_bc_state_rho_p(m, gamma * p_b / (c * c), p_b, prim + VEL1, Y, uR);
}

/* 25 for the mixture: bc_outflow_subsonic (Carlson 2011, Eqs. 27-29, as FLEXI) with the frozen
 * gamma = rho c^2 / p: p = p_set, rho = gamma p* / c^2 (p* = p_set, or p + rho |v|^2 / 2 for
 * supersonic outflow), backflow turned into outflow |u_n| n, inner composition. */
HD static inline void mix_bc_outflow_subsonic(const ChemMech *m, double p_set, const double n[3],
                                              const double *prim, const double *Y, double c,
                                              double *uR) {
  const double gamma = prim[PDENS] * c * c / prim[PRES], vel_n = bc_normal_velocity(prim, n);
  double vel[3] = {prim[VEL1], prim[VEL2], prim[VEL3]}, p_star = p_set;
  if (vel_n >= c)
    p_star = prim[PRES] + 0.5 * prim[PDENS] * (vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2]);
  if (vel_n < 0.0)
    for (int k = 0; k < 3; k++)
      vel[k] = -vel_n * n[k];
  mix_bc_state_rho_p(m, gamma * p_star / (c * c), p_set, vel, Y, uR);
}

/* Residual of 27's characteristic condition for the mixture at the boundary temperature T:
 * A |v_b| - 2 c_b / (gamma - 1) - R with |v_b| = sqrt(2 (h(Tt) - h(T))), c_b = sqrt(gamma R_t T);
 * it falls as T rises (|v_b| falls, c_b rises). */
HD static inline double mix_inflow_total_residual(const ChemMech *m, const double *Yt, double T,
                                                  double A, double h_t, double gamma, double R_t,
                                                  double riemann_out) {
  const double speed = sqrt(fmax(2.0 * (h_t - chem_h_mass(m, T, Yt, 1)), 0.0));
  return A * speed - 2.0 * sqrt(gamma * R_t * T) / (gamma - 1.0) - riemann_out;
}

/* 27 for the mixture: bc_inflow_total (Carlson 2011, Eqs. 37-47; Slater 2001) with the exact
 * thermally perfect relations. Prescribed: total temperature Tt, total pressure pt, flow direction
 * a (ref: Tt, alpha, beta, -, pt as for air) and the composition Yt of the RefState. The outgoing
 * invariant R = -u.n - 2c/(gamma-1) is taken from the inner point with its frozen gamma = rho c^2
 * / p (as 23-25); the boundary temperature solves A |v_b| - 2 c_b/(gamma-1) = R (A = -a.n,
 * |v_b| from h(Tt) = h(T_b) + |v_b|^2/2, c_b = sqrt(gamma R_t T_b)) by bisection in [CHEM_T_LOW,
 * Tt], with T_b = Tt where even |v_b| = 0 leaves the left side larger (the air's min(T_b, Tt));
 * the pressure from the isentrope of the fixed composition, ln(p_b/pt) = sum_k X_k (s_k(T_b) -
 * s_k(Tt)) / R (the mixing entropies cancel). With constant cp this is bc_inflow_total. */
HD static inline void mix_bc_inflow_total(const ChemMech *m, const double *ref, const double *Yt,
                                          const double n[3], const double *prim, double c,
                                          double *uR) {
  const double Tt = ref[PDENS], pt = ref[PRES];
  double a[3];
  bc_inflow_direction(ref[VEL1], ref[VEL2], a);
  const double A = -(a[0] * n[0] + a[1] * n[1] + a[2] * n[2]);
  const double gamma = prim[PDENS] * c * c / prim[PRES];
  const double riemann_out = -bc_normal_velocity(prim, n) - 2.0 * c / (gamma - 1.0);
  const double W = chem_mean_mw(m, Yt, 1), R_t = CHEM_R / W, h_t = chem_h_mass(m, Tt, Yt, 1);
  double T_b = Tt;
  /* (a residual within round-off of 0 at Tt is the gas at rest at the total state: |v_b| =
     sqrt(2 (h_t - h)) would turn h's round-off into a velocity of sqrt(eps)) */
  if (mix_inflow_total_residual(m, Yt, Tt, A, h_t, gamma, R_t, riemann_out) < -1e-12 * c) {
    double lo = CHEM_T_LOW, hi = Tt;
    for (int it = 0; it < 60; it++) {
      const double mid = 0.5 * (lo + hi);
      if (mix_inflow_total_residual(m, Yt, mid, A, h_t, gamma, R_t, riemann_out) >= 0.0)
        lo = mid;
      else
        hi = mid;
    }
    T_b = 0.5 * (lo + hi);
  }
  const double speed = sqrt(fmax(2.0 * (h_t - chem_h_mass(m, T_b, Yt, 1)), 0.0));
  double ds = 0.0;
  for (int k = 0; k < m->n_species; k++)
    ds += Yt[k] * W / m->mw[k] * (chem_s_R(m, k, T_b) - chem_s_R(m, k, Tt));
  const double p_b = pt * exp(ds);
  const double vel[3] = {speed * a[0], speed * a[1], speed * a[2]};
  mix_prim_to_cons(m, p_b / (R_t * T_b), vel, T_b, Yt, uR);
}

/* Whether the mixture implements BC type `type` on boundary faces. */
HD static inline int mix_bc_supported(int type) {
  return type == BC_EXACT || type == BC_WALL_ADIABATIC || type == BC_WALL_ISOTHERMAL ||
         type == BC_WALL_SLIP || type == BC_OUTFLOW_MACH || type == BC_OUTFLOW_PRESSURE ||
         type == BC_OUTFLOW_SUBSONIC || type == BC_INFLOW_TOTAL;
}

/* Outer state of a boundary face point of BC type `type` (bc.h's codes, mix_bc_supported) from
 * the inner state uL and the outward unit normal n: 2 the exact function; 9 the slip wall's mirror
 * state (normal momentum reversed); 3, 4 the no-slip wall state; 23, 24, 25 the outflow states
 * above, 27 the total-state inflow. `state`: the 0-based RefState of 4 (its T = p W / (rho R) is
 * the wall temperature), 23 (the Mach number in its u entry), 24 and 25 (its pressure), 27 (Tt,
 * angles, pt; its composition from ref_U), as bc_outer_state. T_guess starts
 * the Newton iteration for the inner temperature. */
HD static inline void mix_bc_outer_state(const ChemMech *m, const ExactFuncParams *ef,
                                         const double *ref_U, int type, int state, double T_guess,
                                         const double *uL, const double n[3], const double x[3],
                                         double t, double *uR) {
  if (type == BC_EXACT) { /* RefState `state`, or the exact function (state < 0), as bc.h */
    if (state >= 0)
      for (int v = 0; v < HX_NVAR + m->n_species; v++)
        uR[v] = ref_U[(size_t)state * (HX_NVAR + m->n_species) + v];
    else
      mix_exact_state(m, ef, ref_U, x, t, uR);
    return;
  }
  const int nv = HX_NVAR + m->n_species;
  if (type == BC_WALL_SLIP) {
    const double mn = uL[MOM1] * n[0] + uL[MOM2] * n[1] + uL[MOM3] * n[2];
    for (int v = 0; v < nv; v++)
      uR[v] = uL[v];
    for (int k = 0; k < 3; k++)
      uR[MOM1 + k] = uL[MOM1 + k] - 2.0 * mn * n[k];
    return;
  }
  double prim[HX_NPRIM], Y[HX_MAX_SPECIES], c = 0.0;
  prim[TEMP] = T_guess;
  if (mix_cons_to_prim(m, uL, prim, Y, &c) != 0) { /* no temperature: the admissibility check */
    for (int v = 0; v < nv; v++)                     /* of the time step stops the run */
      uR[v] = uL[v];
    return;
  }
  switch (type) {
  case BC_WALL_ADIABATIC: mix_bc_wall_state(m, 0.0, prim, Y, uR); break;
  case BC_WALL_ISOTHERMAL: mix_bc_wall_state(m, ef->ref_prim[state][TEMP], prim, Y, uR); break;
  case BC_OUTFLOW_MACH: mix_bc_outflow_mach(m, ef->ref_prim[state][VEL1], n, prim, Y, c, uR); break;
  case BC_OUTFLOW_SUBSONIC:
    mix_bc_outflow_subsonic(m, bc_prescribed_pressure(ef, state, t), n, prim, Y, c, uR);
    break;
  case BC_INFLOW_TOTAL: { /* the composition: the RefState's (mixture_ref_states) */
    const double *ref = ref_U + (size_t)state * nv;
    double Yt[HX_MAX_SPECIES];
    for (int k = 0; k < m->n_species; k++)
      Yt[k] = ref[HX_SPEC0 + k] / ref[DENS];
    mix_bc_inflow_total(m, ef->ref_prim[state], Yt, n, prim, c, uR);
    break;
  }
  default: /* BC_OUTFLOW_PRESSURE */
    mix_bc_outflow_pressure(m, bc_prescribed_pressure(ef, state, t), n, uL, prim, Y, c, uR);
    break;
  }
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

/* Advective boundary flux F . n of the mixture: at the walls (3, 4, 9) the pressure flux of
 * bc_wall_pressure_kappa with the inner frozen gamma = rho c^2 / p (no mass, species or energy
 * crosses the wall, as bc_advective_flux for air); the Riemann flux against uR otherwise. */
HD static inline void mix_bc_advective_flux(int type, int riemann, int split, const PhysParams *pp,
                                            const ChemMech *m, double T_guess, const double *uL,
                                            const double *uR, const double n[3],
                                            const double t1[3], const double t2[3], double *F) {
  if (!bc_is_wall(type)) {
    mix_face_flux(riemann, split, pp, m, T_guess, uL, uR, n, t1, t2, F);
    return;
  }
  double prim[HX_NPRIM], Y[HX_MAX_SPECIES], c = 0.0;
  prim[TEMP] = T_guess;
  mix_cons_to_prim(m, uL, prim, Y, &c);
  const double p_wall =
      prim[PRES] > 0.0 ? bc_wall_pressure_kappa(prim[PDENS] * c * c / prim[PRES], prim, n) : 0.0;
  for (int v = 0; v < HX_NVAR + m->n_species; v++)
    F[v] = 0.0;
  for (int k = 0; k < 3; k++)
    F[MOM1 + k] = p_wall * n[k];
}

#endif
