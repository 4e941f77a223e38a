#include "mesh/metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "basis/tensor.h"
#include "core/error.h"
#include "mesh/facemap.h"

void geometry_interp_matrix(int NGeo, int nout, const double *xout, double *V) {
  double xeq[HX_NPMAX], wb[HX_NPMAX];
  basis_equidistant_nodes(NGeo, xeq);
  basis_barycentric_weights(NGeo, xeq, wb);
  basis_interp_matrix(NGeo, xeq, wb, nout - 1, xout, V);
}

/* Per-element work buffers on Gauss-Lobatto nodes of degree N. */
typedef struct {
  int np;
  double xl[HX_NPMAX], wbl[HX_NPMAX], Dl[HX_NPMAX * HX_NPMAX];
  double Vgeo_l[HX_NPMAX * HX_NPMAX]; /* geometry -> LGL */
  double Vgeo_s[HX_NPMAX * HX_NPMAX]; /* geometry -> solution nodes */
  double Vl_s[HX_NPMAX * HX_NPMAX];   /* LGL -> solution nodes */
  double Ds[HX_NPMAX * HX_NPMAX];     /* derivative on solution nodes */
} MetricOps;

static int metric_ops_init(const Mesh *m, const Disc *d, MetricOps *o) {
  o->np = d->np;
  double wl[HX_NPMAX];
  HX_CHECK(basis_nodes_weights(d->N, NODE_GAUSS_LOBATTO, o->xl, wl));
  basis_barycentric_weights(d->N, o->xl, o->wbl);
  basis_diff_matrix(d->N, o->xl, o->wbl, o->Dl);
  geometry_interp_matrix(m->NGeo, d->np, o->xl, o->Vgeo_l);
  geometry_interp_matrix(m->NGeo, d->np, d->x, o->Vgeo_s);
  basis_interp_matrix(d->N, o->xl, o->wbl, d->N, d->x, o->Vl_s);
  memcpy(o->Ds, d->D, sizeof o->Ds);
  return HX_OK;
}

/* Element geometry (NGeo, [node][3]) -> component-blocked field on nout^3 points. */
static void interp_coords(const Mesh *m, int e, int nout, const double *V, double *X) {
  int ng = m->NGeo + 1, n3 = ng * ng * ng;
  double *comp = malloc(sizeof(double) * n3);
  const double *xg = &m->node_coords[3 * (long)n3 * e];
  for (int c = 0; c < 3; c++) {
    for (int n = 0; n < n3; n++)
      comp[n] = xg[3 * n + c];
    tensor_interp_3d(ng, nout, V, comp, &X[c * nout * nout * nout]);
  }
  free(comp);
}

/* J a^i_n = -1/2 (curl_xi (X_l grad X_m - X_m grad X_l))_i, (n,m,l) cyclic, on LGL nodes. */
static void curl_form_metrics(int np, const double *Dl, const double *X, double *Ja) {
  int n3 = np * np * np;
  double *dX = malloc(sizeof(double) * 9 * n3); /* dX[(a*3+b)*n3]: d X_a / d xi_b */
  double *R = malloc(sizeof(double) * 3 * n3), *dR = malloc(sizeof(double) * n3);
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++)
      tensor_deriv_3d(np, Dl, b, &X[a * n3], &dX[(a * 3 + b) * n3]);
  for (int n = 0; n < 3; n++) {
    int mm = (n + 1) % 3, l = (n + 2) % 3;
    for (int b = 0; b < 3; b++)
      for (int q = 0; q < n3; q++)
        R[b * n3 + q] =
            X[l * n3 + q] * dX[(mm * 3 + b) * n3 + q] - X[mm * n3 + q] * dX[(l * 3 + b) * n3 + q];
    for (int i = 0; i < 3; i++) {
      int i1 = (i + 1) % 3, i2 = (i + 2) % 3; /* (curl V)_i = d_i1 V_i2 - d_i2 V_i1 */
      double *out = &Ja[(i * 3 + n) * n3];
      tensor_deriv_3d(np, Dl, i1, &R[i2 * n3], out);
      tensor_deriv_3d(np, Dl, i2, &R[i1 * n3], dR);
      for (int q = 0; q < n3; q++)
        out[q] = -0.5 * (out[q] - dR[q]);
    }
  }
  free(dX);
  free(R);
  free(dR);
}

/* 1/J at the solution nodes; a non-positive J is reported (with element and location) only when
 * report is set, so that a parallel sweep can report the first bad element once. */
static int element_jacobian(const Mesh *m, int e, const MetricOps *o, const double *Xs, double *sJ,
                            int report) {
  int np = o->np, n3 = np * np * np;
  double *dX = malloc(sizeof(double) * 9 * n3);
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++)
      tensor_deriv_3d(np, o->Ds, b, &Xs[a * n3], &dX[(a * 3 + b) * n3]);
  int rc = HX_OK;
  for (int q = 0; q < n3; q++) {
    double J = jacobian_determinant(dX, n3, q);
    if (!(J > 0.0)) {
      rc = !report
               ? HX_ERR_INPUT
               : HX_ERROR(HX_ERR_INPUT,
                          "mesh %s: element %ld has a non-positive Jacobian J=%g at x=(%g, %g, %g) "
                          "(inverted or degenerate element; reduce BoxCurving or fix the mesh)",
                          m->source, m->elem_global_id[e], J, Xs[q], Xs[n3 + q], Xs[2 * n3 + q]);
      break;
    }
    sJ[q] = 1.0 / J;
  }
  free(dX);
  return rc;
}

