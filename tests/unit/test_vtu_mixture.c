/* ParaView output of reacting-flow states (Mechanism set, nVar = 5 + species): the point data
 * Temperature, Pressure, Y_<species> and HeatRelease read back from .vtu files and checked against
 * values computed without the writer:
 *  - a uniform frozen H2-air RefState in motion at 300 K: T, p and Y are the numbers the test
 *    built the RefState from (rho = p W / (R T)), the conservative variables those of the
 *    RefState, and the heat release vanishes (no reaction proceeds at 300 K);
 *  - the species wave (IniExactFunc 17) on a curved box at 1200 K: at every point, T, p and Y of
 *    the solution polynomial evaluated by the test, and the heat release equal to rho cp dT/dt of
 *    the constant-pressure reactor (chem/reactor.h) at that state;
 *  - the heat release of states of tests/data/chem/rates_li.csv against -sum_k h_k wdot_k with
 *    Cantera's production rates, and its sign: negative for fresh hot H2-air (every initiation
 *    step, e.g. H2 + O2 -> H + HO2, is endothermic), positive for a radical pool recombining to
 *    water;
 *  - binary equal to ASCII; the run's ParaView output (no longer refused) and `hexdg convert`
 *    with the state's mechanism, a mechanism file that is gone (an error naming it and
 *    --mechanism), --mechanism, a file of another hash, and --mechanism for an air state.
 * Needs the Li 2004 mechanism (../shared/data or .oracle/mechanisms): its tests skip without it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <fcntl.h>
#include <sys/stat.h>

#include "../chem_paths.h"
#include "app/convert.h"
#include "chem/reactor.h"
#include "io/vtu.h"
#include "physics/mixture.h"
#include "regression/harness.h"
#include "vtu_test_util.h"

static char mech_line[4200];
static const char *mech_path;
static ChemMech *mech;

/* A box of 3 x 2 x 2 affine elements with Gauss-Lobatto nodes and a uniform RefState (its
 * density, velocity and composition are added by the test). */
static const char *const UNIFORM[] = {"ProjectName = vtumix",
                                      "Backend = cpu",
                                      "MeshFile = box",
                                      "BoxElems = (/3,2,2/)",
                                      "BoxLower = (/0.,0.,0./)",
                                      "BoxUpper = (/0.03,0.02,0.02/)",
                                      "NGeo = 1",
                                      "N = 2",
                                      "NodeType = GAUSS-LOBATTO",
                                      "IniExactFunc = 1",
                                      "Riemann = HLLC",
                                      "CalcErrorNorms = F",
                                      "tend = 1e-6",
                                      NULL};

/* The species wave at 1200 K on a curved box with Gauss nodes (visualization points on the
 * element faces are extrapolated). */
static const char *const WAVE[] = {"ProjectName = vtuwave",
                                   "Backend = cpu",
                                   "MeshFile = box",
                                   "BoxElems = (/2,2,1/)",
                                   "BoxUpper = (/1.,1.,1./)",
                                   "NGeo = 2",
                                   "BoxCurving = 0.05",
                                   "N = 3",
                                   "NodeType = GAUSS",
                                   "IniExactFunc = 17",
                                   "RefState = (/0.2123976,0.,0.,0.,101325./)",
                                   "RefStateX = H2:2,O2:1,N2:3.76",
                                   "AdvVel = (/300.,200.,100./)",
                                   "IniAmplitude = 0.2",
                                   "IniFrequency = 0.5",
                                   "Riemann = HLLC",
                                   "CalcErrorNorms = F",
                                   "tend = 1e-6",
                                   NULL};

/* ---------------------------------------------------------------------------------------------
 * Set-up helpers */

/* Mass fractions of "A:a,B:b" mole fractions (the test's own conversion of the RefStateX). */
static void mass_fractions(const char *X, double *Y) {
  assert_int_equal(chem_parse_composition(mech, X, "test", Y), HX_OK);
  chem_mole_to_mass(mech, Y, 1, Y, 1);
}

