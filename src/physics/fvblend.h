/* Pointwise parts of the FV subcell shock capturing (src/dg/indicator.c, src/dg/fv.c): the
 * blending-factor sigmoid of the a-priori indicator, slope limiters, the limited reconstruction on
 * one LGL subcell and the orthonormal frame of a subcell interface. HD functions shared by the CPU
 * and CUDA backends.
 *
 * Reference: Hennemann, Rueda-Ramirez, Hindenlang & Gassner 2021, "A provably entropy stable
 * subcell shock capturing approach for high order split form DG for the compressible Euler
 * equations", JCP 426, 109935 (indicator: Sec. 4, eqs. (42)-(46)). */
#ifndef HEXDG_FVBLEND_H
#define HEXDG_FVBLEND_H

#include <math.h>

#include "basis/basis.h"
#include "physics/eos.h"
#include "physics/physics.h"
#include "physics/riemann.h"

/* Slope limiters of the second-order subcell FV (FV_LimiterType), with FLEXI's integer codes
 * (src/fv/fv_limiter.f90: none 0, minmod 1, sweby 2, vanalbada 3, gminmod 4, ospre 5, central 9);
 * hexdg's own vanLeer and Superbee take codes FLEXI does not use. */
enum {
  FV_LIM_FIRST_ORDER = 0,
  FV_LIM_MINMOD = 1,
  FV_LIM_SWEBY = 2,
  FV_LIM_VANALBADA = 3,
  FV_LIM_GMINMOD = 4,
  FV_LIM_OSPRE = 5,
  FV_LIM_CENTRAL = 9,
  FV_LIM_VANLEER = 10,
  FV_LIM_SUPERBEE = 11
};

/* Indicator threshold T(N) = a 10^(-c (N+1)^(1/4)), a = 0.5, c = 1.8 (Hennemann et al. 2021,
 * eq. (45)). */
HD static inline double fv_indicator_threshold(int N) {
  return 0.5 * pow(10.0, -1.8 * pow((double)(N + 1), 0.25));
}

/* Blending factor of the modal energy E: alpha = 1 / (1 + exp(-s/T (E - T))), s = 9.21024
 * (Hennemann et al. 2021, eq. (46): alpha(T) = 1e-4), then alpha < alpha_min -> 0 (pure DG)
 * and alpha <= alpha_max. */
HD static inline double fv_alpha_from_energy(double E, int N, double alpha_min, double alpha_max) {
  const double T = fv_indicator_threshold(N);
  const double sharpness = 9.21024;
  double alpha = 1.0 / (1.0 + exp(-sharpness / T * (E - T)));
  if (alpha < alpha_min) return 0.0;
  return alpha < alpha_max ? alpha : alpha_max;
}

HD static inline double fv_minmod(double a, double b) {
  if (a * b <= 0.0) return 0.0;
  return fabs(a) < fabs(b) ? a : b;
}

/* Sweby's family (Sweby 1984, SIAM J. Numer. Anal. 21, eq. (5.8)): the larger of
 * minmod(beta sl, sr) and minmod(sl, beta sr); beta = 1 is minmod, beta = 2 superbee. */
HD static inline double fv_sweby(double sl, double sr, double beta) {
  if (sl * sr <= 0.0) return 0.0;
  const double s1 = fv_minmod(beta * sl, sr), s2 = fv_minmod(sl, beta * sr);
  return fabs(s1) > fabs(s2) ? s1 : s2;
}

/* Generalized minmod with theta = 2 in FLEXI's form: the mean of minmod(2 sr, sl) and
 * minmod(2 sl, sr), each clipped at 0 (FLEXI src/fv/fv_limiter.f90, GMinMod). */
HD static inline double fv_gminmod(double sl, double sr) {
  const double gl = sl >= 0.0 ? 1.0 : -1.0, gr = sr >= 0.0 ? 1.0 : -1.0;
  return 0.5 * (gr * fmax(0.0, fmin(2.0 * sr * gr, sl * gr)) +
                gl * fmax(0.0, fmin(2.0 * sl * gl, sr * gl)));
}

