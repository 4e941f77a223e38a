/* Navier-Stokes with BR1 lifting on the CPU: free stream with viscosity on a curved box stays at
 * round-off; the manufactured solution with mu0 = 0.01 (full Navier-Stokes source term) converges
 * at order >= N + 0.7 for small N on the CPU (split PI on Gauss-Lobatto nodes N = 3, weak form on
 * Gauss nodes N = 1, 2; N = 1..5 run on the GPU in tests/gpu). */
#include "mms.h"


static void test_freestream_with_viscosity(void **state) {
  (void)state;
  const char *base[] = {"ProjectName = ns_freestream", "MeshFile = box", "BoxElems = (/3,2,3/)",
                        "NGeo = 4", "BoxCurving = 0.08", "N = 4", "IniExactFunc = 1",
                        "RefState = (/1.2, 0.4, -0.3, 0.25, 0.9/)", "tend = 10.", "maxIter = 30",
                        "CalcErrorNorms = F", "Backend = cpu", "mu0 = 0.05", NULL};
  const char *variants[][4] = {{"NodeType = GAUSS", NULL, NULL, NULL},
                               {"NodeType = GAUSS-LOBATTO", "SplitDG = PI", NULL, NULL},
                               {"NodeType = GAUSS-LOBATTO", "SplitDG = PI", "BoxPeriodic = (/F,T,F/)", NULL},
                               {"NodeType = GAUSS", "doWeakLifting = F", NULL, NULL},
                               {"NodeType = GAUSS-LOBATTO", "doConservativeLifting = T", NULL, NULL}};
  for (int v = 0; v < 5; v++) {
    Simulation *sim = harness_sim(base, variants[v], NULL);
    assert_non_null(sim);
    assert_int_equal(simulation_run(sim), HX_OK);
    const Solver *s = sim->solver;
    double dev = harness_freestream_deviation(s);
    printf("  free stream with viscosity, %s %s %s: max|U-Uinf| = %.3e\n", variants[v][0],
           variants[v][1] ? variants[v][1] : "", variants[v][2] ? variants[v][2] : "", dev);
    assert_true(dev < 1e-12);
    simulation_destroy(sim);
  }
}

/* The lifting forms on a curved box (NGeo 2, N 4: the metric terms, of degree <= 4 per direction,
 * are exact): a field whose lifting variables are linear in x, y, z is a polynomial of degree
 * NGeo on every element, so the strong non-conservative form
 * (FLEXI's default) lifts its exact gradient to round-off in every element whose faces all see
 * the same linear field (the periodic faces see a jump). Gauss-Lobatto nodes: the face values are
 * nodal values (on Gauss nodes hexdg prolongs the conservative variables, and the energy of a
 * linear velocity field is of degree 2 NGeo > N). On the same affine box the strong and
 * weak forms coincide on Gauss-Lobatto nodes (summation by parts). */
static const double GRAD_LIN[HX_NLIFT][3] = {
    {0.3, -0.2, 0.1}, {0.05, 0.4, -0.25}, {-0.15, 0.1, 0.2}, {0.02, -0.03, 0.04}};

static void set_linear_field(Solver *s) {
  const double *X = s->geo.elem_x;
  int n3 = s->n_dof_elem;
  for (int e = 0; e < s->mesh->n_elems; e++)
    for (int n = 0; n < n3; n++) {
      double x[3], w[HX_NLIFT], prim[HX_NPRIM], u[HX_NVAR];
      for (int c = 0; c < 3; c++) x[c] = X[((long)e * 3 + c) * n3 + n];
      for (int v = 0; v < HX_NLIFT; v++)
        w[v] = (v == LIFT_TEMP ? 3.0 : 0.5) + GRAD_LIN[v][0] * x[0] + GRAD_LIN[v][1] * x[1] +
               GRAD_LIN[v][2] * x[2];
      prim[DENS] = 1.1;
      prim[VEL1] = w[LIFT_VEL1];
      prim[VEL2] = w[LIFT_VEL2];
      prim[VEL3] = w[LIFT_VEL3];
      prim[PRES] = prim[DENS] * s->phys.R * w[LIFT_TEMP];
      prim[TEMP] = w[LIFT_TEMP];
      prim_to_cons(&s->phys, prim, u);
      for (int v = 0; v < HX_NVAR; v++) s->U[((long)e * HX_NVAR + v) * n3 + n] = u[v];
    }
}

