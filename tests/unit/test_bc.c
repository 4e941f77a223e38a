/* Boundary conditions (physics/bc.h), one face point at a time, on oblique faces:
 * - consistency: an inner state that already satisfies the boundary data is its own outer state,
 *   so the boundary flux is the physical flux, for every Riemann solver (types 23, 24, 25, 27);
 * - 27: the outer state has exactly the prescribed total temperature, total pressure and flow
 *   direction, and the outgoing Riemann invariant u_n + 2c/(kappa-1) of the inner state;
 * - 23/24/25: the prescribed quantity, the extrapolated velocity, temperature and Riemann
 *   invariant; supersonic outflow gives the inner state (24) or, through an upwind solver, the
 *   inner state's flux (23, 25 keep FLEXI's supersonic outer state); 25 turns backflow outward;
 * - the Riemann-type conditions (2, 22, 121, 23, 24, 25, 27) lift the mean of the inner and the
 *   outer state and take the mean of both states' viscous fluxes, as FLEXI;
 * - 2 takes IniExactFunc (state -1 here) or a RefState, 22 and 121 an exact function by id (121 at
 *   t = 0), as FLEXI's GetBoundaryState;
 * - slip wall: the lifting value and viscous flux of the inner state without its normal velocity
 *   and with the normal part of the gradients removed (no heat flux);
 * - walls: the slip-wall mirror has zero mean normal velocity; the no-slip wall pressure equals
 *   the inner pressure at zero normal velocity and rises (acoustically for weak compression) for
 *   flow into the wall. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "physics/bc.h"
#include "physics/viscosity.h"

#define KAPPA 1.4
#define R_GAS 287.058

static const int SOLVERS[] = {RIEMANN_LF,  RIEMANN_HLLC, RIEMANN_ROE,
                              RIEMANN_HLL, RIEMANN_HLLE, RIEMANN_ROE_ENTROPYFIX};
#define N_SOLVERS (int)(sizeof SOLVERS / sizeof SOLVERS[0])
/* solvers that return F(U_L) exactly (or up to round-off: Roe) when every wave leaves the domain */
static const int UPWIND_SOLVERS[] = {RIEMANN_HLL, RIEMANN_HLLC, RIEMANN_HLLE, RIEMANN_ROE};
#define N_UPWIND (int)(sizeof UPWIND_SOLVERS / sizeof UPWIND_SOLVERS[0])

/* Outward normals of oblique faces, not normalised here. */
static const double NORMALS[3][3] = {{1.0, 0.0, 0.0}, {0.8, -0.5, 0.3}, {-0.2, 0.9, 0.4}};

static PhysParams gas(void) {
  PhysParams pp;
  memset(&pp, 0, sizeof pp);
  physparams_set(&pp, KAPPA, R_GAS);
  physparams_set_transport(&pp, VISC_CONSTANT, 1.8e-5, 0.72, 110.4, 280.0, 1.5);
  return pp;
}

