/* FV switching on Gauss nodes (FLEXI's FV = SWITCH with NODETYPE = GAUSS, dg/fv_gauss.h):
 * a free stream stays to round-off on a curved mesh with every element FV and with a checkerboard
 * of FV and DG elements (the mixed sides' face subcells); the integral of every conservative
 * variable (DG elements sum w J U, FV elements sum h^3 J_FV U) stays constant to round-off on a
 * periodic curved mesh while elements switch; Sod's shock tube converges in L1 to the exact
 * solution (physics/riemann_exact.h) as the mesh is refined; FLEXI's time step and its physical
 * reconstruction distances on an affine box. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "dg/fv_gauss.h"
#include "dg/indicator.h"
#include "fv_gauss_cases.h"
#include "harness.h"
#include "io/state.h"
#include "mesh/facemap.h"
#include "physics/eos.h"
#include "physics/riemann_exact.h"
#include "time/timedisc.h"

static const char *const BASE[] = {"ProjectName = fv_gauss",
                                   "MeshFile = box",
                                   "BoxLower = (/-1., -1., -1./)",
                                   "BoxUpper = (/1., 1., 1./)",
                                   "BoxPeriodic = (/T,T,T/)",
                                   "BoxElems = (/3,3,2/)",
                                   "N = 3",
                                   "NodeType = GAUSS",
                                   "CalcErrorNorms = F",
                                   "FV_Mode = switching",
                                   "FV_LimiterType = MinMod",
                                   "Riemann = HLLEM",
                                   "Backend = cpu",
                                   NULL};

/* Free stream on a curved box (all FV, FV/DG checkerboard) and conservation while elements
 * switch (fv_gauss_cases.h). */
static void test_freestream_conservation(void **state) {
  (void)state;
  fvg_assert_freestream_and_conservation(BASE, NULL);
}

/* L1 error of the density against the exact Sod solution (x0 = 0.5) at the end time: FV elements
 * by their subcell means at the subcell centres, DG elements at their nodes, both weighted by
 * their volumes. */
static double sod_l1(int n_elems, int *n_fv) {
  char elems[64];
  snprintf(elems, sizeof elems, "BoxElems = (/%d,1,1/)", n_elems);
  const char *extra[] = {"BoxLower = (/0., 0., 0./)",
                         "BoxUpper = (/1., 0.05, 0.05/)",
                         "BoxPeriodic = (/F,T,T/)",
                         elems,
                         "N = 2",
                         "IniExactFunc = 11",
                         "tend = 0.15",
                         "CFLscale = 0.5",
                         "IndicatorType = persson",
                         "IndVar = 1",
                         "IndStartTime = 0.001",
                         "FV_IndUpperThreshold = -3.",
                         "FV_IndLowerThreshold = -4.",
                         NULL};
  Simulation *sim = harness_sim(BASE, extra, NULL);
  assert_non_null(sim);
  assert_int_equal(simulation_run(sim), HX_OK);
  const Solver *s = sim->solver;
  const int np = s->np, n3 = s->n_dof_elem;
  const double left[3] = {1.0, 0.0, 1.0}, right[3] = {0.125, 0.0, 0.1};
  const double h = s->fv.gauss->h, dx = 1.0 / n_elems;
  double err = 0.0;
  for (int e = 0; e < s->mesh->n_elems; e++) {
    const double x_left = s->geo.elem_x[3L * n3 * e] - 0.5 * dx * (1.0 + s->disc.x[0]);
    for (int i = 0; i < np; i++) { /* one line of nodes: the solution is 1-D */
      const int fv = s->fv.fv_elems[e];
      const double xi = fv ? -1.0 + (i + 0.5) * h : s->disc.x[i];
      const double wi = fv ? h : s->disc.w[i];
      double ex[3];
      riemann_exact_solution(s->phys.kappa, left, right, 0.5, x_left + 0.5 * dx * (xi + 1.0),
                             sim->t, ex);
      err += 0.5 * dx * wi * fabs(s->U[(long)e * s->n_var * n3 + i] - ex[0]);
    }
  }
  *n_fv = fvg_count_fv(s);
  printf("  Sod, %3d elements N = 2, t = %.3f: %d FV elements, L1(rho) = %.4e\n", n_elems, sim->t,
         *n_fv, err);
  simulation_destroy(sim);
  return err;
}

static void test_sod_convergence(void **state) {
  (void)state;
  int n_fv[3];
  const double e1 = sod_l1(16, &n_fv[0]), e2 = sod_l1(32, &n_fv[1]), e3 = sod_l1(64, &n_fv[2]);
  printf("  L1 ratios %.2f, %.2f (first order at the discontinuities: 2; at least 1.5 asked)\n",
         e1 / e2, e2 / e3);
  assert_true(e1 / e2 > 1.5 && e2 / e3 > 1.5);
  assert_true(e3 < 5e-3);
  assert_true(n_fv[2] > 0);
}

/* Restart identity with switching active: the state file carries FLEXI's FV_Elems (ElemData,
 * VarNamesAdd) and the restarted run ends bitwise on the uninterrupted one. */
