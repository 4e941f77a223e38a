/* Navier-Stokes on Gauss nodes on the CUDA backend (src/gpu/lifting_gauss_kernels.cu: the line
 * kernel of the strong lifting, the gradients it interpolates to the face points, the face states
 * the face flux kernel reuses) against the CPU backend, relative L2 difference of U <= 1e-12:
 *   - every degree the line kernel has (N = 1..7) on a curved box with exact-function boundaries;
 *   - the gmsh box with rotated elements (every local side and flip of the face maps) with
 *     isothermal no-slip walls, and the curved box with adiabatic and isothermal walls;
 *   - the previous path (HEXDG_GAUSS_LINE_LIFTING = F: node kernel, gradients prolonged by the
 *     face kernel) gives the same solution, and the line kernel's runs are bitwise reproducible,
 *     with and without CUDA graphs.
 * Exits 77 (skipped) where no GPU is visible. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "gpu/gpu.h"
#include "regression/harness.h"

#include "gpu/agreement.h"

/* the manufactured solution on a curved box (as test_gpu_agreement.c) */
static const char *const MMS[] = {"ProjectName = gpu_ns_gauss",
                                  "MeshFile = box",
                                  "BoxElems = (/3,2,2/)",
                                  "NGeo = 3",
                                  "BoxCurving = 0.05",
                                  "IniExactFunc = 4",
                                  "AdvVel = (/1., 1., 1./)",
                                  "NodeType = GAUSS",
                                  "mu0 = 0.01",
                                  "tend = 1e10",
                                  "maxIter = 100",
                                  "CalcErrorNorms = F",
                                  NULL};

static int have_gpu(void) {
  if (gpu_device_count() > 0) return 1;
  printf("  no CUDA device visible: GPU tests skipped\n");
  return 0;
}

/* The gmsh box with rotated elements: "MeshFile = ..." into line. */
static void rotated_mesh_line(char *line, size_t len) {
  char dir[1024];
  snprintf(dir, sizeof dir, "%s", __FILE__);
  char *slash = strrchr(dir, '/');
  if (slash) *slash = 0;
  snprintf(line, len, "MeshFile = %s/../data/gmsh_box_unstructured_o2.msh", dir);
}

/* base + extra on both backends agree; label for the log. */
static void expect_agreement(const char *const *base, const char *const *extra, const char *label) {
  double d = gpu_cpu_difference(base, extra);
  printf("  %-58s GPU-CPU %.3e\n", label, d);
  assert_true(d <= 1e-12);
}

static void test_gauss_line_lifting_every_degree(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  for (int N = 1; N <= 7; N++) {
    char sN[16], label[96];
    snprintf(sN, sizeof sN, "N = %d", N);
    const char *periodic = N % 2 ? "BoxPeriodic = (/T,F,T/)" : "BoxPeriodic = (/F,T,F/)";
    const char *extra[] = {sN, periodic, NULL};
    snprintf(label, sizeof label, "N=%d curved box, MMS, %s", N, periodic + 14);
    expect_agreement(MMS, extra, label);
  }
}

