/* Gas-phase kinetics: rate constants, rates of progress, net molar production rates and their
 * analytic Jacobian. Pointwise, host+device; arrays carry a stride (CHEM_AT), so the same code runs
 * on a host array (stride 1) and one GPU thread per cell (stride = number of cells).
 *
 * Conventions are Cantera's (the test oracle), checked against it numerically:
 *  - law of mass action: q = k_f prod C_k^o_k - k_r prod C_k^nu''_k, o_k = nu'_k unless `orders`;
 *  - k_r = k_f / K_c, K_c = K_p (p_atm / (R T))^dnu, K_p = exp(-sum_k nu_k g_k / (R T)), with
 *    1/K_c capped at 1e300 (a reverse rate never overflows);
 *  - three-body: q is multiplied by [M] = sum_k eff_k C_k;
 *  - falloff: k = k_inf Pr/(1+Pr) F, Pr = k_0 [M] / k_inf (Lindemann 1922: F = 1; Troe: Gilbert,
 *    Luther & Troe 1983; SRI: Stewart, Larson & Golden 1989), log10 Pr clipped at -300;
 *  - PLOG: ln k linear in ln p between the tabulated pressures, the end rate outside them, rates
 *    given at one pressure summed before the logarithm; p = R T sum_k C_k (ideal gas);
 *  - concentrations <= 0 (an integrator's overshoot), as Cantera 3.2 treats them: a species of
 *    order exactly 1 enters with its sign; any other order (2, 3, non-integer) makes the product 0
 *    when C_k <= 0; a reaction whose `orders` differ from its stoichiometry clips every species
 *    (the product is 0 as soon as one C_k < 0). [M] and p use the signed concentrations.
 *
 * Work arrays (stride sk, chem_kinetics_work(m) doubles): g_k/RT [ns], h_k/RT [ns] (Jacobian),
 * a per-species accumulator for the Jacobian's dense columns [ns]. */
#ifndef HEXDG_CHEM_KINETICS_H
#define HEXDG_CHEM_KINETICS_H

#include <math.h>

#include "chem/mech.h"
#include "chem/thermo.h"

#define CHEM_LN10 2.302585092994045684
#define CHEM_RKC_MAX 1e300      /* cap of 1/K_c, as Cantera's BigNumber */
#define CHEM_LOG10_PR_MIN -300. /* log10 Pr and log10 Fcent are clipped at log10(1e-300) */

/* doubles of scratch the functions below need (stride sk) */
HD static inline int chem_kinetics_work(const ChemMech *m) {
  return 3 * m->n_species;
}

/* What every rate constant of one state shares (computed once per state). */
typedef struct ChemKinState {
  double T, ln_T, inv_T;
  double C_total; /* sum_k C_k, kmol/m^3 */
  double ln_p;    /* ln(p / Pa), p = R T C_total */
  double ln_c0;   /* ln(p_atm / (R T)): the standard concentration of K_c */
} ChemKinState;

HD static inline ChemKinState chem_kin_state(const ChemMech *m, double T, const double *C,
                                             long sc) {
  ChemKinState s;
  s.T = T;
  s.ln_T = log(T);
  s.inv_T = 1.0 / T;
  s.C_total = 0;
  for (int k = 0; k < m->n_species; k++)
    s.C_total += CHEM_AT(C, k, sc);
  s.ln_p = log(CHEM_R * T * s.C_total);
  s.ln_c0 = log(CHEM_P_ATM / (CHEM_R * T));
  return s;
}

/* h_k/RT and g_k/RT = h_k/RT - s_k/R of the NASA-7 fit (McBride, Gordon & Reno 1993, eqs. 4.9-4.11)
 * with ln T computed once per state rather than per species. */
HD static inline void chem_kin_species_thermo(const ChemMech *m, int k, const ChemKinState *s,
                                              double *h_RT, double *g_RT) {
  const double *a = chem_nasa_coeffs(m, k, s->T);
  double h = chem_nasa_h_RT(a, s->T, s->inv_T);
  *h_RT = h;
  *g_RT = h - chem_nasa_s_R(a, s->T, s->ln_T);
}

