/* Properties of the 1D nodal bases: quadrature exactness, symmetry, SBP, exact differentiation and
 * interpolation of polynomials, Legendre Vandermonde inverse, Lagrange partition of unity. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "basis/basis.h"
#include "core/error.h"

#define NP HX_NPMAX
#define MAX_OUT 24 /* largest number of target points used in the interpolation test */

static const NodeType node_types[2] = {NODE_GAUSS, NODE_GAUSS_LOBATTO};

static double max_d(double a, double b) {
  return a > b ? a : b;
}

static void nodes(int N, NodeType type, double *x, double *w) {
  assert_int_equal(basis_nodes_weights(N, type, x, w), HX_OK);
}

/* integral of x^k over [-1,1] */
static double monomial_integral(int k) {
  return (k % 2) ? 0.0 : 2.0 / (k + 1.0);
}

/* A degree-N test polynomial with coefficients of both signs, and its derivative. */
static double test_poly(int N, double x) {
  double p = 0.0;
  for (int k = N; k >= 0; k--)
    p = p * x + ((k % 3 == 1) ? -1.0 : 1.0) / (k + 1.0);
  return p;
}

static double test_poly_derivative(int N, double x) {
  double dp = 0.0;
  for (int k = N; k >= 1; k--)
    dp = dp * x + k * ((k % 3 == 1) ? -1.0 : 1.0) / (k + 1.0);
  return dp;
}

static void test_legendre_end_values(void **state) {
  (void)state;
  for (int n = 0; n <= 2 * HX_NMAX + 2; n++) {
    double L, dL;
    basis_legendre(n, 1.0, &L, &dL);
    assert_true(fabs(L - 1.0) < 1e-15);
    assert_true(fabs(dL - 0.5 * n * (n + 1.0)) < 1e-12 * (1.0 + dL));
    basis_legendre(n, -1.0, &L, &dL);
    assert_true(fabs(L - ((n % 2) ? -1.0 : 1.0)) < 1e-15);
  }
}

static void test_known_small_rules(void **state) {
  (void)state;
  double x[NP], w[NP];
  nodes(0, NODE_GAUSS, x, w);
  assert_true(x[0] == 0.0 && fabs(w[0] - 2.0) < 1e-15);
  nodes(1, NODE_GAUSS, x, w);
  assert_true(fabs(x[1] - sqrt(1.0 / 3.0)) < 1e-15 && fabs(w[0] - 1.0) < 1e-15);
  nodes(2, NODE_GAUSS_LOBATTO, x, w);
  assert_true(x[0] == -1.0 && x[1] == 0.0 && x[2] == 1.0);
  assert_true(fabs(w[0] - 1.0 / 3.0) < 1e-15 && fabs(w[1] - 4.0 / 3.0) < 1e-15);
}

static void test_invalid_input_rejected(void **state) {
  (void)state;
  double x[NP], w[NP];
  assert_int_not_equal(basis_nodes_weights(0, NODE_GAUSS_LOBATTO, x, w), HX_OK);
  assert_int_not_equal(basis_nodes_weights(-1, NODE_GAUSS, x, w), HX_OK);
  assert_int_not_equal(basis_nodes_weights(3, (NodeType)7, x, w), HX_OK);
}

static void test_weights_sum_and_symmetry(void **state) {
  (void)state;
  for (int t = 0; t < 2; t++) {
    for (int N = 1; N <= HX_NMAX; N++) {
      double x[NP], w[NP], sum = 0.0;
      nodes(N, node_types[t], x, w);
      for (int i = 0; i <= N; i++) {
        sum += w[i];
        assert_true(w[i] > 0.0);
        assert_true(x[i] == -x[N - i]);
        assert_true(w[i] == w[N - i]);
        assert_true(x[i] >= -1.0 && x[i] <= 1.0);
        if (i > 0) assert_true(x[i] > x[i - 1]);
      }
      assert_true(fabs(sum - 2.0) < 1e-14);
      if (node_types[t] == NODE_GAUSS_LOBATTO)
        assert_true(x[0] == -1.0 && x[N] == 1.0);
      else
        assert_true(x[0] > -1.0 && x[N] < 1.0);
    }
  }
}