static void test_restart_identity(void **state) {
  (void)state;
  const char *extra[] = {"ProjectName = fvg_restart",
                         "BoxLower = (/0., 0., 0./)",
                         "BoxUpper = (/1., 0.05, 0.05/)",
                         "BoxPeriodic = (/F,T,T/)",
                         "BoxElems = (/30,1,1/)",
                         "N = 2",
                         "IniExactFunc = 11",
                         "tend = 0.1",
                         "Analyze_dt = 0.05",
                         "IndicatorType = persson",
                         "IndVar = 1",
                         "IndStartTime = 0.001",
                         "FV_IndUpperThreshold = -3.",
                         "FV_IndLowerThreshold = -4.",
                         NULL};
  Simulation *full = harness_sim(BASE, extra, NULL);
  assert_non_null(full);
  assert_int_equal(simulation_run(full), HX_OK);
  const long n = (long)full->solver->n_var * full->solver->n_dof;
  double *u_full = malloc(sizeof(double) * n);
  memcpy(u_full, full->solver->U, sizeof(double) * n);
  const long steps_full = full->iter;
  const int fv_full = fvg_count_fv(full->solver);
  simulation_destroy(full);

  char mid[1100];
  state_file_name(mid, sizeof mid, "fvg_restart", 0.05);
  double fv_mid[30];
  int found = 0;
  assert_int_equal(state_read_fv_elems(mid, 30, fv_mid, &found), HX_OK);
  assert_int_equal(found, 1);
  int n_fv_mid = 0;
  for (int e = 0; e < 30; e++)
    n_fv_mid += fv_mid[e] != 0.0;
  Simulation *again = harness_sim(BASE, extra, mid);
  assert_non_null(again);
  assert_int_equal(fvg_count_fv(again->solver), n_fv_mid);
  assert_int_equal(simulation_run(again), HX_OK);
  long differing = 0;
  for (long q = 0; q < n; q++)
    differing += memcmp(&u_full[q], &again->solver->U[q], sizeof(double)) != 0;
  printf("  restart at t = 0.05 with %d FV elements (FV_Elems of the file): %ld + %ld steps, %d "
         "FV elements at the end; %ld of %ld values differ\n",
         n_fv_mid, steps_full - again->iter, again->iter, fv_full, differing, n);
  assert_true(n_fv_mid > 0);
  assert_int_equal(differing, 0);
  simulation_destroy(again);
  free(u_full);
}

/* FLEXI's reconstruction distances (fv_metrics.f90): on the affine box (edges 2/3, 2/3, 1) a
 * subcell centre lies half a subcell width from both of its faces, and the first Gauss node of a
 * DG neighbour (1 + xi_0) edge / 2 from the element face; on both sides of every face. */
static void test_reconstruction_distances(void **state) {
  (void)state;
  const char *extra[] = {"IndicatorType = fv", "IniExactFunc = 1",
                         "RefState = (/1.0, 0.3, -0.2, 0.1, 0.71428571/)", "tend = 1.", NULL};
  Simulation *sim = harness_sim(BASE, extra, NULL);
  assert_non_null(sim);
  const Solver *s = sim->solver;
  const struct FVGauss *g = s->fv.gauss;
  const int np = s->np, n3 = s->n_dof_elem, n2 = s->n_dof_face;
  const double edge[3] = {2.0 / 3.0, 2.0 / 3.0, 1.0};
  double worst = 0.0;
  for (int e = 0; e < s->mesh->n_elems; e++)
    for (int d = 0; d < 3; d++)
      for (int q = 0; q < n3; q++) {
        const long at = ((long)e * 3 + d) * n3 + q;
        const double half = 0.5 * edge[d] / np;
        worst = fmax(worst, fmax(fabs(g->dx_l[at] - half), fabs(g->dx_r[at] - half)));
      }
  for (int side = 0; side < s->mesh->n_sides; side++) {
    const int e = s->mesh->side_master_elem[side];
    const int d = side_normal_dir(s->mesh->side_master_locside[side]);
    const double fv = 0.5 * edge[d] / np, dg = (1.0 + s->disc.x[0]) * 0.5 * edge[d];
    for (int f = 0; f < n2 && e >= 0; f++)
      for (int k = 0; k < 2; k++) {
        const double *dist = k ? g->dist_slave : g->dist_master;
        worst = fmax(worst, fabs(dist[2L * n2 * side + f] - fv));
        worst = fmax(worst, fabs(dist[2L * n2 * side + n2 + f] - dg));
      }
  }
  printf("  reconstruction distances on the affine box: largest error %.2e\n", worst);
  assert_true(worst < 1e-14);
  simulation_destroy(sim);
}

/* FLEXI's time step (calctimestep.f90, timedisc_vars.f90): a DG element takes
 * CFLscale alpha(N) / (2N+1) 2 / lambda, an FV element CFLscale alpha_Gauss(1) / (N+1) 2 / lambda,
 * lambda = sum over the directions (zeta left out with Dimension = 2) of sJ (|v . Ja| + c |Ja|).
 * On the affine box (edges 2/3, 2/3, 1) of a free stream the bounds are evaluated here. */
