/* Chemical equilibrium of the ideal-gas mixture of a mechanism (host only).
 *
 * Method: minimisation of the Gibbs energy at fixed (T, p), or of the Helmholtz energy at fixed
 * (T, v), by element potentials: at equilibrium ln(n_k) = -g_k/RT - ln(p/p_atm) + ln(N) +
 * sum_e pi_e a_ke, with the element balances sum_k a_ke n_k = b_e closing the system (Gordon &
 * McBride, NASA RP-1311, 1994, ch. 2; Reynolds, STANJAN report, 1986). Newton on ln(n_k), ln(N)
 * and pi_e reduced to a system of n_elements + 1 unknowns, with the RP-1311 step control
 * (sec. 3.3). The (h, p) and (u, v) problems wrap it in a safeguarded secant iteration on T.
 * Species containing an element that the input lacks are excluded; trace species are carried in
 * logarithmic form, so nothing underflows into a NaN. */
#ifndef HEXDG_CHEM_EQUIL_H
#define HEXDG_CHEM_EQUIL_H

#include "chem/mech.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { CHEM_EQ_TP = 0, CHEM_EQ_HP = 1, CHEM_EQ_UV = 2 };

/* Chemical equilibrium of the ideal-gas mixture. In: *T (K), *p (Pa), Y[ns] (mass fractions; the
 * element totals come from them). TP: T and p fixed; HP: the enthalpy of the input state and p
 * fixed (the adiabatic flame temperature); UV: the internal energy and the specific volume of the
 * input state fixed (constant-volume explosion). Out: *T, *p, Y (the equilibrium). Converged to
 * T within 1e-11 relative and the element totals within 1e-12 relative; HP and UV seek T in
 * [200, 6000] K. On failure an error names
 * the mechanism, the mode, T, p and the composition, and T, p, Y are left unchanged. */
int chem_equilibrate(const ChemMech *m, int mode, double *T, double *p, double *Y);

/* "TP", "HP", "UV" (case-insensitive; also "tp", "hp", "uv" as the command line writes them) ->
 * CHEM_EQ_*, or -1. */
int chem_equil_mode_from_name(const char *name);
const char *chem_equil_mode_name(int mode);

#ifdef __cplusplus
}
#endif
#endif
