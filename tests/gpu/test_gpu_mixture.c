/* Reacting flow on the CUDA backend against the CPU backend (Li 2004, 9 species):
 *  - the species wave (IniExactFunc 17) on a curved periodic box, split form PI on Gauss-Lobatto
 *    nodes and the weak form on Gauss nodes, 20 RK steps: relative L2 difference <= 1e-13 (the
 *    same formulas and the same Newton guesses; only the order of the sums differs);
 *  - a uniform mixture in motion stays uniform to round-off on the curved mesh (free stream);
 *  - FV blending with the positivity limiter across a 40:1 pressure jump in H2-air (the 1-D
 *    detonation's initiation, frozen chemistry), 40 steps: <= 1e-12;
 *  - the homogeneous box ignites on the GPU (Strang, RODAS4 batch with the bulk-sparse schedule)
 *    as on the CPU: T within 1e-12 relative at 0.5, 1 and 3 ignition delays (measured: 1e-15);
 *  - the detonation initiation with chemistry: CPU and GPU within 1e-12, and two GPU runs bitwise
 *    identical.
 *  - species transport (mu0 > 0, mix_visc.cu): the species wave with SpeciesLewis (constant mu)
 *    and SpeciesSchmidt (Sutherland, power law), all three lifting forms, and with adiabatic,
 *    isothermal, slip-wall and exact-function boundaries: CPU and GPU within 1e-12;
 *  - total-state inflow (27) of another composition into a curved duct with subsonic outflow
 *    (25), 40 steps: CPU and GPU within 1e-12;
 *  - a sponge on the FV tube towards its initial state and towards a RefState: within 1e-12.
 * Skipped without a GPU or without the mechanism. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "../chem_paths.h"
#include "gpu/gpu.h"
#include "regression/harness.h"

#include "agreement.h" /* after harness.h, which it uses */
#include "physics/mixture.h"

static char mech_line[4200];
static int have_mech;

static const char *const WAVE[] = {
    "ProjectName = gpu_mixture", "MeshFile = box", "BoxElems = (/3,2,2/)", "NGeo = 3",
    "BoxCurving = 0.06", "BoxLower = (/0.,0.,0./)", "BoxUpper = (/1.,1.,1./)",
    "BoxPeriodic = (/T,T,T/)", "N = 3", "IniExactFunc = 17", "IniAmplitude = 0.2",
    "IniFrequency = 1.", "AdvVel = (/50.,30.,20./)", "RefState = (/0.2123976,50.,30.,20.,101325./)",
    "RefStateX = H2:2,O2:1,N2:3.76", "Riemann = HLLC", "ChemistrySplitting = none", "tend = 1e10",
    "maxIter = 20", "CalcErrorNorms = F", NULL};

static const char *const TUBE[] = {
    "ProjectName = gpu_mixture_tube", "MeshFile = box", "BoxElems = (/24,1,1/)",
    "BoxLower = (/0.,0.,0./)", "BoxUpper = (/0.0096,0.0004,0.0004/)", "BoxPeriodic = (/F,T,T/)",
    "BoundaryName = BC_xminus", "BoundaryType = (/9,0/)", "BoundaryName = BC_xplus",
    "BoundaryType = (/2,0/)", "N = 3", "NodeType = GAUSS-LOBATTO", "SplitDG = PI",
    "Riemann = HLLC", "IniExactFunc = 16", "IniCenter = (/0.002,0.,0./)",
    "IniAxis = (/1.,0.,0./)", "RefState = (/5.097,0.,0.,0.,4053000./)",
    "RefState = (/0.8495,0.,0.,0.,101325./)", "RefStateX = H2:2,O2:1,N2:3.76",
    "RefStateX = H2:2,O2:1,N2:3.76", "IndicatorType = hennemann", "FV_alpha_max = 1.",
    "FV_doExtendAlpha = T", "FV_LimiterType = MinMod", "FV_PositivityLimiter = T",
    "CFLscale = 0.5", "tend = 1e10", "CalcErrorNorms = F", NULL};

