/* Exact functions (initial conditions, boundary states, manufactured solutions) selected by FLEXI's
 * IniExactFunc ids, with FLEXI's constants (flexi
 * src/equations/navierstokes/idealgas/exactfunc.f90). Pointwise HD functions shared by the CPU and
 * CUDA backends; exactfunc.c reads the parameters. */
#ifndef HEXDG_EXACTFUNC_H
#define HEXDG_EXACTFUNC_H

#include <math.h>

#include "core/params.h"
#include "physics/eos.h"
#include "physics/physics.h"
#include "physics/riemann_exact.h"
#include "physics/viscosity.h"

#define HX_MAX_REFSTATES 16

/* FLEXI's IniExactFunc ids supported by hexdg. */
enum {
  EXACT_TESTCASE = 0,     /* the exact function of TestCase (FLEXI: "testcase"), i.e. the TGV */
  EXACT_REFSTATE = 1,     /* constant RefState number IniRefState */
  EXACT_SINE_DENSITY = 2, /* density sine wave advected with AdvVel */
  EXACT_SINE_MMS = 4,     /* oblique sine wave, manufactured solution with a source term */
  EXACT_SHU_VORTEX = 7,   /* isentropic vortex advected with the RefState velocity */
  EXACT_SHOCK = 10,       /* moving normal shock (MachShock, PreShockDens), tanh profile */
  EXACT_SOD = 11,         /* Sod shock tube: RefState 1 for x <= 0.5, RefState 2 beyond */
  EXACT_SHU_OSHER = 12,   /* Shu-Osher shock / density-wave interaction */
  EXACT_DMR = 13,         /* double Mach reflection: RefState 1 behind the shock, 2 ahead */
  EXACT_SEDOV = 15,       /* Sedov point explosion: Gaussian energy deposit at IniCenter (hexdg;
                             FLEXI's list has none, 15 is unused there) */
  EXACT_TWO_STATE = 16,   /* RefState 1 where (x - IniCenter) . IniAxis <= 0, RefState 2 beyond
                             (hexdg: a planar Riemann problem anywhere, e.g. a detonation's
                             initiation region) */
  EXACT_SPECIES_MMS = 17  /* reacting flow only: manufactured solution with a sine wave per
                             species (dg/mixture.c) */
};

/* TestCase (a compile-time choice in FLEXI, FLEXI_TESTCASE): what IniExactFunc 0 means. */
enum { TESTCASE_DEFAULT = 0, TESTCASE_TGV = 1 };

/* Taylor-Green vortex initialisation (FLEXI's IniConstDens T/F, hexdg's TGVVersion 1/2). */
enum { TGV_CONSTANT_DENSITY = 1, TGV_CONSTANT_TEMPERATURE = 2 };

/* Plain data, copied by value to the device. */
typedef struct {
  int which;                                   /* IniExactFunc */
  int test_case;                               /* TestCase: TESTCASE_DEFAULT or TESTCASE_TGV */
  int tgv_version;                             /* TGVVersion: 1 or 2 */
  double tgv_mach;                             /* MachNumber of the TGV */
  int tgv_n_analyze;                           /* nAnalyzeTestCase: TGV integrals every n steps */
  int ref_state;                               /* IniRefState - 1 (0-based index into ref_prim) */
  int n_ref_states;                            /* number of RefState entries */
  double ref_prim[HX_MAX_REFSTATES][HX_NPRIM]; /* RefStates, primitive (rho,u,v,w,p,T) */
  double adv_vel[3];                           /* AdvVel */
  double amplitude, frequency;                 /* IniAmplitude, IniFrequency */
  double center[3], axis[3];                   /* IniCenter, IniAxis */
  double halfwidth;                            /* IniHalfwidth */
  double mach_shock, pre_shock_dens;           /* MachShock, PreShockDens */
  double sedov_energy, sedov_radius;           /* SedovEnergy E0, SedovRadius sigma */
  double sedov_density, sedov_pressure;        /* SedovDensity rho0, SedovPressure p0 */
  double p_ramp_time, p_ramp_start; /* BackPressureRampTime, BackPressureRampStart (BCs 24, 25) */
  double noise_amplitude;      /* IniNoiseAmplitude: rms of the relative density perturbation */
  double noise_wavelengths[2]; /* IniNoiseWavelengths: shortest and longest wavelength */
  int noise_modes, noise_seed, noise_dims; /* IniNoiseModes, IniNoiseSeed, IniNoiseDims */
} ExactFuncParams;

