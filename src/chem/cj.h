/* Chapman-Jouguet detonation of an ideal-gas mixture with the products in chemical equilibrium
 * (host only).
 *
 * Method: the CJ speed is the minimum wave speed over the equilibrium Hugoniot (Fickett & Davis,
 * "Detonation", 1979, sec. 2A; Browne, Ziegler & Shepherd, GALCIT FM2006.006, 2008, sec. 4). For a
 * volume ratio x = v2/v1 the products satisfy the Hugoniot u2 - u1 = (p1 + p2)(v1 - v2)/2 at
 * equilibrium (u2, v2): a secant iteration on u2 around chem_equilibrate(UV). Mass and momentum
 * give the wave speed D^2 = v1^2 (p2 - p1)/(v1 - v2); a golden-section search over x in
 * [0.2, 0.95] finds its minimum, where the Rayleigh line touches the Hugoniot and the products
 * leave the wave at the equilibrium sound speed. */
#ifndef HEXDG_CHEM_CJ_H
#define HEXDG_CHEM_CJ_H

#include "chem/mech.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The equilibrium state on the Hugoniot of the unburnt state (T1, p1, Y1) at v2 = x v1, 0 < x < 1:
 * the wave speed *D (m/s) of the Rayleigh line through it and the products (T2, p2, Y2). On
 * failure an error names the mechanism, T1, p1, x and what failed. */
int chem_hugoniot_equilibrium(const ChemMech *m, double T1, double p1, const double *Y1, double x,
                              double *D, double *T2, double *p2, double *Y2);

/* CJ detonation of the unburnt state (T1, p1, Y1): the speed D_cj (m/s) and the equilibrium state
 * behind it (T2, p2, Y2). D_cj is converged to about 1e-9 relative (v2/v1 to 1e-6). On failure an
 * error names the mechanism, T1, p1 and what failed, and the outputs are left unchanged. */
int chem_cj_detonation(const ChemMech *m, double T1, double p1, const double *Y1, double *D_cj,
                       double *T2, double *p2, double *Y2);

#ifdef __cplusplus
}
#endif
#endif
