/* Characteristic inflow/outflow boundaries (FLEXI's 23, 24, 25, 27) on the box, set with
 * BoundaryName/BoundaryType:
 * - a uniform free stream through exact inflow at x- and an outflow with matching data at x+
 *   (23: Mach number, 25: pressure) stays uniform to round-off for 40 steps, Euler and viscous;
 * - so does a free stream through a total-pressure/total-temperature inflow (27) whose RefState
 *   holds the free stream's own totals and flow angles, with 24 or 25 at the outflow;
 * - a channel at rest between a reservoir (27: Tt, pt) and a back pressure p_b (24 or 25) settles
 *   to the uniform isentropic flow with (pt/p_b)^((kappa-1)/kappa) = 1 + (kappa-1)/2 M^2;
 * - a missing RefState for 23 or 27 is a clear error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "harness.h"

#define KAPPA 1.4
#define R_GAS 287.058

/* Free stream of RefState 1: rho, velocity, p. */
static const double RHO = 1.1, VEL[3] = {0.3, 0.1, 0.05}, PRES_FS = 0.8;

/* Run lines + extra and compare with the uniform state ref (NULL: IniExactFunc at t = 0). */
static double run_and_compare(const char *const *lines, const char *const *extra,
                              const double *ref_in, const char *label) {
  Simulation *sim = harness_sim(lines, extra, NULL);
  assert_non_null(sim);
  double ref[HX_NVAR], x[3] = {0, 0, 0};
  if (ref_in)
    for (int v = 0; v < HX_NVAR; v++)
      ref[v] = ref_in[v];
  else
    exact_func(&sim->solver->exact, &sim->solver->phys, x, 0.0, ref);
  assert_int_equal(simulation_run(sim), HX_OK);
  double dev = harness_max_deviation(sim->solver, ref);
  printf("  %-56s max|U-U*| = %.3e (%ld steps)\n", label, dev, sim->iter);
  simulation_destroy(sim);
  return dev;
}

static double sound_speed_fs(void) {
  return sqrt(KAPPA * PRES_FS / RHO);
}

static void test_outflows_keep_free_stream(void **state) {
  (void)state;
  char free_stream[128], mach_state[128];
  snprintf(free_stream, sizeof free_stream, "RefState = (/%.17g, %.17g, %.17g, %.17g, %.17g/)", RHO,
           VEL[0], VEL[1], VEL[2], PRES_FS);
  /* 23: RefState 2 holds the free stream's normal Mach number at x+ in its u entry */
  snprintf(mach_state, sizeof mach_state, "RefState = (/1., %.17g, 0., 0., 1./)",
           VEL[0] / sound_speed_fs());
  const char *base[] = {"ProjectName = io_outflow",
                        "MeshFile = box",
                        "BoxElems = (/3,2,2/)",
                        "NGeo = 3",
                        "BoxCurving = 0.06",
                        "BoxPeriodic = (/F,T,T/)",
                        "N = 3",
                        "kappa = 1.4",
                        "R = 287.058",
                        "IniExactFunc = 1",
                        free_stream,
                        mach_state,
                        "tend = 10",
                        "maxIter = 40",
                        "CalcErrorNorms = F",
                        "Backend = cpu",
                        "BoundaryName = BC_xplus",
                        NULL};
  const char *mach_euler[] = {"NodeType = GAUSS", "BoundaryType = (/23,2/)", NULL};
  const char *mach_viscous[] = {"NodeType = GAUSS", "mu0 = 0.01", "BoundaryType = (/23,2/)", NULL};
  const char *subsonic_split[] = {"NodeType = GAUSS-LOBATTO", "SplitDG = PI",
                                  "BoundaryType = (/25,1/)", NULL};
  const char *subsonic_viscous[] = {"NodeType = GAUSS", "mu0 = 0.01", "Riemann = HLLC",
                                    "BoundaryType = (/25,1/)", NULL};
  assert_true(run_and_compare(base, mach_euler, NULL, "exact inflow, Mach outflow (23)") < 1e-12);
  assert_true(run_and_compare(base, mach_viscous, NULL,
                              "exact inflow, Mach outflow (23), viscous") < 1e-12);
  assert_true(run_and_compare(base, subsonic_split, NULL,
                              "exact inflow, subsonic outflow (25), split form") < 1e-12);
  assert_true(run_and_compare(base, subsonic_viscous, NULL,
                              "exact inflow, subsonic outflow (25), viscous, HLLC") < 1e-12);
}

/* RefState of 27 from a static state: Tt = T + |v|^2/(2 cp), pt = p (Tt/T)^(kappa/(kappa-1)),
 * angles alpha = atan(v/u), beta = atan(w/u) in degrees (FLEXI: direction ~ (1, tan a, tan b)). */
static void inflow_refstate(double rho, const double vel[3], double p, char *line, size_t size) {
  const double T = p / (rho * R_GAS), cp = KAPPA * R_GAS / (KAPPA - 1.0);
  const double Tt = T + 0.5 * (vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2]) / cp;
  const double pt = p * pow(Tt / T, KAPPA / (KAPPA - 1.0));
  const double alpha = atan(vel[1] / vel[0]) * 180.0 / HX_PI;
  const double beta = atan(vel[2] / vel[0]) * 180.0 / HX_PI;
  snprintf(line, size, "RefState = (/%.17g, %.17g, %.17g, 0., %.17g/)", Tt, alpha, beta, pt);
}