HD static inline int exact_has_source(int which) {
  return which == EXACT_SINE_MMS;
}

/* Standard Sod (Sod 1978) and double Mach reflection (Woodward & Colella 1984) states as
 * RefStates 1 and 2, in FLEXI's primitive layout. Used when the parameter file gives none. */
static inline void exact_default_ref_states(ExactFuncParams *ef, const PhysParams *pp) {
  const double sod[2][5] = {{1.0, 0.0, 0.0, 0.0, 1.0}, {0.125, 0.0, 0.0, 0.0, 0.1}};
  /* Mach 10 shock at 60 degrees to the wall: post-shock speed 8.25 along (cos 30, -sin 30) */
  const double dmr[2][5] = {{8.0, 8.25 * 0.86602540378443864676, -8.25 * 0.5, 0.0, 116.5},
                            {1.4, 0.0, 0.0, 0.0, 1.0}};
  for (int s = 0; s < 2; s++) {
    for (int v = 0; v < 5; v++)
      ef->ref_prim[s][v] = ef->which == EXACT_DMR ? dmr[s][v] : sod[s][v];
    prim_set_temperature(pp, ef->ref_prim[s]);
  }
  ef->n_ref_states = 2;
}

HD static inline void exact_from_prim5(const PhysParams *pp, double rho, double u, double v,
                                       double w, double p, double *U) {
  const double prim[HX_NPRIM] = {rho, u, v, w, p, p / (rho * pp->R)};
  prim_to_cons(pp, prim, U);
}

/* FLEXI case 2: rho = 1 + A sin(2 pi f sum_i (x_i - a_i t)), u = AdvVel, p = 1. */
HD static inline void exact_sine_density(const ExactFuncParams *ef, const PhysParams *pp,
                                         const double x[3], double t, double *U) {
  const double omega = 2.0 * HX_PI * ef->frequency;
  double phase = 0.0;
  for (int k = 0; k < 3; k++)
    phase += x[k] - ef->adv_vel[k] * t;
  const double rho = 1.0 + ef->amplitude * sin(omega * phase);
  exact_from_prim5(pp, rho, ef->adv_vel[0], ef->adv_vel[1], ef->adv_vel[2], 1.0, U);
}

/* FLEXI case 4: g = 2 + A sin(pi f (x+y+z) - a t), a = 2 pi AdvVel(1);
 * rho = rho u = rho v = rho w = g, rho E = g^2 (velocity 1 in every direction). */
HD static inline double exact_mms_phase(const ExactFuncParams *ef, const double x[3], double t) {
  return HX_PI * ef->frequency * (x[0] + x[1] + x[2]) - 2.0 * HX_PI * ef->adv_vel[0] * t;
}

HD static inline void exact_sine_mms(const ExactFuncParams *ef, const double x[3], double t,
                                     double *U) {
  const double g = 2.0 + ef->amplitude * sin(exact_mms_phase(ef, x, t));
  for (int v = 0; v < ENER; v++)
    U[v] = g;
  U[ENER] = g * g;
}

/* Source S = dU/dt + div F(U) of case 4 for the Euler equations, derived analytically:
 * with c = A cos(phase), w = pi f, a = 2 pi AdvVel(1), p = (kappa-1)(g^2 - 3g/2):
 * S_rho = c (3w - a), S_mom = c (3w - a + (kappa-1) w (2g - 3/2)) (each component),
 * S_E = c (6 w g - 2 a g + 3 (kappa-1) w (2g - 3/2)). */
