/* FV switching on Gauss nodes (FLEXI's FV = SWITCH with NODETYPE = GAUSS, dg/fv_gauss.h) on the
 * CUDA backend against the CPU backend: FLEXI's riemann check (2-D Sod on 100 x 1 x 1 elements,
 * Persson's indicator, IndStartTime = 0.001, thresholds -3 / -4, MinMod; docs/regress.md) at
 * N = 2 and N = 3 with several Riemann solvers, after 10, 40 and 100 steps: the FV elements
 * identical and the states within 1e-10 (relative L2; a switch decided differently would show as
 * O(1e-3)), with elements switched both ways; a reflecting wall at x+ (the boundary ghosts and
 * face subcell fluxes of a wall); a density wave switching on a curved periodic box, whose
 * conserved integrals (DG elements sum w J U, FV elements sum h^3 J_FV U) the GPU keeps to
 * round-off; and a free stream on a curved box with every element FV (IndicatorType = fv),
 * periodic and with Dirichlet boundaries, and with a checkerboard of FV and DG elements, to
 * round-off on the GPU. These runs land every step on Analyze_dt (fixed dt), so that the states
 * compare the operator and the switching alone; test_sod_cfl_dt runs with the CFL time step and
 * so also compares the time step of the FV elements (the subcells' metrics and FLEXI's
 * CFLScale(1)). Navier-Stokes (mu0 > 0, dg/fv_gauss_visc.c on the CPU): a density wave on the
 * curved box with a checkerboard of FV and DG elements and with Persson's indicator switching
 * them, and the Sod check with viscosity (boundary face subcells' viscous fluxes), the FV
 * elements identical and the largest GPU - CPU difference below 1e-12 of the state's largest
 * value (the Sod shock: AGREE); a viscous free stream on the GPU (all FV with Dirichlet
 * boundaries, checkerboard) to round-off. Skipped where no GPU is visible. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "dg/fv_gauss.h"
#include "dg/indicator.h"
#include "gpu/gpu.h"
#include "physics/eos.h"
#include "regression/fv_gauss_cases.h"
#include "regression/harness.h"

#define AGREE 1e-10      /* relative L2 difference GPU - CPU */
#define AGREE_VISC 1e-12 /* Navier-Stokes, smooth: max |GPU - CPU| / max |CPU| */

/* FLEXI's checks/riemann parameter file on the built-in box (BC 2 on x, periodic y and z). */
static const char *const SOD[] = {"ProjectName = gpu_fvg_sod",
                                  "MeshFile = box",
                                  "BoxElems = (/100,1,1/)",
                                  "BoxLower = (/0., 0., 0./)",
                                  "BoxUpper = (/1., 1., 1./)",
                                  "BoxPeriodic = (/F,T,T/)",
                                  "Dimension = 2",
                                  "N = 2",
                                  "NodeType = GAUSS",
                                  "IniExactFunc = 11",
                                  "IndicatorType = persson",
                                  "IndVar = 1",
                                  "IndStartTime = 0.001",
                                  "FV_Mode = switching",
                                  "FV_LimiterType = MinMod",
                                  "FV_IndUpperThreshold = -3.",
                                  "FV_IndLowerThreshold = -4.",
                                  "TimeDiscMethod = carpenterrk4-5",
                                  "CFLscale = 0.5",
                                  "CalcErrorNorms = F",
                                  "tend = 1.",
                                  "Analyze_dt = 2e-4", /* below the CFL limit: dt = 2e-4 */
                                  "nWriteData = 1000000",
                                  NULL};

/* The state and the FV elements at the end of a run. */
typedef struct {
  double *U;
  int *fv;
  long n_u;
  int n_elems;
  long iter;
  double t;
} Run;

static int have_gpu(void) {
  if (gpu_device_count() > 0) return 1;
  printf("  no CUDA device visible: GPU tests skipped\n");
  return 0;
}

