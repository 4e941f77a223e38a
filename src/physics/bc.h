/* Boundary conditions by FLEXI's BC type codes (host+device), one face point at a time:
 *   2  Dirichlet: IniExactFunc (BC state 0) or the RefState named by the BC state
 *   22 Dirichlet: the exact function named by the BC state, at time t
 *   121 Dirichlet: the exact function named by the BC state, at t = 0 (FLEXI stores it once)
 *   3  adiabatic no-slip wall    4  isothermal no-slip wall (T from RefState `state`)
 *   9  slip (Euler) wall
 *   23 outflow with prescribed Mach number    24 pressure outflow    25 subsonic outflow
 *   27 subsonic inflow with prescribed total pressure, total temperature and flow direction
 * Each condition gives the outer state of the Riemann problem (or the wall flux directly), the
 * BR1 lifting value w* on the face, and the viscous boundary flux from the inner gradients.
 * `state`: for types 22 and 121 FLEXI's exact-function number; for type 2 the 0-based RefState
 * index, or -1 for IniExactFunc; for types 4, 23, 24, 25 and 27 the 0-based index of the RefState
 * that holds the boundary data (bc_uses_refstate). The meaning of 2, 22 and 121 is FLEXI's
 * (navierstokes/idealgas/getboundaryflux.f90, GetBoundaryState and InitBC).
 * Types 23-27 follow FLEXI (navierstokes GetBoundaryState), which takes them from Carlson,
 * "Inflow/Outflow Boundary Conditions with Application to FUN3D", NASA/TM-2011-217181 (BCs
 * 2.3-2.7), with 27 corrected after Slater, AIAA 2001-3882. n is the outward unit normal. */
#ifndef HEXDG_BC_H
#define HEXDG_BC_H

#include "physics/eos.h"
#include "physics/exactfunc.h"
#include "physics/navierstokes.h"
#include "physics/riemann.h"

enum {
  BC_PERIODIC = 1,
  BC_EXACT = 2,
  BC_WALL_ADIABATIC = 3,
  BC_WALL_ISOTHERMAL = 4,
  BC_WALL_SLIP = 9,
  BC_OUTFLOW_MACH = 23,
  BC_OUTFLOW_PRESSURE = 24,
  BC_OUTFLOW_SUBSONIC = 25,
  BC_INFLOW_TOTAL = 27,
  BC_EXACT_FUNC = 22,
  BC_EXACT_INITIAL = 121
};

/* The Dirichlet conditions 2, 22 and 121: the outer state does not depend on the inner one. */
HD static inline int bc_is_dirichlet(int type) {
  return type == BC_EXACT || type == BC_EXACT_FUNC || type == BC_EXACT_INITIAL;
}

/* Whether hexdg implements BC type `type` on boundary faces. */
HD static inline int bc_supported(int type) {
  return bc_is_dirichlet(type) || type == BC_WALL_ADIABATIC || type == BC_WALL_ISOTHERMAL ||
         type == BC_WALL_SLIP || type == BC_OUTFLOW_MACH || type == BC_OUTFLOW_PRESSURE ||
         type == BC_OUTFLOW_SUBSONIC || type == BC_INFLOW_TOTAL;
}

/* Walls (slip or no-slip): the boundaries of body forces and wall velocities. */
HD static inline int bc_is_wall(int type) {
  return type == BC_WALL_ADIABATIC || type == BC_WALL_ISOTHERMAL || type == BC_WALL_SLIP;
}

/* Whether the BC state of `type` names a RefState (1-based in the input, 0-based here). What the
 * RefState (rho, u, v, w, p) holds: 4 the wall temperature p/(rho R); 23 the Mach number in the
 * u entry; 24, 25 the pressure; 27 (Tt, alpha, beta, -, pt) as FLEXI (angles in degrees). */
HD static inline int bc_uses_refstate(int type) {
  return type == BC_WALL_ISOTHERMAL || type == BC_OUTFLOW_MACH || type == BC_OUTFLOW_PRESSURE ||
         type == BC_OUTFLOW_SUBSONIC || type == BC_INFLOW_TOTAL;
}

/* What the RefState of `type` provides, for error messages (host only in practice). */
HD static inline const char *bc_refstate_meaning(int type) {
  switch (type) {
  case BC_WALL_ISOTHERMAL: return "wall temperature";
  case BC_OUTFLOW_MACH: return "outflow Mach number";
  case BC_INFLOW_TOTAL: return "total temperature, flow angles and total pressure";
  default: return "pressure";
  }
}

HD static inline double bc_normal_velocity(const double *prim, const double n[3]) {
  return prim[VEL1] * n[0] + prim[VEL2] * n[1] + prim[VEL3] * n[2];
}

