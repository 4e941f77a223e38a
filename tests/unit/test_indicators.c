/* FLEXI's shock indicators (physics/indicators.h) on analytic fields of one straight element
 * (J = 1): Persson is at round-off level (log10 < -25) for a polynomial below the checked modes, 0
 * (log10 of 1) for a pure highest mode and large for a jump; Jameson is 0 for a constant and
 * positive for a jump; Ducros is 0 for a rigid rotation and 1 for a pure dilatation; halfhalf and
 * checkerboard give their patterns; the switch matrices keep sum w u and invert each other. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <math.h>
#include <stdio.h>

#include "basis/basis.h"
#include "physics/indicators.h"

enum { N_TEST = 4, NP = N_TEST + 1, N3 = NP * NP * NP };

typedef struct {
  double x[NP], w[NP], wb[NP], D[NP * NP], V[NP * NP], Vinv[NP * NP];
} Basis1D;

static void basis_setup(Basis1D *b) {
  assert_int_equal(basis_nodes_weights(N_TEST, NODE_GAUSS_LOBATTO, b->x, b->w), 0);
  basis_barycentric_weights(N_TEST, b->x, b->wb);
  basis_diff_matrix(N_TEST, b->x, b->wb, b->D);
  basis_legendre_vandermonde(N_TEST, b->x, b->V, b->Vinv);
}

static double persson_of(const Basis1D *b, double (*f)(double, double, double), int n_modes) {
  double a[N3], t[N3];
  for (int k = 0; k < NP; k++)
    for (int j = 0; j < NP; j++)
      for (int i = 0; i < NP; i++)
        a[(k * NP + j) * NP + i] = f(b->x[i], b->x[j], b->x[k]);
  ind_to_modal(NP, b->Vinv, a, t);
  return ind_persson_modal(NP, n_modes, a);
}

static double low_poly(double x, double y, double z) {
  return 1.0 + x + 0.3 * y * y * z - x * z;
}
static double top_mode(double x, double y, double z) {
  double L, dL;
  (void)y;
  (void)z;
  basis_legendre(N_TEST, x, &L, &dL);
  return L;
}
static double jump(double x, double y, double z) {
  (void)y;
  (void)z;
  return x < 0.1 ? 1.0 : 0.125;
}

static void test_persson(void **state) {
  (void)state;
  Basis1D b;
  basis_setup(&b);
  /* degree <= 2 per direction, nModes = 2 checks the modes N and N-1 = 3: both empty */
  double smooth = persson_of(&b, low_poly, 2), top = persson_of(&b, top_mode, 1);
  double shock = persson_of(&b, jump, 2);
  printf("  Persson (log10): polynomial %.2f, pure mode N %.3e, jump %.3f\n", smooth, top, shock);
  assert_true(smooth < -25.0);                 /* round-off: coefficients below 1e-12 of the mean */
  assert_true(fabs(top) < 1e-12);              /* all energy in mode N: ratio 1 */
  assert_true(shock > -3.0 && shock <= 1e-12); /* above the reggie checks' threshold -3 */
}