/* k = A T^b exp(-Ea/RT) with one exp (abe = A, b, Ea/R) */
HD static inline double chem_arrhenius(const double *abe, const ChemKinState *s) {
  if (abe[1] == 0 && abe[2] == 0) return abe[0];
  return abe[0] * exp(abe[1] * s->ln_T - abe[2] * s->inv_T);
}

/* d ln k / dT of an Arrhenius rate */
HD static inline double chem_arrhenius_dlnk_dT(const double *abe, const ChemKinState *s) {
  return (abe[1] + abe[2] * s->inv_T) * s->inv_T;
}

/* Derivatives of a rate constant: at fixed p and [M]; by [M] (falloff); by ln p (PLOG). */
typedef struct ChemRateDeriv {
  double dlnk_dT, dk_dM, dlnk_dlnp;
} ChemRateDeriv;

/* Troe (Gilbert, Luther & Troe 1983): ln F and its derivatives by ln Pr and (at fixed Pr) by T.
 * Fcent = (1-A) exp(-T/T3) + A exp(-T/T1) + exp(-T2/T); a zero T3 or T1 drops its term, a zero or
 * absent T2 its term. */
HD static inline double chem_troe_lnF(const double *par, const ChemKinState *s, double Pr,
                                      double *dlnF_dlnPr, double *dlnF_dT) {
  const double A = par[0], T3 = par[1], T1 = par[2], T2 = par[3], T = s->T;
  double e3 = T3 != 0 ? exp(-T / T3) : 0, e1 = T1 != 0 ? exp(-T / T1) : 0;
  double e2 = (par[4] != 0 && T2 != 0) ? exp(-T2 * s->inv_T) : 0;
  double Fcent = (1 - A) * e3 + A * e1 + e2;
  double dFcent_dT = (T3 != 0 ? -(1 - A) * e3 / T3 : 0) + (T1 != 0 ? -A * e1 / T1 : 0) +
                     e2 * T2 * s->inv_T * s->inv_T;
  int pr_clip = !(Pr > 1e-300), fc_clip = !(Fcent > 1e-300);
  double lpr = pr_clip ? CHEM_LOG10_PR_MIN : log10(Pr);
  double L = fc_clip ? CHEM_LOG10_PR_MIN : log10(Fcent);
  double c = -0.4 - 0.67 * L, n = 0.75 - 1.27 * L;
  double x = lpr + c, den = n - 0.14 * x;
  double f1 = x / den, G = 1.0 / (1.0 + f1 * f1);
  double dG_df1 = -2.0 * f1 * G * G;
  if (dlnF_dlnPr) {
    *dlnF_dlnPr = pr_clip ? 0 : L * dG_df1 * n / (den * den);
    double dlog10F_dL = G + L * dG_df1 * (1.27 * x - 0.67 * n) / (den * den);
    *dlnF_dT = fc_clip ? 0 : dlog10F_dL * dFcent_dT / Fcent;
  }
  return CHEM_LN10 * L * G;
}

/* SRI (Stewart, Larson & Golden 1989): F = d (a exp(-b/T) + exp(-T/c))^X T^e, X = 1/(1+log10^2 Pr);
 * a zero c drops its term. */
HD static inline double chem_sri_lnF(const double *par, const ChemKinState *s, double Pr,
                                     double *dlnF_dlnPr, double *dlnF_dT) {
  const double a = par[0], b = par[1], c = par[2], d = par[3], e = par[4], T = s->T;
  int pr_clip = !(Pr > 1e-300);
  double lpr = pr_clip ? CHEM_LOG10_PR_MIN : log10(Pr);
  double X = 1.0 / (1.0 + lpr * lpr);
  double eb = exp(-b * s->inv_T), ec = c != 0 ? exp(-T / c) : 0;
  double base = a * eb + ec, ln_base = log(base);
  if (dlnF_dlnPr) {
    *dlnF_dlnPr = pr_clip ? 0 : -2.0 * lpr * X * X * ln_base / CHEM_LN10;
    double dbase_dT = a * b * eb * s->inv_T * s->inv_T - (c != 0 ? ec / c : 0);
    *dlnF_dT = X * dbase_dT / base + e * s->inv_T;
  }
  return log(d) + X * ln_base + e * s->ln_T;
}

