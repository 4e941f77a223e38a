/* Subgrid-scale models (physics/eddyvisc.h) against analytic velocity gradients, Van Driest's
 * damping, the filter width and the wall distance (dg/eddyvisc.c) of a box with one wall. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "dg/eddyvisc.h"
#include "physics/eddyvisc.h"
#include "regression/harness.h"

/* Lifted gradients gx, gy, gz [HX_NLIFT] of the velocity gradient g[i][j] = du_i/dx_j. */
static void to_lifted(const double g[3][3], double gx[HX_NLIFT], double gy[HX_NLIFT],
                      double gz[HX_NLIFT]) {
  for (int i = 0; i < 3; i++) {
    gx[LIFT_VEL1 + i] = g[i][0];
    gy[LIFT_VEL1 + i] = g[i][1];
    gz[LIFT_VEL1 + i] = g[i][2];
  }
  gx[LIFT_TEMP] = 0.3; /* a temperature gradient must not matter */
  gy[LIFT_TEMP] = -1.1;
  gz[LIFT_TEMP] = 2.0;
}

static double mu_t_of(int model, double coef, double rho, const double g[3][3]) {
  double gx[HX_NLIFT], gy[HX_NLIFT], gz[HX_NLIFT];
  to_lifted(g, gx, gy, gz);
  return eddy_viscosity(model, coef, rho, gx, gy, gz);
}

/* du/dy = S: |S| = sqrt(2 S_ij S_ij) = |S|, mu_t = rho (CS Delta)^2 |S|. */
static void test_smagorinsky_shear(void **state) {
  (void)state;
  const double S = 3.7, rho = 1.3, CS = 0.17, Delta = 0.05;
  const double g[3][3] = {{0, S, 0}, {0, 0, 0}, {0, 0, 0}};
  double mu = mu_t_of(SGS_SMAGORINSKY, CS * CS * Delta * Delta, rho, g);
  double exact = rho * (CS * Delta) * (CS * Delta) * S;
  printf("  Smagorinsky, shear: mu_t = %.15e, exact %.15e\n", mu, exact);
  assert_true(fabs(mu - exact) <= 1e-14 * exact);
  /* a rotation of the shear (du/dz = S) gives the same */
  const double g2[3][3] = {{0, 0, S}, {0, 0, 0}, {0, 0, 0}};
  assert_true(fabs(mu_t_of(SGS_SMAGORINSKY, CS * CS * Delta * Delta, rho, g2) - exact) <=
              1e-14 * exact);
}

/* Smagorinsky of a general gradient against the textbook sum sqrt(2 S_ij S_ij). */
static void test_smagorinsky_general(void **state) {
  (void)state;
  const double g[3][3] = {{0.3, -1.2, 0.7}, {2.1, -0.5, 0.4}, {-0.9, 1.6, 0.2}};
  double ss = 0.0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      ss += 0.25 * (g[i][j] + g[j][i]) * (g[i][j] + g[j][i]);
  double exact = 0.8 * 0.01 * sqrt(2.0 * ss);
  assert_true(fabs(mu_t_of(SGS_SMAGORINSKY, 0.01, 0.8, g) - exact) <= 1e-14 * exact);
}

/* Vreman and sigma vanish in pure shear (Vreman 2004, Sec. III; Nicoud et al. 2011, Table 1). */
static void test_shear_vanishes(void **state) {
  (void)state;
  const double S = 5.0;
  const double g[3][3] = {{0, S, 0}, {0, 0, 0}, {0, 0, 0}};
  double smag = mu_t_of(SGS_SMAGORINSKY, 1.0, 1.0, g);
  double vr = mu_t_of(SGS_VREMAN, 1.0, 1.0, g), sg = mu_t_of(SGS_SIGMA, 1.0, 1.0, g);
  printf("  pure shear |S| = %g: Vreman %.1e, sigma %.1e\n", smag, vr, sg);
  assert_true(fabs(vr) <= 1e-14 * smag);
  assert_true(fabs(sg) <= 1e-14 * smag);
}

/* sigma vanishes for solid-body rotation and for isotropic and axisymmetric expansion (Nicoud et
 * al. 2011, Sec. III: s1 = s2 or s2 = s3 or s3 = 0). */