static void test_total_inflow_keeps_free_stream(void **state) {
  (void)state;
  char free_stream[128], totals[128];
  snprintf(free_stream, sizeof free_stream, "RefState = (/%.17g, %.17g, %.17g, %.17g, %.17g/)", RHO,
           VEL[0], VEL[1], VEL[2], PRES_FS);
  inflow_refstate(RHO, VEL, PRES_FS, totals, sizeof totals);
  const char *base[] = {"ProjectName = io_inflow",
                        "MeshFile = box",
                        "BoxElems = (/3,2,2/)",
                        "NGeo = 3",
                        "BoxCurving = 0.06",
                        "BoxPeriodic = (/F,T,T/)",
                        "N = 3",
                        "kappa = 1.4",
                        "R = 287.058",
                        "IniExactFunc = 1",
                        free_stream,
                        totals,
                        "tend = 10",
                        "maxIter = 40",
                        "CalcErrorNorms = F",
                        "Backend = cpu",
                        "BoundaryName = BC_xminus",
                        "BoundaryType = (/27,2/)",
                        "BoundaryName = BC_xplus",
                        NULL};
  const char *euler[] = {"NodeType = GAUSS-LOBATTO", "SplitDG = KG", "BoundaryType = (/25,1/)",
                         NULL};
  const char *viscous[] = {"NodeType = GAUSS", "mu0 = 0.01", "BoundaryType = (/24,1/)", NULL};
  assert_true(run_and_compare(base, euler, NULL, "total inflow (27), subsonic outflow (25)") <
              1e-12);
  assert_true(run_and_compare(base, viscous, NULL,
                              "total inflow (27), pressure outflow (24), viscous") < 1e-12);
}

/* Uniform isentropic flow from the reservoir (Tt, pt) to the back pressure p_b along x. */
static void channel_state(double Tt, double pt, double p_b, double *U) {
  const double mach2 = 2.0 / (KAPPA - 1.0) * (pow(pt / p_b, (KAPPA - 1.0) / KAPPA) - 1.0);
  const double T = Tt / (1.0 + 0.5 * (KAPPA - 1.0) * mach2);
  const double rho = p_b / (R_GAS * T), u = sqrt(mach2 * KAPPA * R_GAS * T);
  U[DENS] = rho;
  U[MOM1] = rho * u;
  U[MOM2] = U[MOM3] = 0.0;
  U[ENER] = p_b / (KAPPA - 1.0) + 0.5 * rho * u * u;
}

static void test_reservoir_to_back_pressure(void **state) {
  (void)state;
  const double Tt = 1.0 / R_GAS, pt = 1.0, p_b = 0.9; /* Tt: c_t = sqrt(kappa) */
  char rest[128], reservoir[128], back[128];
  snprintf(rest, sizeof rest, "RefState = (/%.17g, 0., 0., 0., %.17g/)", p_b / (R_GAS * Tt), p_b);
  snprintf(reservoir, sizeof reservoir, "RefState = (/%.17g, 0., 0., 0., %.17g/)", Tt, pt);
  snprintf(back, sizeof back, "RefState = (/1., 0., 0., 0., %.17g/)", p_b);
  const char *base[] = {"ProjectName = io_channel",
                        "MeshFile = box",
                        "BoxElems = (/4,1,1/)",
                        "BoxPeriodic = (/F,T,T/)",
                        "N = 3",
                        "NodeType = GAUSS",
                        "kappa = 1.4",
                        "R = 287.058",
                        "IniExactFunc = 1",
                        rest,
                        reservoir,
                        back,
                        "tend = 80",
                        "Analyze_dt = 1000",
                        "CalcErrorNorms = F",
                        "Backend = cpu",
                        "BoundaryName = BC_xminus",
                        "BoundaryType = (/27,2/)",
                        "BoundaryName = BC_xplus",
                        NULL};
  const char *pressure[] = {"BoundaryType = (/24,3/)", NULL};
  const char *subsonic[] = {"Riemann = HLLC", "BoundaryType = (/25,3/)", NULL};
  double U[HX_NVAR];
  channel_state(Tt, pt, p_b, U);
  assert_true(run_and_compare(base, pressure, U, "reservoir (27) to back pressure (24), t = 80") <
              1e-6 * U[ENER]);
  assert_true(run_and_compare(base, subsonic, U, "reservoir (27) to back pressure (25), t = 80") <
              1e-6 * U[ENER]);
}

static void test_missing_refstate(void **state) {
  (void)state;
  const char *base[] = {"ProjectName = io_bad",
                        "MeshFile = box",
                        "BoxPeriodic = (/F,T,T/)",
                        "N = 2",
                        "IniExactFunc = 1",
                        "RefState = (/1.,0.1,0.,0.,1./)",
                        "tend = 1",
                        "Backend = cpu",
                        NULL};
  const char *inflow[] = {"BoundaryName = BC_xminus", "BoundaryType = (/27,0/)", NULL};
  const char *mach[] = {"BoundaryName = BC_xplus", "BoundaryType = (/23,2/)", NULL};
  assert_null(harness_sim(base, inflow, NULL));
  assert_null(harness_sim(base, mach, NULL));
}

int main(void) {
  harness_scratch_dir("inflow_outflow");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_outflows_keep_free_stream),
      cmocka_unit_test(test_total_inflow_keeps_free_stream),
      cmocka_unit_test(test_reservoir_to_back_pressure),
      cmocka_unit_test(test_missing_refstate),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
