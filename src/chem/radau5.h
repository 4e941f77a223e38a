/* Radau IIA of order 5 (three stages) for the stiff reactor ODE (chem/reactor.h), one system per
 * cell, resumable, with every piece of state in a caller-provided workspace.
 *
 * Method: Hairer & Wanner, Solving ODEs II, 2nd ed., sec. IV.8: the collocation system solved by
 * simplified Newton, decoupled by the eigen-decomposition of A^{-1} into one real and one complex
 * linear system (8.4-8.6); convergence rate theta and the stop eta ||dZ|| <= kappa Tol (8.10-8.13);
 * starting values from the collocation polynomial of the previous step; the embedded error
 * estimate (8.19) filtered by (I - h gamma0 J)^{-1} (8.20), re-evaluated at y0 + err for the first
 * and for rejected steps; step sizes from err^{-1/4} with the predictive (Gustafsson) controller
 * (8.25); the Jacobian kept while theta is small and the LU factors kept while h is unchanged.
 *
 * Workspace: radau5_ws_doubles(m) doubles per cell, element i at ws[i*s]. On the CPU s = 1 (one
 * contiguous block per cell); on the GPU ws points at the cell's first element and s = number of
 * cells, so that consecutive threads read consecutive addresses. Counters, flags and pivots are
 * stored as doubles (exact below 2^53) so that one stride serves all.
 *
 * Tolerances enter as given (no transformation of rtol as in Hairer's code): the estimate of the
 * embedded order-3 formula is held below 1 in the rms norm scaled by atol + rtol max(|y0|, |y1|).
 *
 * Use: radau5_init(...) once, then radau5_advance(...) until it returns something other than
 * CHEM_ACTIVE (it also stops, returning CHEM_ACTIVE, after max_steps_now step attempts, so that a
 * kernel can advance every cell by a few steps per launch). On failure y keeps the last accepted
 * state and t its time. No malloc, no recursion, no function pointers: callable in CUDA kernels. */
#ifndef HEXDG_CHEM_RADAU5_H
#define HEXDG_CHEM_RADAU5_H

#include <float.h>
#include <math.h>
#include <stddef.h>

#include "chem/reactor.h"

typedef struct {
  double rtol, atol; /* local error: ||err / (atol + rtol |y|)||_rms <= 1 */
  int max_steps;     /* step attempts per cell over the whole integration; more: CHEM_FAIL_STEPS */
  double h_init;     /* first step (s); <= 0: min(1e-6, tend - t0) */
} ChemIntegratorOptions;

enum {
  CHEM_ACTIVE = 0,         /* not finished yet */
  CHEM_DONE = 1,           /* reached tend */
  CHEM_FAIL_STEPS = 2,     /* max_steps attempts without reaching tend */
  CHEM_FAIL_STEP_SIZE = 3, /* h underflow (below 1e-20 s or 10 eps t) */
  CHEM_FAIL_SINGULAR = 4,  /* iteration matrix singular at several successive step sizes */
  CHEM_FAIL_STATE = 5      /* non-finite initial state or right-hand side at an accepted state */
};

HD static inline ChemIntegratorOptions chem_integrator_options_default(void) {
  ChemIntegratorOptions o = {1e-6, 1e-12, 100000, 0.0};
  return o;
}

/* scalar slots that every integrator (radau5.h, rodas.h) keeps at the head of its workspace, so
 * that one set of accessors (chem_ws_*) serves both */
enum {
  CHEM_WS_T,
  CHEM_WS_TEND,
  CHEM_WS_H,
  CHEM_WS_STATUS,
  CHEM_WS_N_STEPS, /* step attempts */
  CHEM_WS_N_ACCEPT,
  CHEM_WS_N_REJECT,
  CHEM_WS_N_JAC,
  CHEM_WS_N_LU,
  CHEM_WS_N_RHS,
  CHEM_WS_N_COMMON
};

/* Radau5's scalar slots: the common ones, then its own */
enum {
  R5_T = CHEM_WS_T,
  R5_TEND = CHEM_WS_TEND,
  R5_H = CHEM_WS_H,
  R5_STATUS = CHEM_WS_STATUS,
  R5_N_STEPS = CHEM_WS_N_STEPS,
  R5_N_ACCEPT = CHEM_WS_N_ACCEPT,
  R5_N_REJECT = CHEM_WS_N_REJECT,
  R5_N_JAC = CHEM_WS_N_JAC,
  R5_N_LU = CHEM_WS_N_LU,
  R5_N_RHS = CHEM_WS_N_RHS,
  R5_H_ACC = CHEM_WS_N_COMMON,
  R5_ERR_ACC,
  R5_H_CONT,
  R5_THETA,
  R5_ETA,
  R5_FIRST,
  R5_REJECTED,
  R5_JAC_FRESH,
  R5_NEED_JAC,
  R5_H_LU,
  R5_N_SINGULAR,
  R5_HAVE_CONT,
  R5_F0_VALID,
  R5_N_SCALARS
};

