/* Exact solution of the Riemann problem of the 1-D Euler equations for an ideal gas (Toro 2009,
 * "Riemann Solvers and Numerical Methods for Fluid Dynamics", 3rd ed., Ch. 4): the star pressure
 * by Newton's method on the pressure function (Sec. 4.3, eqs. (4.5)-(4.7), (4.37)-(4.38)), then
 * the sampling of the wave pattern (Sec. 4.5, Figs. 4.14-4.15). Reference solution of Sod's shock
 * tube (IniExactFunc 11 at t > 0). HD functions shared by the CPU and CUDA backends. */
#ifndef HEXDG_RIEMANN_EXACT_H
#define HEXDG_RIEMANN_EXACT_H

#include <math.h>

/* One side's state (rho, u, p) and sound speed. */
typedef struct {
  double rho, u, p, c;
} RiemannSide;

/* Pressure function f_K(p) and its derivative (Toro eqs. (4.6), (4.7), (4.37)). */
HD static inline void riemann_exact_fk(double kappa, const RiemannSide *K, double p, double *f,
                                       double *df) {
  if (p > K->p) { /* shock */
    const double A = 2.0 / ((kappa + 1.0) * K->rho), B = (kappa - 1.0) / (kappa + 1.0) * K->p;
    const double q = sqrt(A / (p + B));
    *f = (p - K->p) * q;
    *df = q * (1.0 - 0.5 * (p - K->p) / (B + p));
  } else { /* rarefaction */
    const double r = p / K->p;
    *f = 2.0 * K->c / (kappa - 1.0) * (pow(r, (kappa - 1.0) / (2.0 * kappa)) - 1.0);
    *df = 1.0 / (K->rho * K->c) * pow(r, -(kappa + 1.0) / (2.0 * kappa));
  }
}

/* Star-region pressure and velocity; the initial guess is the two-rarefaction approximation
 * (Toro eq. (4.46)), which is exact when both waves are rarefactions. */
HD static inline void riemann_exact_star(double kappa, const RiemannSide *L, const RiemannSide *R,
                                         double *p_star, double *u_star) {
  const double z = (kappa - 1.0) / (2.0 * kappa);
  const double du = R->u - L->u;
  double p = pow((L->c + R->c - 0.5 * (kappa - 1.0) * du) /
                     (L->c / pow(L->p, z) + R->c / pow(R->p, z)),
                 1.0 / z);
  if (!(p > 1e-12)) p = 1e-12;
  double fL = 0.0, fR = 0.0, dfL, dfR;
  for (int it = 0; it < 50; it++) {
    riemann_exact_fk(kappa, L, p, &fL, &dfL);
    riemann_exact_fk(kappa, R, p, &fR, &dfR);
    double p_new = p - (fL + fR + du) / (dfL + dfR);
    if (p_new < 1e-12) p_new = 1e-12;
    const double change = 2.0 * fabs(p_new - p) / (p_new + p);
    p = p_new;
    if (change < 1e-15) break;
  }
  riemann_exact_fk(kappa, L, p, &fL, &dfL);
  riemann_exact_fk(kappa, R, p, &fR, &dfR);
  *p_star = p;
  *u_star = 0.5 * (L->u + R->u) + 0.5 * (fR - fL);
}

/* Solution (rho, u, p) at similarity coordinate s = (x - x0) / t (Toro Sec. 4.5). */
HD static inline void riemann_exact_sample(double kappa, const RiemannSide *L,
                                           const RiemannSide *R, double p_star, double u_star,
                                           double s, double out[3]) {
  const double gm = (kappa - 1.0) / (kappa + 1.0), g2 = 2.0 / (kappa + 1.0);
  const int left = s <= u_star;
  const RiemannSide *K = left ? L : R;
  const double sign = left ? 1.0 : -1.0; /* mirror the right side onto the left formulas */
  const double sK = sign * s, uK = sign * K->u, uS = sign * u_star;
  double rho, u, p;
  if (p_star > K->p) { /* shock, Toro eqs. (4.50), (4.52) */
    const double r = p_star / K->p;
    const double S = uK - K->c * sqrt((kappa + 1.0) / (2.0 * kappa) * r + (kappa - 1.0) /
                                                                              (2.0 * kappa));
    if (sK <= S) {
      rho = K->rho, u = uK, p = K->p;
    } else {
      rho = K->rho * (r + gm) / (gm * r + 1.0), u = uS, p = p_star;
    }
  } else { /* rarefaction, Toro eqs. (4.53)-(4.56) */
    const double c_star = K->c * pow(p_star / K->p, (kappa - 1.0) / (2.0 * kappa));
    const double head = uK - K->c, tail = uS - c_star;
    if (sK <= head) {
      rho = K->rho, u = uK, p = K->p;
    } else if (sK >= tail) {
      rho = K->rho * pow(p_star / K->p, 1.0 / kappa), u = uS, p = p_star;
    } else {
      const double f = g2 + gm / K->c * (uK - sK);
      rho = K->rho * pow(f, 2.0 / (kappa - 1.0));
      u = g2 * (K->c + 0.5 * (kappa - 1.0) * uK + sK);
      p = K->p * pow(f, 2.0 * kappa / (kappa - 1.0));
    }
  }
  out[0] = rho;
  out[1] = sign * u;
  out[2] = p;
}

/* (rho, u, p) at x, time t of the Riemann problem with left (rhoL, uL, pL) and right states
 * separated at x0 at t = 0. */
HD static inline void riemann_exact_solution(double kappa, const double left[3],
                                             const double right[3], double x0, double x, double t,
                                             double out[3]) {
  if (!(t > 0.0)) {
    const double *q = x <= x0 ? left : right;
    for (int v = 0; v < 3; v++)
      out[v] = q[v];
    return;
  }
  RiemannSide L = {left[0], left[1], left[2], sqrt(kappa * left[2] / left[0])};
  RiemannSide R = {right[0], right[1], right[2], sqrt(kappa * right[2] / right[0])};
  double p_star, u_star;
  riemann_exact_star(kappa, &L, &R, &p_star, &u_star);
  riemann_exact_sample(kappa, &L, &R, p_star, u_star, (x - x0) / t, out);
}

#endif
