/* Metric terms of curved elements (see metrics.h): exact contravariant vectors at the nodes, made
 * to satisfy the discrete metric identities by the smallest gradient correction. */
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

/* Matrices of one element type (N, NGeo, node type), shared by all elements. */
typedef struct {
  const Disc *d;
  int np, ng, nq;
  double Vs[HX_NPMAX * HX_NPMAX]; /* geometry nodes -> solution nodes (np x ng) */
  double Vend[2][HX_NPMAX];       /* geometry nodes -> xi = -1 and +1 (1 x ng) */
  double Vq[HX_NPMAX * HX_NPMAX]; /* geometry nodes -> Gauss points of the exact face flux */
  double wq[HX_NPMAX];
  double S[HX_NPMAX * HX_NPMAX];  /* fast diagonalization of K: S[i*np+k], mode k at node i */
  double St[HX_NPMAX * HX_NPMAX]; /* S^T */
  double lam[HX_NPMAX];
  int zero; /* the constant mode (eigenvalue 0) */
} MetricOps;

/* Per-element scratch. */
typedef struct {
  double *Xg, *dXg; /* geometry nodes: [3][ng^3], [9][ng^3] (dX_a/dxi_b at [a*3+b]) */
  double *dX, *Ja;  /* solution nodes: [9][n3] each */
  double *r, *tmp;  /* [n3] */
  double *nJ;       /* [6 faces][3][np^2]: outward J a^dir on the face nodes, tangential order */
  double *fx;       /* [3][np^2]: node coordinates of the face being stored */
  double *fq;       /* [9][nq^2]: derivatives on the flux quadrature points of one face */
} MetricWork;

/* The 1-D factors of K = sum_d A_d x M x M, A = D^T W D, M = W: the generalized eigenvectors
 * A s_k = lam_k M s_k with S^T M S = I (fast diagonalization, Lynch, Rice & Thomas 1964). */
static void fast_diag_init(MetricOps *o) {
  int np = o->np;
  const double *w = o->d->w, *D = o->d->D;
  double B[HX_NPMAX * HX_NPMAX], U[HX_NPMAX * HX_NPMAX];
  for (int i = 0; i < np; i++)
    for (int j = 0; j < np; j++) {
      double a = 0.0;
      for (int l = 0; l < np; l++)
        a += w[l] * D[l * np + i] * D[l * np + j];
      B[i * np + j] = a / sqrt(w[i] * w[j]);
    }
  basis_sym_eigen(np, B, o->lam, U);
  o->zero = 0;
  for (int k = 1; k < np; k++)
    if (fabs(o->lam[k]) < fabs(o->lam[o->zero])) o->zero = k;
  for (int i = 0; i < np; i++)
    for (int k = 0; k < np; k++) {
      o->S[i * np + k] = U[i * np + k] / sqrt(w[i]);
      o->St[k * np + i] = o->S[i * np + k];
    }
}

static int metric_ops_init(const Mesh *m, const Disc *d, MetricOps *o) {
  memset(o, 0, sizeof *o);
  o->d = d;
  o->np = d->np;
  o->ng = m->NGeo + 1;
  o->nq = m->NGeo + 1; /* the flux integrand has degree 2 NGeo - 1 per direction */
  double xeq[HX_NPMAX], wb[HX_NPMAX], xq[HX_NPMAX], ends[2] = {-1.0, 1.0};
  basis_equidistant_nodes(m->NGeo, xeq);
  basis_barycentric_weights(m->NGeo, xeq, wb);
  geometry_interp_matrix(m->NGeo, o->np, d->x, o->Vs);
  for (int s = 0; s < 2; s++)
    basis_lagrange_eval(m->NGeo, xeq, wb, ends[s], o->Vend[s]);
  HX_CHECK(basis_nodes_weights(o->nq - 1, NODE_GAUSS, xq, o->wq));
  geometry_interp_matrix(m->NGeo, o->nq, xq, o->Vq);
  fast_diag_init(o);
  return HX_OK;
}

/* J a^dir (component c) from the derivatives dX at point q of a field set with stride n:
 * J a^1 = X_xi2 x X_xi3 and cyclic. */
static void contravariant(const double *dX, long n, long q, int dir, double out[3]) {
  int d1 = (dir + 1) % 3, d2 = (dir + 2) % 3;
#define DX(a, b) dX[((a)*3 + (b)) * n + q]
  for (int c = 0; c < 3; c++) {
    int c1 = (c + 1) % 3, c2 = (c + 2) % 3;
    out[c] = DX(c1, d1) * DX(c2, d2) - DX(c2, d1) * DX(c1, d2);
  }
#undef DX
}