HD static inline void exact_sine_mms_source(const ExactFuncParams *ef, const PhysParams *pp,
                                            const double x[3], double t, double *S) {
  const double phase = exact_mms_phase(ef, x, t);
  const double g = 2.0 + ef->amplitude * sin(phase);
  const double c = ef->amplitude * cos(phase);
  const double w = HX_PI * ef->frequency;
  const double a = 2.0 * HX_PI * ef->adv_vel[0];
  const double dp_dg = pp->kappa_m1 * (2.0 * g - 1.5);
  S[DENS] = c * (3.0 * w - a);
  for (int k = 0; k < 3; k++)
    S[MOM1 + k] = c * (3.0 * w - a + w * dp_dg);
  S[ENER] = c * (6.0 * w * g - 2.0 * a * g + 3.0 * w * dp_dg);
}

/* Viscous part of the case-4 source, to add to S_E when mu0 > 0. The velocity is 1 everywhere,
 * so tau = 0 and the viscous flux is lambda grad T with T = (kappa-1)(g - 3/2)/R and
 * lambda = mu(T) cp/Pr. With s = A sin(phase), c = A cos(phase), w = pi f, dT/dg = (kappa-1)/R:
 *   -div(lambda grad T) = 3 w^2 (cp/Pr) dT/dg (mu s - mu'(T) dT/dg c^2).
 * For constant viscosity this is FLEXI's term 3 mu0 kappa w^2 A sin(phase)/Pr (CalcSource,
 * tmp(6)). FLEXI uses mu0 for every law; here mu'(T) of the active law keeps case 4 an exact
 * solution with Sutherland's and the power law too. */
HD static inline double exact_sine_mms_viscous_source(const ExactFuncParams *ef,
                                                      const PhysParams *pp, const double x[3],
                                                      double t) {
  const double phase = exact_mms_phase(ef, x, t);
  const double g = 2.0 + ef->amplitude * sin(phase);
  const double s = ef->amplitude * sin(phase);
  const double c = ef->amplitude * cos(phase);
  const double w = HX_PI * ef->frequency;
  const double dT_dg = pp->kappa_m1 / pp->R;
  const double T = dT_dg * (g - 1.5);
  const double mu = viscosity(pp, T);
  const double dmu_dT = viscosity_dT(pp, T);
  return 3.0 * w * w * pp->lambda_factor * dT_dg * (mu * s - dmu_dT * dT_dg * c * c);
}

/* FLEXI case 7, isentropic vortex (Shu 1998, Lecture Notes in Math. 1697) on the RefState: with
 * r = IniAxis x (x - IniCenter - u_ref t) / IniHalfwidth, du = IniAmplitude/(2 pi)
 * exp((1-|r|^2)/2), u = u_ref + du r, dT = -(kappa-1)/(2 kappa RT_ref) du^2, rho = rho_ref
 * (1+dT)^(1/(kappa-1)), p = p_ref (1+dT)^(kappa/(kappa-1)). */
HD static inline void exact_shu_vortex(const ExactFuncParams *ef, const PhysParams *pp,
                                       const double *ref, const double x[3], double t, double *U) {
  double d[3], r[3];
  for (int k = 0; k < 3; k++)
    d[k] = x[k] - (ef->center[k] + ref[VEL1 + k] * t);
  r[0] = (ef->axis[1] * d[2] - ef->axis[2] * d[1]) / ef->halfwidth;
  r[1] = (ef->axis[2] * d[0] - ef->axis[0] * d[2]) / ef->halfwidth;
  r[2] = (ef->axis[0] * d[1] - ef->axis[1] * d[0]) / ef->halfwidth;
  const double r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  const double du = ef->amplitude / (2.0 * HX_PI) * exp(0.5 * (1.0 - r2));
  const double RT = ref[PRES] / ref[PDENS];
  const double dT = -pp->kappa_m1 / (2.0 * pp->kappa * RT) * du * du;
  const double rho = ref[PDENS] * pow(1.0 + dT, pp->s_kappa_m1);
  const double p = ref[PRES] * pow(1.0 + dT, pp->kappa * pp->s_kappa_m1);
  exact_from_prim5(pp, rho, ref[VEL1] + du * r[0], ref[VEL2] + du * r[1], ref[VEL3] + du * r[2], p,
                   U);
}

