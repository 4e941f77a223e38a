/* FLEXI's dissipation measures in the time averages (VarNameFluc = DR_u, DR_S): for a linear
 * velocity field u_i = g_ij x_j the BR1-lifted gradient is g exactly in every element whose faces
 * are all interior (the face means of a continuous linear field are the field), so there the
 * averages of a steady state must equal the closed forms: pure shear u = (a y, 0, 0) gives
 * DR_u = S_ij S_ij = a^2/2 and DR_S = g_ij g_ij = a^2; solid-body rotation u = (-W y, W x, 0)
 * gives DR_u = 0 (no strain) and DR_S = 2 W^2; a general g gives the two sums written out. Also:
 * the names and their order in MeanSquare (FLEXI: DR_u, DR_S, TKE after the entries with a mean)
 * and the error without viscosity. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "analysis/timeavg.h"
#include "regression/harness.h"

static const char *const BOX[] = {"ProjectName = tavg_dr",
                                  "MeshFile = box",
                                  "BoxElems = (/4,4,4/)",
                                  "BoxLower = (/-1.,-1.,-1./)",
                                  "BoxUpper = (/1.,1.,1./)",
                                  "BoxPeriodic = (/F,F,F/)",
                                  "N = 3",
                                  "IniExactFunc = 1",
                                  "RefState = (/1., 0., 0., 0., 100./)",
                                  "mu0 = 1e-3",
                                  "tend = 1.",
                                  "CalcErrorNorms = F",
                                  "Backend = cpu",
                                  "CalcTimeAverage = T",
                                  "VarNameFluc = TKE",
                                  "VarNameFluc = DR_S",
                                  "VarNameFluc = DR_u",
                                  "VarNameAvg = Pressure",
                                  NULL};

/* rho = 1, p = 100, u = g x at every node. */
static void set_linear_state(Solver *s, const double g[3][3]) {
  const int n3 = s->n_dof_elem;
  const double kappa = s->phys.kappa;
  for (int e = 0; e < s->mesh->n_elems; e++)
    for (int q = 0; q < n3; q++) {
      double x[3], u[3], *U = &s->U[(long)e * HX_NVAR * n3 + q];
      for (int c = 0; c < 3; c++)
        x[c] = s->geo.elem_x[(3L * e + c) * n3 + q];
      for (int i = 0; i < 3; i++)
        u[i] = g[i][0] * x[0] + g[i][1] * x[1] + g[i][2] * x[2];
      U[0] = 1.0;
      for (int i = 0; i < 3; i++)
        U[(1 + i) * n3] = u[i];
      U[4 * n3] = 100.0 / (kappa - 1.0) + 0.5 * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    }
}

static int entry(const TimeAvg *ta, const char *name) {
  for (int k = 0; k < ta->n_sums; k++)
    if (strcmp(ta->names[k], name) == 0) return k;
  return -1;
}

/* The window's means of DR_u and DR_S over one steady step, largest deviation from the closed
 * forms over the interior elements. */
static void check_field(const char *label, const double g[3][3], double dr_u, double dr_s) {
  Simulation *sim = harness_sim(BOX, NULL, NULL);
  assert_non_null(sim);
  Solver *s = sim->solver;
  set_linear_state(s, g);
  Params *p = harness_params(BOX);
  assert_non_null(p);
  TimeAvg ta;
  assert_int_equal(timeavg_init(p, s, 0.0, &ta), HX_OK);
  params_destroy(p);
  assert_int_equal(timeavg_update(&ta, s, 0.5, 0.5), HX_OK); /* steady: the mean is the value */
  const int iu = entry(&ta, "DR_u"), is = entry(&ta, "DR_S"), n3 = s->n_dof_elem;
  assert_true(iu >= 0 && is >= 0);
  const double lo = -0.5, hi = 0.5; /* the 2^3 elements away from the boundary */
  double err_u = 0.0, err_s = 0.0;
  int n_inner = 0;
  for (int e = 0; e < s->mesh->n_elems; e++) {
    int inner = 1;
    double xc[3] = {0, 0, 0}; /* the centroid: inside [-0.5, 0.5]^3 for the inner elements */
    for (int q = 0; q < n3; q++)
      for (int c = 0; c < 3; c++)
        xc[c] += s->geo.elem_x[(3L * e + c) * n3 + q] / n3;
    for (int c = 0; c < 3; c++)
      if (xc[c] < lo || xc[c] > hi) inner = 0;
    if (!inner) continue;
    n_inner++;
    for (int q = 0; q < n3; q++) {
      const double *sums = &ta.sums[(long)e * ta.n_sums * n3 + q];
      err_u = fmax(err_u, fabs(sums[iu * n3] / ta.avg_time - dr_u));
      err_s = fmax(err_s, fabs(sums[is * n3] / ta.avg_time - dr_s));
    }
  }
  printf("  %-16s %d interior elements: DR_u %.6g (error %.1e), DR_S %.6g (error %.1e)\n", label,
         n_inner, dr_u, err_u, dr_s, err_s);
  assert_int_equal(n_inner, 8);
  const double scale = fmax(1.0, dr_s);
  assert_true(err_u < 1e-11 * scale);
  assert_true(err_s < 1e-11 * scale);
  timeavg_free(&ta);
  simulation_destroy(sim);
}

static void test_shear(void **state) {
  (void)state;
  const double a = 3.0, g[3][3] = {{0, a, 0}, {0, 0, 0}, {0, 0, 0}};
  check_field("shear a = 3", g, 0.5 * a * a, a * a);
}

static void test_solid_rotation(void **state) {
  (void)state;
  const double w = 2.5, g[3][3] = {{0, -w, 0}, {w, 0, 0}, {0, 0, 0}};
  check_field("rotation W = 2.5", g, 0.0, 2.0 * w * w);
}

static void test_general_gradient(void **state) {
  (void)state;
  const double g[3][3] = {{0.3, -1.2, 0.7}, {0.4, -0.5, 2.0}, {-0.9, 0.1, 0.2}};
  double dr_u = 0.0, dr_s = 0.0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      dr_u += 0.25 * (g[i][j] + g[j][i]) * (g[i][j] + g[j][i]);
      dr_s += g[i][j] * g[i][j];
    }
  check_field("general g", g, dr_u, dr_s);
}

/* FLEXI's order: Mean in its list order (rho, u, v, w implied by DR and TKE; Pressure), then
 * MeanSquare with a mean first, then DR_u, DR_S, TKE whatever the order of the keys. */
static void test_names_and_errors(void **state) {
  (void)state;
  Simulation *sim = harness_sim(BOX, NULL, NULL);
  assert_non_null(sim);
  const TimeAvg *ta = &sim->tavg;
  const char *want[] = {"Density",  "VelocityX", "VelocityY", "VelocityZ",
                        "Pressure", "DR_u",      "DR_S",      "TKE"};
  assert_int_equal(ta->n_sums, 8);
  for (int k = 0; k < 8; k++)
    assert_string_equal(ta->names[k], want[k]);
  simulation_destroy(sim);
  const char *euler[] = {"mu0 = 0.", NULL};
  assert_null(harness_sim(BOX, euler, NULL)); /* DR without lifted gradients: an input error */
}

int main(void) {
  harness_scratch_dir("timeavg_dissipation");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shear),
      cmocka_unit_test(test_solid_rotation),
      cmocka_unit_test(test_general_gradient),
      cmocka_unit_test(test_names_and_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
