/* RODAS, the stiffly accurate, L-stable Rosenbrock method of order 4 (embedded order 3, six
 * stages) for the stiff reactor ODE (chem/reactor.h): one real LU of (1/(h gamma) I - J) per step
 * against Radau5's real and complex ones, and no Newton iteration. Same interface and design as
 * chem/radau5.h (resumable, every piece of state in a strided workspace, the same options,
 * statuses and strides), so that a kernel switches integrators by name.
 *
 * Method: Hairer & Wanner, Solving ODEs II, 2nd ed., sec. IV.7, in the transformed variables
 * u_i = sum_j gamma_ij k_j of (7.25), so that each stage is one solve with the factored matrix:
 *   (1/(h gamma) I - J) u_i = f(y0 + sum_{j<i} a_ij u_j) + sum_{j<i} (c_ij / h) u_j,
 *   y1 = y0 + sum_i m_i u_i,  err = sum_i e_i u_i.
 * The reactor ODE is autonomous, so the f_t terms (gamma_i h df/dt) vanish and the nodes alpha_i
 * are not needed. Coefficients: RODAS of Hairer & Wanner (sec. VI.4 there) in this form, as
 * tabulated for "Rodas4" by Sandu et al., Atmos. Environ. 31 (1997) 3459, Table (Rosenbrock
 * methods). Checked when written: back-transformed (alpha = A Gamma, b = m Gamma) they satisfy
 * the eight order-4 conditions of Hairer & Wanner Table IV.7.1 to 2e-16, the embedded formula
 * (m - e) those of order 3, and R(z) -> 0 as z -> -inf. The method is stiffly accurate: the last
 * row of a is m without its last entry, so y1 = (argument of stage 6) + u6 and err = u6.
 *
 * Step sizes: h_new = h min(6, max(0.2, 0.9 err^{-1/4})) with the rms norm of err scaled by
 * atol + rtol max(|y0|, |y1|) (Hairer & Wanner IV.7, "Step size selection"); no growth on the
 * step right after a rejection. A rejected step keeps f(y0) and the Jacobian (same y0) and only
 * refactors. Workspace: rodas_ws_doubles(m) doubles per cell, element i at ws[i*s] (CPU: s = 1;
 * GPU: s = number of cells); counters and pivots stored as doubles.
 *
 * Use: rodas_init(...) once, then rodas_advance(...) until it returns something other than
 * CHEM_ACTIVE (it also stops, returning CHEM_ACTIVE, after max_steps_now step attempts). On
 * failure y keeps the last accepted state and t its time. No malloc, no recursion, no function
 * pointers: callable in CUDA kernels. */
#ifndef HEXDG_CHEM_RODAS_H
#define HEXDG_CHEM_RODAS_H

#include <float.h>
#include <math.h>
#include <stddef.h>

#include "chem/radau5.h"
#include "chem/reactor.h"

/* scalar slots at the head of the workspace */
enum {
  RODAS_T = CHEM_WS_T, /* the common slots (radau5.h), then its own */
  RODAS_TEND = CHEM_WS_TEND,
  RODAS_H = CHEM_WS_H,
  RODAS_STATUS = CHEM_WS_STATUS,
  RODAS_N_STEPS = CHEM_WS_N_STEPS,
  RODAS_N_ACCEPT = CHEM_WS_N_ACCEPT,
  RODAS_N_REJECT = CHEM_WS_N_REJECT,
  RODAS_N_JAC = CHEM_WS_N_JAC,
  RODAS_N_LU = CHEM_WS_N_LU,
  RODAS_N_RHS = CHEM_WS_N_RHS,
  RODAS_REJECTED =
      CHEM_WS_N_COMMON, /* the last attempt was rejected: no growth on the next accepted step */
  RODAS_N_SINGULAR,     /* successive singular matrices */
  RODAS_HAVE_JAC,       /* f(y0) and J(y0) are those of the current y0 */
  RODAS_N_SCALARS
};

