/* Thermally perfect gas from NASA-7 polynomials: species and mixture properties, T from the
 * internal energy or the enthalpy. Pointwise, host+device; arrays carry a stride (CHEM_AT).
 *
 * NASA-7 (McBride, Gordon & Reno, NASA TM-4513, 1993, eqs. 4.9-4.11), per range:
 *   cp/R = a0 + a1 T + a2 T^2 + a3 T^3 + a4 T^4
 *   h/RT = a0 + a1 T/2 + a2 T^2/3 + a3 T^3/4 + a4 T^4/5 + a5/T
 *   s/R  = a0 ln T + a1 T + a2 T^2/2 + a3 T^3/3 + a4 T^4/4 + a6
 * The low range serves T < T_mid, the high range T >= T_mid (Cantera's NasaPoly2 convention);
 * outside [T_min, T_max] the polynomials are extrapolated, as Cantera does, up to the ceiling
 * T_hi where a species' extrapolated cp/R would fall to 1 (cv = 0); above it cp is held at
 * cp(T_hi) (ChemMech.nasa_ext), so that e(T) keeps increasing to CHEM_T_HIGH. */
#ifndef HEXDG_CHEM_THERMO_H
#define HEXDG_CHEM_THERMO_H

#include <math.h>

#include "chem/mech.h"

/* The fit's range for T: low below T_mid, high above (extrapolated beyond the fit) */
HD static inline const double *chem_nasa_poly_coeffs(const ChemMech *m, int k, double T) {
  const double *c = m->nasa + 15 * k;
  return T < c[0] ? c + 1 : c + 8;
}

/* The coefficients that serve T: the fit's below the ceiling m->T_hi, the constant-cp
 * continuation above it (ChemMech.nasa_ext) */
HD static inline const double *chem_nasa_coeffs(const ChemMech *m, int k, double T) {
  return T < m->T_hi ? chem_nasa_poly_coeffs(m, k, T) : m->nasa_ext + 7 * k;
}

/* The polynomials of one range a[0..6] (the one home of eqs. 4.9-4.11) */
HD static inline double chem_nasa_cp_R(const double *a, double T) {
  return a[0] + T * (a[1] + T * (a[2] + T * (a[3] + T * a[4])));
}
HD static inline double chem_nasa_h_RT(const double *a, double T, double inv_T) {
  return a[0] + T * (a[1] / 2 + T * (a[2] / 3 + T * (a[3] / 4 + T * a[4] / 5))) + a[5] * inv_T;
}
HD static inline double chem_nasa_s_R(const double *a, double T, double ln_T) {
  return a[0] * ln_T + T * (a[1] + T * (a[2] / 2 + T * (a[3] / 3 + T * a[4] / 4))) + a[6];
}
/* d(cp/R)/dT (eq. 4.9 differentiated) */
HD static inline double chem_nasa_dcpR_dT(const double *a, double T) {
  return a[1] + T * (2 * a[2] + T * (3 * a[3] + T * 4 * a[4]));
}

HD static inline double chem_cp_R(const ChemMech *m, int k, double T) {
  return chem_nasa_cp_R(chem_nasa_coeffs(m, k, T), T);
}

HD static inline double chem_h_RT(const ChemMech *m, int k, double T) {
  return chem_nasa_h_RT(chem_nasa_coeffs(m, k, T), T, 1.0 / T);
}

HD static inline double chem_s_R(const ChemMech *m, int k, double T) {
  return chem_nasa_s_R(chem_nasa_coeffs(m, k, T), T, log(T));
}

/* Standard-state Gibbs energy at p_atm: g/RT = h/RT - s/R */
HD static inline double chem_g_RT(const ChemMech *m, int k, double T) {
  const double *a = chem_nasa_coeffs(m, k, T);
  return chem_nasa_h_RT(a, T, 1.0 / T) - chem_nasa_s_R(a, T, log(T));
}

HD static inline double chem_dcpR_dT(const ChemMech *m, int k, double T) {
  return chem_nasa_dcpR_dT(chem_nasa_coeffs(m, k, T), T);
}

/* Mean molar mass W = 1 / sum(Y_k / W_k), kg/kmol */
HD static inline double chem_mean_mw(const ChemMech *m, const double *Y, long sy) {
  double inv = 0;
  for (int k = 0; k < m->n_species; k++)
    inv += CHEM_AT(Y, k, sy) / m->mw[k];
  return 1.0 / inv;
}