void geometry_nodal_fields(const Mesh *m, int e, double *Xg, double *dXg) {
  int ng = m->NGeo + 1, g3 = ng * ng * ng;
  double xeq[HX_NPMAX], wb[HX_NPMAX], Dg[HX_NPMAX * HX_NPMAX];
  basis_equidistant_nodes(m->NGeo, xeq);
  basis_barycentric_weights(m->NGeo, xeq, wb);
  basis_diff_matrix(m->NGeo, xeq, wb, Dg);
  const double *xg = &m->node_coords[3 * (long)g3 * e];
  for (int a = 0; a < 3; a++) {
    for (int n = 0; n < g3; n++)
      Xg[a * g3 + n] = xg[3 * n + a];
    for (int b = 0; b < 3; b++)
      tensor_deriv_3d(ng, Dg, b, &Xg[a * g3], &dXg[(a * 3 + b) * g3]);
  }
}

/* nf fields of the geometry polynomial at a tensor grid: per direction either the solution
 * nodes, the Gauss points of the flux, or one end (face dir at side plus). */
static void eval_fields(const MetricOps *o, const double *in, int nf, int face_dir, int plus,
                        int quad, double *out, long out_stride) {
  const double *V[3];
  int n[3];
  for (int a = 0; a < 3; a++) {
    if (a == face_dir) {
      V[a] = o->Vend[plus];
      n[a] = 1;
    } else {
      V[a] = quad ? o->Vq : o->Vs;
      n[a] = quad ? o->nq : o->np;
    }
  }
  long g3 = (long)o->ng * o->ng * o->ng;
  for (int f = 0; f < nf; f++)
    tensor_apply_3d(o->ng, V[0], n[0], V[1], n[1], V[2], n[2], &in[f * g3], &out[f * out_stride]);
}

/* Outward J a^dir on the nodes of local face s; the face's nodal normals are then
 * shifted by one constant vector so that their quadrature (the scheme's face quadrature) gives
 * the exact flux of the face, int n dS, which sums to zero over the closed element surface. */
static void face_data(const MetricOps *o, MetricWork *w, int s) {
  int np = o->np, n2 = np * np, nq = o->nq, dir = side_normal_dir(s), plus = side_is_plus(s);
  double sign = plus ? 1.0 : -1.0, *nJ = &w->nJ[s * 3 * n2];
  double *d9 = w->fq;
  eval_fields(o, w->dXg, 9, dir, plus, 1, d9, (long)nq * nq);
  double flux[3] = {0, 0, 0};
  for (int b = 0; b < nq; b++)
    for (int a = 0; a < nq; a++) {
      double v[3];
      contravariant(d9, (long)nq * nq, b * nq + a, dir, v);
      for (int c = 0; c < 3; c++)
        flux[c] += sign * o->wq[a] * o->wq[b] * v[c];
    }
  /* nodal values and their quadrature */
  eval_fields(o, w->dXg, 9, dir, plus, 0, d9, n2);
  const double *wn = o->d->w;
  double quad[3] = {0, 0, 0}, area = 0.0;
  for (int b = 0; b < np; b++)
    for (int a = 0; a < np; a++) {
      double v[3];
      contravariant(d9, n2, b * np + a, dir, v);
      for (int c = 0; c < 3; c++) {
        nJ[c * n2 + b * np + a] = sign * v[c];
        quad[c] += wn[a] * wn[b] * sign * v[c];
      }
      area += wn[a] * wn[b];
    }
  for (int c = 0; c < 3; c++) {
    double shift = (flux[c] - quad[c]) / area;
    for (int t = 0; t < n2; t++)
      nJ[c * n2 + t] += shift;
  }
}

/* Tangential index (in the face arrays of face_data) of volume node (i,j,k) on a face of dir. */
static int face_index(int np, int dir, int i, int j, int k) {
  return dir == 0 ? k * np + j : dir == 1 ? k * np + i : j * np + i;
}

/* The discrete metric identities of the DG operators with the scheme's quadrature: for every
 * basis function phi_p, sum_q w_q grad phi_p(q) . J a_c(q) = sum_faces sum_f w_f phi_p(f) nJ_c(f)
 * (the weak form, and by summation by parts also the split form on Gauss-Lobatto nodes; the
 * free stream is then a steady solution). With C J a the left side and b the right side, the
 * exact nodal J a is corrected by J a^d += D_d lambda, the smallest change in the quadrature
 * norm that satisfies C J a = b: K lambda = b - C J a_exact, K = C D (a discrete Laplacian with
 * Neumann data, singular only for constants, which the closed element surface makes harmless). */
