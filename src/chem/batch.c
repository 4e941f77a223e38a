/* Host drivers of the reactor integrators (Radau5, RODAS): OpenMP batches and one reactor with
 * history. */
#include "chem/batch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chem/reactor.h"
#include "core/error.h"

/* ---- the integrator chosen by name (both keep their state in a stride-1 workspace) ---- */

static const char *integrator_name(int integ) {
  return integ == CHEM_INTEGRATOR_RODAS ? "RODAS" : "Radau5";
}

static int integrator_check(int integ) {
  if (integ == CHEM_INTEGRATOR_RADAU5 || integ == CHEM_INTEGRATOR_RODAS) return HX_OK;
  return HX_ERROR(HX_ERR_INPUT,
                  "chemistry: unknown integrator %d (CHEM_INTEGRATOR_RADAU5 = 0 or "
                  "CHEM_INTEGRATOR_RODAS = 1)",
                  integ);
}

static size_t integ_ws_doubles(int integ, const ChemMech *m) {
  return integ == CHEM_INTEGRATOR_RODAS ? rodas_ws_doubles(m) : radau5_ws_doubles(m);
}

/* initialises and returns the status */
static int integ_init(int integ, const ChemMech *m, int mode, double par, double tend,
                      const double *y0, double *ws, const ChemIntegratorOptions *o) {
  if (integ == CHEM_INTEGRATOR_RODAS) {
    rodas_init(m, mode, par, 0.0, tend, y0, 1, ws, 1, o);
    return chem_ws_status(ws, 1);
  }
  radau5_init(m, mode, par, 0.0, tend, y0, 1, ws, 1, o);
  return chem_ws_status(ws, 1);
}

static int integ_advance(int integ, const ChemMech *m, int mode, double par, int max_steps_now,
                         double *ws, const ChemIntegratorOptions *o) {
  if (integ == CHEM_INTEGRATOR_RODAS) return rodas_advance(m, mode, par, max_steps_now, ws, 1, o);
  return radau5_advance(m, mode, par, max_steps_now, ws, 1, o);
}

static double *integ_y(int integ, const ChemMech *m, double *ws) {
  return integ == CHEM_INTEGRATOR_RODAS ? rodas_y(m, ws, 1) : radau5_y(m, ws, 1);
}

/* One cell: gather its column of the species-major state, integrate, scatter back. */
static int batch_cell(const ChemMech *m, int integ, int mode, long n_cells, long c, double *y,
                      double par, double dt, const ChemIntegratorOptions *o, double *ws,
                      double *ycell, int *steps, double *t_reached) {
  int n = m->n_species + 1;
  for (int i = 0; i < n; i++)
    ycell[i] = y[(size_t)i * n_cells + c];
  int st = integ_init(integ, m, mode, par, dt, ycell, ws, o);
  while (st == CHEM_ACTIVE)
    st = integ_advance(integ, m, mode, par, 1 << 20, ws, o);
  const double *yw = integ_y(integ, m, ws);
  for (int i = 0; i < n; i++)
    y[(size_t)i * n_cells + c] = yw[i];
  *steps = (int)chem_ws_steps(ws, 1);
  *t_reached = chem_ws_time(ws, 1);
  return st;
}

static void report_failure(const ChemMech *m, long n_cells, const double *y, long c, int st,
                           double t, double dt, long n_failed) {
  int kmax = 0;
  for (int k = 1; k < m->n_species; k++)
    if (y[(size_t)(k + 1) * n_cells + c] > y[(size_t)(kmax + 1) * n_cells + c]) kmax = k;
  HX_ERROR(HX_ERR_NUMERIC,
           "chemistry integration failed in %ld of %ld cells; first: cell %ld (%s) at t = %.6e of "
           "%.6e s, T = %.6g K, largest species %s (Y = %.4g), mechanism %s. Try a smaller flow "
           "time step, looser rtol/atol or a larger step cap",
           n_failed, n_cells, c, chem_status_name(st), t, dt, y[c],
           m->species_names ? m->species_names[kmax] : "?", y[(size_t)(kmax + 1) * n_cells + c],
           m->path);
}

