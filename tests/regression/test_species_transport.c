/* Species transport of the multicomponent Navier-Stokes equations on the CPU backend
 * (physics/navierstokes_mix.h, docs/reacting_flow.md "Transport"):
 *  - binary diffusion: two species of equal molar mass and thermodynamics at uniform T and p, at
 *    rest, Y_A = 1/2 + a sin(k x): Y_A obeys the heat equation with the binary diffusivity
 *    D = Y_B D_A + Y_A D_B (Fick's law with the correction velocity), so the mode decays as
 *    exp(-D k^2 t); with D_A = 4 D_B the rate is 0.625 D_A, and D_A without the correction;
 *  - on a curved periodic box with three species of different W, cp and formation enthalpy, the
 *    totals of every rho Y_k, of rho E and of the momentum are conserved to round-off, and
 *    sum_k rho Y_k = rho stays at every node;
 *  - the correction velocity: the diffusive species fluxes sum to zero, pointwise (random states
 *    and gradients) and in the discrete operator (sum_k dt(rho Y_k) = dt(rho) at every node);
 *  - the enthalpy flux: at uniform T (no conduction) the viscous part of dt(rho E) is
 *    sum_k h_k(T) times the viscous part of dt(rho Y_k) at every node;
 *  - one species (argon.yaml) reproduces the air Navier-Stokes operator (kappa = 5/3, the same
 *    R, mu, Pr) on the same state, periodic and with exact-function and slip-wall boundaries;
 *  - malformed SpeciesLewis / SpeciesSchmidt keys are input errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../test_rng.h"
#include "../chem_paths.h"
#include "analysis/analyze.h"
#include "harness.h"
#include "physics/navierstokes_mix.h"

static char twin_line[4200], inert_line[4200], argon_line[4200];

/* ------------------------------------------------------------------ binary diffusion */

#define DECAY_MU 0.04  /* Pa s: diffusion and sound cross a node in comparable times */
#define DECAY_AMP 0.01 /* amplitude of Y_A: the nonlinearity of D(Y) acts at O(a^2) */
#define DECAY_L 0.01   /* m: wavelength = box length */
static const char *const DECAY[] = {"ProjectName = species_decay",
                                    "MeshFile = box",
                                    "BoxElems = (/4,1,1/)",
                                    "BoxLower = (/0.,0.,0./)",
                                    "BoxUpper = (/0.01,0.0025,0.0025/)",
                                    "BoxPeriodic = (/T,T,T/)",
                                    "N = 4",
                                    "IniExactFunc = 1",
                                    "RefState = (/1.6,0.,0.,0.,101325./)",
                                    "RefStateX = A:1,B:1",
                                    "mu0 = 0.04",
                                    "ChemistrySplitting = none",
                                    "CalcErrorNorms = F",
                                    "Riemann = HLLC",
                                    "tend = 8e-5",
                                    "Backend = cpu",
                                    NULL};

/* U at rest with uniform rho and T and Y_A = 1/2 + a sin(2 pi x / L). */
static void set_binary_mode(Solver *s) {
  const double rho = s->ref_U[DENS], vel[3] = {0, 0, 0};
  double pr[HX_NPRIM], Y[HX_MAX_SPECIES], c;
  pr[TEMP] = -1.0;
  assert_int_equal(mix_cons_to_prim(s->mech, s->ref_U, pr, Y, &c), 0);
  int n3 = s->n_dof_elem, nv = s->n_var;
  for (int e = 0; e < s->mesh->n_elems; e++)
    for (int q = 0; q < n3; q++) {
      double x = s->geo.elem_x[3L * n3 * e + q], u[HX_NVAR_MAX];
      Y[0] = 0.5 + DECAY_AMP * sin(2.0 * HX_PI * x / DECAY_L);
      Y[1] = 1.0 - Y[0];
      mix_prim_to_cons(s->mech, rho, vel, pr[TEMP], Y, u);
      for (int v = 0; v < nv; v++)
        s->U[((long)e * nv + v) * n3 + q] = u[v];
    }
}