/* Falloff rate constant k = k_inf Pr/(1+Pr) F at third-body concentration M */
HD static inline double chem_falloff_k(const ChemMech *m, int r, const ChemKinState *s, double M,
                                       ChemRateDeriv *d) {
  const double *hi = m->rate + 3 * r, *lo = m->rate_low + 3 * r;
  double k_inf = chem_arrhenius(hi, s), k0 = chem_arrhenius(lo, s);
  double Pr = k0 * M / k_inf;
  double lnF = 0, dlnF_dlnPr = 0, dlnF_dT = 0;
  double *dPr = d ? &dlnF_dlnPr : NULL, *dT = d ? &dlnF_dT : NULL;
  int kind = m->falloff_kind[r];
  if (kind == CHEM_FALLOFF_TROE)
    lnF = chem_troe_lnF(m->falloff_par + 5 * r, s, Pr, dPr, dT);
  else if (kind == CHEM_FALLOFF_SRI)
    lnF = chem_sri_lnF(m->falloff_par + 5 * r, s, Pr, dPr, dT);
  double F = kind == CHEM_FALLOFF_LINDEMANN ? 1.0 : exp(lnF);
  double k = k_inf * (Pr / (1 + Pr)) * F;
  if (d) {
    /* d ln k / d ln Pr = 1/(1+Pr) + d ln F / d ln Pr; dPr/dM = k0/k_inf, d ln Pr/dT = d
     * ln(k0/k_inf)/dT */
    double g = 1.0 / (1 + Pr) + dlnF_dlnPr;
    double dinf = chem_arrhenius_dlnk_dT(hi, s), d0 = chem_arrhenius_dlnk_dT(lo, s);
    d->dk_dM = k0 * F / (1 + Pr) * g;
    d->dlnk_dT = dinf + g * (d0 - dinf) + dlnF_dT;
    d->dlnk_dlnp = 0;
  }
  return k;
}

/* ln k and d ln k/dT of the PLOG rates tabulated at one pressure: entries i .. j-1, summed */
HD static inline double chem_plog_level(const double *e, int i, int j, const ChemKinState *s,
                                        double *dlnk_dT) {
  if (j - i == 1) {
    *dlnk_dT = chem_arrhenius_dlnk_dT(e + 4 * i + 1, s);
    return log(e[4 * i + 1]) + e[4 * i + 2] * s->ln_T - e[4 * i + 3] * s->inv_T;
  }
  double k = 0, dk = 0;
  for (int l = i; l < j; l++) {
    double kl = chem_arrhenius(e + 4 * l + 1, s);
    k += kl;
    dk += kl * chem_arrhenius_dlnk_dT(e + 4 * l + 1, s);
  }
  *dlnk_dT = dk / k;
  return log(k);
}

/* End of the run of entries at the pressure of entry i */
HD static inline int chem_plog_level_end(const double *e, int i, int end) {
  int j = i + 1;
  while (j < end && e[4 * j] == e[4 * i])
    j++;
  return j;
}

/* PLOG: ln k linear in ln p between the two tabulated pressures around p, the end rates outside */
HD static inline double chem_plog_k(const ChemMech *m, int r, const ChemKinState *s,
                                    ChemRateDeriv *d) {
  const double *e = m->plog;
  int beg = m->plog_ptr[r], end = m->plog_ptr[r + 1];
  int i = beg, j = chem_plog_level_end(e, beg, end);
  double d1, d2, lnk;
  while (j < end && s->ln_p >= e[4 * j]) { /* advance to the level at or below ln p */
    i = j;
    j = chem_plog_level_end(e, j, end);
  }
  double lnk1 = chem_plog_level(e, i, j, s, &d1);
  if (j == end || s->ln_p <= e[4 * i]) { /* above the last or below the first pressure */
    lnk = lnk1;
    if (d) {
      d->dlnk_dT = d1;
      d->dlnk_dlnp = 0;
    }
  } else {
    double lnk2 = chem_plog_level(e, j, chem_plog_level_end(e, j, end), s, &d2);
    double slope = (lnk2 - lnk1) / (e[4 * j] - e[4 * i]);
    double w = (s->ln_p - e[4 * i]) / (e[4 * j] - e[4 * i]);
    lnk = lnk1 + slope * (s->ln_p - e[4 * i]);
    if (d) {
      d->dlnk_dT = d1 + w * (d2 - d1);
      d->dlnk_dlnp = slope;
    }
  }
  if (d) d->dk_dM = 0;
  return exp(lnk);
}