/* "RefState = (/rho,u,v,w,p/)" and "RefStateY = ..." of the state (T, p, Y, velocity vel). */
static void ref_state_lines(double T, double p, const double *Y, const double vel[3], char *state,
                            size_t state_len, char *comp, size_t comp_len) {
  const double rho = p * chem_mean_mw(mech, Y, 1) / (CHEM_R * T);
  snprintf(state, state_len, "RefState = (/%.17g,%.17g,%.17g,%.17g,%.17g/)", rho, vel[0], vel[1],
           vel[2], p);
  int n = snprintf(comp, comp_len, "RefStateY = ");
  for (int k = 0; k < mech->n_species; k++)
    n += snprintf(comp + n, comp_len - n, "%s%s:%.17g", k ? "," : "", mech->species_names[k], Y[k]);
}

/* A uniform state of T, p, Y and vel on a box of one element (n_elems = 1) or UNIFORM's box. */
static Simulation *uniform_sim(double T, double p, const double *Y, const double vel[3],
                               int one_element, const char *more) {
  char state[256], comp[2048];
  ref_state_lines(T, p, Y, vel, state, sizeof state, comp, sizeof comp);
  const char *extra[] = {mech_line, state,
                         comp,      one_element ? "BoxElems = (/1,1,1/)" : "BoxElems = (/3,2,2/)",
                         more,      NULL};
  Simulation *sim = harness_sim(UNIFORM, extra, NULL);
  assert_non_null(sim);
  return sim;
}

static double *read_point_array(const char *text, long size, int binary, const char *name,
                                long expected) {
  long n = -1;
  double *v = binary ? binary_array(text, size, name, &n) : ascii_array(text, name, &n);
  if (!v) fail_msg("no point data %s", name);
  assert_int_equal(n, expected);
  return v;
}

/* The named array of an ASCII .vtu (n_points values); free it. */
static double *ascii_point_array(const char *path, const char *name, long *n_points) {
  char *text = slurp(path, NULL);
  assert_non_null(text);
  *n_points = attribute_long(strstr(text, "<Piece"), "NumberOfPoints");
  double *v = read_point_array(text, 0, 0, name, *n_points);
  free(text);
  return v;
}

static void y_name(int k, char *buf, size_t len) {
  snprintf(buf, len, "Y_%s", mech->species_names[k]);
}

/* Heat release of a uniform state as the file says it (every point alike up to the round-off of
 * the interpolation to the points; checked). */
static double file_heat_release(const Simulation *sim) {
  VtuExtra ascii = {NULL, NULL, 1, NULL, NULL};
  assert_int_equal(vtu_write("uniform.vtu", sim->solver, sim->solver->U, 1, 0.0, &ascii), HX_OK);
  long n = 0;
  double *q = ascii_point_array("uniform.vtu", "HeatRelease", &n);
  for (long i = 1; i < n; i++)
    assert_true(fabs(q[i] - q[0]) <= 1e-11 * fabs(q[0]));
  double q0 = q[0];
  free(q);
  return q0;
}

/* rho cp dT/dt of the adiabatic constant-pressure reactor at (T, p, Y): the heat release rate
 * that heats it (chem/reactor.h, CP: dT/dt = -sum_k h_k wdot_k / (rho cp)). */
static double cp_reactor_heat_release(double T, double p, const double *Y) {
  const int ns = mech->n_species;
  double y[1 + HX_MAX_SPECIES], f[1 + HX_MAX_SPECIES];
  double *work = calloc(chem_reactor_rhs_work(mech), sizeof(double));
  y[0] = T;
  memcpy(y + 1, Y, sizeof(double) * ns);
  chem_reactor_rhs(mech, CHEM_MODE_CP, p, y, 1, f, 1, work, 1);
  free(work);
  const double rho = p * chem_mean_mw(mech, Y, 1) / (CHEM_R * T);
  return rho * chem_cp_mass(mech, T, Y, 1) * f[0];
}

/* ---------------------------------------------------------------------------------------------
 * Tests */