/* Limited slope from the backward (sl) and forward (sr) difference quotients (Toro 2009,
 * Sec. 13.8 / 14.3 for minmod, van Leer, superbee; van Albada et al. 1982, A&A 108, eq. (3.2);
 * OSPRE: Waterson & Deconinck 1995, in FLEXI's form, which is not clipped to 0 where
 * sl sr < 0; central: the unlimited mean, not TVD). sweby_beta: Sweby's beta (FLEXI's swebyb). */
HD static inline double fv_limited_slope(int limiter, double sl, double sr, double sweby_beta) {
  switch (limiter) {
  case FV_LIM_MINMOD:
    return fv_minmod(sl, sr);
  case FV_LIM_SWEBY:
    return fv_sweby(sl, sr, sweby_beta);
  case FV_LIM_VANALBADA:
    return sl * sr > 0.0 ? sl * sr * (sl + sr) / fmax(sl * sl + sr * sr, 1e-13) : 0.0;
  case FV_LIM_GMINMOD:
    return fv_gminmod(sl, sr);
  case FV_LIM_OSPRE: {
    const double d = sl * sl + sl * sr + sr * sr;
    return d / (d * d + 1e-28) * 1.5 * sl * sr * (sl + sr);
  }
  case FV_LIM_VANLEER:
    return sl * sr > 0.0 ? 2.0 * sl * sr / (sl + sr) : 0.0;
  case FV_LIM_SUPERBEE:
    return fv_sweby(sl, sr, 2.0);
  case FV_LIM_CENTRAL:
    return 0.5 * (sl + sr);
  default:
    return 0.0;
  }
}

/* Positivity stage limiter (Zhang & Shu 2010, JCP 229, Sec. 2.3): the largest t in [0, 1] with
 * density >= eps_rho and pressure >= eps_p at mean + t (u - mean); the pressure is concave along
 * the segment, so bisection finds its crossing. */
