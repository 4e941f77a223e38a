/* Reacting flow (Mechanism set, nVar = 5 + species) on the CPU backend:
 *  - a homogeneous periodic box ignites as the constant-volume reactor of the chemistry library
 *    (`hexdg reactor`): the flow step leaves a uniform state alone, so the Strang-split stages
 *    must reproduce the reactor's temperature history within the integrator tolerance;
 *  - a uniform mixture in motion stays uniform to round-off on a curved mesh (free stream);
 *  - on a curved periodic box with chemistry, the totals of rho, momentum and energy and the atom
 *    totals are conserved to round-off, and sum_k rho Y_k = rho at every node;
 *  - the species wave (IniExactFunc 17, an exact solution) converges with the weak form on a
 *    curved mesh at order >= N + 0.7 (N = 1..4);
 *  - bad input fails with HX_ERR_INPUT: missing mechanism, unknown species, mass fractions that do
 *    not sum to one, a restart with another mechanism.
 * Needs the Li 2004 mechanism (../shared/data or .oracle/mechanisms): skipped without it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "../chem_paths.h"
#include "chem/batch.h"
#include "chem/thermo.h"
#include "harness.h"
#include "physics/mixture.h"

static char mech_line[4200], h2o2_line[4200];
static const char *mech_path;

/* T and p at node q of element e. */
static void node_T_p(const Solver *s, int e, int q, double *T, double *p) {
  double u[HX_NVAR_MAX], pr[HX_NPRIM], Y[HX_MAX_SPECIES], c;
  for (int v = 0; v < s->n_var; v++) u[v] = s->U[((long)e * s->n_var + v) * s->n_dof_elem + q];
  pr[TEMP] = -1.0;
  assert_int_equal(mix_cons_to_prim(s->mech, u, pr, Y, &c), 0);
  *T = pr[TEMP];
  *p = pr[PRES];
}

/* Stoichiometric H2-air at 1 atm, 1100 K: rho = p W / (R T). */
#define BOX_RHO "0.2317064"
#define BOX_STATE "RefState = (/" BOX_RHO ",0.,0.,0.,101325./)"
#define BOX_X "RefStateX = H2:2,O2:1,N2:3.76"
static const char *const BOX[] = {
    "ProjectName = reacting_box", "MeshFile = box", "BoxElems = (/1,1,1/)",
    "BoxLower = (/0.,0.,0./)", "BoxUpper = (/0.01,0.01,0.01/)", "BoxPeriodic = (/T,T,T/)", "N = 1",
    "NodeType = GAUSS-LOBATTO", "Riemann = HLLC", "IniExactFunc = 1", "CalcErrorNorms = F", "ChemRtol = 1e-10", "ChemAtol = 1e-14", "Backend = cpu", NULL};

/* T of the reference history at t (linear between its accepted steps). */
static double history_T(const ChemHistory *h, double t) {
  for (long i = 1; i < h->n; i++)
    if (h->t[i] >= t) {
      double f = (t - h->t[i - 1]) / (h->t[i] - h->t[i - 1]);
      return h->T[i - 1] + f * (h->T[i] - h->T[i - 1]);
    }
  return h->T[h->n - 1];
}