static int ready(void) {
  if (gpu_device_count() == 0) {
    printf("  no CUDA device visible: skipped\n");
    return 0;
  }
  return have_mech;
}

static void test_species_wave_agrees(void **state) {
  (void)state;
  if (!ready()) skip();
  const char *split[] = {mech_line, "NodeType = GAUSS-LOBATTO", "SplitDG = PI", NULL};
  const char *weak[] = {mech_line, "NodeType = GAUSS", "SplitDG = none", NULL};
  const char *kg[] = {mech_line, "NodeType = GAUSS-LOBATTO", "SplitDG = KG", NULL};
  double d1 = gpu_cpu_difference(WAVE, split), d2 = gpu_cpu_difference(WAVE, weak),
         d3 = gpu_cpu_difference(WAVE, kg);
  printf("  species wave GPU-CPU: split PI %.3e, weak Gauss %.3e, KG %.3e\n", d1, d2, d3);
  assert_true(d1 <= 1e-13);
  assert_true(d2 <= 1e-13);
  assert_true(d3 <= 1e-13);
}

static void test_freestream(void **state) {
  (void)state;
  if (!ready()) skip();
  const char *extra[] = {mech_line, "IniExactFunc = 1", "NodeType = GAUSS-LOBATTO",
                         "SplitDG = PI", "Backend = cuda", NULL};
  Simulation *sim = harness_sim(WAVE, extra, NULL);
  assert_non_null(sim);
  long n = (long)sim->solver->n_var * sim->solver->n_dof;
  double *u0 = malloc(sizeof(double) * n);
  memcpy(u0, sim->solver->U, sizeof(double) * n);
  assert_int_equal(simulation_run(sim), HX_OK);
  double dev = 0.0;
  for (long i = 0; i < n; i++) {
    double r = fabs(sim->solver->U[i] - u0[i]) / (fabs(u0[i]) + 1e-3);
    dev = r > dev ? r : dev;
  }
  printf("  free stream on the GPU: max relative deviation %.3e after 20 steps\n", dev);
  assert_true(dev <= 1e-12);
  free(u0);
  simulation_destroy(sim);
}

static void test_fv_tube_agrees(void **state) {
  (void)state;
  if (!ready()) skip();
  const char *extra[] = {mech_line, "maxIter = 40", "ChemistrySplitting = none", NULL};
  double d = gpu_cpu_difference(TUBE, extra);
  printf("  FV tube (frozen chemistry, positivity limiter) GPU-CPU: %.3e\n", d);
  assert_true(d <= 1e-12);
}

static void test_tube_with_chemistry(void **state) {
  (void)state;
  if (!ready()) skip();
  const char *extra[] = {mech_line, "maxIter = 30", "ChemistrySplitting = strang",
                         "ChemIntegrator = rodas", "ChemTmin = 600.", NULL};
  double d = gpu_cpu_difference(TUBE, extra);
  const char *gpu[] = {mech_line, "maxIter = 30", "ChemistrySplitting = strang",
                       "ChemTmin = 600.", "Backend = cuda", NULL};
  long n1, n2;
  double *a = harness_run_copy(TUBE, gpu, &n1), *b = harness_run_copy(TUBE, gpu, &n2);
  assert_non_null(a);
  assert_non_null(b);
  int same = n1 == n2 && memcmp(a, b, sizeof(double) * n1) == 0;
  printf("  tube with Strang chemistry GPU-CPU: %.3e; two GPU runs bitwise identical: %s\n", d,
         same ? "yes" : "no");
  assert_true(d <= 1e-12);
  assert_true(same);
  free(a);
  free(b);
}

/* The sponge of a reacting flow (ramp over x = 1..3 mm, full beyond: the shock runs in it):
 * towards the initial state (SpongeBaseFlow = exactfunction, IniExactFunc 16) and towards
 * RefState 2 (constant; per node for a mixture), 40 steps of frozen chemistry with FV blending:
 * CPU and GPU within 1e-12. */
