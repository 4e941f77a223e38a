/* Boundary conditions of the thermally perfect mixture (Mechanism set) on the CPU backend, in a
 * closed 0.01 m box of the inert three-species mechanism (HE, N2, CO2; no reactions):
 *  - pressure outflow (24) on all six faces at the gas's own pressure: a mixture at rest stays
 *    uniform to round-off;
 *  - pressure outflow at 90 % of the gas's pressure: mass leaves (the total decreases), the
 *    composition stays the inner one (Y unchanged, sum_k rho Y_k = rho to round-off);
 *  - 23 (Mach 0) and 25 at the gas's pressure keep a mixture at rest uniform as well;
 *  - adiabatic no-slip walls (3), viscous: a mixture at rest stays at rest; a non-uniform one
 *    (the species wave at rest) conserves the mass of every species and the energy to round-off;
 *  - isothermal walls (4) at twice the gas temperature: the energy rises, the masses are
 *    conserved to round-off and the gas next to the walls warms up;
 *  - total-state inflow (27) at the gas's own temperature and pressure keeps it at rest;
 *  - a BC code the mixture lacks (22, an air exact function) is refused with HX_ERR_INPUT. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "../chem_paths.h"
#include "analysis/analyze.h"
#include "harness.h"
#include "physics/mixture.h"

static char inert_line[4200];

/* Equimolar HE, N2, CO2 at 300 K, 1 atm: W = 25.34 kg/kmol, rho = p W / (R T). */
#define GAS_P 101325.0
#define GAS_STATE "RefState = (/1.0294,0.,0.,0.,101325./)"
#define GAS_X "RefStateX = HE:1,N2:1,CO2:1"

static const char *const BOX[] = {"ProjectName = reacting_bc",
                                  "MeshFile = box",
                                  "BoxElems = (/2,2,2/)",
                                  "BoxLower = (/0.,0.,0./)",
                                  "BoxUpper = (/0.01,0.01,0.01/)",
                                  "BoxPeriodic = (/F,F,F/)",
                                  "N = 3",
                                  "NodeType = GAUSS",
                                  "Riemann = HLLC",
                                  "ChemistrySplitting = none",
                                  "CalcErrorNorms = F",
                                  "Backend = cpu",
                                  GAS_X,
                                  GAS_X,
                                  NULL};

/* The options setting all six box faces to BoundaryType (/type, state/). */
static void all_faces(const char *type, const char **out) {
  static const char *const names[6] = {"BoundaryName = BC_xminus", "BoundaryName = BC_xplus",
                                       "BoundaryName = BC_yminus", "BoundaryName = BC_yplus",
                                       "BoundaryName = BC_zminus", "BoundaryName = BC_zplus"};
  for (int i = 0; i < 6; i++) {
    out[2 * i] = names[i];
    out[2 * i + 1] = type;
  }
}

/* The options of a box with the BC `type` on all faces, RefState 1 the gas, `ref2` the second
 * RefState and the options `more` (NULL-terminated; IniExactFunc = 1 unless they set it). */
static void bc_box_options(const char *type, const char *ref2, const char *const *more,
                           const char **all) {
  int n = 0, ini = 0;
  for (int i = 0; BOX[i]; i++)
    all[n++] = BOX[i];
  all[n++] = inert_line;
  all[n++] = GAS_STATE;
  all[n++] = ref2;
  all_faces(type, all + n);
  n += 12;
  for (int i = 0; more && more[i]; i++) {
    ini |= strncmp(more[i], "IniExactFunc", 12) == 0;
    all[n++] = more[i];
  }
  if (!ini) all[n++] = "IniExactFunc = 1";
  all[n] = NULL;
}

static Simulation *bc_box(const char *type, const char *ref2, const char *const *more) {
  const char *all[64];
  bc_box_options(type, ref2, more, all);
  return harness_sim(all, NULL, NULL);
}