/* Radau IIA (s = 3) constants, derived from the Butcher tableau (Hairer & Wanner IV.5, Table 5.6):
 * c; the eigenvalues gamma, alpha +- i beta of A^{-1}; T with T^{-1} A^{-1} T = [gamma 0 0;
 * 0 alpha -beta; 0 beta alpha] (columns: real eigenvector, Re and -Im of the complex one);
 * e = A^{-T} (bhat - b) of the embedded order-3 formula with bhat_0 = gamma0 = 1/gamma (8.19). */
#define R5_C1 0.15505102572168219018 /* (4 - sqrt 6)/10 */
#define R5_C2 0.64494897427831780982 /* (4 + sqrt 6)/10 */
#define R5_GAMMA 3.637834252744486
#define R5_ALPHA 2.681082873627755
#define R5_BETA 3.0504301992474168
#define R5_E1 (-2.762305454748607)   /* gamma0 (-13 - 7 sqrt 6) / 3 */
#define R5_E2 0.3799355982527297     /* gamma0 (-13 + 7 sqrt 6) / 3 */
#define R5_E3 (-0.09162960986522604) /* -gamma0 / 3 */
#define R5_T11 0.09443876248897555
#define R5_T12 (-0.1412552950209542)
#define R5_T13 (-0.03002919410514818)
#define R5_T21 0.2502131229653348
#define R5_T22 0.20412935229379953
#define R5_T23 0.38294211275726214
#define R5_T31 1.0
#define R5_T32 1.0
#define R5_T33 0.0
#define R5_TI11 4.178718591551895
#define R5_TI12 0.32768282076106964
#define R5_TI13 0.523376445499447
#define R5_TI21 (-4.178718591551895)
#define R5_TI22 (-0.32768282076106964)
#define R5_TI23 0.4766235545005531
#define R5_TI31 (-0.5028726349458064)
#define R5_TI32 2.571926949855601
#define R5_TI33 (-0.5960392048282258)

/* control constants (Hairer & Wanner IV.8: kappa in [0.01, 0.1], theta_min ~ 0.001) */
#define R5_NIT 7          /* Newton iterations at most */
#define R5_KAPPA 0.03     /* Newton stop: eta ||dZ|| <= kappa (tolerance-scaled norm) */
#define R5_THETA_MIN 1e-3 /* keep the Jacobian if the last convergence rate was below */
#define R5_SAFE 0.9
#define R5_QMIN 0.125  /* h_new / h >= 1/8 ... */
#define R5_QMAX 8.0    /* ... <= 8 (Hairer & Wanner IV.8: facmin, facmax) */
#define R5_KEEP_LO 1.0 /* h unchanged (LU reused) while h_new / h in [1, 1.2] */
#define R5_KEEP_HI 1.2

#define R5_AT(ws, i, s) CHEM_AT(ws, i, s)

/* offsets (in elements, multiply by s) of the arrays in the workspace */
typedef struct {
  int n;
  long y, z, f, cont, f0, tmp, scal, piv1, piv2, jac, lu, rw, total;
} Radau5Layout;

HD static inline Radau5Layout radau5_layout(const ChemMech *m) {
  Radau5Layout L;
  long n = m->n_species + 1, n2 = n * n;
  long lu = 3 * n2, jw = chem_reactor_work(m); /* the Jacobian's scratch overlaps the LU */
  L.n = (int)n;
  L.y = R5_N_SCALARS;
  L.z = L.y + n;        /* Newton iterate Z = (z1, z2, z3), 3n */
  L.f = L.z + 3 * n;    /* stage values F, then residuals and increments, 3n */
  L.cont = L.f + 3 * n; /* Z of the last accepted step (collocation polynomial), 3n */
  L.f0 = L.cont + 3 * n;
  L.tmp = L.f0 + n;
  L.scal = L.tmp + n;
  L.piv1 = L.scal + n;
  L.piv2 = L.piv1 + n;
  L.jac = L.piv2 + n;
  L.lu = L.jac + n2; /* real LU (n^2), complex LU: real part, imaginary part (n^2 each) */
  L.rw = L.lu + (lu > jw ? lu : jw);
  L.total = L.rw + chem_reactor_rhs_work(m);
  return L;
}

/* workspace doubles per cell */
HD static inline size_t radau5_ws_doubles(const ChemMech *m) {
  return (size_t)radau5_layout(m).total;
}

/* accessors */
HD static inline double *radau5_y(const ChemMech *m, double *ws, long s) {
  return ws + (size_t)radau5_layout(m).y * s;
}
/* the common slots of any integrator's workspace */
HD static inline double chem_ws_time(const double *ws, long s) {
  return CHEM_AT(ws, CHEM_WS_T, s);
}
HD static inline double chem_ws_step_size(const double *ws, long s) {
  return CHEM_AT(ws, CHEM_WS_H, s);
}
HD static inline int chem_ws_status(const double *ws, long s) {
  return (int)CHEM_AT(ws, CHEM_WS_STATUS, s);
}
HD static inline long chem_ws_count(const double *ws, long s, int slot) {
  return (long)CHEM_AT(ws, slot, s);
}
/* step attempts */
HD static inline long chem_ws_steps(const double *ws, long s) {
  return chem_ws_count(ws, s, CHEM_WS_N_STEPS);
}