/* Quadrature of (Y_A - mean) sin(k x) over the box: the amplitude of the mode (up to a factor). */
static double binary_mode_amplitude(const Solver *s) {
  int n3 = s->n_dof_elem, nv = s->n_var, np = s->np;
  double sum_w = 0.0, sum_y = 0.0, sum_s = 0.0, sum_ys = 0.0;
  for (int e = 0; e < s->mesh->n_elems; e++)
    for (int q = 0; q < n3; q++) {
      const double *w = s->disc.w;
      double wq = w[q % np] * w[(q / np) % np] * w[q / (np * np)] / s->geo.sJ[(long)e * n3 + q];
      double x = s->geo.elem_x[3L * n3 * e + q], sn = sin(2.0 * HX_PI * x / DECAY_L);
      double Y = s->U[((long)e * nv + HX_SPEC0) * n3 + q] / s->U[(long)e * nv * n3 + q];
      sum_w += wq;
      sum_y += wq * Y;
      sum_s += wq * sn;
      sum_ys += wq * Y * sn;
    }
  return sum_ys - sum_y * sum_s / sum_w;
}

/* Run the binary mode with `key` and return the measured decay rate / expected D. */
static void check_binary_decay(const char *node, const char *split, const char *key, double d_a,
                               double d_b) {
  /* DFLscale 0.5: where diffusion sets the step, the default 0.9 is unstable on Gauss-Lobatto
   * nodes for air too (heat conduction of a temperature wave in this box blows up within 30
   * steps, on Gauss nodes it does not) */
  const char *extra[] = {twin_line, node, split, key, "DFLscale = 0.5", NULL};
  Simulation *sim = harness_sim(DECAY, extra, NULL);
  assert_non_null(sim);
  Solver *s = sim->solver;
  set_binary_mode(s);
  double a0 = binary_mode_amplitude(s);
  assert_int_equal(simulation_run(sim), HX_OK);
  double a1 = binary_mode_amplitude(s), k = 2.0 * HX_PI / DECAY_L;
  double rate = -log(a1 / a0) / (k * k * sim->t);
  double expected = 0.5 * d_a + 0.5 * d_b; /* Y_B D_A + Y_A D_B at Y_A = Y_B = 1/2 */
  double vmax = 0.0, defect = 0.0;
  int n3 = s->n_dof_elem, nv = s->n_var;
  for (int e = 0; e < s->mesh->n_elems; e++)
    for (int q = 0; q < n3; q++) {
      const double *u = &s->U[(long)e * nv * n3 + q];
      for (int d = 0; d < 3; d++)
        vmax = fmax(vmax, fabs(u[(MOM1 + d) * n3] / u[0]));
      defect = fmax(defect, fabs(u[HX_SPEC0 * n3] + u[(HX_SPEC0 + 1) * n3] - u[0]) / u[0]);
    }
  printf("  %s %s, %s: amplitude %.4f of the initial after %ld steps; rate D = %.6e m^2/s, "
         "expected %.6e (D_A %.4e without correction): ratio - 1 = %.2e; max |u| %.1e m/s, "
         "sum rho Y - rho %.1e\n",
         node, split, key, a1 / a0, sim->iter, rate, expected, d_a, rate / expected - 1.0, vmax,
         defect);
  assert_true(a1 / a0 < 0.5); /* the mode has decayed well beyond the time-step error */
  assert_true(fabs(rate / expected - 1.0) < 1e-4);
  assert_true(vmax < 1e-9);
  assert_true(defect < 1e-13);
  simulation_destroy(sim);
}

static void test_binary_diffusion_decay(void **state) {
  (void)state;
  const double rho = 1.6, pr = 0.72;
  /* Schmidt numbers: rho D_k = mu / Sc_k */
  check_binary_decay("NodeType = GAUSS", "SplitDG = none", "SpeciesSchmidt = A:0.5,B:2",
                     DECAY_MU / (rho * 0.5), DECAY_MU / (rho * 2.0));
  /* Lewis numbers with a value for the species not named: rho D_k = mu / (Pr Le_k) */
  check_binary_decay("NodeType = GAUSS-LOBATTO", "SplitDG = PI", "SpeciesLewis = 2.4,A:0.6",
                     DECAY_MU / (rho * pr * 0.6), DECAY_MU / (rho * pr * 2.4));
}

