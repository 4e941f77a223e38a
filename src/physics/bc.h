/* Boundary conditions by FLEXI's BC type codes (host+device), one face point at a time:
 *   2  exact function (IniExactFunc, or the RefState named by the BC state) through the Riemann solver
 *   3  adiabatic no-slip wall    4  isothermal no-slip wall (T from RefState `state`)
 *   9  slip (Euler) wall         24 pressure outflow (p from RefState `state`)
 * Each condition gives the outer state of the Riemann problem (or the wall flux directly), the
 * BR1 lifting value w* on the face, and the viscous boundary flux from the inner gradients.
 * `state`: for type 2 FLEXI's exact-function number (0: IniExactFunc); for types 4 and 24 the
 * 0-based index of the RefState that gives the wall temperature / outflow pressure. */
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
  BC_OUTFLOW_PRESSURE = 24
};

/* Whether hexdg implements BC type `type` on boundary faces. */
HD static inline int bc_supported(int type) {
  return type == BC_EXACT || type == BC_WALL_ADIABATIC || type == BC_WALL_ISOTHERMAL ||
         type == BC_WALL_SLIP || type == BC_OUTFLOW_PRESSURE;
}

/* Outer state: exact function / reference state, mirror state (slip wall: normal velocity
 * reversed), wall state (no-slip: zero velocity, inner density and pressure or wall temperature),
 * or the inner state with the prescribed pressure (subsonic pressure outflow). */
HD static inline void bc_outer_state(int type, int state, const ExactFuncParams *ef,
                                     const PhysParams *pp, const double *uL, const double n[3],
                                     const double x[3], double t, double *uR) {
  double pr[HX_NPRIM];
  cons_to_prim(pp, uL, pr);
  switch (type) {
  case BC_WALL_SLIP: {
    double vn = pr[VEL1] * n[0] + pr[VEL2] * n[1] + pr[VEL3] * n[2];
    for (int k = 0; k < 3; k++) pr[VEL1 + k] -= 2.0 * vn * n[k];
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
  case BC_OUTFLOW_PRESSURE: /* subsonic: prescribed pressure; supersonic: the inner state */
    if (pr[VEL1] * n[0] + pr[VEL2] * n[1] + pr[VEL3] * n[2] < speed_of_sound(pp, pr))
      pr[PRES] = ef->ref_prim[state][PRES];
    break;
  default: /* BC_EXACT: IniExactFunc, or exact function `state` when one is named */
    if (state > 0)
      exact_func_eval(ef, pp, state, ef->ref_state, x, t, uR);
    else
      exact_func(ef, pp, x, t, uR);
    return;
  }
  prim_set_temperature(pp, pr);
  prim_to_cons(pp, pr, uR);
}

/* Wall pressure: exact solution of the Riemann problem between the inner state and its mirror
 * image (Toro 2009, Sec. 4.2/4.3): a rarefaction when the flow leaves the wall (u_n < 0), a shock
 * when it moves into it; u_n = v . n with n the outward unit normal. */
HD static inline double bc_wall_pressure(const PhysParams *pp, const double *prim, const double n[3]) {
  const double vn = prim[VEL1] * n[0] + prim[VEL2] * n[1] + prim[VEL3] * n[2];
  const double rho = prim[PDENS], p = prim[PRES], kappa = pp->kappa;
  if (vn <= 0.0) {
    const double c = sqrt(kappa * p / rho);
    const double base = 1.0 + 0.5 * pp->kappa_m1 * vn / c;
    return base > 0.0 ? p * pow(base, 2.0 * kappa / pp->kappa_m1) : 0.0;
  }
  const double ar = 2.0 / (pp->kappa_p1 * rho), br = pp->kappa_m1 / pp->kappa_p1 * p;
  return p + vn / ar * 0.5 * (vn + sqrt(vn * vn + 4.0 * ar * (p + br)));
}

/* Advective boundary flux F . n per unit area. No-slip walls: the pressure flux of the wall
 * pressure (no mass or energy crosses the wall); the others through the Riemann solver. */
HD static inline void bc_advective_flux(int type, int riemann, int split, const PhysParams *pp,
                                        const double *uL, const double *uR, const double n[3],
                                        const double t1[3], const double t2[3], double *F) {
  if (type == BC_WALL_ADIABATIC || type == BC_WALL_ISOTHERMAL) {
    double prim[HX_NPRIM];
    cons_to_prim(pp, uL, prim);
    double p = bc_wall_pressure(pp, prim, n);
    F[DENS] = F[ENER] = 0.0;
    for (int k = 0; k < 3; k++) F[MOM1 + k] = p * n[k];
    return;
  }
  riemann_flux(riemann, split, pp, uL, uR, n, t1, t2, F);
}

/* BR1 lifting value w* on the boundary: the outer state's lifting variables, except at the slip
 * wall where the mean of inner and mirror state (tangential velocity, inner temperature) is used. */
HD static inline void bc_lifting_value(int type, const PhysParams *pp, const double *uL,
                                       const double *uR, double *w) {
  double pr[HX_NPRIM], wR[HX_NLIFT];
  cons_to_prim(pp, uR, pr);
  lifting_variables(pr, wR);
  if (type != BC_WALL_SLIP) {
    for (int v = 0; v < HX_NLIFT; v++) w[v] = wR[v];
    return;
  }
  double wL[HX_NLIFT];
  cons_to_prim(pp, uL, pr);
  lifting_variables(pr, wL);
  for (int v = 0; v < HX_NLIFT; v++) w[v] = 0.5 * (wL[v] + wR[v]);
}

/* Viscous boundary flux Fv . n from the inner gradients g[3][HX_NLIFT]: slip wall none;
 * adiabatic wall the stress only (no work, no heat flux); isothermal wall stress and heat flux;
 * the others the viscous flux of the outer state. */
HD static inline void bc_viscous_flux(int type, const PhysParams *pp, const double *uR,
                                      const double *gx, const double *gy, const double *gz,
                                      const double n[3], double *Fv) {
  double pr[HX_NPRIM], tau[9], cond[3];
  if (type == BC_WALL_SLIP) {
    for (int v = 0; v < HX_NVAR; v++) Fv[v] = 0.0;
    return;
  }
  cons_to_prim(pp, uR, pr);
  viscous_stress(pp, pr, gx, gy, gz, tau, cond);
  if (type == BC_WALL_ADIABATIC) cond[0] = cond[1] = cond[2] = 0.0;
  viscous_flux_from_stress(pr, tau, cond, n, Fv);
}

#endif