static void test_quadrature_exactness(void **state) {
  (void)state;
  for (int t = 0; t < 2; t++) {
    for (int N = 1; N <= HX_NMAX; N++) {
      double x[NP], w[NP];
      nodes(N, node_types[t], x, w);
      const int exact_degree = (node_types[t] == NODE_GAUSS) ? 2 * N + 1 : 2 * N - 1;
      for (int k = 0; k <= exact_degree; k++) {
        double q = 0.0;
        for (int i = 0; i <= N; i++)
          q += w[i] * pow(x[i], k);
        assert_true(fabs(q - monomial_integral(k)) < 1e-14);
      }
      /* One degree higher must fail (the error is 7e-10 at N=15, far above rounding). */
      const int first_inexact = exact_degree + 1;
      double q = 0.0;
      for (int i = 0; i <= N; i++)
        q += w[i] * pow(x[i], first_inexact);
      assert_true(fabs(q - monomial_integral(first_inexact)) > 1e-11);
    }
  }
}

static void diff_matrix_for(int N, const double *x, double *D) {
  double wb[NP];
  basis_barycentric_weights(N, x, wb);
  basis_diff_matrix(N, x, wb, D);
}

static void test_lobatto_sbp(void **state) {
  (void)state;
  for (int N = 1; N <= HX_NMAX; N++) {
    double x[NP], w[NP], D[NP * NP];
    const int n = N + 1;
    nodes(N, NODE_GAUSS_LOBATTO, x, w);
    diff_matrix_for(N, x, D);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        const double sym = w[i] * D[i * n + j] + w[j] * D[j * n + i];
        double boundary = 0.0;
        if (i == j && i == 0) boundary = -1.0;
        if (i == j && i == N) boundary = 1.0;
        assert_true(fabs(sym - boundary) < 1e-13);
      }
    }
  }
}

static void test_diff_matrix_exact_and_kills_constants(void **state) {
  (void)state;
  for (int t = 0; t < 2; t++) {
    for (int N = 1; N <= HX_NMAX; N++) {
      double x[NP], w[NP], D[NP * NP];
      const int n = N + 1;
      nodes(N, node_types[t], x, w);
      diff_matrix_for(N, x, D);
      double d_max = 0.0;
      for (int k = 0; k < n * n; k++)
        d_max = max_d(d_max, fabs(D[k]));
      for (int i = 0; i < n; i++) {
        double row_sum = 0.0;
        for (int j = 0; j < n; j++)
          row_sum += D[i * n + j];
        assert_true(fabs(row_sum) < 1e-15 * n * d_max);
      }
      for (int degree = 1; degree <= N; degree++) {
        double dp_exact[NP], dp_max = 0.0;
        for (int i = 0; i < n; i++) {
          dp_exact[i] = test_poly_derivative(degree, x[i]);
          dp_max = max_d(dp_max, fabs(dp_exact[i]));
        }
        for (int i = 0; i < n; i++) {
          double dp = 0.0;
          for (int j = 0; j < n; j++)
            dp += D[i * n + j] * test_poly(degree, x[j]);
          assert_true(fabs(dp - dp_exact[i]) < 1e-12 * dp_max);
        }
      }
    }
  }
}

