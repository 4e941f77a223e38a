#include "analysis/analyze.h"

#include "physics/mixture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basis/tensor.h"
#include "core/error.h"
#include "mesh/metrics.h"
#include "parallel/parallel.h"


int analyze_define_params(Params *p) {
  const char *s = "Analyze";
  HX_CHECK(params_define(p, s, "CalcErrorNorms", PARAM_LOGICAL, 0, "T", false,
                         "Compute L2/Linf errors against the exact function at each analysis."));
  HX_CHECK(params_define(p, s, "NAnalyze", PARAM_INT, 0, "", false,
                         "Polynomial degree of the Gauss points used for error norms "
                         "(default 2N)."));
  return HX_OK;
}

/* Geometry at the analysis points straight from the mesh nodes (exact for the given NGeo). */
static void analysis_geometry(const Mesh *m, int e, int na, const double *xa, double *x,
                              double *J) {
  int ng = m->NGeo + 1, n3g = ng * ng * ng, n3 = na * na * na;
  double *Vg = malloc(sizeof(double) * na * ng), *Xg = malloc(sizeof(double) * 3 * n3g);
  double *dX = malloc(sizeof(double) * 9 * n3), *dXg = malloc(sizeof(double) * 9 * n3g);
  geometry_interp_matrix(m->NGeo, na, xa, Vg);
  geometry_nodal_fields(m, e, Xg, dXg);
  for (int c = 0; c < 3; c++)
    tensor_interp_3d(ng, na, Vg, &Xg[c * n3g], &x[c * n3]);
  for (int f = 0; f < 9; f++)
    tensor_interp_3d(ng, na, Vg, &dXg[f * n3g], &dX[f * n3]);
  for (int q = 0; q < n3; q++) {
    J[q] = jacobian_determinant(dX, n3, q);
  }
  free(Vg);
  free(Xg);
  free(dX);
  free(dXg);
}

int analyze_init(const Params *p, const Solver *s, const char *project, Analyze *a) {
  memset(a, 0, sizeof *a);
  int NA = 2 * s->disc.N;
  HX_CHECK(params_get_logical(p, "CalcErrorNorms", &a->calc_error_norms));
  if (params_is_set(p, "NAnalyze")) HX_CHECK(params_get_int(p, "NAnalyze", &NA));
  snprintf(a->csv_path, sizeof a->csv_path, "%s_ErrorNorms.csv", project);
  a->n_var = s->n_var;
  a->var_names = s->var_names;
  if (!a->calc_error_norms) return HX_OK; /* the analysis points serve the error norms only */
  if (NA < 1 || NA > 2 * HX_NMAX + 1)
    return HX_ERROR(HX_ERR_INPUT, "NAnalyze = %d is out of range 1..%d", NA, 2 * HX_NMAX + 1);
  if (NA > HX_NMAX) NA = HX_NMAX; /* Gauss rule of degree 2*15+1 is ample for error norms */
  a->n_ana = NA + 1;
  double xa[HX_NPMAX];
  HX_CHECK(basis_nodes_weights(NA, NODE_GAUSS, xa, a->w));
  int na = a->n_ana, np = s->np;
  long n3 = (long)na * na * na, ne = s->mesh->n_elems;
  a->V = hx_malloc(sizeof(double) * na * np, "analysis interpolation");
  a->x = hx_malloc(sizeof(double) * 3 * n3 * ne, "analysis coordinates");
  a->J = hx_malloc(sizeof(double) * n3 * ne, "analysis Jacobians");
  if (!a->V || !a->x || !a->J) return HX_ERR_MEM;
  basis_interp_matrix(s->disc.N, s->disc.x, s->disc.wb, NA, xa, a->V);
#pragma omp parallel for schedule(static)
  for (long e = 0; e < ne; e++)
    analysis_geometry(s->mesh, (int)e, na, xa, &a->x[3 * n3 * e], &a->J[n3 * e]);
  for (long e = 0; e < ne; e++)
    for (int k = 0; k < na; k++)
      for (int j = 0; j < na; j++)
        for (int i = 0; i < na; i++)
          a->volume += a->w[i] * a->w[j] * a->w[k] * a->J[n3 * e + (k * na + j) * na + i];
  par_sum(&a->volume, 1);
  return HX_OK;
}

void analyze_free(Analyze *a) {
  free(a->V);
  free(a->x);
  free(a->J);
  memset(a, 0, sizeof *a);
}

void analyze_error_norms(const Analyze *a, const Solver *s, double t, double *L2, double *Linf) {
  int nv = s->n_var, np = s->np, na = a->n_ana, n3s = s->n_dof_elem;
  long n3 = (long)na * na * na;
  double l2[HX_NVAR_MAX] = {0}, linf[HX_NVAR_MAX] = {0};
#pragma omp parallel
  {
    double *ua = malloc(sizeof(double) * nv * n3);
    double l2t[HX_NVAR_MAX] = {0}, linft[HX_NVAR_MAX] = {0};
#pragma omp for schedule(static)
    for (int e = 0; e < s->mesh->n_elems; e++) {
      for (int v = 0; v < nv; v++)
        tensor_interp_3d(np, na, a->V, &s->U[((long)e * nv + v) * n3s], &ua[v * n3]);
      for (int k = 0; k < na; k++)
        for (int j = 0; j < na; j++)
          for (int i = 0; i < na; i++) {
            long q = (k * na + j) * na + i;
            double xq[3] = {a->x[3 * n3 * e + q], a->x[3 * n3 * e + n3 + q],
                            a->x[3 * n3 * e + 2 * n3 + q]};
            double ue[HX_NVAR_MAX], wJ = a->w[i] * a->w[j] * a->w[k] * a->J[n3 * e + q];
            solver_exact_state(s, xq, t, ue);
            for (int v = 0; v < nv; v++) {
              double err = fabs(ua[v * n3 + q] - ue[v]);
              l2t[v] += wJ * err * err;
              if (err > linft[v]) linft[v] = err;
            }
          }
    }
#pragma omp critical
    for (int v = 0; v < nv; v++) {
      l2[v] += l2t[v];
      if (linft[v] > linf[v]) linf[v] = linft[v];
    }
    free(ua);
  }
  par_sum(l2, nv);
  par_max(linf, nv);
  for (int v = 0; v < nv; v++) {
    L2[v] = sqrt(l2[v] / a->volume);
    Linf[v] = linf[v];
  }
}