static void test_box_ignites_as_reactor(void **state) {
  (void)state;
  if (!mech_path) skip();
  ChemMech *m;
  assert_int_equal(chem_mech_load(mech_path, NULL, &m), HX_OK);
  double X[HX_MAX_SPECIES] = {0}, Y[HX_MAX_SPECIES];
  assert_int_equal(chem_parse_composition(m, "H2:2,O2:1,N2:3.76", "test", X), HX_OK);
  chem_mole_to_mass(m, X, 1, Y, 1);
  double rho = atof(BOX_RHO), T0 = 101325.0 * chem_mean_mw(m, Y, 1) / (rho * CHEM_R);
  ChemIntegratorOptions o = {1e-11, 1e-15, 1000000, 0.0};
  ChemHistory h;
  assert_int_equal(chem_reactor_history_with(m, CHEM_INTEGRATOR_RODAS, CHEM_MODE_CV, T0, 101325.0,
                                             Y, 4e-4, &o, &h),
                   HX_OK);
  double tau = h.ignition_delay;
  printf("  reactor: T0 %.2f K, ignition delay %.4e s, T_end %.2f K\n", T0, tau, h.T_end);
  const double times[3] = {0.5 * tau, tau, 3.0 * tau};
  const char *const splits[2] = {"ChemistrySplitting = strang", "ChemistrySplitting = lie"};
  for (int sp = 0; sp < 2; sp++)
    for (int i = 0; i < 3; i++) {
      char tend[64];
      snprintf(tend, sizeof tend, "tend = %.17g", times[i]);
      const char *extra[] = {mech_line, BOX_STATE, BOX_X, tend, splits[sp], NULL};
      Simulation *sim = harness_sim(BOX, extra, NULL);
      assert_non_null(sim);
      assert_int_equal(simulation_run(sim), HX_OK);
      const Solver *s = sim->solver;
      double T, p, Tmin = 1e30, Tmax = 0.0;
      for (int e = 0; e < s->mesh->n_elems; e++)
        for (int q = 0; q < s->n_dof_elem; q++) {
          node_T_p(s, e, q, &T, &p);
          Tmin = fmin(Tmin, T);
          Tmax = fmax(Tmax, T);
        }
      double Tref = history_T(&h, times[i]);
      /* the slope at tau turns a timing error into a temperature error: dT/dt * 1e-6 tau */
      double slope = fabs(history_T(&h, times[i] * 1.001) - history_T(&h, times[i] * 0.999)) /
                     (0.002 * times[i]);
      double tol = 1e-5 * Tref + slope * 1e-5 * times[i];
      printf("  %s t = %.3e: box T %.6f K (spread %.1e), reactor %.6f K, tol %.2e (%ld steps)\n",
             splits[sp] + 21, times[i], Tmax, Tmax - Tmin, Tref, tol, sim->iter);
      assert_true(Tmax - Tmin < 1e-9 * Tmax); /* still homogeneous */
      assert_true(fabs(Tmax - Tref) < tol);
      assert_true(sim->iter >= 5); /* several split steps */
      simulation_destroy(sim);
    }
  chem_history_free(&h);
  chem_mech_free(m);
}

/* Curved boxes at 1200 K with a species wave (17): hot enough for chemistry to act. */
#define WAVE_RHO "0.2123976"
#define WAVE_STATE "RefState = (/" WAVE_RHO ",0.,0.,0.,101325./)"
static const char *const WAVE[] = {
    "ProjectName = reacting_wave", "MeshFile = box", "BoxElems = (/3,3,2/)", "NGeo = 3",
    "BoxCurving = 0.06", "BoxUpper = (/1.,1.,1./)", "N = 3", "IniExactFunc = 17",
    "RefStateX = H2:2,O2:1,N2:3.76", "AdvVel = (/300.,200.,100./)", "IniAmplitude = 0.2", "IniFrequency = 0.5",
    "CalcErrorNorms = F", "Riemann = HLLC", "Backend = cpu", NULL};

/* Totals of rho, momentum, energy and atoms (kmol) of the state. */
static void conserved_totals(const Solver *s, double *tot) {
  double t[HX_NVAR_MAX];
  analyze_totals(s, t);
  for (int v = 0; v < HX_NVAR; v++) tot[v] = t[v];
  chem_element_totals(s->mech, t + HX_SPEC0, 1, tot + HX_NVAR); /* of the partial-density totals */
}

/* max over the nodes of |sum_k rho Y_k - rho| / rho */
static double species_sum_defect(const Solver *s) {
  double worst = 0.0;
  int n3 = s->n_dof_elem, nv = s->n_var;
  for (int e = 0; e < s->mesh->n_elems; e++)
    for (int q = 0; q < n3; q++) {
      const double *u = &s->U[(long)e * nv * n3 + q];
      double sum = 0.0;
      for (int k = 0; k < s->n_species; k++) sum += u[(long)(HX_SPEC0 + k) * n3];
      worst = fmax(worst, fabs(sum - u[0]) / u[0]);
    }
  return worst;
}

