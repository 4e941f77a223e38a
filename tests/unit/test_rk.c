/* Low-storage Runge-Kutta tables (2N and 3S*): order conditions of the equivalent Butcher tableau,
 * observed convergence order, consistency of c, linear stability of the amplification polynomial,
 * the GPU's fused form of the 3S* update, name lookup and time-step factor tables. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "time/rk_tables.h"

#define MAX_STAGES 32
#define NREG (MAX_STAGES + 1) /* a register as coefficients over (u_n, f_1..f_s) */

typedef struct {
  int s;
  double a[MAX_STAGES][MAX_STAGES];
  double b[MAX_STAGES];
  double c[MAX_STAGES];
} Butcher;

/* One stage of the scheme's update on registers of NREG coefficients: R is the stage's f. The
 * same arithmetic as src/time/timedisc.c (2N: k; 3S*: k is S2). */
static void stage_update(const LowStorageRK *rk, int st, const double *R, double *U, double *k,
                         double *S3, int n) {
  for (int j = 0; j < n; j++) {
    if (rk->form == RK_2N) {
      k[j] = rk->A[st] * k[j] + R[j];
      U[j] += rk->B[st] * k[j];
    } else if (st == 0) {
      k[j] = S3[j] = U[j];
      U[j] += rk->B[0] * R[j];
    } else {
      k[j] += rk->delta[st] * U[j];
      U[j] =
          rk->gamma1[st] * U[j] + rk->gamma2[st] * k[j] + rk->gamma3[st] * S3[j] + rk->B[st] * R[j];
    }
  }
}

/* Runs the update on a linear combination of u_n and the stage derivatives f_j: registers are
 * coefficient vectors over (u_n, f_1..f_s), so the stage-i value of U gives row i of the Butcher
 * matrix; the coefficient of u_n must stay 1 (consistency). */
static void to_butcher(const LowStorageRK *rk, Butcher *bt) {
  double U[NREG] = {1.0}, k[NREG] = {0}, S3[NREG] = {0};
  const int s = rk->n_stages;
  assert_true(s <= MAX_STAGES);
  memset(bt, 0, sizeof(*bt));
  bt->s = s;
  for (int i = 0; i < s; i++) {
    assert_true(fabs(U[0] - 1.0) < 1e-13);
    bt->c[i] = 0.0;
    for (int j = 0; j < s; j++) {
      bt->a[i][j] = U[1 + j];
      bt->c[i] += U[1 + j];
    }
    double R[NREG] = {0};
    R[1 + i] = 1.0;
    stage_update(rk, i, R, U, k, S3, s + 1);
  }
  assert_true(fabs(U[0] - 1.0) < 1e-13);
  for (int j = 0; j < s; j++)
    bt->b[j] = U[1 + j];
}

static double dot(int s, const double *x, const double *y) {
  double d = 0.0;
  for (int i = 0; i < s; i++)
    d += x[i] * y[i];
  return d;
}

static void mat_vec(const Butcher *bt, const double *x, double *y) {
  for (int i = 0; i < bt->s; i++)
    y[i] = dot(bt->s, bt->a[i], x);
}

static void check_order_conditions(const Butcher *bt, int order) {
  const int s = bt->s;
  double ones[MAX_STAGES], c2[MAX_STAGES], c3[MAX_STAGES], Ac[MAX_STAGES], Ac2[MAX_STAGES];
  double AAc[MAX_STAGES], cAc[MAX_STAGES];
  for (int i = 0; i < s; i++) {
    ones[i] = 1.0;
    c2[i] = bt->c[i] * bt->c[i];
    c3[i] = c2[i] * bt->c[i];
  }
  mat_vec(bt, bt->c, Ac);
  mat_vec(bt, c2, Ac2);
  mat_vec(bt, Ac, AAc);
  for (int i = 0; i < s; i++)
    cAc[i] = bt->c[i] * Ac[i];
  const double tol = 1e-12;
  assert_true(fabs(dot(s, bt->b, ones) - 1.0) < tol);
  assert_true(fabs(dot(s, bt->b, bt->c) - 1.0 / 2.0) < tol);
  assert_true(fabs(dot(s, bt->b, c2) - 1.0 / 3.0) < tol);
  assert_true(fabs(dot(s, bt->b, Ac) - 1.0 / 6.0) < tol);
  if (order < 4) return;
  assert_true(fabs(dot(s, bt->b, c3) - 1.0 / 4.0) < tol);
  assert_true(fabs(dot(s, bt->b, cAc) - 1.0 / 8.0) < tol);
  assert_true(fabs(dot(s, bt->b, Ac2) - 1.0 / 12.0) < tol);
  assert_true(fabs(dot(s, bt->b, AAc) - 1.0 / 24.0) < tol);
}

