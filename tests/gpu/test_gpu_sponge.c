/* The sponge's base flows on the GPU (surface-update kernel, src/gpu/sponge_kernels.cu) against
 * the CPU (src/dg/sponge.c): for SpongeBaseFlow 1 (constant), 2 (exact function), 3 (file, a
 * density wave) and 4 (Pruett, starting from the initial state) the same case run on both
 * backends ends with solutions, and for Pruett base flows, that agree to 1e-12 relative.
 * Skipped (77) where no GPU is visible. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "gpu/gpu.h"
#include "regression/harness.h"

static const char *const WAVE[] = {"ProjectName = gpusponge",
                                   "MeshFile = box",
                                   "BoxElems = (/4,2,2/)",
                                   "NGeo = 2",
                                   "BoxCurving = 0.05",
                                   "N = 4",
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
                                   "Analyze_dt = 0.05",
                                   "mu0 = 1e-3",
                                   "CalcErrorNorms = F",
                                   NULL};

static double rel_diff(const double *a, const double *b, long n) {
  double d = 0.0, m = 0.0;
  for (long q = 0; q < n; q++) {
    d = fmax(d, fabs(a[q] - b[q]));
    m = fmax(m, fabs(a[q]));
  }
  return d / (m > 0.0 ? m : 1.0);
}

/* Run mode on backend; copies of U and of the per-node base flow (NULL for mode 1). */
static void run_case(const char *const *mode, const char *backend, double **u, double **ub, long *n,
                     long *nb) {
  const char *extra[8];
  int k = 0;
  for (; mode[k]; k++)
    extra[k] = mode[k];
  extra[k++] = backend;
  extra[k] = NULL;
  Simulation *sim = harness_sim(WAVE, extra, NULL);
  assert_non_null(sim);
  assert_int_equal(simulation_run(sim), HX_OK);
  const Solver *s = sim->solver;
  *n = (long)s->n_var * s->n_dof;
  *nb = s->sponge_base_U ? (long)s->n_sponge_elems * s->n_var * s->n_dof_elem : 0;
  *u = malloc(sizeof(double) * *n);
  memcpy(*u, s->U, sizeof(double) * *n);
  *ub = NULL;
  if (*nb) {
    *ub = malloc(sizeof(double) * *nb);
    memcpy(*ub, s->sponge_base_U, sizeof(double) * *nb);
  }
  simulation_destroy(sim);
}

static void compare_mode(const char *name, const char *const *mode) {
  double *uc, *ubc, *ug, *ubg;
  long n, nb, n2, nb2;
  run_case(mode, "Backend = cpu", &uc, &ubc, &n, &nb);
  run_case(mode, "Backend = cuda", &ug, &ubg, &n2, &nb2);
  assert_int_equal(n, n2);
  assert_int_equal(nb, nb2);
  double du = rel_diff(uc, ug, n), db = nb ? rel_diff(ubc, ubg, nb) : 0.0;
  printf("  SpongeBaseFlow %-13s GPU vs CPU at t = 0.1: solution %.3e, base flow %.3e (%ld "
         "values) relative\n",
         name, du, db, nb);
  assert_true(du < 1e-12);
  assert_true(db < 1e-12);
  free(uc), free(ug), free(ubc), free(ubg);
}

static void test_gpu_sponge_matches_cpu(void **state) {
  (void)state;
  const char *constant[] = {"SpongeBaseFlow = constant", "SpongeRefState = 2", NULL};
  const char *exact[] = {"SpongeBaseFlow = exactfunction", "SpongeExactFunc = 1", NULL};
  const char *pruett[] = {"SpongeBaseFlow = pruett", "tempFilterWidthSponge = 0.05", NULL};
  compare_mode("constant", constant);
  compare_mode("exactfunction", exact);
  /* the file: a density wave of another amplitude, written by the CPU */
  const char *ini[] = {"ProjectName = gpuspongefile", "IniAmplitude = 0.3", "Backend = cpu", NULL};
  Simulation *sim = harness_sim(WAVE, ini, NULL);
  assert_non_null(sim);
  assert_int_equal(simulation_write_state(sim), HX_OK);
  char key[1200];
  snprintf(key, sizeof key, "SpongeRefFile = %s", sim->last_state);
  simulation_destroy(sim);
  const char *file[] = {"SpongeBaseFlow = file", key, NULL};
  compare_mode("file", file);
  compare_mode("pruett", pruett);
}

int main(void) {
  if (gpu_device_count() == 0) {
    printf("no GPU visible: test_gpu_sponge skipped\n");
    return 77;
  }
  harness_scratch_dir("gpu_sponge");
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_gpu_sponge_matches_cpu)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