/* Post-shock state (normal-shock relations, e.g. Anderson, "Modern Compressible Flow", Ch. 7) of a
 * normal shock running with Mach number Ms into gas at rest with rho1 and p1 = rho1/kappa
 * (sound speed 1), so the shock speed is Ms. pre and post are (rho, u, p). */
HD static inline void exact_shock_states(const ExactFuncParams *ef, const PhysParams *pp,
                                         double *pre, double *post) {
  const double ms2 = ef->mach_shock * ef->mach_shock;
  pre[0] = ef->pre_shock_dens;
  pre[1] = 0.0;
  pre[2] = ef->pre_shock_dens / pp->kappa;
  post[0] = pre[0] * pp->kappa_p1 * ms2 / (pp->kappa_m1 * ms2 + 2.0);
  post[1] = ef->mach_shock * (1.0 - pre[0] / post[0]);
  post[2] = pre[2] * (2.0 * pp->kappa * ms2 - pp->kappa_m1) / pp->kappa_p1;
}

/* FLEXI case 10: post-shock state left of x_s = 5 + Ms t, pre-shock right, blended with
 * tanh(5 (x - x_s)). */
HD static inline void exact_shock(const ExactFuncParams *ef, const PhysParams *pp,
                                  const double x[3], double t, double *U) {
  double pre[3], post[3], UL[HX_NVAR], UR[HX_NVAR];
  exact_shock_states(ef, pp, pre, post);
  exact_from_prim5(pp, post[0], post[1], 0.0, 0.0, post[2], UL);
  exact_from_prim5(pp, pre[0], pre[1], 0.0, 0.0, pre[2], UR);
  const double x_shock = 5.0 + ef->mach_shock * t;
  const double blend = tanh(5.0 * (x[0] - x_shock));
  for (int v = 0; v < HX_NVAR; v++)
    U[v] = UR[v] + 0.5 * (UL[v] - UR[v]) * (1.0 - blend);
}

/* FLEXI case 11 (Sod 1978, JCP 27): RefState 1 left of x = 0.5, RefState 2 right of it at t = 0;
 * for t > 0 the exact solution of this Riemann problem along x (Toro 2009, Ch. 4), the transverse
 * velocity taken from the side the particle came from. */
HD static inline void exact_sod(const ExactFuncParams *ef, const PhysParams *pp, const double x[3],
                                double t, double *U) {
  const double *l = ef->ref_prim[0], *r = ef->ref_prim[1];
  const double left[3] = {l[PDENS], l[VEL1], l[PRES]}, right[3] = {r[PDENS], r[VEL1], r[PRES]};
  double q[3];
  riemann_exact_solution(pp->kappa, left, right, 0.5, x[0], t, q);
  const double *side = t > 0.0 ? (x[0] - 0.5 <= q[1] * t ? l : r) : (x[0] <= 0.5 ? l : r);
  exact_from_prim5(pp, q[0], q[1], side[VEL2], side[VEL3], q[2], U);
}

/* FLEXI case 12 (Shu & Osher 1989, JCP 83): Mach 3 shock at x = -4 running into the
 * density wave 1 + 0.2 sin(5x). */
HD static inline void exact_shu_osher(const PhysParams *pp, const double x[3], double *U) {
  if (x[0] < -4.0)
    exact_from_prim5(pp, 3.857143, 2.629369, 0.0, 0.0, 10.33333, U);
  else
    exact_from_prim5(pp, 1.0 + 0.2 * sin(5.0 * x[0]), 0.0, 0.0, 0.0, 1.0, U);
}

/* FLEXI case 13: the shock through (1/6, 0) at 60 degrees moves with speed 10 normal to itself:
 * post-shock (RefState 1) where x < 1/6 + (y + 20 t)/sqrt(3), pre-shock (RefState 2) elsewhere;
 * x = 0 (inflow) is always post-shock and x = 4 (outflow) pre-shock. */
HD static inline int exact_dmr_side(const double x[3], double t) {
  if (x[0] == 0.0) return 0;
  if (x[0] == 4.0) return 1;
  return x[0] < 1.0 / 6.0 + (x[1] + 20.0 * t) / sqrt(3.0) ? 0 : 1;
}