/* ------------------------------------------------------------------ conservation */

/* The lines of base without those of key (out: room for them and the terminating NULL). */
static const char *const *without_key(const char *const *base, const char *key, const char **out) {
  int n = 0;
  for (int i = 0; base[i]; i++)
    if (strncmp(base[i], key, strlen(key)) != 0) out[n++] = base[i];
  out[n] = NULL;
  return out;
}

/* Three inert species on a curved periodic box: rho, T and Y vary (IniExactFunc 17). */
static const char *const MIX3[] = {"ProjectName = species_box",
                                   "MeshFile = box",
                                   "BoxElems = (/3,3,2/)",
                                   "NGeo = 3",
                                   "BoxCurving = 0.06",
                                   "BoxLower = (/0.,0.,0./)",
                                   "BoxUpper = (/0.01,0.01,0.01/)",
                                   "BoxPeriodic = (/T,T,T/)",
                                   "N = 3",
                                   "IniExactFunc = 17",
                                   "RefState = (/1.0,0.,0.,0.,101325./)",
                                   "RefStateX = HE:1,N2:1,CO2:1",
                                   "AdvVel = (/30.,20.,10./)",
                                   "IniAmplitude = 0.2",
                                   "IniFrequency = 100.",
                                   "mu0 = 1e-3",
                                   "ViscosityLaw = sutherland",
                                   "SpeciesLewis = 1.,HE:0.3,CO2:1.4",
                                   "ChemistrySplitting = none",
                                   "Riemann = HLLC",
                                   "CalcErrorNorms = F",
                                   "Backend = cpu",
                                   NULL};

static void check_conservation(const char *node, const char *split, const char *lifting) {
  const char *extra[] = {inert_line, node, split, lifting, "tend = 4e-6", NULL};
  Simulation *sim = harness_sim(MIX3, extra, NULL);
  assert_non_null(sim);
  Solver *s = sim->solver;
  double before[HX_NVAR_MAX], after[HX_NVAR_MAX];
  analyze_totals(s, before);
  double *U0 = malloc(sizeof(double) * s->n_var * s->n_dof);
  memcpy(U0, s->U, sizeof(double) * s->n_var * s->n_dof);
  assert_int_equal(simulation_run(sim), HX_OK);
  analyze_totals(s, after);
  printf("  %s %s %s (%ld steps): relative change of the totals", node, split, lifting, sim->iter);
  for (int v = 0; v < s->n_var; v++) {
    double scale = v >= MOM1 && v <= MOM3 ? fabs(before[DENS]) * 30.0 : fabs(before[v]);
    double rel = fabs(after[v] - before[v]) / scale;
    printf(" %.1e", rel);
    assert_true(rel < 1e-13);
  }
  /* sum_k rho Y_k = rho at every node; the state did change (Y_HE: advection and diffusion) */
  int n3 = s->n_dof_elem, nv = s->n_var;
  double defect = 0.0, dY = 0.0;
  for (int e = 0; e < s->mesh->n_elems; e++)
    for (int q = 0; q < n3; q++) {
      const double *u = &s->U[(long)e * nv * n3 + q], *u0 = &U0[(long)e * nv * n3 + q];
      double sum = 0.0;
      for (int k = 0; k < s->n_species; k++)
        sum += u[(long)(HX_SPEC0 + k) * n3];
      defect = fmax(defect, fabs(sum - u[0]) / u[0]);
      dY = fmax(dY, fabs(u[HX_SPEC0 * n3] / u[0] - u0[HX_SPEC0 * n3] / u0[0]));
    }
  printf("; sum rho Y_k - rho %.1e; max change of Y_HE %.2e\n", defect, dY);
  assert_true(defect < 1e-13);
  assert_true(dY > 1e-4);
  free(U0);
  simulation_destroy(sim);
}

