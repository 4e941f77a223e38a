/* FV switching on Gauss nodes: equidistant subcells (FLEXI's FV on Gauss nodes), their metrics,
 * the face subcells of sides with an FV element, and the FV element's surface term. */
#include "dg/fv_gauss.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "dg/fv_gauss_pointwise.h"
#include "dg/indicator.h"
#include "mesh/facemap.h"
#include "parallel/exchange.h"
#include "physics/indicators.h"

/* out = M applied along direction d of the n0 x n1 x n2 array in (i fastest); M is m x n_d, out
 * has m entries in direction d. */
static void tensor_pass(const double *M, int m, int d, const int dims[3], const double *in,
                        double *out) {
  int od[3] = {dims[0], dims[1], dims[2]};
  od[d] = m;
  const int n = dims[d];
  const int s_in[3] = {1, dims[0], dims[0] * dims[1]}, s_out[3] = {1, od[0], od[0] * od[1]};
  for (int k = 0; k < od[2]; k++)
    for (int j = 0; j < od[1]; j++)
      for (int i = 0; i < od[0]; i++) {
        const int o[3] = {i, j, k};
        int base = 0;
        for (int c = 0; c < 3; c++)
          base += c == d ? 0 : o[c] * s_in[c];
        double acc = 0.0;
        for (int l = 0; l < n; l++)
          acc += M[o[d] * n + l] * in[base + l * s_in[d]];
        out[i * s_out[0] + j * s_out[1] + k * s_out[2]] = acc;
      }
}

void fv_gauss_face_means(int np, const double *M, const double *in, double *out) {
  for (int q = 0; q < np; q++)
    for (int p = 0; p < np; p++)
      out[q * np + p] = fvg_face_mean(np, M, in, 1, p, q);
}

/* The subcell means of an np^3 array of DG node values (out may not alias in). */
static void subcell_means(const Solver *s, const double *in, double *out) {
  const int np = s->np, dims[3] = {np, np, np};
  double a[HX_NPMAX * HX_NPMAX * HX_NPMAX], b[HX_NPMAX * HX_NPMAX * HX_NPMAX];
  tensor_pass(s->fv.to_fv, np, 0, dims, in, a);
  tensor_pass(s->fv.to_fv, np, 1, dims, a, b);
  tensor_pass(s->fv.to_fv, np, 2, dims, b, out);
}

const double *fv_elem_sJ(const Solver *s, int e) {
  const long at = (long)s->n_dof_elem * e;
  return s->fv.gauss && s->fv.fv_elems[e] ? &s->fv.gauss->sJ[at] : &s->geo.sJ[at];
}

const double *fv_elem_metrics(const Solver *s, int e) {
  const long at = 9L * s->n_dof_elem * e;
  return s->fv.gauss && s->fv.fv_elems[e] ? &s->fv.gauss->Ja[at] : &s->geo.metrics[at];
}

/* Face subcell geometry of every side: the subcell means of the master's n dS and of the face
 * points' positions. */
static void face_geometry(const Solver *s, struct FVGauss *g) {
  const int np = s->np, n2 = s->n_dof_face;
  const Geometry *geo = &s->geo;
  for (int side = 0; side < s->mesh->n_sides; side++)
    for (int c = 0; c < 3 && s->mesh->side_master_elem[side] >= 0; c++) {
      double ns[HX_NPMAX * HX_NPMAX];
      const long at = ((long)side * 3 + c) * n2;
      for (int f = 0; f < n2; f++)
        ns[f] = geo->face_nvec[at + f] * geo->face_surf[(long)side * n2 + f];
      fv_gauss_face_means(np, s->fv.to_fv, ns, &g->face_mv[at]);
      fv_gauss_face_means(np, s->fv.to_fv, &geo->face_x[at], &g->face_x[at]);
    }
}

/* Mean of I(J a^d)_c over the subcell interfaces of one element: mv[d][c][k][j][i] with np + 1
 * entries in direction d (i_d = 0 and np: the element faces), np in the others. */
static void interface_means(const Solver *s, int e, const double *Lface, double *mv, int stride_d) {
  const int np = s->np, n3 = s->n_dof_elem;
  const double *Ja = &s->geo.metrics[9L * n3 * e];
  double a[(HX_NPMAX + 1) * HX_NPMAX * HX_NPMAX], b[(HX_NPMAX + 1) * HX_NPMAX * HX_NPMAX];
  for (int d = 0; d < 3; d++)
    for (int c = 0; c < 3; c++) {
      int dims[3] = {np, np, np};
      tensor_pass(Lface, np + 1, d, dims, &Ja[(d * 3 + c) * n3], a);
      dims[d] = np + 1;
      const int t1 = d == 0 ? 1 : 0, t2 = d == 2 ? 1 : 2;
      tensor_pass(s->fv.to_fv, np, t1, dims, a, b);
      tensor_pass(s->fv.to_fv, np, t2, dims, b, &mv[(d * 3 + c) * stride_d]);
    }
}

/* Index of the interface (i_d = m) of the line (a, b) in direction d in an array with np + 1
 * entries in direction d (i fastest). */