static double dot3(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Orthonormal frame (n, t1, t2) from a direction. */
static void make_frame(const double dir[3], double n[3], double t1[3], double t2[3]) {
  double len = sqrt(dot3(dir, dir));
  for (int k = 0; k < 3; k++)
    n[k] = dir[k] / len;
  const double e[3] = {fabs(n[0]) < 0.9 ? 1.0 : 0.0, fabs(n[0]) < 0.9 ? 0.0 : 1.0, 0.0};
  double en = dot3(e, n);
  for (int k = 0; k < 3; k++)
    t1[k] = e[k] - en * n[k];
  len = sqrt(dot3(t1, t1));
  for (int k = 0; k < 3; k++)
    t1[k] /= len;
  t2[0] = n[1] * t1[2] - n[2] * t1[1];
  t2[1] = n[2] * t1[0] - n[0] * t1[2];
  t2[2] = n[0] * t1[1] - n[1] * t1[0];
}

/* Conservative state from rho, velocity vel_n n + vel_t t1 + vel_t2 t2, p. */
static void state_in_frame(const PhysParams *pp, double rho, double vel_n, double vel_t,
                           double vel_t2, double p, const double n[3], const double t1[3],
                           const double t2[3], double *U) {
  double prim[HX_NPRIM] = {rho, 0.0, 0.0, 0.0, p, 0.0};
  for (int k = 0; k < 3; k++)
    prim[VEL1 + k] = vel_n * n[k] + vel_t * t1[k] + vel_t2 * t2[k];
  prim_to_cons(pp, prim, U);
}

/* Euler flux F(U) . n, written out independently of the solver's flux routines. */
static void physical_flux(const PhysParams *pp, const double *U, const double n[3], double *F) {
  double prim[HX_NPRIM];
  cons_to_prim(pp, U, prim);
  const double vn = prim[VEL1] * n[0] + prim[VEL2] * n[1] + prim[VEL3] * n[2];
  F[DENS] = U[DENS] * vn;
  for (int k = 0; k < 3; k++)
    F[MOM1 + k] = U[MOM1 + k] * vn + prim[PRES] * n[k];
  F[ENER] = (U[ENER] + prim[PRES]) * vn;
}

static double max_rel_diff(const double *a, const double *b, int n, double scale) {
  double d = 0.0;
  for (int v = 0; v < n; v++)
    d = fmax(d, fabs(a[v] - b[v]) / scale);
  return d;
}

static double flux_scale(const double *F) {
  double s = 0.0;
  for (int v = 0; v < HX_NVAR; v++)
    s = fmax(s, fabs(F[v]));
  return s;
}

static void outer_state(const PhysParams *pp, const ExactFuncParams *ef, int type, const double *uL,
                        const double n[3], double *uR) {
  const double x[3] = {0.0, 0.0, 0.0};
  bc_outer_state(type, 0, ef, pp, uL, n, x, 0.0, uR);
}

static double riemann_invariant_out(const PhysParams *pp, const double *prim, const double n[3]) {
  return dot3(&prim[VEL1], n) + 2.0 * speed_of_sound(pp, prim) / pp->kappa_m1;
}

/* Boundary flux of `type` (central part `split`) equals the physical flux of the inner state for
 * the given solvers. */
static void check_flux_is_physical(const PhysParams *pp, int type, const int *solvers,
                                   int n_solvers, int split, const double *uL, const double *uR,
                                   const double n[3], const double t1[3], const double t2[3],
                                   double tol) {
  double F_exact[HX_NVAR], F[HX_NVAR];
  physical_flux(pp, uL, n, F_exact);
  for (int s = 0; s < n_solvers; s++) {
    bc_advective_flux(type, solvers[s], split, pp, uL, uR, n, t1, t2, F);
    assert_true(max_rel_diff(F, F_exact, HX_NVAR, flux_scale(F_exact)) < tol);
  }
}

/* Consistent outer state: every solver, with the standard and a split-form central part. */
static void check_consistent_flux(const PhysParams *pp, int type, const double *uL,
                                  const double *uR, const double n[3], const double t1[3],
                                  const double t2[3], double tol) {
  const int split_solvers[] = {RIEMANN_LF, RIEMANN_ROE};
  check_flux_is_physical(pp, type, SOLVERS, N_SOLVERS, SPLIT_NONE, uL, uR, n, t1, t2, tol);
  check_flux_is_physical(pp, type, split_solvers, 2, SPLIT_KG, uL, uR, n, t1, t2, tol);
}

static void test_supported_types(void **state) {
  (void)state;
  const int supported[] = {2, 3, 4, 9, 22, 23, 24, 25, 27, 121};
  const int unsupported[] = {0, 1, 5, 12, 26, 28, 29, 120};
  for (size_t i = 0; i < sizeof supported / sizeof supported[0]; i++)
    assert_true(bc_supported(supported[i]));
  for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++)
    assert_false(bc_supported(unsupported[i]));
  const int with_refstate[] = {4, 23, 24, 25, 27};
  for (size_t i = 0; i < sizeof with_refstate / sizeof with_refstate[0]; i++)
    assert_true(bc_uses_refstate(with_refstate[i]));
  assert_false(bc_uses_refstate(BC_EXACT) || bc_uses_refstate(BC_WALL_ADIABATIC) ||
               bc_uses_refstate(BC_WALL_SLIP));
}

/* Outflows whose data match the inner state: RefState p = inner p (24, 25), Mach = the inner
 * normal Mach number (23, in the u entry of the RefState). */
static void test_outflow_consistency(void **state) {
  (void)state;
  const PhysParams pp = gas();
  ExactFuncParams ef;
  memset(&ef, 0, sizeof ef);
  ef.n_ref_states = 1;
  for (int f = 0; f < 3; f++) {
    double n[3], t1[3], t2[3], uL[HX_NVAR], uR[HX_NVAR], prim[HX_NPRIM];
    make_frame(NORMALS[f], n, t1, t2);
    state_in_frame(&pp, 1.2, 95.0, 30.0, -12.0, 1.013e5, n, t1, t2, uL);
    cons_to_prim(&pp, uL, prim);
    const int types[] = {BC_OUTFLOW_MACH, BC_OUTFLOW_PRESSURE, BC_OUTFLOW_SUBSONIC};
    for (int i = 0; i < 3; i++) {
      for (int v = 0; v < HX_NPRIM; v++)
        ef.ref_prim[0][v] = 1.0;
      ef.ref_prim[0][PRES] = prim[PRES];
      ef.ref_prim[0][VEL1] = dot3(&prim[VEL1], n) / speed_of_sound(&pp, prim);
      outer_state(&pp, &ef, types[i], uL, n, uR);
      assert_true(max_rel_diff(uR, uL, HX_NVAR, uL[ENER]) < 1e-14);
      check_consistent_flux(&pp, types[i], uL, uR, n, t1, t2, 1e-12);
    }
  }
}

/* Totals of a primitive state: Tt = T + |v|^2/(2 cp), pt = p (Tt/T)^(kappa/(kappa-1)). */
static void totals(const PhysParams *pp, const double *prim, double *Tt, double *pt) {
  const double vel2 = dot3(&prim[VEL1], &prim[VEL1]);
  *Tt = prim[TEMP] + 0.5 * vel2 / pp->cp;
  *pt = prim[PRES] * pow(*Tt / prim[TEMP], pp->kappa / pp->kappa_m1);
}

