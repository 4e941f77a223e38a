/* Boundary conditions by FLEXI's codes, set with BoundaryName/BoundaryType on the box:
 * - slip walls (9) and a pressure outflow (24) keep a parallel free stream to round-off;
 * - a closed box with slip walls (Euler) or adiabatic no-slip walls (Navier-Stokes) conserves
 *   mass and energy to round-off, because no mass or energy crosses such walls;
 * - a gas at rest at the wall temperature stays at rest between isothermal walls (4);
 * - an unknown boundary name or an unsupported type is a clear error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "harness.h"

static void run_freestream(const char *const *lines, const char *label) {
  Simulation *sim = harness_sim(lines, NULL, NULL);
  assert_non_null(sim);
  assert_int_equal(simulation_run(sim), HX_OK);
  double dev = harness_freestream_deviation(sim->solver);
  printf("  %-48s max|U-U0| = %.3e (%ld steps)\n", label, dev, sim->iter);
  assert_true(dev < 1e-12);
  simulation_destroy(sim);
}

static void test_slip_walls_and_outflow_keep_free_stream(void **state) {
  (void)state;
  const char *slip[] = {
      "ProjectName = bc_slip", "MeshFile = box", "BoxElems = (/3,3,2/)", "NGeo = 3",
      "BoxCurving = 0.06", "BoxPeriodic = (/T,F,F/)", "N = 3", "NodeType = GAUSS-LOBATTO",
      "SplitDG = PI", "IniExactFunc = 1", "RefState = (/1.1, 0.3, 0., 0., 0.8/)", "tend = 10",
      "maxIter = 40", "CalcErrorNorms = F", "Backend = cpu", "BoundaryName = BC_yminus",
      "BoundaryType = (/9,0/)", "BoundaryName = BC_yplus", "BoundaryType = (/9,0/)",
      "BoundaryName = BC_zminus", "BoundaryType = (/9,0/)", "BoundaryName = BC_zplus",
      "BoundaryType = (/9,0/)", NULL};
  run_freestream(slip, "slip walls in y and z, flow along x");
  const char *outflow[] = {
      "ProjectName = bc_outflow", "MeshFile = box", "BoxElems = (/3,2,2/)", "NGeo = 3",
      "BoxCurving = 0.06", "BoxPeriodic = (/F,T,T/)", "N = 3", "NodeType = GAUSS",
      "IniExactFunc = 1", "RefState = (/1.1, 0.3, 0.1, 0., 0.8/)", "tend = 10", "maxIter = 40",
      "CalcErrorNorms = F", "Backend = cpu", "mu0 = 0.01", "BoundaryName = BC_xplus",
      "BoundaryType = (/24,1/)", NULL};
  run_freestream(outflow, "exact inflow, pressure outflow, viscous");
}

static void check_closed_box(const char *const *lines, const char *label) {
  Simulation *sim = harness_sim(lines, NULL, NULL);
  assert_non_null(sim);
  double before[HX_NVAR], after[HX_NVAR];
  analyze_totals(sim->solver, before);
  assert_int_equal(simulation_run(sim), HX_OK);
  analyze_totals(sim->solver, after);
  double dm = fabs(after[DENS] - before[DENS]) / before[DENS];
  double de = fabs(after[ENER] - before[ENER]) / before[ENER];
  double dmom = fabs(after[MOM1] - before[MOM1]) / before[DENS];
  printf("  %-48s mass %.1e energy %.1e (x-momentum changes by %.1e: wall forces)\n", label, dm,
         de, dmom);
  assert_true(dm < 1e-12 && de < 1e-12);
  simulation_destroy(sim);
}

static void test_closed_boxes_conserve_mass_and_energy(void **state) {
  (void)state;
  const char *slip[] = {
      "ProjectName = bc_closed_slip", "MeshFile = box", "BoxElems = (/3,3,3/)", "NGeo = 3",
      "BoxCurving = 0.05", "BoxPeriodic = (/F,F,F/)", "N = 3", "NodeType = GAUSS-LOBATTO",
      "SplitDG = PI", "Riemann = RoeEntropyFix", "IniExactFunc = 2", "AdvVel = (/0.3,0.2,0.1/)",
      "tend = 0.3", "CalcErrorNorms = F", "Backend = cpu", "BoundaryName = BC_xminus",
      "BoundaryType = (/9,0/)", "BoundaryName = BC_xplus", "BoundaryType = (/9,0/)",
      "BoundaryName = BC_yminus", "BoundaryType = (/9,0/)", "BoundaryName = BC_yplus",
      "BoundaryType = (/9,0/)", "BoundaryName = BC_zminus", "BoundaryType = (/9,0/)",
      "BoundaryName = BC_zplus", "BoundaryType = (/9,0/)", NULL};
  check_closed_box(slip, "closed box, slip walls, Euler");
  const char *noslip[] = {
      "ProjectName = bc_closed_wall", "MeshFile = box", "BoxElems = (/3,3,3/)", "NGeo = 3",
      "BoxCurving = 0.05", "BoxPeriodic = (/F,F,F/)", "N = 3", "NodeType = GAUSS",
      "IniExactFunc = 2", "AdvVel = (/0.3,0.2,0.1/)", "mu0 = 0.02", "tend = 0.3",
      "CalcErrorNorms = F", "Backend = cpu", "BoundaryName = BC_xminus",
      "BoundaryType = (/3,0/)", "BoundaryName = BC_xplus", "BoundaryType = (/3,0/)",
      "BoundaryName = BC_yminus", "BoundaryType = (/3,0/)", "BoundaryName = BC_yplus",
      "BoundaryType = (/3,0/)", "BoundaryName = BC_zminus", "BoundaryType = (/3,0/)",
      "BoundaryName = BC_zplus", "BoundaryType = (/3,0/)", NULL};
  check_closed_box(noslip, "closed box, adiabatic no-slip walls, viscous");
}

static void test_isothermal_walls_keep_gas_at_rest(void **state) {
  (void)state;
  /* RefState 1: the gas; RefState 2: same temperature p/(rho R) for the walls */
  const char *rest[] = {
      "ProjectName = bc_isothermal", "MeshFile = box", "BoxElems = (/2,2,3/)", "NGeo = 2",
      "BoxCurving = 0.05", "BoxPeriodic = (/T,T,F/)", "N = 4", "NodeType = GAUSS-LOBATTO",
      "SplitDG = KG", "IniExactFunc = 1", "RefState = (/1.2, 0., 0., 0., 0.9/)",
      "RefState = (/2.4, 0., 0., 0., 1.8/)", "mu0 = 0.05", "tend = 10", "maxIter = 40",
      "CalcErrorNorms = F", "Backend = cpu", "BoundaryName = BC_zminus",
      "BoundaryType = (/4,2/)", "BoundaryName = BC_zplus", "BoundaryType = (/4,2/)", NULL};
  run_freestream(rest, "gas at rest between isothermal walls");
}