static void test_interpolation_exact(void **state) {
  (void)state;
  for (int t = 0; t < 2; t++) {
    for (int Nin = 1; Nin <= HX_NMAX; Nin++) {
      double xin[NP], win[NP], wbin[NP];
      nodes(Nin, node_types[t], xin, win);
      basis_barycentric_weights(Nin, xin, wbin);
      for (int Nout = 0; Nout < MAX_OUT; Nout += 3) {
        double xout[MAX_OUT], V[MAX_OUT * NP];
        basis_equidistant_nodes(Nout, xout);
        basis_interp_matrix(Nin, xin, wbin, Nout, xout, V);
        for (int o = 0; o <= Nout; o++) {
          double p = 0.0;
          for (int i = 0; i <= Nin; i++)
            p += V[o * (Nin + 1) + i] * test_poly(Nin, xin[i]);
          assert_true(fabs(p - test_poly(Nin, xout[o])) < 1e-12 * max_d(1.0, fabs(p)));
        }
      }
      for (int t_out = 0; t_out < 2; t_out++) {
        for (int Nout = 1; Nout <= HX_NMAX; Nout++) {
          double xout[NP], wout[NP], V[NP * NP];
          nodes(Nout, node_types[t_out], xout, wout);
          basis_interp_matrix(Nin, xin, wbin, Nout, xout, V);
          for (int o = 0; o <= Nout; o++) {
            double p = 0.0;
            for (int i = 0; i <= Nin; i++)
              p += V[o * (Nin + 1) + i] * test_poly(Nin, xin[i]);
            assert_true(fabs(p - test_poly(Nin, xout[o])) < 1e-12 * max_d(1.0, fabs(p)));
          }
        }
      }
    }
  }
}

static void test_lagrange_identity_and_partition_of_unity(void **state) {
  (void)state;
  for (int t = 0; t < 2; t++) {
    for (int N = 1; N <= HX_NMAX; N++) {
      double x[NP], w[NP], wb[NP], l[NP];
      nodes(N, node_types[t], x, w);
      basis_barycentric_weights(N, x, wb);
      for (int i = 0; i <= N; i++) {
        basis_lagrange_eval(N, x, wb, x[i], l);
        for (int j = 0; j <= N; j++)
          assert_true(l[j] == (i == j ? 1.0 : 0.0));
      }
      for (int s = 0; s <= 40; s++) {
        const double xi = -1.0 + 2.0 * s / 40.0 + 1e-3 * sin(s); /* near but off the nodes */
        basis_lagrange_eval(N, x, wb, xi, l);
        double sum = 0.0, p = 0.0;
        for (int j = 0; j <= N; j++) {
          sum += l[j];
          p += l[j] * test_poly(N, x[j]);
        }
        assert_true(fabs(sum - 1.0) < 1e-13);
        assert_true(fabs(p - test_poly(N, xi)) < 1e-12 * max_d(1.0, fabs(p)));
      }
    }
  }
}

static void test_equidistant_nodes(void **state) {
  (void)state;
  double x[NP];
  basis_equidistant_nodes(0, x);
  assert_true(x[0] == 0.0);
  basis_equidistant_nodes(4, x);
  assert_true(x[0] == -1.0 && x[2] == 0.0 && x[4] == 1.0 && x[1] == -0.5);
}

static void test_vandermonde_inverse(void **state) {
  (void)state;
  for (int t = 0; t < 2; t++) {
    for (int N = (node_types[t] == NODE_GAUSS ? 0 : 1); N <= HX_NMAX; N++) {
      double x[NP], w[NP], V[NP * NP], Vinv[NP * NP];
      const int n = N + 1;
      nodes(N, node_types[t], x, w);
      basis_legendre_vandermonde(N, x, V, Vinv);
      for (int i = 0; i < n; i++) {
        for (int k = 0; k < n; k++) {
          double vv = 0.0, vv_rev = 0.0;
          for (int m = 0; m < n; m++) {
            vv += V[i * n + m] * Vinv[m * n + k];
            vv_rev += Vinv[i * n + m] * V[m * n + k];
          }
          assert_true(fabs(vv - (i == k ? 1.0 : 0.0)) < 1e-12);
          assert_true(fabs(vv_rev - (i == k ? 1.0 : 0.0)) < 1e-12);
        }
      }
      /* Orthonormal modes: Gauss quadrature (exact to degree 2N+1) gives V^T W V = I. */
      if (node_types[t] == NODE_GAUSS) {
        for (int a = 0; a < n; a++) {
          for (int b = 0; b < n; b++) {
            double g = 0.0;
            for (int i = 0; i < n; i++)
              g += V[i * n + a] * w[i] * V[i * n + b];
            assert_true(fabs(g - (a == b ? 1.0 : 0.0)) < 1e-13);
          }
        }
      }
    }
  }
}