static void test_conservation_periodic(void **state) {
  (void)state;
  check_conservation("NodeType = GAUSS", "SplitDG = none", "doWeakLifting = T");
  check_conservation("NodeType = GAUSS-LOBATTO", "SplitDG = PI", "doWeakLifting = F");
  check_conservation("NodeType = GAUSS-LOBATTO", "SplitDG = PI", "doConservativeLifting = T");
}

/* ------------------------------------------------------------------ correction velocity */

/* Pointwise: random states, gradients and normals of the three-species gas with unequal
 * diffusivities; the species fluxes sum to zero (|sum| vs the largest Fick term), F_rho = 0,
 * and with equal diffusivities and sum_k grad Y_k = 0 the correction vanishes. */
static void test_correction_velocity_pointwise(void **state) {
  (void)state;
  ChemMech *m;
  assert_int_equal(chem_mech_load(inert_line + strlen("Mechanism = "), NULL, &m), HX_OK);
  PhysParams pp = {0};
  physparams_set_transport(&pp, VISC_SUTHERLAND, 1.8e-5, 0.72, 110.4, 273.15, 1.5);
  MixTransport unequal = {{1.0 / 0.3, 1.0, 1.0 / 1.4}, 1.0 / 0.3}, equal = {{1.3, 1.3, 1.3}, 1.3};
  Rng rng = {0x9E3779B97F4A7C15ULL};
  double worst = 0.0, worst_equal = 0.0, fick_sum = 0.0;
  for (int it = 0; it < 1000; it++) {
    double prim[HX_NPRIM] = {rng_uniform(&rng, 0.2, 3.0), rng_uniform(&rng, -50, 50),
                             rng_uniform(&rng, -50, 50),  rng_uniform(&rng, -50, 50),
                             rng_uniform(&rng, 5e4, 2e5), rng_uniform(&rng, 250, 2500)};
    double Y[3] = {rng_uniform(&rng, 0, 1), rng_uniform(&rng, 0, 1), rng_uniform(&rng, 0, 1)};
    double g[3][HX_NLIFT_MAX], n[3], F[HX_NVAR_MAX], sumY = Y[0] + Y[1] + Y[2];
    for (int k = 0; k < 3; k++)
      Y[k] /= sumY;
    for (int d = 0; d < 3; d++) {
      n[d] = rng_uniform(&rng, -1, 1);
      for (int v = 0; v < HX_NLIFT; v++)
        g[d][v] = rng_uniform(&rng, -1e3, 1e3);
      /* gradients of mass fractions that sum to one: sum_k grad Y_k = 0 */
      g[d][LIFT_SPEC0] = rng_uniform(&rng, -100, 100);
      g[d][LIFT_SPEC0 + 1] = rng_uniform(&rng, -100, 100);
      g[d][LIFT_SPEC0 + 2] = -g[d][LIFT_SPEC0] - g[d][LIFT_SPEC0 + 1];
    }
    mix_viscous_flux_normal(&pp, m, &unequal, prim, Y, g[0], g[1], g[2], n, F);
    assert_true(F[DENS] == 0.0);
    double sum = 0.0, fick = 0.0, scale = 0.0;
    for (int k = 0; k < 3; k++) {
      double gn =
          g[0][LIFT_SPEC0 + k] * n[0] + g[1][LIFT_SPEC0 + k] * n[1] + g[2][LIFT_SPEC0 + k] * n[2];
      double rho_d = viscosity(&pp, prim[TEMP]) * unequal.diff_factor[k];
      sum += F[HX_SPEC0 + k];
      fick += rho_d * gn;
      scale = fmax(scale, fabs(rho_d * gn));
    }
    worst = fmax(worst, fabs(sum) / scale);
    fick_sum = fmax(fick_sum, fabs(fick) / scale);
    mix_viscous_flux_normal(&pp, m, &equal, prim, Y, g[0], g[1], g[2], n, F);
    for (int k = 0; k < 3; k++) {
      double gn =
          g[0][LIFT_SPEC0 + k] * n[0] + g[1][LIFT_SPEC0 + k] * n[1] + g[2][LIFT_SPEC0 + k] * n[2];
      double fick_k = viscosity(&pp, prim[TEMP]) * 1.3 * gn;
      worst_equal = fmax(worst_equal, fabs(F[HX_SPEC0 + k] - fick_k) / scale);
    }
  }
  printf("  pointwise: |sum_k J_k| / max_k |rho D_k grad Y_k| <= %.1e (Fick's terms alone sum "
         "to up to %.2f); equal D: |J_k - Fick| <= %.1e\n",
         worst, fick_sum, worst_equal);
  assert_true(worst < 1e-14);
  assert_true(fick_sum > 0.1); /* without the correction the sum would not vanish */
  assert_true(worst_equal < 1e-14);
  chem_mech_free(m);
}