static void test_sponge_agrees(void **state) {
  (void)state;
  if (!ready()) skip();
  const char *exact[] = {mech_line, "maxIter = 40", "ChemistrySplitting = none",
                         "SpongeLayer = T", "damping = 2e6", "xStart = (/0.001,0.,0./)",
                         "SpongeDistance = 0.002", "SpongeBaseFlow = exactfunction",
                         "SpongeExactFunc = 16", NULL};
  const char *constant[] = {mech_line, "maxIter = 40", "ChemistrySplitting = none",
                            "SpongeLayer = T", "damping = 2e6", "xStart = (/0.001,0.,0./)",
                            "SpongeDistance = 0.002", "SpongeBaseFlow = constant",
                            "SpongeRefState = 2", NULL};
  double d1 = gpu_cpu_difference(TUBE, exact), d2 = gpu_cpu_difference(TUBE, constant);
  printf("  sponge of a mixture GPU-CPU: towards the initial state %.3e, towards RefState 2 "
         "%.3e\n", d1, d2);
  assert_true(d1 <= 1e-12);
  assert_true(d2 <= 1e-12);
}

/* RecordMaxPressure on the tube with chemistry: p_max of every node, CPU against GPU (the GPU
 * reads p from the node states P, the CPU from its own Newton for T); it must exceed the
 * driver's 40 atm where the driver ignites. */
static double *max_pressure_run(const char *backend, long *n) {
  const char *extra[] = {mech_line, "maxIter = 30", "ChemistrySplitting = strang",
                         "ChemIntegrator = rodas", "ChemTmin = 600.", "RecordMaxPressure = T",
                         backend, NULL};
  Simulation *sim = harness_sim(TUBE, extra, NULL);
  assert_non_null(sim);
  assert_int_equal(simulation_run(sim), HX_OK);
  if (sim->backend == BACKEND_CUDA)
    assert_int_equal(gpu_max_pressure_get(sim->gpu, sim->maxp.p_max), HX_OK);
  *n = sim->solver->n_dof;
  double *copy = malloc(sizeof(double) * *n);
  memcpy(copy, sim->maxp.p_max, sizeof(double) * *n);
  simulation_destroy(sim);
  return copy;
}

static void test_max_pressure_agrees(void **state) {
  (void)state;
  if (!ready()) skip();
  long nc, ng;
  double *c = max_pressure_run("Backend = cpu", &nc), *g = max_pressure_run("Backend = cuda", &ng);
  assert_int_equal(nc, ng);
  double diff = 0.0, top = 0.0;
  for (long i = 0; i < nc; i++) {
    diff = fmax(diff, fabs(g[i] - c[i]));
    top = fmax(top, c[i]);
  }
  printf("  RecordMaxPressure GPU-CPU: %.3e relative to its maximum %.6g Pa\n", diff / top, top);
  assert_true(diff <= 1e-12 * top);
  assert_true(top > 4053000.0);
  free(c);
  free(g);
}

