/* Chemical equilibrium by element potentials (see equil.h). Notation of Gordon & McBride, NASA
 * RP-1311 (1994), ch. 2: n_j kmol of species j per kg of mixture, n the total moles (a separate
 * unknown at fixed p), b_i the kmol of element i per kg, pi_i the element potentials (divided by
 * RT), mu_j the chemical potential divided by RT. */
#include "chem/equil.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chem/thermo.h"
#include "core/error.h"

#define EQ_MAX_ROWS (CHEM_MAX_ELEMENTS + 1)
#define EQ_MAX_NEWTON 400
/* RP-1311 sec. 3.3: a species with n_j/n below 1e-8 is "trace"; a trace species may rise at most to
 * n_j/n = 1e-4 per iteration, the others change ln(n_j) by at most 2 */
#define EQ_LN_TRACE (-18.420680743952367)
#define EQ_LN_TRACE_CAP (-9.2103403719761836)
#define EQ_LN_FLOOR (-690.0)

typedef struct EqSystem {
  const ChemMech *m;
  int n_sp, n_el; /* active species and elements */
  int *sp;        /* [n_sp] mechanism index of each active species */
  double *a;      /* [n_sp*n_el] atoms of active element i in active species j at j*n_el + i */
  double b0[CHEM_MAX_ELEMENTS]; /* element totals of the input, kmol/kg */
  double *g;                    /* [n_sp] g_j/RT at p_atm and the current T */
  double *ln_n;                 /* [n_sp] ln(n_j) */
  double *dln_n;                /* [n_sp] Newton update */
  double ln_ntot;               /* ln(n), the total-moles unknown at fixed p */
  int fixed_v;                  /* 0: (T, p) fixed; 1: (T, v) fixed */
  double T, p, v;
  int started; /* ln_n holds a previous solution (a warm start) */
} EqSystem;

static void eq_free(EqSystem *s) {
  free(s->sp);
  free(s->a);
  free(s->g);
  free(s->ln_n);
  free(s->dln_n);
}

/* The element totals b_i = sum_k a_ki Y_k / W_k; the active elements are those with b_i > 0 and the
 * active species those made of active elements only. */
static int eq_setup(const ChemMech *m, const double *Y, EqSystem *s) {
  int ns = m->n_species, ne = m->n_elements;
  memset(s, 0, sizeof *s);
  s->m = m;
  double b[CHEM_MAX_ELEMENTS];
  chem_element_totals(m, Y, 1, b);
  int map[CHEM_MAX_ELEMENTS];
  for (int e = 0; e < ne; e++) {
    map[e] = -1;
    if (b[e] > 0) {
      map[e] = s->n_el;
      s->b0[s->n_el] = b[e];
      s->n_el++;
    }
  }
  s->sp = hx_malloc(sizeof(int) * (size_t)ns, "equilibrium species list");
  s->a = hx_calloc((size_t)ns * (size_t)(s->n_el ? s->n_el : 1), sizeof(double),
                   "equilibrium element matrix");
  s->g = hx_malloc(sizeof(double) * (size_t)ns, "equilibrium g/RT");
  s->ln_n = hx_malloc(sizeof(double) * (size_t)ns, "equilibrium ln(n)");
  s->dln_n = hx_malloc(sizeof(double) * (size_t)ns, "equilibrium ln(n) update");
  if (!s->sp || !s->a || !s->g || !s->ln_n || !s->dln_n) return HX_ERR_MEM;
  for (int k = 0; k < ns; k++) {
    int ok = 1, any = 0;
    for (int e = 0; e < ne; e++) {
      double c = m->elem_comp[k * ne + e];
      if (c != 0 && map[e] < 0) ok = 0;
      if (c != 0) any = 1;
    }
    if (!ok || !any) continue;
    for (int e = 0; e < ne; e++)
      if (map[e] >= 0) s->a[s->n_sp * s->n_el + map[e]] = m->elem_comp[k * ne + e];
    s->sp[s->n_sp++] = k;
  }
  return HX_OK;
}