/* Symmetric eigen-decomposition: A U = U diag(lam), U orthonormal, for the 1-D stiffness matrix
 * D^T W D of every degree (the factor the metric correction diagonalizes; its only zero
 * eigenvalue belongs to the constants) and for a dense matrix with known eigenvalues. */
static void test_sym_eigen(void **state) {
  (void)state;
  for (int t = 0; t < 2; t++)
    for (int N = 1; N <= HX_NMAX; N++) {
      int n = N + 1;
      double x[NP], w[NP], wb[NP], D[NP * NP], A[NP * NP], A0[NP * NP], U[NP * NP], lam[NP];
      assert_int_equal(basis_nodes_weights(N, node_types[t], x, w), HX_OK);
      basis_barycentric_weights(N, x, wb);
      basis_diff_matrix(N, x, wb, D);
      double scale = 0.0;
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
          double a = 0.0;
          for (int l = 0; l < n; l++) a += w[l] * D[l * n + i] * D[l * n + j];
          A[i * n + j] = A0[i * n + j] = a;
          scale = max_d(scale, fabs(a));
        }
      basis_sym_eigen(n, A, lam, U);
      int zeros = 0;
      for (int k = 0; k < n; k++) {
        zeros += fabs(lam[k]) < 1e-11 * scale;
        for (int i = 0; i < n; i++) {
          double r = -lam[k] * U[i * n + k], o = 0.0;
          for (int j = 0; j < n; j++) {
            r += A0[i * n + j] * U[j * n + k];
            o += U[j * n + i] * U[j * n + k];
          }
          assert_true(fabs(r) < 1e-11 * scale);
          assert_true(fabs(o - (i == k)) < 1e-12);
        }
      }
      assert_int_equal(zeros, 1);
    }
  /* Q diag(1..4) Q^T with a Householder Q: eigenvalues 1, 2, 3, 4 */
  double v[4] = {1.0, -2.0, 0.5, 3.0}, vv = 0.0, A[16], U[16], lam[4];
  for (int i = 0; i < 4; i++) vv += v[i] * v[i];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      double a = 0.0;
      for (int k = 0; k < 4; k++) {
        double qik = (i == k) - 2.0 * v[i] * v[k] / vv, qjk = (j == k) - 2.0 * v[j] * v[k] / vv;
        a += qik * (k + 1.0) * qjk;
      }
      A[i * 4 + j] = a;
    }
  basis_sym_eigen(4, A, lam, U);
  double sum = 0.0, prod = 1.0;
  for (int k = 0; k < 4; k++) {
    sum += lam[k];
    prod *= lam[k];
    assert_true(fabs(lam[k] - round(lam[k])) < 1e-13);
  }
  assert_true(fabs(sum - 10.0) < 1e-13 && fabs(prod - 24.0) < 1e-12);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_legendre_end_values),
      cmocka_unit_test(test_known_small_rules),
      cmocka_unit_test(test_invalid_input_rejected),
      cmocka_unit_test(test_weights_sum_and_symmetry),
      cmocka_unit_test(test_quadrature_exactness),
      cmocka_unit_test(test_lobatto_sbp),
      cmocka_unit_test(test_diff_matrix_exact_and_kills_constants),
      cmocka_unit_test(test_interpolation_exact),
      cmocka_unit_test(test_lagrange_identity_and_partition_of_unity),
      cmocka_unit_test(test_equidistant_nodes),
      cmocka_unit_test(test_vandermonde_inverse),
      cmocka_unit_test(test_sym_eigen),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