HD static inline const char *chem_status_name(int status) {
  switch (status) {
  case CHEM_ACTIVE:
    return "active";
  case CHEM_DONE:
    return "done";
  case CHEM_FAIL_STEPS:
    return "step cap reached (max_steps)";
  case CHEM_FAIL_STEP_SIZE:
    return "step size underflow";
  case CHEM_FAIL_SINGULAR:
    return "singular iteration matrix";
  case CHEM_FAIL_STATE:
    return "non-finite state or right-hand side";
  default:
    return "unknown";
  }
}

/* ---- dense LU with partial pivoting, a[(i*n + j)*s] ---- */

/* dst[j] -= l * src[j] for j in [j0, n): four loads of each row before the four stores, so that
 * a GPU thread (whose rows lie in global memory, stride s) has eight loads in flight instead of
 * two (the compiler cannot reorder across the stores: both rows are in one array) */
HD static inline void radau5_row_update(int j0, int n, double l, const double *src, double *dst,
                                        long s) {
  int j = j0;
  for (; j + 4 <= n; j += 4) {
    double s0 = CHEM_AT(src, j, s), s1 = CHEM_AT(src, j + 1, s), s2 = CHEM_AT(src, j + 2, s),
           s3 = CHEM_AT(src, j + 3, s);
    double d0 = CHEM_AT(dst, j, s), d1 = CHEM_AT(dst, j + 1, s), d2 = CHEM_AT(dst, j + 2, s),
           d3 = CHEM_AT(dst, j + 3, s);
    CHEM_AT(dst, j, s) = d0 - l * s0;
    CHEM_AT(dst, j + 1, s) = d1 - l * s1;
    CHEM_AT(dst, j + 2, s) = d2 - l * s2;
    CHEM_AT(dst, j + 3, s) = d3 - l * s3;
  }
  for (; j < n; j++)
    CHEM_AT(dst, j, s) -= l * CHEM_AT(src, j, s);
}

/* the complex twin: (dr + i di)[j] -= (lr + i li) (sr + i si)[j] */
HD static inline void radau5_row_update_complex(int j0, int n, double lr, double li,
                                                const double *sr, const double *si, double *dr,
                                                double *di, long s) {
  int j = j0;
  for (; j + 2 <= n; j += 2) {
    double ur0 = CHEM_AT(sr, j, s), ui0 = CHEM_AT(si, j, s), ur1 = CHEM_AT(sr, j + 1, s),
           ui1 = CHEM_AT(si, j + 1, s);
    double r0 = CHEM_AT(dr, j, s), i0 = CHEM_AT(di, j, s), r1 = CHEM_AT(dr, j + 1, s),
           i1 = CHEM_AT(di, j + 1, s);
    CHEM_AT(dr, j, s) = r0 - (lr * ur0 - li * ui0);
    CHEM_AT(di, j, s) = i0 - (lr * ui0 + li * ur0);
    CHEM_AT(dr, j + 1, s) = r1 - (lr * ur1 - li * ui1);
    CHEM_AT(di, j + 1, s) = i1 - (lr * ui1 + li * ur1);
  }
  for (; j < n; j++) {
    double ur = CHEM_AT(sr, j, s), ui = CHEM_AT(si, j, s);
    CHEM_AT(dr, j, s) -= lr * ur - li * ui;
    CHEM_AT(di, j, s) -= lr * ui + li * ur;
  }
}

/* real: a = P L U in place; returns 1 on a zero (or non-finite) pivot */
HD static inline int radau5_lu_real(int n, double *a, long s, double *piv) {
#define A_(i, j) CHEM_AT(a, (size_t)(i)*n + (j), s)
  for (int k = 0; k < n; k++) {
    int p = k;
    double amax = fabs(A_(k, k));
    for (int i = k + 1; i < n; i++)
      if (fabs(A_(i, k)) > amax) amax = fabs(A_(i, k)), p = i;
    CHEM_AT(piv, k, s) = p;
    if (!(amax > 0) || !isfinite(amax)) return 1;
    if (p != k)
      for (int j = 0; j < n; j++) {
        double t = A_(k, j);
        A_(k, j) = A_(p, j), A_(p, j) = t;
      }
    double inv = 1.0 / A_(k, k);
    for (int i = k + 1; i < n; i++) {
      double l = A_(i, k) * inv;
      A_(i, k) = l;
      if (l != 0) radau5_row_update(k + 1, n, l, a + (size_t)k * n * s, a + (size_t)i * n * s, s);
    }
  }
  return 0;
#undef A_
}

HD static inline void radau5_solve_real(int n, const double *a, long s, const double *piv,
                                        double *b, long sb) {
#define A_(i, j) CHEM_AT(a, (size_t)(i)*n + (j), s)
  for (int k = 0; k < n; k++) {
    int p = (int)CHEM_AT(piv, k, s);
    if (p != k) {
      double t = CHEM_AT(b, k, sb);
      CHEM_AT(b, k, sb) = CHEM_AT(b, p, sb), CHEM_AT(b, p, sb) = t;
    }
  }
  for (int i = 1; i < n; i++) {
    double sum = CHEM_AT(b, i, sb);
    for (int j = 0; j < i; j++)
      sum -= A_(i, j) * CHEM_AT(b, j, sb);
    CHEM_AT(b, i, sb) = sum;
  }
  for (int i = n - 1; i >= 0; i--) {
    double sum = CHEM_AT(b, i, sb);
    for (int j = i + 1; j < n; j++)
      sum -= A_(i, j) * CHEM_AT(b, j, sb);
    CHEM_AT(b, i, sb) = sum / A_(i, i);
  }
#undef A_
}