/* RP-1311 sec. 3.2: n = 0.1 kmol/kg shared equally by the species, a start free of any bias */
static void eq_start_uniform(EqSystem *s) {
  s->ln_ntot = log(0.1);
  for (int j = 0; j < s->n_sp; j++)
    s->ln_n[j] = log(0.1 / s->n_sp);
  s->started = 1;
}

static void eq_set_T(EqSystem *s, double T) {
  s->T = T;
  for (int j = 0; j < s->n_sp; j++)
    s->g[j] = chem_g_RT(s->m, s->sp[j], T);
}

/* Gaussian elimination with row equilibration and partial pivoting, n <= EQ_MAX_ROWS; 1 if singular
 */
static int eq_linear_solve(int n, double A[EQ_MAX_ROWS][EQ_MAX_ROWS], double *x) {
  for (int r = 0; r < n; r++) {
    double big = 0;
    for (int c = 0; c < n; c++)
      big = fmax(big, fabs(A[r][c]));
    if (!(big > 0) || !isfinite(big)) return 1;
    for (int c = 0; c < n; c++)
      A[r][c] /= big;
    x[r] /= big;
  }
  for (int c = 0; c < n; c++) {
    int piv = c;
    for (int r = c + 1; r < n; r++)
      if (fabs(A[r][c]) > fabs(A[piv][c])) piv = r;
    if (!(fabs(A[piv][c]) > 1e-300)) return 1;
    if (piv != c) {
      for (int k = 0; k < n; k++) {
        double t = A[c][k];
        A[c][k] = A[piv][k];
        A[piv][k] = t;
      }
      double t = x[c];
      x[c] = x[piv];
      x[piv] = t;
    }
    for (int r = c + 1; r < n; r++) {
      double f = A[r][c] / A[c][c];
      if (f == 0) continue;
      for (int k = c; k < n; k++)
        A[r][k] -= f * A[c][k];
      x[r] -= f * x[c];
    }
  }
  for (int r = n - 1; r >= 0; r--) {
    double t = x[r];
    for (int k = r + 1; k < n; k++)
      t -= A[r][k] * x[k];
    x[r] = t / A[r][r];
  }
  return 0;
}

/* ln(p_j / p_atm) - ln(n_j): the pressure term of mu_j/RT, from p and n (fixed p) or from n_j R T /
 * v */
static double eq_pressure_term(const EqSystem *s) {
  if (s->fixed_v) return log(CHEM_R * s->T / (s->v * CHEM_P_ATM));
  return log(s->p / CHEM_P_ATM) - s->ln_ntot;
}

/* One Newton iteration (RP-1311 eqs. 2.24 and 2.26 at fixed T; at fixed v the total-moles unknown
 * and eq. 2.26 drop out, sec. 2.5). Returns the convergence measures: the largest weighted change
 * n_j |dln n_j| / sum n and the largest relative element imbalance. 1 if the matrix is singular. */
