#include "analysis/timeavg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h> /* strcasecmp */

#include "core/error.h"
#include "io/state.h"
#include "parallel/exchange.h"
#include "parallel/parallel.h"
#include "physics/mixture.h"

/* FLEXI's lists (flexi src/equations/navierstokes/timeavg.f90, InitCalcTimeAverage), in its
 * order: the order of the variables in the file. */
static const char *const AVG_NAMES[TAVG_NAVG] = {
    "Density",       "MomentumX", "MomentumY",   "MomentumZ",         "EnergyStagnationDensity",
    "VelocityX",     "VelocityY", "VelocityZ",   "VelocityMagnitude", "Pressure",
    "VelocitySound", "Mach",      "Temperature", "TotalTemperature",  "TotalPressure"};

enum { N_FLUC = 21, FLUC_DR_U = 16, FLUC_DR_S = 17, FLUC_TKE = 18 };
static const char *const FLUC_NAMES[N_FLUC] = {"Density",
                                               "MomentumX",
                                               "MomentumY",
                                               "MomentumZ",
                                               "EnergyStagnationDensity",
                                               "VelocityX",
                                               "VelocityY",
                                               "VelocityZ",
                                               "VelocityMagnitude",
                                               "Pressure",
                                               "VelocitySound",
                                               "Mach",
                                               "Temperature",
                                               "uv",
                                               "uw",
                                               "vw",
                                               "DR_u",
                                               "DR_S",
                                               "TKE",
                                               "TotalTemperature",
                                               "TotalPressure"};
/* The two factors of each MeanSquare entry (values of timeavg_pointwise.h). */
static const int FLUC_A[N_FLUC] = {0,
                                   1,
                                   2,
                                   3,
                                   4,
                                   5,
                                   6,
                                   7,
                                   8,
                                   9,
                                   10,
                                   11,
                                   12,
                                   TAVG_VELOCITY_X,
                                   TAVG_VELOCITY_X,
                                   TAVG_VELOCITY_Y,
                                   TAVG_DR_U,
                                   TAVG_DR_S,
                                   TAVG_VELOCITY_SQUARED,
                                   TAVG_TOTAL_TEMPERATURE,
                                   TAVG_TOTAL_PRESSURE};
static const int FLUC_B[N_FLUC] = {0,
                                   1,
                                   2,
                                   3,
                                   4,
                                   5,
                                   6,
                                   7,
                                   8,
                                   9,
                                   10,
                                   11,
                                   12,
                                   TAVG_VELOCITY_Y,
                                   TAVG_VELOCITY_Z,
                                   TAVG_VELOCITY_Z,
                                   TAVG_ONE,
                                   TAVG_ONE,
                                   TAVG_ONE,
                                   TAVG_TOTAL_TEMPERATURE,
                                   TAVG_TOTAL_PRESSURE};

int timeavg_define_params(Params *p) {
  HX_CHECK(
      params_define(p, "Analyze", "CalcTimeAverage", PARAM_LOGICAL, 0, "F", false,
                    "time averages (FLEXI's CalcTimeAverage): Mean of every VarNameAvg and "
                    "MeanSquare of every VarNameFluc, trapezoidal rule over the time steps, "
                    "written as <ProjectName>_TimeAvg_<time>.h5 with every state file and "
                    "reset there; tools/timeavg_merge.py merges files (docs/time_averages.md)"));
  HX_CHECK(params_define(p, "Analyze", "VarNameAvg", PARAM_STRING, 0, "", true,
                         "a variable to time-average (repeat the key): Density, MomentumX/Y/Z, "
                         "EnergyStagnationDensity, VelocityX/Y/Z, VelocityMagnitude, Pressure, "
                         "VelocitySound, Mach, Temperature, TotalTemperature, TotalPressure"));
  return params_define(p, "Analyze", "VarNameFluc", PARAM_STRING, 0, "", true,
                       "a variable whose time-averaged square (or product: uv, uw, vw; TKE = "
                       "mean of |u|^2) is written as MeanSquare (repeat the key); any VarNameAvg "
                       "name, uv, uw, vw, TKE, and FLEXI's dissipation measures of the lifted "
                       "velocity gradient g_ij = du_i/dx_j: DR_u = mean of S_ij S_ij, S = (g + "
                       "g^T)/2, DR_S = mean of g_ij g_ij (Navier-Stokes only); its mean is "
                       "averaged too, so that MeanSquare - Mean^2 is the variance");
}

/* The MeanSquare entries without a mean of their own (FLEXI's hasAvgVars = F). */
static bool without_mean(int k) {
  return k == FLUC_DR_U || k == FLUC_DR_S || k == FLUC_TKE;
}

static int find_name(const char *const *list, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (strcasecmp(list[i], name) == 0) return i;
  return -1;
}

/* The variables the keys ask for, with FLEXI's implied means (a fluctuation's own mean; u, v, w
 * for uv, uw, vw; rho, u, v, w for TKE). */