/* Frozen H2-air at 300 K in motion: every point carries the RefState's own T, p, Y. */
static void test_uniform_frozen_state(void **state) {
  (void)state;
  const int ns = mech->n_species;
  const double T = 300.0, p = 101325.0, vel[3] = {30.0, -20.0, 10.0};
  double Y[HX_MAX_SPECIES];
  mass_fractions("H2:2,O2:1,N2:3.76", Y);
  Simulation *sim = uniform_sim(T, p, Y, vel, 0, NULL);
  const Solver *s = sim->solver;
  assert_int_equal(s->n_var, HX_NVAR + ns);
  VtuExtra ascii = {NULL, NULL, 1, NULL, NULL};
  assert_int_equal(vtu_write("frozen.vtu", s, s->U, 3, 0.0, &ascii), HX_OK);
  char *text = slurp("frozen.vtu", NULL);
  assert_non_null(text);
  const long n_points = attribute_long(strstr(text, "<Piece"), "NumberOfPoints");
  assert_int_equal(n_points, 64L * s->mesh->n_elems);
  const double rho = p * chem_mean_mw(mech, Y, 1) / (CHEM_R * T);
  const double want_cons[HX_NVAR] = {
      rho, rho * vel[0], rho * vel[1], rho * vel[2],
      rho * (chem_u_mass(mech, T, Y, 1) +
             0.5 * (vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2]))};
  const char *const cons[HX_NVAR] = {"Density", "MomentumX", "MomentumY", "MomentumZ",
                                     "EnergyStagnationDensity"};
  double err_cons = 0.0, err_T = 0.0, err_p = 0.0, err_Y = 0.0, max_q = 0.0;
  for (int v = 0; v < HX_NVAR; v++) {
    double *a = read_point_array(text, 0, 0, cons[v], n_points);
    for (long i = 0; i < n_points; i++)
      err_cons = fmax(err_cons, fabs(a[i] - want_cons[v]) / fabs(want_cons[v]));
    free(a);
  }
  double *Tf = read_point_array(text, 0, 0, "Temperature", n_points);
  double *pf = read_point_array(text, 0, 0, "Pressure", n_points);
  double *qf = read_point_array(text, 0, 0, "HeatRelease", n_points);
  for (long i = 0; i < n_points; i++) {
    err_T = fmax(err_T, fabs(Tf[i] - T) / T);
    err_p = fmax(err_p, fabs(pf[i] - p) / p);
    max_q = fmax(max_q, fabs(qf[i]));
  }
  for (int k = 0; k < ns; k++) {
    char name[64];
    y_name(k, name, sizeof name);
    double *a = read_point_array(text, 0, 0, name, n_points);
    for (long i = 0; i < n_points; i++)
      err_Y = fmax(err_Y, fabs(a[i] - Y[k]));
    free(a);
  }
  printf("  frozen H2-air, 300 K: rel. errors U %.1e, T %.1e, p %.1e; |Y - Y_ref| %.1e; "
         "|HeatRelease| <= %.1e W/m^3\n",
         err_cons, err_T, err_p, err_Y, max_q);
  assert_true(err_cons < 1e-14);
  assert_true(err_T < 1e-13);
  assert_true(err_p < 1e-13);
  assert_true(err_Y < 1e-15);
  /* the fastest initiation step at 300 K has exp(-Ea/RT) ~ 1e-40: nothing reacts */
  assert_true(max_q < 1e-10);
  free(Tf);
  free(pf);
  free(qf);
  free(text);
  simulation_destroy(sim);
}