static void test_order_conditions_and_c(void **state) {
  (void)state;
  for (int r = 0; r < rk_count(); r++) {
    const LowStorageRK *rk = rk_at(r);
    Butcher bt;
    assert_true(rk->order == 3 || rk->order == 4);
    if (rk->form == RK_2N) {
      assert_true(rk->A[0] == 0.0);
    } else { /* the first 3S* stage is U += B dt R: gamma = (0, 1, 0), delta = 1 */
      assert_true(rk->gamma1[0] == 0.0 && rk->gamma2[0] == 1.0 && rk->gamma3[0] == 0.0);
      assert_true(rk->delta[0] == 1.0);
      for (int i = 0; i < rk->n_stages; i++)
        assert_true(rk->B[i] != 0.0); /* rk3s_prepare_node */
    }
    to_butcher(rk, &bt);
    for (int i = 0; i < rk->n_stages; i++)
      assert_true(fabs(bt.c[i] - rk->c[i]) < 1e-12);
    check_order_conditions(&bt, rk->order);
  }
}

/* y' = f(t, y) integrated from 0 to 1 with the update exactly as documented in rk_tables.h. */
typedef double (*Rhs)(double t, double y);

static double integrate(const LowStorageRK *rk, Rhs f, double dt) {
  const int n_steps = (int)lround(1.0 / dt);
  double y = 1.0, t = 0.0;
  for (int n = 0; n < n_steps; n++) {
    double k = 0.0, s3 = 0.0;
    for (int s = 0; s < rk->n_stages; s++) {
      const double R = dt * f(t + rk->c[s] * dt, y);
      stage_update(rk, s, &R, &y, &k, &s3, 1);
    }
    t = (n + 1) * dt;
  }
  return y;
}

static double growth(double t, double y) {
  (void)t;
  return y;
}

/* Non-autonomous: y = exp(sin t), so a wrong stage time c would spoil the order. */
static double oscillating_growth(double t, double y) {
  return cos(t) * y;
}

/* y' = -y^2 + cos t + (1 + sin t)^2, y(0) = 1: y = 1 + sin t. */
static double riccati(double t, double y) {
  return -y * y + cos(t) + (1.0 + sin(t)) * (1.0 + sin(t));
}

/* Observed order: dt halved (at least 4 times) until the error is below 1e-11, i.e. into the
 * asymptotic range but above rounding; the order between the two finest steps must be within 0.2
 * of the claim, or above it on linear problems (where only the amplification polynomial counts,
 * and it may match exp beyond the order). */
static void check_observed_order(const LowStorageRK *rk, Rhs f, double exact, double dt,
                                 int linear) {
  double err[12], observed = 0.0;
  int m = 0;
  fprintf(stderr, "%-16s orders", rk->name);
  for (; m < 12; m++) {
    err[m] = fabs(integrate(rk, f, dt / (1 << m)) - exact);
    assert_true(err[m] > 1e-14); /* still above rounding, so the ratio means something */
    if (m > 0) fprintf(stderr, " %.3f", log2(err[m - 1] / err[m]));
    if (m >= 4 && err[m] < 1e-11) break;
  }
  assert_true(m < 12);
  observed = log2(err[m - 1] / err[m]);
  fprintf(stderr, " (errors %.3e .. %.3e)\n", err[0], err[m]);
  /* the 3S* schemes' 4th-order error constants are so small that their 5th-order terms still
   * dominate down to rounding (ketchesonrk4-20: 5.5 at 4e-12); their exact order is checked by
   * test_order_conditions_and_c, wrong coefficients drop the order to 1 or 2 */
  const int at_least = linear || rk->form == RK_3SSTAR;
  assert_true(at_least ? observed >= rk->order - 0.2 : fabs(observed - rk->order) <= 0.2);
}

