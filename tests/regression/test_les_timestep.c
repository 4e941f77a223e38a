/* The viscous (DFL) time step with an eddy viscosity: a Taylor-Green vortex (4^3 elements of
 * edge h = pi/2, N = 3, Gauss-Lobatto) with a Smagorinsky constant so large that mu_t >> mu.
 * The test evaluates the bound itself from the lifted velocity gradients of the start state:
 * mu_t = rho (CS Delta)^2 sqrt(2 S_ij S_ij) with Delta = h / (N + 1) (the element volume is h^3),
 * per element its largest value (FLEXI's muSGSMax), per node the largest diffusivity
 * max(4/3 (mu + mu_t), kappa (mu/Pr + mu_t/PrSGS)) / rho, and sJ |Ja^d| = 2/h in each direction
 * of the affine box, so lambda_v(e) = 3 (2/h)^2 max_nodes(coeff) and dt = factor / max_e lambda_v.
 * It must equal the solver's dt and be far below the dt without a model (mu_t ignored), and the
 * run with that dt must stay admissible. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "dg/eddyvisc.h"
#include "harness.h"
#include "time/timedisc.h"

#define CS_LARGE 4.0
#define PR_SGS 0.6

static const char *const TGV[] = {"ProjectName = les_dt",
                                  "MeshFile = box",
                                  "BoxElems = (/4,4,4/)",
                                  "BoxLower = (/0.,0.,0./)",
                                  "BoxUpper = (/2*pi,2*pi,2*pi/)",
                                  "BoxPeriodic = (/T,T,T/)",
                                  "N = 3",
                                  "NodeType = GAUSS-LOBATTO",
                                  "TestCase = taylorgreenvortex",
                                  "TGVVersion = 2",
                                  "MachNumber = 0.1",
                                  "IniExactFunc = 0",
                                  "R = 71.42857142857143",
                                  "mu0 = 6.25e-4",
                                  "Pr = 0.71",
                                  "PrSGS = 0.6",
                                  "CFLscale = 0.7",
                                  "DFLscale = 0.9",
                                  "tend = 1e10",
                                  "CalcErrorNorms = F",
                                  "Backend = cpu",
                                  "CS = 4.0",
                                  NULL};

/* The test's own DFL bound of the current state from the solver's lifted gradients. */
static double expected_viscous_dt(const Simulation *sim, double *mu_t_largest) {
  const Solver *s = sim->solver;
  const int n3 = s->n_dof_elem, N = s->disc.N;
  const double h = HX_PI / 2.0, delta = h / (N + 1), c2 = CS_LARGE * CS_LARGE * delta * delta;
  const double mu = s->phys.mu0, kappa = s->phys.kappa, Pr = 0.71;
  double lv_max = 0.0;
  *mu_t_largest = 0.0;
  for (int e = 0; e < s->mesh->n_elems; e++) {
    const double *U = &s->U[(long)e * HX_NVAR * n3], *g = &s->grad[(long)e * HX_NGRAD * n3];
    double mu_t = 0.0;
    for (int n = 0; n < n3; n++) {
      double du[3][3], ss = 0.0; /* du[i][j] = d u_i / d x_j */
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
          du[i][j] = g[(j * HX_NLIFT + LIFT_VEL1 + i) * n3 + n];
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
          ss += 0.25 * (du[i][j] + du[j][i]) * (du[i][j] + du[j][i]);
      mu_t = fmax(mu_t, U[n] * c2 * sqrt(2.0 * ss));
    }
    *mu_t_largest = fmax(*mu_t_largest, mu_t);
    double coeff = 0.0;
    for (int n = 0; n < n3; n++) {
      double diff = fmax(4.0 / 3.0 * (mu + mu_t), kappa * (mu / Pr + mu_t / PR_SGS)) / U[n];
      coeff = fmax(coeff, diff);
    }
    lv_max = fmax(lv_max, 3.0 * (2.0 / h) * (2.0 / h) * coeff);
  }
  return timedisc_viscous_factor(s, sim->td.rk, 0.9) / lv_max;
}

static double start_dt(const char *model, double *expected, double *mu_t_largest) {
  char key[64];
  snprintf(key, sizeof key, "eddyViscType = %s", model);
  const char *extra[] = {key, NULL};
  Simulation *sim = harness_sim(TGV, extra, NULL);
  assert_non_null(sim);
  if (expected) *expected = expected_viscous_dt(sim, mu_t_largest);
  double dt = timedisc_calc_dt(sim->solver, &sim->td);
  simulation_destroy(sim);
  return dt;
}

static void test_dt_with_eddy_viscosity(void **state) {
  (void)state;
  double expected, mu_t;
  double dt_les = start_dt("smagorinsky", &expected, &mu_t);
  double dt_none = start_dt("none", NULL, NULL);
  double rel = fabs(dt_les - expected) / expected;
  printf("  largest mu_t %.4e (mu0 6.25e-4): dt %.10e, bound evaluated here %.10e (relative "
         "%.1e); dt without a model %.6e\n",
         mu_t, dt_les, expected, rel, dt_none);
  assert_true(mu_t > 100.0 * 6.25e-4);
  assert_true(rel < 1e-13);
  assert_true(dt_les < 0.5 * dt_none); /* the bound with mu_t is the one that acts */
}

/* After the first step the bound comes from the stages' mu_t: the run stays admissible (with
 * the molecular bound alone, this case leaves the admissible states in its second step). */
static void test_run_stable(void **state) {
  (void)state;
  const char *extra[] = {"eddyViscType = smagorinsky", "maxIter = 40", NULL};
  Simulation *sim = harness_sim(TGV, extra, NULL);
  assert_non_null(sim);
  double mu_t;
  const double dt0 = expected_viscous_dt(sim, &mu_t);
  assert_int_equal(simulation_run(sim), HX_OK);
  double rho_min, p_min;
  harness_min_rho_p(sim->solver, &rho_min, &p_min);
  printf("  40 steps to t = %.6f (first dt %.4e), min rho %.6f, min p %.4f\n", sim->t, dt0, rho_min,
         p_min);
  assert_true(sim->iter == 40);
  assert_true(rho_min > 0.9 && p_min > 0.0);
  simulation_destroy(sim);
}

int main(void) {
  harness_scratch_dir("les_timestep");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dt_with_eddy_viscosity),
      cmocka_unit_test(test_run_stable),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
