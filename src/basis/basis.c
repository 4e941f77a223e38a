/* One-dimensional nodal bases on [-1,1]. Algorithm numbers refer to D. A. Kopriva, "Implementing
 * Spectral Methods for Partial Differential Equations", Springer 2009. */
#include "basis/basis.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

#include "core/error.h"

#define NEWTON_MAX_ITER 100
/* Newton stops once the update is below this multiple of eps*|x| (Kopriva Alg. 23/25). */
#define NEWTON_REL_TOL (4.0 * DBL_EPSILON)

/* Three-term recurrence (Kopriva Alg. 22), differentiated term by term. Carried out in long double
 * so that the Gauss weights, whose formula amplifies rounding near x = +-1, come out to within an
 * ulp where long double is wider than double (x86); elsewhere it is plain double precision. */
static void legendre_extended(int n, long double x, long double *L, long double *dL) {
  long double L_prev = 1.0L, dL_prev = 0.0L; /* L_0 */
  long double L_cur = x, dL_cur = 1.0L;      /* L_1 */
  if (n == 0) {
    *L = L_prev;
    *dL = dL_prev;
    return;
  }
  for (int k = 2; k <= n; k++) {
    const long double L_next = ((2.0L * k - 1.0L) * x * L_cur - (k - 1.0L) * L_prev) / k;
    const long double dL_next = dL_prev + (2.0L * k - 1.0L) * L_cur;
    L_prev = L_cur;
    dL_prev = dL_cur;
    L_cur = L_next;
    dL_cur = dL_next;
  }
  *L = L_cur;
  *dL = dL_cur;
}

void basis_legendre(int n, double x, double *L, double *dL) {
  long double L_ext, dL_ext;
  legendre_extended(n, x, &L_ext, &dL_ext);
  *L = (double)L_ext;
  *dL = (double)dL_ext;
}

/* q(x) = L_{N+1}(x) - L_{N-1}(x), whose interior roots are the Gauss-Lobatto nodes, its derivative,
 * and L_N(x) for the weights (Kopriva Alg. 24). Requires N >= 1. */
static void lobatto_polynomial(int N, double x, double *q, double *dq, double *L_N) {
  double L_Nm1, dL_Nm1, L_Np1, dL_Np1, dL_N;
  basis_legendre(N - 1, x, &L_Nm1, &dL_Nm1);
  basis_legendre(N, x, L_N, &dL_N);
  basis_legendre(N + 1, x, &L_Np1, &dL_Np1);
  *q = L_Np1 - L_Nm1;
  *dq = dL_Np1 - dL_Nm1;
}

static int newton_converged(double delta, double x) {
  return fabs(delta) <= NEWTON_REL_TOL * fabs(x);
}

/* Root of L_{N+1} near x_guess; returns HX_OK and the root in *root. */
static int gauss_root(int N, double x_guess, double *root) {
  double x = x_guess;
  for (int it = 0; it < NEWTON_MAX_ITER; it++) {
    double L, dL;
    basis_legendre(N + 1, x, &L, &dL);
    const double delta = -L / dL;
    x += delta;
    if (newton_converged(delta, x)) {
      *root = x;
      return HX_OK;
    }
  }
  return HX_ERROR(HX_ERR_NUMERIC,
                  "Newton iteration for a Gauss node (N=%d, start %.17g) did not converge in %d "
                  "steps; report this as a bug",
                  N, x_guess, NEWTON_MAX_ITER);
}

/* Interior root of L_{N+1} - L_{N-1} near x_guess (Gauss-Lobatto node). */
static int lobatto_root(int N, double x_guess, double *root) {
  double x = x_guess;
  for (int it = 0; it < NEWTON_MAX_ITER; it++) {
    double q, dq, L_N;
    lobatto_polynomial(N, x, &q, &dq, &L_N);
    const double delta = -q / dq;
    x += delta;
    if (newton_converged(delta, x)) {
      *root = x;
      return HX_OK;
    }
  }
  return HX_ERROR(HX_ERR_NUMERIC,
                  "Newton iteration for a Gauss-Lobatto node (N=%d, start %.17g) did not "
                  "converge in %d steps; report this as a bug",
                  N, x_guess, NEWTON_MAX_ITER);
}