static void test_observed_order(void **state) {
  (void)state;
  for (int r = 0; r < rk_count(); r++) {
    /* the same work per unit time for every scheme: dt about n_stages/25 */
    const double dt = 1.0 / fmax(1.0, round(25.0 / rk_at(r)->n_stages));
    check_observed_order(rk_at(r), growth, exp(1.0), dt, 1);
    check_observed_order(rk_at(r), oscillating_growth, exp(sin(1.0)), dt, 1);
    /* nonlinear and non-autonomous: every order condition and the stage times c count */
    check_observed_order(rk_at(r), riccati, 1.0 + sin(1.0), dt, 0);
  }
}

static void test_lookup(void **state) {
  (void)state;
  const char *required[] = {"standardrk3-3",   "carpenterrk4-5", "niegemannrk4-14",
                            "toulorgerk4-8c",  "toulorgerk3-7c", "toulorgerk4-8f",
                            "ketchesonrk4-20", "ketchesonrk4-18"};
  for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
    assert_non_null(rk_find(required[i]));
  assert_ptr_equal(rk_find("CarpenterRK4-5"), rk_find("carpenterrk4-5"));
  assert_ptr_equal(rk_find("TOULORGERK4-8C"), rk_find("toulorgerk4-8c"));
  assert_null(rk_find("carpenterrk4-6"));
  assert_null(rk_find("carpenterrk4-5x"));
  assert_null(rk_find("carpenterrk4"));
  assert_null(rk_find(""));
  assert_null(rk_find(NULL));
  assert_int_equal(rk_find("KetchesonRK4-18")->form, RK_3SSTAR);
  assert_int_equal(rk_find("toulorgerk4-8f")->form, RK_2N);
  assert_null(rk_at(-1));
  assert_null(rk_at(rk_count()));
  for (int r = 0; r < rk_count(); r++) {
    const LowStorageRK *rk = rk_at(r);
    int order = 0, stages = 0;
    assert_ptr_equal(rk_find(rk->name), rk);
    assert_non_null(rk->reference);
    /* FLEXI names end in "rk<order>-<stages>[variant]" */
    const char *tail = strstr(rk->name, "rk");
    assert_non_null(tail);
    assert_int_equal(sscanf(tail, "rk%d-%d", &order, &stages), 2);
    assert_int_equal(order, rk->order);
    assert_int_equal(stages, rk->n_stages);
  }
}

static void check_step_table(const double *alpha, int constant_from) {
  assert_true(alpha[0] == alpha[1]);
  for (int N = 1; N <= HX_NMAX; N++) {
    assert_true(alpha[N] > 0.0);
    if (N > 1 && N <= constant_from) assert_true(alpha[N] < alpha[N - 1]);
    if (N > constant_from) assert_true(alpha[N] == alpha[N - 1]);
  }
}

static void test_time_step_factor_tables(void **state) {
  (void)state;
  for (int r = 0; r < rk_count(); r++) {
    const LowStorageRK *rk = rk_at(r);
    check_step_table(rk->cfl_alpha_gauss, HX_NMAX);
    check_step_table(rk->cfl_alpha_lobatto, HX_NMAX);
    check_step_table(rk->dfl_alpha_gauss, 10); /* FLEXI tabulates the DFL factor to N = 10 */
    check_step_table(rk->dfl_alpha_lobatto, 10);
    /* Gauss-Lobatto DGSEM (lumped mass) allows larger steps than Gauss at every N. */
    for (int N = 0; N <= HX_NMAX; N++) {
      assert_true(rk->cfl_alpha_lobatto[N] > rk->cfl_alpha_gauss[N]);
      assert_true(rk->dfl_alpha_lobatto[N] > rk->dfl_alpha_gauss[N]);
    }
  }
}

/* Amplification polynomial R(z) = 1 + sum_j z^j b A^{j-1} 1 of the Butcher form; its first
 * order+1 coefficients are 1/j! (checked here on top of the order conditions). */