static void satisfy_identities(const MetricOps *o, MetricWork *w) {
  const Disc *d = o->d;
  int np = o->np, n2 = np * np, n3 = n2 * np;
  const double *wn = d->w, *D = d->D;
  for (int c = 0; c < 3; c++) {
    double *r = w->r;
    for (int q = 0; q < n3; q++)
      r[q] = 0.0;
    /* b: the face terms */
    for (int s = 0; s < 6; s++) {
      int dir = side_normal_dir(s);
      const double *Lend = side_is_plus(s) ? d->L_plus : d->L_minus;
      const double *nJ = &w->nJ[(s * 3 + c) * n2];
      for (int b = 0; b < np; b++)
        for (int a = 0; a < np; a++)
          for (int l = 0; l < np; l++) {
            int i = dir == 0 ? l : a, j = dir == 0 ? a : dir == 1 ? l : b, k = dir == 2 ? l : b;
            r[(k * np + j) * np + i] += wn[a] * wn[b] * Lend[l] * nJ[b * np + a];
          }
    }
    /* - C J a: sum_d W_other sum_l w_l D[l][p_d] Ja^d_l */
    for (int dd = 0; dd < 3; dd++) {
      const double *Jd = &w->Ja[(dd * 3 + c) * n3];
      int stride = dd == 0 ? 1 : dd == 1 ? np : n2;
      for (int k = 0; k < np; k++)
        for (int j = 0; j < np; j++)
          for (int i = 0; i < np; i++) {
            int idx[3] = {i, j, k}, p = (k * np + j) * np + i, pd = idx[dd];
            int base = p - pd * stride;
            double acc = 0.0;
            for (int l = 0; l < np; l++)
              acc += wn[l] * D[l * np + pd] * Jd[base + l * stride];
            double wo = 1.0;
            for (int e = 0; e < 3; e++)
              if (e != dd) wo *= wn[idx[e]];
            r[p] -= wo * acc;
          }
    }
    /* lambda = K^+ r by fast diagonalization; the constant mode is left out */
    tensor_apply_3d(np, o->St, np, o->St, np, o->St, np, r, w->tmp);
    for (int k = 0; k < np; k++)
      for (int j = 0; j < np; j++)
        for (int i = 0; i < np; i++) {
          int p = (k * np + j) * np + i;
          if (i == o->zero && j == o->zero && k == o->zero)
            w->tmp[p] = 0.0;
          else
            w->tmp[p] /= o->lam[i] + o->lam[j] + o->lam[k];
        }
    tensor_apply_3d(np, o->S, np, o->S, np, o->S, np, w->tmp, r);
    for (int dd = 0; dd < 3; dd++) {
      double *Jd = &w->Ja[(dd * 3 + c) * n3];
      tensor_deriv_3d(np, D, dd, r, w->tmp);
      for (int q = 0; q < n3; q++)
        Jd[q] += w->tmp[q];
    }
  }
}

/* 1/J at the solution nodes from the exact derivatives; a non-positive J is reported (with element
 * and location) only when report is set, so that a parallel sweep reports the first bad element
 * once. */