/* complex: (ar + i ai) = P L U in place; pivot by |re| + |im| */
HD static inline int radau5_lu_complex(int n, double *ar, double *ai, long s, double *piv) {
#define R_(i, j) CHEM_AT(ar, (size_t)(i)*n + (j), s)
#define I_(i, j) CHEM_AT(ai, (size_t)(i)*n + (j), s)
  for (int k = 0; k < n; k++) {
    int p = k;
    double amax = fabs(R_(k, k)) + fabs(I_(k, k));
    for (int i = k + 1; i < n; i++) {
      double v = fabs(R_(i, k)) + fabs(I_(i, k));
      if (v > amax) amax = v, p = i;
    }
    CHEM_AT(piv, k, s) = p;
    if (!(amax > 0) || !isfinite(amax)) return 1;
    if (p != k)
      for (int j = 0; j < n; j++) {
        double t = R_(k, j);
        R_(k, j) = R_(p, j), R_(p, j) = t;
        t = I_(k, j);
        I_(k, j) = I_(p, j), I_(p, j) = t;
      }
    double pr = R_(k, k), pi = I_(k, k), d = pr * pr + pi * pi;
    double ir = pr / d, ii = -pi / d; /* 1 / pivot */
    for (int i = k + 1; i < n; i++) {
      double xr = R_(i, k), xi = I_(i, k);
      double lr = xr * ir - xi * ii, li = xr * ii + xi * ir;
      R_(i, k) = lr, I_(i, k) = li;
      if (lr != 0 || li != 0)
        radau5_row_update_complex(k + 1, n, lr, li, ar + (size_t)k * n * s, ai + (size_t)k * n * s,
                                  ar + (size_t)i * n * s, ai + (size_t)i * n * s, s);
    }
  }
  return 0;
}

HD static inline void radau5_solve_complex(int n, const double *ar, const double *ai, long s,
                                           const double *piv, double *br, double *bi, long sb) {
  for (int k = 0; k < n; k++) {
    int p = (int)CHEM_AT(piv, k, s);
    if (p != k) {
      double t = CHEM_AT(br, k, sb);
      CHEM_AT(br, k, sb) = CHEM_AT(br, p, sb), CHEM_AT(br, p, sb) = t;
      t = CHEM_AT(bi, k, sb);
      CHEM_AT(bi, k, sb) = CHEM_AT(bi, p, sb), CHEM_AT(bi, p, sb) = t;
    }
  }
  for (int i = 1; i < n; i++) {
    double sr = CHEM_AT(br, i, sb), si = CHEM_AT(bi, i, sb);
    for (int j = 0; j < i; j++) {
      double lr = R_(i, j), li = I_(i, j), xr = CHEM_AT(br, j, sb), xi = CHEM_AT(bi, j, sb);
      sr -= lr * xr - li * xi;
      si -= lr * xi + li * xr;
    }
    CHEM_AT(br, i, sb) = sr, CHEM_AT(bi, i, sb) = si;
  }
  for (int i = n - 1; i >= 0; i--) {
    double sr = CHEM_AT(br, i, sb), si = CHEM_AT(bi, i, sb);
    for (int j = i + 1; j < n; j++) {
      double ur = R_(i, j), ui = I_(i, j), xr = CHEM_AT(br, j, sb), xi = CHEM_AT(bi, j, sb);
      sr -= ur * xr - ui * xi;
      si -= ur * xi + ui * xr;
    }
    double pr = R_(i, i), pi = I_(i, i), d = pr * pr + pi * pi;
    CHEM_AT(br, i, sb) = (sr * pr + si * pi) / d;
    CHEM_AT(bi, i, sb) = (si * pr - sr * pi) / d;
  }
#undef R_
#undef I_
}

/* ---- pieces of a step ---- */

/* E1 = gamma/h I - J, E2 = (alpha + i beta)/h I - J, factored (8.4-8.6); 1 if singular */
HD static inline int radau5_decompose(const Radau5Layout *L, double h, double *ws, long s) {
  int n = L->n;
  const double *J = ws + (size_t)L->jac * s;
  double *e1 = ws + (size_t)L->lu * s, *e2r = e1 + (size_t)n * n * s,
         *e2i = e2r + (size_t)n * n * s;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      size_t ij = (size_t)i * n + j;
      double v = -CHEM_AT(J, ij, s);
      CHEM_AT(e1, ij, s) = v + (i == j ? R5_GAMMA / h : 0.0);
      CHEM_AT(e2r, ij, s) = v + (i == j ? R5_ALPHA / h : 0.0);
      CHEM_AT(e2i, ij, s) = i == j ? R5_BETA / h : 0.0;
    }
  if (radau5_lu_real(n, e1, s, ws + (size_t)L->piv1 * s)) return 1;
  return radau5_lu_complex(n, e2r, e2i, s, ws + (size_t)L->piv2 * s);
}