/* The operator: at every node sum_k d(rho Y_k)/dt = d(rho)/dt, compared with the diffusive part
 * of the species' rates (the rates with mu0 minus those without). */
static void test_correction_velocity_operator(void **state) {
  (void)state;
  const char *viscous[] = {inert_line, "AdvVel = (/0.,0.,0./)", "tend = 1e-6", NULL};
  const char *inviscid[] = {inert_line, "AdvVel = (/0.,0.,0./)", "tend = 1e-6", "mu0 = 0.", NULL};
  const char *base[64];
  Simulation *sv = harness_sim(MIX3, viscous, NULL);
  assert_non_null(sv);
  Simulation *si = harness_sim(without_key(MIX3, "SpeciesLewis", base), inviscid, NULL);
  assert_non_null(si);
  Solver *a = sv->solver, *b = si->solver;
  dg_time_derivative(a, a->U, a->Ut, 0.0);
  dg_time_derivative(b, b->U, b->Ut, 0.0);
  int n3 = a->n_dof_elem, nv = a->n_var;
  double defect = 0.0, diff = 0.0, diff_sum = 0.0;
  for (int e = 0; e < a->mesh->n_elems; e++)
    for (int q = 0; q < n3; q++) {
      const double *ua = &a->Ut[(long)e * nv * n3 + q], *ub = &b->Ut[(long)e * nv * n3 + q];
      double sum = 0.0, dsum = 0.0;
      for (int k = 0; k < a->n_species; k++) {
        sum += ua[(long)(HX_SPEC0 + k) * n3];
        dsum += ua[(long)(HX_SPEC0 + k) * n3] - ub[(long)(HX_SPEC0 + k) * n3];
        diff = fmax(diff, fabs(ua[(long)(HX_SPEC0 + k) * n3] - ub[(long)(HX_SPEC0 + k) * n3]));
      }
      defect = fmax(defect, fabs(sum - ua[0]));
      diff_sum = fmax(diff_sum, fabs(dsum - (ua[0] - ub[0])));
    }
  printf("  operator: max |sum_k dt(rho Y_k) - dt(rho)| = %.2e, diffusive species rates up to "
         "%.2e kg/m^3/s: ratio %.1e\n",
         defect, diff, defect / diff);
  assert_true(diff > 1.0);
  assert_true(defect < 1e-12 * diff);
  assert_true(diff_sum < 1e-12 * diff);
  simulation_destroy(sv);
  simulation_destroy(si);
}

/* ------------------------------------------------------------------ enthalpy flux */

/* The three species at rest at uniform T and p with varying composition (so rho varies). */
static void set_uniform_T_state(Solver *s, double T, double p) {
  int n3 = s->n_dof_elem, nv = s->n_var;
  const double vel[3] = {0, 0, 0}, tp = 2.0 * HX_PI / 0.01;
  for (int e = 0; e < s->mesh->n_elems; e++)
    for (int q = 0; q < n3; q++) {
      double x[3], Y[3], u[HX_NVAR_MAX];
      for (int c = 0; c < 3; c++)
        x[c] = s->geo.elem_x[(3L * e + c) * n3 + q];
      Y[0] = 0.2 + 0.1 * sin(tp * x[0]) * cos(tp * x[1]);
      Y[1] = 0.5 + 0.2 * cos(tp * x[2]);
      Y[2] = 1.0 - Y[0] - Y[1];
      double rho = p * chem_mean_mw(s->mech, Y, 1) / (CHEM_R * T);
      mix_prim_to_cons(s->mech, rho, vel, T, Y, u);
      for (int v = 0; v < nv; v++)
        s->U[((long)e * nv + v) * n3 + q] = u[v];
    }
}