int chem_batch_integrate(const ChemMech *m, int mode, long n_cells, double *y, const double *par,
                         double dt, const ChemIntegratorOptions *o, int *status, int *steps,
                         double *t_reached) {
  return chem_batch_integrate_with(m, CHEM_INTEGRATOR_RADAU5, mode, n_cells, y, par, dt, o, status,
                                   steps, t_reached);
}

int chem_batch_integrate_with(const ChemMech *m, int integrator, int mode, long n_cells, double *y,
                              const double *par, double dt, const ChemIntegratorOptions *o,
                              int *status, int *steps, double *t_reached) {
  HX_CHECK(integrator_check(integrator));
  size_t nws = integ_ws_doubles(integrator, m), n = (size_t)m->n_species + 1;
  long first_fail = -1, n_failed = 0;
  int first_status = CHEM_DONE;
  double first_t = 0;
  int alloc_failed = 0;
#pragma omp parallel reduction(+ : n_failed)
  {
    double *ws = malloc((nws + n) * sizeof(double));
    if (!ws) {
#pragma omp atomic write
      alloc_failed = 1;
    } else {
#pragma omp for schedule(dynamic, 16)
      for (long c = 0; c < n_cells; c++) {
        int nst;
        double tr;
        int st =
            batch_cell(m, integrator, mode, n_cells, c, y, par[c], dt, o, ws, ws + nws, &nst, &tr);
        if (status) status[c] = st;
        if (steps) steps[c] = nst;
        if (t_reached) t_reached[c] = tr;
        if (st != CHEM_DONE) {
          n_failed++;
#pragma omp critical(chem_batch_fail)
          if (first_fail < 0 || c < first_fail) first_fail = c, first_status = st, first_t = tr;
        }
      }
    }
    free(ws);
  }
  if (alloc_failed)
    return HX_ERROR(HX_ERR_MEM, "chemistry batch: no memory for the %zu-double %s workspace",
                    nws + n, integrator_name(integrator));
  if (n_failed) {
    report_failure(m, n_cells, y, first_fail, first_status, first_t, dt, n_failed);
    return HX_ERR_NUMERIC;
  }
  return HX_OK;
}

double chem_parabola_peak(const double *t, const double *d, long n, long i) {
  if (i <= 0 || i >= n - 1) return t[i];
  double t0 = t[i - 1], t1 = t[i], t2 = t[i + 1];
  /* Newton form p(x) = d0 + a (x - t0) + b (x - t0)(x - t1); vertex where p' = 0 */
  double a = (d[i] - d[i - 1]) / (t1 - t0);
  double b = ((d[i + 1] - d[i]) / (t2 - t1) - a) / (t2 - t0);
  if (!(b < 0)) return t1;
  return 0.5 * (t0 + t1) - a / (2 * b);
}

static int history_grow(ChemHistory *h) {
  long cap = h->cap ? 2 * h->cap : 1024;
  double *t = realloc(h->t, cap * sizeof(double));
  if (t) h->t = t;
  double *T = realloc(h->T, cap * sizeof(double));
  if (T) h->T = T;
  double *p = realloc(h->p, cap * sizeof(double));
  if (p) h->p = p;
  double *d = realloc(h->dTdt, cap * sizeof(double));
  if (d) h->dTdt = d;
  double *Y = realloc(h->Y, (size_t)cap * h->ns * sizeof(double));
  if (Y) h->Y = Y;
  if (!t || !T || !p || !d || !Y)
    return HX_ERROR(HX_ERR_MEM, "reactor history: no memory for %ld rows", cap);
  h->cap = cap;
  return HX_OK;
}