static int iface_index(int np, int d, int m, int a, int b) {
  return d == 0   ? (b * np + a) * (np + 1) + m
         : d == 1 ? (b * (np + 1) + m) * np + a
                  : (m * np + b) * np + a;
}

/* The element faces' interface vectors from the sides' face subcell n dS (identical for both
 * elements of a side: watertight), with the element's orientation: +n dS where the master's
 * outward normal is the element's +xi_d direction. */
static void boundary_from_sides(const Solver *s, const struct FVGauss *g, int e, double *mv,
                                int stride_d) {
  const Mesh *m = s->mesh;
  const int np = s->np, n2 = s->n_dof_face;
  for (int ls = 0; ls < 6; ls++) {
    const int side = m->elem_to_side[6 * e + ls], flip = m->elem_to_side_flip[6 * e + ls];
    const int d = side_normal_dir(ls), plus = side_is_plus(ls);
    const double sign = (flip == 0 ? 1.0 : -1.0) * (plus ? 1.0 : -1.0);
    const int *map = &s->s2v[(flip * 6 + ls) * n2];
    for (int f = 0; f < n2; f++) {
      const int q = map[f], i = q % np, j = (q / np) % np, k = q / (np * np);
      const int a = d == 0 ? j : i, b = d == 2 ? j : k;
      for (int c = 0; c < 3; c++)
        mv[(d * 3 + c) * stride_d + iface_index(np, d, plus ? np : 0, a, b)] =
            sign * g->face_mv[((long)side * 3 + c) * n2 + f];
    }
  }
}

/* Fast diagonalization of the Neumann graph Laplacian of the np^3 subcells: the path Laplacian's
 * eigenvectors are cosines (DCT-II), eigenvalues 2 - 2 cos(pi k / np). */
static void neumann_solve(int np, const double *r, double *lam) {
  double V[HX_NPMAX * HX_NPMAX], VT[HX_NPMAX * HX_NPMAX], mu[HX_NPMAX];
  for (int k = 0; k < np; k++) {
    mu[k] = 2.0 - 2.0 * cos(HX_PI * k / np);
    for (int i = 0; i < np; i++) {
      V[i * np + k] = (k == 0 ? sqrt(1.0 / np) : sqrt(2.0 / np)) * cos(HX_PI * k * (i + 0.5) / np);
      VT[k * np + i] = V[i * np + k];
    }
  }
  const int dims[3] = {np, np, np}, n3 = np * np * np;
  double a[HX_NPMAX * HX_NPMAX * HX_NPMAX], b[HX_NPMAX * HX_NPMAX * HX_NPMAX];
  tensor_pass(VT, np, 0, dims, r, a);
  tensor_pass(VT, np, 1, dims, a, b);
  tensor_pass(VT, np, 2, dims, b, a);
  for (int q = 0; q < n3; q++) {
    const double ev = mu[q % np] + mu[(q / np) % np] + mu[q / (np * np)];
    a[q] = ev > 0.0 ? a[q] / ev : 0.0;
  }
  tensor_pass(V, np, 0, dims, a, b);
  tensor_pass(V, np, 1, dims, b, a);
  tensor_pass(V, np, 2, dims, a, lam);
}

/* Close every subcell: r = sum_d (mv at i_d + 1 - mv at i_d) is removed by the smallest change of
 * the inner interfaces, mv(P|Q) += lambda_Q - lambda_P with L lambda = r (solvable: the element
 * sum of r is the closed element surface's, zero). */
static void close_subcells(int np, double *mv, int stride_d) {
  const int n3 = np * np * np;
  for (int c = 0; c < 3; c++) {
    double r[HX_NPMAX * HX_NPMAX * HX_NPMAX], lam[HX_NPMAX * HX_NPMAX * HX_NPMAX];
    for (int q = 0; q < n3; q++) {
      const int idx[3] = {q % np, (q / np) % np, q / (np * np)};
      r[q] = 0.0;
      for (int d = 0; d < 3; d++) {
        const int a = d == 0 ? idx[1] : idx[0], b = d == 2 ? idx[1] : idx[2];
        const double *m = &mv[(d * 3 + c) * stride_d];
        r[q] += m[iface_index(np, d, idx[d] + 1, a, b)] - m[iface_index(np, d, idx[d], a, b)];
      }
    }
    neumann_solve(np, r, lam);
    for (int d = 0; d < 3; d++) {
      const int st = d == 0 ? 1 : d == 1 ? np : np * np;
      double *m = &mv[(d * 3 + c) * stride_d];
      for (int q = 0; q < n3; q++) {
        const int idx[3] = {q % np, (q / np) % np, q / (np * np)};
        if (idx[d] == np - 1) continue;
        const int a = d == 0 ? idx[1] : idx[0], b = d == 2 ? idx[1] : idx[2];
        m[iface_index(np, d, idx[d] + 1, a, b)] -= lam[q] - lam[q + st];
      }
    }
  }
}

/* The inner interfaces into fv->metrics ([elem][dir][line a np + b][interface N][comp]). */
static void store_inner(const Solver *s, int e, const double *mv, int stride_d) {
  const int np = s->np, N = np - 1;
  for (int d = 0; d < 3; d++)
    for (int a = 0; a < np; a++)
      for (int b = 0; b < np; b++) {
        double *out = &s->fv.metrics[(((long)e * 3 + d) * np * np + a * np + b) * N * 3];
        for (int i = 0; i < N; i++)
          for (int c = 0; c < 3; c++)
            out[i * 3 + c] = mv[(d * 3 + c) * stride_d + iface_index(np, d, i + 1, a, b)];
      }
}