void analyze_totals(const Solver *s, double *totals) {
  int nv = s->n_var, np = s->np, n3 = s->n_dof_elem;
  const double *w = s->disc.w;
  for (int v = 0; v < nv; v++) totals[v] = 0.0;
  for (int e = 0; e < s->mesh->n_elems; e++) /* serial: totals are compared to round-off */
    for (int v = 0; v < nv; v++) {
      const double *u = &s->U[((long)e * nv + v) * n3];
      const double *sJ = &s->geo.sJ[(long)e * n3];
      double acc = 0.0;
      for (int k = 0; k < np; k++)
        for (int j = 0; j < np; j++)
          for (int i = 0; i < np; i++) {
            int q = (k * np + j) * np + i;
            acc += w[i] * w[j] * w[k] * u[q] / sJ[q];
          }
      totals[v] += acc;
    }
  par_sum(totals, nv);
}

/* One rank's (or thread's) range merged into r: the smaller minimum and larger maximum win; on a
 * tie the first one's position stays (ranks in order, so every rank count gives the same). */
static void merge_temperature_range(TemperatureRange *r, const TemperatureRange *o) {
  if (o->T_min < r->T_min) {
    r->T_min = o->T_min;
    memcpy(r->x_min, o->x_min, sizeof r->x_min);
  }
  if (o->T_max > r->T_max) {
    r->T_max = o->T_max;
    memcpy(r->x_max, o->x_max, sizeof r->x_max);
  }
  r->n_without += o->n_without;
}

static void local_temperature_range(const Solver *s, TemperatureRange *r) {
  const int nv = s->n_var, n3 = s->n_dof_elem;
  *r = (TemperatureRange){.T_min = INFINITY, .T_max = -INFINITY};
#pragma omp parallel
  {
    TemperatureRange t = {.T_min = INFINITY, .T_max = -INFINITY};
#pragma omp for schedule(static)
    for (int e = 0; e < s->mesh->n_elems; e++)
      for (int q = 0; q < n3; q++) {
        const long dof = (long)e * n3 + q;
        double u[HX_NVAR_MAX], pr[HX_NPRIM], Y[HX_MAX_SPECIES], c;
        for (int v = 0; v < nv; v++)
          u[v] = s->U[((long)e * nv + v) * n3 + q];
        if (solver_node_prim(s, dof, u, pr, Y, &c) != 0) {
          t.n_without++;
          continue;
        }
        const double *x = &s->geo.elem_x[(long)e * 3 * n3 + q];
        const TemperatureRange here = {pr[TEMP], pr[TEMP], {x[0], x[n3], x[2 * n3]},
                                       {x[0], x[n3], x[2 * n3]}, 0};
        merge_temperature_range(&t, &here);
      }
#pragma omp critical
    merge_temperature_range(r, &t); /* threads: ties may fall either way (positions only) */
  }
}

int analyze_temperature_range(const Solver *s, TemperatureRange *r) {
  const int n_ranks = par_size();
  TemperatureRange *all = hx_calloc((size_t)n_ranks, sizeof *all, "the temperature range");
  HX_ALLOC_CHECK(all);
  local_temperature_range(s, &all[par_rank()]);
  par_allgather_bytes(all, (int)sizeof *all);
  *r = (TemperatureRange){.T_min = INFINITY, .T_max = -INFINITY};
  for (int k = 0; k < n_ranks; k++)
    merge_temperature_range(r, &all[k]);
  free(all);
  return HX_OK;
}

int analyze_write_csv(const Analyze *a, double t, const double *L2, const double *Linf, bool fresh) {
  FILE *f = fopen(a->csv_path, fresh ? "w" : "a");
  if (!f)
    return HX_ERROR(HX_ERR_IO, "cannot open %s for writing; check the directory permissions",
                    a->csv_path);
  if (fresh) {
    fprintf(f, "time");
    for (int v = 0; v < a->n_var; v++) fprintf(f, ",L2_%s", a->var_names[v]);
    for (int v = 0; v < a->n_var; v++) fprintf(f, ",Linf_%s", a->var_names[v]);
    fprintf(f, "\n");
  }
  fprintf(f, "%.17g", t);
  for (int v = 0; v < a->n_var; v++) fprintf(f, ",%.10e", L2[v]);
  for (int v = 0; v < a->n_var; v++) fprintf(f, ",%.10e", Linf[v]);
  fprintf(f, "\n");
  if (fclose(f) != 0) return HX_ERROR(HX_ERR_IO, "error writing %s (disk full?)", a->csv_path);
  return HX_OK;
}
