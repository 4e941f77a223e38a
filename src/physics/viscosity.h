/* Transport properties: dynamic viscosity laws and heat conductivity, with FLEXI's laws and
 * parameters (flexi src/equations/navierstokes/idealgas/eos.f90 and viscosity.f90, where the law
 * is the compile-time choice PP_VISC). Pointwise HD functions shared by the CPU and CUDA
 * backends (see core/hd.h). */
#ifndef HEXDG_VISCOSITY_H
#define HEXDG_VISCOSITY_H

#include <math.h>

#include "physics/physics.h"

/* Fill the transport data; call after physparams_set (lambda_factor needs cp). */
HD static inline void physparams_set_transport(PhysParams *pp, int viscosity_law, double mu0,
                                               double Pr, double Ts, double Tref, double ExpoSuth) {
  pp->viscosity_law = viscosity_law;
  pp->mu0 = mu0;
  pp->Pr = Pr;
  pp->Ts = Ts;
  pp->Tref = Tref;
  pp->ExpoSuth = ExpoSuth;
  pp->lambda_factor = pp->cp / Pr;
}

/* Sutherland's law (White, "Viscous Fluid Flow", 3rd ed. 2006, Eq. 1-36) in FLEXI's form, with
 * t = T/Tref, ts = Ts/Tref, e = ExpoSuth (1.5 for Sutherland's original law):
 *   mu = mu0 t^e (1 + ts) / (t + ts)   for T >= Ts,
 *   mu = mu0 t c, c = ts^e (1 + ts) / (2 ts^2)   below Ts,
 * a linear continuation that is continuous at T = Ts (the law is fitted for about 0 < T < 555 K).
 * mu(Tref) = mu0. */
HD static inline double viscosity_sutherland(const PhysParams *pp, double T) {
  const double t = T / pp->Tref;
  const double ts = pp->Ts / pp->Tref;
  if (t >= ts) return pp->mu0 * pow(t, pp->ExpoSuth) * (1.0 + ts) / (t + ts);
  return pp->mu0 * t * pow(ts, pp->ExpoSuth) * (1.0 + ts) / (2.0 * ts * ts);
}

/* Dynamic viscosity mu(T): constant mu0, Sutherland, or the power law mu0 (T/Tref)^ExpoSuth
 * (FLEXI PP_VISC = 2 stores mu0/Tref^ExpoSuth and evaluates mu0 T^ExpoSuth: the same law). */
HD static inline double viscosity(const PhysParams *pp, double T) {
  switch (pp->viscosity_law) {
  case VISC_SUTHERLAND:
    return viscosity_sutherland(pp, T);
  case VISC_POWERLAW:
    return pp->mu0 * pow(T / pp->Tref, pp->ExpoSuth);
  default:
    return pp->mu0;
  }
}

/* d mu / d T of the law above (for T > 0); the manufactured-solution source needs it. */
HD static inline double viscosity_dT(const PhysParams *pp, double T) {
  switch (pp->viscosity_law) {
  case VISC_SUTHERLAND:
    if (T >= pp->Ts) return viscosity_sutherland(pp, T) * (pp->ExpoSuth / T - 1.0 / (T + pp->Ts));
    return viscosity_sutherland(pp, T) / T;
  case VISC_POWERLAW:
    return viscosity(pp, T) * pp->ExpoSuth / T;
  default:
    return 0.0;
  }
}

/* Fourier heat conductivity lambda = mu cp / Pr (constant Prandtl number, FLEXI's
 * THERMAL_CONDUCTIVITY_H). */
HD static inline double heat_conductivity(const PhysParams *pp, double mu) {
  return mu * pp->lambda_factor;
}

#endif
