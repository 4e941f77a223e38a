/* Sponge zone: with the zone covering the whole periodic box at full strength, a uniform state
 * U0 relaxes to the base state exactly as U_b + (U0 - U_b) exp(-damping t) (the flux divergence of
 * a uniform state vanishes); outside a planar zone the solution is untouched. The base flows of
 * SpongeBaseFlow 2 and 3 equal the constant one bitwise when they hold the same state; a
 * non-uniform file state is reached up to the residual R(U_b) / damping; Pruett's filter follows
 * the analytic solution of its ODE to first order in dt, and a restart continues it bitwise. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "dg/sponge.h"
#include "harness.h"
#include "io/state.h"
#include "physics/eos.h"

static void test_uniform_state_relaxes_exponentially(void **state) {
  (void)state;
  const char *lines[] = {"ProjectName = sponge",
                         "MeshFile = box",
                         "BoxElems = (/2,2,2/)",
                         "NGeo = 2",
                         "BoxCurving = 0.05",
                         "N = 3",
                         "NodeType = GAUSS-LOBATTO",
                         "SplitDG = PI",
                         "IniExactFunc = 1",
                         "IniRefState = 1",
                         "RefState = (/1.2, 0.3, 0.1, -0.2, 1.1/)",
                         "RefState = (/1.0, 0.1, 0.0, 0.0, 1.0/)",
                         "SpongeLayer = T",
                         "SpongeRefState = 2",
                         "damping = 2.",
                         "xStart = (/-100.,0.,0./)",
                         "SpongeDistance = 1e-3",
                         "tend = 0.5",
                         "CFLscale = 0.3",
                         "CalcErrorNorms = F",
                         "Backend = cpu",
                         NULL};
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
  const char *lines[] = {"ProjectName = sponge2",
                         "MeshFile = box",
                         "BoxElems = (/4,2,2/)",
                         "N = 3",
                         "NodeType = GAUSS",
                         "IniExactFunc = 1",
                         "RefState = (/1.2, 0., 0., 0., 1.1/)",
                         "RefState = (/1.0, 0., 0., 0., 1.0/)",
                         "SpongeLayer = T",
                         "SpongeRefState = 2",
                         "damping = 5.",
                         "xStart = (/0.5,0.,0./)",
                         "SpongeDistance = 0.5",
                         "tend = 0.02",
                         "CalcErrorNorms = F",
                         "Backend = cpu",
                         NULL};
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

/* A periodic box with a density wave (IniExactFunc 2) and a planar sponge over its right half. */
static const char *const WAVE[] = {"ProjectName = spwave",
                                   "MeshFile = box",
                                   "BoxElems = (/4,2,2/)",
                                   "NGeo = 2",
                                   "BoxCurving = 0.05",
                                   "N = 3",
                                   "NodeType = GAUSS-LOBATTO",
                                   "SplitDG = PI",
                                   "IniExactFunc = 2",
                                   "IniRefState = 1",
                                   "IniFrequency = 1.",
                                   "IniAmplitude = 0.1",
                                   "AdvVel = (/0.3, 0.1, 0./)",
                                   "RefState = (/1.0, 0.3, 0.1, 0.0, 1.0/)",
                                   "RefState = (/1.1, 0.1, 0.0, 0.0, 0.9/)",
                                   "SpongeLayer = T",
                                   "damping = 3.",
                                   "xStart = (/0.5,0.,0./)",
                                   "SpongeDistance = 0.3",
                                   "tend = 0.1",
                                   "CFLscale = 0.5",
                                   "CalcErrorNorms = F",
                                   "Backend = cpu",
                                   NULL};

static long count_differing(const double *a, const double *b, long n) {
  long d = 0;
  for (long q = 0; q < n; q++)
    d += memcmp(&a[q], &b[q], sizeof(double)) != 0;
  return d;
}

/* Write the initial state of base + extra to its state file; the name goes to file. */
static void write_initial_state(const char *const *extra, char *file, size_t len) {
  Simulation *sim = harness_sim(WAVE, extra, NULL);
  assert_non_null(sim);
  assert_int_equal(simulation_write_state(sim), HX_OK);
  snprintf(file, len, "%s", sim->last_state);
  simulation_destroy(sim);
}