/* At uniform T there is no conduction, so the viscous part of d(rho E)/dt is the divergence of
 * the enthalpy the species carry: sum_k h_k(T) times the viscous part of d(rho Y_k)/dt at every
 * node (h_k is uniform); without the term it would be 0, with the wrong sign its negative. */
static void test_enthalpy_flux(void **state) {
  (void)state;
  const char *viscous[] = {inert_line, "tend = 1e-6", NULL};
  const char *inviscid[] = {inert_line, "tend = 1e-6", "mu0 = 0.", NULL};
  const char *base[64];
  Simulation *sv = harness_sim(MIX3, viscous, NULL);
  assert_non_null(sv);
  Simulation *si = harness_sim(without_key(MIX3, "SpeciesLewis", base), inviscid, NULL);
  assert_non_null(si);
  Solver *a = sv->solver, *b = si->solver;
  const double T = 400.0;
  set_uniform_T_state(a, T, 101325.0);
  set_uniform_T_state(b, T, 101325.0);
  dg_time_derivative(a, a->U, a->Ut, 0.0);
  dg_time_derivative(b, b->U, b->Ut, 0.0);
  double h[3];
  for (int k = 0; k < 3; k++)
    h[k] = chem_h_RT(a->mech, k, T) * CHEM_R * T / a->mech->mw[k];
  int n3 = a->n_dof_elem, nv = a->n_var;
  double worst = 0.0, scale = 0.0;
  for (int e = 0; e < a->mesh->n_elems; e++)
    for (int q = 0; q < n3; q++) {
      const double *ua = &a->Ut[(long)e * nv * n3 + q], *ub = &b->Ut[(long)e * nv * n3 + q];
      double carried = 0.0, node_scale = 0.0;
      for (int k = 0; k < 3; k++) {
        double ds = ua[(long)(HX_SPEC0 + k) * n3] - ub[(long)(HX_SPEC0 + k) * n3];
        carried += h[k] * ds;
        node_scale = fmax(node_scale, fabs(h[k] * ds));
      }
      double de = ua[(long)ENER * n3] - ub[(long)ENER * n3];
      worst = fmax(worst, fabs(de - carried));
      scale = fmax(scale, node_scale);
    }
  printf("  uniform T: max |dt(rho E)_visc - sum_k h_k dt(rho Y_k)_visc| = %.2e W/m^3, largest "
         "h_k dt(rho Y_k)_visc %.2e W/m^3: ratio %.1e\n",
         worst, scale, worst / scale);
  assert_true(scale > 1e6);
  assert_true(worst < 1e-10 * scale);
  simulation_destroy(sv);
  simulation_destroy(si);
}

/* ------------------------------------------------------------------ one species = air */

/* A smooth periodic state with velocity and temperature gradients (argon near 300 K). */
static void smooth_prim(const double x[3], double *prim) {
  const double tp = 2.0 * HX_PI;
  prim[PDENS] = 1.6 * (1.0 + 0.1 * sin(tp * x[0]) * cos(tp * x[1]));
  prim[VEL1] = 40.0 * sin(tp * x[1]) + 10.0 * cos(tp * x[2]);
  prim[VEL2] = 30.0 * cos(tp * x[0]);
  prim[VEL3] = 20.0 * sin(tp * (x[0] + x[1]));
  prim[PRES] = 1e5 * (1.0 + 0.05 * cos(tp * x[2]) * sin(tp * x[0]));
}

static void set_smooth_state(Solver *air, Solver *mix) {
  int n3 = air->n_dof_elem;
  for (int e = 0; e < air->mesh->n_elems; e++)
    for (int q = 0; q < n3; q++) {
      double x[3], prim[HX_NPRIM], u[HX_NVAR];
      for (int c = 0; c < 3; c++)
        x[c] = air->geo.elem_x[(3L * e + c) * n3 + q];
      smooth_prim(x, prim);
      prim_to_cons(&air->phys, prim, u);
      for (int v = 0; v < HX_NVAR; v++) {
        air->U[((long)e * HX_NVAR + v) * n3 + q] = u[v];
        mix->U[((long)e * mix->n_var + v) * n3 + q] = u[v];
      }
      mix->U[((long)e * mix->n_var + HX_SPEC0) * n3 + q] = u[DENS];
    }
}