/* The pressure that outflow BCs 24 and 25 prescribe at time t: RefState `state`'s, reached by a
 * linear ramp from BackPressureRampStart at t = 0 when BackPressureRampTime > 0. */
HD static inline double bc_prescribed_pressure(const ExactFuncParams *ef, int state, double t) {
  const double p_set = ef->ref_prim[state][PRES];
  if (!(ef->p_ramp_time > 0.0) || t >= ef->p_ramp_time) return p_set;
  const double s = t > 0.0 ? t / ef->p_ramp_time : 0.0;
  return ef->p_ramp_start + s * (p_set - ef->p_ramp_start);
}

/* Keep the inner velocity and speed of sound (so the outgoing Riemann invariant u_n + 2c/(kappa-1)
 * and the temperature) and set the pressure p_b; the density follows as kappa p_b / c^2. */
HD static inline void bc_set_pressure_keep_sound_speed(const PhysParams *pp, double *prim,
                                                       double p_b) {
  const double c2 = pp->kappa * prim[PRES] / prim[PDENS];
  prim[PDENS] = pp->kappa * p_b / c2;
  prim[PRES] = p_b;
}

/* 23 (Carlson 2011, Eqs. 19-24): subsonic (u_n < c): the inner total pressure of the normal Mach
 * number M_n = u_n / c, expanded isentropically to the prescribed Mach number M_set:
 * p_b = p (1 + (kappa-1)/2 M_n^2)^(kappa/(kappa-1)) / (1 + (kappa-1)/2 M_set^2)^(kappa/(kappa-1)).
 * Supersonic: FLEXI takes p_b = p + rho |v|^2 / 2. Velocity and temperature from the inside. */
HD static inline void bc_outflow_mach(const PhysParams *pp, double mach_set, const double n[3],
                                      double *prim) {
  const double c = speed_of_sound(pp, prim), mach_n = bc_normal_velocity(prim, n) / c;
  double p_b;
  if (mach_n < 1.0) {
    const double half_km1 = 0.5 * pp->kappa_m1;
    const double ratio =
        (1.0 + half_km1 * mach_n * mach_n) / (1.0 + half_km1 * mach_set * mach_set);
    p_b = prim[PRES] * pow(ratio, pp->kappa * pp->s_kappa_m1);
  } else {
    const double vel2 = prim[VEL1] * prim[VEL1] + prim[VEL2] * prim[VEL2] + prim[VEL3] * prim[VEL3];
    p_b = prim[PRES] + 0.5 * prim[PDENS] * vel2;
  }
  bc_set_pressure_keep_sound_speed(pp, prim, p_b);
}

/* 24 (Carlson 2011, Eqs. 25-26): subsonic (u_n < c, backflow included): prescribed pressure with
 * the inner velocity and temperature; supersonic: the inner state. */
HD static inline void bc_outflow_pressure(const PhysParams *pp, double p_set, const double n[3],
                                          double *prim) {
  if (bc_normal_velocity(prim, n) < speed_of_sound(pp, prim))
    bc_set_pressure_keep_sound_speed(pp, prim, p_set);
}

/* 25 (Carlson 2011, Eqs. 27-29, as FLEXI): the pressure is always the prescribed one; the density
 * is kappa p* / c^2 with the inner c and p* = p_set (subsonic: inner temperature) or, for
 * supersonic outflow, p* = p + rho |v|^2 / 2. Backflow (u_n < 0) is turned into outflow: the
 * velocity becomes |u_n| n. */
HD static inline void bc_outflow_subsonic(const PhysParams *pp, double p_set, const double n[3],
                                          double *prim) {
  const double c = speed_of_sound(pp, prim), vel_n = bc_normal_velocity(prim, n);
  double p_star = p_set;
  if (vel_n >= c) {
    const double vel2 = prim[VEL1] * prim[VEL1] + prim[VEL2] * prim[VEL2] + prim[VEL3] * prim[VEL3];
    p_star = prim[PRES] + 0.5 * prim[PDENS] * vel2;
  }
  if (vel_n < 0.0)
    for (int k = 0; k < 3; k++)
      prim[VEL1 + k] = -vel_n * n[k];
  prim[PDENS] = pp->kappa * p_star / (c * c);
  prim[PRES] = p_set;
}

/* Inflow direction of 27 from FLEXI's angles in degrees (Slater 2001, Eq. 8): a = (1, tan alpha,
 * tan beta) / |(1, tan alpha, tan beta)|, in global coordinates. */