/* Starting values: zero, or the collocation polynomial of the last accepted step (through
 * (0, 0), (c1, z1), (c2, z2), (1, z3) in units of its step h_cont) extrapolated to the new stages
 * x1 + c_i h (Hairer & Wanner IV.8, "starting values for the Newton iteration"). */
HD static inline void radau5_start_values(const Radau5Layout *L, double h, double *ws, long s) {
  int n = L->n;
  double *z = ws + (size_t)L->z * s;
  const double *cont = ws + (size_t)L->cont * s;
  if (R5_AT(ws, R5_FIRST, s) != 0 || R5_AT(ws, R5_HAVE_CONT, s) == 0) {
    for (int i = 0; i < 3 * n; i++)
      CHEM_AT(z, i, s) = 0;
    return;
  }
  double r = h / R5_AT(ws, R5_H_CONT, s), c[3] = {R5_C1, R5_C2, 1.0}, w[3][3];
  for (int i = 0; i < 3; i++) { /* Lagrange weights of z1, z2, z3 at x = 1 + c_i r */
    double x = 1.0 + c[i] * r;
    w[i][0] = x * (x - R5_C2) * (x - 1) / (R5_C1 * (R5_C1 - R5_C2) * (R5_C1 - 1));
    w[i][1] = x * (x - R5_C1) * (x - 1) / (R5_C2 * (R5_C2 - R5_C1) * (R5_C2 - 1));
    w[i][2] = x * (x - R5_C1) * (x - R5_C2) / ((1 - R5_C1) * (1 - R5_C2)) - 1.0; /* - z3: y1 */
  }
  for (int j = 0; j < n; j++) {
    double a = CHEM_AT(cont, j, s), b = CHEM_AT(cont, n + j, s), d = CHEM_AT(cont, 2 * n + j, s);
    for (int i = 0; i < 3; i++)
      CHEM_AT(z, (size_t)i * n + j, s) = w[i][0] * a + w[i][1] * b + w[i][2] * d;
  }
}

/* Simplified Newton on the transformed collocation system (8.4-8.6); convergence rate theta
 * and the stop eta ||dZ|| <= kappa (8.10-8.13). Returns the iterations used, or -1 (diverging,
 * too slow, or non-finite: the caller halves h). Updates THETA and ETA in ws. */
HD static inline int radau5_newton(const ChemMech *m, int mode, double par, const Radau5Layout *L,
                                   double h, double *ws, long s) {
  int n = L->n;
  double *y = ws + (size_t)L->y * s, *z = ws + (size_t)L->z * s, *f = ws + (size_t)L->f * s;
  double *tmp = ws + (size_t)L->tmp * s, *scal = ws + (size_t)L->scal * s;
  double *rw = ws + (size_t)L->rw * s;
  const double *e1 = ws + (size_t)L->lu * s, *e2r = e1 + (size_t)n * n * s;
  const double *e2i = e2r + (size_t)n * n * s;
  double eta = pow(fmax(R5_AT(ws, R5_ETA, s), DBL_EPSILON), 0.8); /* eta_0 from the last step */
  double theta = R5_AT(ws, R5_THETA, s), dn_old = 1.0;
  for (int it = 0; it < R5_NIT; it++) {
    for (int i = 0; i < 3; i++) { /* F_i = f(y + z_i) (the reactor ODE is autonomous) */
      for (int j = 0; j < n; j++)
        CHEM_AT(tmp, j, s) = CHEM_AT(y, j, s) + CHEM_AT(z, (size_t)i * n + j, s);
      chem_reactor_rhs(m, mode, par, tmp, s, f + (size_t)i * n * s, s, rw, s);
    }
    R5_AT(ws, R5_N_RHS, s) += 3;
    /* residuals in the eigenbasis: G - Lambda W / h with W = T^{-1} Z, G = T^{-1} F */
    for (int j = 0; j < n; j++) {
      double z1 = CHEM_AT(z, j, s), z2 = CHEM_AT(z, n + j, s), z3 = CHEM_AT(z, 2 * n + j, s);
      double f1 = CHEM_AT(f, j, s), f2 = CHEM_AT(f, n + j, s), f3 = CHEM_AT(f, 2 * n + j, s);
      double w1 = R5_TI11 * z1 + R5_TI12 * z2 + R5_TI13 * z3;
      double w2 = R5_TI21 * z1 + R5_TI22 * z2 + R5_TI23 * z3;
      double w3 = R5_TI31 * z1 + R5_TI32 * z2 + R5_TI33 * z3;
      double g1 = R5_TI11 * f1 + R5_TI12 * f2 + R5_TI13 * f3;
      double g2 = R5_TI21 * f1 + R5_TI22 * f2 + R5_TI23 * f3;
      double g3 = R5_TI31 * f1 + R5_TI32 * f2 + R5_TI33 * f3;
      CHEM_AT(f, j, s) = g1 - R5_GAMMA / h * w1;
      CHEM_AT(f, n + j, s) = g2 - (R5_ALPHA * w2 - R5_BETA * w3) / h;
      CHEM_AT(f, 2 * n + j, s) = g3 - (R5_BETA * w2 + R5_ALPHA * w3) / h;
    }
    radau5_solve_real(n, e1, s, ws + (size_t)L->piv1 * s, f, s);
    radau5_solve_complex(n, e2r, e2i, s, ws + (size_t)L->piv2 * s, f + (size_t)n * s,
                         f + (size_t)2 * n * s, s);
    /* dZ = T dW; Z += dZ */
    double dn = 0;
    for (int j = 0; j < n; j++) {
      double d1 = CHEM_AT(f, j, s), d2 = CHEM_AT(f, n + j, s), d3 = CHEM_AT(f, 2 * n + j, s);
      double dz1 = R5_T11 * d1 + R5_T12 * d2 + R5_T13 * d3;
      double dz2 = R5_T21 * d1 + R5_T22 * d2 + R5_T23 * d3;
      double dz3 = R5_T31 * d1 + R5_T32 * d2 + R5_T33 * d3;
      CHEM_AT(z, j, s) += dz1, CHEM_AT(z, n + j, s) += dz2, CHEM_AT(z, 2 * n + j, s) += dz3;
      double sc = CHEM_AT(scal, j, s);
      dn += (dz1 * dz1 + dz2 * dz2 + dz3 * dz3) / (sc * sc);
    }
    dn = sqrt(dn / (3 * n));
    if (!isfinite(dn)) return -1;
    if (it > 0) {
      theta = dn / dn_old; /* (8.10) */
      if (theta >= 0.99) return -1;
      eta = theta / (1 - theta);
      /* predicted error after the remaining iterations too large (8.11) */
      if (eta * dn * pow(theta, R5_NIT - 1 - it) > R5_KAPPA) return -1;
    }
    dn_old = fmax(dn, DBL_EPSILON);
    if (eta * dn <= R5_KAPPA) { /* (8.12) */
      R5_AT(ws, R5_THETA, s) = theta;
      R5_AT(ws, R5_ETA, s) = eta;
      return it + 1;
    }
  }
  return -1;
}