/* Sedov point explosion (Sedov 1959, "Similarity and Dimensional Methods in Mechanics", Ch. IV):
 * gas at rest with density rho0 and a small background pressure p0, plus the energy E0 deposited
 * as a Gaussian of width sigma around IniCenter (a smoothed point source, resolvable on the mesh):
 *   p = p0 + (kappa-1) E0 / ((2 pi)^(3/2) sigma^3) exp(-r^2 / (2 sigma^2)),
 * whose internal energy in excess of the background integrates to E0 over all space. The blast
 * then approaches the self-similar wave R(t) = xi0 (E0 t^2 / rho0)^(1/5) once R >> sigma. */
HD static inline void exact_sedov(const ExactFuncParams *ef, const PhysParams *pp,
                                  const double x[3], double *U) {
  const double sigma = ef->sedov_radius;
  double r2 = 0.0;
  for (int k = 0; k < 3; k++)
    r2 += (x[k] - ef->center[k]) * (x[k] - ef->center[k]);
  const double peak =
      pp->kappa_m1 * ef->sedov_energy / (pow(2.0 * HX_PI, 1.5) * sigma * sigma * sigma);
  const double p = ef->sedov_pressure + peak * exp(-0.5 * r2 / (sigma * sigma));
  exact_from_prim5(pp, ef->sedov_density, 0.0, 0.0, 0.0, p, U);
}

/* Taylor-Green vortex (Taylor & Green 1937, Proc. R. Soc. A 158) on [0, 2pi]^3 (or any 2pi-periodic
 * box) with density rho0, velocity scale U0 and Mach number Ms = U0/c0:
 *   u = U0 sin x cos y cos z, v = -U0 cos x sin y cos z, w = 0,
 *   p = p0 + rho0 U0^2/16 (cos 2x + cos 2y)(cos 2z + 2),  p0 = rho0 U0^2 / (kappa Ms^2),
 *   version 1: rho = rho0 (FLEXI's IniConstDens = T, its default),
 *   version 2: T = T0 = p0/(rho0 R), rho = rho0 p/p0 (FLEXI's IniConstDens = F). */
HD static inline void exact_tgv(const PhysParams *pp, int version, double rho0, double u0,
                                double mach, const double x[3], double *U) {
  const double p0 = rho0 * u0 * u0 / (pp->kappa * mach * mach);
  const double p =
      p0 + rho0 * u0 * u0 / 16.0 * (cos(2.0 * x[0]) + cos(2.0 * x[1])) * (cos(2.0 * x[2]) + 2.0);
  const double rho = version == TGV_CONSTANT_TEMPERATURE ? rho0 * p / p0 : rho0;
  const double u = u0 * sin(x[0]) * cos(x[1]) * cos(x[2]);
  const double v = -u0 * cos(x[0]) * sin(x[1]) * cos(x[2]);
  exact_from_prim5(pp, rho, u, v, 0.0, p, U);
}

/* FLEXI's TGV (src/testcase/taylorgreenvortex/testcase.f90): rho0 = 1, U0 = 1, MachNumber. */
HD static inline void exact_testcase(const ExactFuncParams *ef, const PhysParams *pp,
                                     const double x[3], double *U) {
  if (ef->test_case == TESTCASE_TGV) {
    exact_tgv(pp, ef->tgv_version, 1.0, 1.0, ef->tgv_mach, x, U);
    return;
  }
  for (int v = 0; v < HX_NVAR; v++)
    U[v] = nan("");
}

/* Exact function `which` with RefState index ref_state (0-based; boundary conditions may use
 * another one than IniRefState). Unknown ids or missing RefStates give NaN. */
/* 0 where (x - IniCenter) . IniAxis <= 0, else 1: the RefState of the two-state function 16. */
HD static inline int exact_two_state_side(const ExactFuncParams *ef, const double x[3]) {
  double d = 0.0;
  for (int k = 0; k < 3; k++)
    d += (x[k] - ef->center[k]) * ef->axis[k];
  return d <= 0.0 ? 0 : 1;
}