/* Subcell Jacobians: 1 / (subcell mean of J), so that sum h^3 J_FV = sum w J (the volume); and
 * the subcell means of the metric terms (FLEXI's FV metrics, for the FV time step). */
static void subcell_geometry(const Solver *s, struct FVGauss *g, int e) {
  const int n3 = s->n_dof_elem;
  double a[HX_NPMAX * HX_NPMAX * HX_NPMAX] = {0}, b[HX_NPMAX * HX_NPMAX * HX_NPMAX];
  const double *sJ = &s->geo.sJ[(long)n3 * e];
  for (int q = 0; q < n3; q++)
    a[q] = 1.0 / sJ[q];
  subcell_means(s, a, b);
  for (int q = 0; q < n3; q++)
    g->sJ[(long)n3 * e + q] = 1.0 / b[q];
  for (int c = 0; c < 9; c++)
    subcell_means(s, &s->geo.metrics[(9L * e + c) * n3], &g->Ja[(9L * e + c) * n3]);
}

/* Length of the path x(xi) for xi_d in [x0, x1] along one line: |dx/dxi_d| (values P[c][l] at
 * the Gauss nodes of the line, stride ps between c) integrated with np Gauss points (FLEXI
 * src/fv/fv_metrics.f90, Integrate_Path). */
static double path_length(const Solver *s, const double *P, int ps, double x0, double x1) {
  const int np = s->np, N = np - 1;
  double len = 0.0, L[HX_NPMAX];
  for (int m = 0; m < np; m++) {
    basis_lagrange_eval(N, s->disc.x, s->disc.wb, x0 + 0.5 * (s->disc.x[m] + 1.0) * (x1 - x0), L);
    double t[3] = {0.0, 0.0, 0.0};
    for (int c = 0; c < 3; c++)
      for (int l = 0; l < np; l++)
        t[c] += L[l] * P[c * ps + l];
    len += s->disc.w[m] * sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
  }
  return 0.5 * (x1 - x0) * len;
}

/* Physical distances of element e (FLEXI src/fv/fv_metrics.f90, InitFV_Metrics): along every
 * subcell line of direction d (dx/dxi_d averaged over the subcell tangentially), from each
 * subcell centre to its two faces (dx_l, dx_r), and from each element face to the first Gauss
 * node (FLEXI's DG_dx), the latter stored with the first subcell's into the side arrays. */
static void subcell_distances(const Solver *s, struct FVGauss *g, int e) {
  const Mesh *m = s->mesh;
  const int np = s->np, N = np - 1, n3 = s->n_dof_elem, n2 = s->n_dof_face, dims[3] = {np, np, np};
  const double h = g->h;
  const double *X = &s->geo.elem_x[3L * n3 * e];
  double dg_dx[6][HX_NPMAX * HX_NPMAX];
  for (int d = 0; d < 3; d++) {
    double P[3][HX_NPMAX * HX_NPMAX * HX_NPMAX], a[HX_NPMAX * HX_NPMAX * HX_NPMAX];
    const int t1 = d == 0 ? 1 : 0, t2 = d == 2 ? 1 : 2, st = d == 0 ? 1 : d == 1 ? np : np * np;
    for (int c = 0; c < 3; c++) { /* dx_c/dxi_d, subcell means in the tangential directions */
      tensor_pass(s->disc.D, np, d, dims, &X[c * n3], P[c]);
      tensor_pass(s->fv.to_fv, np, t1, dims, P[c], a);
      tensor_pass(s->fv.to_fv, np, t2, dims, a, P[c]);
    }
    for (int q = 0; q < n3; q++) {
      const int idx[3] = {q % np, (q / np) % np, q / (np * np)};
      if (idx[d] != 0) continue;
      double line[3 * HX_NPMAX];
      for (int c = 0; c < 3; c++)
        for (int l = 0; l < np; l++)
          line[c * np + l] = P[c][q + l * st];
      const int ln = fvg_line_of(np, d, q);
      const long at = ((long)e * 3 + d) * n3 + (long)ln * np;
      for (int i = 0; i < np; i++) {
        const double b0 = -1.0 + i * h, b1 = i == N ? 1.0 : -1.0 + (i + 1) * h;
        g->dx_l[at + i] = path_length(s, line, np, b0, b0 + 0.5 * h);
        g->dx_r[at + i] = path_length(s, line, np, b1 - 0.5 * h, b1);
      }
      dg_dx[fvg_local_side(d, 0)][ln] = path_length(s, line, np, -1.0, s->disc.x[0]);
      dg_dx[fvg_local_side(d, 1)][ln] = path_length(s, line, np, s->disc.x[N], 1.0);
    }
  }
  for (int ls = 0; ls < 6; ls++) {
    const int side = m->elem_to_side[6 * e + ls], flip = m->elem_to_side_flip[6 * e + ls];
    const int d = side_normal_dir(ls), plus = side_is_plus(ls);
    const int *map = &s->s2v[(flip * 6 + ls) * n2];
    double *dist = flip == 0 ? &g->dist_master[2L * n2 * side] : &g->dist_slave[2L * n2 * side];
    for (int f = 0; f < n2; f++) {
      const int ln = fvg_line_of(np, d, map[f]);
      const long at = ((long)e * 3 + d) * n3 + (long)ln * np;
      dist[f] = plus ? g->dx_r[at + N] : g->dx_l[at];
      dist[n2 + f] = dg_dx[ls][ln];
    }
  }
}