/* The C2 ramp of sponge.c, for the expected strength of the two-zone test. */
static double ramp_ref(double s) {
  s = s < 0.0 ? 0.0 : s > 1.0 ? 1.0 : s;
  return s * s * s * (10.0 - 15.0 * s + 6.0 * s * s);
}

/* Two planar zones at the two x ends of the box with their own RefStates: at every node sigma is
 * the stronger zone's damping * ramp, and the base is that zone's RefState. A zone key given a
 * number of times other than 1 or the zone count is refused. */
static void test_two_zones(void **state) {
  (void)state;
  const char *lines[] = {"ProjectName = sponge_zones",
                         "MeshFile = box",
                         "BoxElems = (/6,2,2/)",
                         "NGeo = 2",
                         "BoxCurving = 0.04",
                         "N = 3",
                         "IniExactFunc = 1",
                         "RefState = (/1.2, 0.3, 0.1, -0.2, 1.1/)",
                         "RefState = (/1.0, 0.1, 0.0, 0.0, 1.0/)",
                         "RefState = (/0.8, -0.2, 0.0, 0.1, 0.9/)",
                         "SpongeLayer = T",
                         "xStart = (/0.3,0.,0./)",
                         "SpongeDir = (/-1.,0.,0./)",
                         "SpongeDistance = 0.3",
                         "damping = 3.",
                         "SpongeRefState = 2",
                         "xStart = (/0.6,0.,0./)",
                         "SpongeDir = (/1.,0.,0./)",
                         "SpongeDistance = 0.25",
                         "damping = 7.",
                         "SpongeRefState = 3",
                         "tend = 0.",
                         "CalcErrorNorms = F",
                         "Backend = cpu",
                         NULL};
  Simulation *sim = harness_sim(lines, NULL, NULL);
  assert_non_null(sim);
  const Solver *s = sim->solver;
  assert_non_null(s->sponge_base_U); /* two RefStates: a per-node base */
  double ub[2][HX_NVAR];
  prim_to_cons(&s->phys, s->exact.ref_prim[1], ub[0]);
  prim_to_cons(&s->phys, s->exact.ref_prim[2], ub[1]);
  const long n3 = s->n_dof_elem;
  double err_sig = 0.0, err_base = 0.0;
  long n_left = 0, n_right = 0;
  for (long e = 0; e < s->mesh->n_elems; e++)
    for (long q = 0; q < n3; q++) {
      double x = s->geo.elem_x[3 * n3 * e + q];
      double sl = 3.0 * ramp_ref((0.3 - x) / 0.3), sr = 7.0 * ramp_ref((x - 0.6) / 0.25);
      err_sig = fmax(err_sig, fabs(s->sponge[n3 * e + q] - fmax(sl, sr)));
      if (sl == 0.0 && sr == 0.0) continue;
      int z = sr > sl;
      n_left += !z;
      n_right += z;
      assert_true(s->sponge_elem[e] >= 0);
      const double *b = &s->sponge_base_U[(long)s->sponge_elem[e] * s->n_var * n3];
      for (int v = 0; v < s->n_var; v++)
        err_base = fmax(err_base, fabs(b[v * n3 + q] - ub[z][v]));
    }
  printf("  two sponge zones: max |sigma - max(zone sigmas)| = %.3e, max |U_b - zone RefState| = "
         "%.3e (%ld and %ld nodes)\n",
         err_sig, err_base, n_left, n_right);
  assert_true(n_left > 0 && n_right > 0);
  assert_true(err_sig < 1e-13);
  assert_true(err_base == 0.0);
  simulation_destroy(sim);
  const char *three_dirs[] = {"SpongeDir = (/0.,1.,0./)", NULL};
  assert_null(harness_sim(lines, three_dirs, NULL));
}

static void test_exactfunc_base_equals_constant(void **state) {
  (void)state;
  const char *c[] = {"SpongeBaseFlow = constant", "SpongeRefState = 1", NULL};
  const char *x[] = {"SpongeBaseFlow = 2", "SpongeExactFunc = 1", NULL};
  long n1, n2;
  double *u1 = harness_run_copy(WAVE, c, &n1), *u2 = harness_run_copy(WAVE, x, &n2);
  assert_non_null(u1);
  assert_non_null(u2);
  assert_int_equal(n1, n2);
  long d = count_differing(u1, u2, n1);
  printf("  SpongeBaseFlow exactfunction (RefState) vs constant: %ld of %ld values differ\n", d,
         n1);
  assert_int_equal(d, 0);
  free(u1);
  free(u2);
}

