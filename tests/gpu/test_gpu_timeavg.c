/* Time averages on the GPU (src/gpu/timeavg_kernels.cu) against the CPU (src/analysis/timeavg.c):
 * the same case (the manufactured solution on a curved periodic box, every averageable variable
 * and every supported MeanSquare entry, two windows; again viscous with DR_u and DR_S, on both
 * node types) run on both backends writes TimeAvg files whose Mean and MeanSquare agree to 1e-12
 * relative, with the same AvgTime. Skipped (77) where no GPU is visible. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <hdf5.h>

#include "gpu/gpu.h"
#include "regression/harness.h"

static const char *const CASE[] = {"MeshFile = box",
                                   "BoxElems = (/3,2,2/)",
                                   "NGeo = 3",
                                   "BoxCurving = 0.05",
                                   "N = 4",
                                   "NodeType = GAUSS-LOBATTO",
                                   "SplitDG = PI",
                                   "IniExactFunc = 4",
                                   "AdvVel = (/1., 1., 1./)",
                                   "tend = 0.02",
                                   "Analyze_dt = 0.01",
                                   "CalcErrorNorms = F",
                                   "CalcTimeAverage = T",
                                   "VarNameAvg = Density",
                                   "VarNameAvg = MomentumX",
                                   "VarNameAvg = MomentumY",
                                   "VarNameAvg = MomentumZ",
                                   "VarNameAvg = EnergyStagnationDensity",
                                   "VarNameAvg = VelocityMagnitude",
                                   "VarNameAvg = VelocitySound",
                                   "VarNameAvg = Temperature",
                                   "VarNameAvg = TotalTemperature",
                                   "VarNameFluc = Density",
                                   "VarNameFluc = VelocityX",
                                   "VarNameFluc = VelocityY",
                                   "VarNameFluc = VelocityZ",
                                   "VarNameFluc = Pressure",
                                   "VarNameFluc = Mach",
                                   "VarNameFluc = TotalPressure",
                                   "VarNameFluc = uv",
                                   "VarNameFluc = uw",
                                   "VarNameFluc = vw",
                                   "VarNameFluc = TKE",
                                   NULL};

/* Dataset name of file path into a new buffer; *n its size. */
static double *read_dataset(const char *path, const char *name, size_t *n) {
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  assert_true(f >= 0);
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  assert_true(d >= 0);
  hid_t s = H5Dget_space(d);
  *n = (size_t)H5Sget_simple_extent_npoints(s);
  double *buf = malloc(sizeof(double) * *n);
  assert_non_null(buf);
  assert_true(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
  H5Sclose(s);
  H5Dclose(d);
  H5Fclose(f);
  return buf;
}

static double read_avg_time(const char *path) {
  double t = -1.0;
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t a = H5Aopen(f, "AvgTime", H5P_DEFAULT);
  H5Aread(a, H5T_NATIVE_DOUBLE, &t);
  H5Aclose(a);
  H5Fclose(f);
  return t;
}

static void run_backend(const char *project, const char *backend, const char *const *more) {
  char proj[64], back[64];
  snprintf(proj, sizeof proj, "ProjectName = %s", project);
  snprintf(back, sizeof back, "Backend = %s", backend);
  const char *extra[16] = {proj, back};
  for (int k = 0; more && more[k]; k++)
    extra[2 + k] = more[k];
  Simulation *sim = harness_sim(CASE, extra, NULL);
  assert_non_null(sim);
  assert_int_equal(simulation_run(sim), HX_OK);
  simulation_destroy(sim);
}

/* Both backends' TimeAvg files of the case with the extra lines more agree. */
static void compare_backends(const char *const *more) {
  run_backend("tavg_cpu", "cpu", more);
  run_backend("tavg_gpu", "cuda", more);
  const char *times[2] = {"0000000.010000000", "0000000.020000000"};
  const char *sets[2] = {"Mean", "MeanSquare"};
  for (int w = 0; w < 2; w++) {
    char pc[128], pg[128];
    snprintf(pc, sizeof pc, "tavg_cpu_TimeAvg_%s.h5", times[w]);
    snprintf(pg, sizeof pg, "tavg_gpu_TimeAvg_%s.h5", times[w]);
    double tc = read_avg_time(pc), tg = read_avg_time(pg);
    printf("  window %d: AvgTime CPU %.17g GPU %.17g\n", w + 1, tc, tg);
    assert_true(fabs(tc - tg) <= 1e-14 * tc);
    for (int d = 0; d < 2; d++) {
      size_t nc, ng;
      double *c = read_dataset(pc, sets[d], &nc), *g = read_dataset(pg, sets[d], &ng);
      assert_int_equal(nc, ng);
      double diff = 0.0, big = 0.0;
      for (size_t i = 0; i < nc; i++) {
        diff = fmax(diff, fabs(c[i] - g[i]));
        big = fmax(big, fabs(c[i]));
      }
      printf("  window %d, %s (%zu values): GPU - CPU max %.3e relative to max |CPU| %.3e\n", w + 1,
             sets[d], nc, diff / big, big);
      assert_true(diff <= 1e-12 * big);
      free(c);
      free(g);
    }
  }
}

static void test_gpu_timeavg_matches_cpu(void **state) {
  (void)state;
  if (gpu_device_count() == 0) {
    printf("  no CUDA device visible: GPU test skipped\n");
    return;
  }
  compare_backends(NULL);
}

/* FLEXI's dissipation measures DR_u, DR_S of the lifted velocity gradient (Navier-Stokes): the
 * GPU lifts the state after each step on the device. */
static void test_gpu_timeavg_dissipation(void **state) {
  (void)state;
  if (gpu_device_count() == 0) return;
  const char *more[] = {"mu0 = 0.01", "VarNameFluc = DR_u", "VarNameFluc = DR_S", NULL};
  compare_backends(more);
}

/* The same on Gauss nodes: the Gauss line kernel also writes the volume gradients when the
 * state is lifted for an analysis. */
static void test_gpu_timeavg_dissipation_gauss(void **state) {
  (void)state;
  if (gpu_device_count() == 0) return;
  const char *more[] = {"mu0 = 0.01",       "VarNameFluc = DR_u", "VarNameFluc = DR_S",
                        "NodeType = GAUSS", "SplitDG = none",     NULL};
  compare_backends(more);
}

int main(void) {
  harness_scratch_dir("gpu_timeavg");
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_gpu_timeavg_matches_cpu),
                                     cmocka_unit_test(test_gpu_timeavg_dissipation),
                                     cmocka_unit_test(test_gpu_timeavg_dissipation_gauss)};
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  return rc == 0 && gpu_device_count() == 0 ? 77 : rc; /* no GPU: skipped, not passed */
}