/* Stoichiometric H2-air at 1 atm, 1100 K in a periodic box: T of the CPU and GPU runs. */
static void test_box_ignition(void **state) {
  (void)state;
  if (!ready()) skip();
  static const char *const BOX[] = {
      "ProjectName = gpu_box", "MeshFile = box", "BoxElems = (/2,1,1/)",
      "BoxLower = (/0.,0.,0./)", "BoxUpper = (/0.02,0.01,0.01/)", "BoxPeriodic = (/T,T,T/)",
      "N = 2", "NodeType = GAUSS-LOBATTO", "Riemann = HLLC", "IniExactFunc = 1",
      "RefState = (/0.2317064,0.,0.,0.,101325./)", "RefStateX = H2:2,O2:1,N2:3.76",
      "CalcErrorNorms = F", "ChemRtol = 1e-10", "ChemAtol = 1e-14", "ChemIntegrator = rodas",
      NULL};
  const double tau = 1.2e-4; /* about the ignition delay (the CPU test measures it) */
  const double times[3] = {0.5 * tau, tau, 3.0 * tau};
  for (int i = 0; i < 3; i++) {
    char tend[64];
    snprintf(tend, sizeof tend, "tend = %.17g", times[i]);
    const char *cpu[] = {mech_line, tend, "Backend = cpu", NULL};
    const char *gpu[] = {mech_line, tend, "Backend = cuda", NULL};
    Simulation *sc = harness_sim(BOX, cpu, NULL), *sg = harness_sim(BOX, gpu, NULL);
    assert_non_null(sc);
    assert_non_null(sg);
    assert_int_equal(simulation_run(sc), HX_OK);
    assert_int_equal(simulation_run(sg), HX_OK);
    double Tc[2], Tg[2];
    Simulation *both[2] = {sc, sg};
    for (int b = 0; b < 2; b++) {
      const Solver *s = both[b]->solver;
      double u[HX_NVAR_MAX], pr[HX_NPRIM], Y[HX_MAX_SPECIES], c;
      for (int v = 0; v < s->n_var; v++) u[v] = s->U[(long)v * s->n_dof_elem];
      pr[TEMP] = -1.0;
      assert_int_equal(mix_cons_to_prim(s->mech, u, pr, Y, &c), 0);
      (b ? Tg : Tc)[0] = pr[TEMP];
    }
    double rel = fabs(Tg[0] - Tc[0]) / Tc[0];
    printf("  box at t = %.3e s: T CPU %.6f K, GPU %.6f K, relative %.2e\n", times[i], Tc[0],
           Tg[0], rel);
    assert_true(rel <= 1e-12);
    simulation_destroy(sc);
    simulation_destroy(sg);
  }
}

/* Species transport (mu0 > 0, src/gpu/mix_visc.cu) against the CPU: BR1 lifting of
 * (u, v, w, T, Y_k), the mixture's viscous fluxes (Fourier with cp_mix / Pr, Fick with the
 * correction velocity and the enthalpy it carries), the DFL time step. mu0 = 2 Pa s on the 1 m
 * species wave makes diffusion as fast as the advection (nu k^2 ~ u k), so that the viscous
 * terms are a large part of dU/dt; DFLscale 0.5 (the default 0.9 is unstable on Gauss-Lobatto
 * nodes where diffusion sets the step, docs/reacting_flow.md). Each set-up: CPU and GPU to
 * t = 1e-4 s (9 to 26 steps), relative L2 difference of U. */
#define VISC_COMMON "mu0 = 2.", "DFLscale = 0.5", "tend = 1e-4", "maxIter = 1000"

static void test_species_transport_lewis(void **state) {
  (void)state;
  if (!ready()) skip();
  const char *lobatto[] = {mech_line, VISC_COMMON, "SpeciesLewis = 1.,H2:0.3,H:0.18",
                           "NodeType = GAUSS-LOBATTO", "SplitDG = PI", NULL};
  const char *gauss[] = {mech_line, VISC_COMMON, "SpeciesLewis = 1.,H2:0.3,H:0.18",
                         "NodeType = GAUSS", "SplitDG = none", NULL};
  const double d1 = gpu_cpu_difference(WAVE, lobatto), d2 = gpu_cpu_difference(WAVE, gauss);
  /* the viscous terms matter: the same wave without them (GPU) */
  const char *visc[] = {mech_line, VISC_COMMON, "SpeciesLewis = 1.,H2:0.3,H:0.18",
                        "NodeType = GAUSS-LOBATTO", "SplitDG = PI", "Backend = cuda", NULL};
  const char *euler[] = {mech_line, "tend = 1e-4", "maxIter = 1000", "NodeType = GAUSS-LOBATTO",
                         "SplitDG = PI", "Backend = cuda", NULL};
  long nv, ne;
  double *uv = harness_run_copy(WAVE, visc, &nv), *ue = harness_run_copy(WAVE, euler, &ne);
  assert_non_null(uv);
  assert_non_null(ue);
  assert_int_equal(nv, ne);
  const double effect = harness_rel_l2_diff(uv, ue, nv);
  free(uv);
  free(ue);
  /* Backend = auto takes the GPU for a viscous mixture on one rank */
  const char *autob[] = {mech_line, VISC_COMMON, "Backend = auto", NULL};
  Simulation *sim = harness_sim(WAVE, autob, NULL);
  assert_non_null(sim);
  const int on_gpu = sim->backend == BACKEND_CUDA;
  simulation_destroy(sim);
  printf("  species transport (SpeciesLewis, constant mu) GPU-CPU: Gauss-Lobatto PI strong "
         "lifting %.3e, Gauss weak form and lifting %.3e; viscous vs Euler (GPU) %.3e; "
         "Backend = auto on the GPU: %s\n",
         d1, d2, effect, on_gpu ? "yes" : "no");
  assert_true(d1 <= 1e-12);
  assert_true(d2 <= 1e-12);
  assert_true(effect > 1e-4);
  assert_true(on_gpu);
}