/* Embedded error estimate (8.19) filtered by (I - h gamma0 J)^{-1} (8.20); with gamma0 = 1/gamma
 * that is err = E1^{-1} (f0 + gamma/h sum e_i z_i). For the first step and after a rejection a
 * large estimate is recomputed with f(y0 + err) in place of f0. Returns the scaled rms norm. */
HD static inline double radau5_error(const ChemMech *m, int mode, double par, const Radau5Layout *L,
                                     double h, double rtol, double atol, double *ws, long s) {
  int n = L->n;
  double *y = ws + (size_t)L->y * s, *z = ws + (size_t)L->z * s, *f = ws + (size_t)L->f * s;
  double *f0 = ws + (size_t)L->f0 * s, *tmp = ws + (size_t)L->tmp * s;
  double *scal = ws + (size_t)L->scal * s, *rw = ws + (size_t)L->rw * s;
  const double *e1 = ws + (size_t)L->lu * s, *piv1 = ws + (size_t)L->piv1 * s;
  double *q = f, *err = f + (size_t)n * s, *f1 = f + (size_t)2 * n * s;
  for (int j = 0; j < n; j++) {
    double zs =
        R5_E1 * CHEM_AT(z, j, s) + R5_E2 * CHEM_AT(z, n + j, s) + R5_E3 * CHEM_AT(z, 2 * n + j, s);
    CHEM_AT(q, j, s) = R5_GAMMA / h * zs;
    CHEM_AT(err, j, s) = CHEM_AT(f0, j, s) + CHEM_AT(q, j, s);
    /* error scale with max(|y0|, |y1|) */
    double y0 = fabs(CHEM_AT(y, j, s)), y1 = fabs(CHEM_AT(y, j, s) + CHEM_AT(z, 2 * n + j, s));
    CHEM_AT(scal, j, s) = atol + rtol * (y0 > y1 ? y0 : y1);
  }
  radau5_solve_real(n, e1, s, piv1, err, s);
  double e = 0;
  for (int j = 0; j < n; j++) {
    double v = CHEM_AT(err, j, s) / CHEM_AT(scal, j, s);
    e += v * v;
  }
  e = sqrt(e / n);
  if (e >= 1 && (R5_AT(ws, R5_FIRST, s) != 0 || R5_AT(ws, R5_REJECTED, s) != 0)) {
    for (int j = 0; j < n; j++)
      CHEM_AT(tmp, j, s) = CHEM_AT(y, j, s) + CHEM_AT(err, j, s);
    chem_reactor_rhs(m, mode, par, tmp, s, f1, s, rw, s);
    R5_AT(ws, R5_N_RHS, s) += 1;
    for (int j = 0; j < n; j++)
      CHEM_AT(err, j, s) = CHEM_AT(f1, j, s) + CHEM_AT(q, j, s);
    radau5_solve_real(n, e1, s, piv1, err, s);
    e = 0;
    for (int j = 0; j < n; j++) {
      double v = CHEM_AT(err, j, s) / CHEM_AT(scal, j, s);
      e += v * v;
    }
    e = sqrt(e / n);
  }
  return isfinite(e) ? fmax(e, 1e-10) : 1e300;
}

/* ---- the driver ---- */

