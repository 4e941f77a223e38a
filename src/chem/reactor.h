/* The adiabatic homogeneous reactor: the ODE right-hand side and its analytic Jacobian.
 * Pointwise, host+device; arrays carry a stride (CHEM_AT).
 *
 * Unknowns y = (T, Y_0 .. Y_{ns-1}), n = ns + 1. Mode CHEM_MODE_CV: the density rho = par (kg/m^3)
 * is fixed; CHEM_MODE_CP: the pressure p = par (Pa) is fixed and rho = p W / (R T), with the mean
 * molar mass W = 1 / sum(Y_k / W_k). Concentrations C_k = rho Y_k / W_k (kmol/m^3).
 *   dY_k/dt = W_k wdot_k / rho
 *   CV: dT/dt = -sum_k u_k wdot_k / (rho cv),  u_k = (h_k / (R T) - 1) R T (molar)
 *   CP: dT/dt = -sum_k h_k wdot_k / (rho cp)
 * (Kee, Coltrin & Glarborg, Chemically Reacting Flow, 2003, sec. 9.2-9.3). The Y_k are treated as
 * independent unknowns (no sum-to-one constraint), so rho(Y) in CP mode is differentiated too. */
#ifndef HEXDG_CHEM_REACTOR_H
#define HEXDG_CHEM_REACTOR_H

#include <math.h>

#include "chem/kinetics.h"
#include "chem/mech.h"
#include "chem/thermo.h"

enum { CHEM_MODE_CV = 0, CHEM_MODE_CP = 1 };

/* Scratch doubles (stride sk) of chem_reactor_rhs: C[ns] and the kinetics scratch. */
HD static inline int chem_reactor_rhs_work(const ChemMech *m) {
  return m->n_species + chem_kinetics_work(m);
}

/* Scratch doubles (stride sk) of chem_reactor_jac (enough for chem_reactor_rhs as well):
 * C, wdot, dwdT [ns each], dwdC [ns*ns] and the kinetics scratch. */
HD static inline int chem_reactor_work(const ChemMech *m) {
  int ns = m->n_species;
  return 3 * ns + ns * ns + chem_kinetics_work(m);
}

/* Density of the reactor at (T, Y): par itself (CV) or p W / (R T) (CP). */
HD static inline double chem_reactor_density(const ChemMech *m, int mode, double par, double T,
                                             const double *Y, long sy) {
  return mode == CHEM_MODE_CP ? par * chem_mean_mw(m, Y, sy) / (CHEM_R * T) : par;
}

/* f = dy/dt at y (both with strides); work: chem_reactor_rhs_work(m) doubles with stride sk. */
HD static inline void chem_reactor_rhs(const ChemMech *m, int mode, double par, const double *y,
                                       long sy, double *f, long sf, double *work, long sk) {
  int ns = m->n_species;
  double T = y[0];
  const double *Y = y + sy;
  double rho = chem_reactor_density(m, mode, par, T, Y, sy);
  double *C = work;
  for (int k = 0; k < ns; k++)
    CHEM_AT(C, k, sk) = rho * CHEM_AT(Y, k, sy) / m->mw[k];
  double *wdot = f + sf; /* wdot_k lands in f's Y_k slot and is scaled there */
  chem_wdot(m, T, C, sk, wdot, sf, work + (size_t)ns * sk, sk);
  double delta = mode == CHEM_MODE_CV ? 1.0 : 0.0; /* u_k/RT = h_k/RT - 1 */
  double e_sum = 0, c_R = 0;                       /* sum (e_k/RT) wdot_k, c/R (per kg) */
  for (int k = 0; k < ns; k++) {
    double w = CHEM_AT(wdot, k, sf);
    e_sum += (chem_h_RT(m, k, T) - delta) * w;
    c_R += CHEM_AT(Y, k, sy) * (chem_cp_R(m, k, T) - delta) / m->mw[k];
    CHEM_AT(wdot, k, sf) = m->mw[k] * w / rho;
  }
  f[0] = -T * e_sum / (rho * c_R);
}

/* J[(i*n + j)*sJ] = d f_i / d y_j (n = ns + 1), analytic: the kinetics Jacobian at fixed T (dwdC)
 * and at fixed C (dwdT), chained through C_k = rho Y_k / W_k and rho(T, Y) (CP), with cp or cv
 * differentiated in T and Y. work: chem_reactor_work(m) doubles with stride sk. */