/* w = 2 / ((1 - x^2) L'_{N+1}(x)^2) (Kopriva Alg. 23). Near x = +-1 this formula amplifies the
 * rounding of the node by 2|x|/(1 - x^2), so it is evaluated at the exact root r = x + delta to
 * first order: by Legendre's equation d/dx ln((1 - x^2) L'^2) = 2x / (1 - x^2) at a root of L. */
static double gauss_weight(int N, double x) {
  long double L, dL;
  legendre_extended(N + 1, x, &L, &dL);
  const long double one_minus_x2 = (1.0L - x) * (1.0L + x);
  const long double delta = -L / dL;
  return (double)(2.0L / (one_minus_x2 * dL * dL) * (1.0L - 2.0L * x * delta / one_minus_x2));
}

/* Gauss nodes (Kopriva Alg. 23): the left half by Newton from Chebyshev-Gauss guesses, the right
 * half by mirroring so that the node set is exactly symmetric. */
static int gauss_nodes_weights(int N, double *x, double *w) {
  const double pi = acos(-1.0);
  for (int j = 0; j < (N + 1) / 2; j++) {
    const double guess = -cos((2.0 * j + 1.0) * pi / (2.0 * N + 2.0));
    HX_CHECK(gauss_root(N, guess, &x[j]));
    w[j] = gauss_weight(N, x[j]);
    x[N - j] = -x[j];
    w[N - j] = w[j];
  }
  if (N % 2 == 0) {
    x[N / 2] = 0.0;
    w[N / 2] = gauss_weight(N, 0.0);
  }
  return HX_OK;
}

static double lobatto_weight(int N, double x) {
  double q, dq, L_N;
  lobatto_polynomial(N, x, &q, &dq, &L_N);
  return 2.0 / (N * (N + 1.0) * L_N * L_N);
}

/* Gauss-Lobatto nodes (Kopriva Alg. 25) with the asymptotic initial guesses given there. */
static int lobatto_nodes_weights(int N, double *x, double *w) {
  const double pi = acos(-1.0);
  x[0] = -1.0;
  x[N] = 1.0;
  w[0] = w[N] = 2.0 / (N * (N + 1.0));
  for (int j = 1; j < (N + 1) / 2; j++) {
    const double shifted = (j + 0.25) * pi;
    const double guess = -cos(shifted / N - 3.0 / (8.0 * N * shifted));
    HX_CHECK(lobatto_root(N, guess, &x[j]));
    w[j] = lobatto_weight(N, x[j]);
    x[N - j] = -x[j];
    w[N - j] = w[j];
  }
  if (N % 2 == 0) {
    x[N / 2] = 0.0;
    w[N / 2] = lobatto_weight(N, 0.0);
  }
  return HX_OK;
}

int basis_nodes_weights(int N, NodeType type, double *x, double *w) {
  if (type == NODE_GAUSS) {
    if (N < 0)
      return HX_ERROR(HX_ERR_INPUT, "Gauss nodes need a polynomial degree N >= 0, got N=%d", N);
    return gauss_nodes_weights(N, x, w);
  }
  if (type == NODE_GAUSS_LOBATTO) {
    if (N < 1)
      return HX_ERROR(HX_ERR_INPUT,
                      "Gauss-Lobatto nodes need a polynomial degree N >= 1 (both end points), "
                      "got N=%d; use N >= 1 or Gauss nodes",
                      N);
    return lobatto_nodes_weights(N, x, w);
  }
  return HX_ERROR(HX_ERR_INPUT,
                  "unknown node type %d (expected %d = Gauss or %d = Gauss-Lobatto, FLEXI's "
                  "NodeType 1 and 2)",
                  (int)type, NODE_GAUSS, NODE_GAUSS_LOBATTO);
}

void basis_equidistant_nodes(int N, double *x) {
  if (N == 0) {
    x[0] = 0.0;
    return;
  }
  for (int i = 0; i <= N; i++)
    x[i] = -1.0 + 2.0 * i / N;
}