/* Orthonormal tangents of a unit normal, chosen deterministically. */
static void tangents(const double n[3], double t1[3], double t2[3]) {
  int a = 0;
  for (int c = 1; c < 3; c++)
    if (fabs(n[c]) < fabs(n[a])) a = c;
  double e[3] = {0, 0, 0};
  e[a] = 1.0;
  t1[0] = n[1] * e[2] - n[2] * e[1];
  t1[1] = n[2] * e[0] - n[0] * e[2];
  t1[2] = n[0] * e[1] - n[1] * e[0];
  double s = sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
  for (int c = 0; c < 3; c++)
    t1[c] /= s;
  t2[0] = n[1] * t1[2] - n[2] * t1[1];
  t2[1] = n[2] * t1[0] - n[0] * t1[2];
  t2[2] = n[0] * t1[1] - n[1] * t1[0];
}

/* Face data of one side from its master element's LGL metrics and coordinates. */
static void face_metrics(const MetricOps *o, int side, int locside, const double *JaL,
                         const double *XL, Geometry *g) {
  int np = o->np, N = np - 1, n2 = np * np, n3 = n2 * np;
  int dir = side_normal_dir(locside);
  double sign = side_is_plus(locside) ? 1.0 : -1.0;
  double lgl[HX_NPMAX * HX_NPMAX], sol[6][HX_NPMAX * HX_NPMAX];
  for (int c = 0; c < 6; c++) { /* three metric components, then three coordinates */
    const double *src = c < 3 ? &JaL[(dir * 3 + c) * n3] : &XL[(c - 3) * n3];
    for (int q = 0; q < np; q++)
      for (int p = 0; p < np; p++) {
        int i, j, k;
        side_to_volume(N, locside, p, q, &i, &j, &k);
        lgl[q * np + p] = src[(k * np + j) * np + i];
      }
    tensor_interp_2d(np, np, o->Vl_s, lgl, sol[c]);
  }
  for (int f = 0; f < n2; f++) {
    double v[3] = {sign * sol[0][f], sign * sol[1][f], sign * sol[2][f]};
    double s = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), n[3], t1[3], t2[3];
    for (int c = 0; c < 3; c++)
      n[c] = v[c] / s;
    tangents(n, t1, t2);
    g->face_surf[(long)side * n2 + f] = s;
    for (int c = 0; c < 3; c++) {
      long at = ((long)side * 3 + c) * n2 + f;
      g->face_nvec[at] = n[c];
      g->face_t1[at] = t1[c];
      g->face_t2[at] = t2[c];
      g->face_x[at] = sol[3 + c][f];
    }
  }
}

static int geometry_alloc(const Mesh *m, int np, Geometry *g) {
  long n3 = (long)np * np * np, n2 = (long)np * np, ne = m->n_elems, ns = m->n_sides;
  g->metrics = hx_malloc(sizeof(double) * 9 * n3 * ne, "metrics");
  g->sJ = hx_malloc(sizeof(double) * n3 * ne, "Jacobians");
  g->elem_x = hx_malloc(sizeof(double) * 3 * n3 * ne, "node coordinates");
  g->face_nvec = hx_malloc(sizeof(double) * 3 * n2 * ns, "face normals");
  g->face_t1 = hx_malloc(sizeof(double) * 3 * n2 * ns, "face tangents");
  g->face_t2 = hx_malloc(sizeof(double) * 3 * n2 * ns, "face tangents");
  g->face_surf = hx_malloc(sizeof(double) * n2 * ns, "face surface elements");
  g->face_x = hx_malloc(sizeof(double) * 3 * n2 * ns, "face coordinates");
  if (!g->metrics || !g->sJ || !g->elem_x || !g->face_nvec || !g->face_t1 || !g->face_t2 ||
      !g->face_surf || !g->face_x)
    return HX_ERR_MEM;
  return HX_OK;
}

int metrics_compute(const Mesh *m, const Disc *d, Geometry *g) {
  MetricOps o;
  memset(g, 0, sizeof *g);
  HX_CHECK(metric_ops_init(m, d, &o));
  int np = d->np;
  long n3 = (long)np * np * np;
  HX_CHECK(geometry_alloc(m, np, g));
  int bad_elem = m->n_elems;
#pragma omp parallel
  {
    double *XL = malloc(sizeof(double) * 3 * n3), *JaL = malloc(sizeof(double) * 9 * n3);
#pragma omp for schedule(static) reduction(min : bad_elem)
    for (int e = 0; e < m->n_elems; e++) {
      double *Xs = &g->elem_x[3 * n3 * e];
      interp_coords(m, e, np, o.Vgeo_l, XL);
      interp_coords(m, e, np, o.Vgeo_s, Xs);
      curl_form_metrics(np, o.Dl, XL, JaL);
      for (int c = 0; c < 9; c++)
        tensor_interp_3d(np, np, o.Vl_s, &JaL[c * n3], &g->metrics[(9L * e + c) * n3]);
      if (element_jacobian(m, e, &o, Xs, &g->sJ[n3 * e], 0) != HX_OK && e < bad_elem) bad_elem = e;
      for (int s = 0; s < 6; s++) {
        int side = m->elem_to_side[6 * e + s];
        if (m->elem_to_side_flip[6 * e + s] == 0) face_metrics(&o, side, s, JaL, XL, g);
      }
    }
    free(XL);
    free(JaL);
  }
  if (bad_elem < m->n_elems)
    return element_jacobian(m, bad_elem, &o, &g->elem_x[3 * n3 * bad_elem], &g->sJ[n3 * bad_elem],
                            1);
  return HX_OK;
}

void geometry_free(Geometry *g) {
  free(g->metrics);
  free(g->sJ);
  free(g->elem_x);
  free(g->face_nvec);
  free(g->face_t1);
  free(g->face_t2);
  free(g->face_surf);
  free(g->face_x);
  memset(g, 0, sizeof *g);
}