/* RefState of 27 (Tt, alpha, beta, -, pt) with alpha, beta in degrees. */
static void set_inflow_refstate(ExactFuncParams *ef, double Tt, double alpha, double beta,
                                double pt) {
  const double ref[HX_NPRIM] = {Tt, alpha, beta, 0.0, pt, 0.0};
  memcpy(ef->ref_prim[0], ref, sizeof ref);
  ef->n_ref_states = 1;
}

static const double ANGLES[3][2] = {{0.0, 0.0}, {12.0, -7.0}, {-25.0, 15.0}};

/* Inflow normals: the prescribed direction points into the domain (a . n < 0). */
static const double INFLOW_NORMALS[3][3] = {{-1.0, 0.0, 0.0}, {-1.0, 0.3, -0.2}, {-0.7, -0.6, 0.2}};

static void direction_from_angles(double alpha, double beta, double a[3]) {
  const double d[3] = {1.0, tan(alpha * HX_PI / 180.0), tan(beta * HX_PI / 180.0)};
  const double len = sqrt(dot3(d, d));
  for (int k = 0; k < 3; k++)
    a[k] = d[k] / len;
}

static void test_inflow_total_consistency(void **state) {
  (void)state;
  const PhysParams pp = gas();
  ExactFuncParams ef;
  memset(&ef, 0, sizeof ef);
  for (int f = 0; f < 3; f++)
    for (int g = 0; g < 3; g++) {
      double n[3], t1[3], t2[3], a[3], uL[HX_NVAR], uR[HX_NVAR], prim[HX_NPRIM], Tt, pt;
      make_frame(INFLOW_NORMALS[f], n, t1, t2);
      direction_from_angles(ANGLES[g][0], ANGLES[g][1], a);
      prim[PDENS] = 1.15;
      for (int k = 0; k < 3; k++)
        prim[VEL1 + k] = 110.0 * a[k];
      prim[PRES] = 0.98e5;
      prim_set_temperature(&pp, prim);
      prim_to_cons(&pp, prim, uL);
      totals(&pp, prim, &Tt, &pt);
      set_inflow_refstate(&ef, Tt, ANGLES[g][0], ANGLES[g][1], pt);
      outer_state(&pp, &ef, BC_INFLOW_TOTAL, uL, n, uR);
      assert_true(max_rel_diff(uR, uL, HX_NVAR, uL[ENER]) < 1e-13);
      check_consistent_flux(&pp, BC_INFLOW_TOTAL, uL, uR, n, t1, t2, 1e-11);
    }
}

/* Inner states far from the data: the outer state carries the prescribed totals and direction and
 * the inner state's outgoing invariant. */
static void test_inflow_total_prescribes_totals(void **state) {
  (void)state;
  const PhysParams pp = gas();
  ExactFuncParams ef;
  memset(&ef, 0, sizeof ef);
  const double Tt = 310.0, pt = 1.1e5;
  const double inner[4][5] = {/* rho, u_n (outward), u_t1, u_t2, p */
                              {1.2, -80.0, 10.0, 5.0, 1.0e5},
                              {1.25, -20.0, -40.0, 0.0, 1.05e5},
                              {1.3, 15.0, 0.0, 25.0, 0.95e5},
                              {0.9, -150.0, 60.0, -30.0, 0.8e5}};
  for (int f = 0; f < 3; f++)
    for (int g = 0; g < 3; g++)
      for (int s = 0; s < 4; s++) {
        double n[3], t1[3], t2[3], a[3], uL[HX_NVAR], uR[HX_NVAR], pL[HX_NPRIM], pR[HX_NPRIM];
        make_frame(INFLOW_NORMALS[f], n, t1, t2);
        state_in_frame(&pp, inner[s][0], inner[s][1], inner[s][2], inner[s][3], inner[s][4], n, t1,
                       t2, uL);
        set_inflow_refstate(&ef, Tt, ANGLES[g][0], ANGLES[g][1], pt);
        outer_state(&pp, &ef, BC_INFLOW_TOTAL, uL, n, uR);
        cons_to_prim(&pp, uL, pL);
        cons_to_prim(&pp, uR, pR);
        double Tt_b, pt_b;
        totals(&pp, pR, &Tt_b, &pt_b);
        assert_true(fabs(Tt_b - Tt) < 1e-13 * Tt);
        assert_true(fabs(pt_b - pt) < 1e-13 * pt);
        direction_from_angles(ANGLES[g][0], ANGLES[g][1], a);
        const double speed = sqrt(dot3(&pR[VEL1], &pR[VEL1]));
        assert_true(speed > 0.0 && speed < speed_of_sound(&pp, pR)); /* subsonic inflow */
        for (int k = 0; k < 3; k++)
          assert_true(fabs(pR[VEL1 + k] - speed * a[k]) < 1e-13 * speed);
        assert_true(dot3(&pR[VEL1], n) < 0.0);
        const double J_in = riemann_invariant_out(&pp, pL, n);
        assert_true(fabs(riemann_invariant_out(&pp, pR, n) - J_in) < 1e-13 * fabs(J_in));
      }
}