static void test_jameson(void **state) {
  (void)state;
  Basis1D b;
  basis_setup(&b);
  double v[N3], ghost[6 * NP * NP], sJ[N3];
  for (int q = 0; q < N3; q++)
    sJ[q] = 1.0;
  for (int q = 0; q < N3; q++)
    v[q] = 2.5;
  for (int g = 0; g < 6 * NP * NP; g++)
    ghost[g] = 2.5;
  double flat = ind_jameson_element(NP, v, ghost, b.w, sJ);
  assert_true(flat == 0.0);
  /* a pressure jump 1 | 0.1 inside the element (constant ghosts on each side) */
  for (int q = 0; q < N3; q++)
    v[q] = b.x[q % NP] < 0.1 ? 1.0 : 0.1;
  for (int g = 0; g < 6 * NP * NP; g++)
    ghost[g] = 1.0;
  for (int g = 0; g < NP * NP; g++)
    ghost[NP * NP + g] = 0.1; /* the xi = +1 face */
  for (int d = 1; d < 3; d++) /* tangential faces continue the element's values */
    for (int p = 0; p < 2; p++)
      for (int bq = 0; bq < NP; bq++)
        for (int a = 0; a < NP; a++)
          ghost[(2 * d + p) * NP * NP + bq * NP + a] = v[a];
  double shock = ind_jameson_element(NP, v, ghost, b.w, sJ);
  printf("  Jameson: constant %.1e, jump %.4f\n", flat, shock);
  /* two node columns next to the jump give |vmin - 2v + vmax| / |vmin + 2v + vmax| = 0.9 / 2.1
   * and 0.9 / 3.9: the mean is at least their smaller share */
  assert_true(shock > 0.05 && shock < 1.0);
}

/* Ducros on the identity mapping (Ja = I, sJ = 1), velocity field vel(x, y, z). */
static double ducros_of(const Basis1D *b, void (*vel)(const double *, double *)) {
  double U[5 * N3], Ja[9 * N3], sJ[N3], scratch[3 * N3];
  for (int q = 0; q < N3; q++) {
    double x[3] = {b->x[q % NP], b->x[(q / NP) % NP], b->x[q / (NP * NP)]}, u[3];
    vel(x, u);
    U[q] = 1.3;
    for (int c = 0; c < 3; c++)
      U[(1 + c) * N3 + q] = 1.3 * u[c];
    U[4 * N3 + q] = 10.0;
    sJ[q] = 1.0;
    for (int d = 0; d < 3; d++)
      for (int c = 0; c < 3; c++)
        Ja[(d * 3 + c) * N3 + q] = d == c ? 1.0 : 0.0;
  }
  return ind_ducros_element(NP, b->D, b->w, Ja, sJ, U, scratch);
}

static void rotation(const double *x, double *u) {
  u[0] = -50.0 * x[1];
  u[1] = 50.0 * x[0];
  u[2] = 0.0;
}
static void dilatation(const double *x, double *u) {
  for (int c = 0; c < 3; c++)
    u[c] = 40.0 * x[c];
}

static void test_ducros(void **state) {
  (void)state;
  Basis1D b;
  basis_setup(&b);
  double rot = ducros_of(&b, rotation), dil = ducros_of(&b, dilatation);
  printf("  Ducros: rotation %.3e, dilatation %.15f\n", rot, dil);
  assert_true(rot == 0.0);
  assert_true(fabs(dil - 1.0) < 1e-12);
}

static void test_patterns(void **state) {
  (void)state;
  assert_true(ind_halfhalf(0.25) == IND_VALUE_FV);
  assert_true(ind_halfhalf(-0.25) == IND_VALUE_DG);
  assert_true(ind_halfhalf(0.0) == IND_VALUE_DG); /* FLEXI: x > 0 strictly */
  for (long id = 1; id <= 6; id++)
    assert_true(ind_checkerboard(id) == (id % 2 ? IND_VALUE_FV : IND_VALUE_DG));
  /* the hysteresis: DG turns FV only above the upper, FV turns DG only below the lower */
  assert_int_equal(fv_switch_decide(0, -3.5, -3.0, -4.0, 1), 0);
  assert_int_equal(fv_switch_decide(0, -2.5, -3.0, -4.0, 1), 1);
  assert_int_equal(fv_switch_decide(1, -3.5, -3.0, -4.0, 1), 1);
  assert_int_equal(fv_switch_decide(1, -4.5, -3.0, -4.0, 1), 0);
  assert_int_equal(fv_switch_decide(1, -4.5, -3.0, -4.0, 0), 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_persson), cmocka_unit_test(test_jameson),
                                     cmocka_unit_test(test_ducros),
                                     cmocka_unit_test(test_patterns)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
