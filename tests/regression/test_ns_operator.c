/* Navier-Stokes with BR1 lifting on the CPU: free stream with viscosity on a curved box stays at
 * round-off; the manufactured solution with mu0 = 0.01 (full Navier-Stokes source term) converges
 * at order >= N + 0.7 for small N on the CPU (split PI on Gauss-Lobatto nodes N = 3, weak form on
 * Gauss nodes N = 1, 2; N = 1..5 run on the GPU in tests/gpu). */
#include "mms.h"


static void test_freestream_with_viscosity(void **state) {
  (void)state;
  const char *base[] = {"ProjectName = ns_freestream", "MeshFile = box", "BoxElems = (/3,2,3/)",
                        "NGeo = 4", "BoxCurving = 0.08", "N = 4", "IniExactFunc = 1",
                        "RefState = (/1.2, 0.4, -0.3, 0.25, 0.9/)", "tend = 10.", "maxIter = 30",
                        "CalcErrorNorms = F", "Backend = cpu", "mu0 = 0.05", NULL};
  const char *variants[][4] = {{"NodeType = GAUSS", NULL, NULL, NULL},
                               {"NodeType = GAUSS-LOBATTO", "SplitDG = PI", NULL, NULL},
                               {"NodeType = GAUSS-LOBATTO", "SplitDG = PI", "BoxPeriodic = (/F,T,F/)", NULL}};
  for (int v = 0; v < 3; v++) {
    Simulation *sim = harness_sim(base, variants[v], NULL);
    assert_non_null(sim);
    assert_int_equal(simulation_run(sim), HX_OK);
    const Solver *s = sim->solver;
    double ref[HX_NVAR], x[3] = {0, 0, 0}, dev = 0.0;
    exact_func(&s->exact, &s->phys, x, 0.0, ref);
    for (long q = 0; q < (long)s->n_var * s->n_dof; q++)
      dev = fmax(dev, fabs(s->U[q] - ref[(q / s->n_dof_elem) % s->n_var]));
    printf("  free stream with viscosity, %s %s %s: max|U-Uinf| = %.3e\n", variants[v][0],
           variants[v][1] ? variants[v][1] : "", variants[v][2] ? variants[v][2] : "", dev);
    assert_true(dev < 1e-12);
    simulation_destroy(sim);
  }
}

static void test_mms_split_pi(void **state) {
  (void)state;
  const char *extra[] = {"mu0 = 0.01", "Backend = cpu", NULL};
  const MmsSeries m = {"GAUSS-LOBATTO", "PI", extra, 3, 3, 0.7};
  convergence_series(&m);
}

static void test_mms_weak_gauss(void **state) {
  (void)state;
  const char *extra[] = {"mu0 = 0.01", "Backend = cpu", NULL};
  const MmsSeries m = {"GAUSS", NULL, extra, 1, 2, 0.7};
  convergence_series(&m);
}

int main(void) {
  harness_scratch_dir("ns_operator");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_freestream_with_viscosity),
      cmocka_unit_test(test_mms_split_pi),
      cmocka_unit_test(test_mms_weak_gauss),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
