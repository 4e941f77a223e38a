/* Sponge zone: with the zone covering the whole periodic box at full strength, a uniform state
 * U0 relaxes to the base state exactly as U_b + (U0 - U_b) exp(-damping t) (the flux divergence of
 * a uniform state vanishes); outside a planar zone the solution is untouched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "harness.h"
#include "physics/eos.h"

static void test_uniform_state_relaxes_exponentially(void **state) {
  (void)state;
  const char *lines[] = {
      "ProjectName = sponge", "MeshFile = box", "BoxElems = (/2,2,2/)", "NGeo = 2",
      "BoxCurving = 0.05", "N = 3", "NodeType = GAUSS-LOBATTO", "SplitDG = PI",
      "IniExactFunc = 1", "IniRefState = 1", "RefState = (/1.2, 0.3, 0.1, -0.2, 1.1/)",
      "RefState = (/1.0, 0.1, 0.0, 0.0, 1.0/)", "SpongeLayer = T", "SpongeRefState = 2",
      "damping = 2.", "xStart = (/-100.,0.,0./)", "SpongeDistance = 1e-3", "tend = 0.5",
      "CFLscale = 0.3", "CalcErrorNorms = F", "Backend = cpu", NULL};
  Simulation *sim = harness_sim(lines, NULL, NULL);
  assert_non_null(sim);
  const Solver *s = sim->solver;
  double u0[HX_NVAR], ub[HX_NVAR];
  prim_to_cons(&s->phys, s->exact.ref_prim[0], u0);
  prim_to_cons(&s->phys, s->exact.ref_prim[1], ub);
  assert_int_equal(simulation_run(sim), HX_OK);
  double decay = exp(-2.0 * 0.5), err = 0.0;
  for (long q = 0; q < (long)s->n_var * s->n_dof; q++) {
    int v = (q / s->n_dof_elem) % s->n_var;
    double exact = ub[v] + (u0[v] - ub[v]) * decay;
    err = fmax(err, fabs(s->U[q] - exact));
  }
  printf("  uniform state in a full sponge, t = 0.5: max |U - exact relaxation| = %.3e\n", err);
  assert_true(err < 1e-8);
  simulation_destroy(sim);
}

static void test_planar_zone_leaves_the_rest_untouched(void **state) {
  (void)state;
  const char *lines[] = {
      "ProjectName = sponge2", "MeshFile = box", "BoxElems = (/4,2,2/)", "N = 3",
      "NodeType = GAUSS", "IniExactFunc = 1", "RefState = (/1.2, 0., 0., 0., 1.1/)",
      "RefState = (/1.0, 0., 0., 0., 1.0/)", "SpongeLayer = T", "SpongeRefState = 2",
      "damping = 5.", "xStart = (/0.5,0.,0./)", "SpongeDistance = 0.5", "tend = 0.02",
      "CalcErrorNorms = F", "Backend = cpu", NULL};
  Simulation *sim = harness_sim(lines, NULL, NULL);
  assert_non_null(sim);
  const Solver *s = sim->solver;
  int zero = 0, positive = 0;
  for (long q = 0; q < s->n_dof; q++) {
    double x = s->geo.elem_x[(q / s->n_dof_elem) * 3 * s->n_dof_elem + q % s->n_dof_elem];
    if (x <= 0.5) zero += s->sponge[q] == 0.0;
    if (x >= 1.0 - 1e-12) positive += fabs(s->sponge[q] - 5.0) < 1e-12;
    assert_true(s->sponge[q] >= 0.0 && s->sponge[q] <= 5.0);
  }
  printf("  planar sponge: %d nodes before xStart undamped, %d nodes at full strength\n", zero,
         positive);
  assert_true(zero > 0);
  simulation_destroy(sim);
}

int main(void) {
  harness_scratch_dir("sponge");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_uniform_state_relaxes_exponentially),
      cmocka_unit_test(test_planar_zone_leaves_the_rest_untouched),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