/* max over nodes of |Ut_mix - Ut_air| / max |Ut_air| per flow variable (worst of the five), and
 * of |Ut_mix[rho Y_0] - Ut_mix[rho]| / max |Ut[rho]|. */
static void compare_rates(const Solver *air, const Solver *mix, double *flow, double *species) {
  int n3 = air->n_dof_elem, nm = mix->n_var;
  double scale[HX_NVAR] = {0}, diff[HX_NVAR] = {0}, ds = 0.0;
  for (int e = 0; e < air->mesh->n_elems; e++)
    for (int q = 0; q < n3; q++) {
      const double *ua = &air->Ut[(long)e * HX_NVAR * n3 + q],
                   *um = &mix->Ut[(long)e * nm * n3 + q];
      for (int v = 0; v < HX_NVAR; v++) {
        scale[v] = fmax(scale[v], fabs(ua[v * n3]));
        diff[v] = fmax(diff[v], fabs(um[v * n3] - ua[v * n3]));
      }
      ds = fmax(ds, fabs(um[HX_SPEC0 * n3] - um[0]));
    }
  *flow = 0.0;
  for (int v = 0; v < HX_NVAR; v++)
    *flow = fmax(*flow, diff[v] / scale[v]);
  *species = ds / scale[DENS];
}

static const char *const ONE_SPECIES[] = {"ProjectName = species_argon",
                                          "MeshFile = box",
                                          "BoxElems = (/3,3,3/)",
                                          "NGeo = 3",
                                          "BoxCurving = 0.06",
                                          "BoxLower = (/0.,0.,0./)",
                                          "BoxUpper = (/1.,1.,1./)",
                                          "N = 4",
                                          "IniExactFunc = 1",
                                          "RefState = (/1.6,10.,5.,0.,1e5/)",
                                          "mu0 = 5.",
                                          "ViscosityLaw = sutherland",
                                          "Pr = 0.72",
                                          "tend = 1.",
                                          "CalcErrorNorms = F",
                                          "Backend = cpu",
                                          NULL};

static void check_one_species(const char *const *variant, const char *label) {
  char kappa[64], R[64];
  snprintf(kappa, sizeof kappa, "kappa = %.17g", 5.0 / 3.0);
  snprintf(R, sizeof R, "R = %.17g", CHEM_R / 39.948);
  const char *air_extra[12] = {kappa, R},
             *mix_extra[12] = {argon_line, "RefStateX = AR:1", "SpeciesLewis = 0.8"};
  int na = 2, nm = 3;
  for (int i = 0; variant[i]; i++)
    air_extra[na++] = mix_extra[nm++] = variant[i];
  air_extra[na] = mix_extra[nm] = NULL;
  Simulation *sa = harness_sim(ONE_SPECIES, air_extra, NULL);
  assert_non_null(sa);
  Simulation *sm = harness_sim(ONE_SPECIES, mix_extra, NULL);
  assert_non_null(sm);
  Solver *air = sa->solver, *mix = sm->solver;
  set_smooth_state(air, mix);
  dg_time_derivative(air, air->U, air->Ut, 0.0);
  dg_time_derivative(mix, mix->U, mix->Ut, 0.0);
  double flow, species;
  compare_rates(air, mix, &flow, &species);
  /* the viscous part alone: the rates of the same states without viscosity */
  double *ut_air = malloc(sizeof(double) * HX_NVAR * air->n_dof), visc = 0.0, full = 0.0;
  memcpy(ut_air, air->Ut, sizeof(double) * HX_NVAR * air->n_dof);
  air->viscous = 0;
  dg_time_derivative(air, air->U, air->Ut, 0.0);
  air->viscous = 1;
  for (long i = 0; i < (long)HX_NVAR * air->n_dof; i++) {
    visc = fmax(visc, fabs(ut_air[i] - air->Ut[i]));
    full = fmax(full, fabs(ut_air[i]));
  }
  printf("  %-44s max |dU/dt mix - air| / max |dU/dt air| = %.1e (viscous part up to %.1e of "
         "the rates); |dt(rho Y) - dt(rho)| %.1e\n",
         label, flow, visc / full, species);
  assert_true(visc > 1e-3 * full);
  assert_true(flow < 1e-11);
  assert_true(species < 1e-11);
  free(ut_air);
  simulation_destroy(sa);
  simulation_destroy(sm);
}