/* base + extra + the backend (and a last override, may be NULL), run to its end. */
static Run run_case(const char *const *base, const char *const *extra, const char *backend,
                    const char *last) {
  const char *all[48];
  int n = 0;
  for (; extra && extra[n]; n++)
    all[n] = extra[n];
  all[n++] = backend;
  if (last) all[n++] = last;
  all[n] = NULL;
  Run r = {0};
  Simulation *sim = harness_sim(base, all, NULL);
  assert_non_null(sim);
  assert_non_null(sim->solver->fv.gauss);
  assert_int_equal(simulation_run(sim), HX_OK);
  const Solver *s = sim->solver;
  r.n_u = (long)s->n_var * s->n_dof;
  r.n_elems = s->mesh->n_elems;
  r.U = malloc(sizeof(double) * r.n_u);
  r.fv = malloc(sizeof(int) * r.n_elems);
  assert_non_null(r.U);
  assert_non_null(r.fv);
  memcpy(r.U, s->U, sizeof(double) * r.n_u);
  memcpy(r.fv, s->fv.fv_elems, sizeof(int) * r.n_elems);
  r.iter = sim->iter;
  r.t = sim->t;
  simulation_destroy(sim);
  return r;
}

static void run_free(Run *r) {
  free(r->U);
  free(r->fv);
}

static int count_fv(const Run *r) {
  int n = 0;
  for (int e = 0; e < r->n_elems; e++)
    n += r->fv[e];
  return n;
}

/* max |a - b| / max |b| over n values. */
static double max_rel_diff(const double *a, const double *b, long n) {
  double num = 0.0, den = 0.0;
  for (long q = 0; q < n; q++) {
    num = fmax(num, fabs(a[q] - b[q]));
    den = fmax(den, fabs(b[q]));
  }
  return den > 0.0 ? num / den : num;
}

/* CPU and GPU runs of base + extra (+ last): the same FV elements, the same step count and time,
 * the states within AGREE (relative L2) and, max_bound > 0, max |GPU - CPU| / max |CPU| below
 * max_bound; returns the CPU run (the caller frees it). */
static Run agree_max(const char *const *base, const char *const *extra, const char *last,
                     const char *what, double max_bound) {
  Run c = run_case(base, extra, "Backend = cpu", last);
  Run g = run_case(base, extra, "Backend = cuda", last);
  assert_int_equal(c.n_u, g.n_u);
  int differ = 0;
  for (int e = 0; e < c.n_elems; e++)
    differ += c.fv[e] != g.fv[e];
  const double d = harness_rel_l2_diff(g.U, c.U, c.n_u), dmax = max_rel_diff(g.U, c.U, c.n_u);
  printf("  %-52s %4ld steps, %3d FV (CPU) %3d FV (GPU), %d differ, rel. L2 GPU-CPU %.2e, "
         "max %.2e\n",
         what, c.iter, count_fv(&c), count_fv(&g), differ, d, dmax);
  assert_int_equal(c.iter, g.iter);
  /* runs that land on Analyze_dt take the same dt bit for bit; with the CFL time step the GPU's
     reduction (another order of the same operations) may differ in the last bits */
  assert_true(fabs(c.t - g.t) <= 1e-13 * fabs(c.t));
  assert_int_equal(differ, 0);
  assert_true(d <= AGREE);
  if (max_bound > 0.0) assert_true(dmax < max_bound);
  run_free(&g);
  return c;
}

static Run agree(const char *const *base, const char *const *extra, const char *last,
                 const char *what) {
  return agree_max(base, extra, last, what, 0.0);
}

/* agree alone. */
static void check_agree(const char *const *base, const char *const *extra, const char *last,
                        const char *what) {
  Run c = agree(base, extra, last, what);
  run_free(&c);
}

/* agree_max alone. */
static void check_agree_max(const char *const *base, const char *const *extra, const char *what,
                            double max_bound) {
  Run c = agree_max(base, extra, NULL, what, max_bound);
  run_free(&c);
}

/* Sod after 10, 40 and 100 steps; the FV elements must have gone FV -> DG (all FV until
 * IndStartTime, and FV at one checkpoint, DG at the next) and DG -> FV (DG at one checkpoint, FV
 * at the next: the shock moved). */