static void check_conservation(const char *node, const char *split) {
  const char *extra[] = {mech_line, WAVE_STATE, node, split, "ChemistrySplitting = strang",
                         "BoxLower = (/0.,0.,0./)", "BoxUpper = (/0.01,0.01,0.01/)",
                         "IniFrequency = 100.", "BoxPeriodic = (/T,T,T/)", "tend = 4e-6", NULL};
  Simulation *sim = harness_sim(WAVE, extra, NULL);
  assert_non_null(sim);
  double before[HX_NVAR + CHEM_MAX_ELEMENTS], after[HX_NVAR + CHEM_MAX_ELEMENTS];
  int n = HX_NVAR + sim->solver->mech->n_elements;
  conserved_totals(sim->solver, before);
  double d0 = species_sum_defect(sim->solver);
  assert_int_equal(simulation_run(sim), HX_OK);
  conserved_totals(sim->solver, after);
  double d1 = species_sum_defect(sim->solver);
  printf("  %s %s (%ld steps, %ld integrator steps): relative change", node, split, sim->iter,
         sim->chem.steps_total);
  for (int v = 0; v < n; v++) {
    double scale = v == MOM1 || v == MOM2 || v == MOM3 ? fabs(before[DENS]) * 400.0 : fabs(before[v]);
    double rel = fabs(after[v] - before[v]) / scale;
    printf(" %.1e", rel);
    assert_true(rel < 1e-12);
  }
  printf("; sum rho Y_k - rho: %.1e -> %.1e\n", d0, d1);
  assert_true(d1 < 1e-12);
  assert_true(sim->chem.steps_total > 0);
  simulation_destroy(sim);
}

/* ChemMergeHalfSteps: joining Strang's closing and opening half steps changes the result only by
 * the integrator's tolerance and the time steps' CFL choice (dt from the state that still owes its
 * half step), and halves the chemistry intervals; where a reactor takes one integrator step per
 * interval (short flow steps, as in detonations) that halves the chemistry's cost. */
static Simulation *run_wave_split(const char *merge) {
  const char *extra[] = {mech_line, WAVE_STATE, "NodeType = GAUSS-LOBATTO", "SplitDG = PI",
                         "ChemistrySplitting = strang", merge, "BoxLower = (/0.,0.,0./)",
                         "BoxUpper = (/0.01,0.01,0.01/)", "IniFrequency = 100.",
                         "BoxPeriodic = (/T,T,T/)", "tend = 4e-6", "Analyze_dt = 2e-6",
                         "ChemRtol = 1e-10", "ChemAtol = 1e-14", NULL};
  Simulation *sim = harness_sim(WAVE, extra, NULL);
  assert_non_null(sim);
  assert_int_equal(simulation_run(sim), HX_OK);
  return sim;
}

static void test_merged_strang_half_steps(void **state) {
  (void)state;
  if (!mech_path) skip();
  Simulation *a = run_wave_split("ChemMergeHalfSteps = F"), *b = run_wave_split("ChemMergeHalfSteps = T");
  const Solver *sa = a->solver, *sb = b->solver;
  assert_true(fabs(a->t - b->t) < 1e-15 * a->t);
  assert_true(b->chem.owed == 0.0); /* the state at tend owes no chemistry */
  double worst[HX_NVAR_MAX] = {0}, scale[HX_NVAR_MAX] = {0};
  for (long i = 0; i < (long)sa->n_var * sa->n_dof; i++) {
    int v = (int)(i / sa->n_dof_elem) % sa->n_var;
    worst[v] = fmax(worst[v], fabs(sa->U[i] - sb->U[i]));
    scale[v] = fmax(scale[v], fabs(sa->U[i]));
  }
  double diff = 0.0;
  for (int v = 0; v < sa->n_var; v++)
    if (v < MOM1 || v > MOM3) diff = fmax(diff, worst[v] / scale[v]);
  printf("  merged vs unmerged Strang: %ld vs %ld time steps, max relative difference %.2e, "
         "chemistry intervals %ld vs %ld, integrator steps %ld vs %ld\n",
         b->iter, a->iter, diff, b->chem.intervals, a->chem.intervals, b->chem.steps_total,
         a->chem.steps_total);
  assert_true(a->iter == b->iter);
  assert_true(diff < 1e-6);
  /* one interval per step and one per analysis instead of two per step */
  assert_int_equal(a->chem.intervals, 2 * a->iter);
  assert_int_equal(b->chem.intervals, b->iter + 2);
  simulation_destroy(a);
  simulation_destroy(b);
}