HD static inline void chem_reactor_jac(const ChemMech *m, int mode, double par, const double *y,
                                       long sy, double *J, long sJ, double *work, long sk) {
  int ns = m->n_species, n = ns + 1;
  int cp_mode = mode == CHEM_MODE_CP;
  double T = y[0];
  const double *Y = y + sy;
  double Wbar = chem_mean_mw(m, Y, sy);
  double rho = cp_mode ? par * Wbar / (CHEM_R * T) : par;
  double *C = work, *wdot = work + (size_t)ns * sk, *dwdT = work + (size_t)2 * ns * sk;
  double *dwdC = work + (size_t)3 * ns * sk, *kw = dwdC + (size_t)ns * ns * sk;
  for (int k = 0; k < ns; k++)
    CHEM_AT(C, k, sk) = rho * CHEM_AT(Y, k, sy) / m->mw[k];
  chem_wdot_jac(m, T, C, sk, wdot, sk, dwdC, sk, dwdT, kw, sk);
#define JAC(i, j) CHEM_AT(J, (size_t)(i)*n + (j), sJ)
  /* rows 1..ns first hold the total derivatives of wdot_k with respect to (T, Y_j):
   * CP: dC_l/dT = -C_l/T, dC_l/dY_j = rho/W_l delta_lj - C_l Wbar/W_j; CV: dC_l/dY_j = rho/W_l */
  for (int k = 0; k < ns; k++) {
    double g = 0; /* sum_l dwdC_kl C_l */
    if (cp_mode)
      for (int l = 0; l < ns; l++)
        g += CHEM_AT(dwdC, (size_t)k * ns + l, sk) * CHEM_AT(C, l, sk);
    JAC(k + 1, 0) = CHEM_AT(dwdT, k, sk) - g / T;
    for (int j = 0; j < ns; j++)
      JAC(k + 1, j + 1) = (CHEM_AT(dwdC, (size_t)k * ns + j, sk) * rho - g * Wbar) / m->mw[j];
  }
  /* T row: f_T = -E/D, E = sum_k (e_k/R) wdot_k, D = rho c/R; dfT = -(dE + f_T dD) / D */
  double delta = cp_mode ? 0.0 : 1.0;
  double E = 0, c_R = 0, dcR_dT = 0, dE_dT = 0;
  for (int k = 0; k < ns; k++) {
    double w = CHEM_AT(wdot, k, sk), cpR = chem_cp_R(m, k, T), Yk = CHEM_AT(Y, k, sy);
    double eR = T * (chem_h_RT(m, k, T) - delta); /* e_k / R; C is not needed any more */
    CHEM_AT(C, k, sk) = eR;
    E += eR * w;
    c_R += Yk * (cpR - delta) / m->mw[k];
    dcR_dT += Yk * chem_dcpR_dT(m, k, T) / m->mw[k];
    dE_dT += (cpR - delta) * w;
  }
  double D = rho * c_R, fT = -E / D;
  for (int j = 0; j < n; j++) {
    double dE = j == 0 ? dE_dT : 0;
    for (int k = 0; k < ns; k++)
      dE += CHEM_AT(C, k, sk) * JAC(k + 1, j);
    double drho = 0, dc;
    if (j == 0) {
      drho = cp_mode ? -rho / T : 0;
      dc = dcR_dT;
    } else {
      drho = cp_mode ? -rho * Wbar / m->mw[j - 1] : 0;
      dc = (chem_cp_R(m, j - 1, T) - delta) / m->mw[j - 1];
    }
    double dD = drho * c_R + rho * dc;
    JAC(0, j) = -(dE + fT * dD) / D;
  }
  /* Y rows: f_k = W_k wdot_k / rho, d f_k = W_k/rho (d wdot_k - wdot_k drho/rho) */
  for (int j = 0; j < n; j++) {
    double drho_rho = 0;
    if (cp_mode) drho_rho = j == 0 ? -1.0 / T : -Wbar / m->mw[j - 1];
    for (int k = 0; k < ns; k++)
      JAC(k + 1, j) = m->mw[k] / rho * (JAC(k + 1, j) - CHEM_AT(wdot, k, sk) * drho_rho);
  }
#undef JAC
}

#endif