/* An inner state too hot for any inflow with the prescribed totals (its invariant needs T_b > Tt):
 * the outer state is the reservoir at rest (Tt, pt) instead of FLEXI's NaN. */
static void test_inflow_total_hot_inner_state(void **state) {
  (void)state;
  const PhysParams pp = gas();
  ExactFuncParams ef;
  memset(&ef, 0, sizeof ef);
  const double Tt = 310.0, pt = 1.1e5;
  set_inflow_refstate(&ef, Tt, 10.0, 5.0, pt);
  double n[3], t1[3], t2[3], uL[HX_NVAR], uR[HX_NVAR], pR[HX_NPRIM];
  make_frame(INFLOW_NORMALS[1], n, t1, t2);
  state_in_frame(&pp, 0.8, -20.0, 10.0, 0.0, 1.05e5, n, t1, t2, uL); /* T = 457 K */
  outer_state(&pp, &ef, BC_INFLOW_TOTAL, uL, n, uR);
  cons_to_prim(&pp, uR, pR);
  assert_true(fabs(pR[TEMP] - Tt) < 1e-13 * Tt && fabs(pR[PRES] - pt) < 1e-13 * pt);
  assert_true(pR[VEL1] == 0.0 && pR[VEL2] == 0.0 && pR[VEL3] == 0.0);
}

/* 24 and 23/25 subsonic: the velocity and temperature (so u_n + 2c/(kappa-1)) from the inside. */
static void check_extrapolated(const PhysParams *pp, const double *pL, const double *pR,
                               const double n[3]) {
  for (int k = 0; k < 3; k++)
    assert_true(fabs(pR[VEL1 + k] - pL[VEL1 + k]) < 1e-14 * sqrt(dot3(&pL[VEL1], &pL[VEL1])));
  assert_true(fabs(pR[TEMP] - pL[TEMP]) < 1e-14 * pL[TEMP]);
  const double J_in = riemann_invariant_out(pp, pL, n);
  assert_true(fabs(riemann_invariant_out(pp, pR, n) - J_in) < 1e-14 * fabs(J_in));
}

static void outflow_case(const PhysParams *pp, const ExactFuncParams *ef, int type,
                         const double in[5], int f, double *pL, double *pR, double n[3],
                         double t1[3], double t2[3], double *uL, double *uR) {
  make_frame(NORMALS[f], n, t1, t2);
  state_in_frame(pp, in[0], in[1], in[2], in[3], in[4], n, t1, t2, uL);
  outer_state(pp, ef, type, uL, n, uR);
  cons_to_prim(pp, uL, pL);
  cons_to_prim(pp, uR, pR);
}

static void test_pressure_outflow(void **state) {
  (void)state;
  const PhysParams pp = gas();
  ExactFuncParams ef;
  memset(&ef, 0, sizeof ef);
  const double p_set = 0.9e5;
  const double rho_u_p[5] = {1.0, 1.0, 1.0, 1.0, 1.0};
  memcpy(ef.ref_prim[0], rho_u_p, sizeof rho_u_p);
  ef.ref_prim[0][PRES] = p_set;
  ef.n_ref_states = 1;
  const double subsonic[2][5] = {{1.2, 120.0, 20.0, -10.0, 1.0e5}, {1.1, -40.0, 30.0, 0.0, 1.0e5}};
  const double supersonic[5] = {1.2, 450.0, 50.0, 20.0, 1.0e5};
  for (int f = 0; f < 3; f++) {
    double n[3], t1[3], t2[3], uL[HX_NVAR], uR[HX_NVAR], pL[HX_NPRIM], pR[HX_NPRIM];
    for (int s = 0; s < 2; s++) { /* outflow and backflow */
      outflow_case(&pp, &ef, BC_OUTFLOW_PRESSURE, subsonic[s], f, pL, pR, n, t1, t2, uL, uR);
      assert_true(fabs(pR[PRES] - p_set) < 1e-15 * p_set);
      check_extrapolated(&pp, pL, pR, n);
    }
    outflow_case(&pp, &ef, BC_OUTFLOW_PRESSURE, supersonic, f, pL, pR, n, t1, t2, uL, uR);
    assert_true(dot3(&pL[VEL1], n) > speed_of_sound(&pp, pL));
    assert_true(max_rel_diff(uR, uL, HX_NVAR, uL[ENER]) < 1e-15);
    check_consistent_flux(&pp, BC_OUTFLOW_PRESSURE, uL, uR, n, t1, t2, 1e-13);
  }
}

/* BackPressureRampTime: the pressure of 24 and 25 goes linearly from the start value at t = 0 to
 * the RefState's at the ramp's end and stays there (restarts continue it: t is absolute). */