static void amplification_coefs(const Butcher *bt, double *p) {
  double v[MAX_STAGES];
  for (int i = 0; i < bt->s; i++)
    v[i] = 1.0;
  p[0] = 1.0;
  for (int j = 1; j <= bt->s; j++) {
    p[j] = dot(bt->s, bt->b, v);
    double w[MAX_STAGES];
    mat_vec(bt, v, w);
    memcpy(v, w, sizeof(double) * bt->s);
  }
}

static double amplification(const double *p, int s, double x) {
  double r = 0.0;
  for (int j = s; j >= 0; j--)
    r = r * x + p[j];
  return r;
}

/* Largest x such that |R(-y)| <= 1 for every y in [0, x] (step 1e-3). */
static double real_stability_interval(const LowStorageRK *rk) {
  Butcher bt;
  double p[MAX_STAGES + 1];
  to_butcher(rk, &bt);
  amplification_coefs(&bt, p);
  double x = 0.0;
  while (x < 200.0 && fabs(amplification(p, bt.s, -(x + 1e-3))) <= 1.0 + 1e-12)
    x += 1e-3;
  return x;
}

/* Linear stability on the negative real axis (the viscous spectrum, which the DFL factor scales):
 * every scheme covers forward Euler's [-2, 0] and RK4's [-2.78, 0] at least, and a scheme that
 * borrows another's DFL table (the 3S* ones take niegemannrk4-14's, as FLEXI does) covers at least
 * that scheme's interval, so the borrowed viscous dt is stable. */
static void test_linear_stability(void **state) {
  (void)state;
  double factorial = 1.0, p[MAX_STAGES + 1];
  for (int r = 0; r < rk_count(); r++) {
    const LowStorageRK *rk = rk_at(r);
    Butcher bt;
    to_butcher(rk, &bt);
    amplification_coefs(&bt, p);
    factorial = 1.0;
    for (int j = 1; j <= rk->order; j++) {
      factorial *= j;
      assert_true(fabs(p[j] * factorial - 1.0) < 1e-11);
    }
    const double x = real_stability_interval(rk);
    fprintf(stderr, "%-16s negative real stability interval [-%.3f, 0]\n", rk->name, x);
    assert_true(x >= (rk->order == 4 ? 2.78 : 2.5));
    for (int o = 0; o < rk_count(); o++)
      if (o != r && rk_at(o)->dfl_alpha_gauss == rk->dfl_alpha_gauss && rk_at(o)->form == RK_2N &&
          rk->form == RK_3SSTAR)
        assert_true(x >= real_stability_interval(rk_at(o)));
  }
}

/* The GPU runs a 3S* stage as rk3s_prepare_node + the fused 2N update k = a k + dt R, U += b k
 * with rk_fused_coefs' (a, b): on y' = cos(t) y it must give the direct 3S* result to round-off. */
static void test_fused_3sstar(void **state) {
  (void)state;
  for (int r = 0; r < rk_count(); r++) {
    const LowStorageRK *rk = rk_at(r);
    const double dt = 0.05;
    double y = 1.0, s2 = 0.0, s3 = 0.0, k = 0.0;
    for (int n = 0; n < 20; n++) {
      const double t = n * dt;
      for (int st = 0; st < rk->n_stages; st++) {
        const double R = oscillating_growth(t + rk->c[st] * dt, y);
        double a, b;
        if (rk->form == RK_3SSTAR && st == 0) s2 = s3 = y;
        if (rk->form == RK_3SSTAR && st > 0) {
          double g[5];
          rk3s_stage_coefs(rk, st, g);
          rk3s_prepare_node(g, y, &s2, s3, &k);
        }
        rk_fused_coefs(rk, st, &a, &b);
        k = a * k + dt * R;
        y += b * k;
      }
    }
    const double direct = integrate(rk, oscillating_growth, dt);
    assert_true(fabs(y - direct) < 1e-13 * fabs(direct));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_order_conditions_and_c),
      cmocka_unit_test(test_observed_order),
      cmocka_unit_test(test_lookup),
      cmocka_unit_test(test_time_step_factor_tables),
      cmocka_unit_test(test_linear_stability),
      cmocka_unit_test(test_fused_3sstar),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