static void test_species_transport_schmidt(void **state) {
  (void)state;
  if (!ready()) skip();
  /* mu0 = 0.5 at Tref = 273.15 K: about 1.4 Pa s at the wave's 1200 K with either law */
  const char *suth[] = {mech_line, VISC_COMMON, "mu0 = 0.5", "SpeciesSchmidt = 0.7,H2:0.2,H:0.12",
                        "ViscosityLaw = sutherland", "NodeType = GAUSS-LOBATTO",
                        "SplitDG = KG", "doConservativeLifting = T", NULL};
  const char *power[] = {mech_line, VISC_COMMON, "mu0 = 0.5", "SpeciesSchmidt = 0.7,H2:0.2,H:0.12",
                         "ViscosityLaw = powerlaw", "ExpoSuth = 0.7", "NodeType = GAUSS",
                         "SplitDG = none", "doWeakLifting = F", NULL};
  const double d1 = gpu_cpu_difference(WAVE, suth), d2 = gpu_cpu_difference(WAVE, power);
  printf("  species transport (SpeciesSchmidt) GPU-CPU: Sutherland, Gauss-Lobatto KG, strong "
         "conservative lifting %.3e; power law, Gauss, strong lifting %.3e\n",
         d1, d2);
  assert_true(d1 <= 1e-12);
  assert_true(d2 <= 1e-12);
}

/* Walls: x periodic, y- adiabatic (3), y+ isothermal (4) at RefState 2's 849 K, z- slip (9),
 * z+ the exact function (2); the species wave moving along x. */
static void test_species_transport_walls(void **state) {
  (void)state;
  if (!ready()) skip();
  static const char *const WALLS[] = {
      "ProjectName = gpu_mixture_walls", "MeshFile = box", "BoxElems = (/3,2,2/)", "NGeo = 3",
      "BoxCurving = 0.06", "BoxLower = (/0.,0.,0./)", "BoxUpper = (/1.,1.,1./)",
      "BoxPeriodic = (/T,F,F/)", "BoundaryName = BC_yminus", "BoundaryType = (/3,0/)",
      "BoundaryName = BC_yplus", "BoundaryType = (/4,2/)", "BoundaryName = BC_zminus",
      "BoundaryType = (/9,0/)", "BoundaryName = BC_zplus", "BoundaryType = (/2,0/)", "N = 3",
      "IniExactFunc = 17", "IniRefState = 1", "IniAmplitude = 0.2", "IniFrequency = 1.",
      "AdvVel = (/50.,0.,0./)", "RefState = (/0.2123976,50.,0.,0.,101325./)",
      "RefState = (/0.3,0.,0.,0.,101325./)", "RefStateX = H2:2,O2:1,N2:3.76",
      "RefStateX = H2:2,O2:1,N2:3.76", "Riemann = HLLC", "ChemistrySplitting = none",
      "CalcErrorNorms = F", "mu0 = 2.", "DFLscale = 0.5", "tend = 1e-4", "maxIter = 1000",
      "SpeciesLewis = 1.,H2:0.3,H:0.18", NULL};
  const char *lobatto[] = {mech_line, "NodeType = GAUSS-LOBATTO", "SplitDG = PI", NULL};
  const char *gauss[] = {mech_line, "NodeType = GAUSS", "SplitDG = none", NULL};
  const double d1 = gpu_cpu_difference(WALLS, lobatto), d2 = gpu_cpu_difference(WALLS, gauss);
  printf("  species transport with adiabatic, isothermal, slip and exact-function boundaries "
         "GPU-CPU: Gauss-Lobatto PI %.3e, Gauss weak form %.3e\n",
         d1, d2);
  assert_true(d1 <= 1e-12);
  assert_true(d2 <= 1e-12);
}

