/* FV switching (FV_Mode = switching) on the CPU: the test indicators give their element patterns
 * (checkerboard: odd global ids FV; halfhalf: elements whose first node has x > 0); the DG <-> FV
 * conversion keeps every element's integral sum w J U of every conservative variable on a curved
 * mesh (to round-off) and FV -> DG undoes DG -> FV; Sod's shock tube with Persson's indicator
 * (the reggie check's thresholds -3 / -4) keeps mass and energy to round-off, stays positive, has
 * its FV elements around the waves and DG far from them; FVBoundaries makes the elements at the
 * chosen boundaries FV; FV_IniSupersample keeps the initial FV subcells of a jump within its two
 * states. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "dg/indicator.h"
#include "harness.h"
#include "physics/eos.h"
#include "physics/indicators.h"

static const char *const BASE[] = {"ProjectName = fv_switch",
                                   "MeshFile = box",
                                   "BoxLower = (/-1., -1., -1./)",
                                   "BoxUpper = (/1., 1., 1./)",
                                   "BoxPeriodic = (/T,T,T/)",
                                   "BoxElems = (/4,2,2/)",
                                   "N = 3",
                                   "NodeType = GAUSS-LOBATTO",
                                   "IniExactFunc = 2",
                                   "tend = 0.",
                                   "CalcErrorNorms = F",
                                   "FV_Mode = switching",
                                   "Backend = cpu",
                                   NULL};

/* int over element e of each conservative variable (LGL quadrature, J = 1/sJ). */
static void element_integrals(const Solver *s, const double *U, int e, double *out) {
  int np = s->np, n3 = s->n_dof_elem;
  for (int v = 0; v < s->n_var; v++) {
    out[v] = 0.0;
    for (int q = 0; q < n3; q++)
      out[v] += s->disc.w[q % np] * s->disc.w[(q / np) % np] * s->disc.w[q / (np * np)] /
                s->geo.sJ[(long)n3 * e + q] * U[((long)e * s->n_var + v) * n3 + q];
  }
}

static void test_patterns(void **state) {
  (void)state;
  const char *cb[] = {"IndicatorType = checkerboard", NULL};
  Simulation *sim = harness_sim(BASE, cb, NULL);
  assert_non_null(sim);
  Solver *s = sim->solver;
  long n = fv_switch(s, s->U, NULL, 0.0, 1);
  int n_fv = 0;
  for (int e = 0; e < s->mesh->n_elems; e++) {
    assert_int_equal(s->fv.fv_elems[e], (int)(s->mesh->elem_global_id[e] % 2));
    n_fv += s->fv.fv_elems[e];
  }
  printf("  checkerboard: %ld switches, %d of %d elements FV\n", n, n_fv, s->mesh->n_elems);
  assert_int_equal(n_fv, s->mesh->n_elems / 2);
  simulation_destroy(sim);
  const char *hh[] = {"IndicatorType = halfhalf", NULL};
  sim = harness_sim(BASE, hh, NULL);
  assert_non_null(sim);
  s = sim->solver;
  fv_switch(s, s->U, NULL, 0.0, 1);
  n_fv = 0;
  for (int e = 0; e < s->mesh->n_elems; e++) {
    double x0 = s->geo.elem_x[3L * s->n_dof_elem * e];
    assert_int_equal(s->fv.fv_elems[e], x0 > 0.0);
    n_fv += s->fv.fv_elems[e];
  }
  printf("  halfhalf: %d of %d elements FV\n", n_fv, s->mesh->n_elems);
  assert_int_equal(n_fv, s->mesh->n_elems / 4); /* first nodes at x = -1, -0.5, 0, 0.5 */
  simulation_destroy(sim);
}