/* Rodas4 (Sandu et al. 1997; Hairer & Wanner's RODAS), transformed form (7.25) */
#define RODAS_GAMMA 0.25
#define RODAS_A21 1.544
#define RODAS_A31 0.9466785280815826
#define RODAS_A32 0.2557011698983284
#define RODAS_A41 3.314825187068521
#define RODAS_A42 2.896124015972201
#define RODAS_A43 0.9986419139977817
#define RODAS_A51 1.221224509226641
#define RODAS_A52 6.019134481288629
#define RODAS_A53 12.53708332932087
#define RODAS_A54 (-0.6878860361058950)
/* a6j = a5j (j < 5), a65 = 1; m = (a51, a52, a53, a54, 1, 1); e = (0, 0, 0, 0, 0, 1) */
#define RODAS_C21 (-5.6688)
#define RODAS_C31 (-2.430093356833875)
#define RODAS_C32 (-0.2063599157091915)
#define RODAS_C41 (-0.1073529058151375)
#define RODAS_C42 (-9.594562251023355)
#define RODAS_C43 (-20.47028614809616)
#define RODAS_C51 7.496443313967647
#define RODAS_C52 (-10.24680431464352)
#define RODAS_C53 (-33.99990352819905)
#define RODAS_C54 11.70890893206160
#define RODAS_C61 8.083246795921522
#define RODAS_C62 (-7.981132988064893)
#define RODAS_C63 (-31.52159432874371)
#define RODAS_C64 16.31930543123136
#define RODAS_C65 (-6.058818238834054)

/* step-size control (Hairer & Wanner IV.7: facmin, facmax, safety) */
#define RODAS_SAFE 0.9
#define RODAS_QMIN 0.2
#define RODAS_QMAX 6.0

#define RODAS_AT(ws, i, s) CHEM_AT(ws, i, s)

/* offsets (in elements, multiply by s) of the arrays in the workspace */
typedef struct {
  int n;
  long y, f0, u, arg, piv, jac, lu, rw, total;
} RodasLayout;

HD static inline RodasLayout rodas_layout(const ChemMech *m) {
  RodasLayout L;
  long n = m->n_species + 1, n2 = n * n, jw = chem_reactor_work(m);
  L.n = (int)n;
  L.y = RODAS_N_SCALARS;
  L.f0 = L.y + n;      /* f(y0), kept through rejected steps */
  L.u = L.f0 + n;      /* stage increments u_1..u_6, 6n */
  L.arg = L.u + 6 * n; /* stage argument y0 + sum a_ij u_j */
  L.piv = L.arg + n;
  L.jac = L.piv + n;
  L.lu = L.jac + n2; /* the Jacobian's scratch overlaps the LU */
  L.rw = L.lu + (n2 > jw ? n2 : jw);
  L.total = L.rw + chem_reactor_rhs_work(m);
  return L;
}

/* workspace doubles per cell */
HD static inline size_t rodas_ws_doubles(const ChemMech *m) {
  return (size_t)rodas_layout(m).total;
}

/* accessors */
HD static inline double *rodas_y(const ChemMech *m, double *ws, long s) {
  return ws + (size_t)rodas_layout(m).y * s;
}

/* ---- pieces of a step ---- */

/* a_ij and c_ij (0-based, j < i), 0 elsewhere; a switch rather than a table so that the device
 * code needs no constant memory */
HD static inline double rodas_a(int i, int j) {
  switch (i * 8 + j) {
  case 8:
    return RODAS_A21;
  case 16:
    return RODAS_A31;
  case 17:
    return RODAS_A32;
  case 24:
    return RODAS_A41;
  case 25:
    return RODAS_A42;
  case 26:
    return RODAS_A43;
  case 32:
  case 40:
    return RODAS_A51;
  case 33:
  case 41:
    return RODAS_A52;
  case 34:
  case 42:
    return RODAS_A53;
  case 35:
  case 43:
    return RODAS_A54;
  case 44:
    return 1.0;
  default:
    return 0.0;
  }
}

HD static inline double rodas_c(int i, int j) {
  switch (i * 8 + j) {
  case 8:
    return RODAS_C21;
  case 16:
    return RODAS_C31;
  case 17:
    return RODAS_C32;
  case 24:
    return RODAS_C41;
  case 25:
    return RODAS_C42;
  case 26:
    return RODAS_C43;
  case 32:
    return RODAS_C51;
  case 33:
    return RODAS_C52;
  case 34:
    return RODAS_C53;
  case 35:
    return RODAS_C54;
  case 40:
    return RODAS_C61;
  case 41:
    return RODAS_C62;
  case 42:
    return RODAS_C63;
  case 43:
    return RODAS_C64;
  case 44:
    return RODAS_C65;
  default:
    return 0.0;
  }
}

/* sum_{k<i} w_k u_k[j]: the terms beyond stage i are skipped (not multiplied by zero: the
 * increments of later stages may hold anything, a non-finite value included) */