static void test_gauss_rotated_mesh_walls(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  char mesh[1300];
  rotated_mesh_line(mesh, sizeof mesh);
  const int Ns[] = {3, 4, 7};
  for (int a = 0; a < 3; a++) {
    char sN[16], label[96];
    snprintf(sN, sizeof sN, "N = %d", Ns[a]);
    const char *base[] = {"ProjectName = gpu_ns_gauss_rot",
                          mesh,
                          sN,
                          "NodeType = GAUSS",
                          "BoundaryName = walls",
                          "BoundaryType = (/4,1/)",
                          "IniExactFunc = 1",
                          "RefState = (/1., 0.2, 0.1, 0.05, 0.71428571/)",
                          "mu0 = 0.01",
                          "tend = 1e10",
                          "maxIter = 40",
                          "CalcErrorNorms = F",
                          NULL};
    snprintf(label, sizeof label, "N=%d rotated gmsh elements, isothermal walls", Ns[a]);
    expect_agreement(base, NULL, label);
  }
  /* the curved channel of test_gpu_agreement.c: exact inflow, pressure outflow, adiabatic wall
   * below, isothermal wall above */
  const char *channel[] = {"ProjectName = gpu_ns_gauss_walls",
                           "MeshFile = box",
                           "BoxElems = (/3,2,2/)",
                           "NGeo = 3",
                           "BoxCurving = 0.05",
                           "BoxPeriodic = (/F,F,T/)",
                           "NodeType = GAUSS",
                           "N = 5",
                           "IniExactFunc = 2",
                           "AdvVel = (/0.3,0.,0.1/)",
                           "RefState = (/1.,0.3,0.,0.1,1./)",
                           "RefState = (/1.,0.,0.,0.,1.2/)",
                           "BoundaryName = BC_xplus",
                           "BoundaryType = (/24,1/)",
                           "BoundaryName = BC_yminus",
                           "BoundaryType = (/3,0/)",
                           "BoundaryName = BC_yplus",
                           "BoundaryType = (/4,2/)",
                           "mu0 = 0.02",
                           "tend = 1e10",
                           "maxIter = 100",
                           "CalcErrorNorms = F",
                           NULL};
  expect_agreement(channel, NULL, "N=5 curved channel, adiabatic + isothermal walls");
}

/* The rotated-mesh case on the GPU with the line kernel (default) or the previous Gauss path. */
static double *gpu_run(const char *const *base, int line_kernel, int graphs, long *n) {
  const char *extra[] = {"Backend = cuda", graphs ? "UseCudaGraphs = T" : "UseCudaGraphs = F",
                         NULL};
  if (line_kernel)
    unsetenv("HEXDG_GAUSS_LINE_LIFTING");
  else
    setenv("HEXDG_GAUSS_LINE_LIFTING", "F", 1);
  double *u = harness_run_copy(base, extra, n);
  unsetenv("HEXDG_GAUSS_LINE_LIFTING");
  assert_non_null(u);
  return u;
}

static void test_gauss_paths_agree_and_reproduce(void **state) {
  (void)state;
  if (!have_gpu()) skip();
  char mesh[1300];
  rotated_mesh_line(mesh, sizeof mesh);
  const char *base[] = {"ProjectName = gpu_ns_gauss_paths",
                        mesh,
                        "N = 5",
                        "NodeType = GAUSS",
                        "BoundaryName = walls",
                        "BoundaryType = (/4,1/)",
                        "IniExactFunc = 1",
                        "RefState = (/1., 0.2, 0.1, 0.05, 0.71428571/)",
                        "mu0 = 0.01",
                        "tend = 1e10",
                        "maxIter = 40",
                        "CalcErrorNorms = F",
                        NULL};
  long n1, n2, n3, n4;
  double *line = gpu_run(base, 1, 1, &n1), *again = gpu_run(base, 1, 1, &n2),
         *nograph = gpu_run(base, 1, 0, &n3), *node = gpu_run(base, 0, 1, &n4);
  assert_true(n1 == n2 && n1 == n3 && n1 == n4);
  assert_int_equal(memcmp(line, again, sizeof(double) * n1), 0);
  assert_int_equal(memcmp(line, nograph, sizeof(double) * n1), 0);
  double d = harness_rel_l2_diff(line, node, n1);
  printf("  N=5 rotated mesh: line kernel runs bitwise identical (graphs on/off); line kernel - "
         "node kernel %.3e\n",
         d);
  assert_true(d <= 1e-12);
  free(line);
  free(again);
  free(nograph);
  free(node);
}

int main(void) {
  harness_scratch_dir("gpu_ns_gauss");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_gauss_line_lifting_every_degree),
      cmocka_unit_test(test_gauss_rotated_mesh_walls),
      cmocka_unit_test(test_gauss_paths_agree_and_reproduce),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  return rc == 0 && gpu_device_count() == 0 ? 77 : rc; /* no GPU: skipped, not passed */
}