HD static inline double fv_admissible_fraction(const PhysParams *pp, const double *mean,
                                               const double *u, double eps_rho, double eps_p) {
  double t = 1.0, x[HX_NVAR];
  if (u[DENS] < eps_rho) t = (mean[DENS] - eps_rho) / (mean[DENS] - u[DENS]);
  for (int v = 0; v < HX_NVAR; v++)
    x[v] = mean[v] + t * (u[v] - mean[v]);
  if (pressure_from_cons(pp, x) >= eps_p) return t;
  double lo = 0.0, hi = t;
  for (int it = 0; it < 60; it++) {
    const double mid = 0.5 * (lo + hi);
    for (int v = 0; v < HX_NVAR; v++)
      x[v] = mean[v] + mid * (u[v] - mean[v]);
    if (pressure_from_cons(pp, x) >= eps_p)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/* Bounds of the positivity limiter relative to the element mean. */
#define FV_POSITIVITY_EPS 1e-10

/* Unit normal and orthonormal tangents of a (non-unit) interface vector m; returns |m|. */
HD static inline double fv_interface_frame(const double m[3], double n[3], double t1[3],
                                           double t2[3]) {
  const double s_inv = hx_rsqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
  for (int c = 0; c < 3; c++)
    n[c] = m[c] * s_inv;
  /* the coordinate axis least aligned with n (the first of equals), without an indexed array
   * (a dynamic index puts the arrays into local memory on the GPU) */
  const double ax = fabs(n[0]), ay = fabs(n[1]), az = fabs(n[2]);
  const int a = ay < ax ? (az < ay ? 2 : 1) : (az < ax ? 2 : 0);
  const double e[3] = {a == 0 ? 1.0 : 0.0, a == 1 ? 1.0 : 0.0, a == 2 ? 1.0 : 0.0};
  t1[0] = n[1] * e[2] - n[2] * e[1];
  t1[1] = n[2] * e[0] - n[0] * e[2];
  t1[2] = n[0] * e[1] - n[1] * e[0];
  const double st_inv = hx_rsqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
  for (int c = 0; c < 3; c++)
    t1[c] *= st_inv;
  t2[0] = n[1] * t1[2] - n[2] * t1[1];
  t2[1] = n[2] * t1[0] - n[0] * t1[2];
  t2[2] = n[0] * t1[1] - n[1] * t1[0];
  return (m[0] * m[0] + m[1] * m[1] + m[2] * m[2]) * s_inv;
}

/* Constants of the subcell FV operator along a line of np LGL nodes x_i with weights w_i and
 * subcell interfaces x_{i-1/2} (fv_line_init): everything the line sweep divides by or offsets
 * with, so that the sweep has no division but the Riemann solver's. */
typedef struct {
  double inv_dx[HX_NPMAX]; /* 1 / (x_{i+1} - x_i), i < N */
  double off_l[HX_NPMAX];  /* x_{i-1/2} - x_i: left face of subcell i from its node */
  double off_r[HX_NPMAX];  /* x_{i+1/2} - x_i */
  double inv_w[HX_NPMAX];  /* 1 / w_i */
  double sweby_beta;       /* FV_LimiterType = sweby: Sweby's beta (swebyb) */
} FVLine;

/* The subcell interfaces are x_{-1/2} = -1, x_{i+1/2} = x_{i-1/2} + w_i (widths = LGL weights;
 * Hennemann et al. 2021, Sec. 3). */
HD static inline void fv_line_init(int np, const double *x, const double *w, FVLine *c) {
  double x_face[HX_NPMAX + 1]; /* x_face[i] = x_{i-1/2} */
  x_face[0] = -1.0;
  for (int i = 0; i < np; i++)
    x_face[i + 1] = x_face[i] + w[i];
  for (int i = 0; i < np; i++) {
    c->inv_dx[i] = i + 1 < np ? 1.0 / (x[i + 1] - x[i]) : 0.0;
    c->off_l[i] = x_face[i] - x[i];
    c->off_r[i] = x_face[i + 1] - x[i];
    c->inv_w[i] = 1.0 / w[i];
  }
  c->sweby_beta = 1.0; /* the caller sets swebyb's value */
}

/* Limited slope of subcell i of a line from its node's primitive values q_m (i-1), q_c (i) and
 * q_p (i+1): the one-sided quotient at the end subcells (node on the element face), whose value
 * at the inner interface then interpolates between the two end nodes. */
HD static inline double fv_node_slope(int limiter, int np, const FVLine *c, int i, double q_m,
                                      double q_c, double q_p) {
  if (i == 0) return (q_p - q_c) * c->inv_dx[0];
  if (i == np - 1) return (q_c - q_m) * c->inv_dx[i - 1];
  return fv_limited_slope(limiter, (q_c - q_m) * c->inv_dx[i - 1], (q_p - q_c) * c->inv_dx[i],
                          c->sweby_beta);
}

/* Flux of the subcell interface with contravariant vector mv (the FV metric, not unit) between
 * the left and right primitive states pL, pR (the reconstructions; the node values nL, nR where
 * a reconstructed density or pressure is not positive), times |mv|. */
HD static inline void fv_interface_flux(int riemann, int split, const PhysParams *pp,
                                        const double *pL, const double *pR, const double *nL,
                                        const double *nR, const double mv[3], double *F) {
  double n[3], t1[3], t2[3], L[HX_NVAR], R[HX_NVAR];
  const double area = fv_interface_frame(mv, n, t1, t2);
  const int ok = pL[PDENS] > 0.0 && pL[PRES] > 0.0 && pR[PDENS] > 0.0 && pR[PRES] > 0.0;
  for (int v = 0; v < HX_NVAR; v++) { /* values, not a pointer select (local memory on GPUs) */
    L[v] = ok ? pL[v] : nL[v];
    R[v] = ok ? pR[v] : nR[v];
  }
  riemann_flux_prim(riemann, split, pp, L, R, n, t1, t2, F);
  for (int v = 0; v < HX_NVAR; v++)
    F[v] *= area;
}

/* Node index x of a layout with rows of 8 values (N = 7, unpadded) with the column XOR-ed with
 * bits 1..3 of the row (swz != 0): the 16 lines of direction 0 that a half-warp sweeps then read
 * 16 different shared-memory bank pairs; the identity for swz = 0. */
HD static inline int fv_swizzle(int swz, int x) {
  return swz ? x ^ ((x >> 4) & 7) : x;
}

/* The subcell FV operator along one line (Hennemann et al. 2021, Sec. 3): node i receives
 * (F_{i+1/2} - F_{i-1/2}) / w_i with F_{-1/2} = F_{N+1/2} = 0 (the element faces belong to the
 * DG surface integral). prim[v * vs + at(i)]: primitive values (rho, u, v, w, p) of the nodes,
 * at(i) = fv_swizzle(swz, base + i * ns); res[v * rvs + at(i)] = (add ? res : 0) + the operator;
 * mv[m * ms + c]: interface vectors of the N interfaces. One sweep along the line: each node's
 * slope is limited once and serves both of its faces, and each interface flux goes to both of its
 * nodes. First order (limiter FV_LIM_FIRST_ORDER) takes the node values. */
HD static inline void fv_line_residual(int riemann, int split, int limiter, const PhysParams *pp,
                                       int np, const FVLine *c, const double *prim, int vs,
                                       double *res, int rvs, int base, int ns, int swz,
                                       const double *mv, int ms, int add) {
  double q_m[HX_NVAR], q_c[HX_NVAR], q_p[HX_NVAR]; /* nodes i-1, i, i+1 */
  double face_r[HX_NVAR], pend[HX_NVAR];           /* right face of node i-1, its residual */
  double m_next[3] = {0.0, 0.0, 0.0}; /* the next interface's vector, loaded a step ahead */
  if (np > 1)
    for (int k = 0; k < 3; k++)
      m_next[k] = mv[k];
  for (int v = 0; v < HX_NVAR; v++) {
    q_c[v] = prim[v * vs + fv_swizzle(swz, base)];
    q_p[v] = np > 1 ? prim[v * vs + fv_swizzle(swz, base + ns)] : q_c[v];
    q_m[v] = q_c[v];
    face_r[v] = 0.0;
    pend[v] = 0.0;
  }
#ifdef __CUDA_ARCH__
#pragma unroll 1 /* the body is a whole Riemann solver; unrolling by 2 measured slower at N = 7 */
#endif
  for (int i = 0; i < np; i++) {
    double face_l[HX_NVAR], face_i[HX_NVAR];
    for (int v = 0; v < HX_NVAR; v++) {
      const double slope = limiter == FV_LIM_FIRST_ORDER
                               ? 0.0
                               : fv_node_slope(limiter, np, c, i, q_m[v], q_c[v], q_p[v]);
      face_l[v] = q_c[v] + slope * c->off_l[i];
      face_i[v] = q_c[v] + slope * c->off_r[i];
    }
    if (i > 0) {
      double F[HX_NVAR];
      const double m_i[3] = {m_next[0], m_next[1], m_next[2]};
      if (i < np - 1)
        for (int k = 0; k < 3; k++)
          m_next[k] = mv[i * ms + k];
      fv_interface_flux(riemann, split, pp, face_r, face_l, q_m, q_c, m_i, F);
      for (int v = 0; v < HX_NVAR; v++) {
        double *r = &res[v * rvs + fv_swizzle(swz, base + (i - 1) * ns)];
        *r = (add ? *r : 0.0) + (pend[v] + F[v] * c->inv_w[i - 1]);
        pend[v] = -F[v] * c->inv_w[i];
      }
    }
    for (int v = 0; v < HX_NVAR; v++) {
      face_r[v] = face_i[v];
      q_m[v] = q_c[v];
      q_c[v] = q_p[v];
      if (i + 2 < np) q_p[v] = prim[v * vs + fv_swizzle(swz, base + (i + 2) * ns)];
    }
  }
  for (int v = 0; v < HX_NVAR; v++) {
    double *r = &res[v * rvs + fv_swizzle(swz, base + (np - 1) * ns)];
    *r = (add ? *r : 0.0) + pend[v];
  }
}

/* Quantity of the modal indicator (IndVar). */
/* FLEXI's IndVar codes where FLEXI has the quantity (indicator.f90: 1 density, 6 pressure);
 * rho p and T are hexdg's, numbered apart from FLEXI's 1..6 */
enum { FV_INDVAR_DENSITY_PRESSURE = 0, FV_INDVAR_DENSITY = 1, FV_INDVAR_PRESSURE = 6,
       FV_INDVAR_TEMPERATURE = 16 };

/* The indicator quantity of a primitive state (rho, p, T): for the mixture, whose pressure needs
 * the equation of state (the temperature is meaningful for reacting flow: it marks flames and the
 * induction zone behind a shock). */
HD static inline double fv_indicator_quantity_prim(int ind_var, const double *prim) {
  if (ind_var == FV_INDVAR_DENSITY) return prim[PDENS];
  if (ind_var == FV_INDVAR_PRESSURE) return prim[PRES];
  if (ind_var == FV_INDVAR_TEMPERATURE) return prim[TEMP];
  return prim[PDENS] * prim[PRES];
}

/* rho p (Hennemann et al. 2021, Sec. 4: sensitive to shocks and contacts), rho or p of U. */
HD static inline double fv_indicator_quantity(int ind_var, double kappa_m1, const double *U) {
  const double mom2 = U[MOM1] * U[MOM1] + U[MOM2] * U[MOM2] + U[MOM3] * U[MOM3];
  const double p = kappa_m1 * (U[ENER] - 0.5 * mom2 / U[DENS]);
  if (ind_var == FV_INDVAR_DENSITY) return U[DENS];
  if (ind_var == FV_INDVAR_PRESSURE) return p;
  return U[DENS] * p;
}

/* Node q of one pass of the nodal -> modal transform along direction d: Vinv[m][i] applied to the
 * np values of in along q's line (np^3 values, i fastest). */
HD static inline double fv_modal_pass_node(int np, const double *Vinv, int d, const double *in,
                                           int q) {
  const int stride = d == 0 ? 1 : d == 1 ? np : np * np;
  const int idx = d == 0 ? q % np : d == 1 ? (q / np) % np : q / (np * np);
  const int base = q - idx * stride;
  double acc = 0.0;
  for (int l = 0; l < np; l++)
    acc += Vinv[idx * np + l] * in[base + l * stride];
  return acc;
}

/* Adds the squared modal coefficient c of mode q (degrees i, j, k) to sums: [0] all modes, [1]
 * degree <= N-1 in every direction, [2] degree <= N-2 (the sums of fv_modal_energy). */
HD static inline void fv_modal_energy_add(int np, int q, double c, double sums[3]) {
  const int i = q % np, j = (q / np) % np, k = q / (np * np);
  int deg = i > j ? i : j;
  deg = deg > k ? deg : k;
  const double m2 = c * c;
  sums[0] += m2;
  if (deg <= np - 2) sums[1] += m2;
  if (deg <= np - 3) sums[2] += m2;
}

/* Modal energy indicator from the sums of squared orthonormal Legendre coefficients over all
 * modes (e_all), the modes of degree <= N-1 in every direction (e_lo) and <= N-2 (e_lo2):
 * E = max(share of the highest modes in e_all, share of the next ones in e_lo) (Hennemann et al.
 * 2021, eqs. (42)-(44); the second term only for N >= 2). */
HD static inline double fv_modal_energy(int N, double e_all, double e_lo, double e_lo2) {
  if (!(e_all > 0.0)) return 0.0;
  double E = (e_all - e_lo) / e_all;
  if (N >= 2 && e_lo > 0.0) {
    const double E2 = (e_lo - e_lo2) / e_lo;
    if (E2 > E) E = E2;
  }
  return E;
}

#endif