/* The start every integrator shares: n_scalars slots zeroed, y (n values at offset y_at) from
 * y0, the common slots (t0, tend, the first step, the status: a non-finite y0 fails at once). */
HD static inline void chem_ws_start(int n_scalars, long y_at, int n, double t0, double tend,
                                    const double *y0, long sy, double *ws, long s,
                                    const ChemIntegratorOptions *o) {
  for (int i = 0; i < n_scalars; i++)
    CHEM_AT(ws, i, s) = 0;
  int finite = 1;
  for (int j = 0; j < n; j++) {
    double v = CHEM_AT(y0, j, sy);
    CHEM_AT(ws, y_at + j, s) = v;
    if (!isfinite(v)) finite = 0;
  }
  double h = o->h_init > 0 ? o->h_init : 1e-6;
  if (h > tend - t0) h = tend - t0;
  CHEM_AT(ws, CHEM_WS_T, s) = t0;
  CHEM_AT(ws, CHEM_WS_TEND, s) = tend;
  CHEM_AT(ws, CHEM_WS_H, s) = h;
  CHEM_AT(ws, CHEM_WS_STATUS, s) =
      !finite ? CHEM_FAIL_STATE : (tend > t0 ? CHEM_ACTIVE : CHEM_DONE);
}

/* The checks every integrator makes before a step attempt: tend reached (CHEM_DONE), the step
 * cap, step-size underflow; else the attempt is counted, *last says whether it lands on tend (h
 * then shortened to tend - t: no sliver step) and CHEM_ACTIVE is returned. */
HD static inline int chem_ws_begin_step(double *ws, long s, const ChemIntegratorOptions *o,
                                        double *h, int *last) {
  double t = CHEM_AT(ws, CHEM_WS_T, s), tend = CHEM_AT(ws, CHEM_WS_TEND, s);
  if (t >= tend) return CHEM_DONE;
  if (CHEM_AT(ws, CHEM_WS_N_STEPS, s) >= o->max_steps) return CHEM_FAIL_STEPS;
  if (!(*h >= 1e-20 && *h >= 10 * DBL_EPSILON * fabs(t))) return CHEM_FAIL_STEP_SIZE;
  *last = t + 1.01 * *h >= tend;
  if (*last) *h = tend - t;
  CHEM_AT(ws, CHEM_WS_N_STEPS, s) += 1;
  return CHEM_ACTIVE;
}

HD static inline void radau5_init(const ChemMech *m, int mode, double par, double t0, double tend,
                                  const double *y0, long sy, double *ws, long s,
                                  const ChemIntegratorOptions *o) {
  (void)mode, (void)par;
  Radau5Layout L = radau5_layout(m);
  chem_ws_start(R5_N_SCALARS, L.y, L.n, t0, tend, y0, sy, ws, s, o);
  R5_AT(ws, R5_THETA, s) = 1.0; /* forces the first Jacobian */
  R5_AT(ws, R5_ETA, s) = 1.0;
  R5_AT(ws, R5_FIRST, s) = 1;
  R5_AT(ws, R5_NEED_JAC, s) = 1;
}

/* Accept the step: y += z3, t += h, keep Z for the starting values, choose the next h with the
 * standard and the predictive controller (8.25); keep J while theta <= theta_min and the LU
 * while the new h would stay within [1, 1.2] h. */
HD static inline void radau5_accept(const Radau5Layout *L, double err, double hnew, double *ws,
                                    long s, double *h) {
  int n = L->n;
  double *y = ws + (size_t)L->y * s, *z = ws + (size_t)L->z * s, *cont = ws + (size_t)L->cont * s;
  double hh = *h;
  if (R5_AT(ws, R5_N_ACCEPT, s) > 0) { /* Gustafsson's predictive controller (8.25) */
    double fgus =
        R5_AT(ws, R5_H_ACC, s) / hh * pow(err * err / R5_AT(ws, R5_ERR_ACC, s), 0.25) / R5_SAFE;
    fgus = fmin(1 / R5_QMIN, fmax(1 / R5_QMAX, fgus)); /* h / h_new */
    double hg = hh / fgus;
    if (hg < hnew) hnew = hg;
  }
  R5_AT(ws, R5_H_ACC, s) = hh;
  R5_AT(ws, R5_ERR_ACC, s) = fmax(1e-2, err);
  for (int j = 0; j < n; j++)
    CHEM_AT(y, j, s) += CHEM_AT(z, 2 * n + j, s);
  for (int i = 0; i < 3 * n; i++)
    CHEM_AT(cont, i, s) = CHEM_AT(z, i, s);
  R5_AT(ws, R5_H_CONT, s) = hh;
  R5_AT(ws, R5_HAVE_CONT, s) = 1;
  R5_AT(ws, R5_T, s) += hh;
  R5_AT(ws, R5_N_ACCEPT, s) += 1;
  if (R5_AT(ws, R5_REJECTED, s) != 0 && hnew > hh) hnew = hh; /* no growth right after a reject */
  R5_AT(ws, R5_REJECTED, s) = 0;
  R5_AT(ws, R5_FIRST, s) = 0;
  R5_AT(ws, R5_F0_VALID, s) = 0;
  R5_AT(ws, R5_JAC_FRESH, s) = 0;
  int keep_jac = R5_AT(ws, R5_THETA, s) <= R5_THETA_MIN;
  double q = hnew / hh;
  if (!(keep_jac && q >= R5_KEEP_LO && q <= R5_KEEP_HI)) *h = hnew;
  if (!keep_jac) R5_AT(ws, R5_NEED_JAC, s) = 1;
}