static void test_back_pressure_ramp(void **state) {
  (void)state;
  const PhysParams pp = gas();
  ExactFuncParams ef;
  memset(&ef, 0, sizeof ef);
  const double p0 = 0.7e5, p1 = 0.9e5, T = 2e-4;
  const double prim[5] = {1.0, 1.0, 1.0, 1.0, p1};
  memcpy(ef.ref_prim[0], prim, sizeof prim);
  ef.n_ref_states = 1;
  assert_true(bc_prescribed_pressure(&ef, 0, 0.0) == p1); /* no ramp */
  ef.p_ramp_time = T;
  ef.p_ramp_start = p0;
  const double t[5] = {0.0, 0.25 * T, 0.5 * T, T, 3.0 * T};
  const double want[5] = {p0, p0 + 0.25 * (p1 - p0), 0.5 * (p0 + p1), p1, p1};
  for (int i = 0; i < 5; i++)
    assert_true(fabs(bc_prescribed_pressure(&ef, 0, t[i]) - want[i]) < 1e-10 * p1);
  const double x[3] = {0.0, 0.0, 0.0}, n[3] = {1.0, 0.0, 0.0};
  const double inner[5] = {1.2, 120.0, 20.0, -10.0, 1.0e5};
  double uL[HX_NVAR], uR[HX_NVAR], pR[HX_NPRIM], pin[HX_NPRIM];
  memcpy(pin, inner, sizeof inner);
  prim_set_temperature(&pp, pin);
  prim_to_cons(&pp, pin, uL);
  const int types[2] = {BC_OUTFLOW_PRESSURE, BC_OUTFLOW_SUBSONIC};
  for (int b = 0; b < 2; b++) { /* the outer state carries the ramped pressure at t = T/2 */
    bc_outer_state(types[b], 0, &ef, &pp, uL, n, x, 0.5 * T, uR);
    cons_to_prim(&pp, uR, pR);
    assert_true(fabs(pR[PRES] - 0.5 * (p0 + p1)) < 1e-10 * p1);
  }
}

static void test_subsonic_outflow(void **state) {
  (void)state;
  const PhysParams pp = gas();
  ExactFuncParams ef;
  memset(&ef, 0, sizeof ef);
  const double p_set = 0.9e5;
  const double rho_u_p[5] = {1.0, 1.0, 1.0, 1.0, 1.0};
  memcpy(ef.ref_prim[0], rho_u_p, sizeof rho_u_p);
  ef.ref_prim[0][PRES] = p_set;
  ef.n_ref_states = 1;
  const double subsonic[5] = {1.2, 120.0, 20.0, -10.0, 1.0e5};
  const double backflow[5] = {1.1, -40.0, 30.0, 15.0, 1.0e5};
  const double supersonic[5] = {1.2, 450.0, 50.0, 20.0, 1.0e5};
  for (int f = 0; f < 3; f++) {
    double n[3], t1[3], t2[3], uL[HX_NVAR], uR[HX_NVAR], pL[HX_NPRIM], pR[HX_NPRIM];
    outflow_case(&pp, &ef, BC_OUTFLOW_SUBSONIC, subsonic, f, pL, pR, n, t1, t2, uL, uR);
    assert_true(fabs(pR[PRES] - p_set) < 1e-15 * p_set);
    check_extrapolated(&pp, pL, pR, n);
    /* backflow: outflow |u_n| n without tangential velocity, inner temperature */
    outflow_case(&pp, &ef, BC_OUTFLOW_SUBSONIC, backflow, f, pL, pR, n, t1, t2, uL, uR);
    assert_true(fabs(pR[PRES] - p_set) < 1e-15 * p_set);
    assert_true(fabs(pR[TEMP] - pL[TEMP]) < 1e-14 * pL[TEMP]);
    const double vn = dot3(&pL[VEL1], n);
    for (int k = 0; k < 3; k++)
      assert_true(fabs(pR[VEL1 + k] + vn * n[k]) < 1e-14 * fabs(vn));
    /* supersonic: pressure p_set, density kappa (p + rho |v|^2/2) / c^2 (FLEXI); an upwind solver
     * still gives the inner state's flux */
    outflow_case(&pp, &ef, BC_OUTFLOW_SUBSONIC, supersonic, f, pL, pR, n, t1, t2, uL, uR);
    const double vel2 = dot3(&pL[VEL1], &pL[VEL1]), c = speed_of_sound(&pp, pL);
    const double p_star = pL[PRES] + 0.5 * pL[PDENS] * vel2;
    assert_true(dot3(&pL[VEL1], n) > c);
    assert_true(fabs(pR[PRES] - p_set) < 1e-15 * p_set);
    assert_true(fabs(pR[PDENS] - KAPPA * p_star / (c * c)) < 1e-14 * pR[PDENS]);
    for (int k = 0; k < 3; k++)
      assert_true(fabs(pR[VEL1 + k] - pL[VEL1 + k]) < 1e-14 * sqrt(vel2));
    check_flux_is_physical(&pp, BC_OUTFLOW_SUBSONIC, UPWIND_SOLVERS, N_UPWIND, SPLIT_NONE, uL, uR,
                           n, t1, t2, 1e-12);
  }
}