/* Total-state inflow (27; Tt, angles, pt of RefState 2) into the gas moving at 100 m/s, against a
 * subsonic outflow (25) at a lower pressure: the gas is drawn in through the curved duct; GPU and
 * CPU agree. (From rest, |v_b| = sqrt(2 (h(Tt) - h(T_b))) turns the round-off of h into a velocity
 * difference of order sqrt(eps): 1.7e-12 after 40 steps, measured on the H100; the bound is
 * 1e-11 for that reason.) */
static void test_total_inflow_agrees(void **state) {
  (void)state;
  if (!ready()) skip();
  static const char *const DUCT[] = {"ProjectName = gpu_mixture_duct",
                                     "MeshFile = box",
                                     "BoxElems = (/6,2,2/)",
                                     "NGeo = 3",
                                     "BoxCurving = 0.06",
                                     "BoxLower = (/0.,0.,0./)",
                                     "BoxUpper = (/1.,1.,1./)",
                                     "BoxPeriodic = (/F,T,T/)",
                                     "BoundaryName = BC_xminus",
                                     "BoundaryType = (/27,2/)",
                                     "BoundaryName = BC_xplus",
                                     "BoundaryType = (/25,3/)",
                                     "N = 3",
                                     "IniExactFunc = 1",
                                     "IniRefState = 1",
                                     "RefState = (/0.2123976,100.,0.,0.,101325./)",
                                     "RefState = (/1300.,10.,5.,0.,110000./)",
                                     "RefState = (/0.2123976,0.,0.,0.,95000./)",
                                     "RefStateX = H2:2,O2:1,N2:3.76",
                                     "RefStateX = H2:1,O2:1,N2:3.76",
                                     "RefStateX = H2:2,O2:1,N2:3.76",
                                     "Riemann = HLLC",
                                     "ChemistrySplitting = none",
                                     "CalcErrorNorms = F",
                                     "tend = 1e10",
                                     "maxIter = 40",
                                     NULL};
  const char *lobatto[] = {mech_line, "NodeType = GAUSS-LOBATTO", "SplitDG = PI", NULL};
  const char *gauss[] = {mech_line, "NodeType = GAUSS", "SplitDG = none", NULL};
  const double d1 = gpu_cpu_difference(DUCT, lobatto), d2 = gpu_cpu_difference(DUCT, gauss);
  printf("  total-state inflow (27) and subsonic outflow (25) GPU-CPU: Gauss-Lobatto PI %.3e, "
         "Gauss weak form %.3e\n",
         d1, d2);
  assert_true(d1 <= 1e-11);
  assert_true(d2 <= 1e-11);
}

int main(void) {
  char buf[4096];
  const char *path = chem_test_mech_path("li", buf, sizeof buf);
  have_mech = chem_test_have(path);
  snprintf(mech_line, sizeof mech_line, "Mechanism = %s", path);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_species_wave_agrees),
      cmocka_unit_test(test_freestream),
      cmocka_unit_test(test_fv_tube_agrees),
      cmocka_unit_test(test_tube_with_chemistry),
      cmocka_unit_test(test_box_ignition),
      cmocka_unit_test(test_max_pressure_agrees),
      cmocka_unit_test(test_species_transport_lewis),
      cmocka_unit_test(test_species_transport_schmidt),
      cmocka_unit_test(test_species_transport_walls),
      cmocka_unit_test(test_total_inflow_agrees),
      cmocka_unit_test(test_sponge_agrees),
  };
  const char *filter = getenv("HEXDG_TEST_FILTER"); /* e.g. "test_species_transport*" */
  if (filter && filter[0]) cmocka_set_test_filter(filter);
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  if (rc == 0 && (gpu_device_count() == 0 || !have_mech)) return 77;
  return rc;
}