/* Every element to FV (IndicatorType = fv) on a curved box and back by the inverse matrix. */
static void test_conservative_conversion(void **state) {
  (void)state;
  const char *extra[] = {"IndicatorType = fv", "BoxCurving = 0.08", "NGeo = 3", NULL};
  Simulation *sim = harness_sim(BASE, extra, NULL);
  assert_non_null(sim);
  Solver *s = sim->solver;
  long n_total = (long)s->n_var * s->n_dof;
  double *U0 = malloc(sizeof(double) * n_total), max_int = 0.0, max_back = 0.0, max_change = 0.0;
  double *tmp = malloc(sizeof(double) * 2 * s->n_dof_elem);
  assert_non_null(U0);
  assert_non_null(tmp);
  /* the set-up switched the initial state (FV_IniSupersample): back to the DG interpolant */
  memset(s->fv.fv_elems, 0, sizeof(int) * s->mesh->n_elems);
  solver_set_exact(s, 0.0);
  memcpy(U0, s->U, sizeof(double) * n_total);
  assert_int_equal(fv_switch(s, s->U, NULL, 0.0, 1), s->mesh->n_elems);
  for (int e = 0; e < s->mesh->n_elems; e++) {
    double a[HX_NVAR], b[HX_NVAR];
    element_integrals(s, U0, e, a);
    element_integrals(s, s->U, e, b);
    for (int v = 0; v < s->n_var; v++)
      max_int = fmax(max_int, fabs(a[v] - b[v]) / fabs(a[v]));
  }
  for (long q = 0; q < n_total; q++)
    max_change = fmax(max_change, fabs(s->U[q] - U0[q]));
  for (int e = 0; e < s->mesh->n_elems; e++)
    fv_switch_element(s->np, s->fv.to_dg, s->n_var, &s->geo.sJ[(long)s->n_dof_elem * e], 1,
                      &s->U[(long)s->n_var * s->n_dof_elem * e], tmp);
  for (long q = 0; q < n_total; q++)
    max_back = fmax(max_back, fabs(s->U[q] - U0[q]));
  printf("  DG -> FV on a curved box: nodes change by up to %.3e, element integrals by %.2e "
         "(relative); FV -> DG back: %.2e\n",
         max_change, max_int, max_back);
  assert_true(max_change > 1e-4); /* a real conversion, not the identity */
  assert_true(max_int < 1e-14);
  assert_true(max_back < 1e-12);
  free(U0);
  free(tmp);
  simulation_destroy(sim);
}

static void totals(const Solver *s, double *out) {
  for (int v = 0; v < HX_NVAR; v++)
    out[v] = 0.0;
  for (int e = 0; e < s->mesh->n_elems; e++) {
    double a[HX_NVAR];
    element_integrals(s, s->U, e, a);
    for (int v = 0; v < HX_NVAR; v++)
      out[v] += a[v];
  }
}

static void test_sod_switching(void **state) {
  (void)state;
  const char *extra[] = {"BoxLower = (/0., 0., 0./)",
                         "BoxUpper = (/1., 0.025, 0.025/)",
                         "BoxPeriodic = (/F,T,T/)",
                         "BoxElems = (/40,1,1/)",
                         "IniExactFunc = 11",
                         "Riemann = HLLC",
                         "tend = 0.1",
                         "CFLscale = 0.5",
                         "IndicatorType = persson",
                         "IndVar = 1",
                         "IndStartTime = 0.001",
                         "FV_IndUpperThreshold = -3.",
                         "FV_IndLowerThreshold = -4.",
                         "FV_LimiterType = MinMod",
                         NULL};
  Simulation *sim = harness_sim(BASE, extra, NULL);
  assert_non_null(sim);
  Solver *s = sim->solver;
  double t0[HX_NVAR], t1[HX_NVAR], rho_min, p_min;
  totals(s, t0);
  assert_int_equal(simulation_run(sim), HX_OK);
  totals(s, t1);
  harness_min_rho_p(s, &rho_min, &p_min);
  int n_fv = 0, far_fv = 0, shock_fv = 0;
  const double x_shock = 0.5 + 1.7522 * sim->t; /* Sod's shock speed (Toro 2009, Sec. 4.3.3) */
  for (int e = 0; e < s->mesh->n_elems; e++) {
    const double *x = &s->geo.elem_x[3L * s->n_dof_elem * e];
    double x0 = x[0], x1 = x[s->np - 1];
    n_fv += s->fv.fv_elems[e];
    if (s->fv.fv_elems[e] && (x1 < 0.3 || x0 > 0.8)) far_fv++;
    if (s->fv.fv_elems[e] && x0 - 0.05 <= x_shock && x_shock <= x1 + 0.05) shock_fv = 1;
  }
  double dm = fabs(t1[DENS] - t0[DENS]) / t0[DENS], de = fabs(t1[ENER] - t0[ENER]) / t0[ENER];
  printf("  Sod, switching: t = %.3f in %ld steps, %d FV elements (shock at x = %.3f %s), mass "
         "change %.2e, energy %.2e, min rho %.4f, min p %.4f\n",
         sim->t, sim->iter, n_fv, x_shock, shock_fv ? "in FV" : "NOT in FV", dm, de, rho_min,
         p_min);
  assert_true(dm < 1e-13 && de < 1e-13);
  assert_true(rho_min > 0.0 && p_min > 0.0);
  assert_true(shock_fv);
  assert_int_equal(far_fv, 0);
  simulation_destroy(sim);
}

/* FVBoundaries: with the thresholds at FLEXI's defaults (99 / -99) only the elements at the two
 * non-periodic ends turn FV; FVBoundaryType picks them by their BC type. */