static void test_conservation_with_chemistry(void **state) {
  (void)state;
  if (!mech_path) skip();
  check_conservation("NodeType = GAUSS", "SplitDG = none");
  check_conservation("NodeType = GAUSS-LOBATTO", "SplitDG = PI");
}

static void test_freestream_curved(void **state) {
  (void)state;
  if (!mech_path) skip();
  const char *extra[] = {mech_line, "IniExactFunc = 1", "RefState = (/0.8495,150.,-80.,60.,101325./)",
                         "ChemistrySplitting = none", "tend = 5e-4", "NodeType = GAUSS-LOBATTO",
                         NULL};
  const char *const nodes[2] = {"NodeType = GAUSS", "NodeType = GAUSS-LOBATTO"};
  for (int i = 0; i < 2; i++) {
    extra[5] = nodes[i];
    Simulation *sim = harness_sim(WAVE, extra, NULL);
    assert_non_null(sim);
    const Solver *s = sim->solver;
    double *ref = malloc(sizeof(double) * s->n_var);
    memcpy(ref, s->ref_U, sizeof(double) * s->n_var);
    assert_int_equal(simulation_run(sim), HX_OK);
    double dev = 0.0;
    for (long q = 0; q < (long)s->n_var * s->n_dof; q++) {
      int v = (int)((q / s->n_dof_elem) % s->n_var);
      double scale = v >= MOM1 && v <= MOM3 ? ref[DENS] * 150.0 : fabs(ref[v]) + 1e-300;
      if (v >= HX_SPEC0 && ref[v] == 0.0) scale = ref[DENS];
      dev = fmax(dev, fabs(s->U[q] - ref[v]) / scale);
    }
    printf("  %s: max relative deviation from the free stream after %ld steps: %.2e\n",
           nodes[i], sim->iter, dev);
    assert_true(dev < 1e-12);
    free(ref);
    simulation_destroy(sim);
  }
}

/* L2 error of the density and of the first species on an n^3 curved box at degree N. */
static double wave_error(int N, int n) {
  char elems[64], deg[32];
  snprintf(elems, sizeof elems, "BoxElems = (/%d,%d,%d/)", n, n, n);
  snprintf(deg, sizeof deg, "N = %d", N);
  const char *extra[] = {mech_line, elems, deg, "NodeType = GAUSS", "SplitDG = none",
                         "BoxPeriodic = (/F,F,F/)", "ChemistrySplitting = none",
                         "CalcErrorNorms = T", "CFLscale = 0.5", "tend = 1e-4", "IniAmplitude = 0.1",
                         WAVE_STATE, NULL};
  Simulation *sim = harness_sim(WAVE, extra, NULL);
  assert_non_null(sim);
  assert_int_equal(simulation_run(sim), HX_OK);
  double L2[HX_NVAR_MAX], Linf[HX_NVAR_MAX];
  analyze_error_norms(&sim->ana, sim->solver, sim->t, L2, Linf);
  double err = L2[DENS] / 0.2 + L2[HX_SPEC0] / 0.01; /* both scaled to O(1) */
  simulation_destroy(sim);
  return err;
}

static void test_species_wave_order(void **state) {
  (void)state;
  if (!mech_path) skip();
  /* mesh pairs in the asymptotic range (the coarser 4^3 -> 8^3 gives N + 0.6 for N = 2) */
  const int n0s[5] = {0, 8, 8, 6, 3};
  for (int N = 1; N <= 4; N++) {
    int n0 = n0s[N];
    double e0 = wave_error(N, n0), e1 = wave_error(N, 2 * n0);
    double eoc = log(e0 / e1) / log(2.0);
    printf("  N = %d: error %.3e (%d^3) -> %.3e (%d^3), order %.2f\n", N, e0, n0, e1, 2 * n0, eoc);
    assert_true(eoc >= N + 0.7); /* the bound */
  }
}