static int read_selection(const Params *p, bool calc_avg[TAVG_NAVG], bool calc_fluc[N_FLUC]) {
  const int n_avg = params_count(p, "VarNameAvg"), n_fluc = params_count(p, "VarNameFluc");
  if (n_avg + n_fluc == 0)
    return HX_ERROR(HX_ERR_INPUT, "CalcTimeAverage = T but neither VarNameAvg nor VarNameFluc is "
                                  "given: name the variables to average (docs/time_averages.md) "
                                  "or set CalcTimeAverage = F");
  for (int i = 0; i < n_avg; i++) {
    const char *name;
    HX_CHECK(params_get_string_at(p, "VarNameAvg", i, &name));
    int k = find_name(AVG_NAMES, TAVG_NAVG, name);
    if (k < 0)
      return HX_ERROR(HX_ERR_INPUT,
                      "VarNameAvg = %s is not a variable FLEXI averages; use one of "
                      "Density, MomentumX, ..., TotalPressure (docs/time_averages.md)",
                      name);
    calc_avg[k] = true;
  }
  for (int i = 0; i < n_fluc; i++) {
    const char *name;
    HX_CHECK(params_get_string_at(p, "VarNameFluc", i, &name));
    int k = find_name(FLUC_NAMES, N_FLUC, name);
    if (k < 0)
      return HX_ERROR(HX_ERR_INPUT,
                      "VarNameFluc = %s is not a fluctuation FLEXI computes; use a "
                      "VarNameAvg name or uv, uw, vw, TKE (docs/time_averages.md)",
                      name);
    calc_fluc[k] = true;
    int own = find_name(AVG_NAMES, TAVG_NAVG, FLUC_NAMES[k]);
    if (own >= 0) calc_avg[own] = true;
    if (!without_mean(k) && own < 0) calc_avg[FLUC_A[k]] = calc_avg[FLUC_B[k]] = true;
    if (without_mean(k)) /* FLEXI: DR_u, DR_S and TKE average rho, u, v, w */
      calc_avg[TAVG_DENSITY] = calc_avg[TAVG_VELOCITY_X] = calc_avg[TAVG_VELOCITY_Y] =
          calc_avg[TAVG_VELOCITY_Z] = true;
  }
  return HX_OK;
}

/* The map and the output names: Mean in FLEXI's list order; MeanSquare with a mean first, then
 * those without (DR_u, DR_S, TKE), as FLEXI orders them. */
static void build_map(TimeAvg *ta, const bool calc_avg[TAVG_NAVG], const bool calc_fluc[N_FLUC]) {
  TimeAvgMap *m = &ta->map;
  memset(m, 0, sizeof *m);
  for (int k = 0; k < TAVG_NAVG; k++)
    if (calc_avg[k]) {
      ta->names[m->n_avg] = AVG_NAMES[k];
      m->avg[m->n_avg++] = k;
      if (k > TAVG_ENERGY) m->prim = 1;
    }
  for (int pass = 0; pass < 2; pass++)
    for (int k = 0; k < N_FLUC; k++)
      if (calc_fluc[k] && without_mean(k) == (pass == 1)) {
        if (k == FLUC_DR_U || k == FLUC_DR_S) m->grad = 1;
        ta->names[m->n_avg + m->n_sq] = FLUC_NAMES[k];
        m->sq_a[m->n_sq] = FLUC_A[k];
        m->sq_b[m->n_sq++] = FLUC_B[k];
      }
  ta->n_sums = m->n_avg + m->n_sq;
}

/* The values of node q of element e of the current state. */
static void node_values(const TimeAvg *ta, const Solver *s, long e, int q, double *vals) {
  double u[HX_NVAR_MAX];
  for (int v = 0; v < s->n_var; v++)
    u[v] = s->U[(e * s->n_var + v) * s->n_dof_elem + q];
  if (!ta->map.prim) {
    timeavg_node_cons(u, vals);
    return;
  }
  double pr[HX_NPRIM], Y[HX_MAX_SPECIES], c;
  solver_node_prim(s, e * s->n_dof_elem + q, u, pr, Y, &c);
  timeavg_node_values(s->phys.kappa, u, pr, c, vals);
  if (!ta->map.grad) return;
  const int n3 = s->n_dof_elem, nl = s->n_lift; /* grad [elem][dir][lift n_lift][node] */
  double g[3][HX_NLIFT];
  for (int d = 0; d < 3; d++)
    for (int v = 0; v < HX_NLIFT; v++)
      g[d][v] = s->grad[((e * 3 + d) * nl + v) * n3 + q];
  timeavg_node_dissipation(g[0], g[1], g[2], vals);
}

/* DR_u, DR_S: the lifted gradients of the current state at time t in s->grad. */
static void lift_state(const TimeAvg *ta, const Solver *s, double t) {
  if (!ta->map.grad) return;
  prolong_to_face(s, s->U);
  lifting(s, s->U, s->Ut, t);
  exchange_finish(s->exchange, EXCH_GRAD);
}