static void test_one_species_is_air(void **state) {
  (void)state;
  const char *weak[] = {"NodeType = GAUSS", "Riemann = HLLC", NULL};
  check_one_species(weak, "periodic, GAUSS, weak lifting, HLLC");
  const char *strong[] = {"NodeType = GAUSS-LOBATTO", "SplitDG = PI", "doWeakLifting = F", NULL};
  check_one_species(strong, "periodic, GAUSS-LOBATTO PI, strong lifting");
  const char *bcs[] = {"NodeType = GAUSS-LOBATTO", "SplitDG = PI",
                       "BoxPeriodic = (/F,F,T/)",  "BoundaryName = BC_yminus",
                       "BoundaryType = (/9,0/)",   "BoundaryName = BC_yplus",
                       "BoundaryType = (/9,0/)",   NULL};
  check_one_species(bcs, "exact (x) and slip-wall (y) boundaries");
}

/* ------------------------------------------------------------------ input */

static void test_bad_keys(void **state) {
  (void)state;
  const char *const cases[][3] = {
      {"SpeciesLewis = 1.", "SpeciesSchmidt = 0.7", "both keys"},
      {"SpeciesLewis = HE:0.3,N2:1.", NULL, "a species without a value"},
      {"SpeciesLewis = 1.,XE:0.3", NULL, "a species not in the mechanism"},
      {"SpeciesSchmidt = 0.7,N2:-1", NULL, "a negative Schmidt number"},
      {"SpeciesLewis = 1.", "mu0 = 0.", "SpeciesLewis without viscosity"},
  };
  for (int i = 0; i < 5; i++) {
    const char *all[64];
    int n = 0;
    for (const char *const *line = without_key(MIX3, "SpeciesLewis", all); *line; line++)
      n++;
    all[n++] = inert_line;
    all[n++] = cases[i][0];
    all[n++] = cases[i][1];
    all[n] = NULL;
    Params *p = harness_params(all);
    assert_non_null(p);
    Simulation *sim = NULL;
    int rc = simulation_create(p, NULL, &sim);
    printf("  %s -> %d\n", cases[i][2], rc);
    assert_int_equal(rc, HX_ERR_INPUT);
    params_destroy(p);
  }
  const char *air[] = {"SpeciesLewis = 1.", NULL};
  Simulation *sim = harness_sim(ONE_SPECIES, air, NULL);
  printf("  SpeciesLewis for air -> %s\n", sim ? "accepted" : "refused");
  assert_null(sim);
}

int main(void) {
  static char buf[4096];
  snprintf(twin_line, sizeof twin_line, "Mechanism = %s",
           chem_test_mech_path("twin_species.yaml", buf, sizeof buf));
  snprintf(inert_line, sizeof inert_line, "Mechanism = %s",
           chem_test_mech_path("inert3.yaml", buf, sizeof buf));
  snprintf(argon_line, sizeof argon_line, "Mechanism = %s",
           chem_test_mech_path("argon.yaml", buf, sizeof buf));
  harness_scratch_dir("species_transport");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bad_keys),
      cmocka_unit_test(test_correction_velocity_pointwise),
      cmocka_unit_test(test_correction_velocity_operator),
      cmocka_unit_test(test_enthalpy_flux),
      cmocka_unit_test(test_one_species_is_air),
      cmocka_unit_test(test_binary_diffusion_decay),
      cmocka_unit_test(test_conservation_periodic),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