static int eq_newton_step(EqSystem *s, double *change, double *imbalance) {
  int E = s->n_el, N = s->n_sp, n = s->fixed_v ? E : E + 1;
  double A[EQ_MAX_ROWS][EQ_MAX_ROWS] = {{0}}, x[EQ_MAX_ROWS] = {0}, b[CHEM_MAX_ELEMENTS] = {0};
  double pt = eq_pressure_term(s), sum_n = 0, sum_nmu = 0;
  for (int j = 0; j < N; j++) {
    double nj = exp(s->ln_n[j]), mu = s->g[j] + s->ln_n[j] + pt;
    const double *aj = s->a + (size_t)j * E;
    sum_n += nj;
    sum_nmu += nj * mu;
    for (int i = 0; i < E; i++) {
      if (aj[i] == 0) continue;
      double w = aj[i] * nj;
      b[i] += w;
      x[i] += w * mu;
      for (int k = 0; k < E; k++)
        A[i][k] += w * aj[k];
    }
  }
  *imbalance = 0;
  for (int i = 0; i < E; i++) {
    x[i] += s->b0[i] - b[i];
    *imbalance = fmax(*imbalance, fabs(s->b0[i] - b[i]) / s->b0[i]);
  }
  double ntot = s->fixed_v ? sum_n : exp(s->ln_ntot);
  if (!s->fixed_v) { /* eq. 2.26 */
    for (int i = 0; i < E; i++)
      A[i][E] = A[E][i] = b[i];
    A[E][E] = sum_n - ntot;
    x[E] = ntot - sum_n + sum_nmu;
  }
  if (eq_linear_solve(n, A, x)) return 1;
  double dln_ntot = s->fixed_v ? 0 : x[E];
  /* eq. 2.18 at fixed T: dln n_j = -mu_j + sum_i a_ij pi_i + dln n */
  double big = 5 * fabs(dln_ntot), lam2 = 1;
  *change = s->fixed_v ? 0 : fabs(dln_ntot);
  for (int j = 0; j < N; j++) {
    const double *aj = s->a + (size_t)j * E;
    double d = -(s->g[j] + s->ln_n[j] + pt) + dln_ntot;
    for (int i = 0; i < E; i++)
      d += aj[i] * x[i];
    s->dln_n[j] = d;
    double ln_frac = s->ln_n[j] - log(sum_n);
    *change = fmax(*change, exp(ln_frac) * fabs(d));
    if (ln_frac > EQ_LN_TRACE)
      big = fmax(big, fabs(d));
    else if (d - dln_ntot > 0) /* eq. 3.2: a trace species rises at most to 1e-4 */
      lam2 = fmin(lam2, fabs((-ln_frac + EQ_LN_TRACE_CAP) / (d - dln_ntot)));
  }
  if (!isfinite(*change)) return 1;
  /* eq. 3.1 */
  double lam = fmin(1.0, lam2);
  if (big > 2) lam = fmin(lam, 2 / big);
  /* trace species are kept above n_j/n = 1e-300, so that exp() never underflows to an exact zero */
  double ln_floor = log(sum_n) + EQ_LN_FLOOR;
  for (int j = 0; j < N; j++)
    s->ln_n[j] = fmax(s->ln_n[j] + lam * s->dln_n[j], ln_floor);
  s->ln_ntot += lam * dln_ntot;
  if (s->fixed_v) s->ln_ntot = log(sum_n);
  if (lam < 1) *change = fmax(*change, 1e-3); /* a damped step is never the last one */
  return 0;
}

/* Newton to convergence at the current T (and p or v), then one more step to reach the rounding
 * floor. 0 on success, 1 on failure. */
static int eq_solve_at_T(EqSystem *s) {
  if (s->n_sp == 0) return 0;
  for (int it = 0, converged = 0; it < EQ_MAX_NEWTON; it++) {
    double change, imbalance;
    if (eq_newton_step(s, &change, &imbalance)) return 1;
    if (converged) return 0;
    converged = change < 1e-12 && imbalance < 1e-13;
  }
  return 1;
}

/* Solve at T from the previous solution; should that fail, from the uniform start */
static int eq_solve(EqSystem *s, double T) {
  eq_set_T(s, T);
  if (!s->started) eq_start_uniform(s);
  if (eq_solve_at_T(s) == 0) return 0;
  eq_start_uniform(s);
  return eq_solve_at_T(s);
}

/* Mixture enthalpy (use_h) or internal energy of the current solution, J/kg, and the frozen cp or
 * cv */
static double eq_energy(const EqSystem *s, int use_h, double *c_frozen) {
  double e = 0, c = 0;
  for (int j = 0; j < s->n_sp; j++) {
    double nj = exp(s->ln_n[j]);
    e += nj * (chem_h_RT(s->m, s->sp[j], s->T) - (use_h ? 0 : 1));
    c += nj * (chem_cp_R(s->m, s->sp[j], s->T) - (use_h ? 0 : 1));
  }
  if (c_frozen) *c_frozen = c * CHEM_R;
  return e * CHEM_R * s->T;
}