/* Forward rate constant of reaction r (without the [M] factor of three-body reactions); M is the
 * third-body concentration of a falloff reaction. d (may be NULL) receives its derivatives. */
HD static inline double chem_forward_k(const ChemMech *m, int r, const ChemKinState *s, double M,
                                       ChemRateDeriv *d) {
  int type = m->rxn_type[r];
  if (type == CHEM_RXN_FALLOFF) return chem_falloff_k(m, r, s, M, d);
  if (type == CHEM_RXN_PLOG) return chem_plog_k(m, r, s, d);
  if (d) {
    d->dlnk_dT = chem_arrhenius_dlnk_dT(m->rate + 3 * r, s);
    d->dk_dM = 0;
    d->dlnk_dlnp = 0;
  }
  return chem_arrhenius(m->rate + 3 * r, s);
}

/* Third-body concentration [M] = default C_total + sum_k (eff_k - default) C_k */
HD static inline double chem_third_body(const ChemMech *m, int r, const ChemKinState *s,
                                        const double *C, long sc) {
  double def = m->tb_default[r], M = def * s->C_total;
  for (int i = m->tb_ptr[r]; i < m->tb_ptr[r + 1]; i++)
    M += (m->tb_eff[i] - def) * CHEM_AT(C, m->tb_sp[i], sc);
  return M;
}

/* C^o for C > 0 without pow for small integer orders */
HD static inline double chem_conc_pow(double c, double o) {
  if (o == 2.0) return c * c;
  if (o == 3.0) return c * c * c;
  return pow(c, o);
}

/* d(C^o)/dC for C > 0 */
HD static inline double chem_conc_dpow(double c, double o) {
  if (o == 2.0) return 2 * c;
  if (o == 3.0) return 3 * c * c;
  return o * pow(c, o - 1);
}

/* Law of mass action: prod_i C_sp[i]^o[i] over entries [beg, end); *neg1 set when an entry of
 * order 1 has C < 0 (the caller decides whether that zeroes the product, see the header). */
HD static inline double chem_conc_product(const int *sp, const double *o, int beg, int end,
                                          const double *C, long sc, int *neg1) {
  double p = 1.0;
  for (int i = beg; i < end; i++) {
    double c = CHEM_AT(C, sp[i], sc);
    if (o[i] == 1.0) {
      p *= c;
      if (c < 0) *neg1 = 1;
    } else if (c > 0) {
      p *= chem_conc_pow(c, o[i]);
    } else {
      return 0.0;
    }
  }
  return p;
}

/* d/dC of the product above with respect to the concentration of entry e (other entries fixed) */
HD static inline double chem_conc_product_deriv(const int *sp, const double *o, int beg, int end,
                                                const double *C, long sc, int e) {
  double p = 1.0;
  for (int i = beg; i < end; i++) {
    double c = CHEM_AT(C, sp[i], sc);
    if (i == e)
      p *= o[i] == 1.0 ? 1.0 : (c > 0 ? chem_conc_dpow(c, o[i]) : 0.0);
    else
      p *= o[i] == 1.0 ? c : (c > 0 ? chem_conc_pow(c, o[i]) : 0.0);
  }
  return p;
}

/* 1 if reaction r's forward orders are its reactant coefficients (no `orders` override) */
HD static inline int chem_mass_action(const ChemMech *m, int r) {
  int n = m->reac_ptr[r + 1] - m->reac_ptr[r];
  if (m->ord_ptr[r + 1] - m->ord_ptr[r] != n) return 0;
  for (int i = m->ord_ptr[r]; i < m->ord_ptr[r + 1]; i++) {
    int found = 0;
    for (int l = m->reac_ptr[r]; l < m->reac_ptr[r + 1]; l++)
      if (m->reac_sp[l] == m->ord_sp[i] && m->reac_nu[l] == m->ord_val[i]) found = 1;
    if (!found) return 0;
  }
  return 1;
}