static int gauss_alloc(const Solver *s, struct FVGauss *g) {
  const long ns = s->mesh->n_sides > 0 ? s->mesh->n_sides : 1, n2 = s->n_dof_face;
  const long ne = s->mesh->n_elems > 0 ? s->mesh->n_elems : 1, n3 = s->n_dof_elem;
  g->sJ = hx_malloc(sizeof(double) * ne * n3, "FV subcell Jacobians");
  g->Ja = hx_malloc(sizeof(double) * ne * 9 * n3, "FV subcell metrics");
  g->face_mv = hx_calloc(ns * 3 * n2, sizeof(double), "FV face subcells");
  g->face_x = hx_calloc(ns * 3 * n2, sizeof(double), "FV face subcells");
  g->flux_fv = hx_calloc(ns * s->n_var * n2, sizeof(double), "FV face fluxes");
  g->ut_save = hx_malloc(sizeof(double) * ne * s->n_var * n3, "FV residuals");
  g->side_fv = hx_calloc(ns, sizeof(int), "FV sides");
  g->fv_master = hx_calloc(ns, sizeof(double), "FV sides");
  g->fv_slave = hx_calloc(ns, sizeof(double), "FV sides");
  g->dx_l = hx_malloc(sizeof(double) * ne * 3 * n3, "FV subcell distances");
  g->dx_r = hx_malloc(sizeof(double) * ne * 3 * n3, "FV subcell distances");
  g->dist_master = hx_calloc(ns * 2 * n2, sizeof(double), "FV face distances");
  g->dist_slave = hx_calloc(ns * 2 * n2, sizeof(double), "FV face distances");
  g->multi_master = hx_calloc(ns * HX_NVAR * n2, sizeof(double), "FV face neighbour states");
  g->multi_slave = hx_calloc(ns * HX_NVAR * n2, sizeof(double), "FV face neighbour states");
  g->ghost = hx_calloc(ne * 6 * HX_NVAR * n2, sizeof(double), "FV ghost states");
  g->ghost_dx = hx_calloc(ne * 6 * n2, sizeof(double), "FV ghost distances");
  if (s->viscous) { /* Navier-Stokes: the subcell interfaces' slopes (fv_gauss_visc.c) */
    g->slope = hx_calloc(ne * 3 * HX_NLIFT * n2 * (s->np + 1), sizeof(double), "FV slopes");
    if (!g->slope) return HX_ERR_MEM;
  }
  if (!g->sJ || !g->Ja || !g->face_mv || !g->face_x || !g->flux_fv || !g->ut_save || !g->side_fv ||
      !g->fv_master || !g->fv_slave || !g->dx_l || !g->dx_r || !g->dist_master || !g->dist_slave ||
      !g->multi_master || !g->multi_slave || !g->ghost || !g->ghost_dx)
    return HX_ERR_MEM;
  return HX_OK;
}

/* What the Gauss-node switching covers in this version. */
static int check_supported(const Solver *s) {
  const char *what = s->disc.N < 1          ? "N >= 1"
                     : s->mech              ? "air (no Mechanism)"
                     : s->viscous && s->sgs ? "eddyViscType = none with mu0 > 0 (no LES model)"
                     : s->fv.mode != FV_MODE_SWITCHING ? "FV_Mode = switching"
                                                       : NULL;
  if (!what) return HX_OK;
  return HX_ERROR(HX_ERR_INPUT,
                  "FV subcells on NodeType = GAUSS (FLEXI's FV = SWITCH build with "
                  "NODETYPE = GAUSS) need %s in this version; use NodeType = GAUSS-LOBATTO "
                  "(blending and switching on the LGL subcells) or IndicatorType = none",
                  what);
}

