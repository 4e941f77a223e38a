/* Equation-level constants and variable indices shared by every physics header.
 * Conservative U = (rho, rho u, rho v, rho w, rho E); primitive = (rho, u, v, w, p, T). */
#ifndef HEXDG_PHYSICS_H
#define HEXDG_PHYSICS_H

#include "core/hd.h"

#define HX_NVAR 5
#define HX_NPRIM 6

enum { DENS = 0, MOM1 = 1, MOM2 = 2, MOM3 = 3, ENER = 4 };
enum { PDENS = 0, VEL1 = 1, VEL2 = 2, VEL3 = 3, PRES = 4, TEMP = 5 };

/* Viscosity laws (FLEXI's compile-time PP_VISC values; run-time parameter ViscosityLaw here). */
enum { VISC_CONSTANT = 0, VISC_SUTHERLAND = 1, VISC_POWERLAW = 2 };

/* Gas model and transport properties. Plain data: copied by value to the device.
 * physparams_set (eos.h) fills the gas constants, physparams_set_transport (viscosity.h) the
 * transport data; mu0 = 0 means inviscid (Euler). */
typedef struct {
  double kappa;                /* ratio of specific heats */
  double R;                    /* gas constant */
  double kappa_m1, s_kappa_m1; /* kappa-1, 1/(kappa-1) */
  double kappa_p1;             /* kappa+1 */
  double cv, cp;               /* specific heats R/(kappa-1), kappa*R/(kappa-1) */
  double mu0;                  /* dynamic viscosity (at Tref for Sutherland and power law) */
  double Pr;                   /* Prandtl number */
  double Ts, Tref, ExpoSuth;   /* Sutherland temperature, reference temperature, exponent */
  int viscosity_law;           /* VISC_CONSTANT, VISC_SUTHERLAND or VISC_POWERLAW */
  double lambda_factor;        /* cp/Pr: heat conductivity lambda = mu * lambda_factor */
} PhysParams;

/* Lifted (BR1) variables: the gradients of u, v, w and T (FLEXI's PP_OPTLIFT = 1 set). */
#define HX_NLIFT 4
enum { LIFT_VEL1 = 0, LIFT_VEL2 = 1, LIFT_VEL3 = 2, LIFT_TEMP = 3 };

#define HX_PI 3.14159265358979323846

/* Riemann solver ids (FLEXI's PRM_RIEMANN_* values). */
enum {
  RIEMANN_LF = 1,
  RIEMANN_HLLC = 2,
  RIEMANN_ROE = 3,
  RIEMANN_ROEL2 = 32,
  RIEMANN_ROE_ENTROPYFIX = 33,
  RIEMANN_HLL = 4,
  RIEMANN_HLLE = 5,
  RIEMANN_HLLEM = 6,
  RIEMANN_CH = 7
};

/* Two-point (split-form) flux ids (FLEXI's PRM_SPLITDG_* values). */
enum { SPLIT_SD = 0, SPLIT_MO = 1, SPLIT_DU = 2, SPLIT_KG = 3, SPLIT_PI = 4, SPLIT_CH = 5 };
#define SPLIT_NONE (-1)

#endif
