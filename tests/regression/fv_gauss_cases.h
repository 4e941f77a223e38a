/* The cases the tests of FV switching on Gauss nodes share (test_fv_gauss: Euler,
 * test_fv_gauss_visc: Navier-Stokes, tests/gpu/test_gpu_fv_gauss): the conserved integrals, the
 * number of FV elements, a free stream on a curved box and a density wave whose elements switch
 * on a curved periodic box. Include after cmocka.h. */
#ifndef HEXDG_TEST_FV_GAUSS_CASES_H
#define HEXDG_TEST_FV_GAUSS_CASES_H

#include "dg/fv_gauss.h"
#include "harness.h"

static inline int fvg_count_fv(const Solver *s) {
  int n = 0;
  for (int e = 0; e < s->mesh->n_elems; e++)
    n += s->fv.fv_elems[e];
  return n;
}

/* The conserved integrals: sum w J U of DG elements, sum h^3 J_FV U of FV elements. */
static inline void fvg_totals(const Solver *s, double *out) {
  const int np = s->np, n3 = s->n_dof_elem;
  const double h3 = pow(s->fv.gauss->h, 3);
  for (int v = 0; v < s->n_var; v++)
    out[v] = 0.0;
  for (int e = 0; e < s->mesh->n_elems; e++) {
    const double *sJ = fv_elem_sJ(s, e), *w = s->disc.w;
    for (int q = 0; q < n3; q++) {
      const double wq = s->fv.fv_elems[e] ? h3 : w[q % np] * w[(q / np) % np] * w[q / (np * np)];
      for (int v = 0; v < s->n_var; v++)
        out[v] += wq / sJ[q] * s->U[((long)e * s->n_var + v) * n3 + q];
    }
  }
}

/* A free stream on the curved box base + indicator (+ limiter, may be NULL) run to its end:
 * max |U - U_inf|, the number of FV elements and of elements. */
static inline double fvg_freestream_run(const char *const *base, const char *indicator,
                                        const char *limiter, int *n_fv, int *n_elems) {
  const char *extra[] = {indicator,
                         "BoxCurving = 0.1",
                         "NGeo = 3",
                         "IniExactFunc = 1",
                         "RefState = (/1.0, 0.3, -0.2, 0.1, 0.71428571/)",
                         "tend = 0.05",
                         limiter,
                         NULL};
  Simulation *sim = harness_sim(base, extra, NULL);
  assert_non_null(sim);
  assert_non_null(sim->solver->fv.gauss);
  assert_int_equal(simulation_run(sim), HX_OK);
  const double dev = harness_freestream_deviation(sim->solver);
  *n_fv = fvg_count_fv(sim->solver);
  *n_elems = sim->solver->mesh->n_elems;
  printf("  free stream, curved box, mu0 = %g, %s: %d of %d elements FV, %ld steps, "
         "max |U - U_inf| = %.2e\n",
         sim->solver->phys.mu0, indicator, *n_fv, *n_elems, sim->iter, dev);
  simulation_destroy(sim);
  return dev;
}

/* A density wave whose elements switch: FV everywhere until IndStartTime, then Persson's
 * indicator switches elements back to DG (and some again to FV). */
static const char *const FVG_WAVE[] = {"IniExactFunc = 2",
                                       "AdvVel = (/0.6, 0.3, 0.2/)",
                                       "IndicatorType = persson",
                                       "IndVar = 1",
                                       "IndStartTime = 0.02",
                                       "FV_IndUpperThreshold = -2.4",
                                       "FV_IndLowerThreshold = -2.5",
                                       "tend = 0.1",
                                       NULL};

/* Run sim to its end: the largest relative change of a conserved integral; n_fv: FV elements at
 * the end. */
static inline double fvg_conserved_change(Simulation *sim, int *n_fv) {
  const Solver *s = sim->solver;
  double t0[HX_NVAR], t1[HX_NVAR];
  fvg_totals(s, t0);
  assert_int_equal(simulation_run(sim), HX_OK);
  fvg_totals(s, t1); /* simulation_run ends with the state and FV_Elems on the host */
  double worst = 0.0;
  for (int v = 0; v < HX_NVAR; v++)
    worst = fmax(worst, fabs(t1[v] - t0[v]) / fmax(fabs(t0[v]), 1.0));
  *n_fv = fvg_count_fv(s);
  return worst;
}

/* FVG_WAVE on the periodic curved box base (+ limiter, may be NULL): the largest relative change
 * of a conserved integral; n_fv: FV elements at the end. */
static inline double fvg_conservation_run(const char *const *base, const char *limiter, int *n_fv,
                                          int *n_elems) {
  const char *extra[16] = {"BoxCurving = 0.1", "NGeo = 3"};
  int n = 2;
  for (int k = 0; FVG_WAVE[k]; k++)
    extra[n++] = FVG_WAVE[k];
  extra[n++] = limiter;
  extra[n] = NULL;
  Simulation *sim = harness_sim(base, extra, NULL);
  assert_non_null(sim);
  const double worst = fvg_conserved_change(sim, n_fv);
  *n_elems = sim->solver->mesh->n_elems;
  printf("  density wave, mu0 = %g, switching on a curved periodic box: %ld steps, %d of %d "
         "elements FV at the end, largest change of an integral %.2e\n",
         sim->solver->phys.mu0, sim->iter, *n_fv, *n_elems, worst);
  simulation_destroy(sim);
  return worst;
}

/* The free stream stays to round-off with every element FV and on an FV/DG checkerboard; the
 * density wave's integrals stay to round-off while its elements switch, FV and DG mixed at the
 * end. */
static inline void fvg_assert_freestream_and_conservation(const char *const *base,
                                                          const char *limiter) {
  int n_fv, n;
  assert_true(fvg_freestream_run(base, "IndicatorType = fv", limiter, &n_fv, &n) < 1e-12);
  assert_int_equal(n_fv, n);
  assert_true(fvg_freestream_run(base, "IndicatorType = checkerboard", limiter, &n_fv, &n) < 1e-12);
  assert_true(n_fv > 0 && n_fv < n);
  assert_true(fvg_conservation_run(base, limiter, &n_fv, &n) < 1e-13);
  assert_true(n_fv > 0 && n_fv < n); /* mixed, switching acted */
}

#endif