void basis_barycentric_weights(int N, const double *x, double *wb) {
  /* wb_j = 1 / prod_{k != j} (x_j - x_k)  (Berrut & Trefethen 2004, eq. 3.2; Kopriva Alg. 30) */
  for (int j = 0; j <= N; j++) {
    double prod = 1.0;
    for (int k = 0; k <= N; k++)
      if (k != j) prod *= x[j] - x[k];
    wb[j] = 1.0 / prod;
  }
}

/* Equality up to rounding (Kopriva Alg. 139), used to detect evaluation points on a node. */
static int almost_equal(double a, double b) {
  if (a == 0.0 || b == 0.0) return fabs(a - b) <= 2.0 * DBL_EPSILON;
  return fabs(a - b) <= DBL_EPSILON * fabs(a) && fabs(a - b) <= DBL_EPSILON * fabs(b);
}

void basis_lagrange_eval(int N, const double *x, const double *wb, double xi, double *l) {
  /* Second (true) barycentric form (Kopriva Alg. 34); on a node the basis is the unit vector. */
  for (int j = 0; j <= N; j++) {
    if (almost_equal(xi, x[j])) {
      for (int k = 0; k <= N; k++)
        l[k] = (k == j) ? 1.0 : 0.0;
      return;
    }
  }
  double sum = 0.0;
  for (int j = 0; j <= N; j++) {
    l[j] = wb[j] / (xi - x[j]);
    sum += l[j];
  }
  for (int j = 0; j <= N; j++)
    l[j] /= sum;
}

void basis_diff_matrix(int N, const double *x, const double *wb, double *D) {
  const int n = N + 1;
  for (int i = 0; i < n; i++) {
    double diagonal = 0.0;
    for (int j = 0; j < n; j++) {
      if (j == i) continue;
      D[i * n + j] = (wb[j] / wb[i]) / (x[i] - x[j]);
      diagonal -= D[i * n + j];
    }
    /* Negative-sum trick: rows of D then annihilate constants to rounding (Kopriva Alg. 37). */
    D[i * n + i] = diagonal;
  }
}

void basis_interp_matrix(int Nin, const double *xin, const double *wbin, int Nout,
                         const double *xout, double *V) {
  for (int o = 0; o <= Nout; o++)
    basis_lagrange_eval(Nin, xin, wbin, xout[o], &V[o * (Nin + 1)]);
}

static double orthonormal_legendre(int m, double x) {
  double L, dL;
  basis_legendre(m, x, &L, &dL);
  return sqrt(m + 0.5) * L;
}

static void fill_with_nan(int n_values, double *a) {
  for (int k = 0; k < n_values; k++)
    a[k] = NAN;
}

/* The inverse is the L2 projection of each nodal Lagrange polynomial l_i onto the orthonormal
 * Legendre modes: Vinv[m][i] = integral l_i phi_m dx, evaluated with the (N+1)-point Gauss rule,
 * which is exact because l_i phi_m has degree <= 2N. This works for any distinct node set and needs
 * no pivoting. Limited to N <= HX_NMAX (fixed-size work arrays); larger N fills V and Vinv with NaN
 * after reporting the error. */
void basis_legendre_vandermonde(int N, const double *x, double *V, double *Vinv) {
  const int n = N + 1;
  double xq[HX_NPMAX], wq[HX_NPMAX], wb[HX_NPMAX], l_at_q[HX_NPMAX];
  if (N < 0 || N > HX_NMAX) {
    (void)HX_ERROR(HX_ERR_INPUT,
                   "Legendre Vandermonde supports 0 <= N <= %d, got N=%d; outputs set to NaN",
                   HX_NMAX, N);
    if (N >= 0) {
      fill_with_nan(n * n, V);
      fill_with_nan(n * n, Vinv);
    }
    return;
  }
  if (gauss_nodes_weights(N, xq, wq) != HX_OK) {
    fill_with_nan(n * n, V);
    fill_with_nan(n * n, Vinv);
    return;
  }
  for (int i = 0; i < n; i++)
    for (int m = 0; m < n; m++)
      V[i * n + m] = orthonormal_legendre(m, x[i]);

  basis_barycentric_weights(N, x, wb);
  for (int k = 0; k < n * n; k++)
    Vinv[k] = 0.0;
  for (int q = 0; q < n; q++) {
    basis_lagrange_eval(N, x, wb, xq[q], l_at_q);
    for (int m = 0; m < n; m++) {
      const double weighted_mode = wq[q] * orthonormal_legendre(m, xq[q]);
      for (int i = 0; i < n; i++)
        Vinv[m * n + i] += weighted_mode * l_at_q[i];
    }
  }
}