/* Mole fractions X -> mass fractions Y = X_k W_k / sum_j X_j W_j (in place allowed) */
HD static inline void chem_mole_to_mass(const ChemMech *m, const double *X, long sx, double *Y,
                                        long sy) {
  double W = 0;
  for (int k = 0; k < m->n_species; k++)
    W += CHEM_AT(X, k, sx) * m->mw[k];
  for (int k = 0; k < m->n_species; k++)
    CHEM_AT(Y, k, sy) = CHEM_AT(X, k, sx) * m->mw[k] / W;
}

/* Element totals b_e = sum_k a_ke Y_k / W_k, kmol of atoms per kg of mixture */
HD static inline void chem_element_totals(const ChemMech *m, const double *Y, long sy, double *b) {
  for (int e = 0; e < m->n_elements; e++) {
    b[e] = 0;
    for (int k = 0; k < m->n_species; k++)
      b[e] += m->elem_comp[k * m->n_elements + e] * CHEM_AT(Y, k, sy) / m->mw[k];
  }
}

/* Mixture specific heat at constant pressure, J/(kg K) */
HD static inline double chem_cp_mass(const ChemMech *m, double T, const double *Y, long sy) {
  double cp = 0;
  for (int k = 0; k < m->n_species; k++)
    cp += CHEM_AT(Y, k, sy) * chem_cp_R(m, k, T) / m->mw[k];
  return cp * CHEM_R;
}

HD static inline double chem_cv_mass(const ChemMech *m, double T, const double *Y, long sy) {
  return chem_cp_mass(m, T, Y, sy) - CHEM_R / chem_mean_mw(m, Y, sy);
}

/* Mixture enthalpy h = sum Y_k h_k / W_k, J/kg */
HD static inline double chem_h_mass(const ChemMech *m, double T, const double *Y, long sy) {
  double h = 0;
  for (int k = 0; k < m->n_species; k++)
    h += CHEM_AT(Y, k, sy) * chem_h_RT(m, k, T) / m->mw[k];
  return h * CHEM_R * T;
}

/* Mixture internal energy u = h - R T / W, J/kg */
HD static inline double chem_u_mass(const ChemMech *m, double T, const double *Y, long sy) {
  return chem_h_mass(m, T, Y, sy) - CHEM_R * T / chem_mean_mw(m, Y, sy);
}

/* Mixture entropy of the ideal-gas mixture at T, p: s = sum Y_k/W_k (s_k - R ln(X_k p / p_atm)),
 * J/(kg K); species with X_k = 0 contribute nothing. */
HD static inline double chem_s_mass(const ChemMech *m, double T, double p, const double *Y,
                                    long sy) {
  double W = chem_mean_mw(m, Y, sy), s = 0;
  for (int k = 0; k < m->n_species; k++) {
    double Yk = CHEM_AT(Y, k, sy);
    if (Yk <= 0) continue;
    double X = Yk * W / m->mw[k];
    s += Yk / m->mw[k] * (chem_s_R(m, k, T) - log(X * p / CHEM_P_ATM));
  }
  return s * CHEM_R;
}

/* Temperature range in which T is sought from an energy; outside it the state is rejected. */
#define CHEM_T_LOW 50.0
#define CHEM_T_HIGH 10000.0

/* Solve e(T) = target for T, where e is the mixture internal energy (use_h = 0) or enthalpy
 * (use_h = 1). Newton from *T (the initial guess), safeguarded by bisection inside a bracket that
 * always contains the root: e(T) is strictly increasing (cv, cp > 0). Returns 0 and *T on success,
 * 1 (and *T unchanged) if target lies outside [e(CHEM_T_LOW), e(CHEM_T_HIGH)] or is not finite:
 * never a NaN. */