/* Forward concentration product of reaction r (orders), with Cantera's C <= 0 rules */
HD static inline double chem_forward_product(const ChemMech *m, int r, const double *C, long sc) {
  int neg1 = 0;
  double p =
      chem_conc_product(m->ord_sp, m->ord_val, m->ord_ptr[r], m->ord_ptr[r + 1], C, sc, &neg1);
  if (neg1 && !chem_mass_action(m, r)) return 0.0;
  return p;
}

/* Reverse concentration product (products with their stoichiometric coefficients) */
HD static inline double chem_reverse_product(const ChemMech *m, int r, const double *C, long sc) {
  int neg1 = 0;
  return chem_conc_product(m->prod_sp, m->prod_nu, m->prod_ptr[r], m->prod_ptr[r + 1], C, sc,
                           &neg1);
}

/* 1/K_c = exp(sum_k nu_k g_k/RT - dnu ln(p_atm/RT)), capped; g_RT at work[k*sk] */
HD static inline double chem_inv_Kc(const ChemMech *m, int r, const ChemKinState *s,
                                    const double *g_RT, long sk) {
  double dg = 0;
  for (int i = m->prod_ptr[r]; i < m->prod_ptr[r + 1]; i++)
    dg += m->prod_nu[i] * CHEM_AT(g_RT, m->prod_sp[i], sk);
  for (int i = m->reac_ptr[r]; i < m->reac_ptr[r + 1]; i++)
    dg -= m->reac_nu[i] * CHEM_AT(g_RT, m->reac_sp[i], sk);
  double rkc = exp(dg - m->dnu[r] * s->ln_c0);
  return rkc < CHEM_RKC_MAX ? rkc : CHEM_RKC_MAX;
}

/* d ln K_c / dT = (sum_k nu_k h_k/RT - dnu) / T; h_RT at work[k*sk] */
HD static inline double chem_dlnKc_dT(const ChemMech *m, int r, const ChemKinState *s,
                                      const double *h_RT, long sk) {
  double dh = 0;
  for (int i = m->prod_ptr[r]; i < m->prod_ptr[r + 1]; i++)
    dh += m->prod_nu[i] * CHEM_AT(h_RT, m->prod_sp[i], sk);
  for (int i = m->reac_ptr[r]; i < m->reac_ptr[r + 1]; i++)
    dh -= m->reac_nu[i] * CHEM_AT(h_RT, m->reac_sp[i], sk);
  return (dh - m->dnu[r]) * s->inv_T;
}

/* g_k/RT into work[k*sk] and, when h_RT != NULL, h_k/RT into h_RT[k*sk] */
HD static inline void chem_kin_fill_thermo(const ChemMech *m, const ChemKinState *s, double *g_RT,
                                           double *h_RT, long sk) {
  for (int k = 0; k < m->n_species; k++) {
    double h, g;
    chem_kin_species_thermo(m, k, s, &h, &g);
    CHEM_AT(g_RT, k, sk) = g;
    if (h_RT) CHEM_AT(h_RT, k, sk) = h;
  }
}

/* Forward and reverse rates of progress of reaction r, kmol/(m^3 s); g_RT filled */
HD static inline void chem_reaction_rop(const ChemMech *m, int r, const ChemKinState *s,
                                        const double *C, long sc, const double *g_RT, long sk,
                                        double *qf, double *qr) {
  int type = m->rxn_type[r];
  double M = (type == CHEM_RXN_THREE_BODY || type == CHEM_RXN_FALLOFF)
                 ? chem_third_body(m, r, s, C, sc)
                 : 1.0;
  double k = chem_forward_k(m, r, s, M, NULL);
  if (type == CHEM_RXN_THREE_BODY) k *= M;
  *qf = k * chem_forward_product(m, r, C, sc);
  *qr = m->reversible[r] ? k * chem_inv_Kc(m, r, s, g_RT, sk) * chem_reverse_product(m, r, C, sc)
                         : 0.0;
}

