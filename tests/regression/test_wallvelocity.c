/* CalcWallVelocity on a plane Couette profile u = U (y - y0) / h between a no-slip wall (y = y0,
 * adiabatic, type 3) and a slip wall (y = y0 + h, type 9): BR1 lifts the linear profile exactly,
 * so at every point of the no-slip wall tau_w = mu U / h and u_tau = sqrt(tau_w / rho) (the
 * analytic Couette values), the velocity there is zero, and on the slip wall u_tau = 0 with the
 * velocity U. A short run writes <ProjectName>_WallVel_<BC>.csv, whose first line (a uniform
 * state) has the free-stream speed as mean, min and max wall velocity. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "analysis/wallvelocity.h"
#include "harness.h"

#define MU 0.02
#define USHEAR 0.4
#define Y0 (-1.0)
#define H 2.0

static const char *const COUETTE[] = {"ProjectName = wallvel",
                                      "MeshFile = box",
                                      "BoxElems = (/2,3,2/)",
                                      "BoxPeriodic = (/T,F,T/)",
                                      "N = 4",
                                      "NodeType = GAUSS-LOBATTO",
                                      "IniExactFunc = 1",
                                      "mu0 = 0.02",
                                      "tend = 1",
                                      "maxIter = 2",
                                      "CalcErrorNorms = F",
                                      "Backend = cpu",
                                      "BoundaryName = BC_yminus",
                                      "BoundaryType = (/3,0/)",
                                      "BoundaryName = BC_yplus",
                                      "BoundaryType = (/9,0/)",
                                      "CalcWallVelocity = T",
                                      NULL};

/* U = Couette profile at every node. */
static void set_couette(Solver *s) {
  long nde = s->n_dof_elem;
  for (int e = 0; e < s->mesh->n_elems; e++)
    for (long i = 0; i < nde; i++) {
      double y = s->geo.elem_x[((long)e * 3 + 1) * nde + i];
      double prim[HX_NPRIM] = {1.2, USHEAR * (y - Y0) / H, 0.0, 0.0, 1.0, 0.0}, u[HX_NVAR];
      prim_to_cons(&s->phys, prim, u);
      for (int v = 0; v < HX_NVAR; v++)
        s->U[((long)e * s->n_var + v) * nde + i] = u[v];
    }
}

static void test_couette_wall_shear_is_exact(void **state) {
  (void)state;
  const char *extra[] = {"RefState = (/1.2, 0., 0., 0., 1./)", NULL};
  Simulation *sim = harness_sim(COUETTE, extra, NULL);
  assert_non_null(sim);
  Solver *s = sim->solver;
  set_couette(s);
  prolong_to_face(s, s->U);
  lifting(s, s->U, s->Ut, 0.0);
  double *vals = calloc((size_t)s->mesh->n_bcs * WALLVEL_NCOLS, sizeof(double));
  assert_int_equal(wallvelocity_compute(s, vals), HX_OK);
  const double tauw = MU * USHEAR / H, utau = sqrt(tauw / 1.2);
  const double *w = &vals[WALLVEL_NCOLS * harness_bc_index(s->mesh, "BC_yminus")];
  const double *slip = &vals[WALLVEL_NCOLS * harness_bc_index(s->mesh, "BC_yplus")];
  printf("  no-slip wall: tau_w %.15e (mu U/h %.15e), u_tau mean/min/max %.15e %.15e %.15e "
         "(exact %.15e), max |u| %.1e\n",
         w[WALLVEL_MEAN_TAUW], tauw, w[WALLVEL_MEAN_UTAU], w[WALLVEL_MIN_UTAU], w[WALLVEL_MAX_UTAU],
         utau, w[WALLVEL_MAX_VEL]);
  printf("  slip wall: u_tau max %.1e, velocity mean/min/max %.15e %.15e %.15e (U %.3f)\n",
         slip[WALLVEL_MAX_UTAU], slip[WALLVEL_MEAN_VEL], slip[WALLVEL_MIN_VEL],
         slip[WALLVEL_MAX_VEL], USHEAR);
  assert_true(fabs(w[WALLVEL_MEAN_TAUW] - tauw) < 1e-12 * tauw);
  for (int c = WALLVEL_MEAN_UTAU; c <= WALLVEL_MAX_UTAU; c++)
    assert_true(fabs(w[c] - utau) < 1e-12 * utau);
  assert_true(w[WALLVEL_MAX_VEL] < 1e-13);
  assert_true(slip[WALLVEL_MAX_UTAU] == 0.0);
  for (int c = WALLVEL_MEAN_VEL; c <= WALLVEL_MAX_VEL; c++)
    assert_true(fabs(slip[c] - USHEAR) < 1e-13);
  free(vals);
  simulation_destroy(sim);
}

static void test_run_writes_wallvel_csv(void **state) {
  (void)state;
  const char *extra[] = {"RefState = (/1.2, 0.3, 0., 0., 1./)", "BoxCurving = 0.05", "NGeo = 3",
                         NULL};
  remove("wallvel_WallVel_BC_yminus.csv");
  Simulation *sim = harness_sim(COUETTE, extra, NULL);
  assert_non_null(sim);
  assert_int_equal(simulation_run(sim), HX_OK);
  simulation_destroy(sim);
  FILE *f = fopen("wallvel_WallVel_BC_yminus.csv", "r");
  assert_non_null(f);
  char line[1024];
  assert_non_null(fgets(line, sizeof line, f));
  assert_true(!strncmp(line, "time,MeanVel,MinVel,MaxVel,MeanUtau,MinUtau,MaxUtau,MeanTauW\n", 61));
  double v[1 + WALLVEL_NCOLS];
  int rows = 0;
  while (fgets(line, sizeof line, f)) {
    assert_int_equal(sscanf(line, "%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &v[0], &v[1], &v[2], &v[3],
                            &v[4], &v[5], &v[6], &v[7]),
                     8);
    if (rows++ == 0) {
      printf("  first line: t = %g, wall velocity mean/min/max %.15f %.15f %.15f (free stream "
             "0.3)\n",
             v[0], v[1], v[2], v[3]);
      assert_true(v[0] == 0.0);
      for (int c = 1; c <= 3; c++)
        assert_true(fabs(v[c] - 0.3) < 1e-13);
    }
  }
  fclose(f);
  printf("  %d lines in wallvel_WallVel_BC_yminus.csv\n", rows);
  assert_int_equal(rows, 2); /* the start and the stop after maxIter */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_couette_wall_shear_is_exact),
      cmocka_unit_test(test_run_writes_wallvel_csv),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