int fv_gauss_init(Solver *s) {
  const int np = s->np, N = np - 1;
  HX_CHECK(check_supported(s));
  struct FVGauss *g = hx_calloc(1, sizeof *g, "FV on Gauss nodes");
  if (!g) return HX_ERR_MEM;
  s->fv.gauss = g;
  g->h = 2.0 / np;
  HX_CHECK(gauss_alloc(s, g));
  face_geometry(s, g);
  /* the master's rank holds an MPI side's geometry (mesh/metrics.c): the slave's rank receives it
   */
  const long per_side = 3L * s->n_dof_face;
  exchange_start(s->exchange, EXCH_ALPHA, g->face_mv, per_side, EXCH_TO_SLAVE);
  exchange_finish(s->exchange, EXCH_ALPHA);
  exchange_start(s->exchange, EXCH_ALPHA, g->face_x, per_side, EXCH_TO_SLAVE);
  exchange_finish(s->exchange, EXCH_ALPHA);
  double x_face[HX_NPMAX + 1], Lface[(HX_NPMAX + 1) * HX_NPMAX];
  for (int i = 0; i <= np; i++) {
    x_face[i] = i == np ? 1.0 : -1.0 + i * g->h;
    basis_lagrange_eval(N, s->disc.x, s->disc.wb, x_face[i], &Lface[i * np]);
  }
  const int stride_d = (np + 1) * np * np;
  double *mv = malloc(sizeof(double) * 9 * stride_d);
  if (!mv) return HX_ERROR(HX_ERR_MEM, "out of host memory (FV subcell metrics)");
  for (int e = 0; e < s->mesh->n_elems; e++) {
    interface_means(s, e, Lface, mv, stride_d);
    boundary_from_sides(s, g, e, mv, stride_d);
    close_subcells(np, mv, stride_d);
    store_inner(s, e, mv, stride_d);
    subcell_geometry(s, g, e);
    subcell_distances(s, g, e);
  }
  free(mv);
  /* an MPI side's distances: each element's rank has its own, the other rank receives them */
  exchange_start(s->exchange, EXCH_ALPHA, g->dist_slave, 2L * s->n_dof_face, EXCH_TO_MASTER);
  exchange_finish(s->exchange, EXCH_ALPHA);
  exchange_start(s->exchange, EXCH_ALPHA, g->dist_master, 2L * s->n_dof_face, EXCH_TO_SLAVE);
  exchange_finish(s->exchange, EXCH_ALPHA);
  return HX_OK;
}

void fv_gauss_free(Solver *s) {
  struct FVGauss *g = s->fv.gauss;
  if (!g) return;
  free(g->sJ);
  free(g->Ja);
  free(g->face_mv);
  free(g->face_x);
  free(g->flux_fv);
  free(g->ut_save);
  free(g->side_fv);
  free(g->fv_master);
  free(g->fv_slave);
  free(g->dx_l);
  free(g->dx_r);
  free(g->dist_master);
  free(g->dist_slave);
  free(g->multi_master);
  free(g->multi_slave);
  free(g->ghost);
  free(g->ghost_dx);
  free(g->slope);
  free(g);
  s->fv.gauss = NULL;
}

/* One element's face state at the face subcells: its boundary subcell means (FV) or the subcell
 * means of its face polynomial (DG, in place). */
static void face_state(const Solver *s, const double *U, int e, int ls, int flip, double *Uf) {
  const int nv = s->n_var, n2 = s->n_dof_face, n3 = s->n_dof_elem;
  if (s->fv.fv_elems[e]) {
    const int *map = &s->s2v[(flip * 6 + ls) * n2];
    for (int v = 0; v < nv; v++)
      for (int f = 0; f < n2; f++)
        Uf[v * n2 + f] = U[((long)e * nv + v) * n3 + map[f]];
    return;
  }
  for (int v = 0; v < nv; v++) {
    double tmp[HX_NPMAX * HX_NPMAX];
    memcpy(tmp, &Uf[v * n2], sizeof(double) * n2);
    fv_gauss_face_means(s->np, s->fv.to_fv, tmp, &Uf[v * n2]);
  }
}

/* side_fv of every side from both elements' FV_Elems (the other rank's over MPI sides). */
static void side_flags(const Solver *s, struct FVGauss *g) {
  const Mesh *m = s->mesh;
  for (int side = 0; side < m->n_sides; side++) {
    const int em = m->side_master_elem[side], es = m->side_slave_elem[side];
    g->fv_master[side] = em >= 0 ? s->fv.fv_elems[em] : 0.0;
    g->fv_slave[side] = es >= 0 ? s->fv.fv_elems[es] : 0.0;
  }
  exchange_start(s->exchange, EXCH_ALPHA, g->fv_slave, 1, EXCH_TO_MASTER);
  exchange_finish(s->exchange, EXCH_ALPHA);
  exchange_start(s->exchange, EXCH_ALPHA, g->fv_master, 1, EXCH_TO_SLAVE);
  exchange_finish(s->exchange, EXCH_ALPHA);
  for (int side = 0; side < m->n_sides; side++)
    g->side_fv[side] = g->fv_master[side] != 0.0 || g->fv_slave[side] != 0.0;
}

/* What the other element of a side sees of element e beyond the face (FLEXI
 * src/fv/fv_reconstruction.f90, FV_PrepareSurfGradient, and FV_DGtoFV on it): the primitive
 * state of the node layer next to the face, for a DG element its subcell means on the face. */
static void multi_state(const Solver *s, const double *U, int e, int ls, int flip, double *M) {
  const int nv = s->n_var, n2 = s->n_dof_face, n3 = s->n_dof_elem;
  const int *map = &s->s2v[(flip * 6 + ls) * n2];
  for (int f = 0; f < n2; f++) {
    double u[HX_NVAR], pr[HX_NPRIM];
    for (int v = 0; v < HX_NVAR; v++)
      u[v] = U[((long)e * nv + v) * n3 + map[f]];
    cons_to_prim(&s->phys, u, pr);
    for (int v = 0; v < HX_NVAR; v++)
      M[v * n2 + f] = pr[v];
  }
  if (s->fv.fv_elems[e]) return;
  for (int v = 0; v < HX_NVAR; v++) {
    double tmp[HX_NPMAX * HX_NPMAX];
    memcpy(tmp, &M[v * n2], sizeof(double) * n2);
    fv_gauss_face_means(s->np, s->fv.to_fv, tmp, &M[v * n2]);
  }
}