/* max over the nodes of |sum_k rho Y_k - rho| / rho */
static double species_sum_defect(const Solver *s) {
  double worst = 0.0;
  const int n3 = s->n_dof_elem, nv = s->n_var;
  for (int e = 0; e < s->mesh->n_elems; e++)
    for (int q = 0; q < n3; q++) {
      const double *u = &s->U[(long)e * nv * n3 + q];
      double sum = 0.0;
      for (int k = 0; k < s->n_species; k++)
        sum += u[(long)(HX_SPEC0 + k) * n3];
      worst = fmax(worst, fabs(sum - u[0]) / u[0]);
    }
  return worst;
}

/* max over the nodes and variables of |U - U0| relative to U0's density (momentum: rho c with
 * c = 300 m/s), energy and partial densities. */
static double deviation(const Solver *s, const double *U0) {
  const int n3 = s->n_dof_elem, nv = s->n_var;
  double dev = 0.0;
  for (long q = 0; q < (long)nv * s->n_dof; q++) {
    const int v = (int)((q / n3) % nv);
    const long q0 = q - (long)v * n3; /* the node's density */
    double scale = fabs(U0[q]);
    if (v >= MOM1 && v <= MOM3) scale = U0[q0] * 300.0;
    dev = fmax(dev, fabs(s->U[q] - U0[q]) / scale);
  }
  return dev;
}

/* max over the nodes of |Y_k - Y_k,0| (mass fractions against those of U0) */
static double composition_change(const Solver *s, const double *U0) {
  const int n3 = s->n_dof_elem, nv = s->n_var;
  double dev = 0.0;
  for (int e = 0; e < s->mesh->n_elems; e++)
    for (int q = 0; q < n3; q++) {
      const long at = (long)e * nv * n3 + q;
      for (int k = 0; k < s->n_species; k++) {
        const long kq = at + (long)(HX_SPEC0 + k) * n3;
        dev = fmax(dev, fabs(s->U[kq] / s->U[at] - U0[kq] / U0[at]));
      }
    }
  return dev;
}

static double *copy_state(const Solver *s) {
  const long n = (long)s->n_var * s->n_dof;
  double *U0 = malloc(sizeof(double) * n);
  assert_non_null(U0);
  memcpy(U0, s->U, sizeof(double) * n);
  return U0;
}

/* Uniform gas at rest with `type` on all faces at its own state: uniform to `tol`. */
static void check_rest_stays_uniform(const char *type, const char *ref2, double tol) {
  const char *more[] = {"tend = 2e-5", NULL};
  Simulation *sim = bc_box(type, ref2, more);
  assert_non_null(sim);
  double *U0 = copy_state(sim->solver);
  assert_int_equal(simulation_run(sim), HX_OK);
  const double dev = deviation(sim->solver, U0);
  printf("  %s, %s: max relative deviation after %ld steps: %.2e\n", type, ref2, sim->iter, dev);
  assert_true(dev < tol);
  free(U0);
  simulation_destroy(sim);
}

static void test_outflow_at_rest(void **state) {
  (void)state;
  check_rest_stays_uniform("BoundaryType = (/24,2/)", GAS_STATE, 1e-12);
  check_rest_stays_uniform("BoundaryType = (/25,2/)", GAS_STATE, 1e-12);
  /* Mach 0 (the u entry): p_b and rho_b come from the inner p, i.e. from the inner T of the
   * Newton iteration (its tolerance, not round-off), so uniform to 1e-9 */
  check_rest_stays_uniform("BoundaryType = (/23,2/)", "RefState = (/1.0294,0.,0.,0.,101325./)",
                           1e-9);
}

/* 27 with the gas's own temperature and pressure as the total state (Tt, 0, 0, 0, pt) and its
 * composition: the gas at rest stays at rest (the characteristic condition gives T_b = Tt, so
 * v_b = 0 and p_b = pt; T from the Newton iteration's tolerance, as 23). */