static void test_file_base_equals_constant(void **state) {
  (void)state;
  char file[1100], key[1200];
  const char *ini[] = {"ProjectName = spconst", "IniExactFunc = 1", "IniRefState = 2", NULL};
  write_initial_state(ini, file, sizeof file);
  snprintf(key, sizeof key, "SpongeRefFile = %s", file);
  const char *c[] = {"SpongeRefState = 2", NULL};
  const char *f[] = {"SpongeBaseFlow = file", key, NULL};
  long n1, n2;
  double *u1 = harness_run_copy(WAVE, c, &n1), *u2 = harness_run_copy(WAVE, f, &n2);
  assert_non_null(u1);
  assert_non_null(u2);
  long d = count_differing(u1, u2, n1);
  printf("  SpongeBaseFlow file (a constant state) vs constant: %ld of %ld values differ\n", d, n1);
  assert_int_equal(d, 0);
  free(u1);
  free(u2);
  const char *none[] = {"SpongeBaseFlow = file", NULL};
  assert_null(harness_sim(WAVE, none, NULL)); /* no SpongeRefFile: an error, not a fallback */
  /* a file of another N is interpolated (io/state_degree.c): the constant stays the constant */
  const char *c4[] = {"SpongeRefState = 2", "N = 4", NULL};
  const char *f4[] = {"SpongeBaseFlow = file", key, "N = 4", NULL};
  double *v1 = harness_run_copy(WAVE, c4, &n1), *v2 = harness_run_copy(WAVE, f4, &n2);
  assert_non_null(v1);
  assert_non_null(v2);
  assert_int_equal(n1, n2);
  const double rel = harness_rel_l2_diff(v2, v1, n1);
  printf("  the same file at N = 4 (interpolated from N = 3) vs constant: relative L2 %.1e\n", rel);
  assert_true(rel <= 1e-14);
  free(v1);
  free(v2);
}

/* In a full sponge the solution goes to a non-uniform file state U_b up to the steady balance
 * sigma (U - U_b) = R(U): the distance left shrinks as 1 / damping. */
/* WAVE without its zone keys, for runs that give their own zone (a repeated zone key would add a
 * second zone, docs/sponge.md). */
static const char *const *wave_without_zone(const char **base) {
  int nb = 0;
  for (int i = 0; WAVE[i]; i++)
    if (strncmp(WAVE[i], "damping", 7) && strncmp(WAVE[i], "xStart", 6) &&
        strncmp(WAVE[i], "SpongeDistance", 14))
      base[nb++] = WAVE[i];
  base[nb] = NULL;
  return base;
}

static double distance_to_file_state(const char *key, const char *damping, double *start) {
  const char *extra[] = {"IniExactFunc = 1",
                         "SpongeBaseFlow = file",
                         key,
                         "xStart = (/-100.,0.,0./)",
                         "SpongeDistance = 1e-3",
                         damping,
                         "tend = 0.4",
                         NULL};
  const char *base[64];
  Simulation *sim = harness_sim(wave_without_zone(base), extra, NULL);
  assert_non_null(sim);
  const Solver *s = sim->solver;
  double *ub = malloc(sizeof(double) * s->n_var * s->n_dof);
  sponge_expand_base(s, s->U, ub);
  *start = harness_rel_l2_diff(s->U, ub, (long)s->n_var * s->n_dof);
  assert_int_equal(simulation_run(sim), HX_OK);
  double dist = harness_rel_l2_diff(s->U, ub, (long)s->n_var * s->n_dof);
  free(ub);
  simulation_destroy(sim);
  return dist;
}