static void sod_history(const char *const *extra, const char *name) {
  static const char *const steps[] = {"maxIter = 10", "maxIter = 40", "maxIter = 100"};
  Run r[3];
  for (int k = 0; k < 3; k++) {
    char what[128];
    snprintf(what, sizeof what, "%s, %s:", name, steps[k]);
    r[k] = agree(SOD, extra, steps[k], what);
  }
  int to_dg = r[0].n_elems - count_fv(&r[0]), to_fv = 0;
  for (int k = 0; k + 1 < 3; k++)
    for (int e = 0; e < r[k].n_elems; e++) {
      to_fv += !r[k].fv[e] && r[k + 1].fv[e];
      to_dg += r[k].fv[e] && !r[k + 1].fv[e];
    }
  printf("  %s: %d switches FV -> DG, %d DG -> FV seen at the checkpoints\n", name, to_dg, to_fv);
  assert_true(to_dg > 0);
  assert_true(to_fv > 0);
  for (int k = 0; k < 3; k++)
    run_free(&r[k]);
}

static void test_sod_riemann(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  const char *hllc[] = {"Riemann = HLLC", NULL};
  sod_history(hllc, "Sod N = 2, HLLC");
  const char *roe[] = {"Riemann = Roe", NULL};
  sod_history(roe, "Sod N = 2, Roe");
  const char *lf[] = {"Riemann = LF", NULL};
  sod_history(lf, "Sod N = 2, LF");
  const char *hll[] = {"Riemann = HLL", NULL};
  sod_history(hll, "Sod N = 2, HLL");
  const char *n3[] = {"N = 3", "Riemann = HLLC", NULL};
  sod_history(n3, "Sod N = 3, HLLC");
  const char *n3roe[] = {"N = 3", "Riemann = RoeEntropyFix", NULL};
  sod_history(n3roe, "Sod N = 3, RoeEntropyFix");
}

/* Other paths of the operator: a reflecting wall at x+ (BC 9), first order, Sweby's limiter, the
 * non-conservative switch, FLEXI's FV_toDG_indicator in the stages. */
static void test_sod_variants(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  const char *wall[] = {"Riemann = HLLC", "BoundaryName = BC_xplus", "BoundaryType = (/9,0/)",
                        "maxIter = 100", NULL};
  check_agree(SOD, wall, NULL, "Sod N = 2, HLLC, wall at x+:");
  const char *first[] = {"Riemann = HLLE", "FV_LimiterType = FirstOrder", "maxIter = 60", NULL};
  check_agree(SOD, first, NULL, "Sod N = 2, HLLE, first order:");
  const char *sweby[] = {"N = 3",        "Riemann = HLLEM", "FV_LimiterType = Sweby",
                         "swebyb = 1.5", "maxIter = 60",    NULL};
  check_agree(SOD, sweby, NULL, "Sod N = 3, HLLEM, Sweby:");
  const char *noncons[] = {"FV_SwitchConservative = F", "maxIter = 60", NULL};
  check_agree(SOD, noncons, NULL, "Sod N = 2, non-conservative switch:");
  const char *todg[] = {"FV_toDG_indicator = T", "FV_toDG_limit = -5.5", "FV_toDGinRK = T",
                        "maxIter = 60", NULL};
  check_agree(SOD, todg, NULL, "Sod N = 2, FV_toDG_indicator, in RK:");
}

/* The CFL time step: FLEXI's CFLScale(1) of the FV elements with the subcells' metrics
 * (timedisc.c element_max_lambda / timestep_kernels.cu). */
static void test_sod_cfl_dt(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  const char *cfl[] = {"Riemann = HLLC", "Analyze_dt = 0.", "maxIter = 60", NULL};
  check_agree(SOD, cfl, NULL, "Sod N = 2, HLLC, CFL time step:");
}