static double *lifted_gradients(const char *const *base, const char *extra, int curved_check,
                                long *n_out) {
  const char *ex[] = {extra, NULL};
  Simulation *sim = harness_sim(base, ex, NULL);
  assert_non_null(sim);
  Solver *s = sim->solver;
  set_linear_field(s);
  prolong_to_face(s, s->U);
  lifting(s, s->U, s->Ut, 0.0);
  int n3 = s->n_dof_elem;
  double err = 0.0;
  for (int e = 0; e < s->mesh->n_elems && curved_check; e++) {
    /* the elements away from the periodic faces of the 4^3 box [-1,1]^3: centres near +-0.25 */
    const double *X = &s->geo.elem_x[(long)e * 3 * n3];
    double xc[3] = {0, 0, 0};
    for (int c = 0; c < 3; c++) {
      for (int n = 0; n < n3; n++) xc[c] += X[c * n3 + n] / n3;
    }
    if (fabs(xc[0]) > 0.5 || fabs(xc[1]) > 0.5 || fabs(xc[2]) > 0.5) continue;
    const double *q = &s->grad[(long)e * HX_NGRAD * n3];
    for (int c = 0; c < 3; c++)
      for (int v = 0; v < HX_NLIFT; v++)
        for (int n = 0; n < n3; n++)
          err = fmax(err, fabs(q[(c * HX_NLIFT + v) * n3 + n] - GRAD_LIN[v][c]));
  }
  if (curved_check) {
    printf("  strong non-conservative lifting of a linear field, curved NGeo 2 box: max error "
           "%.3e\n", err);
    assert_true(err < 1e-12);
  }
  *n_out = (long)HX_NGRAD * s->n_dof;
  double *g = malloc(sizeof(double) * *n_out);
  memcpy(g, s->grad, sizeof(double) * *n_out);
  simulation_destroy(sim);
  return g;
}

static void test_lifting_forms(void **state) {
  (void)state;
  const char *curved[] = {"ProjectName = ns_lifting", "MeshFile = box", "BoxElems = (/4,4,4/)",
                          "NGeo = 2", "BoxCurving = 0.04", "N = 4", "IniExactFunc = 1", "RefState = (/1.,0.,0.,0.,1./)",
                          "NodeType = GAUSS-LOBATTO", "tend = 1.", "CalcErrorNorms = F", "Backend = cpu",
                          "mu0 = 0.01", NULL};
  long n;
  free(lifted_gradients(curved, "doWeakLifting = F", 1, &n));
  const char *affine[] = {"ProjectName = ns_lifting", "MeshFile = box", "BoxElems = (/3,2,2/)",
                          "N = 4", "IniExactFunc = 1", "RefState = (/1.,0.,0.,0.,1./)", "NodeType = GAUSS-LOBATTO",
                          "tend = 1.", "CalcErrorNorms = F", "Backend = cpu", "mu0 = 0.01", NULL};
  const char *forms[] = {"doWeakLifting = T", "doConservativeLifting = T", "doWeakLifting = F"};
  double *g0 = lifted_gradients(affine, forms[0], 0, &n);
  for (int f = 1; f < 3; f++) {
    long m;
    double *g = lifted_gradients(affine, forms[f], 0, &m);
    double d = 0.0, ref = 0.0;
    for (long i = 0; i < n; i++) {
      d = fmax(d, fabs(g[i] - g0[i]));
      ref = fmax(ref, fabs(g0[i]));
    }
    printf("  affine box, Gauss-Lobatto: '%s' vs weak lifting: max difference %.3e (max %.3e)\n",
           forms[f], d, ref);
    assert_true(d <= 1e-12 * ref);
    free(g);
  }
  free(g0);
}

static void test_mms_split_pi(void **state) {
  (void)state;
  const char *extra[] = {"mu0 = 0.01", "Backend = cpu", NULL};
  const MmsSeries m = {"GAUSS-LOBATTO", "PI", extra, 3, 3, 0.7};
  convergence_series(&m);
}

static void test_mms_weak_gauss(void **state) {
  (void)state;
  const char *extra[] = {"mu0 = 0.01", "Backend = cpu", NULL};
  const MmsSeries m = {"GAUSS", NULL, extra, 1, 2, 0.7};
  convergence_series(&m);
}

int main(void) {
  harness_scratch_dir("ns_operator");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_freestream_with_viscosity),
      cmocka_unit_test(test_lifting_forms),
      cmocka_unit_test(test_mms_split_pi),
      cmocka_unit_test(test_mms_weak_gauss),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