/* FV element e: the ghost states of its six faces and their distances (FLEXI
 * src/fv/fv_reconstruction.f90, FV_SurfCalcGradients): the other element's multi_state at the
 * distance of both centres from the face (an FV neighbour's first subcell centre, a DG
 * neighbour's first Gauss node); at a boundary the boundary state of the boundary subcell mean at
 * the face (FLEXI's GetBoundaryFVgradient). */
static void gather_ghosts(const Solver *s, const double *U, int e, double t) {
  const Mesh *m = s->mesh;
  const struct FVGauss *g = s->fv.gauss;
  const int np = s->np, nv = s->n_var, n2 = s->n_dof_face, n3 = s->n_dof_elem;
  double *gh = &g->ghost[(long)e * 6 * HX_NVAR * n2], *gd = &g->ghost_dx[(long)e * 6 * n2];
  for (int ls = 0; ls < 6; ls++) {
    const int side = m->elem_to_side[6 * e + ls], flip = m->elem_to_side_flip[6 * e + ls];
    const int bc = m->side_bc[side], *map = &s->s2v[(flip * 6 + ls) * n2];
    const double *own = &(flip == 0 ? g->dist_master : g->dist_slave)[2L * n2 * side];
    const double *other =
        &(flip == 0 ? g->multi_slave : g->multi_master)[(long)HX_NVAR * n2 * side];
    const double *other_dist = &(flip == 0 ? g->dist_slave : g->dist_master)[2L * n2 * side];
    const int other_dg = (flip == 0 ? g->fv_slave : g->fv_master)[side] == 0.0;
    for (int f = 0; f < n2; f++) {
      const int line = fvg_line_of(np, side_normal_dir(ls), map[f]);
      double pr[HX_NPRIM];
      if (bc >= 0) {
        double uL[HX_NVAR], mv[3], x[3];
        for (int c = 0; c < 3; c++) {
          mv[c] = g->face_mv[((long)side * 3 + c) * n2 + f];
          x[c] = g->face_x[((long)side * 3 + c) * n2 + f];
        }
        for (int v = 0; v < HX_NVAR; v++)
          uL[v] = U[((long)e * nv + v) * n3 + map[f]];
        fvg_boundary_ghost(s->bc_info[2 * bc], s->bc_info[2 * bc + 1], &s->exact, &s->phys, uL, mv,
                           x, t, pr);
      } else {
        for (int v = 0; v < HX_NVAR; v++)
          pr[v] = other[v * n2 + f];
      }
      gd[ls * n2 + line] = fvg_ghost_distance(bc >= 0, own[f], other_dist[other_dg * n2 + f]);
      for (int v = 0; v < HX_NVAR; v++)
        gh[(ls * HX_NVAR + v) * n2 + line] = pr[v];
    }
  }
}

/* FV element e's face states: its boundary subcells reconstructed to the face with the slope
 * limited against the ghost (first order where that state is not admissible). */
static void reconstruct_faces(const Solver *s, const double *U, int e) {
  const Mesh *m = s->mesh;
  const struct FVGauss *g = s->fv.gauss;
  const int np = s->np, N = np - 1, nv = s->n_var, n2 = s->n_dof_face, n3 = s->n_dof_elem;
  const long blk = (long)nv * n2;
  const double *gh = &g->ghost[(long)e * 6 * HX_NVAR * n2], *gd = &g->ghost_dx[(long)e * 6 * n2];
  for (int ls = 0; ls < 6; ls++) {
    const int side = m->elem_to_side[6 * e + ls], flip = m->elem_to_side_flip[6 * e + ls];
    const int d = side_normal_dir(ls), plus = side_is_plus(ls);
    const int inward = (plus ? -1 : 1) * (d == 0 ? 1 : d == 1 ? np : np * np);
    double *Uf = flip == 0 ? &s->U_master[blk * side] : &s->U_slave[blk * side];
    const int *map = &s->s2v[(flip * 6 + ls) * n2];
    for (int f = 0; f < n2; f++) {
      const int q0 = map[f], line = fvg_line_of(np, d, q0);
      const long at = ((long)e * 3 + d) * n3 + (long)line * np;
      const double d1 =
          plus ? g->dx_l[at + N] + g->dx_r[at + N - 1] : g->dx_r[at] + g->dx_l[at + 1];
      const double dface = plus ? g->dx_r[at + N] : g->dx_l[at];
      double u0[HX_NVAR], u1[HX_NVAR], uf[HX_NVAR];
      for (int v = 0; v < HX_NVAR; v++) {
        u0[v] = U[((long)e * nv + v) * n3 + q0];
        u1[v] = U[((long)e * nv + v) * n3 + q0 + inward];
      }
      if (!fvg_reconstruct_face(&s->phys, s->fv.limiter, s->fv.line.sweby_beta, u0, u1,
                                &gh[ls * HX_NVAR * n2 + line], n2, gd[ls * n2 + line], d1, dface,
                                uf))
        continue; /* keep the mean */
      for (int v = 0; v < HX_NVAR; v++)
        Uf[v * n2 + f] = uf[v];
    }
  }
}