/* T at which the equilibrium's h (HP) or u (UV) equals target; both grow with T. Secant steps (the
 * first with the frozen heat capacity) until the root is bracketed, then kept inside the bracket,
 * with bisection when a step leaves it or the bracket stops halving. Ends with s solved at *T_out.
 */
static int eq_solve_energy(EqSystem *s, int use_h, double target, double T0, double *T_out) {
  const double T_lo = 200.0, T_hi = 6000.0, tol = 1e-12;
  double lo = T_lo, hi = T_hi;
  int have_lo = 0, have_hi = 0, slow = 0;
  /* the first point at 1500 K or above: near-complete combustion products below converge slowly */
  double Tc = fmin(fmax(T0, 1500.0), T_hi), cf;
  if (eq_solve(s, Tc)) return 1;
  double fc = eq_energy(s, use_h, &cf) - target, Tp = Tc, fp = fc;
  for (int it = 0; it < 200; it++) {
    if (fabs(fc) <= 1e-15 * (fabs(target) + cf * Tc)) break;
    double width = hi - lo;
    if (fc < 0) {
      lo = Tc;
      have_lo = 1;
    } else {
      hi = Tc;
      have_hi = 1;
    }
    slow = hi - lo > 0.5 * width ? slow + 1 : 0;
    double slope = Tc != Tp && (fc - fp) / (Tc - Tp) > 0 ? (fc - fp) / (Tc - Tp) : cf;
    double Tn = Tc - fc / slope;
    if (have_lo && have_hi) {
      if (!(Tn > lo && Tn < hi) || slow >= 3) Tn = 0.5 * (lo + hi);
    } else { /* not bracketed yet: move towards the root by 10 to 2500 K, inside [T_lo, T_hi] */
      double dir = fc < 0 ? 1 : -1;
      Tn = Tc + dir * fmin(fmax(fabs(Tn - Tc), 10.0), 2500.0);
      Tn = fmin(fmax(Tn, T_lo), T_hi);
      if (Tn == Tc) return 1; /* the root lies outside [T_lo, T_hi] */
    }
    int last = fabs(Tn - Tc) <= tol * Tc || (have_lo && have_hi && hi - lo <= tol * Tc);
    Tp = Tc;
    fp = fc;
    Tc = Tn;
    if (eq_solve(s, Tc)) return 1;
    fc = eq_energy(s, use_h, &cf) - target;
    if (last) break;
    if (it == 199) return 1;
  }
  *T_out = Tc;
  return 0;
}

/* "H2:0.0285, O2:0.226, ..." (mass fractions of the input) for error messages */
static void eq_describe(const ChemMech *m, const double *Y, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = 0;
  for (int k = 0; k < m->n_species && used + 1 < len; k++) {
    if (Y[k] == 0) continue;
    int w =
        snprintf(buf + used, len - used, "%s%s:%.6g", used ? ", " : "", m->species_names[k], Y[k]);
    if (w < 0) break;
    used += (size_t)w;
  }
  if (used >= len && len > 4) strcpy(buf + len - 4, "...");
}

const char *chem_equil_mode_name(int mode) {
  return mode == CHEM_EQ_TP ? "TP" : mode == CHEM_EQ_HP ? "HP" : mode == CHEM_EQ_UV ? "UV" : "?";
}

int chem_equil_mode_from_name(const char *name) {
  static const char *names[] = {"TP", "HP", "UV"};
  for (int i = 0; i < 3; i++)
    if (name && toupper((unsigned char)name[0]) == names[i][0] &&
        toupper((unsigned char)name[1]) == names[i][1] && name[2] == 0)
      return i;
  return -1;
}