HD static inline void bc_inflow_direction(double alpha_deg, double beta_deg, double a[3]) {
  const double ta = tan(HX_PI / 180.0 * alpha_deg), tb = tan(HX_PI / 180.0 * beta_deg);
  const double s = 1.0 / sqrt(1.0 + ta * ta + tb * tb);
  a[0] = s;
  a[1] = ta * s;
  a[2] = tb * s;
}

/* 27 (Carlson 2011, Eqs. 37-47, with Slater 2001, Eqs. 5-9 for the flow direction): total
 * temperature Tt, total pressure pt and direction a prescribed; the Riemann invariant
 * R = u_n,in - 2c/(kappa-1) (u_n,in = -u.n, the velocity into the domain) travels out of the
 * domain and is taken from the inside. With |v_b| = (R + 2 c_b/(kappa-1)) / A, A = -a.n, the
 * total enthalpy cp Tt = c_b^2/(kappa-1) + |v_b|^2/2 is a quadratic in c_b:
 * (A^2 + 2/(kappa-1)) c_b^2 + 2 R c_b + (kappa-1)/2 R^2 - kappa R_gas Tt A^2 = 0, larger root.
 * Then T_b = c_b^2/(kappa R_gas), |v_b| = sqrt(2 cp (Tt - T_b)) along a and the isentropic
 * p_b = pt (T_b/Tt)^(kappa/(kappa-1)). Where no inflow state carries the inner invariant (T_b
 * would exceed Tt, or the discriminant is negative), FLEXI gives NaN; hexdg clamps the
 * discriminant at 0 and T_b at Tt, i.e. takes the reservoir at rest (Tt, pt). */
HD static inline void bc_inflow_total(const PhysParams *pp, const double *ref, const double n[3],
                                      double *prim) {
  const double kappa = pp->kappa, km1 = pp->kappa_m1;
  const double Tt = ref[PDENS], pt = ref[PRES];
  double a[3];
  bc_inflow_direction(ref[VEL1], ref[VEL2], a);
  const double A = -(a[0] * n[0] + a[1] * n[1] + a[2] * n[2]);
  const double c = speed_of_sound(pp, prim);
  const double riemann_out = -bc_normal_velocity(prim, n) - 2.0 * c / km1;
  const double qa = A * A + 2.0 / km1, qb = 2.0 * riemann_out;
  const double qc = 0.5 * km1 * riemann_out * riemann_out - kappa * pp->R * Tt * A * A;
  const double root = sqrt(fmax(qb * qb - 4.0 * qa * qc, 0.0));
  const double c_b = fmax(-qb + root, -qb - root) / (2.0 * qa);
  const double T_b = fmin(c_b * c_b / (kappa * pp->R), Tt);
  const double speed = sqrt(2.0 * pp->cp * (Tt - T_b));
  const double p_b = pt * pow(T_b / Tt, kappa * pp->s_kappa_m1);
  prim[PDENS] = p_b / (pp->R * T_b);
  for (int k = 0; k < 3; k++)
    prim[VEL1 + k] = speed * a[k];
  prim[PRES] = p_b;
}

/* Outer state: exact function / reference state, mirror state (slip wall: normal velocity
 * reversed), wall state (no-slip: zero velocity, inner density and pressure or wall temperature),
 * or the characteristic inflow/outflow states above. */
HD static inline void bc_outer_state(int type, int state, const ExactFuncParams *ef,
                                     const PhysParams *pp, const double *uL, const double n[3],
                                     const double x[3], double t, double *uR) {
  double pr[HX_NPRIM];
  cons_to_prim(pp, uL, pr);
  switch (type) {
  case BC_WALL_SLIP: {
    double vn = bc_normal_velocity(pr, n);
    for (int k = 0; k < 3; k++)
      pr[VEL1 + k] -= 2.0 * vn * n[k];
    break;
  }
  case BC_WALL_ADIABATIC:
    pr[VEL1] = pr[VEL2] = pr[VEL3] = 0.0;
    break;
  case BC_WALL_ISOTHERMAL: /* wall temperature, inner pressure: rho = p / (R T_wall) */
    pr[VEL1] = pr[VEL2] = pr[VEL3] = 0.0;
    pr[TEMP] = ef->ref_prim[state][TEMP];
    pr[PDENS] = pr[PRES] / (pp->R * pr[TEMP]);
    break;
  case BC_OUTFLOW_MACH: /* the Mach number is the u entry of the RefState */
    bc_outflow_mach(pp, ef->ref_prim[state][VEL1], n, pr);
    break;
  case BC_OUTFLOW_PRESSURE:
    bc_outflow_pressure(pp, bc_prescribed_pressure(ef, state, t), n, pr);
    break;
  case BC_OUTFLOW_SUBSONIC:
    bc_outflow_subsonic(pp, bc_prescribed_pressure(ef, state, t), n, pr);
    break;
  case BC_INFLOW_TOTAL:
    bc_inflow_total(pp, ef->ref_prim[state], n, pr);
    break;
  case BC_EXACT_FUNC: /* exact function `state` with IniRefState */
    exact_func_eval(ef, pp, state, ef->ref_state, x, t, uR);
    return;
  case BC_EXACT_INITIAL:
    exact_func_eval(ef, pp, state, ef->ref_state, x, 0.0, uR);
    return;
  default: /* BC_EXACT: RefState `state`, or IniExactFunc when none is named (state < 0) */
    if (state >= 0)
      prim_to_cons(pp, ef->ref_prim[state], uR);
    else
      exact_func(ef, pp, x, t, uR);
    return;
  }
  prim_set_temperature(pp, pr);
  prim_to_cons(pp, pr, uR);
}

