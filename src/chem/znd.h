/* The ZND structure of a steady planar detonation (host only): the lead shock with frozen
 * composition (the von Neumann state), then the reaction zone behind it, in the shock's frame.
 *
 * Method (Fickett & Davis, "Detonation", 1979, ch. 5; the formulation of Browne, Ziegler &
 * Shepherd, GALCIT FM2006.006, 2008, sec. 5): along a particle path, with w the flow speed in the
 * shock frame, the thermicity sigma = sum_k (W / W_k - h_k / (cp T)) dY_k/dt and the sonic
 * parameter eta = 1 - w^2 / c_f^2 (frozen sound speed):
 *   drho/dt = -rho sigma / eta,   dY_k/dt = W_k wdot_k / rho,   dx/dt = w,
 * with w = rho1 D / rho (mass) and p = p1 + rho1 D^2 - rho w^2 (momentum); energy, h + w^2/2 =
 * h1 + D^2/2, follows from them and is the check of the integration. Adaptive Dormand-Prince
 * 5(4) steps: at the mechanisms' detonation conditions the reaction zone is not stiff enough to
 * need an implicit method (it stops with an error if it becomes so). The integration ends where
 * the flow turns sonic (eta < ZND_ETA_END: the CJ point for D = D_cj) or the reactions are done
 * (thermicity below 1e-6 of its peak), or at x_end. */
#ifndef HEXDG_CHEM_ZND_H
#define HEXDG_CHEM_ZND_H

#include "chem/mech.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ZndProfile {
  long n;               /* samples (the integrator's steps; sample 0: the von Neumann state) */
  int ns;               /* species */
  double *x, *t;        /* distance behind the shock [m], particle time since the shock [s] */
  double *T, *p, *rho;  /* temperature [K], pressure [Pa], density [kg/m^3] */
  double *w;            /* flow speed in the shock frame [m/s] (the lab frame: D - w) */
  double *sigma;        /* thermicity [1/s] */
  double *Y;            /* [n][ns] mass fractions */
  double D;             /* the detonation speed [m/s] */
  double x_induction;   /* x of the thermicity's peak [m] */
  double x_half;        /* half-reaction length: x where the composition has changed halfway,
                           sum_k |Y_k - Y_k(von Neumann)| at half its value at the end [m] */
  double energy_error;  /* max over the samples of |h + w^2/2 - h1 - D^2/2| / (D^2/2) */
  int end;              /* why it ended: 0 reactions done, 1 sonic, 2 x_end */
} ZndProfile;

/* The ZND profile of the unburnt state (T1, p1, Y1) at speed D [m/s], to at most x_end behind
 * the shock [m]. On failure an error names the mechanism, the state and what failed. */
int chem_znd(const ChemMech *m, double T1, double p1, const double *Y1, double D, double x_end,
             ZndProfile *z);
void chem_znd_free(ZndProfile *z);

/* The frozen shock (composition Y1) at speed D: the von Neumann state T2, p2, rho2 and the flow
 * speed w2 behind it in the shock frame. */
int chem_frozen_shock(const ChemMech *m, double T1, double p1, const double *Y1, double D,
                      double *T2, double *p2, double *rho2, double *w2);

#ifdef __cplusplus
}
#endif
#endif