static const char *const BOX[] = {"ProjectName = gpu_fvg_box",
                                  "MeshFile = box",
                                  "BoxLower = (/-1., -1., -1./)",
                                  "BoxUpper = (/1., 1., 1./)",
                                  "BoxPeriodic = (/T,T,T/)",
                                  "BoxElems = (/3,3,2/)",
                                  "BoxCurving = 0.1",
                                  "NGeo = 3",
                                  "N = 3",
                                  "NodeType = GAUSS",
                                  "CalcErrorNorms = F",
                                  "FV_Mode = switching",
                                  "FV_LimiterType = MinMod",
                                  "Riemann = HLLC",
                                  "nWriteData = 1000000",
                                  NULL};

/* A free stream on the curved box on the GPU alone: max |U - U_inf| after tend. */
static void freestream(const char *const *extra, const char *what, int all_fv) {
  const char *all[24];
  int n = 0;
  for (; extra[n]; n++)
    all[n] = extra[n];
  all[n++] = "IniExactFunc = 1";
  all[n++] = "RefState = (/1.0, 0.3, -0.2, 0.1, 0.71428571/)";
  all[n++] = "tend = 0.05";
  all[n++] = "Backend = cuda";
  all[n] = NULL;
  Simulation *sim = harness_sim(BOX, all, NULL);
  assert_non_null(sim);
  assert_int_equal(simulation_run(sim), HX_OK);
  const Solver *s = sim->solver;
  int n_fv = 0;
  for (int e = 0; e < s->mesh->n_elems; e++)
    n_fv += s->fv.fv_elems[e];
  const double dev = harness_freestream_deviation(s);
  printf("  free stream on the GPU, curved box, %-34s %d of %d FV, %ld steps, max |U - U_inf| "
         "%.2e\n",
         what, n_fv, s->mesh->n_elems, sim->iter, dev);
  assert_true(dev < 1e-12);
  if (all_fv)
    assert_int_equal(n_fv, s->mesh->n_elems);
  else
    assert_true(n_fv > 0 && n_fv < s->mesh->n_elems);
  simulation_destroy(sim);
}

static void test_freestream(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  const char *fv[] = {"IndicatorType = fv", NULL};
  freestream(fv, "all FV, periodic:", 1);
  const char *bc[] = {"IndicatorType = fv", "BoxPeriodic = (/F,F,T/)", NULL};
  freestream(bc, "all FV, Dirichlet in x and y:", 1);
  const char *cb[] = {"IndicatorType = checkerboard", NULL};
  freestream(cb, "checkerboard FV / DG:", 0);
}

/* fv_gauss_cases.h's density wave on the curved periodic box, with a step that lands on every
 * Analyze_dt (test_fv_gauss's case). */
#define WAVE_DT "Analyze_dt = 0.002"

static void test_wave_conservation(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  check_agree(BOX, FVG_WAVE, WAVE_DT, "density wave, curved periodic box:");
  const char *all[16];
  int n = 0;
  for (; FVG_WAVE[n]; n++)
    all[n] = FVG_WAVE[n];
  all[n++] = WAVE_DT;
  all[n++] = "Backend = cuda";
  all[n] = NULL;
  Simulation *sim = harness_sim(BOX, all, NULL);
  assert_non_null(sim);
  int n_fv;
  const double worst = fvg_conserved_change(sim, &n_fv);
  printf("  GPU: density wave switching, %ld steps, %d of %d FV at the end, largest change of an "
         "integral %.2e\n",
         sim->iter, n_fv, sim->solver->mesh->n_elems, worst);
  assert_true(worst < 1e-13);
  assert_true(n_fv > 0 && n_fv < sim->solver->mesh->n_elems);
  simulation_destroy(sim);
}

/* Navier-Stokes (FLEXI's PARABOLIC = ON; dg/fv_gauss_visc.c, the GPU's kernels in
 * fv_gauss_kernels.cu): viscous subcell fluxes, face subcell gradients and lifting. */
static const char *const VISC[] = {"mu0 = 0.02", "Pr = 0.72", NULL};

/* VISC + extra into all (NULL-terminated). */
static void with_visc(const char *const *extra, const char **all, int size) {
  int n = 0;
  for (int k = 0; VISC[k]; k++)
    all[n++] = VISC[k];
  for (int k = 0; extra[k]; k++)
    all[n++] = extra[k];
  assert_true(n < size);
  all[n] = NULL;
}