static void test_sigma_vanishes(void **state) {
  (void)state;
  const double W = 2.3, a = 0.7, b = -1.9;
  const double rot[3][3] = {{0, -W, 0}, {W, 0, 0}, {0, 0, 0}};
  const double iso[3][3] = {{a, 0, 0}, {0, a, 0}, {0, 0, a}};
  const double axi[3][3] = {{a, 0, 0}, {0, a, 0}, {0, 0, b}};
  /* the axisymmetric strain in a rotated frame: the singular values do not change */
  const double c = cos(0.4), s = sin(0.4);
  const double R[3][3] = {{c, -s, 0}, {s * c, c * c, -s}, {s * s, s * c, c}};
  double axr[3][3] = {{0}};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 3; k++)
        for (int l = 0; l < 3; l++)
          axr[i][j] += R[i][k] * axi[k][l] * R[j][l];
  const double(*cases[4])[3] = {rot, iso, axi, axr};
  const char *names[4] = {"rotation", "isotropic", "axisymmetric", "axisymmetric, rotated"};
  for (int k = 0; k < 4; k++) {
    double smag = mu_t_of(SGS_SMAGORINSKY, 1.0, 1.0, cases[k]) + fabs(W);
    double sg = mu_t_of(SGS_SIGMA, 1.0, 1.0, cases[k]);
    printf("  sigma, %s: %.1e\n", names[k], sg);
    assert_true(fabs(sg) <= 1e-7 * smag);
  }
}

/* sigma of a general gradient: the squared singular values must be the roots of the
 * characteristic polynomial of G = g^T g (det(G - s_k^2 I) = 0), sorted, and D_sigma the formula
 * of Nicoud et al. 2011, eq. 15, of them. */
static double det3(const double A[3][3]) {
  return A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
         A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
         A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
}

static void test_sigma_general(void **state) {
  (void)state;
  const double g[3][3] = {{0.3, -1.2, 0.7}, {2.1, -0.5, 0.4}, {-0.9, 1.6, 0.2}};
  double G[3][3] = {{0}};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      for (int m = 0; m < 3; m++)
        G[i][j] += g[m][i] * g[m][j];
  double sv[3], scale = G[0][0] + G[1][1] + G[2][2];
  sgs_singular_values(g, sv);
  assert_true(sv[0] >= sv[1] && sv[1] >= sv[2] && sv[2] > 0.0);
  for (int k = 0; k < 3; k++) {
    double A[3][3];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        A[i][j] = G[i][j] - (i == j ? sv[k] * sv[k] : 0.0);
    printf("  det(G - s%d^2 I) = %.1e\n", k + 1, det3(A));
    assert_true(fabs(det3(A)) <= 1e-12 * scale * scale * scale);
  }
  /* |det g| = s1 s2 s3 */
  assert_true(fabs(fabs(det3(g)) - sv[0] * sv[1] * sv[2]) <= 1e-12 * fabs(det3(g)));
  double exact = sv[2] * (sv[0] - sv[1]) * (sv[1] - sv[2]) / (sv[0] * sv[0]);
  double mu = mu_t_of(SGS_SIGMA, 1.35 * 1.35 * 0.01, 1.1, g);
  printf("  sigma, general: D = %.15e\n", exact);
  assert_true(fabs(mu - 1.1 * 1.35 * 1.35 * 0.01 * exact) <= 1e-14 * mu);
}

/* Vreman for a general gradient against eq. (5)-(8) written out: alpha_ij = du_j/dx_i,
 * beta_ij = Delta^2 alpha_mi alpha_mj, nu_t = c sqrt(B_beta / (alpha_ij alpha_ij)). */
static void test_vreman_general(void **state) {
  (void)state;
  const double g[3][3] = {{0.3, -1.2, 0.7}, {2.1, -0.5, 0.4}, {-0.9, 1.6, 0.2}};
  const double CS = 0.12, Delta = 0.08, rho = 0.9, c = 2.5 * CS * CS;
  double alpha[3][3], beta[3][3] = {{0}}, aa = 0.0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      alpha[i][j] = g[j][i];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      for (int m = 0; m < 3; m++)
        beta[i][j] += Delta * Delta * alpha[m][i] * alpha[m][j];
      aa += alpha[i][j] * alpha[i][j];
    }
  double B = beta[0][0] * beta[1][1] - beta[0][1] * beta[0][1] + beta[0][0] * beta[2][2] -
             beta[0][2] * beta[0][2] + beta[1][1] * beta[2][2] - beta[1][2] * beta[1][2];
  double exact = rho * c * sqrt(B / aa);
  double mu = mu_t_of(SGS_VREMAN, SGS_VREMAN_FACTOR * CS * CS * Delta * Delta, rho, g);
  printf("  Vreman, general: mu_t = %.15e, eq. 5-8 %.15e\n", mu, exact);
  assert_true(fabs(mu - exact) <= 1e-13 * exact);
  const double zero[3][3] = {{0}};
  assert_true(mu_t_of(SGS_VREMAN, 1.0, 1.0, zero) == 0.0);
  assert_true(mu_t_of(SGS_SIGMA, 1.0, 1.0, zero) == 0.0);
}

static void test_van_driest(void **state) {
  (void)state;
  assert_true(van_driest_damping(0.0) == 0.0);
  assert_true(van_driest_damping(1e-3) < 1e-4);
  assert_true(fabs(van_driest_damping(1e3) - 1.0) < 1e-15);
  assert_true(fabs(van_driest_damping(26.0) - (1.0 - exp(-1.0))) < 1e-15);
  for (double y = 0.0; y < 200.0; y += 1.0) /* monotone */
    assert_true(van_driest_damping(y + 1.0) > van_driest_damping(y));
}