/* Wall pressure: exact solution of the Riemann problem between the inner state and its mirror
 * image (Toro 2009, Sec. 4.2/4.3): a rarefaction when the flow leaves the wall (u_n < 0), a shock
 * when it moves into it; u_n = v . n with n the outward unit normal; kappa the ratio of the
 * specific heats (the mixture's frozen one, rho c^2 / p, in mixture_bc.h). */
HD static inline double bc_wall_pressure_kappa(double kappa, const double *prim,
                                               const double n[3]) {
  const double vn = prim[VEL1] * n[0] + prim[VEL2] * n[1] + prim[VEL3] * n[2];
  const double rho = prim[PDENS], p = prim[PRES], km1 = kappa - 1.0, kp1 = kappa + 1.0;
  if (vn <= 0.0) {
    const double c = sqrt(kappa * p / rho);
    const double base = 1.0 + 0.5 * km1 * vn / c;
    return base > 0.0 ? p * pow(base, 2.0 * kappa / km1) : 0.0;
  }
  const double ar = 2.0 / (kp1 * rho), br = km1 / kp1 * p;
  return p + vn / ar * 0.5 * (vn + sqrt(vn * vn + 4.0 * ar * (p + br)));
}

/* bc_wall_pressure_kappa of the calorically perfect gas. */
HD static inline double bc_wall_pressure(const PhysParams *pp, const double *prim,
                                         const double n[3]) {
  return bc_wall_pressure_kappa(pp->kappa, prim, n);
}

/* Advective boundary flux F . n per unit area. Walls (no-slip and slip): the pressure flux of the
 * wall pressure, no mass or energy crosses the wall (FLEXI, GetBoundaryFlux, types 3, 4, 9); the
 * others through the Riemann solver against the outer state. */
HD static inline void bc_advective_flux(int type, int riemann, int split, const PhysParams *pp,
                                        const double *uL, const double *uR, const double n[3],
                                        const double t1[3], const double t2[3], double *F) {
  if (bc_is_wall(type)) {
    double prim[HX_NPRIM];
    cons_to_prim(pp, uL, prim);
    double p = bc_wall_pressure(pp, prim, n);
    F[DENS] = F[ENER] = 0.0;
    for (int k = 0; k < 3; k++)
      F[MOM1 + k] = p * n[k];
    return;
  }
  riemann_flux(riemann, split, pp, uL, uR, n, t1, t2, F);
}

/* BR1 lifting value w* on the boundary, as FLEXI's Lifting_GetBoundaryFlux: no-slip walls the wall
 * state (zero velocity, wall or inner temperature); the slip wall the mean of the inner state and
 * the inner state without its normal velocity, i.e. 3/4 inner + 1/4 mirror state uR; every other
 * condition the mean of the inner and the outer state. */
HD static inline void bc_lifting_value(int type, const PhysParams *pp, const double *uL,
                                       const double *uR, double *w) {
  double pr[HX_NPRIM], wL[HX_NLIFT], wR[HX_NLIFT];
  cons_to_prim(pp, uR, pr);
  lifting_variables(pr, wR);
  if (type == BC_WALL_ADIABATIC || type == BC_WALL_ISOTHERMAL) {
    for (int v = 0; v < HX_NLIFT; v++)
      w[v] = wR[v];
    return;
  }
  cons_to_prim(pp, uL, pr);
  lifting_variables(pr, wL);
  const double a = type == BC_WALL_SLIP ? 0.25 : 0.5;
  for (int v = 0; v < HX_NLIFT; v++)
    w[v] = (1.0 - a) * wL[v] + a * wR[v];
}