static int fv_boundary_count(const char *type_line, int *bc_type) {
  const char *extra[] = {"BoxLower = (/0., 0., 0./)",
                         "BoxUpper = (/1., 0.1, 0.1/)",
                         "BoxPeriodic = (/F,T,T/)",
                         "BoxElems = (/10,1,1/)",
                         "IniExactFunc = 11",
                         "IndicatorType = persson",
                         "FVBoundaries = T",
                         type_line,
                         NULL};
  Simulation *sim = harness_sim(BASE, extra, NULL);
  assert_non_null(sim);
  Solver *s = sim->solver;
  fv_switch(s, s->U, NULL, 0.0, 1);
  int n_fv = 0;
  for (int e = 0; e < s->mesh->n_elems; e++) {
    const double *x = &s->geo.elem_x[3L * s->n_dof_elem * e];
    int at_end = x[0] < 1e-12 || x[s->np - 1] > 1.0 - 1e-12;
    assert_int_equal(s->fv.fv_elems[e], s->fv.fv_elems[e] && at_end);
    n_fv += s->fv.fv_elems[e];
  }
  *bc_type = s->mesh->n_bcs > 0 ? s->bc_info[0] : -1;
  simulation_destroy(sim);
  return n_fv;
}

/* Range of the density over the FV subcells of a Sod tube whose jump (x = 0.5) lies inside the
 * middle of three elements, every element FV from the start (IndicatorType = fv). */
static void sod_fv_density_range(const char *node, const char *supersample, double *lo,
                                 double *hi) {
  const char *extra[] = {"BoxLower = (/0., 0., 0./)", "BoxUpper = (/1., 0.1, 0.1/)",
                         "BoxPeriodic = (/F,T,T/)",   "BoxElems = (/3,1,1/)",
                         "IniExactFunc = 11",         "IndicatorType = fv",
                         supersample,                 node,
                         NULL};
  Simulation *sim = harness_sim(BASE, extra, NULL);
  assert_non_null(sim);
  const Solver *s = sim->solver;
  *lo = HUGE_VAL;
  *hi = -HUGE_VAL;
  for (int e = 0; e < s->mesh->n_elems; e++) {
    assert_int_equal(s->fv.fv_elems[e], 1);
    for (int q = 0; q < s->n_dof_elem; q++) {
      double rho = s->U[(long)e * s->n_var * s->n_dof_elem + q];
      *lo = fmin(*lo, rho);
      *hi = fmax(*hi, rho);
    }
  }
  simulation_destroy(sim);
}

/* FV_IniSupersample: the initial FV elements hold subcell means of the exact state, so they stay
 * within the two states of the jump; the means of the DG interpolant (F) overshoot. */
static void test_ini_supersample(void **state) {
  (void)state;
  const char *nodes[] = {"NodeType = GAUSS-LOBATTO", "NodeType = GAUSS"};
  for (int n = 0; n < 2; n++) {
    double lo, hi, lo_f, hi_f;
    sod_fv_density_range(nodes[n], "FV_IniSupersample = T", &lo, &hi);
    sod_fv_density_range(nodes[n], "FV_IniSupersample = F", &lo_f, &hi_f);
    printf("  %s: subcell density supersampled [%.6f, %.6f], from the interpolant [%.6f, %.6f]\n",
           nodes[n], lo, hi, lo_f, hi_f);
    assert_true(lo >= 0.125 - 1e-14 && hi <= 1.0 + 1e-14);
    assert_true(lo < 0.9 * 1.0 && hi > 1.1 * 0.125); /* both states are there */
    assert_true(lo_f < 0.125 - 1e-3 || hi_f > 1.0 + 1e-3);
  }
}

static void test_fv_boundaries(void **state) {
  (void)state;
  int type, other;
  int all = fv_boundary_count("FVBoundaryType = 0", &type);
  char same[64], differ[64];
  snprintf(same, sizeof same, "FVBoundaryType = %d", type);
  snprintf(differ, sizeof differ, "FVBoundaryType = %d", type == 9 ? 10 : 9);
  int picked = fv_boundary_count(same, &other), none = fv_boundary_count(differ, &other);
  printf("  FVBoundaries: every boundary %d FV elements, BC type %d: %d, another type: %d\n", all,
         type, picked, none);
  assert_int_equal(all, 2);
  assert_int_equal(picked, 2);
  assert_int_equal(none, 0);
}

int main(void) {
  harness_scratch_dir("fv_switch");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_patterns), cmocka_unit_test(test_conservative_conversion),
      cmocka_unit_test(test_sod_switching), cmocka_unit_test(test_ini_supersample),
      cmocka_unit_test(test_fv_boundaries)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