HD static inline void exact_func_eval(const ExactFuncParams *ef, const PhysParams *pp, int which,
                                      int ref_state, const double x[3], double t, double *U) {
  const int needs_ref = which == EXACT_REFSTATE || which == EXACT_SHU_VORTEX;
  const int needs_two = which == EXACT_SOD || which == EXACT_DMR || which == EXACT_TWO_STATE;
  if ((needs_ref && (ref_state < 0 || ref_state >= ef->n_ref_states)) ||
      (needs_two && ef->n_ref_states < 2)) {
    for (int v = 0; v < HX_NVAR; v++)
      U[v] = nan("");
    return;
  }
  switch (which) {
  case EXACT_TESTCASE:
    exact_testcase(ef, pp, x, U);
    break;
  case EXACT_REFSTATE:
    prim_to_cons(pp, ef->ref_prim[ref_state], U);
    break;
  case EXACT_SINE_DENSITY:
    exact_sine_density(ef, pp, x, t, U);
    break;
  case EXACT_SINE_MMS:
    exact_sine_mms(ef, x, t, U);
    break;
  case EXACT_SHU_VORTEX:
    exact_shu_vortex(ef, pp, ef->ref_prim[ref_state], x, t, U);
    break;
  case EXACT_SHOCK:
    exact_shock(ef, pp, x, t, U);
    break;
  case EXACT_SOD:
    exact_sod(ef, pp, x, t, U);
    break;
  case EXACT_SHU_OSHER:
    exact_shu_osher(pp, x, U);
    break;
  case EXACT_DMR:
    prim_to_cons(pp, ef->ref_prim[exact_dmr_side(x, t)], U);
    break;
  case EXACT_TWO_STATE:
    prim_to_cons(pp, ef->ref_prim[exact_two_state_side(ef, x)], U);
    break;
  case EXACT_SEDOV: /* the initial state at every t (no closed form of the blast) */
    exact_sedov(ef, pp, x, U);
    break;
  default:
    for (int v = 0; v < HX_NVAR; v++)
      U[v] = nan("");
    break;
  }
}

/* The exact function IniExactFunc with IniRefState at point x and time t, conservative. */
HD static inline void exact_func(const ExactFuncParams *ef, const PhysParams *pp, const double x[3],
                                 double t, double *U) {
  exact_func_eval(ef, pp, ef->which, ef->ref_state, x, t, U);
}

/* Source term S(x, t) to add to dU/dt; zero unless exact_has_source(ef->which). With mu0 > 0
 * it is the Navier-Stokes source (viscous part included). */
HD static inline void exact_source(const ExactFuncParams *ef, const PhysParams *pp,
                                   const double x[3], double t, double *S) {
  if (ef->which == EXACT_SINE_MMS) {
    exact_sine_mms_source(ef, pp, x, t, S);
    if (pp->mu0 > 0.0) S[ENER] += exact_sine_mms_viscous_source(ef, pp, x, t);
    return;
  }
  for (int v = 0; v < HX_NVAR; v++)
    S[v] = 0.0;
}

#ifdef __cplusplus
extern "C" {
#endif
/* Host side (exactfunc.c). Register FLEXI's keys: IniExactFunc, IniRefState, RefState, AdvVel,
 * IniFrequency, IniAmplitude, IniCenter, IniAxis, IniHalfwidth, MachShock, PreShockDens, kappa, R,
 * mu0, Pr, Ts, Tref, ExpoSuth, MachNumber; and hexdg's ViscosityLaw (FLEXI: compile-time PP_VISC),
 * TestCase (FLEXI: compile-time FLEXI_TESTCASE), TGVVersion and the Sedov parameters
 * SedovEnergy, SedovRadius, SedovDensity, SedovPressure.
 */
int exactfunc_define_params(Params *params);
/* Whether hexdg has FLEXI's exact function `which` (IniExactFunc, BC types 22 and 121). */
int exact_func_known(int which);
/* Read and validate them; fills the gas constants, the transport properties and the
 * exact-function parameters. */
int exactfunc_init(const Params *params, PhysParams *pp, ExactFuncParams *ef);
#ifdef __cplusplus
}
#endif

#endif