/* The species wave: every point against the test's own evaluation of the solution polynomial. */
static void test_species_wave_points(void **state) {
  (void)state;
  const int ns = mech->n_species, n_visu = 4, npv = 125;
  const char *extra[] = {mech_line, NULL};
  Simulation *sim = harness_sim(WAVE, extra, NULL);
  assert_non_null(sim);
  const Solver *s = sim->solver;
  VtuExtra ascii = {NULL, NULL, 1, NULL, NULL};
  assert_int_equal(vtu_write("wave.vtu", s, s->U, n_visu, 0.0, &ascii), HX_OK);
  char *text = slurp("wave.vtu", NULL);
  assert_non_null(text);
  const long n_points = (long)npv * s->mesh->n_elems;
  double *conn = read_point_array(text, 0, 0, "connectivity", n_points);
  double *Tf = read_point_array(text, 0, 0, "Temperature", n_points);
  double *pf = read_point_array(text, 0, 0, "Pressure", n_points);
  double *qf = read_point_array(text, 0, 0, "HeatRelease", n_points);
  double *Yf[HX_MAX_SPECIES];
  for (int k = 0; k < ns; k++) {
    char name[64];
    y_name(k, name, sizeof name);
    Yf[k] = read_point_array(text, 0, 0, name, n_points);
  }
  int(*ijk)[3] = malloc(sizeof(int[3]) * npv);
  assert_int_equal(vtk_order_ijk(n_visu, ijk), npv);
  double err_T = 0.0, err_p = 0.0, err_Y = 0.0, err_sum = 0.0, err_q = 0.0, q_scale = 0.0;
  double T_lo = 1e30, T_hi = 0.0;
  for (int c = 0; c < s->mesh->n_elems; c++)
    for (int m = 0; m < npv; m++) {
      const long id = (long)conn[(long)c * npv + m];
      double xi[3], u[HX_NVAR_MAX], prim[HX_NPRIM], Y[HX_MAX_SPECIES], cs;
      for (int a = 0; a < 3; a++)
        xi[a] = -1.0 + 2.0 * ijk[m][a] / n_visu;
      solution_at(s, s->U, c, xi, u);
      prim[TEMP] = -1.0; /* no guess: the bracketed search */
      assert_int_equal(mix_cons_to_prim(mech, u, prim, Y, &cs), 0);
      err_T = fmax(err_T, fabs(Tf[id] - prim[TEMP]) / prim[TEMP]);
      err_p = fmax(err_p, fabs(pf[id] - prim[PRES]) / prim[PRES]);
      double sum = 0.0;
      for (int k = 0; k < ns; k++) {
        err_Y = fmax(err_Y, fabs(Yf[k][id] - Y[k]));
        sum += Yf[k][id];
      }
      err_sum = fmax(err_sum, fabs(sum - 1.0));
      const double q = cp_reactor_heat_release(prim[TEMP], prim[PRES], Y);
      err_q = fmax(err_q, fabs(qf[id] - q));
      q_scale = fmax(q_scale, fabs(q));
      T_lo = fmin(T_lo, Tf[id]);
      T_hi = fmax(T_hi, Tf[id]);
    }
  printf("  species wave: T in [%.1f, %.1f] K, rel. errors T %.1e, p %.1e; |Y - Y_h| %.1e, "
         "|sum Y - 1| %.1e; HeatRelease vs rho cp dT/dt (CP reactor) %.1e of %.3e W/m^3\n",
         T_lo, T_hi, err_T, err_p, err_Y, err_sum, err_q, q_scale);
  assert_true(T_hi - T_lo > 100.0); /* the wave varies the state */
  assert_true(err_T < 1e-12);
  assert_true(err_p < 1e-12);
  assert_true(err_Y < 1e-14);
  assert_true(err_sum < 1e-13);
  assert_true(q_scale > 0.0);
  assert_true(err_q < 1e-10 * q_scale);
  for (int k = 0; k < ns; k++)
    free(Yf[k]);
  free(ijk);
  free(conn);
  free(Tf);
  free(pf);
  free(qf);
  free(text);
  simulation_destroy(sim);
}

/* Rows of tests/data/chem/rates_li.csv (Cantera 3.2): T, p, C_k and wdot_k. */
typedef struct {
  double T, p, C[HX_MAX_SPECIES], wdot[HX_MAX_SPECIES];
} RateRow;

static int read_rate_rows(RateRow *rows, int max_rows, double T_min, double T_max) {
  char path[4096], *line = malloc(1 << 16);
  snprintf(path, sizeof path, "%s/tests/data/chem/rates_li.csv", HEXDG_SOURCE_DIR);
  FILE *fp = fopen(path, "r");
  assert_non_null(fp);
  const int ns = mech->n_species;
  int col_sp[2 + 2 * HX_MAX_SPECIES], n_cols = 0, n = 0;
  while (n < max_rows && fgets(line, 1 << 16, fp)) {
    if (line[0] == '#') continue;
    if (n_cols == 0) { /* the header: T,p,C_<species>...,wdot_<species>... */
      for (char *tok = strtok(line, ",\n"); tok; tok = strtok(NULL, ",\n"), n_cols++) {
        const char *sp = strchr(tok, '_');
        col_sp[n_cols] = sp ? chem_species_index(mech, sp + 1) : -1;
        assert_true(n_cols < 2 || col_sp[n_cols] >= 0);
      }
      assert_int_equal(n_cols, 2 + 2 * ns);
      continue;
    }
    RateRow r;
    memset(&r, 0, sizeof r);
    char *at = line;
    for (int c = 0; c < n_cols; c++) {
      double v = strtod(at, &at);
      at++; /* the comma */
      if (c == 0)
        r.T = v;
      else if (c == 1)
        r.p = v;
      else if (c < 2 + ns)
        r.C[col_sp[c]] = v;
      else
        r.wdot[col_sp[c]] = v;
    }
    if (r.T >= T_min && r.T <= T_max) rows[n++] = r;
  }
  fclose(fp);
  free(line);
  return n;
}