static void test_mach_outflow(void **state) {
  (void)state;
  const PhysParams pp = gas();
  ExactFuncParams ef;
  memset(&ef, 0, sizeof ef);
  const double mach_set = 0.2;
  const double ref[5] = {1.0, mach_set, 1.0, 1.0, 1.0};
  memcpy(ef.ref_prim[0], ref, sizeof ref);
  ef.n_ref_states = 1;
  const double subsonic[2][5] = {{1.2, 120.0, 20.0, -10.0, 1.0e5}, {1.1, -40.0, 30.0, 0.0, 1.0e5}};
  const double supersonic[5] = {1.2, 450.0, 50.0, 20.0, 1.0e5};
  const double e = KAPPA / (KAPPA - 1.0);
  for (int f = 0; f < 3; f++) {
    double n[3], t1[3], t2[3], uL[HX_NVAR], uR[HX_NVAR], pL[HX_NPRIM], pR[HX_NPRIM];
    for (int s = 0; s < 2; s++) {
      /* the outer pressure has the inner (normal-Mach) total pressure at the prescribed Mach */
      outflow_case(&pp, &ef, BC_OUTFLOW_MACH, subsonic[s], f, pL, pR, n, t1, t2, uL, uR);
      const double mach_n = dot3(&pL[VEL1], n) / speed_of_sound(&pp, pL);
      const double pt_in = pL[PRES] * pow(1.0 + 0.2 * mach_n * mach_n, e);
      const double pt_b = pR[PRES] * pow(1.0 + 0.2 * mach_set * mach_set, e);
      assert_true(fabs(pt_b - pt_in) < 1e-14 * pt_in);
      assert_true(fabs(pR[PRES] - pL[PRES]) > 1e-3 * pL[PRES]); /* the data are not met */
      check_extrapolated(&pp, pL, pR, n);
    }
    /* supersonic: FLEXI's p + rho |v|^2/2 with inner velocity and temperature; an upwind solver
     * gives the inner state's flux */
    outflow_case(&pp, &ef, BC_OUTFLOW_MACH, supersonic, f, pL, pR, n, t1, t2, uL, uR);
    const double p_star = pL[PRES] + 0.5 * pL[PDENS] * dot3(&pL[VEL1], &pL[VEL1]);
    assert_true(fabs(pR[PRES] - p_star) < 1e-15 * p_star);
    check_extrapolated(&pp, pL, pR, n);
    check_flux_is_physical(&pp, BC_OUTFLOW_MACH, UPWIND_SOLVERS, N_UPWIND, SPLIT_NONE, uL, uR, n,
                           t1, t2, 1e-12);
  }
}

/* 2, 22, 121, 23, 24, 25, 27: lifting value and viscous flux are the means of the inner and the
 * outer state's (FLEXI's Lifting_GetBoundaryFlux and ViscousFlux with the inner gradients). */
static void test_riemann_type_viscous_paths(void **state) {
  (void)state;
  const PhysParams pp = gas();
  ExactFuncParams ef;
  memset(&ef, 0, sizeof ef);
  const double ref[5] = {300.0, 0.3, 5.0, 0.0, 0.9e5};
  memcpy(ef.ref_prim[0], ref, sizeof ref);
  ef.n_ref_states = 1;
  double n[3], t1[3], t2[3], uL[HX_NVAR], uR[HX_NVAR], pr[HX_NPRIM], w[HX_NLIFT], wL[HX_NLIFT],
      wR[HX_NLIFT], Fv[HX_NVAR], FL[HX_NVAR], FR[HX_NVAR], tau[9], cond[3];
  const double gx[HX_NLIFT] = {3.0, -1.0, 2.0, 40.0}, gy[HX_NLIFT] = {0.5, 2.0, -1.5, -20.0},
               gz[HX_NLIFT] = {-2.0, 1.0, 0.7, 10.0};
  make_frame(NORMALS[1], n, t1, t2);
  state_in_frame(&pp, 1.2, 60.0, 20.0, -10.0, 1.0e5, n, t1, t2, uL);
  const int types[] = {BC_OUTFLOW_MACH, BC_OUTFLOW_PRESSURE, BC_OUTFLOW_SUBSONIC, BC_INFLOW_TOTAL,
                       BC_EXACT};
  for (int i = 0; i < 5; i++) {
    outer_state(&pp, &ef, types[i], uL, n, uR);
    bc_lifting_value(types[i], &pp, uL, uR, w);
    cons_to_prim(&pp, uL, pr);
    lifting_variables(pr, wL);
    viscous_stress(&pp, pr, gx, gy, gz, tau, cond);
    viscous_flux_from_stress(pr, tau, cond, n, FL);
    cons_to_prim(&pp, uR, pr);
    lifting_variables(pr, wR);
    viscous_stress(&pp, pr, gx, gy, gz, tau, cond);
    viscous_flux_from_stress(pr, tau, cond, n, FR);
    assert_true(max_rel_diff(uL, uR, HX_NVAR, uL[ENER]) > 1e-3); /* a real outer state */
    for (int v = 0; v < HX_NLIFT; v++)
      assert_true(fabs(w[v] - 0.5 * (wL[v] + wR[v])) <= 1e-14 * fabs(wL[v] + wR[v]));
    bc_viscous_flux(types[i], &pp, uL, uR, gx, gy, gz, n, Fv);
    assert_true(flux_scale(Fv) > 0.0);
    for (int v = 0; v < HX_NVAR; v++)
      assert_true(fabs(Fv[v] - 0.5 * (FL[v] + FR[v])) <= 1e-13 * flux_scale(FL));
  }
}