HD static inline double rodas_combine(const double *u, int n, long s, int j, int i, double w1,
                                      double w2, double w3, double w4, double w5) {
  double v = 0;
  if (i > 0) v += w1 * CHEM_AT(u, j, s);
  if (i > 1) v += w2 * CHEM_AT(u, (size_t)n + j, s);
  if (i > 2) v += w3 * CHEM_AT(u, (size_t)2 * n + j, s);
  if (i > 3) v += w4 * CHEM_AT(u, (size_t)3 * n + j, s);
  if (i > 4) v += w5 * CHEM_AT(u, (size_t)4 * n + j, s);
  return v;
}

/* 1/(h gamma) I - J, factored; 1 if singular */
HD static inline int rodas_decompose(const RodasLayout *L, double h, double *ws, long s) {
  int n = L->n;
  const double *J = ws + (size_t)L->jac * s;
  double *e = ws + (size_t)L->lu * s, d = 1.0 / (h * RODAS_GAMMA);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      size_t ij = (size_t)i * n + j;
      CHEM_AT(e, ij, s) = (i == j ? d : 0.0) - CHEM_AT(J, ij, s);
    }
  return radau5_lu_real(n, e, s, ws + (size_t)L->piv * s);
}

/* Stage i (0-based, 1..5): arg = y0 + sum_{j<i} a_ij u_j, u_i = solve(f(arg) + sum c_ij/h u_j) */
HD static inline void rodas_stage(const ChemMech *m, int mode, double par, const RodasLayout *L,
                                  double h, int i, double a1, double a2, double a3, double a4,
                                  double a5, double c1, double c2, double c3, double c4, double c5,
                                  double *ws, long s) {
  int n = L->n;
  const double *y = ws + (size_t)L->y * s;
  double *u = ws + (size_t)L->u * s, *ui = u + (size_t)i * n * s, *arg = ws + (size_t)L->arg * s;
  for (int j = 0; j < n; j++)
    CHEM_AT(arg, j, s) = CHEM_AT(y, j, s) + rodas_combine(u, n, s, j, i, a1, a2, a3, a4, a5);
  chem_reactor_rhs(m, mode, par, arg, s, ui, s, ws + (size_t)L->rw * s, s);
  double ih = 1.0 / h;
  for (int j = 0; j < n; j++)
    CHEM_AT(ui, j, s) += rodas_combine(u, n, s, j, i, c1 * ih, c2 * ih, c3 * ih, c4 * ih, c5 * ih);
  radau5_solve_real(n, ws + (size_t)L->lu * s, s, ws + (size_t)L->piv * s, ui, s);
}

/* The six stages; on return arg holds the embedded (order-3) solution y0 + sum a_6j u_j and
 * u_6 the error estimate, y1 = arg + u_6. Returns the scaled rms norm of u_6 (1e300 if not
 * finite). */
HD static inline double rodas_step(const ChemMech *m, int mode, double par, const RodasLayout *L,
                                   double h, double rtol, double atol, double *ws, long s) {
  int n = L->n;
  const double *y = ws + (size_t)L->y * s, *f0 = ws + (size_t)L->f0 * s;
  double *u = ws + (size_t)L->u * s, *arg = ws + (size_t)L->arg * s;
  for (int j = 0; j < n; j++) /* stage 1: f(y0) is known */
    CHEM_AT(u, j, s) = CHEM_AT(f0, j, s);
  radau5_solve_real(n, ws + (size_t)L->lu * s, s, ws + (size_t)L->piv * s, u, s);
  for (int i = 1; i < 6; i++) /* a loop, not six calls: one inlined copy of the rhs on the GPU */
    rodas_stage(m, mode, par, L, h, i, rodas_a(i, 0), rodas_a(i, 1), rodas_a(i, 2), rodas_a(i, 3),
                rodas_a(i, 4), rodas_c(i, 0), rodas_c(i, 1), rodas_c(i, 2), rodas_c(i, 3),
                rodas_c(i, 4), ws, s);
  RODAS_AT(ws, RODAS_N_RHS, s) += 5;
  const double *u6 = u + (size_t)5 * n * s;
  double e = 0;
  for (int j = 0; j < n; j++) {
    double d = CHEM_AT(u6, j, s), y0 = fabs(CHEM_AT(y, j, s));
    double y1 = fabs(CHEM_AT(arg, j, s) + d), sc = atol + rtol * (y0 > y1 ? y0 : y1);
    e += (d / sc) * (d / sc);
  }
  e = sqrt(e / n);
  return isfinite(e) ? fmax(e, 1e-10) : 1e300;
}

/* ---- the driver ---- */