int basis_change_degree_matrix(int Nin, NodeType tin, int Nout, NodeType tout, double *M) {
  double xin[HX_NPMAX], win[HX_NPMAX], xout[HX_NPMAX], wout[HX_NPMAX];
  if (Nin < 0 || Nin > HX_NMAX || Nout < 0 || Nout > HX_NMAX)
    return HX_ERROR(HX_ERR_INPUT, "change of degree from N = %d to N = %d: both must be 0..%d",
                    Nin, Nout, HX_NMAX);
  HX_CHECK(basis_nodes_weights(Nin, tin, xin, win));
  HX_CHECK(basis_nodes_weights(Nout, tout, xout, wout));
  const int nin = Nin + 1;
  if (Nout >= Nin) { /* the polynomial itself, at the new nodes */
    double wb[HX_NPMAX];
    basis_barycentric_weights(Nin, xin, wb);
    basis_interp_matrix(Nin, xin, wb, Nout, xout, M);
    return HX_OK;
  }
  double V[HX_NPMAX * HX_NPMAX], Vinv[HX_NPMAX * HX_NPMAX];
  basis_legendre_vandermonde(Nin, xin, V, Vinv);
  for (int o = 0; o <= Nout; o++) /* its modes 0..Nout (the L2 projection), at the new nodes */
    for (int i = 0; i < nin; i++) {
      double sum = 0.0;
      for (int m = 0; m <= Nout; m++)
        sum += orthonormal_legendre(m, xout[o]) * Vinv[m * nin + i];
      M[o * nin + i] = sum;
    }
  return HX_OK;
}

void basis_sym_eigen(int n, double *A, double *lam, double *U) {
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++) U[i * n + k] = i == k ? 1.0 : 0.0;
  for (int sweep = 0; sweep < 100; sweep++) {
    double off = 0.0, diag = 0.0;
    for (int i = 0; i < n; i++) {
      diag += A[i * n + i] * A[i * n + i];
      for (int j = i + 1; j < n; j++) off += A[i * n + j] * A[i * n + j];
    }
    if (off <= 1e-32 * diag || off == 0.0) break;
    for (int p = 0; p < n; p++)
      for (int q = p + 1; q < n; q++) {
        double apq = A[p * n + q];
        if (apq == 0.0) continue;
        /* rotation that zeroes A[p][q]: t = tan(theta), the smaller root */
        double tau = (A[q * n + q] - A[p * n + p]) / (2.0 * apq);
        double t = (tau >= 0.0 ? 1.0 : -1.0) / (fabs(tau) + sqrt(1.0 + tau * tau));
        double c = 1.0 / sqrt(1.0 + t * t), s = t * c;
        for (int k = 0; k < n; k++) { /* A <- A G */
          double akp = A[k * n + p], akq = A[k * n + q];
          A[k * n + p] = c * akp - s * akq;
          A[k * n + q] = s * akp + c * akq;
        }
        for (int k = 0; k < n; k++) { /* A <- G^T A */
          double apk = A[p * n + k], aqk = A[q * n + k];
          A[p * n + k] = c * apk - s * aqk;
          A[q * n + k] = s * apk + c * aqk;
        }
        for (int k = 0; k < n; k++) { /* U <- U G */
          double ukp = U[k * n + p], ukq = U[k * n + q];
          U[k * n + p] = c * ukp - s * ukq;
          U[k * n + q] = s * ukp + c * ukq;
        }
      }
  }
  for (int i = 0; i < n; i++) lam[i] = A[i * n + i];
}
