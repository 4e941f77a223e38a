/* Free stream on unstructured curved meshes read from files: a HOPR file written by hexdg itself
 * (curved NGeo = 4 box), the HOPR meshes of ../shared/data (when present) and the gmsh test meshes
 * of tests/data (orders 1-4, periodic, unstructured with rotated elements, binary): after 40 steps
 * max |U - U_inf| < 1e-12 for the weak form (GAUSS) and the split form (PI, GAUSS-LOBATTO). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "harness.h"
#include "mesh/hopr.h"

static char data_dir[1024];

static void freestream_on(const char *mesh, const char *extra_bc, const char *label) {
  char file[1200];
  snprintf(file, sizeof file, "MeshFile = %s", mesh);
  const char *base[] = {"ProjectName = meshes", file, "IniExactFunc = 1",
                        "RefState = (/1.2, 0.4, -0.3, 0.25, 0.9/)", "tend = 100.", "maxIter = 40",
                        "CalcErrorNorms = F", "Backend = cpu", "N = 3", NULL};
  const char *variants[][4] = {{"NodeType = GAUSS", extra_bc, NULL, NULL},
                               {"NodeType = GAUSS-LOBATTO", "SplitDG = PI", extra_bc, NULL}};
  for (int v = 0; v < 2; v++) {
    Simulation *sim = harness_sim(base, variants[v], NULL);
    assert_non_null(sim);
    const Solver *s = sim->solver;
    assert_int_equal(simulation_run(sim), HX_OK);
    double dev = harness_freestream_deviation(s);
    printf("  %-34s %-14s %5d elements NGeo %d: max|U-Uinf| = %.3e\n", label,
           v ? "split PI LGL" : "weak GAUSS", s->mesh->n_elems, s->mesh->NGeo, dev);
    assert_true(dev < 1e-12);
    simulation_destroy(sim);
  }
}

static void test_hopr_written_by_hexdg(void **state) {
  (void)state;
  BoxSpec b = {{3, 2, 3}, {0, 0, 0}, {1, 2, 1.5}, {1, 0, 1}, 4, 0.08};
  Mesh *m = NULL;
  assert_int_equal(mesh_create_box(&b, &m), HX_OK);
  assert_int_equal(mesh_write_hopr(m, "curvedbox_mesh.h5"), HX_OK);
  mesh_destroy(m);
  freestream_on("curvedbox_mesh.h5", NULL, "HOPR (hexdg), curved NGeo 4");
}

static void test_hopr_reference_meshes(void **state) {
  (void)state;
  const char *names[] = {"CART_HEX_PERIODIC_004_3D_mesh.h5", "cartbox3D_mesh.h5"};
  char path[1400];
  snprintf(path, sizeof path, "%s/../../../shared/data/hopr_meshes/%s", data_dir, names[0]);
  if (access(path, R_OK) != 0) {
    printf("  ../shared/data/hopr_meshes not found: HOPR reference meshes skipped\n");
    skip();
  }
  for (int i = 0; i < 2; i++) {
    snprintf(path, sizeof path, "%s/../../../shared/data/hopr_meshes/%s", data_dir, names[i]);
    freestream_on(path, NULL, names[i]);
  }
}

static void test_gmsh_meshes(void **state) {
  (void)state;
  const char *names[] = {"gmsh_box_o1.msh", "gmsh_box_o2.msh", "gmsh_box_o3.msh", "gmsh_box_o4.msh",
                         "gmsh_box_periodic_o2.msh", "gmsh_box_periodic_o2_bin.msh",
                         "gmsh_box_unstructured_o2.msh"};
  for (int i = 0; i < 7; i++) {
    char path[1400];
    snprintf(path, sizeof path, "%s/%s", data_dir, names[i]);
    freestream_on(path, NULL, names[i]);
  }
}

int main(void) {
  /* tests/regression/test_meshes.c -> tests/data */
  snprintf(data_dir, sizeof data_dir, "%s", __FILE__);
  char *slash = strrchr(data_dir, '/');
  if (slash) *slash = 0;
  strncat(data_dir, "/../data", sizeof data_dir - strlen(data_dir) - 1);
  harness_scratch_dir("meshes");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hopr_written_by_hexdg),
      cmocka_unit_test(test_hopr_reference_meshes),
      cmocka_unit_test(test_gmsh_meshes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