static void test_total_inflow_at_rest(void **state) {
  (void)state;
  const char *more[] = {"tend = 2e-5", NULL};
  Simulation *gas = bc_box("BoundaryType = (/24,2/)", GAS_STATE, more);
  assert_non_null(gas);
  double pr[HX_NPRIM], Y[HX_MAX_SPECIES], c, u[HX_NVAR_MAX];
  const Solver *s = gas->solver;
  for (int v = 0; v < s->n_var; v++)
    u[v] = s->U[(long)v * s->n_dof_elem];
  solver_node_prim(s, 0, u, pr, Y, &c);
  char ref2[128];
  snprintf(ref2, sizeof ref2, "RefState = (/%.17g,0.,0.,0.,%.17g/)", pr[TEMP], pr[PRES]);
  simulation_destroy(gas);
  check_rest_stays_uniform("BoundaryType = (/27,2/)", ref2, 1e-9);
}

static void test_pressure_outflow_lower_pressure(void **state) {
  (void)state;
  const char *more[] = {"tend = 2e-5", NULL};
  Simulation *sim =
      bc_box("BoundaryType = (/24,2/)", "RefState = (/1.0294,0.,0.,0.,91192.5/)", more);
  assert_non_null(sim);
  const Solver *s = sim->solver;
  double before[HX_NVAR_MAX], after[HX_NVAR_MAX];
  double *U0 = copy_state(s);
  analyze_totals(s, before);
  assert_int_equal(simulation_run(sim), HX_OK);
  analyze_totals(s, after);
  const double loss = (before[DENS] - after[DENS]) / before[DENS];
  const double dY = composition_change(s, U0), dsum = species_sum_defect(s);
  printf("  24 at 0.9 p (%ld steps): mass lost %.3e of the total; max |Y - Y0| %.2e; "
         "max |sum rho Y - rho| / rho %.2e\n",
         sim->iter, loss, dY, dsum);
  assert_true(loss > 1e-3);
  assert_true(dY < 1e-12);
  assert_true(dsum < 1e-12);
  for (int k = 0; k < s->n_species; k++) /* every species leaves in proportion to its share */
    assert_true(fabs((before[HX_SPEC0 + k] - after[HX_SPEC0 + k]) / before[HX_SPEC0 + k] - loss) <
                1e-10);
  free(U0);
  simulation_destroy(sim);
}

/* Relative change of every total but momentum between before and after, largest. */
static double totals_change(const Solver *s, const double *before, const double *after,
                            int skip_energy) {
  double worst = 0.0;
  for (int v = 0; v < s->n_var; v++) {
    if ((v >= MOM1 && v <= MOM3) || (skip_energy && v == ENER)) continue;
    worst = fmax(worst, fabs(after[v] - before[v]) / fabs(before[v]));
  }
  return worst;
}

static void test_adiabatic_wall(void **state) {
  (void)state;
  const char *visc[] = {"mu0 = 1e-3", "tend = 2e-5", NULL};
  Simulation *sim = bc_box("BoundaryType = (/3,0/)", GAS_STATE, visc);
  assert_non_null(sim);
  double *U0 = copy_state(sim->solver);
  assert_int_equal(simulation_run(sim), HX_OK);
  double dev = deviation(sim->solver, U0);
  printf("  3, uniform at rest (%ld steps): max relative deviation %.2e\n", sim->iter, dev);
  assert_true(dev < 1e-12);
  free(U0);
  simulation_destroy(sim);

  /* the species wave at rest: non-uniform rho, T and Y at uniform p; diffusion and conduction
   * act, but nothing crosses the walls */
  const char *wave[] = {"mu0 = 1e-3",
                        "tend = 2e-5",
                        "IniExactFunc = 17",
                        "AdvVel = (/0.,0.,0./)",
                        "IniAmplitude = 0.2",
                        "IniFrequency = 100.",
                        "NodeType = GAUSS-LOBATTO",
                        "SplitDG = PI",
                        NULL};
  sim = bc_box("BoundaryType = (/3,0/)", GAS_STATE, wave);
  assert_non_null(sim);
  const Solver *s = sim->solver;
  double before[HX_NVAR_MAX], after[HX_NVAR_MAX];
  U0 = copy_state(s);
  analyze_totals(s, before);
  assert_int_equal(simulation_run(sim), HX_OK);
  analyze_totals(s, after);
  const double change = totals_change(s, before, after, 0), moved = deviation(s, U0);
  printf("  3, species wave at rest (%ld steps): state changed by %.2e, max relative change of "
         "the mass, species and energy totals %.2e\n",
         sim->iter, moved, change);
  assert_true(moved > 1e-6); /* the viscous terms did act */
  assert_true(change < 1e-13);
  free(U0);
  simulation_destroy(sim);
}