/* FLEXI's Dirichlet codes: 2 with state k the RefState k (-1: IniExactFunc), 22 the exact function
 * k at time t, 121 the exact function k at t = 0. */
static void test_dirichlet_codes(void **state) {
  (void)state;
  const PhysParams pp = gas();
  ExactFuncParams ef;
  memset(&ef, 0, sizeof ef);
  const double r0[5] = {1.1, 10.0, -3.0, 2.0, 0.9e5}, r1[5] = {0.9, 0.0, 5.0, 0.0, 1.2e5};
  memcpy(ef.ref_prim[0], r0, sizeof r0);
  memcpy(ef.ref_prim[1], r1, sizeof r1);
  for (int k = 0; k < 2; k++)
    prim_set_temperature(&pp, ef.ref_prim[k]);
  ef.n_ref_states = 2;
  ef.which = EXACT_REFSTATE;
  ef.ref_state = 0;
  ef.adv_vel[0] = 0.3;
  ef.amplitude = 0.1;
  ef.frequency = 1.0;
  const double n[3] = {1.0, 0.0, 0.0}, x[3] = {0.3, 0.1, -0.2};
  double uL[HX_NVAR], uR[HX_NVAR], u_ref[HX_NVAR];
  prim_to_cons(&pp, ef.ref_prim[0], uL);
  bc_outer_state(BC_EXACT, 1, &ef, &pp, uL, n, x, 0.7, uR); /* RefState 2 */
  prim_to_cons(&pp, ef.ref_prim[1], u_ref);
  assert_true(max_rel_diff(uR, u_ref, HX_NVAR, u_ref[ENER]) == 0.0);
  bc_outer_state(BC_EXACT, -1, &ef, &pp, uL, n, x, 0.7, uR); /* IniExactFunc = RefState 1 */
  assert_true(max_rel_diff(uR, uL, HX_NVAR, uL[ENER]) == 0.0);
  bc_outer_state(BC_EXACT_FUNC, EXACT_SINE_DENSITY, &ef, &pp, uL, n, x, 0.7, uR);
  exact_func_eval(&ef, &pp, EXACT_SINE_DENSITY, 0, x, 0.7, u_ref);
  assert_true(max_rel_diff(uR, u_ref, HX_NVAR, u_ref[ENER]) == 0.0);
  double u0[HX_NVAR];
  bc_outer_state(BC_EXACT_INITIAL, EXACT_SINE_DENSITY, &ef, &pp, uL, n, x, 0.7, uR);
  exact_func_eval(&ef, &pp, EXACT_SINE_DENSITY, 0, x, 0.0, u0);
  assert_true(max_rel_diff(uR, u0, HX_NVAR, u0[ENER]) == 0.0);
  assert_true(max_rel_diff(u0, u_ref, HX_NVAR, u_ref[ENER]) > 1e-6); /* the sine wave moved */
}

/* Slip wall (FLEXI type 9): wall-pressure flux, no mass or energy flux; lifting value u - vn n / 2
 * and inner T; viscous flux of the inner state without normal velocity and with the gradients'
 * normal parts removed, hence no heat flux and no work of the normal stress. */
static void test_slip_wall_viscous(void **state) {
  (void)state;
  const PhysParams pp = gas();
  ExactFuncParams ef;
  memset(&ef, 0, sizeof ef);
  double n[3], t1[3], t2[3], uL[HX_NVAR], uR[HX_NVAR], pL[HX_NPRIM], w[HX_NLIFT], Fv[HX_NVAR],
      F[HX_NVAR];
  const double gx[HX_NLIFT] = {3.0, -1.0, 2.0, 40.0}, gy[HX_NLIFT] = {0.5, 2.0, -1.5, -20.0},
               gz[HX_NLIFT] = {-2.0, 1.0, 0.7, 10.0};
  make_frame(NORMALS[2], n, t1, t2);
  state_in_frame(&pp, 1.2, 30.0, 25.0, -40.0, 1.0e5, n, t1, t2, uL);
  cons_to_prim(&pp, uL, pL);
  outer_state(&pp, &ef, BC_WALL_SLIP, uL, n, uR);
  bc_lifting_value(BC_WALL_SLIP, &pp, uL, uR, w);
  for (int k = 0; k < 3; k++)
    assert_true(fabs(w[k] - (pL[VEL1 + k] - 15.0 * n[k])) < 1e-12);
  assert_true(fabs(w[3] - pL[TEMP]) < 1e-12 * pL[TEMP]);
  bc_advective_flux(BC_WALL_SLIP, RIEMANN_HLLC, SPLIT_NONE, &pp, uL, uR, n, t1, t2, F);
  const double p_wall = bc_wall_pressure(&pp, pL, n);
  assert_true(F[DENS] == 0.0 && F[ENER] == 0.0 && p_wall > pL[PRES]);
  for (int k = 0; k < 3; k++)
    assert_true(fabs(F[MOM1 + k] - p_wall * n[k]) < 1e-15 * p_wall);
  bc_viscous_flux(BC_WALL_SLIP, &pp, uL, uR, gx, gy, gz, n, Fv);
  assert_true(Fv[DENS] == 0.0);
  /* no heat flux (the normal part of grad T is removed): the energy flux is the stress's work on
   * the tangential velocity */
  double vt[3];
  for (int k = 0; k < 3; k++)
    vt[k] = pL[VEL1 + k] - 30.0 * n[k];
  const double work = Fv[MOM1] * vt[0] + Fv[MOM2] * vt[1] + Fv[MOM3] * vt[2];
  assert_true(fabs(Fv[ENER] - work) <= 1e-12 * fabs(work) + 1e-12);
  assert_true(flux_scale(Fv) > 0.0);
}

