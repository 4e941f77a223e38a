/* Elements and sides with constant metric terms (see constmetrics.h). */
#include "mesh/constmetrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* The means of nf nodal fields (f[v * stride + n], n < nn) into mean; whether every node lies
 * within tol * scale of them, scale the largest |mean| (or 1 for unit vectors: scale_one). */
static int fields_constant(const double *f, int nf, size_t stride, int nn, int scale_one,
                           double *mean) {
  double scale = scale_one ? 1.0 : 0.0;
  for (int v = 0; v < nf; v++) {
    double s = 0.0;
    for (int n = 0; n < nn; n++) s += f[v * stride + n];
    mean[v] = s / nn;
    if (!scale_one && fabs(mean[v]) > scale) scale = fabs(mean[v]);
  }
  for (int v = 0; v < nf; v++)
    for (int n = 0; n < nn; n++)
      if (!(fabs(f[v * stride + n] - mean[v]) <= CM_TOLERANCE * scale)) return 0;
  return 1;
}

static void find_elems(const Geometry *g, long n_elems, int n3, ConstMetrics *c) {
  for (long e = 0; e < n_elems; e++) {
    double *out = c->elem + CM_ELEM_VALUES * e, sJ;
    int ok = fields_constant(g->metrics + 9 * n3 * e, 9, (size_t)n3, n3, 0, out) &&
             fields_constant(g->sJ + (size_t)n3 * e, 1, (size_t)n3, n3, 0, &sJ);
    out[CM_ELEM_SJ] = ok ? sJ : 0.0;
    c->n_elems_const += ok;
  }
}

static void find_sides(const Geometry *g, long n_sides, int n2, ConstMetrics *c) {
  for (long s = 0; s < n_sides; s++) {
    double *out = c->side + CM_SIDE_VALUES * s, surf;
    size_t at = 3 * (size_t)n2 * s;
    int ok = fields_constant(g->face_nvec + at, 3, (size_t)n2, n2, 1, out) &&
             fields_constant(g->face_surf + (size_t)n2 * s, 1, (size_t)n2, n2, 0, &surf);
    /* the tangents of the first point: the mesh picks them per point from n's round-off (on a
       planar side they can turn by 90 degrees between points), and every Riemann solver is
       invariant under a rotation of the tangent plane */
    for (int c = 0; c < 3; c++) {
      out[3 + c] = g->face_t1[at + (size_t)c * n2];
      out[6 + c] = g->face_t2[at + (size_t)c * n2];
    }
    out[CM_SIDE_SURF] = ok ? surf : 0.0;
    c->n_sides_const += ok;
  }
}

int const_metrics_find(const Geometry *g, long n_elems, long n_sides, int n3, int n2,
                       ConstMetrics *c) {
  memset(c, 0, sizeof *c);
  c->elem = (double *)malloc(sizeof(double) * CM_ELEM_VALUES * (n_elems ? n_elems : 1));
  c->side = (double *)malloc(sizeof(double) * CM_SIDE_VALUES * (n_sides ? n_sides : 1));
  if (!c->elem || !c->side) {
    const_metrics_free(c);
    return HX_ERROR(HX_ERR_MEM, "out of host memory (constant metrics of %ld elements)", n_elems);
  }
  find_elems(g, n_elems, n3, c);
  find_sides(g, n_sides, n2, c);
  return HX_OK;
}

void const_metrics_free(ConstMetrics *c) {
  free(c->elem);
  free(c->side);
  memset(c, 0, sizeof *c);
}