static void test_file_base_is_reached(void **state) {
  (void)state;
  char file[1100], key[1200];
  const char *ini[] = {"ProjectName = spfile", NULL};
  write_initial_state(ini, file, sizeof file);
  snprintf(key, sizeof key, "SpongeRefFile = %s", file);
  double start, d40 = distance_to_file_state(key, "damping = 40.", &start);
  double d80 = distance_to_file_state(key, "damping = 80.", &start);
  printf("  full sponge to the density wave: rel. L2 distance %.3e at t = 0, %.3e (damping 40), "
         "%.3e (damping 80), ratio %.3f\n",
         start, d40, d80, d40 / d80);
  assert_true(d40 < 0.1 * start);
  assert_true(d40 / d80 > 1.8 && d40 / d80 < 2.2);
}

/* Pruett's filter for U(t) = c + a sin(w t): the exact solution of dUb/dt = (U - Ub) / Delta
 * from Ub(0) = b0 is c + a (sin wt - w Delta cos wt) / (1 + (w Delta)^2) + K exp(-t / Delta). */
static double pruett_error(Solver *s, double dt) {
  const double c = 1.0, a = 0.2, w = 3.0, delta = s->sponge_filter_width, b0 = 0.7, tend = 2.0;
  long n = (long)s->n_var * s->n_dof, nb = (long)s->n_sponge_elems * s->n_var * s->n_dof_elem;
  double *u = malloc(sizeof(double) * n);
  for (long q = 0; q < nb; q++)
    s->sponge_base_U[q] = b0;
  int steps = (int)lround(tend / dt);
  for (int i = 1; i <= steps; i++) {
    for (long q = 0; q < n; q++)
      u[q] = c + a * sin(w * i * dt);
    sponge_pruett_update(s, u, dt);
  }
  double wd = w * delta, k = b0 - c + a * wd / (1.0 + wd * wd);
  double exact =
      c + a * (sin(w * tend) - wd * cos(w * tend)) / (1.0 + wd * wd) + k * exp(-tend / delta);
  double err = 0.0;
  for (long q = 0; q < nb; q++)
    err = fmax(err, fabs(s->sponge_base_U[q] - exact));
  free(u);
  return err;
}

static void test_pruett_filter_follows_its_ode(void **state) {
  (void)state;
  const char *p[] = {"SpongeBaseFlow = pruett", "tempFilterWidthSponge = 0.5", NULL};
  Simulation *sim = harness_sim(WAVE, p, NULL);
  assert_non_null(sim);
  Solver *s = sim->solver;
  assert_true(s->n_sponge_elems > 0 && s->n_sponge_elems < s->mesh->n_elems);
  double e1 = pruett_error(s, 0.0025), e2 = pruett_error(s, 0.00125);
  printf(
      "  Pruett filter of an oscillating U, t = 2: max error %.3e (dt 0.0025), %.3e (dt 0.00125), "
      "order %.3f\n",
      e1, e2, log2(e1 / e2));
  assert_true(e1 < 1e-4);
  assert_true(log2(e1 / e2) > 0.9 && log2(e1 / e2) < 1.1);
  simulation_destroy(sim);
}

/* A uniform state in a full sponge with a Pruett base: U and Ub approach each other,
 * D = U - Ub decays as exp(-(sigma + 1/Delta) t) around the invariant (U + sigma Delta Ub) /
 * (1 + sigma Delta). Ub starts from a file with RefState 2. */
static double coupled_relaxation_error(const char *key, const char *cfl, double *dt) {
  const char *extra[] = {"IniExactFunc = 1",
                         "SpongeBaseFlow = pruett",
                         "tempFilterWidthSponge = 0.5",
                         key,
                         "xStart = (/-100.,0.,0./)",
                         "SpongeDistance = 1e-3",
                         "damping = 2.",
                         "tend = 0.5",
                         cfl,
                         NULL};
  const char *base[64];
  Simulation *sim = harness_sim(wave_without_zone(base), extra, NULL);
  assert_non_null(sim);
  const Solver *s = sim->solver;
  double u0[HX_NVAR], b0[HX_NVAR];
  prim_to_cons(&s->phys, s->exact.ref_prim[0], u0);
  prim_to_cons(&s->phys, s->exact.ref_prim[1], b0);
  assert_int_equal(simulation_run(sim), HX_OK);
  *dt = sim->td.tend / (double)sim->iter;
  const double sd = 2.0 * 0.5, decay = exp(-(2.0 + 1.0 / 0.5) * 0.5);
  double err = 0.0;
  for (long q = 0; q < (long)s->n_var * s->n_dof; q++) {
    int v = (q / s->n_dof_elem) % s->n_var;
    double m = (u0[v] + sd * b0[v]) / (1.0 + sd), d = (u0[v] - b0[v]) * decay;
    err = fmax(err, fabs(s->U[q] - (m + sd / (1.0 + sd) * d)));
    long e = q / (s->n_var * s->n_dof_elem), r = q % (s->n_var * s->n_dof_elem);
    double ub = s->sponge_base_U[(long)s->sponge_elem[e] * s->n_var * s->n_dof_elem + r];
    err = fmax(err, fabs(ub - (m - d / (1.0 + sd))));
  }
  simulation_destroy(sim);
  return err;
}