/* simulation_create's return code for BOX + extra (the simulation is destroyed). */
static int create_rc(const char *const *extra, const char *restart) {
  const char *all[64];
  int n = 0;
  for (int i = 0; BOX[i]; i++) all[n++] = BOX[i];
  for (int i = 0; extra[i]; i++) all[n++] = extra[i];
  all[n] = NULL;
  Params *p = harness_params(all);
  assert_non_null(p);
  Simulation *sim = NULL;
  int rc = simulation_create(p, restart, &sim);
  if (rc == HX_OK) simulation_destroy(sim);
  params_destroy(p);
  return rc;
}

static void expect_input_error(const char *const *extra, const char *what, int code) {
  int rc = create_rc(extra, NULL);
  printf("  %s -> %d\n", what, rc);
  assert_int_equal(rc, code);
}

static void test_bad_input(void **state) {
  (void)state;
  if (!mech_path) skip();
  const char *missing[] = {"Mechanism = /nonexistent/mech.yaml", BOX_STATE, BOX_X, NULL};
  expect_input_error(missing, "missing mechanism", HX_ERR_IO);
  const char *unknown[] = {mech_line, BOX_STATE, "RefStateX = H2:2,O2:1,AR:3.76", NULL};
  expect_input_error(unknown, "species not in the mechanism", HX_ERR_INPUT);
  const char *sum[] = {mech_line, BOX_STATE, "RefStateY = H2:0.03,O2:0.2264,N2:0.7451", NULL};
  expect_input_error(sum, "mass fractions summing to 1.0015", HX_ERR_INPUT);
  const char *count[] = {mech_line, BOX_STATE, BOX_X, "RefState = (/1.,0.,0.,0.,101325./)", NULL};
  expect_input_error(count, "two RefStates, one composition", HX_ERR_INPUT);
}

/* A state written with Li 2004 cannot restart a run with another mechanism (h2o2). */
static void test_restart_other_mechanism(void **state) {
  (void)state;
  if (!mech_path || !h2o2_line[0]) skip();
  const char *extra[] = {mech_line, BOX_STATE, BOX_X, "tend = 1e-6",
                         "ProjectName = reacting_restart", NULL};
  Simulation *sim = harness_sim(BOX, extra, NULL);
  assert_non_null(sim);
  assert_int_equal(simulation_run(sim), HX_OK);
  assert_int_equal(simulation_write_state(sim), HX_OK);
  char file[1100];
  snprintf(file, sizeof file, "%s", sim->last_state);
  simulation_destroy(sim);
  const char *other[] = {h2o2_line, BOX_STATE, "RefStateX = H2:2,O2:1,AR:3.76", "tend = 1e-6",
                         NULL};
  int rc = create_rc(other, file);
  printf("  restart of a Li 2004 state with h2o2 -> %d\n", rc);
  assert_int_equal(rc, HX_ERR_INPUT);
  /* the same mechanism restarts */
  Simulation *good = harness_sim(BOX, extra, file);
  assert_non_null(good);
  simulation_destroy(good);
}

int main(void) {
  static char buf[4096], buf2[4096];
  mech_path = chem_test_mech_path("li", buf, sizeof buf);
  if (!chem_test_have(mech_path)) mech_path = NULL;
  if (mech_path) snprintf(mech_line, sizeof mech_line, "Mechanism = %s", mech_path);
  const char *h2o2 = chem_test_mech_path("h2o2", buf2, sizeof buf2);
  if (chem_test_have(h2o2)) snprintf(h2o2_line, sizeof h2o2_line, "Mechanism = %s", h2o2);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bad_input),
      cmocka_unit_test(test_box_ignites_as_reactor),
      cmocka_unit_test(test_freestream_curved),
      cmocka_unit_test(test_conservation_with_chemistry),
      cmocka_unit_test(test_merged_strang_half_steps),
      cmocka_unit_test(test_restart_other_mechanism),
      cmocka_unit_test(test_species_wave_order),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