static int element_jacobian(const Mesh *m, int e, int n3, const double *dX, const double *Xs,
                            double *sJ, int report) {
  for (int q = 0; q < n3; q++) {
    double J = jacobian_determinant(dX, n3, q);
    if (!(J > 0.0))
      return !report
                 ? HX_ERR_INPUT
                 : HX_ERROR(HX_ERR_INPUT,
                            "mesh %s: element %ld has a non-positive Jacobian J=%g at x=(%g, "
                            "%g, %g) (inverted or degenerate element; reduce BoxCurving or fix "
                            "the mesh)",
                            m->source, m->elem_global_id[e], J, Xs[q], Xs[n3 + q], Xs[2 * n3 + q]);
    sJ[q] = 1.0 / J;
  }
  return HX_OK;
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

/* Side data of local face s of the side's master element, in the side's (p,q) order. */
static void store_side(const MetricOps *o, MetricWork *w, int side, int s, Geometry *g) {
  int np = o->np, N = np - 1, n2 = np * np, dir = side_normal_dir(s);
  const double *nJ = &w->nJ[s * 3 * n2], *fx = w->fx;
  eval_fields(o, w->Xg, 3, dir, side_is_plus(s), 0, w->fx, n2);
  for (int q = 0; q < np; q++)
    for (int p = 0; p < np; p++) {
      int i, j, k, f = q * np + p;
      side_to_volume(N, s, p, q, &i, &j, &k);
      int t = face_index(np, dir, i, j, k);
      double v[3] = {nJ[t], nJ[n2 + t], nJ[2 * n2 + t]};
      double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), n[3], t1[3], t2[3];
      for (int c = 0; c < 3; c++)
        n[c] = v[c] / len;
      tangents(n, t1, t2);
      g->face_surf[(long)side * n2 + f] = len;
      for (int c = 0; c < 3; c++) {
        long at = ((long)side * 3 + c) * n2 + f;
        g->face_nvec[at] = n[c];
        g->face_t1[at] = t1[c];
        g->face_t2[at] = t2[c];
        g->face_x[at] = fx[c * n2 + t];
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

static void work_alloc(const MetricOps *o, MetricWork *w) {
  long g3 = (long)o->ng * o->ng * o->ng, n3 = (long)o->np * o->np * o->np, n2 = o->np * o->np;
  long nq2 = (long)o->nq * o->nq, f9 = 9 * (nq2 > n2 ? nq2 : n2);
  w->Xg = malloc(sizeof(double) * 3 * g3);
  w->dXg = malloc(sizeof(double) * 9 * g3);
  w->dX = malloc(sizeof(double) * 9 * n3);
  w->Ja = malloc(sizeof(double) * 9 * n3);
  w->r = malloc(sizeof(double) * n3);
  w->tmp = malloc(sizeof(double) * n3);
  w->nJ = malloc(sizeof(double) * 18 * n2);
  w->fx = malloc(sizeof(double) * 3 * n2);
  w->fq = malloc(sizeof(double) * f9);
}

static void work_free(MetricWork *w) {
  free(w->Xg);
  free(w->dXg);
  free(w->dX);
  free(w->Ja);
  free(w->r);
  free(w->tmp);
  free(w->nJ);
  free(w->fx);
  free(w->fq);
}

/* Everything of element e; returns HX_OK or HX_ERR_INPUT for a non-positive Jacobian. */
static int element_metrics(const Mesh *m, int e, const MetricOps *o, MetricWork *w, Geometry *g,
                           int report) {
  int np = o->np;
  long n3 = (long)np * np * np;
  double *Xs = &g->elem_x[3 * n3 * e];
  geometry_nodal_fields(m, e, w->Xg, w->dXg);
  eval_fields(o, w->Xg, 3, -1, 0, 0, Xs, n3);
  eval_fields(o, w->dXg, 9, -1, 0, 0, w->dX, n3);
  int rc = element_jacobian(m, e, (int)n3, w->dX, Xs, &g->sJ[n3 * e], report);
  if (rc != HX_OK) return rc;
  for (int dir = 0; dir < 3; dir++)
    for (long q = 0; q < n3; q++) {
      double v[3];
      contravariant(w->dX, n3, q, dir, v);
      for (int c = 0; c < 3; c++)
        w->Ja[(dir * 3 + c) * n3 + q] = v[c];
    }
  for (int s = 0; s < 6; s++)
    face_data(o, w, s);
  satisfy_identities(o, w);
  memcpy(&g->metrics[9 * n3 * e], w->Ja, sizeof(double) * 9 * n3);
  for (int s = 0; s < 6; s++)
    if (m->elem_to_side_flip[6 * e + s] == 0) store_side(o, w, m->elem_to_side[6 * e + s], s, g);
  return HX_OK;
}

int metrics_compute(const Mesh *m, const Disc *d, Geometry *g) {
  MetricOps o;
  memset(g, 0, sizeof *g);
  HX_CHECK(metric_ops_init(m, d, &o));
  HX_CHECK(geometry_alloc(m, d->np, g));
  int bad_elem = m->n_elems;
#pragma omp parallel
  {
    MetricWork w;
    work_alloc(&o, &w);
#pragma omp for schedule(static) reduction(min : bad_elem)
    for (int e = 0; e < m->n_elems; e++)
      if (element_metrics(m, e, &o, &w, g, 0) != HX_OK && e < bad_elem) bad_elem = e;
    work_free(&w);
  }
  if (bad_elem < m->n_elems) {
    MetricWork w;
    work_alloc(&o, &w);
    int rc = element_metrics(m, bad_elem, &o, &w, g, 1);
    work_free(&w);
    return rc;
  }
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