void fv_gauss_prolong_start(const Solver *s, const double *U) {
  const Mesh *m = s->mesh;
  struct FVGauss *g = s->fv.gauss;
  const long blk = (long)s->n_var * s->n_dof_face, mblk = (long)HX_NVAR * s->n_dof_face;
  g->U = U;
  side_flags(s, g);
  prolong_vars_to_face_range(s, U, s->n_var, s->U_master, s->U_slave, 0, m->n_sides);
#pragma omp parallel for schedule(static)
  for (int side = 0; side < m->n_sides; side++) {
    const int em = m->side_master_elem[side], es = m->side_slave_elem[side];
    const int lm = m->side_master_locside[side], lsl = m->side_slave_locside[side];
    if (!g->side_fv[side]) continue;
    if (em >= 0) {
      face_state(s, U, em, lm, 0, &s->U_master[blk * side]);
      multi_state(s, U, em, lm, 0, &g->multi_master[mblk * side]);
    }
    if (es >= 0) {
      face_state(s, U, es, lsl, m->side_flip[side], &s->U_slave[blk * side]);
      multi_state(s, U, es, lsl, m->side_flip[side], &g->multi_slave[mblk * side]);
    }
  }
  if (s->np > 1) { /* what each element's reconstruction needs of the other */
    exchange_start(s->exchange, EXCH_U, g->multi_slave, mblk, EXCH_TO_MASTER);
    exchange_finish(s->exchange, EXCH_U);
    exchange_start(s->exchange, EXCH_U, g->multi_master, mblk, EXCH_TO_SLAVE);
    exchange_finish(s->exchange, EXCH_U);
  }
}

void fv_gauss_subcell_volume(const Solver *s, int e, const double *prim, double *Ut) {
  const struct FVGauss *g = s->fv.gauss;
  const int np = s->np, N = np - 1, n3 = s->n_dof_elem, n2 = s->n_dof_face;
  const double *gh = &g->ghost[(long)e * 6 * HX_NVAR * n2], *gd = &g->ghost_dx[(long)e * 6 * n2];
  for (int q = 0; q < s->n_var * n3; q++)
    Ut[q] = 0.0;
  for (int d = 0; d < 3; d++) {
    const int stride = d == 0 ? 1 : d == 1 ? np : np * np;
    const int lm = fvg_local_side(d, 0), lp = fvg_local_side(d, 1);
    for (int a = 0; a < np; a++)
      for (int b = 0; b < np; b++) {
        const int base = d == 0 ? (b * np + a) * np : d == 1 ? b * np * np + a : b * np + a;
        const int line = a * np + b;
        const long at = ((long)e * 3 + d) * n3 + (long)line * np;
        const double *mv = &s->fv.metrics[(((long)e * 3 + d) * np * np + line) * N * 3];
        fvg_line_residual(s->riemann, s->disc.split, s->fv.limiter, s->fv.line.sweby_beta, &s->phys,
                          np, s->fv.line.inv_w, prim, n3, base, stride,
                          &gh[lm * HX_NVAR * n2 + line], &gh[lp * HX_NVAR * n2 + line], n2,
                          gd[lm * n2 + line], gd[lp * n2 + line], &g->dx_l[at], &g->dx_r[at], mv, 3,
                          Ut);
      }
  }
  if (s->viscous) fv_gauss_viscous_volume(s, e, prim, Ut);
}

FVGaussFacePoint fv_gauss_face_point(const Solver *s, int side, int f) {
  const struct FVGauss *g = s->fv.gauss;
  const int nv = s->n_var, n2 = s->n_dof_face, bc = s->mesh->side_bc[side];
  const long blk = (long)nv * n2;
  FVGaussFacePoint fp = {.bc_type = bc < 0 ? -1 : s->bc_info[2 * bc],
                         .bc_state = bc < 0 ? 0 : s->bc_info[2 * bc + 1]};
  for (int c = 0; c < 3; c++) {
    fp.mv[c] = g->face_mv[((long)side * 3 + c) * n2 + f];
    fp.x[c] = g->face_x[((long)side * 3 + c) * n2 + f];
  }
  for (int v = 0; v < HX_NVAR; v++) {
    fp.uL[v] = s->U_master[blk * side + v * n2 + f];
    fp.uR[v] = bc < 0 ? s->U_slave[blk * side + v * n2 + f] : 0.0;
  }
  return fp;
}

/* Flux . n dS of one face subcell (air; fv_gauss_init refuses the rest). */
static void face_subcell_flux(const Solver *s, int side, int f, double t, double *F) {
  const FVGaussFacePoint fp = fv_gauss_face_point(s, side, f);
  fvg_face_subcell_flux(s->riemann, s->riemann_bc, s->disc.split, &s->phys, &s->exact, fp.bc_type,
                        fp.bc_state, fp.uL, fp.uR, fp.mv, fp.x, t, F);
  if (s->viscous) fv_gauss_face_viscous_flux(s, side, f, &fp, t, F);
}