/* HeatRelease of states from Cantera's table against -sum_k h_k wdot_k of Cantera's rates. */
static void test_heat_release_vs_cantera(void **state) {
  (void)state;
  const int ns = mech->n_species;
  RateRow rows[4];
  const int n = read_rate_rows(rows, 4, 1000.0, 2500.0);
  assert_int_equal(n, 4);
  const double vel[3] = {0.0, 0.0, 0.0};
  for (int i = 0; i < n; i++) {
    double rho = 0.0, Y[HX_MAX_SPECIES];
    for (int k = 0; k < ns; k++)
      rho += rows[i].C[k] * mech->mw[k];
    for (int k = 0; k < ns; k++)
      Y[k] = rows[i].C[k] * mech->mw[k] / rho;
    Simulation *sim = uniform_sim(rows[i].T, rows[i].p, Y, vel, 1, NULL);
    const double q = file_heat_release(sim);
    double q_ref = 0.0, h_max = 0.0, w_max = 0.0;
    for (int k = 0; k < ns; k++) {
      const double h = chem_h_RT(mech, k, rows[i].T) * CHEM_R * rows[i].T; /* J/kmol */
      q_ref -= h * rows[i].wdot[k];
      h_max = fmax(h_max, fabs(h));
      w_max = fmax(w_max, fabs(rows[i].wdot[k]));
    }
    printf("  T %.1f K, p %.4g Pa: HeatRelease %.9e W/m^3, Cantera's rates %.9e (diff %.1e of "
           "max|h| max|wdot| %.1e)\n",
           rows[i].T, rows[i].p, q, q_ref, fabs(q - q_ref), h_max * w_max);
    /* test_chem_kinetics: our rates are Cantera's within 1e-10 of the largest |wdot| */
    assert_true(fabs(q - q_ref) < 1e-9 * h_max * w_max);
    simulation_destroy(sim);
  }
}

/* The sign of the heat release of hot H2-air before and after the radicals appear. */
static void test_heat_release_sign(void **state) {
  (void)state;
  const double vel[3] = {0.0, 0.0, 0.0}, p = 101325.0, T = 1500.0;
  double Y[HX_MAX_SPECIES];
  mass_fractions("H2:2,O2:1,N2:3.76", Y);
  Simulation *sim = uniform_sim(T, p, Y, vel, 1, NULL);
  const double q_fresh = file_heat_release(sim), q_fresh_cp = cp_reactor_heat_release(T, p, Y);
  simulation_destroy(sim);
  mass_fractions("H2O:1,H:0.1,OH:0.1,N2:3.76", Y);
  sim = uniform_sim(T, p, Y, vel, 1, NULL);
  const double q_pool = file_heat_release(sim), q_pool_cp = cp_reactor_heat_release(T, p, Y);
  simulation_destroy(sim);
  printf("  1500 K, 1 atm: fresh H2-air %.4e W/m^3 (CP reactor %.4e), radical pool H2O/H/OH "
         "%.4e W/m^3 (%.4e)\n",
         q_fresh, q_fresh_cp, q_pool, q_pool_cp);
  assert_true(q_fresh < 0.0); /* initiation (H2 + O2 -> H + HO2, H2 + M -> 2H) is endothermic */
  assert_true(q_pool > 0.0);  /* H + OH + M -> H2O + M and the other recombinations */
  assert_true(fabs(q_fresh - q_fresh_cp) < 1e-10 * fabs(q_fresh_cp));
  assert_true(fabs(q_pool - q_pool_cp) < 1e-10 * fabs(q_pool_cp));
}

