/* Record points on the GPU (src/gpu/recordpoint_kernels.cu): the density sine wave through the
 * curved periodic box, the same record points sampled by the CUDA backend (device buffer, flushed
 * several times per file: RP_MaxMemory = 1 with a 60 x 60 plane) and by the CPU backend: every
 * RP file has the same samples (times bitwise, states within 1e-12), with RP_SamplingOffset = 2.
 * Exit 77 (skipped) without a GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <hdf5.h>

#include "gpu/gpu.h"
#include "regression/harness.h"

static const char *const WAVE[] = {"MeshFile = box",
                                   "BoxElems = (/3,3,3/)",
                                   "NGeo = 3",
                                   "BoxCurving = 0.06",
                                   "N = 5",
                                   "NodeType = GAUSS-LOBATTO",
                                   "IniExactFunc = 2",
                                   "AdvVel = (/1.,0.5,0.25/)",
                                   "IniAmplitude = 0.1",
                                   "tend = 0.2",
                                   "Analyze_dt = 0.1",
                                   "CalcErrorNorms = F",
                                   "RP_inUse = T",
                                   "RP_SamplingOffset = 2",
                                   "RP_MaxMemory = 1",
                                   "RP_Point = (/0.31,0.42,0.53/)",
                                   "RP_Line = (/-0.9,0.15,0.2, 0.85,0.9,0.8/)",
                                   "RP_LineN = 7",
                                   "RP_Plane = (/-0.95,-0.95,0.3, 0.95,-0.95,0.3, -0.95,0.95,0.7/)",
                                   "RP_PlaneN = (/60,60/)",
                                   NULL};

static double *read_rp(const char *path, hsize_t *dims) {
  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return NULL;
  hid_t ds = H5Dopen2(file, "RP_Data", H5P_DEFAULT), sp = H5Dget_space(ds);
  H5Sget_simple_extent_dims(sp, dims, NULL);
  double *d = malloc(sizeof(double) * (dims[0] * dims[1] * dims[2] + 1));
  H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, d);
  H5Sclose(sp);
  H5Dclose(ds);
  H5Fclose(file);
  return d;
}

static void test_gpu_samples_equal_cpu_samples(void **state) {
  (void)state;
  const char *cpu[] = {"ProjectName = cpu", "Backend = cpu", NULL};
  const char *gpu[] = {"ProjectName = gpu", "Backend = cuda", NULL};
  Simulation *a = harness_sim(WAVE, cpu, NULL);
  assert_non_null(a);
  assert_int_equal(simulation_run(a), HX_OK);
  simulation_destroy(a);
  Simulation *b = harness_sim(WAVE, gpu, NULL);
  assert_non_null(b);
  assert_int_equal(b->backend, BACKEND_CUDA);
  assert_true(b->rp.cap < 8); /* several flushes of the device buffer per file */
  assert_int_equal(simulation_run(b), HX_OK);
  simulation_destroy(b);
  for (int w = 0; w <= 2; w++) {
    char fa[256], fb[256];
    snprintf(fa, sizeof fa, "cpu_RP_%017.9f.h5", 0.1 * w);
    snprintf(fb, sizeof fb, "gpu_RP_%017.9f.h5", 0.1 * w);
    hsize_t da[3], db[3];
    double *x = read_rp(fa, da), *y = read_rp(fb, db);
    assert_non_null(x);
    assert_non_null(y);
    assert_memory_equal(da, db, sizeof da);
    double worst = 0.0;
    long times_differ = 0; /* the GPU's dt equals the CPU's to round-off, not bitwise */
    for (hsize_t q = 0; q < da[0] * da[1] * da[2]; q++) {
      if (q % da[2] == 0)
        times_differ += fabs(x[q] - y[q]) > 1e-14 * fmax(fabs(x[q]), 1e-300);
      else
        worst = fmax(worst, fabs(x[q] - y[q]));
    }
    printf("  %s vs %s: %llu samples x %llu points, GPU - CPU max %.3e, times differing %ld\n", fb,
           fa, (unsigned long long)da[0], (unsigned long long)da[1], worst, times_differ);
    assert_true(worst < 1e-12);
    assert_int_equal(times_differ, 0);
    free(x);
    free(y);
  }
}

int main(void) {
  if (gpu_device_count() == 0) {
    printf("skip: no GPU visible\n");
    return 77;
  }
  harness_scratch_dir("gpu_rp");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_gpu_samples_equal_cpu_samples),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