/* A box [0,2] x [0,1.5] x [0,1] with a no-slip wall at y = 0 (the y+ side slip, x and z
 * periodic): the wall distance of every node is its y; the filter width is the element's
 * volume^(1/3) / (N + 1); the coefficient carries the damping. */
static const char *const WALL_BOX[] = {"ProjectName = sgs_wall",
                                       "MeshFile = box",
                                       "BoxElems = (/4,3,2/)",
                                       "BoxLower = (/0,0,0/)",
                                       "BoxUpper = (/2,1.5,1/)",
                                       "BoxPeriodic = (/T,F,T/)",
                                       "N = 3",
                                       "NodeType = GAUSS",
                                       "IniExactFunc = 1",
                                       "RefState = (/1., 0.1, 0., 0., 1./)",
                                       "mu0 = 0.01",
                                       "tend = 0.1",
                                       "BoundaryName = BC_yminus",
                                       "BoundaryType = (/3,0/)",
                                       "BoundaryName = BC_yplus",
                                       "BoundaryType = (/9,0/)",
                                       "eddyViscType = smagorinsky",
                                       "CS = 0.1",
                                       "VanDriest = T",
                                       NULL};

static void test_wall_distance_box(void **state) {
  (void)state;
  Params *p = harness_params(WALL_BOX);
  assert_non_null(p);
  Solver *s = NULL;
  assert_int_equal(solver_create(p, &s), HX_OK);
  const EddyVisc *ev = s->sgs;
  assert_non_null(ev);
  assert_non_null(ev->wall_dist);
  const int n3 = s->n_dof_elem;
  double err = 0.0, delta = cbrt(0.5 * 0.5 * 0.5) / 4.0, derr = 0.0, cerr = 0.0;
  for (int e = 0; e < s->mesh->n_elems; e++) {
    derr = fmax(derr, fabs(ev->delta[e] - delta));
    for (int q = 0; q < n3; q++) {
      double y = s->geo.elem_x[(3L * e + 1) * n3 + q];
      err = fmax(err, fabs(ev->wall_dist[(long)e * n3 + q] - y));
      double damp = 1.0 - exp(-y / 0.01 / 26.0);
      double c = 0.01 * delta * delta * damp * damp;
      cerr = fmax(cerr, fabs(ev->coef[(long)e * n3 + q] - c) / (0.01 * delta * delta));
    }
  }
  printf("  wall distance - y: %.1e, filter width error %.1e, coefficient error %.1e\n", err, derr,
         cerr);
  assert_true(err < 1e-13);
  assert_true(derr < 1e-14);
  assert_true(cerr < 1e-13);
  solver_destroy(s);
  params_destroy(p);
}

/* Inputs FLEXI would refuse or hexdg cannot honour are errors naming the key. */
static void test_bad_input(void **state) {
  (void)state;
  const char *const cases[][3] = {{"eddyViscType = 2", NULL, NULL},
                                  {"eddyViscType = vreman", "VanDriest = T", NULL},
                                  {"mu0 = 0.", NULL, NULL},
                                  {"CS = -0.1", NULL, NULL}};
  for (int k = 0; k < 4; k++) {
    const char *all[64];
    int n = 0;
    for (int i = 0; WALL_BOX[i]; i++)
      all[n++] = WALL_BOX[i];
    for (int i = 0; i < 3 && cases[k][i]; i++)
      all[n++] = cases[k][i];
    all[n] = NULL;
    Params *p = harness_params(all);
    assert_non_null(p);
    Solver *s = NULL;
    assert_int_not_equal(solver_create(p, &s), HX_OK);
    params_destroy(p);
  }
  /* integer codes are accepted as FLEXI does: 4 = sigma */
  const char *all[64];
  int n = 0;
  for (int i = 0; WALL_BOX[i]; i++)
    all[n++] = WALL_BOX[i];
  all[n++] = "eddyViscType = 4";
  all[n++] = "VanDriest = F";
  all[n] = NULL;
  Params *p = harness_params(all);
  Solver *s = NULL;
  assert_int_equal(solver_create(p, &s), HX_OK);
  assert_int_equal(s->sgs->model, SGS_SIGMA);
  assert_null(s->sgs->wall_dist);
  solver_destroy(s);
  params_destroy(p);
}

int main(void) {
  harness_scratch_dir("eddyvisc");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_smagorinsky_shear), cmocka_unit_test(test_smagorinsky_general),
      cmocka_unit_test(test_shear_vanishes),    cmocka_unit_test(test_sigma_vanishes),
      cmocka_unit_test(test_sigma_general),     cmocka_unit_test(test_vreman_general),
      cmocka_unit_test(test_van_driest),        cmocka_unit_test(test_wall_distance_box),
      cmocka_unit_test(test_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