HD static inline int chem_T_from_energy(const ChemMech *m, const double *Y, long sy, double target,
                                        int use_h, double *T) {
  double lo = CHEM_T_LOW, hi = CHEM_T_HIGH;
  double Rw = CHEM_R / chem_mean_mw(m, Y, sy);
  double e_lo = chem_h_mass(m, lo, Y, sy) - (use_h ? 0 : Rw * lo);
  double e_hi = chem_h_mass(m, hi, Y, sy) - (use_h ? 0 : Rw * hi);
  if (!(target >= e_lo && target <= e_hi)) return 1;
  double x = *T;
  if (!(x > lo && x < hi)) x = lo + (hi - lo) * (target - e_lo) / (e_hi - e_lo);
  for (int it = 0; it < 100; it++) {
    double f = chem_h_mass(m, x, Y, sy) - (use_h ? 0 : Rw * x) - target;
    if (f > 0)
      hi = x;
    else
      lo = x;
    double c = chem_cp_mass(m, x, Y, sy) - (use_h ? 0 : Rw);
    double dx = -f / c;
    double xn = x + dx;
    if (fabs(dx) <= 1e-13 * x) { /* converged: accept before the bracket test, which rejects a
                                    step that lands on the root (f = 0 makes it lo) */
      *T = xn;
      return 0;
    }
    if (!(xn > lo && xn < hi)) xn = 0.5 * (lo + hi); /* Newton left the bracket: bisect */
    if (fabs(xn - x) <= 1e-13 * x || hi - lo <= 1e-13 * x) {
      *T = xn;
      return 0;
    }
    x = xn;
  }
  *T = x;
  return 0;
}

HD static inline int chem_T_from_u(const ChemMech *m, const double *Y, long sy, double u,
                                   double *T) {
  return chem_T_from_energy(m, Y, sy, u, 0, T);
}

/* chem_T_from_u for a good initial guess *T (the last temperature of a flow DOF): up to four
 * plain Newton steps, which converge quadratically from a nearby guess without the two bracket
 * evaluations; the safeguarded chem_T_from_u when they leave the range or do not converge. */
HD static inline int chem_T_from_u_near(const ChemMech *m, const double *Y, long sy, double u,
                                        double *T) {
  double x = *T;
  if (x > CHEM_T_LOW && x < CHEM_T_HIGH) {
    const double Rw = CHEM_R / chem_mean_mw(m, Y, sy);
    for (int it = 0; it < 4; it++) {
      const double dx = -(chem_h_mass(m, x, Y, sy) - Rw * x - u) / (chem_cp_mass(m, x, Y, sy) - Rw);
      x += dx;
      if (!(x > CHEM_T_LOW && x < CHEM_T_HIGH)) break;
      if (fabs(dx) <= 1e-10 * x) { /* quadratic convergence: x is now exact to round-off */
        *T = x;
        return 0;
      }
    }
  }
  return chem_T_from_u(m, Y, sy, u, T);
}

/* The mixture's NASA-7 coefficients for a fixed composition: b = sum_k Y_k / W_k a_k over the
 * species' ranges at some T (chem_nasa_coeffs), valid for T in [lo, hi) where every species keeps
 * its range, and inv_W = sum_k Y_k / W_k = 1 / W. The polynomials being linear in the
 * coefficients, the mixture's cp, h and u at any T in [lo, hi) cost one evaluation of eqs.
 * 4.9-4.10 (chem_mix_cp_mass, chem_mix_h_mass) instead of one per species; the sums differ from
 * chem_cp_mass, chem_h_mass only in the order of the additions (round-off). The flow solver's
 * Newton iteration for T (mix_cons_to_prim) runs on them. ns = m->n_species, passed in so that
 * the CUDA kernels instantiated per mechanism size give the species loop a constant count. */
typedef struct {
  double b[6], lo, hi, inv_W;
} ChemMixNasa;

HD static inline void chem_mix_nasa_n(const ChemMech *m, int ns, const double *Y, long sy,
                                      double T, ChemMixNasa *x) {
  double inv = 0, lo = -HUGE_VAL, hi = HUGE_VAL, b[6] = {0, 0, 0, 0, 0, 0};
  const int above = T >= m->T_hi; /* every species on its constant-cp continuation */
  if (above)
    lo = m->T_hi;
  else
    hi = m->T_hi;
  for (int k = 0; k < ns; k++) {
    const double *c = m->nasa + 15 * k, w = CHEM_AT(Y, k, sy) / m->mw[k];
    inv += w;
    const int low = T < c[0];
    if (!above) {
      if (low)
        hi = fmin(hi, c[0]);
      else
        lo = fmax(lo, c[0]);
    }
    const double *a = above ? m->nasa_ext + 7 * k : low ? c + 1 : c + 8;
    for (int j = 0; j < 6; j++)
      b[j] += w * a[j];
  }
  for (int j = 0; j < 6; j++)
    x->b[j] = b[j];
  x->lo = lo;
  x->hi = hi;
  x->inv_W = inv;
}