static void test_visc_freestream(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  const char *all[24];
  const char *bc[] = {"IndicatorType = fv", "BoxPeriodic = (/F,F,T/)", NULL};
  with_visc(bc, all, 24);
  freestream(all, "mu0 = 0.02, all FV, Dirichlet x, y:", 1);
  const char *cb[] = {"IndicatorType = checkerboard", NULL};
  with_visc(cb, all, 24);
  freestream(all, "mu0 = 0.02, checkerboard:", 0);
}

/* The density wave with viscosity on the curved box: a fixed checkerboard of FV and DG elements
 * (periodic; and with Dirichlet boundaries in x and y), then Persson's indicator switching them
 * (FVG_WAVE); the states within AGREE_VISC of the CPU's. */
static void test_visc_wave(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  const char *all[32];
  /* 40 steps of dt = Analyze_dt (below the CFL and DFL limits) */
  const char *cb[] = {"IniExactFunc = 2",
                      "AdvVel = (/0.6, 0.3, 0.2/)",
                      "IndicatorType = checkerboard",
                      "tend = 1.",
                      "Analyze_dt = 0.002",
                      "maxIter = 40",
                      NULL};
  with_visc(cb, all, 32);
  Run c = agree_max(BOX, all, NULL, "mu0 = 0.02, density wave, checkerboard:", AGREE_VISC);
  assert_true(count_fv(&c) > 0 && count_fv(&c) < c.n_elems);
  run_free(&c);
  const char *cbd[] = {"IniExactFunc = 2",
                       "AdvVel = (/0.6, 0.3, 0.2/)",
                       "IndicatorType = checkerboard",
                       "BoxPeriodic = (/F,F,T/)",
                       "tend = 1.",
                       "Analyze_dt = 0.002",
                       "maxIter = 40",
                       NULL};
  with_visc(cbd, all, 32);
  check_agree_max(BOX, all, "mu0 = 0.02, density wave, checkerboard, Dirichlet:", AGREE_VISC);
  with_visc(FVG_WAVE, all, 32);
  c = agree_max(BOX, all, WAVE_DT, "mu0 = 0.02, density wave, switching:", AGREE_VISC);
  assert_true(count_fv(&c) > 0 && count_fv(&c) < c.n_elems); /* mixed at the end */
  run_free(&c);
}

/* The Sod check with viscosity after 40 and 100 steps: switching both ways near the shock, the
 * boundary face subcells' viscous fluxes (BC 2 at x) and a wall (BC 9). */
static void test_visc_sod(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  const char *sod40[] = {"mu0 = 1e-3", "Riemann = HLLC", "maxIter = 40", NULL};
  check_agree(SOD, sod40, NULL, "Sod N = 2, HLLC, mu0 = 1e-3, 40 steps:");
  const char *sod100[] = {"mu0 = 1e-3", "N = 3", "Riemann = HLLC", "maxIter = 100", NULL};
  check_agree(SOD, sod100, NULL, "Sod N = 3, HLLC, mu0 = 1e-3, 100 steps:");
  const char *wall[] = {"mu0 = 1e-3",
                        "Riemann = HLLC",
                        "BoundaryName = BC_xplus",
                        "BoundaryType = (/9,0/)",
                        "maxIter = 100",
                        NULL};
  check_agree(SOD, wall, NULL, "Sod N = 2, HLLC, mu0 = 1e-3, wall at x+:");
}

int main(void) {
  harness_scratch_dir("gpu_fv_gauss");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_freestream),   cmocka_unit_test(test_sod_riemann),
      cmocka_unit_test(test_sod_variants), cmocka_unit_test(test_wave_conservation),
      cmocka_unit_test(test_sod_cfl_dt),   cmocka_unit_test(test_visc_freestream),
      cmocka_unit_test(test_visc_wave),    cmocka_unit_test(test_visc_sod),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  return rc == 0 && gpu_device_count() == 0 ? 77 : rc; /* no GPU: skipped, not passed */
}
