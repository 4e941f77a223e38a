/* FLEXI's 2-D meshes (one element layer in z, periodic or symmetry z faces) run in 3-D: a
 * z-uniform flow (w = 0) stays z-uniform to round-off, as in FLEXI's 2-D builds where z fluxes do
 * not exist: built-in one-layer boxes with a Shu vortex (viscous and inviscid with periodic z
 * faces, inviscid with slip walls, BC type 9, on the z faces), and the 2-D meshes of FLEXI's
 * checks (loaded, 3 steps, w stays 0) when ../shared is present. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"

static const char *const VORTEX[] = {"ProjectName = mesh2d",
                                     "MeshFile = box",
                                     "BoxElems = (/4,4,1/)",
                                     "BoxLower = (/-5.,-5.,-0.5/)",
                                     "BoxUpper = (/5.,5.,0.5/)",
                                     "N = 3",
                                     "IniExactFunc = 7",
                                     "RefState = (/1.,1.,0.5,0.,2.667/)",
                                     "IniAxis = (/0.,0.,1./)",
                                     "IniHalfwidth = 1.0",
                                     "IniAmplitude = 0.2",
                                     "mu0 = 0.002",
                                     "CFLscale = 0.8",
                                     "DFLscale = 0.4",
                                     "tend = 0.3",
                                     "CalcErrorNorms = F",
                                     "Backend = cpu",
                                     NULL};

/* max over nodes of |U(i,j,k) - U(i,j,0)| (each element's z layers) and of |rho w|. */
static void z_deviation(const Solver *s, double *dz, double *mw) {
  const int np = s->np, n3 = s->n_dof_elem;
  *dz = 0.0;
  *mw = 0.0;
  for (int e = 0; e < s->mesh->n_elems; e++) {
    const double *U = &s->U[(long)e * s->n_var * n3];
    for (int v = 0; v < s->n_var; v++)
      for (int q = 0; q < n3; q++) {
        const int q0 = q % (np * np); /* the node below in the k = 0 layer */
        *dz = fmax(*dz, fabs(U[v * n3 + q] - U[v * n3 + q0]));
        if (v == 3) *mw = fmax(*mw, fabs(U[v * n3 + q]));
      }
  }
}

/* The built-in box is axis-aligned: the element's k direction is z, so layers are k-planes. */
static double run_box(const char *z_faces, const char *mu0, const char *const *extra_bc) {
  const char *extra[8] = {z_faces, mu0, NULL};
  for (int i = 0; extra_bc && extra_bc[i]; i++)
    extra[i + 2] = extra_bc[i], extra[i + 3] = NULL;
  Simulation *sim = harness_sim(VORTEX, extra, NULL);
  assert_non_null(sim);
  assert_int_equal(simulation_run(sim), HX_OK);
  double dz, mw;
  z_deviation(sim->solver, &dz, &mw);
  printf("  one-layer box, %s, %s: %ld steps, max |U - U(z layer 0)| = %.2e, max |rho w| = %.2e\n",
         z_faces, mu0, sim->iter, dz, mw);
  simulation_destroy(sim);
  return fmax(dz, mw);
}

static void test_one_layer_box_stays_z_uniform(void **state) {
  (void)state;
  harness_scratch_dir("mesh2d_box");
  assert_true(run_box("BoxPeriodic = (/T,T,T/)", "mu0 = 0.002", NULL) < 1e-12);
  assert_true(run_box("BoxPeriodic = (/T,T,T/)", "mu0 = 0.", NULL) < 1e-12);
  const char *const slip[] = {"BoundaryName = BC_zminus", "BoundaryType = (/9,0/)",
                              "BoundaryName = BC_zplus", "BoundaryType = (/9,0/)", NULL};
  assert_true(run_box("BoxPeriodic = (/T,T,F/)", "mu0 = 0.", slip) < 1e-12);
  /* viscous slip walls: the wall takes no viscous normal stress while tau_zz = -2/3 mu div(u) is
   * not zero inside, so z-uniformity holds only to O(mu) (measured 1.4e-6): not asserted; FLEXI's
   * 2-D meshes have periodic z faces (docs/flexi_parameters.md) */
  run_box("BoxPeriodic = (/T,T,F/)", "mu0 = 0.002", slip);
}

/* The 2-D meshes of FLEXI's checks load and run a few steps (first values of their lists). */
static void test_flexi_2d_meshes_run(void **state) {
  (void)state;
  static const char *const meshes[] = {"parabolic/cavity_2D/cavity4x4_mesh.h5",
                                       "fv_blend/sod/SOD_100_mesh.h5", "fv_blend/dmr/DMR_mesh.h5",
                                       "preconditioner/shu_2d/CART_HEX_PERIODIC_008_mesh.h5",
                                       "channelRANS/N4/CHANNEL_016_2D_mesh.h5"};
  char path[1024];
  snprintf(path, sizeof path, "%s/../shared/data/flexi_regressioncheck/checks/%s", HEXDG_SOURCE_DIR,
           meshes[0]);
  if (access(path, R_OK) != 0) {
    printf("skipped: %s is absent (FLEXI's checks, ../shared/data)\n", path);
    skip();
  }
  harness_scratch_dir("mesh2d_flexi");
  for (size_t i = 0; i < sizeof meshes / sizeof meshes[0]; i++) {
    char mesh_line[1100];
    snprintf(path, sizeof path, "%s/../shared/data/flexi_regressioncheck/checks/%s",
             HEXDG_SOURCE_DIR, meshes[i]);
    snprintf(mesh_line, sizeof mesh_line, "MeshFile = %s", path);
    const char *const base[] = {"ProjectName = flexi2d",
                                mesh_line,
                                "N = 2",
                                "IniExactFunc = 1",
                                "RefState = (/1.,0.3,0.2,0.,1./)",
                                "RefState = (/1.,0.3,0.2,0.,1./)",
                                "mu0 = 0.001",
                                "tend = 1.",
                                "maxIter = 3",
                                "CalcErrorNorms = F",
                                "Backend = cpu",
                                NULL};
    Simulation *sim = harness_sim(base, NULL, NULL);
    assert_non_null(sim);
    assert_int_equal(simulation_run(sim), HX_OK);
    double dz, mw;
    z_deviation(sim->solver, &dz, &mw);
    printf("  %s: %d elements, %ld steps, max |rho w| = %.2e\n", meshes[i],
           sim->solver->mesh->n_elems, sim->iter, mw);
    assert_int_equal(sim->iter, 3);
    assert_true(mw < 1e-12);
    simulation_destroy(sim);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_one_layer_box_stays_z_uniform),
      cmocka_unit_test(test_flexi_2d_meshes_run),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