static int eq_input_error(const ChemMech *m, int mode, double T, double p, const double *Y,
                          const char *what) {
  char comp[512];
  eq_describe(m, Y, comp, sizeof comp);
  return HX_ERROR(HX_ERR_INPUT,
                  "chemical equilibrium (%s) of mechanism %s: %s (T %g K, p %g Pa, Y = {%s})",
                  chem_equil_mode_name(mode), m->path, what, T, p, comp);
}

int chem_equilibrate(const ChemMech *m, int mode, double *T, double *p, double *Y) {
  int ns = m->n_species;
  if (mode != CHEM_EQ_TP && mode != CHEM_EQ_HP && mode != CHEM_EQ_UV)
    return HX_ERROR(HX_ERR_INPUT,
                    "chemical equilibrium of mechanism %s: unknown mode %d (TP, HP or UV)", m->path,
                    mode);
  if (!(*T > 0 && isfinite(*T)) || !(*p > 0 && isfinite(*p)))
    return eq_input_error(m, mode, *T, *p, Y, "T and p must be positive and finite");
  double sum_y = 0;
  for (int k = 0; k < ns; k++) {
    if (!(Y[k] >= 0 && isfinite(Y[k])))
      return eq_input_error(m, mode, *T, *p, Y, "a mass fraction is negative or not finite");
    sum_y += Y[k];
  }
  if (!(sum_y > 0)) return eq_input_error(m, mode, *T, *p, Y, "all mass fractions are zero");

  EqSystem s;
  int rc = eq_setup(m, Y, &s);
  if (rc) {
    eq_free(&s);
    return rc;
  }
  double T_eq = *T, p_eq = *p;
  s.p = *p;
  s.fixed_v = mode == CHEM_EQ_UV;
  s.v = CHEM_R * *T / (*p * chem_mean_mw(m, Y, 1)); /* v = R T / (p W) of the input state */
  int fail;
  if (mode == CHEM_EQ_TP)
    fail = eq_solve(&s, *T);
  else if (mode == CHEM_EQ_HP)
    fail = eq_solve_energy(&s, 1, chem_h_mass(m, *T, Y, 1), *T, &T_eq);
  else
    fail = eq_solve_energy(&s, 0, chem_u_mass(m, *T, Y, 1), *T, &T_eq);

  /* the element totals of the result, checked against the input's */
  if (!fail) {
    double b[CHEM_MAX_ELEMENTS] = {0}, ntot = 0;
    for (int j = 0; j < s.n_sp; j++) {
      double nj = exp(s.ln_n[j]);
      ntot += nj;
      for (int i = 0; i < s.n_el; i++)
        b[i] += s.a[(size_t)j * s.n_el + i] * nj;
    }
    for (int i = 0; i < s.n_el; i++)
      if (!(fabs(b[i] - s.b0[i]) <= 1e-12 * s.b0[i])) fail = 1;
    if (s.fixed_v) p_eq = ntot * CHEM_R * T_eq / s.v;
    if (!isfinite(T_eq) || !isfinite(p_eq)) fail = 1;
  }
  if (fail) {
    char comp[512];
    eq_describe(m, Y, comp, sizeof comp);
    eq_free(&s);
    return HX_ERROR(
        HX_ERR_NUMERIC,
        "chemical equilibrium (%s) of mechanism %s did not converge (input T %g K, p %g Pa, "
        "Y = {%s}; last T tried %g K): check the composition and that the mechanism's "
        "thermo covers the temperature reached",
        chem_equil_mode_name(mode), m->path, *T, *p, comp, s.T);
  }
  for (int k = 0; k < ns; k++)
    Y[k] = 0;
  for (int j = 0; j < s.n_sp; j++)
    Y[s.sp[j]] = exp(s.ln_n[j]) * m->mw[s.sp[j]];
  *T = T_eq;
  *p = p_eq;
  eq_free(&s);
  return HX_OK;
}