/* Forward and reverse rates of progress of every reaction: qf[r*sq], qr[r*sq] */
HD static inline void chem_rates_of_progress(const ChemMech *m, double T, const double *C, long sc,
                                             double *qf, double *qr, long sq, double *work,
                                             long sk) {
  ChemKinState s = chem_kin_state(m, T, C, sc);
  chem_kin_fill_thermo(m, &s, work, NULL, sk);
  for (int r = 0; r < m->n_reactions; r++)
    chem_reaction_rop(m, r, &s, C, sc, work, sk, &CHEM_AT(qf, r, sq), &CHEM_AT(qr, r, sq));
}

/* wdot_k += nu_k q over the reactants (-) and products (+) of reaction r */
HD static inline void chem_scatter(const ChemMech *m, int r, double q, double *w, long sw) {
  for (int i = m->reac_ptr[r]; i < m->reac_ptr[r + 1]; i++)
    CHEM_AT(w, m->reac_sp[i], sw) -= m->reac_nu[i] * q;
  for (int i = m->prod_ptr[r]; i < m->prod_ptr[r + 1]; i++)
    CHEM_AT(w, m->prod_sp[i], sw) += m->prod_nu[i] * q;
}

/* Net molar production rates wdot_k, kmol/(m^3 s), at T and molar concentrations C_k (kmol/m^3). */
HD static inline void chem_wdot(const ChemMech *m, double T, const double *C, long sc, double *wdot,
                                long sw, double *work, long sk) {
  ChemKinState s = chem_kin_state(m, T, C, sc);
  chem_kin_fill_thermo(m, &s, work, NULL, sk);
  for (int k = 0; k < m->n_species; k++)
    CHEM_AT(wdot, k, sw) = 0;
  for (int r = 0; r < m->n_reactions; r++) {
    double qf, qr;
    chem_reaction_rop(m, r, &s, C, sc, work, sk, &qf, &qr);
    chem_scatter(m, r, qf - qr, wdot, sw);
  }
}

/* dwdC[k][j] += nu_k dq for every species k of reaction r (column j) */
HD static inline void chem_scatter_column(const ChemMech *m, int r, int j, double dq, double *dwdC,
                                          long sj) {
  int ns = m->n_species;
  for (int i = m->reac_ptr[r]; i < m->reac_ptr[r + 1]; i++)
    CHEM_AT(dwdC, (long)m->reac_sp[i] * ns + j, sj) -= m->reac_nu[i] * dq;
  for (int i = m->prod_ptr[r]; i < m->prod_ptr[r + 1]; i++)
    CHEM_AT(dwdC, (long)m->prod_sp[i] * ns + j, sj) += m->prod_nu[i] * dq;
}

/* Reaction r's contribution to wdot, dwdC, dwdT and to the dense-column accumulator (dq/dC_j that
 * is the same for every j: the default efficiency of [M] and the pressure of PLOG). */