/* CalcBodyForces: gas at rest (p0 = 0.9) in a closed curved box with slip, adiabatic and
 * isothermal walls: each wall carries p0 * area * n and no viscous force. */
static void test_body_forces_at_rest(void **state) {
  (void)state;
  const char *rest[] = {
      "ProjectName = bc_forces", "MeshFile = box", "BoxElems = (/2,2,2/)", "NGeo = 3",
      "BoxCurving = 0.05", "BoxPeriodic = (/F,F,F/)", "BoxUpper = (/1.,2.,3./)", "N = 3",
      "NodeType = GAUSS", "IniExactFunc = 1", "RefState = (/1.2, 0., 0., 0., 0.9/)",
      "mu0 = 0.01", "tend = 10", "maxIter = 5", "CalcErrorNorms = F", "Backend = cpu",
      "CalcBodyForces = T", "BoundaryName = BC_xminus", "BoundaryType = (/9,0/)",
      "BoundaryName = BC_xplus", "BoundaryType = (/9,0/)", "BoundaryName = BC_yminus",
      "BoundaryType = (/3,0/)", "BoundaryName = BC_yplus", "BoundaryType = (/3,0/)",
      "BoundaryName = BC_zminus", "BoundaryType = (/4,1/)", "BoundaryName = BC_zplus",
      "BoundaryType = (/4,1/)", NULL};
  Simulation *sim = harness_sim(rest, NULL, NULL);
  assert_non_null(sim);
  assert_int_equal(simulation_run(sim), HX_OK);
  simulation_destroy(sim);
  /* box [-1,1] x [-1,2] x [-1,3]: face areas 12 (x), 8 (y), 6 (z) */
  const char *names[] = {"BC_xplus", "BC_yminus", "BC_zplus"};
  const double expect[3][3] = {{0.9 * 12, 0, 0}, {0, -0.9 * 8, 0}, {0, 0, 0.9 * 6}};
  for (int b = 0; b < 3; b++) {
    char path[256], line[1024];
    snprintf(path, sizeof path, "bc_forces_BodyForces_%s.csv", names[b]);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f)) {
      if (line[0] == 't') continue;
      double t, F[9];
      assert_int_equal(sscanf(line, "%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &t, &F[0], &F[1],
                              &F[2], &F[3], &F[4], &F[5], &F[6], &F[7], &F[8]),
                       10);
      for (int c = 0; c < 3; c++) {
        assert_true(fabs(F[c] - expect[b][c]) < 1e-10);
        assert_true(fabs(F[3 + c]) < 1e-10);
      }
    }
    fclose(f);
    printf("  body force on %s at rest: (%g, %g, %g) as p0 A n, no viscous force\n", names[b],
           expect[b][0], expect[b][1], expect[b][2]);
  }
}

static void test_bad_boundary_input(void **state) {
  (void)state;
  const char *unknown[] = {"ProjectName = bc_bad", "MeshFile = box", "BoxPeriodic = (/F,T,T/)",
                           "N = 2", "IniExactFunc = 1", "RefState = (/1.,0.1,0.,0.,1./)", "tend = 1", "Backend = cpu",
                           "BoundaryName = BC_left", "BoundaryType = (/9,0/)", NULL};
  assert_null(harness_sim(unknown, NULL, NULL));
  const char *unsupported[] = {"ProjectName = bc_bad", "MeshFile = box", "BoxPeriodic = (/F,T,T/)",
                               "N = 2", "IniExactFunc = 1", "RefState = (/1.,0.1,0.,0.,1./)", "tend = 1", "Backend = cpu",
                               "BoundaryName = BC_xminus", "BoundaryType = (/5,0/)", NULL};
  assert_null(harness_sim(unsupported, NULL, NULL));
  const char *no_refstate[] = {"ProjectName = bc_bad", "MeshFile = box", "BoxPeriodic = (/F,T,T/)",
                               "N = 2", "IniExactFunc = 1", "RefState = (/1.,0.1,0.,0.,1./)", "tend = 1", "Backend = cpu",
                               "BoundaryName = BC_xminus", "BoundaryType = (/4,3/)", NULL};
  assert_null(harness_sim(no_refstate, NULL, NULL));
}

int main(void) {
  harness_scratch_dir("boundaries");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_slip_walls_and_outflow_keep_free_stream),
      cmocka_unit_test(test_closed_boxes_conserve_mass_and_energy),
      cmocka_unit_test(test_isothermal_walls_keep_gas_at_rest),
      cmocka_unit_test(test_body_forces_at_rest),
      cmocka_unit_test(test_bad_boundary_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
