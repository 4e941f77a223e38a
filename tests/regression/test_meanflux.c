/* CalcMeanFlux. (1) A uniform free stream through a curved channel (x faces: exact-function BCs,
 * y and z periodic): the mass flux through x- is -rho u A and through x+ is +rho u A, the
 * x-momentum flux +-(rho u^2 + p) A and the energy flux +-(rho E + p) u A (the faces span the
 * periodic cross section, so int n dA = (A, 0, 0) on each). (2) DG conserves: for any state the
 * volume integral of dU/dt equals minus the summed boundary fluxes of every variable, to
 * round-off. (3) A run writes <ProjectName>_MeanFlux_<BC>.csv with the columns of the header. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "analysis/meanflux.h"
#include "harness.h"
#include "physics/eos.h"

static const char *const CHANNEL[] = {"ProjectName = meanflux",
                                      "MeshFile = box",
                                      "BoxElems = (/3,2,2/)",
                                      "BoxLower = (/0.,0.,0./)",
                                      "BoxUpper = (/2.,1.5,0.5/)",
                                      "NGeo = 3",
                                      "BoxCurving = 0.05",
                                      "BoxPeriodic = (/F,T,T/)",
                                      "N = 3",
                                      "NodeType = GAUSS-LOBATTO",
                                      "SplitDG = PI",
                                      "IniExactFunc = 1",
                                      "RefState = (/1.2, 0.5, 0.1, -0.05, 1.3/)",
                                      "tend = 1",
                                      "maxIter = 2",
                                      "CalcErrorNorms = F",
                                      "Backend = cpu",
                                      "CalcMeanFlux = T",
                                      NULL};

static void boundary_fluxes(Solver *s, double *vals) {
  prolong_to_face(s, s->U);
  fill_flux_range(s, 0.0, 0, s->mesh->n_bc_sides);
  assert_int_equal(meanflux_compute(s, vals), HX_OK);
}

static void test_free_stream_fluxes_are_exact(void **state) {
  (void)state;
  Simulation *sim = harness_sim(CHANNEL, NULL, NULL);
  assert_non_null(sim);
  Solver *s = sim->solver;
  const int nc = 1 + s->n_var;
  double *vals = calloc((size_t)s->mesh->n_bcs * nc, sizeof(double));
  boundary_fluxes(s, vals);
  const double *pr = s->exact.ref_prim[0], area = 1.5 * 0.5;
  double u[HX_NVAR];
  prim_to_cons(&s->phys, pr, u);
  const double exact[HX_NVAR] = {u[DENS] * pr[VEL1], u[MOM1] * pr[VEL1] + pr[PRES],
                                 u[MOM2] * pr[VEL1], u[MOM3] * pr[VEL1],
                                 (u[ENER] + pr[PRES]) * pr[VEL1]};
  double err = 0.0;
  for (int side = 0; side < 2; side++) {
    const double *v = &vals[nc * harness_bc_index(s->mesh, side ? "BC_xplus" : "BC_xminus")];
    double sign = side ? 1.0 : -1.0;
    err = fmax(err, fabs(v[0] - area) / area);
    for (int iv = 0; iv < HX_NVAR; iv++)
      err = fmax(err, fabs(v[1 + iv] - sign * exact[iv] * area) / fabs(exact[ENER] * area));
    printf("  %s: area %.15f, mass flux %.15e (exact %.15e)\n", side ? "BC_xplus" : "BC_xminus",
           v[0], v[1], sign * exact[DENS] * area);
  }
  printf("  free stream: largest relative error of the mean fluxes %.3e\n", err);
  assert_true(err < 1e-12);
  free(vals);
  simulation_destroy(sim);
}

static void test_volume_change_equals_boundary_flux(void **state) {
  (void)state;
  Simulation *sim = harness_sim(CHANNEL, NULL, NULL);
  assert_non_null(sim);
  Solver *s = sim->solver;
  const long n3 = s->n_dof_elem;
  for (long e = 0; e < s->mesh->n_elems; e++) /* a smooth non-uniform state */
    for (long q = 0; q < n3; q++) {
      const double *x = &s->geo.elem_x[3 * n3 * e];
      double prim[HX_NPRIM] = {1.2 + 0.1 * sin(3.0 * x[q]) * cos(2.0 * x[n3 + q]),
                               0.5 + 0.1 * cos(x[q] + x[2 * n3 + q]),
                               0.1 * sin(2.0 * x[n3 + q]),
                               -0.05,
                               1.3 + 0.2 * cos(2.0 * x[q]),
                               0.0},
             u[HX_NVAR];
      prim_to_cons(&s->phys, prim, u);
      for (int v = 0; v < HX_NVAR; v++)
        s->U[(e * s->n_var + v) * n3 + q] = u[v];
    }
  dg_time_derivative(s, s->U, s->Ut, 0.0);
  double dint[HX_NVAR] = {0},
         *vals = calloc((size_t)s->mesh->n_bcs * (1 + s->n_var), sizeof(double));
  const int np = s->np;
  for (long e = 0; e < s->mesh->n_elems; e++)
    for (long q = 0; q < n3; q++) {
      double w = s->disc.w[q % np] * s->disc.w[(q / np) % np] * s->disc.w[q / (np * np)] /
                 s->geo.sJ[e * n3 + q];
      for (int v = 0; v < HX_NVAR; v++)
        dint[v] += w * s->Ut[(e * s->n_var + v) * n3 + q];
    }
  boundary_fluxes(s, vals);
  double err = 0.0;
  for (int v = 0; v < HX_NVAR; v++) {
    double out = 0.0;
    for (int b = 0; b < s->mesh->n_bcs; b++)
      out += vals[(1 + s->n_var) * b + 1 + v];
    printf("  var %d: d/dt int U dV %.15e, -sum of boundary fluxes %.15e\n", v, dint[v], -out);
    err = fmax(err, fabs(dint[v] + out) / fmax(fabs(out), 1.0));
  }
  assert_true(err < 1e-12);
  free(vals);
  simulation_destroy(sim);
}

static void test_run_writes_meanflux_csv(void **state) {
  (void)state;
  remove("meanflux_MeanFlux_BC_xplus.csv");
  Simulation *sim = harness_sim(CHANNEL, NULL, NULL);
  assert_non_null(sim);
  assert_int_equal(simulation_run(sim), HX_OK);
  simulation_destroy(sim);
  FILE *f = fopen("meanflux_MeanFlux_BC_xplus.csv", "r");
  assert_non_null(f);
  char line[1024];
  assert_non_null(fgets(line, sizeof line, f));
  assert_string_equal(line,
                      "time,Area,MassFlux,MomentumFluxX,MomentumFluxY,MomentumFluxZ,EnergyFlux\n");
  int rows = 0;
  double v[7];
  while (fgets(line, sizeof line, f))
    rows += sscanf(line, "%lf,%lf,%lf,%lf,%lf,%lf,%lf", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
                   &v[6]) == 7;
  fclose(f);
  assert_int_equal(rows, 2); /* the start and the stop after maxIter */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_free_stream_fluxes_are_exact),
      cmocka_unit_test(test_volume_change_equals_boundary_flux),
      cmocka_unit_test(test_run_writes_meanflux_csv),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