static double box_dt(const char *const *extra) {
  Simulation *sim = harness_sim(BASE, extra, NULL);
  assert_non_null(sim);
  assert_int_equal(simulation_run(sim), HX_OK); /* maxIter steps: FV_Elems set by the indicator */
  const double dt = timedisc_calc_dt(sim->solver, &sim->td);
  simulation_destroy(sim);
  return dt;
}

static void test_flexi_time_step(void **state) {
  (void)state;
  const double rho = 1.0, u[3] = {0.3, -0.2, 0.1}, p = 0.71428571, c = sqrt(1.4 * p / rho);
  const double h[3] = {2.0 / 3.0, 2.0 / 3.0, 1.0};
  double lam3 = 0.0, lam2 = 0.0;
  for (int d = 0; d < 3; d++) {
    const double l = (fabs(u[d]) + c) * 2.0 / h[d];
    lam3 += l;
    if (d < 2) lam2 += l;
  }
  const LowStorageRK *rk = rk_find("carpenterrk4-5");
  const int N = 3;
  const double dg3 = 0.9 * rk->cfl_alpha_gauss[N] / (2.0 * N + 1.0) * 2.0 / lam3;
  const double fv3 = 0.9 * rk->cfl_alpha_gauss[1] / (N + 1.0) * 2.0 / lam3;
  const double dg2 = 0.9 * rk->cfl_alpha_gauss[N] / (2.0 * N + 1.0) * 2.0 / lam2;
  const char *common[] = {"IniExactFunc = 1", "RefState = (/1.0, 0.3, -0.2, 0.1, 0.71428571/)",
                          "tend = 1.", "maxIter = 1"};
  const char *dg[] = {common[0], common[1], common[2], common[3], "IndicatorType = none", NULL};
  const char *fv[] = {common[0], common[1], common[2], common[3], "IndicatorType = fv", NULL};
  const double got_dg = box_dt(dg), got_fv = box_dt(fv);
  printf("  DG dt %.15e (expected %.15e), FV dt %.15e (expected %.15e)\n", got_dg, dg3, got_fv,
         fv3);
  assert_true(fabs(got_dg - dg3) < 1e-14 * dg3);
  assert_true(fabs(got_fv - fv3) < 1e-14 * fv3);
  /* Dimension = 2 on a one-layer box (edge 2 in z): zeta left out */
  static const char *const BOX2D[] = {"ProjectName = fv_gauss_2d",
                                      "MeshFile = box",
                                      "BoxLower = (/-1., -1., -1./)",
                                      "BoxUpper = (/1., 1., 1./)",
                                      "BoxPeriodic = (/T,T,T/)",
                                      "BoxElems = (/3,3,1/)",
                                      "N = 3",
                                      "NodeType = GAUSS",
                                      "CalcErrorNorms = F",
                                      "Backend = cpu",
                                      "IniExactFunc = 1",
                                      "RefState = (/1.0, 0.3, -0.2, 0.1, 0.71428571/)",
                                      "tend = 1.",
                                      NULL};
  const char *two[] = {"Dimension = 2", NULL}, *three[] = {"Dimension = 3", NULL};
  Simulation *sim = harness_sim(BOX2D, two, NULL);
  assert_non_null(sim);
  const double got_2d = timedisc_calc_dt(sim->solver, &sim->td);
  simulation_destroy(sim);
  sim = harness_sim(BOX2D, three, NULL);
  assert_non_null(sim);
  const double got_3d_one_layer = timedisc_calc_dt(sim->solver, &sim->td);
  simulation_destroy(sim);
  /* the one-layer box has edge 2 in z: lambda_z = (|w| + c) 2 / 2 */
  const double dg3_one =
      0.9 * rk->cfl_alpha_gauss[N] / (2.0 * N + 1.0) * 2.0 / (lam2 + (fabs(u[2]) + c) * 2.0 / 2.0);
  printf("  Dimension = 2: dt %.15e (expected %.15e); Dimension = 3 on the same mesh %.15e "
         "(expected %.15e)\n",
         got_2d, dg2, got_3d_one_layer, dg3_one);
  assert_true(fabs(got_2d - dg2) < 1e-14 * dg2);
  assert_true(fabs(got_3d_one_layer - dg3_one) < 1e-14 * dg3_one);
  /* two layers in zeta: Dimension = 2 is refused, the same case with Dimension = 3 runs */
  const char *layers2[] = {common[0], common[1], common[2], "Dimension = 2", NULL};
  const char *layers3[] = {common[0], common[1], common[2], "Dimension = 3", NULL};
  assert_null(harness_sim(BASE, layers2, NULL));
  sim = harness_sim(BASE, layers3, NULL);
  assert_non_null(sim);
  simulation_destroy(sim);
}

int main(void) {
  harness_scratch_dir("fv_gauss");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_freestream_conservation), cmocka_unit_test(test_sod_convergence),
      cmocka_unit_test(test_restart_identity), cmocka_unit_test(test_flexi_time_step),
      cmocka_unit_test(test_reconstruction_distances)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