/* Binary output holds the ASCII file's values, the species arrays included. */
static void test_binary_equals_ascii(void **state) {
  (void)state;
  const char *extra[] = {mech_line, NULL};
  Simulation *sim = harness_sim(WAVE, extra, NULL);
  assert_non_null(sim);
  const Solver *s = sim->solver;
  VtuExtra ascii = {NULL, NULL, 1, NULL, NULL};
  assert_int_equal(vtu_write("wave_bin.vtu", s, s->U, 3, 0.5, NULL), HX_OK);
  assert_int_equal(vtu_write("wave_ascii.vtu", s, s->U, 3, 0.5, &ascii), HX_OK);
  long size_b = 0, size_a = 0;
  char *tb = slurp("wave_bin.vtu", &size_b), *ta = slurp("wave_ascii.vtu", &size_a);
  const long n_points = 64L * s->mesh->n_elems;
  char names[HX_MAX_SPECIES + 3][64] = {"Temperature", "Pressure", "HeatRelease"};
  for (int k = 0; k < mech->n_species; k++)
    y_name(k, names[3 + k], sizeof names[0]);
  for (int a = 0; a < 3 + mech->n_species; a++) {
    double *vb = read_point_array(tb, size_b, 1, names[a], n_points);
    double *va = read_point_array(ta, size_a, 0, names[a], n_points);
    assert_memory_equal(vb, va, sizeof(double) * n_points);
    free(vb);
    free(va);
  }
  free(tb);
  free(ta);
  simulation_destroy(sim);
}

static void copy_file(const char *from, const char *to, const char *append) {
  long n = 0;
  char *text = slurp(from, &n);
  assert_non_null(text);
  FILE *fp = fopen(to, "wb");
  assert_non_null(fp);
  assert_int_equal(fwrite(text, 1, n, fp), n);
  if (append) fputs(append, fp);
  fclose(fp);
  free(text);
}

static int same_bytes(const char *a, const char *b) {
  long na = 0, nb = 0;
  char *ta = slurp(a, &na), *tb = slurp(b, &nb);
  int same = ta && tb && na == nb && memcmp(ta, tb, na) == 0;
  free(ta);
  free(tb);
  return same;
}

/* What convert_state prints to stderr (its error message). */
static int convert_captured(const char *state_path, const char *ini, const char *out,
                            const ConvertOptions *opt, char *msg, size_t len) {
  fflush(stderr);
  int saved = dup(2), fd = open("stderr.txt", O_WRONLY | O_CREAT | O_TRUNC, 0600);
  assert_true(saved >= 0 && fd >= 0);
  dup2(fd, 2);
  close(fd);
  int rc = convert_state(state_path, ini, out, opt);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  FILE *fp = fopen("stderr.txt", "rb");
  size_t got = fread(msg, 1, len - 1, fp);
  msg[got] = 0;
  fclose(fp);
  fprintf(stderr, "%s", msg); /* keep it in the test log */
  return rc;
}