static void test_isothermal_wall_heats(void **state) {
  (void)state;
  /* RefState 2: the same p and composition at half the density, i.e. 600 K */
  const char *visc[] = {"mu0 = 1e-3", "tend = 2e-5", NULL};
  Simulation *sim =
      bc_box("BoundaryType = (/4,2/)", "RefState = (/0.5147,0.,0.,0.,101325./)", visc);
  assert_non_null(sim);
  const Solver *s = sim->solver;
  double before[HX_NVAR_MAX], after[HX_NVAR_MAX];
  analyze_totals(s, before);
  assert_int_equal(simulation_run(sim), HX_OK);
  analyze_totals(s, after);
  /* |E|: CO2's formation enthalpy makes the total energy negative */
  const double gain = (after[ENER] - before[ENER]) / fabs(before[ENER]);
  const double masses = totals_change(s, before, after, 1);
  double T_max = 0.0;
  for (long q = 0; q < s->n_dof; q++) {
    const int e = (int)(q / s->n_dof_elem), i = (int)(q % s->n_dof_elem);
    double u[HX_NVAR_MAX], pr[HX_NPRIM], Y[HX_MAX_SPECIES], c;
    for (int v = 0; v < s->n_var; v++)
      u[v] = s->U[((long)e * s->n_var + v) * s->n_dof_elem + i];
    pr[TEMP] = -1.0;
    assert_int_equal(mix_cons_to_prim(s->mech, u, pr, Y, &c), 0);
    T_max = fmax(T_max, pr[TEMP]);
  }
  printf("  4 at 600 K (%ld steps): energy gain %.3e of the total, max node T %.2f K, max "
         "relative change of the mass and species totals %.2e\n",
         sim->iter, gain, T_max, masses);
  assert_true(gain > 1e-5);
  assert_true(T_max > 301.0); /* from 300 K */
  assert_true(masses < 1e-13);
  simulation_destroy(sim);
}

static void test_unsupported_code_refused(void **state) {
  (void)state;
  const char *more[] = {"tend = 1e-6", NULL}, *all[64];
  bc_box_options("BoundaryType = (/22,1/)", "RefState = (/1.0294,0.,0.,0.,101325./)", more, all);
  Params *p = harness_params(all);
  assert_non_null(p);
  Simulation *sim = NULL;
  const int rc = simulation_create(p, NULL, &sim);
  params_destroy(p);
  printf("  22 -> %d\n", rc);
  assert_int_equal(rc, HX_ERR_INPUT);
}

int main(void) {
  static char buf[4096];
  snprintf(inert_line, sizeof inert_line, "Mechanism = %s",
           chem_test_mech_path("inert3.yaml", buf, sizeof buf));
  harness_scratch_dir("reacting_bc");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_outflow_at_rest),
      cmocka_unit_test(test_total_inflow_at_rest),
      cmocka_unit_test(test_pressure_outflow_lower_pressure),
      cmocka_unit_test(test_adiabatic_wall),
      cmocka_unit_test(test_isothermal_wall_heats),
      cmocka_unit_test(test_unsupported_code_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