/* x for T: kept where it holds, else recomputed. */
HD static inline void chem_mix_nasa_at_n(const ChemMech *m, int ns, const double *Y, long sy,
                                         double T, ChemMixNasa *x) {
  if (!(T >= x->lo && T < x->hi)) chem_mix_nasa_n(m, ns, Y, sy, T, x);
}

/* cp and h of the mixture, J/(kg K) and J/kg, for T in x's range */
HD static inline double chem_mix_cp_mass(const ChemMixNasa *x, double T) {
  return chem_nasa_cp_R(x->b, T) * CHEM_R;
}
HD static inline double chem_mix_h_mass(const ChemMixNasa *x, double T) {
  return chem_nasa_h_RT(x->b, T, 1.0 / T) * T * CHEM_R;
}

/* u - target of the mixture at T (x updated to T's range) and its derivative cv */
HD static inline double chem_mix_u_residual(const ChemMech *m, int ns, const double *Y, long sy,
                                            double T, double target, ChemMixNasa *x, double *cv) {
  chem_mix_nasa_at_n(m, ns, Y, sy, T, x);
  const double Rw = CHEM_R * x->inv_W;
  *cv = chem_mix_cp_mass(x, T) - Rw;
  return chem_mix_h_mass(x, T) - Rw * T - target;
}

/* chem_T_from_u (the safeguarded Newton-bisection of chem_T_from_energy) with the mixture's
 * coefficients x of Y (any range; updated as the iterate moves). */
HD static inline int chem_mix_T_from_u_n(const ChemMech *m, int ns, const double *Y, long sy,
                                         double target, ChemMixNasa *x, double *T) {
  double lo = CHEM_T_LOW, hi = CHEM_T_HIGH, cv;
  const double e_lo = chem_mix_u_residual(m, ns, Y, sy, lo, 0.0, x, &cv);
  const double e_hi = chem_mix_u_residual(m, ns, Y, sy, hi, 0.0, x, &cv);
  if (!(target >= e_lo && target <= e_hi)) return 1;
  double t = *T;
  if (!(t > lo && t < hi)) t = lo + (hi - lo) * (target - e_lo) / (e_hi - e_lo);
  for (int it = 0; it < 100; it++) {
    const double f = chem_mix_u_residual(m, ns, Y, sy, t, target, x, &cv);
    if (f > 0)
      hi = t;
    else
      lo = t;
    const double dt = -f / cv, tn0 = t + dt;
    if (fabs(dt) <= 1e-13 * t) { /* converged (as chem_T_from_energy) */
      *T = tn0;
      return 0;
    }
    const double tn = tn0 > lo && tn0 < hi ? tn0 : 0.5 * (lo + hi); /* else bisect */
    if (fabs(tn - t) <= 1e-13 * t || hi - lo <= 1e-13 * t) {
      *T = tn;
      return 0;
    }
    t = tn;
  }
  *T = t;
  return 0;
}

/* chem_T_from_u_near with the mixture's coefficients x of Y (any range; updated as the iterate
 * moves): plain Newton steps from the guess *T, one polynomial each; chem_mix_T_from_u_n where
 * they leave the range or do not converge. */
HD static inline int chem_mix_T_from_u_near_n(const ChemMech *m, int ns, const double *Y, long sy,
                                              double u, ChemMixNasa *x, double *T) {
  double t = *T, cv;
  if (t > CHEM_T_LOW && t < CHEM_T_HIGH) {
    for (int it = 0; it < 4; it++) {
      const double dt = -chem_mix_u_residual(m, ns, Y, sy, t, u, x, &cv) / cv;
      t += dt;
      if (!(t > CHEM_T_LOW && t < CHEM_T_HIGH)) break;
      if (fabs(dt) <= 1e-10 * t) { /* quadratic convergence: t is now exact to round-off */
        *T = t;
        return 0;
      }
    }
  }
  return chem_mix_T_from_u_n(m, ns, Y, sy, u, x, T);
}

HD static inline int chem_T_from_h(const ChemMech *m, const double *Y, long sy, double h,
                                   double *T) {
  return chem_T_from_energy(m, Y, sy, h, 1, T);
}

#endif