HD static inline void rodas_init(const ChemMech *m, int mode, double par, double t0, double tend,
                                 const double *y0, long sy, double *ws, long s,
                                 const ChemIntegratorOptions *o) {
  (void)mode, (void)par;
  RodasLayout L = rodas_layout(m);
  chem_ws_start(RODAS_N_SCALARS, L.y, L.n, t0, tend, y0, sy, ws, s, o);
}

/* f(y0) and J(y0) at a new accepted state; 1 if f(y0) is not finite */
HD static inline int rodas_new_state(const ChemMech *m, int mode, double par, const RodasLayout *L,
                                     double *ws, long s) {
  int n = L->n, finite = 1;
  double *y = ws + (size_t)L->y * s, *f0 = ws + (size_t)L->f0 * s;
  chem_reactor_rhs(m, mode, par, y, s, f0, s, ws + (size_t)L->rw * s, s);
  RODAS_AT(ws, RODAS_N_RHS, s) += 1;
  for (int j = 0; j < n; j++)
    finite &= isfinite(CHEM_AT(f0, j, s)) != 0;
  if (!finite) return 1;
  /* the scratch of the Jacobian is the LU storage */
  chem_reactor_jac(m, mode, par, y, s, ws + (size_t)L->jac * s, s, ws + (size_t)L->lu * s, s);
  RODAS_AT(ws, RODAS_N_JAC, s) += 1;
  RODAS_AT(ws, RODAS_HAVE_JAC, s) = 1;
  return 0;
}

/* Advance by at most max_steps_now step attempts; returns the status (CHEM_ACTIVE: not done). */
HD static inline int rodas_advance(const ChemMech *m, int mode, double par, int max_steps_now,
                                   double *ws, long s, const ChemIntegratorOptions *o) {
  int status = (int)RODAS_AT(ws, RODAS_STATUS, s);
  if (status != CHEM_ACTIVE) return status;
  RodasLayout L = rodas_layout(m);
  int n = L.n;
  double *y = ws + (size_t)L.y * s, *arg = ws + (size_t)L.arg * s;
  const double *u6 = ws + (size_t)(L.u + 5 * n) * s;
  double h = RODAS_AT(ws, RODAS_H, s), tend = RODAS_AT(ws, RODAS_TEND, s);
  for (int attempt = 0; attempt < max_steps_now; attempt++) {
    double t = RODAS_AT(ws, RODAS_T, s);
    int last = 0;
    status = chem_ws_begin_step(ws, s, o, &h, &last);
    if (status != CHEM_ACTIVE) break;
    if (RODAS_AT(ws, RODAS_HAVE_JAC, s) == 0 && rodas_new_state(m, mode, par, &L, ws, s)) {
      status = CHEM_FAIL_STATE;
      break;
    }
    RODAS_AT(ws, RODAS_N_LU, s) += 1;
    if (rodas_decompose(&L, h, ws, s)) {
      if ((RODAS_AT(ws, RODAS_N_SINGULAR, s) += 1) > 5) {
        status = CHEM_FAIL_SINGULAR;
        break;
      }
      h *= 0.5, RODAS_AT(ws, RODAS_REJECTED, s) = 1;
      continue;
    }
    RODAS_AT(ws, RODAS_N_SINGULAR, s) = 0;
    double err = rodas_step(m, mode, par, &L, h, o->rtol, o->atol, ws, s);
    double hnew = h * fmax(RODAS_QMIN, fmin(RODAS_QMAX, RODAS_SAFE * pow(err, -0.25)));
    if (err <= 1) { /* accept: y1 = embedded solution + u6 */
      for (int j = 0; j < n; j++)
        CHEM_AT(y, j, s) = CHEM_AT(arg, j, s) + CHEM_AT(u6, j, s);
      RODAS_AT(ws, RODAS_T, s) = last ? tend : t + h; /* exactly tend on the last step */
      RODAS_AT(ws, RODAS_N_ACCEPT, s) += 1;
      RODAS_AT(ws, RODAS_HAVE_JAC, s) = 0;
      if (RODAS_AT(ws, RODAS_REJECTED, s) != 0 && hnew > h) hnew = h;
      RODAS_AT(ws, RODAS_REJECTED, s) = 0;
    } else { /* reject: y0, f(y0) and J(y0) stay */
      RODAS_AT(ws, RODAS_N_REJECT, s) += 1;
      RODAS_AT(ws, RODAS_REJECTED, s) = 1;
    }
    h = hnew;
  }
  if (status == CHEM_ACTIVE && RODAS_AT(ws, RODAS_T, s) >= tend) status = CHEM_DONE;
  RODAS_AT(ws, RODAS_H, s) = h;
  RODAS_AT(ws, RODAS_STATUS, s) = status;
  return status;
}

#endif
