/* Low-storage Runge-Kutta tables: order conditions of the equivalent Butcher tableau, observed
 * convergence order, consistency of c, name lookup and time-step factor tables. */
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

typedef struct {
  int s;
  double a[MAX_STAGES][MAX_STAGES];
  double b[MAX_STAGES];
  double c[MAX_STAGES];
} Butcher;

/* Runs the 2N update of rk_tables.h on a linear combination of stage derivatives f_j: registers are
 * coefficient vectors over f_1..f_s, so the stage-i value of U gives row i of the Butcher matrix.
 */
static void to_butcher(const LowStorageRK *rk, Butcher *bt) {
  double U[MAX_STAGES] = {0}, k[MAX_STAGES] = {0};
  const int s = rk->n_stages;
  assert_true(s <= MAX_STAGES);
  memset(bt, 0, sizeof(*bt));
  bt->s = s;
  for (int i = 0; i < s; i++) {
    bt->c[i] = 0.0;
    for (int j = 0; j < s; j++) {
      bt->a[i][j] = U[j];
      bt->c[i] += U[j];
    }
    for (int j = 0; j < s; j++)
      k[j] = rk->A[i] * k[j] + (j == i ? 1.0 : 0.0);
    for (int j = 0; j < s; j++)
      U[j] += rk->B[i] * k[j];
  }
  for (int j = 0; j < s; j++)
    bt->b[j] = U[j];
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
    assert_true(rk->A[0] == 0.0);
    to_butcher(rk, &bt);
    for (int i = 0; i < rk->n_stages; i++)
      assert_true(fabs(bt.c[i] - rk->c[i]) < 1e-12);
    check_order_conditions(&bt, rk->order);
  }
}

/* y' = f(t, y) integrated from 0 to 1 with the 2N update exactly as documented in rk_tables.h. */
typedef double (*Rhs)(double t, double y);

static double integrate(const LowStorageRK *rk, Rhs f, double dt) {
  const int n_steps = (int)lround(1.0 / dt);
  double y = 1.0, t = 0.0;
  for (int n = 0; n < n_steps; n++) {
    double k = 0.0;
    for (int s = 0; s < rk->n_stages; s++) {
      k = rk->A[s] * k + dt * f(t + rk->c[s] * dt, y);
      y += rk->B[s] * k;
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

/* Observed order from dt and dt/2. */
static void check_observed_order(const LowStorageRK *rk, Rhs f, double exact, double dt) {
  const double err_coarse = fabs(integrate(rk, f, dt) - exact);
  const double err_fine = fabs(integrate(rk, f, 0.5 * dt) - exact);
  assert_true(err_fine > 1e-14); /* still above rounding, so the ratio means something */
  const double observed = log2(err_coarse / err_fine);
  if (observed < rk->order - 0.1)
    fprintf(stderr, "%s: observed order %.3f (errors %.3e, %.3e)\n", rk->name, observed, err_coarse,
            err_fine);
  assert_true(observed >= rk->order - 0.1);
}

static void test_observed_order(void **state) {
  (void)state;
  for (int r = 0; r < rk_count(); r++) {
    check_observed_order(rk_at(r), growth, exp(1.0), 0.1);
    /* dt = 0.1 is still pre-asymptotic for RK3 here (observed 2.84), so start one level finer */
    check_observed_order(rk_at(r), oscillating_growth, exp(sin(1.0)), 0.05);
  }
}

static void test_lookup(void **state) {
  (void)state;
  const char *required[] = {"standardrk3-3", "carpenterrk4-5", "niegemannrk4-14", "toulorgerk4-8c"};
  for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
    assert_non_null(rk_find(required[i]));
  assert_ptr_equal(rk_find("CarpenterRK4-5"), rk_find("carpenterrk4-5"));
  assert_ptr_equal(rk_find("TOULORGERK4-8C"), rk_find("toulorgerk4-8c"));
  assert_null(rk_find("carpenterrk4-6"));
  assert_null(rk_find("carpenterrk4-5x"));
  assert_null(rk_find("carpenterrk4"));
  assert_null(rk_find(""));
  assert_null(rk_find(NULL));
  assert_null(rk_find("ketchesonrk4-20")); /* 3S* scheme, not expressible in 2N form */
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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_order_conditions_and_c),
      cmocka_unit_test(test_observed_order),
      cmocka_unit_test(test_lookup),
      cmocka_unit_test(test_time_step_factor_tables),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