HD static inline void chem_reaction_jac(const ChemMech *m, int r, const ChemKinState *s,
                                        const double *C, long sc, double *wdot, long sw,
                                        double *dwdC, long sj, double *dwdT, double *work,
                                        long sk) {
  const int ns = m->n_species, type = m->rxn_type[r];
  const double *g_RT = work, *h_RT = work + (size_t)ns * sk;
  double *dense = work + (size_t)2 * ns * sk;
  int tb = type == CHEM_RXN_THREE_BODY, has_M = tb || type == CHEM_RXN_FALLOFF;
  double M = has_M ? chem_third_body(m, r, s, C, sc) : 1.0;
  ChemRateDeriv d;
  double k = chem_forward_k(m, r, s, M, &d);
  double S = tb ? M : 1.0; /* the [M] factor of a three-body reaction */
  int neg1 = 0;
  const int fb = m->ord_ptr[r], fe = m->ord_ptr[r + 1], rb = m->prod_ptr[r],
            re = m->prod_ptr[r + 1];
  double Pf = chem_conc_product(m->ord_sp, m->ord_val, fb, fe, C, sc, &neg1);
  int f_clipped = neg1 && !chem_mass_action(m, r);
  if (f_clipped) Pf = 0;
  double rkc = 0, Pb = 0, dlnKc = 0;
  if (m->reversible[r]) {
    rkc = chem_inv_Kc(m, r, s, g_RT, sk);
    Pb = chem_reverse_product(m, r, C, sc);
    dlnKc = rkc < CHEM_RKC_MAX ? chem_dlnKc_dT(m, r, s, h_RT, sk) : 0;
  }
  double net = Pf - rkc * Pb; /* q = S k net */
  double qf0 = k * Pf, qr0 = k * rkc * Pb;
  chem_scatter(m, r, S * (qf0 - qr0), wdot, sw);

  /* d q/dT at fixed C: rate constants, K_c, and p = R T C_total for PLOG */
  double dlnk = d.dlnk_dT + d.dlnk_dlnp * s->inv_T;
  double dqdT = S * (qf0 * dlnk - qr0 * (dlnk - dlnKc));
  chem_scatter(m, r, dqdT, dwdT, sw);

  /* the concentrations of the mass-action products */
  if (!f_clipped)
    for (int e = fb; e < fe; e++)
      chem_scatter_column(m, r, m->ord_sp[e],
                          S * k * chem_conc_product_deriv(m->ord_sp, m->ord_val, fb, fe, C, sc, e),
                          dwdC, sj);
  if (m->reversible[r])
    for (int e = rb; e < re; e++)
      chem_scatter_column(m, r, m->prod_sp[e],
                          -S * k * rkc *
                              chem_conc_product_deriv(m->prod_sp, m->prod_nu, rb, re, C, sc, e),
                          dwdC, sj);

  /* [M]: dq/d[M] times d[M]/dC_j = default + (eff_j - default); PLOG: dq/dln p times 1/C_total */
  double dq_dM = tb ? k * net : d.dk_dM * net;
  double a_dense = 0;
  if (has_M) {
    double def = m->tb_default[r];
    a_dense = dq_dM * def;
    for (int i = m->tb_ptr[r]; i < m->tb_ptr[r + 1]; i++)
      chem_scatter_column(m, r, m->tb_sp[i], dq_dM * (m->tb_eff[i] - def), dwdC, sj);
  }
  if (d.dlnk_dlnp != 0) a_dense += S * k * net * d.dlnk_dlnp / s->C_total;
  if (a_dense != 0) chem_scatter(m, r, a_dense, dense, sk);
}

/* The same rates and their analytic derivatives: dwdC[(k*ns + j)*sj] = d wdot_k / d C_j at fixed T
 * (including the dependence through [M] of three-body and falloff reactions and through Pr), and
 * dwdT[k*sw] = d wdot_k / dT at fixed C. */
HD static inline void chem_wdot_jac(const ChemMech *m, double T, const double *C, long sc,
                                    double *wdot, long sw, double *dwdC, long sj, double *dwdT,
                                    double *work, long sk) {
  const int ns = m->n_species;
  double *dense = work + (size_t)2 * ns * sk;
  ChemKinState s = chem_kin_state(m, T, C, sc);
  chem_kin_fill_thermo(m, &s, work, work + (size_t)ns * sk, sk);
  for (int k = 0; k < ns; k++) {
    CHEM_AT(wdot, k, sw) = 0;
    CHEM_AT(dwdT, k, sw) = 0;
    CHEM_AT(dense, k, sk) = 0;
    for (int j = 0; j < ns; j++)
      CHEM_AT(dwdC, (long)k * ns + j, sj) = 0;
  }
  for (int r = 0; r < m->n_reactions; r++)
    chem_reaction_jac(m, r, &s, C, sc, wdot, sw, dwdC, sj, dwdT, work, sk);
  for (int k = 0; k < ns; k++) {
    double a = CHEM_AT(dense, k, sk);
    if (a != 0)
      for (int j = 0; j < ns; j++)
        CHEM_AT(dwdC, (long)k * ns + j, sj) += a;
  }
}

#endif