/* A run with OutputFormat = ParaView writes the species; `hexdg convert` finds the mechanism. */
static void test_run_output_and_convert(void **state) {
  (void)state;
  /* the run's mechanism is a copy in the scratch folder, so that it can disappear */
  copy_file(mech_path, "li_copy.yaml", NULL);
  const double vel[3] = {50.0, 0.0, 0.0}, T = 1000.0, p = 2e5;
  double Y[HX_MAX_SPECIES];
  mass_fractions("H2:2,O2:1,N2:3.76", Y);
  char state_line[256], comp[2048];
  ref_state_lines(T, p, Y, vel, state_line, sizeof state_line, comp, sizeof comp);
  const char *more[] = {"Mechanism = li_copy.yaml", state_line,  comp,
                        "OutputFormat = ParaView",  "NVisu = 2", NULL};
  Simulation *sim = harness_sim(UNIFORM, more, NULL);
  assert_non_null(sim); /* OutputFormat = ParaView is accepted for reacting flow */
  sim->t = 0.5;
  assert_int_equal(simulation_write_state(sim), HX_OK);
  const char *run_vtu = "vtumix_Solution_0000000.500000000.vtu";
  assert_int_equal(access(run_vtu, R_OK), 0);
  assert_int_equal(access("vtumix_Solution.pvd", R_OK), 0);
  long n = 0;
  char *text = slurp(run_vtu, &n);
  for (int k = 0; k < mech->n_species; k++) {
    char name[64];
    y_name(k, name, sizeof name);
    double *v = read_point_array(text, n, 1, name, 27L * sim->solver->mesh->n_elems);
    assert_true(fabs(v[0] - Y[k]) < 1e-15);
    free(v);
  }
  double *Tv = read_point_array(text, n, 1, "Temperature", 27L * sim->solver->mesh->n_elems);
  assert_true(fabs(Tv[0] - T) < 1e-12 * T);
  free(Tv);
  free(text);

  /* hexdg convert of the run's state: the same file */
  const char *all[32];
  int m = 0;
  for (; UNIFORM[m]; m++)
    all[m] = UNIFORM[m];
  for (int i = 0; more[i]; i++)
    all[m++] = more[i];
  all[m] = NULL;
  write_ini("case.ini", all, NULL);
  char msg[8192];
  assert_int_equal(convert_captured(sim->last_state, "case.ini", "conv.vtu", NULL, msg, sizeof msg),
                   HX_OK);
  assert_true(same_bytes("conv.vtu", run_vtu));

  /* the mechanism file gone: an error naming it and the way to point at it, no output */
  assert_int_equal(mkdir("elsewhere", 0700), 0);
  assert_int_equal(rename("li_copy.yaml", "elsewhere/li_copy.yaml"), 0);
  int rc = convert_captured(sim->last_state, "case.ini", "gone.vtu", NULL, msg, sizeof msg);
  assert_int_not_equal(rc, HX_OK);
  assert_non_null(strstr(msg, "li_copy.yaml"));
  assert_non_null(strstr(msg, "--mechanism FILE"));
  assert_int_equal(access("gone.vtu", F_OK), -1);
  ConvertOptions opt = {0, "elsewhere/li_copy.yaml"};
  assert_int_equal(
      convert_captured(sim->last_state, "case.ini", "moved.vtu", &opt, msg, sizeof msg), HX_OK);
  assert_true(same_bytes("moved.vtu", run_vtu));

  /* a mechanism of the same species but other bytes (hash) is refused */
  copy_file("elsewhere/li_copy.yaml", "edited.yaml", "# edited\n");
  opt.mechanism = "edited.yaml";
  rc = convert_captured(sim->last_state, "case.ini", "edited.vtu", &opt, msg, sizeof msg);
  assert_int_equal(rc, HX_ERR_INPUT);
  assert_non_null(strstr(msg, "is not the one"));
  opt.mechanism = "no_such_file.yaml";
  rc = convert_captured(sim->last_state, "case.ini", "none.vtu", &opt, msg, sizeof msg);
  assert_int_not_equal(rc, HX_OK);
  assert_non_null(strstr(msg, "no_such_file.yaml"));
  simulation_destroy(sim);

  /* an air state takes no --mechanism */
  const char *air[] = {"ProjectName = vtuair",           "Backend = cpu", "MeshFile = box",
                       "BoxElems = (/1,1,1/)",           "N = 1",         "IniExactFunc = 1",
                       "RefState = (/1.,0.1,0.,0.,1./)", "tend = 0.1",    NULL};
  sim = harness_sim(air, NULL, NULL);
  assert_non_null(sim);
  assert_int_equal(simulation_write_state(sim), HX_OK);
  write_ini("air.ini", air, NULL);
  opt.mechanism = "elsewhere/li_copy.yaml";
  rc = convert_captured(sim->last_state, "air.ini", "air.vtu", &opt, msg, sizeof msg);
  assert_int_equal(rc, HX_ERR_INPUT);
  assert_non_null(strstr(msg, "not a reacting-flow state"));
  simulation_destroy(sim);
}

int main(void) {
  static char path[4096];
  mech_path = chem_test_mech_path("li", path, sizeof path);
  harness_scratch_dir("vtu_mixture");
  if (chem_test_have(mech_path)) {
    snprintf(mech_line, sizeof mech_line, "Mechanism = %s", mech_path);
    if (chem_mech_load(mech_path, NULL, &mech) != HX_OK) return 1;
  } else {
    return 77;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_uniform_frozen_state),    cmocka_unit_test(test_species_wave_points),
      cmocka_unit_test(test_heat_release_vs_cantera), cmocka_unit_test(test_heat_release_sign),
      cmocka_unit_test(test_binary_equals_ascii),     cmocka_unit_test(test_run_output_and_convert),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  chem_mech_free(mech);
  return rc;
}