/* Appends the state y (stride 1) at time t, with dT/dt from the reactor ODE. */
static int history_push(const ChemMech *m, int mode, double par, double t, const double *y,
                        double *f, double *work, ChemHistory *h) {
  if (h->n == h->cap) HX_CHECK(history_grow(h));
  int ns = m->n_species;
  double T = y[0];
  chem_reactor_rhs(m, mode, par, y, 1, f, 1, work, 1);
  h->t[h->n] = t;
  h->T[h->n] = T;
  h->p[h->n] = mode == CHEM_MODE_CP ? par : par * CHEM_R * T / chem_mean_mw(m, y + 1, 1);
  h->dTdt[h->n] = f[0];
  memcpy(h->Y + (size_t)h->n * ns, y + 1, ns * sizeof(double));
  h->n++;
  return HX_OK;
}

int chem_reactor_history(const ChemMech *m, int mode, double T0, double p0, const double *Y0,
                         double tend, const ChemIntegratorOptions *o, ChemHistory *h) {
  return chem_reactor_history_with(m, CHEM_INTEGRATOR_RADAU5, mode, T0, p0, Y0, tend, o, h);
}

int chem_reactor_history_with(const ChemMech *m, int integrator, int mode, double T0, double p0,
                              const double *Y0, double tend, const ChemIntegratorOptions *o,
                              ChemHistory *h) {
  int ns = m->n_species, n = ns + 1;
  memset(h, 0, sizeof(*h));
  h->ns = ns;
  HX_CHECK(integrator_check(integrator));
  double *y0 = malloc((size_t)n * sizeof(double)), *f = malloc((size_t)n * sizeof(double));
  double *work = malloc((size_t)chem_reactor_rhs_work(m) * sizeof(double));
  double *ws = malloc(integ_ws_doubles(integrator, m) * sizeof(double));
  if (!y0 || !f || !work || !ws) {
    free(y0), free(f), free(work), free(ws);
    return HX_ERROR(HX_ERR_MEM, "reactor history: no memory for the workspace");
  }
  y0[0] = T0;
  memcpy(y0 + 1, Y0, ns * sizeof(double));
  double par = mode == CHEM_MODE_CP ? p0 : p0 * chem_mean_mw(m, Y0, 1) / (CHEM_R * T0);
  int rc = history_push(m, mode, par, 0.0, y0, f, work, h);
  int st = integ_init(integrator, m, mode, par, tend, y0, ws, o);
  while (rc == HX_OK && st == CHEM_ACTIVE) {
    long acc = chem_ws_count(ws, 1, CHEM_WS_N_ACCEPT);
    st = integ_advance(integrator, m, mode, par, 1, ws, o);
    if (chem_ws_count(ws, 1, CHEM_WS_N_ACCEPT) > acc)
      rc = history_push(m, mode, par, chem_ws_time(ws, 1), integ_y(integrator, m, ws), f, work, h);
  }
  long imax = 0;
  for (long i = 1; i < h->n; i++)
    if (h->dTdt[i] > h->dTdt[imax]) imax = i;
  h->ignition_delay = chem_parabola_peak(h->t, h->dTdt, h->n, imax);
  h->T_end = integ_y(integrator, m, ws)[0];
  h->status = st;
  h->steps = chem_ws_steps(ws, 1);
  h->accepted = chem_ws_count(ws, 1, CHEM_WS_N_ACCEPT);
  h->rejected = chem_ws_count(ws, 1, CHEM_WS_N_REJECT);
  h->jacobians = chem_ws_count(ws, 1, CHEM_WS_N_JAC);
  if (rc == HX_OK && st != CHEM_DONE)
    rc = HX_ERROR(HX_ERR_NUMERIC,
                  "reactor (%s, T0 = %g K, p0 = %g Pa, mechanism %s, %s) stopped at t = %.6e of "
                  "%.6e s: %s (T = %.6g K, %ld steps). Loosen rtol/atol or raise the step cap",
                  mode == CHEM_MODE_CP ? "cp" : "cv", T0, p0, m->path, integrator_name(integrator),
                  chem_ws_time(ws, 1), tend, chem_status_name(st), h->T_end, h->steps);
  free(y0), free(f), free(work), free(ws);
  return rc;
}

void chem_history_free(ChemHistory *h) {
  free(h->t), free(h->T), free(h->p), free(h->dTdt), free(h->Y);
  memset(h, 0, sizeof(*h));
}
