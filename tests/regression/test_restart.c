/* Restart identity: a run interrupted at an analysis time and restarted from its state file
 * ends bitwise identical to the uninterrupted run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "harness.h"
#include "io/state.h"

static const char *const BASE[] = {
    "ProjectName = restart", "MeshFile = box", "BoxElems = (/2,3,2/)", "NGeo = 2",
    "BoxCurving = 0.05", "N = 3", "NodeType = GAUSS-LOBATTO", "SplitDG = PI",
    "IniExactFunc = 4", "AdvVel = (/1., 1., 1./)", "tend = 0.2", "Analyze_dt = 0.1",
    "Riemann = RoeEntropyFix", NULL};

static void test_restart_is_bitwise_identical(void **state) {
  (void)state;
  Simulation *full = harness_sim(BASE, NULL, NULL);
  assert_non_null(full);
  assert_int_equal(simulation_run(full), HX_OK);
  long n = (long)full->solver->n_var * full->solver->n_dof;
  double *u_full = malloc(sizeof(double) * n);
  memcpy(u_full, full->solver->U, sizeof(double) * n);
  long steps_full = full->iter;
  simulation_destroy(full);

  char mid[1100];
  state_file_name(mid, sizeof mid, "restart", 0.1);
  assert_int_equal(access(mid, R_OK), 0);
  Simulation *again = harness_sim(BASE, NULL, mid);
  assert_non_null(again);
  assert_true(again->t == 0.1);
  assert_int_equal(simulation_run(again), HX_OK);
  assert_true(again->t == 0.2);
  long differing = 0;
  for (long q = 0; q < n; q++)
    if (memcmp(&u_full[q], &again->solver->U[q], sizeof(double)) != 0) differing++;
  printf("  %ld + %ld steps after restart; %ld of %ld values differ\n", steps_full - again->iter,
         again->iter, differing, n);
  assert_int_equal(differing, 0);
  assert_true(again->iter > 0 && again->iter < steps_full);
  simulation_destroy(again);
  free(u_full);
}

static void test_restart_rejects_wrong_mesh(void **state) {
  (void)state;
  char mid[1100];
  state_file_name(mid, sizeof mid, "restart", 0.1);
  const char *extra[] = {"BoxElems = (/2,2,2/)", NULL};
  Simulation *sim = harness_sim(BASE, extra, mid);
  assert_null(sim);
}

int main(void) {
  harness_scratch_dir("restart");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_restart_is_bitwise_identical),
      cmocka_unit_test(test_restart_rejects_wrong_mesh),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