/* The values of the current state into last (w = 0), or the trapezoidal step of half length w. */
static void fold_state(TimeAvg *ta, const Solver *s, double t, double w, int first) {
  const int n3 = s->n_dof_elem;
  lift_state(ta, s, t);
#pragma omp parallel for
  for (long e = 0; e < s->mesh->n_elems; e++)
    for (int q = 0; q < n3; q++) {
      double vals[TAVG_NVALS];
      node_values(ta, s, e, q, vals);
      const long o = e * ta->n_sums * n3 + q;
      if (first)
        timeavg_node_sample(&ta->map, vals, ta->last + o, n3);
      else
        timeavg_node_accumulate(&ta->map, vals, w, ta->sums + o, ta->last + o, n3);
    }
}

int timeavg_init(const Params *p, const Solver *s, double t, TimeAvg *ta) {
  memset(ta, 0, sizeof *ta);
  HX_CHECK(params_get_logical(p, "CalcTimeAverage", &ta->on));
  if (!ta->on) return HX_OK;
  bool calc_avg[TAVG_NAVG] = {false}, calc_fluc[N_FLUC] = {false};
  HX_CHECK(read_selection(p, calc_avg, calc_fluc));
  build_map(ta, calc_avg, calc_fluc);
  if (ta->map.grad && !s->viscous)
    return HX_ERROR(HX_ERR_INPUT, "VarNameFluc = DR_u or DR_S: the dissipation measures need the "
                                  "lifted velocity gradients of the Navier-Stokes equations; set "
                                  "mu0 > 0 or remove them");
  if (s->mech && (calc_avg[TAVG_TOTAL_TEMPERATURE] || calc_avg[TAVG_TOTAL_PRESSURE]))
    return HX_ERROR(HX_ERR_INPUT,
                    "VarNameAvg/VarNameFluc TotalTemperature or TotalPressure: "
                    "hexdg computes total quantities for air (one kappa) only, not "
                    "for the mixture of %s; remove them",
                    s->mech->path);
  ta->n_values = (size_t)ta->n_sums * (size_t)(s->n_dof > 0 ? s->n_dof : 1);
  ta->sums = hx_calloc(ta->n_values, sizeof(double), "time-average sums");
  ta->last = hx_calloc(ta->n_values, sizeof(double), "time-average samples");
  if (!ta->sums || !ta->last) {
    timeavg_free(ta);
    return HX_ERR_MEM;
  }
  fold_state(ta, s, t, 0.0, 1);
  return HX_OK;
}

int timeavg_update(TimeAvg *ta, const Solver *s, double dt, double t) {
  if (!ta->on) return HX_OK;
  fold_state(ta, s, t, 0.5 * dt, 0);
  ta->avg_time += dt;
  return HX_OK;
}

void timeavg_reset(TimeAvg *ta) {
  if (ta->sums) memset(ta->sums, 0, sizeof(double) * ta->n_values);
  ta->avg_time = 0.0;
}

/* sums[e][first..first+n)[q] / T into out[e][0..n)[q]. */
static void divide_block(const TimeAvg *ta, const Solver *s, int first, int n, double T,
                         double *out) {
  const long n3 = s->n_dof_elem;
  for (long e = 0; e < s->mesh->n_elems; e++)
    for (int v = 0; v < n; v++)
      for (long q = 0; q < n3; q++)
        out[(e * n + v) * n3 + q] = ta->sums[(e * ta->n_sums + first + v) * n3 + q] / T;
}

int timeavg_write(TimeAvg *ta, const Solver *s, const StateHeader *h) {
  if (!ta->on || ta->avg_time <= 0.0) return HX_OK;
  const TimeAvgMap *m = &ta->map;
  double *out = hx_malloc(sizeof(double) * ta->n_values, "time averages");
  HX_ALLOC_CHECK(out);
  double *sq = out + (size_t)m->n_avg * (size_t)s->n_dof;
  divide_block(ta, s, 0, m->n_avg, ta->avg_time, out);
  divide_block(ta, s, m->n_avg, m->n_sq, ta->avg_time, sq);
  StateNodeData sets[2];
  int n_sets = 0;
  if (m->n_avg > 0) sets[n_sets++] = (StateNodeData){"Mean", m->n_avg, ta->names, out};
  if (m->n_sq > 0)
    sets[n_sets++] = (StateNodeData){"MeanSquare", m->n_sq, ta->names + m->n_avg, sq};
  char path[1100];
  /* FLEXI's TIMESTAMP naming, as state_file_name */
  snprintf(path, sizeof path, "%s_TimeAvg_%017.9f.h5", h->project_name, h->time);
  int rc = state_write_timeavg_part(path, h, ta->avg_time, n_sets, sets, s->mesh->n_elems,
                                    s->mesh->elem_global_id);
  free(out);
  HX_CHECK(rc);
  timeavg_reset(ta);
  return HX_OK;
}

void timeavg_free(TimeAvg *ta) {
  free(ta->sums);
  free(ta->last);
  ta->sums = ta->last = NULL;
}