static void test_pruett_base_relaxes_with_the_solution(void **state) {
  (void)state;
  char file[1100], key[1200];
  const char *ini[] = {"ProjectName = sppruett", "IniExactFunc = 1", "IniRefState = 2", NULL};
  write_initial_state(ini, file, sizeof file);
  snprintf(key, sizeof key, "SpongeRefFile = %s", file);
  double dt1, dt2, e1 = coupled_relaxation_error(key, "CFLscale = 0.5", &dt1);
  double e2 = coupled_relaxation_error(key, "CFLscale = 0.25", &dt2);
  printf("  uniform state with a Pruett base, t = 0.5: max error %.3e (dt %.2e), %.3e (dt %.2e), "
         "order %.3f\n",
         e1, dt1, e2, dt2, log2(e1 / e2) / log2(dt1 / dt2));
  assert_true(e1 < 0.05 * 0.2); /* |U0 - Ub0| = 0.2 in density */
  assert_true(log2(e1 / e2) / log2(dt1 / dt2) > 0.85);
}

static void test_pruett_restart_is_bitwise(void **state) {
  (void)state;
  const char *p[] = {"ProjectName = sprestart",
                     "SpongeBaseFlow = pruett",
                     "tempFilterWidthSponge = 0.05",
                     "tend = 0.2",
                     "Analyze_dt = 0.1",
                     NULL};
  Simulation *full = harness_sim(WAVE, p, NULL);
  assert_non_null(full);
  assert_int_equal(simulation_run(full), HX_OK);
  const Solver *s = full->solver;
  long n = (long)s->n_var * s->n_dof, nb = (long)s->n_sponge_elems * s->n_var * s->n_dof_elem;
  double *u = malloc(sizeof(double) * n), *ub = malloc(sizeof(double) * nb);
  memcpy(u, s->U, sizeof(double) * n);
  memcpy(ub, s->sponge_base_U, sizeof(double) * nb);
  simulation_destroy(full);
  char mid[1100];
  state_file_name(mid, sizeof mid, "sprestart", 0.1);
  Simulation *again = harness_sim(WAVE, p, mid);
  assert_non_null(again);
  assert_int_equal(simulation_run(again), HX_OK);
  long du = count_differing(u, again->solver->U, n);
  long db = count_differing(ub, again->solver->sponge_base_U, nb);
  printf("  Pruett restart at t = 0.1: %ld of %ld solution values and %ld of %ld base flow "
         "values differ from the uninterrupted run\n",
         du, n, db, nb);
  assert_int_equal(du, 0);
  assert_int_equal(db, 0);
  simulation_destroy(again);
  assert_int_equal(rename("sprestart_BaseFlow_0000000.100000000.h5", "moved.h5"), 0);
  assert_null(harness_sim(WAVE, p, mid)); /* its base flow file is missing: an error */
  free(u);
  free(ub);
}

int main(void) {
  harness_scratch_dir("sponge");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_uniform_state_relaxes_exponentially),
      cmocka_unit_test(test_planar_zone_leaves_the_rest_untouched),
      cmocka_unit_test(test_two_zones),
      cmocka_unit_test(test_exactfunc_base_equals_constant),
      cmocka_unit_test(test_file_base_equals_constant),
      cmocka_unit_test(test_file_base_is_reached),
      cmocka_unit_test(test_pruett_filter_follows_its_ode),
      cmocka_unit_test(test_pruett_base_relaxes_with_the_solution),
      cmocka_unit_test(test_pruett_restart_is_bitwise),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