/* Advance by at most max_steps_now step attempts; returns the status (CHEM_ACTIVE: not done). */
HD static inline int radau5_advance(const ChemMech *m, int mode, double par, int max_steps_now,
                                    double *ws, long s, const ChemIntegratorOptions *o) {
  int status = (int)R5_AT(ws, R5_STATUS, s);
  if (status != CHEM_ACTIVE) return status;
  Radau5Layout L = radau5_layout(m);
  int n = L.n;
  double *y = ws + (size_t)L.y * s, *f0 = ws + (size_t)L.f0 * s, *scal = ws + (size_t)L.scal * s;
  double *rw = ws + (size_t)L.rw * s;
  double h = R5_AT(ws, R5_H, s), tend = R5_AT(ws, R5_TEND, s);
  for (int attempt = 0; attempt < max_steps_now; attempt++) {
    int last = 0;
    status = chem_ws_begin_step(ws, s, o, &h, &last);
    if (status != CHEM_ACTIVE) break;
    if (R5_AT(ws, R5_F0_VALID, s) == 0) { /* f(y0): the error estimate's first term */
      chem_reactor_rhs(m, mode, par, y, s, f0, s, rw, s);
      R5_AT(ws, R5_N_RHS, s) += 1;
      int finite = 1;
      for (int j = 0; j < n; j++)
        finite &= isfinite(CHEM_AT(f0, j, s)) != 0;
      if (!finite) {
        status = CHEM_FAIL_STATE;
        break;
      }
      R5_AT(ws, R5_F0_VALID, s) = 1;
    }
    if (R5_AT(ws, R5_NEED_JAC, s) != 0) { /* the scratch of the Jacobian is the LU storage */
      chem_reactor_jac(m, mode, par, y, s, ws + (size_t)L.jac * s, s, ws + (size_t)L.lu * s, s);
      R5_AT(ws, R5_N_JAC, s) += 1;
      R5_AT(ws, R5_NEED_JAC, s) = 0;
      R5_AT(ws, R5_JAC_FRESH, s) = 1;
      R5_AT(ws, R5_H_LU, s) = 0;
    }
    if (R5_AT(ws, R5_H_LU, s) != h) {
      R5_AT(ws, R5_N_LU, s) += 1;
      if (radau5_decompose(&L, h, ws, s)) {
        R5_AT(ws, R5_H_LU, s) = 0;
        if ((R5_AT(ws, R5_N_SINGULAR, s) += 1) > 5) {
          status = CHEM_FAIL_SINGULAR;
          break;
        }
        h *= 0.5, R5_AT(ws, R5_REJECTED, s) = 1;
        continue;
      }
      R5_AT(ws, R5_H_LU, s) = h;
      R5_AT(ws, R5_N_SINGULAR, s) = 0;
    }
    radau5_start_values(&L, h, ws, s);
    for (int j = 0; j < n; j++)
      CHEM_AT(scal, j, s) = o->atol + o->rtol * fabs(CHEM_AT(y, j, s));
    int newt = radau5_newton(m, mode, par, &L, h, ws, s);
    if (newt < 0) { /* Newton failed: halve h, with a fresh Jacobian if this one is old */
      h *= 0.5;
      R5_AT(ws, R5_REJECTED, s) = 1;
      if (R5_AT(ws, R5_JAC_FRESH, s) == 0) R5_AT(ws, R5_NEED_JAC, s) = 1;
      continue;
    }
    double err = radau5_error(m, mode, par, &L, h, o->rtol, o->atol, ws, s);
    /* safety factor smaller when Newton needed many iterations (Hairer & Wanner IV.8) */
    double fac = fmin(R5_SAFE, R5_SAFE * (2 * R5_NIT + 1) / (newt + 2 * R5_NIT));
    double quot = fmax(R5_QMIN, fmin(R5_QMAX, fac * pow(err, -0.25))); /* h_new / h */
    double hnew = h * quot;
    if (err < 1) {
      radau5_accept(&L, err, hnew, ws, s, &h);
      if (last) R5_AT(ws, R5_T, s) = tend; /* exactly, whatever t + (tend - t) rounds to */
    } else {
      R5_AT(ws, R5_N_REJECT, s) += 1;
      h = R5_AT(ws, R5_FIRST, s) != 0 ? 0.1 * h : hnew;
      R5_AT(ws, R5_REJECTED, s) = 1;
      if (R5_AT(ws, R5_JAC_FRESH, s) == 0) R5_AT(ws, R5_NEED_JAC, s) = 1;
    }
  }
  if (status == CHEM_ACTIVE && R5_AT(ws, R5_T, s) >= tend) status = CHEM_DONE;
  R5_AT(ws, R5_H, s) = h;
  R5_AT(ws, R5_STATUS, s) = status;
  return status;
}

#endif