/* The face subcell fluxes of the FV sides in [first, last) and their DG form in s->flux. */
static void fill_flux_fv_range(const Solver *s, double t, int first, int last) {
  const struct FVGauss *g = s->fv.gauss;
  const int nv = s->n_var, n2 = s->n_dof_face;
  const long blk = (long)nv * n2;
#pragma omp parallel for schedule(static)
  for (int side = first; side < last; side++) {
    if (!g->side_fv[side]) continue;
    double *Ffv = &g->flux_fv[blk * side];
    for (int f = 0; f < n2; f++) {
      double F[HX_NVAR];
      face_subcell_flux(s, side, f, t, F);
      for (int v = 0; v < nv; v++)
        Ffv[v * n2 + f] = F[v];
    }
    for (int v = 0; v < nv; v++) /* the DG side: the polynomial with these subcell means */
      fv_gauss_face_means(s->np, s->fv.to_dg, &Ffv[v * n2], &s->flux[blk * side + v * n2]);
  }
}

void fv_gauss_reconstruct_start(const Solver *s, double t) {
  const Mesh *m = s->mesh;
  const double *U = s->fv.gauss->U;
  if (s->np > 1) { /* the FV elements' reconstruction (the boundary states need t) */
#pragma omp parallel for schedule(static)
    for (int e = 0; e < m->n_elems; e++)
      if (s->fv.fv_elems[e]) gather_ghosts(s, U, e, t);
#pragma omp parallel for schedule(static)
    for (int e = 0; e < m->n_elems; e++)
      if (s->fv.fv_elems[e]) reconstruct_faces(s, U, e);
  }
  exchange_start(s->exchange, EXCH_U, s->U_slave, (long)s->n_var * s->n_dof_face, EXCH_TO_MASTER);
}

void fv_gauss_fill_flux_start(const Solver *s, double t) {
  const Mesh *m = s->mesh;
  const int first_mpi = mesh_first_mpi_side(m), first_yours = mesh_first_yours_side(m);
  const long blk = (long)s->n_var * s->n_dof_face;
  if (!s->viscous) fv_gauss_reconstruct_start(s, t); /* Navier-Stokes: before the lifting */
  exchange_finish(s->exchange, EXCH_U);
  if (s->viscous) { /* the lifting's grad_slave, then the FV elements' gradients */
    exchange_finish(s->exchange, EXCH_GRAD);
    fv_gauss_viscous_gradients(s, s->fv.gauss->U);
  }
  fill_flux_range(s, t, first_mpi, first_yours); /* MPI sides first: their fluxes go out */
  fill_flux_fv_range(s, t, first_mpi, first_yours);
  exchange_start(s->exchange, EXCH_FLUX, s->flux, blk, EXCH_TO_SLAVE);
  exchange_start(s->exchange, EXCH_ALPHA, s->fv.gauss->flux_fv, blk, EXCH_TO_SLAVE);
  fill_flux_range(s, t, 0, first_mpi);
  fill_flux_fv_range(s, t, 0, first_mpi);
}

void fv_gauss_surface_begin(const Solver *s, const double *Ut) {
  const long blk = (long)s->n_var * s->n_dof_elem;
#pragma omp parallel for schedule(static)
  for (int e = 0; e < s->mesh->n_elems; e++)
    if (s->fv.fv_elems[e])
      memcpy(&s->fv.gauss->ut_save[blk * e], &Ut[blk * e], sizeof(double) * blk);
}

void fv_gauss_surface_end(const Solver *s, double *Ut) {
  const Mesh *m = s->mesh;
  const struct FVGauss *g = s->fv.gauss;
  const int nv = s->n_var, n2 = s->n_dof_face, n3 = s->n_dof_elem;
  const long blk = (long)nv * n3, fblk = (long)nv * n2;
  const double s_h = 1.0 / g->h;
  exchange_finish(s->exchange, EXCH_ALPHA); /* flux_fv of the MPI sides the other rank computes */
#pragma omp parallel for schedule(static)
  for (int e = 0; e < m->n_elems; e++) {
    if (!s->fv.fv_elems[e]) continue;
    double *ut = &Ut[blk * e];
    memcpy(ut, &g->ut_save[blk * e], sizeof(double) * blk);
    for (int ls = 0; ls < 6; ls++) {
      const int side = m->elem_to_side[6 * e + ls], flip = m->elem_to_side_flip[6 * e + ls];
      const int *map = &s->s2v[(flip * 6 + ls) * n2];
      for (int v = 0; v < nv; v++)
        for (int f = 0; f < n2; f++)
          ut[v * n3 + map[f]] += fvg_surface_term(flip, s_h, g->flux_fv[fblk * side + v * n2 + f]);
    }
  }
}

void fv_gauss_switch_element(const Solver *s, int e, int to_fv, double *u, double *tmp) {
  const int n3 = s->n_dof_elem;
  const double *sJ_dg = &s->geo.sJ[(long)n3 * e], *sJ_fv = &s->fv.gauss->sJ[(long)n3 * e];
  fv_switch_element_between(s->np, to_fv ? s->fv.to_fv : s->fv.to_dg, s->n_var,
                            to_fv ? sJ_dg : sJ_fv, to_fv ? sJ_fv : sJ_dg, s->fv.switch_conservative,
                            u, tmp);
}