/* The BR1 face value of one face point (to be multiplied by n_c s, br1_face_value's forms): the
 * lifting variables of the inner state uL and, on inner faces (type < 0), of uR; on boundaries
 * bc_lifting_value of uL and its outer state (unit normal n, position x, time t). */
HD static inline void br1_face_point(int form, int type, int state, const ExactFuncParams *ef,
                                     const PhysParams *pp, const double *uL, const double *uR_inner,
                                     const double n[3], const double x[3], double t, double *wf) {
  double pL[HX_NPRIM], pR[HX_NPRIM], wL[HX_NLIFT], wR[HX_NLIFT];
  cons_to_prim(pp, uL, pL);
  lifting_variables(pL, wL);
  if (type < 0) {
    cons_to_prim(pp, uR_inner, pR);
    lifting_variables(pR, wR);
  } else {
    double uR[HX_NVAR];
    bc_outer_state(type, state, ef, pp, uL, n, x, t, uR);
    bc_lifting_value(type, pp, uL, uR, wR);
  }
  br1_face_value(form, type >= 0, wL, wR, wf);
}

/* Fv . n of the primitive state pr with the gradients g (eddy viscosity when les). */
HD static inline void bc_state_viscous_flux(const PhysParams *pp, const double *pr, int les,
                                            double mu_t, double lambda_t, const double *gx,
                                            const double *gy, const double *gz, int adiabatic,
                                            const double n[3], double *Fv) {
  double tau[9], cond[3];
  if (les) /* eddy viscosity of the inner side (dg/eddyvisc.h) */
    viscous_stress_les(pp, pr, mu_t, lambda_t, gx, gy, gz, tau, cond);
  else
    viscous_stress(pp, pr, gx, gy, gz, tau, cond);
  if (adiabatic) cond[0] = cond[1] = cond[2] = 0.0;
  viscous_flux_from_stress(pr, tau, cond, n, Fv);
}

/* Viscous boundary flux Fv . n from the inner gradients g[3][HX_NLIFT], as FLEXI's GetBoundaryFlux:
 * no-slip walls the flux of the wall state (the adiabatic wall without heat flux); the slip wall
 * the flux of the inner state without its normal velocity, with the normal part of every gradient
 * removed (symmetry); every other condition the mean of the fluxes of the inner and the outer
 * state (FLEXI's ViscousFlux with the inner gradients on both sides). uL inner, uR outer state. */
HD static inline void bc_viscous_flux_sgs(int type, const PhysParams *pp, const double *uL,
                                          const double *uR, int les, double mu_t, double lambda_t,
                                          const double *gx, const double *gy, const double *gz,
                                          const double n[3], double *Fv) {
  double pr[HX_NPRIM];
  if (type == BC_WALL_SLIP) {
    double sx[HX_NLIFT], sy[HX_NLIFT], sz[HX_NLIFT];
    for (int v = 0; v < HX_NLIFT; v++) { /* (I - n n^T) grad */
      const double gn = gx[v] * n[0] + gy[v] * n[1] + gz[v] * n[2];
      sx[v] = gx[v] - gn * n[0];
      sy[v] = gy[v] - gn * n[1];
      sz[v] = gz[v] - gn * n[2];
    }
    cons_to_prim(pp, uL, pr);
    const double vn = bc_normal_velocity(pr, n);
    for (int k = 0; k < 3; k++)
      pr[VEL1 + k] -= vn * n[k];
    bc_state_viscous_flux(pp, pr, les, mu_t, lambda_t, sx, sy, sz, 0, n, Fv);
    return;
  }
  cons_to_prim(pp, uR, pr);
  bc_state_viscous_flux(pp, pr, les, mu_t, lambda_t, gx, gy, gz, type == BC_WALL_ADIABATIC, n, Fv);
  if (type == BC_WALL_ADIABATIC || type == BC_WALL_ISOTHERMAL) return;
  double FL[HX_NVAR];
  cons_to_prim(pp, uL, pr);
  bc_state_viscous_flux(pp, pr, les, mu_t, lambda_t, gx, gy, gz, 0, n, FL);
  for (int v = 0; v < HX_NVAR; v++)
    Fv[v] = 0.5 * (FL[v] + Fv[v]);
}

/* Without eddy viscosity (les = 0 is a constant: the branch above is compiled out). */
HD static inline void bc_viscous_flux(int type, const PhysParams *pp, const double *uL,
                                      const double *uR, const double *gx, const double *gy,
                                      const double *gz, const double n[3], double *Fv) {
  bc_viscous_flux_sgs(type, pp, uL, uR, 0, 0.0, 0.0, gx, gy, gz, n, Fv);
}

#endif