static void test_slip_wall_mirror(void **state) {
  (void)state;
  const PhysParams pp = gas();
  ExactFuncParams ef;
  memset(&ef, 0, sizeof ef);
  for (int f = 0; f < 3; f++) {
    double n[3], t1[3], t2[3], uL[HX_NVAR], uR[HX_NVAR], pL[HX_NPRIM], pR[HX_NPRIM];
    make_frame(NORMALS[f], n, t1, t2);
    state_in_frame(&pp, 1.2, 70.0, 25.0, -40.0, 1.0e5, n, t1, t2, uL);
    outer_state(&pp, &ef, BC_WALL_SLIP, uL, n, uR);
    cons_to_prim(&pp, uL, pL);
    cons_to_prim(&pp, uR, pR);
    double mean[3];
    for (int k = 0; k < 3; k++)
      mean[k] = 0.5 * (pL[VEL1 + k] + pR[VEL1 + k]);
    assert_true(fabs(dot3(mean, n)) < 1e-13);
    assert_true(fabs(dot3(&pR[VEL1], t1) - 25.0) < 1e-12);
    assert_true(fabs(dot3(&pR[VEL1], t2) + 40.0) < 1e-12);
    assert_true(fabs(pR[PDENS] - pL[PDENS]) < 1e-15 && fabs(pR[PRES] - pL[PRES]) < 1e-9);
  }
}

static void test_no_slip_wall_pressure(void **state) {
  (void)state;
  const PhysParams pp = gas();
  double n[3], t1[3], t2[3], U[HX_NVAR], prim[HX_NPRIM], F[HX_NVAR];
  make_frame(NORMALS[2], n, t1, t2);
  const double rho = 1.2, p = 1.0e5, c = sqrt(KAPPA * p / rho);
  state_in_frame(&pp, rho, 0.0, 35.0, 10.0, p, n, t1, t2, U);
  cons_to_prim(&pp, U, prim);
  assert_true(fabs(bc_wall_pressure(&pp, prim, n) - p) < 1e-15 * p);
  double previous = 0.0;
  const double speeds[] = {-200.0, -50.0, -1.0, 0.0, 1.0, 50.0, 200.0, 600.0};
  for (size_t i = 0; i < sizeof speeds / sizeof speeds[0]; i++) {
    state_in_frame(&pp, rho, speeds[i], 35.0, 10.0, p, n, t1, t2, U);
    cons_to_prim(&pp, U, prim);
    const double p_wall = bc_wall_pressure(&pp, prim, n);
    assert_true(p_wall > previous); /* rises with the speed into the wall */
    assert_true(speeds[i] > 0.0 ? p_wall > p : p_wall <= p);
    /* weak waves are acoustic: p_wall ~ p + rho c u_n */
    if (fabs(speeds[i]) <= 1.0)
      assert_true(fabs(p_wall - (p + rho * c * speeds[i])) <=
                  1e-2 * rho * c * fabs(speeds[i]) + 1e-9);
    previous = p_wall;
    for (int type = BC_WALL_ADIABATIC; type <= BC_WALL_ISOTHERMAL; type++) {
      bc_advective_flux(type, RIEMANN_HLLC, SPLIT_NONE, &pp, U, U, n, t1, t2, F);
      assert_true(F[DENS] == 0.0 && F[ENER] == 0.0);
      for (int k = 0; k < 3; k++)
        assert_true(fabs(F[MOM1 + k] - p_wall * n[k]) < 1e-15 * p_wall);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_supported_types),
      cmocka_unit_test(test_outflow_consistency),
      cmocka_unit_test(test_inflow_total_consistency),
      cmocka_unit_test(test_inflow_total_prescribes_totals),
      cmocka_unit_test(test_inflow_total_hot_inner_state),
      cmocka_unit_test(test_pressure_outflow),
      cmocka_unit_test(test_back_pressure_ramp),
      cmocka_unit_test(test_subsonic_outflow),
      cmocka_unit_test(test_mach_outflow),
      cmocka_unit_test(test_riemann_type_viscous_paths),
      cmocka_unit_test(test_slip_wall_mirror),
      cmocka_unit_test(test_dirichlet_codes),
      cmocka_unit_test(test_slip_wall_viscous),
      cmocka_unit_test(test_no_slip_wall_pressure),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
