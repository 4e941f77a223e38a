#include "analysis/recordpoints.h"

#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "io/h5util.h"
#include "parallel/parallel.h"

/* FLEXI's string attributes: blank-padded Fortran strings (VarNames 255 characters each). */
#define RP_STR_LEN 255
/* Newton of the element mapping: iterations, and the reference-space tolerance of "inside" */
#define RP_NEWTON_ITERS 50
#define RP_INSIDE_TOL 1e-10

int recordpoints_define_params(Params *p) {
  HX_CHECK(
      params_define(p, "RecordPoints", "RP_inUse", PARAM_LOGICAL, 0, "F", false,
                    "Record the conservative state at points (FLEXI's record points): "
                    "<ProjectName>_RP_<time>.h5 with every state file; docs/record_points.md"));
  HX_CHECK(params_define(p, "RecordPoints", "RP_DefFile", PARAM_STRING, 0, "", false,
                         "FLEXI's record point definition file (posti preparerecordpoints: "
                         "element and reference coordinates of each point), prepared for this "
                         "mesh; or leave it out and give RP_Point/RP_Line/RP_Plane"));
  HX_CHECK(params_define(p, "RecordPoints", "RP_MaxMemory", PARAM_INT, 0, "100", false,
                         "Buffer of samples in MiB; when full it is appended to the RP file "
                         "before the next state output"));
  HX_CHECK(params_define(p, "RecordPoints", "RP_SamplingOffset", PARAM_INT, 0, "1", false,
                         "Sample every this many time steps (counted from the last state "
                         "output, so that a restart samples the same steps)"));
  HX_CHECK(params_define(p, "RecordPoints", "RP_Point", PARAM_REAL_ARRAY, 3, "", true,
                         "hexdg: a record point (/x,y,z/) in physical coordinates (repeatable; "
                         "group RP_Point)"));
  HX_CHECK(params_define(p, "RecordPoints", "RP_Line", PARAM_REAL_ARRAY, 6, "", true,
                         "hexdg: RP_LineN points from (/x0,y0,z0/) to (/x1,y1,z1/), both ends "
                         "included (repeatable: Line1, Line2, ...)"));
  HX_CHECK(params_define(p, "RecordPoints", "RP_LineN", PARAM_INT, 0, "10", false,
                         "hexdg: points on each RP_Line (>= 2)"));
  HX_CHECK(params_define(p, "RecordPoints", "RP_Plane", PARAM_REAL_ARRAY, 9, "", true,
                         "hexdg: a plane of RP_PlaneN points, corner (/x0,y0,z0/) and the corners "
                         "(/x1,y1,z1/) along its first and (/x2,y2,z2/) along its second direction "
                         "(repeatable: Plane1, ...)"));
  return params_define(p, "RecordPoints", "RP_PlaneN", PARAM_INT_ARRAY, 2, "(/10,10/)", false,
                       "hexdg: points of each RP_Plane in its two directions (each >= 2)");
}

/* ---------------------------------------------------------------------------------------------
 * The element mapping and its inverse */

/* 1-D Lagrange values l and derivatives dl at s on NGeo+1 equidistant nodes. */
static void geo_basis(int NGeo, double s, double *l, double *dl) {
  double xe[HX_NPMAX], wb[HX_NPMAX], D[HX_NPMAX * HX_NPMAX];
  const int n = NGeo + 1;
  basis_equidistant_nodes(NGeo, xe);
  basis_barycentric_weights(NGeo, xe, wb);
  basis_lagrange_eval(NGeo, xe, wb, s, l);
  if (!dl) return;
  basis_diff_matrix(NGeo, xe, wb, D);
  for (int j = 0; j < n; j++) { /* l_j' is of degree NGeo-1: exact from its nodal values */
    dl[j] = 0.0;
    for (int m = 0; m < n; m++)
      dl[j] += l[m] * D[m * n + j];
  }
}

/* x(xi) and, if J is not NULL, J[a*3+d] = dx_a/dxi_d. */
static void map_jacobian(int NGeo, const double *nodes, const double xi[3], double x[3],
                         double *J) {
  double l[3][HX_NPMAX], dl[3][HX_NPMAX];
  const int n = NGeo + 1;
  for (int d = 0; d < 3; d++)
    geo_basis(NGeo, xi[d], l[d], J ? dl[d] : NULL);
  for (int a = 0; a < 3; a++)
    x[a] = 0.0;
  if (J)
    for (int m = 0; m < 9; m++)
      J[m] = 0.0;
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++) {
        const double *xn = nodes + 3 * ((k * n + j) * n + i);
        const double w = l[0][i] * l[1][j] * l[2][k];
        for (int a = 0; a < 3; a++)
          x[a] += w * xn[a];
        if (!J) continue;
        const double g[3] = {dl[0][i] * l[1][j] * l[2][k], l[0][i] * dl[1][j] * l[2][k],
                             l[0][i] * l[1][j] * dl[2][k]};
        for (int a = 0; a < 3; a++)
          for (int d = 0; d < 3; d++)
            J[a * 3 + d] += g[d] * xn[a];
      }
}

void recordpoints_map(int NGeo, const double *nodes, const double xi[3], double x[3]) {
  map_jacobian(NGeo, nodes, xi, x, NULL);
}

/* Solve J d = r (Cramer's rule); 1 when J is singular. */
static int solve3(const double *J, const double r[3], double d[3]) {
  const double det = J[0] * (J[4] * J[8] - J[5] * J[7]) - J[1] * (J[3] * J[8] - J[5] * J[6]) +
                     J[2] * (J[3] * J[7] - J[4] * J[6]);
  if (!(fabs(det) > 0.0)) return 1;
  for (int c = 0; c < 3; c++) {
    double M[9];
    memcpy(M, J, sizeof M);
    for (int a = 0; a < 3; a++)
      M[a * 3 + c] = r[a];
    d[c] = (M[0] * (M[4] * M[8] - M[5] * M[7]) - M[1] * (M[3] * M[8] - M[5] * M[6]) +
            M[2] * (M[3] * M[7] - M[4] * M[6])) /
           det;
  }
  return 0;
}

int recordpoints_invert(int NGeo, const double *nodes, const double x[3], double xi[3]) {
  double xm[3], J[9], r[3], d[3];
  int converged = 0;
  xi[0] = xi[1] = xi[2] = 0.0;
  for (int it = 0; it < RP_NEWTON_ITERS && converged < 2; it++) {
    map_jacobian(NGeo, nodes, xi, xm, J);
    for (int a = 0; a < 3; a++)
      r[a] = x[a] - xm[a];
    if (solve3(J, r, d)) return 1;
    double step = 0.0;
    for (int a = 0; a < 3; a++) {
      xi[a] += d[a];
      xi[a] = fmax(-2.0, fmin(2.0, xi[a])); /* keep a far point from running off */
      step = fmax(step, fabs(d[a]));
    }
    if (step < 1e-13) converged++; /* one more step after convergence: round-off level */
  }
  if (!converged) return 1;
  for (int a = 0; a < 3; a++)
    if (fabs(xi[a]) > 1.0 + RP_INSIDE_TOL) return 1;
  return 0;
}

int recordpoints_locate(const Mesh *m, const double x[3], double xi[3]) {
  const int n3 = (m->NGeo + 1) * (m->NGeo + 1) * (m->NGeo + 1);
  int best = -1;
  for (int e = 0; e < m->n_elems; e++) {
    const double *nodes = m->node_coords + (size_t)e * n3 * 3;
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int q = 0; q < n3; q++)
      for (int a = 0; a < 3; a++) {
        lo[a] = fmin(lo[a], nodes[3 * q + a]);
        hi[a] = fmax(hi[a], nodes[3 * q + a]);
      }
    int outside = 0; /* the curved faces may bulge beyond the nodes' box: a margin of 10 % */
    for (int a = 0; a < 3; a++) {
      const double margin = 0.1 * (hi[a] - lo[a]) + 1e-12;
      outside |= x[a] < lo[a] - margin || x[a] > hi[a] + margin;
    }
    double xe[3];
    if (outside || recordpoints_invert(m->NGeo, nodes, x, xe)) continue;
    if (best < 0 || m->elem_global_id[e] < m->elem_global_id[best]) {
      best = e;
      memcpy(xi, xe, sizeof xe);
    }
  }
  return best;
}

/* ---------------------------------------------------------------------------------------------
 * HDF5 helpers (FLEXI's layout: Fortran arrays, so the C shapes are reversed); the writers are
 * io/h5util.h's */

/* A dataset of doubles or long longs read whole; dims[0..rank) its shape. NULL when absent. */
static void *h5_read_all(hid_t file, const char *name, hid_t mem_type, int rank, hsize_t *dims) {
  if (H5Lexists(file, name, H5P_DEFAULT) <= 0) return NULL;
  hid_t ds = H5Dopen2(file, name, H5P_DEFAULT), space = ds < 0 ? -1 : H5Dget_space(ds);
  void *data = NULL;
  if (space >= 0 && H5Sget_simple_extent_ndims(space) == rank) {
    H5Sget_simple_extent_dims(space, dims, NULL);
    size_t n = 1;
    for (int r = 0; r < rank; r++)
      n *= dims[r];
    data = malloc(8 * (n > 0 ? n : 1));
    if (data && H5Dread(ds, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) {
      free(data);
      data = NULL;
    }
  }
  if (space >= 0) H5Sclose(space);
  if (ds >= 0) H5Dclose(ds);
  return data;
}

static void h5_read_str_attr(hid_t file, const char *name, char *out, size_t len) {
  out[0] = 0;
  if (H5Aexists(file, name) <= 0) return;
  hid_t attr = H5Aopen(file, name, H5P_DEFAULT), type = H5Aget_type(attr);
  size_t size = H5Tget_size(type);
  char *buf = calloc(size + 1, 1);
  hid_t mt = H5Tcopy(H5T_C_S1);
  H5Tset_size(mt, size + 1);
  if (buf && H5Aread(attr, mt, buf) >= 0) {
    size_t n = strlen(buf);
    while (n > 0 && buf[n - 1] == ' ')
      buf[--n] = 0;
    snprintf(out, len, "%s", buf);
  }
  free(buf);
  H5Tclose(mt);
  H5Tclose(type);
  H5Aclose(attr);
}

static const char *base_name(const char *path) {
  const char *b = strrchr(path, '/');
  return b ? b + 1 : path;
}

/* ---------------------------------------------------------------------------------------------
 * The points of this rank: from FLEXI's definition file */

static int alloc_local(RecordPoints *rp, int n) {
  rp->n_local = n;
  rp->local_elem = hx_malloc(sizeof(int) * (n > 0 ? n : 1), "record point elements");
  rp->local_id = hx_malloc(sizeof(int) * (n > 0 ? n : 1), "record point ids");
  HX_ALLOC_CHECK(rp->local_elem);
  HX_ALLOC_CHECK(rp->local_id);
  return HX_OK;
}

/* The x_RP of the file must be where this mesh maps the point's xi: the file belongs to the mesh.
 */
static int check_positions(const RecordPoints *rp, const Mesh *m, const double *xi,
                           const double *x_file, const char *path, const char *file_mesh) {
  const int n3 = (m->NGeo + 1) * (m->NGeo + 1) * (m->NGeo + 1);
  int bad = -1;
  double dist = 0.0;
  for (int p = 0; p < rp->n_local && bad < 0; p++) {
    const double *nodes = m->node_coords + (size_t)rp->local_elem[p] * n3 * 3;
    double x[3], h = 0.0;
    recordpoints_map(m->NGeo, nodes, xi + 3 * p, x);
    for (int a = 0; a < 3; a++)
      h = fmax(h, fabs(nodes[3 * (n3 - 1) + a] - nodes[a]));
    dist = 0.0;
    for (int a = 0; a < 3; a++)
      dist = fmax(dist, fabs(x[a] - x_file[3 * rp->local_id[p] + a]));
    if (dist > 1e-6 * h) bad = p;
  }
  if (par_any(bad >= 0) && bad >= 0)
    return HX_ERROR(HX_ERR_INPUT,
                    "RP_DefFile = %s was prepared for mesh '%s', not for this run's mesh '%s': "
                    "its point %d (element %ld) lies %.3g away from its x_RP in this mesh; "
                    "prepare the points for this mesh (or use RP_Point/RP_Line/RP_Plane)",
                    path, file_mesh, m->source, rp->local_id[bad] + 1,
                    m->elem_global_id[rp->local_elem[bad]], dist);
  if (par_any(bad >= 0)) return HX_ERR_INPUT;
  return HX_OK;
}

static int read_def_file(const char *path, const Mesh *m, RecordPoints *rp, double **xi_out) {
  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0)
    return HX_ERROR(HX_ERR_INPUT,
                    "RP_DefFile = %s cannot be opened as HDF5; give the file of FLEXI's posti "
                    "preparerecordpoints (<ProjectName>_RPSet.h5) or hexdg's",
                    path);
  char file_mesh[1024];
  h5_read_str_attr(file, "MeshFile", file_mesh, sizeof file_mesh);
  hsize_t od[2] = {0, 0}, xd[2] = {0, 0}, pd[2] = {0, 0};
  long long *off = h5_read_all(file, "OffsetRP", H5T_NATIVE_LLONG, 2, od);
  double *xi_all = h5_read_all(file, "xi_RP", H5T_NATIVE_DOUBLE, 2, xd);
  double *x_all = h5_read_all(file, "x_RP", H5T_NATIVE_DOUBLE, 2, pd);
  H5Fclose(file);
  int rc = HX_OK;
  if (!off || !xi_all || od[1] != 2 || xd[1] != 3)
    rc = HX_ERROR(HX_ERR_INPUT,
                  "RP_DefFile = %s has no OffsetRP (nElems x 2) and xi_RP (nRP x 3): not a "
                  "record point definition file of FLEXI's preparerecordpoints",
                  path);
  else if ((long)od[0] != m->n_global_elems)
    rc = HX_ERROR(HX_ERR_INPUT,
                  "RP_DefFile = %s was prepared for mesh '%s' of %ld elements; this run's mesh "
                  "'%s' has %ld: prepare the points for this mesh",
                  path, file_mesh, (long)od[0], m->source, m->n_global_elems);
  rp->n_global = rc == HX_OK ? (int)xd[0] : 0;
  int n = 0;
  for (int e = 0; rc == HX_OK && e < m->n_elems; e++) {
    const long long *o = off + 2 * (m->elem_global_id[e] - 1);
    if (o[0] < 0 || o[1] < o[0] || o[1] > rp->n_global)
      rc = HX_ERROR(HX_ERR_INPUT,
                    "RP_DefFile = %s: OffsetRP of element %ld is (%lld, %lld), "
                    "outside the %d points of xi_RP",
                    path, m->elem_global_id[e], o[0], o[1], rp->n_global);
    else
      n += (int)(o[1] - o[0]);
  }
  if (rc == HX_OK) rc = alloc_local(rp, n);
  double *xi = rc == HX_OK ? hx_malloc(sizeof(double) * 3 * (n > 0 ? n : 1), "xi_RP") : NULL;
  if (rc == HX_OK && !xi) rc = HX_ERR_MEM;
  for (int e = 0, p = 0; rc == HX_OK && e < m->n_elems; e++) {
    const long long *o = off + 2 * (m->elem_global_id[e] - 1);
    for (long long g = o[0]; g < o[1]; g++, p++) {
      rp->local_elem[p] = e;
      rp->local_id[p] = (int)g;
      memcpy(xi + 3 * p, xi_all + 3 * g, 3 * sizeof(double));
    }
  }
  if (par_any(rc != HX_OK)) rc = rc != HX_OK ? rc : HX_ERR_INPUT;
  if (rc == HX_OK && x_all && pd[0] == xd[0] && pd[1] == 3)
    rc = check_positions(rp, m, xi, x_all, path, file_mesh);
  if (rc == HX_OK && par_is_root() && strcmp(base_name(file_mesh), base_name(m->source)) != 0)
    printf("hexdg: RP_DefFile %s names mesh '%s'; this run's is '%s' (same elements and point "
           "positions: accepted)\n",
           path, file_mesh, m->source);
  free(off);
  free(xi_all);
  free(x_all);
  if (rc != HX_OK) {
    free(xi);
    return rc;
  }
  *xi_out = xi;
  return HX_OK;
}

/* ---------------------------------------------------------------------------------------------
 * The points of this rank: from the shortcut keys, located in the mesh */

typedef struct {
  int n;     /* points requested */
  double *x; /* [n][3] */
  int n_lines, n_planes, line_n, plane_n[2];
  int first_line, first_plane; /* request index of the first line / plane point */
} Requests;

static int gather_requests(const Params *p, Requests *r) {
  memset(r, 0, sizeof *r);
  const int n_pt = params_count(p, "RP_Point");
  r->n_lines = params_count(p, "RP_Line");
  r->n_planes = params_count(p, "RP_Plane");
  HX_CHECK(params_get_int(p, "RP_LineN", &r->line_n));
  HX_CHECK(params_get_int_array(p, "RP_PlaneN", 2, r->plane_n));
  if (r->n_lines > 0 && r->line_n < 2)
    return HX_ERROR(HX_ERR_INPUT, "RP_LineN = %d: a line needs at least 2 points", r->line_n);
  if (r->n_planes > 0 && (r->plane_n[0] < 2 || r->plane_n[1] < 2))
    return HX_ERROR(HX_ERR_INPUT,
                    "RP_PlaneN = (/%d,%d/): a plane needs at least 2 points in "
                    "each direction",
                    r->plane_n[0], r->plane_n[1]);
  r->first_line = n_pt;
  r->first_plane = n_pt + r->n_lines * r->line_n;
  r->n = r->first_plane + r->n_planes * r->plane_n[0] * r->plane_n[1];
  r->x = hx_malloc(sizeof(double) * 3 * (r->n > 0 ? r->n : 1), "record point coordinates");
  HX_ALLOC_CHECK(r->x);
  for (int i = 0; i < n_pt; i++)
    HX_CHECK(params_get_real_array_at(p, "RP_Point", i, 3, r->x + 3 * i));
  for (int l = 0; l < r->n_lines; l++) {
    double c[6];
    HX_CHECK(params_get_real_array_at(p, "RP_Line", l, 6, c));
    for (int i = 0; i < r->line_n; i++)
      for (int a = 0; a < 3; a++)
        r->x[3 * (r->first_line + l * r->line_n + i) + a] =
            c[a] + (c[3 + a] - c[a]) * i / (r->line_n - 1.0);
  }
  for (int q = 0; q < r->n_planes; q++) {
    double c[9];
    HX_CHECK(params_get_real_array_at(p, "RP_Plane", q, 9, c));
    for (int j = 0; j < r->plane_n[1]; j++)
      for (int i = 0; i < r->plane_n[0]; i++) {
        double *x = r->x + 3 * (r->first_plane + (q * r->plane_n[1] + j) * r->plane_n[0] + i);
        for (int a = 0; a < 3; a++)
          x[a] = c[a] + (c[3 + a] - c[a]) * i / (r->plane_n[0] - 1.0) +
                 (c[6 + a] - c[a]) * j / (r->plane_n[1] - 1.0);
      }
  }
  if (r->n == 0)
    return HX_ERROR(HX_ERR_INPUT, "RP_inUse = T needs points: RP_DefFile, or RP_Point, RP_Line "
                                  "or RP_Plane (docs/record_points.md)");
  return HX_OK;
}

/* Which key defined request i, for error messages. */
static void request_name(const Requests *r, int i, char *buf, size_t len) {
  if (i < r->first_line)
    snprintf(buf, len, "RP_Point number %d", i + 1);
  else if (i < r->first_plane)
    snprintf(buf, len, "point %d of RP_Line number %d", (i - r->first_line) % r->line_n + 1,
             (i - r->first_line) / r->line_n + 1);
  else
    snprintf(buf, len, "a point of RP_Plane number %d",
             (i - r->first_plane) / (r->plane_n[0] * r->plane_n[1]) + 1);
}

typedef struct {
  long gid;
  int req;
} Order;

static int order_cmp(const void *a, const void *b) {
  const Order *x = a, *y = b;
  if (x->gid != y->gid) return x->gid < y->gid ? -1 : 1;
  return (x->req > y->req) - (x->req < y->req);
}

/* FLEXI's preparerecordpoints layout (hdf5_outputrp.f90), written by the root. id[i]: 0-based
 * point of request i; gid[i] its global element; xi_all [n][3] by point. */
static int write_rpset(const char *path, const Mesh *m, const Disc *d, const Requests *r,
                       const int *id, const long *gid, const double *xi_all, const double *xm) {
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0) return HX_ERROR(HX_ERR_IO, "cannot create %s (write permission, disk?)", path);
  int rc = h5_write_str_attr(f, "File_Type", "RecordPoints", path);
  if (rc == HX_OK) rc = h5_write_str_attr(f, "MeshFile", m->source, path);
  if (rc == HX_OK)
    rc = h5_write_num(f, "NGeo", 0, H5T_NATIVE_INT, 1, (hsize_t[]){1}, &m->NGeo, path);
  if (rc == HX_OK)
    rc = h5_write_str_attr(f, "NodeType", d->node_type == NODE_GAUSS ? "GAUSS" : "GAUSS-LOBATTO",
                           path);
  const char *groups[3] = {"RP_Point", "RP_Line", "RP_Plane"};
  const int first[4] = {0, r->first_line, r->first_plane, r->n};
  int n_groups = 0, gidx[3] = {0, 0, 0};
  for (int g = 0; g < 3; g++)
    if (first[g + 1] > first[g]) gidx[g] = ++n_groups; /* GroupID: 1-based, as FLEXI's */
  const char *present[3];
  for (int g = 0, k = 0; g < 3; g++)
    if (gidx[g]) present[k++] = groups[g];
  if (rc == HX_OK) rc = h5_write_strings(f, "GroupNames", 1, present, n_groups, RP_STR_LEN, path);
  int *ids = hx_malloc(sizeof(int) * (r->n + 1), "record point ids");
  HX_ALLOC_CHECK(ids);
  for (int i = 0; i < r->n; i++)
    ids[i] = id[i] + 1; /* FLEXI's point IDs are 1-based */
  for (int g = 0; g < 3 && rc == HX_OK; g++)
    if (gidx[g])
      rc = h5_write_num(f, groups[g], 1, H5T_NATIVE_INT, 1, (hsize_t[]){first[g + 1] - first[g]},
                        ids + first[g], path);
  char name[64];
  if (rc == HX_OK && r->first_line > 0) {
    int *grp = hx_malloc(sizeof(int) * r->first_line, "record point groups");
    HX_ALLOC_CHECK(grp);
    for (int i = 0; i < r->first_line; i++)
      grp[i] = gidx[0];
    hsize_t n = (hsize_t)r->first_line;
    rc = h5_write_num(f, "Points_IDlist", 1, H5T_NATIVE_INT, 1, &n, ids, path);
    if (rc == HX_OK)
      rc = h5_write_num(f, "Points_GroupIDlist", 1, H5T_NATIVE_INT, 1, &n, grp, path);
    free(grp);
  }
  for (int kind = 0; kind < 2 && rc == HX_OK; kind++) { /* lines, planes */
    const int count = kind ? r->n_planes : r->n_lines;
    if (count == 0) continue;
    const char **names = malloc(sizeof(char *) * count);
    char(*buf)[16] = malloc(16 * (size_t)count);
    if (!names || !buf) rc = HX_ERR_MEM;
    for (int s = 0; rc == HX_OK && s < count; s++) {
      snprintf(buf[s], 16, "%s%d", kind ? "Plane" : "Line", s + 1);
      names[s] = buf[s];
    }
    if (rc == HX_OK)
      rc =
          h5_write_strings(f, kind ? "PlaneNames" : "LineNames", 1, names, count, RP_STR_LEN, path);
    for (int s = 0; rc == HX_OK && s < count; s++) {
      snprintf(name, sizeof name, "%s", names[s]);
      hsize_t dims[2] = {(hsize_t)r->plane_n[1], (hsize_t)r->plane_n[0]};
      if (!kind) dims[0] = (hsize_t)r->line_n;
      const int *set = ids + (kind ? r->first_plane + s * r->plane_n[0] * r->plane_n[1]
                                   : r->first_line + s * r->line_n);
      rc = h5_write_num(f, name, 1, H5T_NATIVE_INT, kind ? 2 : 1, dims, set, path);
      hid_t ds = rc == HX_OK ? H5Dopen2(f, name, H5P_DEFAULT) : -1;
      if (ds >= 0) {
        rc = h5_write_num(ds, "GroupID", 0, H5T_NATIVE_INT, 1, (hsize_t[]){1}, &gidx[1 + kind],
                          path);
        H5Dclose(ds);
      }
    }
    free(names);
    free(buf);
  }
  /* OffsetRP (nElems x 2): the points of element g are [OffsetRP[g][0], OffsetRP[g][1]) */
  long long *off = calloc(2 * (size_t)m->n_global_elems + 2, sizeof(long long));
  double *xs = malloc(sizeof(double) * 9 * (r->n + 1));
  if (rc == HX_OK && (!off || !xs)) rc = HX_ERR_MEM;
  if (rc == HX_OK) {
    long long *count = calloc((size_t)m->n_global_elems + 1, sizeof(long long));
    if (!count) rc = HX_ERR_MEM;
    for (int i = 0; rc == HX_OK && i < r->n; i++)
      count[gid[i] - 1]++;
    for (long g = 0, acc = 0; rc == HX_OK && g < m->n_global_elems; g++) {
      off[2 * g] = acc;
      acc += count[g];
      off[2 * g + 1] = acc;
    }
    free(count);
    for (int i = 0; rc == HX_OK && i < r->n; i++)
      for (int a = 0; a < 3; a++) {
        xs[3 * id[i] + a] = r->x[3 * i + a];              /* xF_RP: as given */
        xs[3 * r->n + 3 * id[i] + a] = xm[3 * i + a];     /* x_RP: where xi maps */
        xs[6 * r->n + 3 * id[i] + a] = xi_all[3 * i + a]; /* xi_RP */
      }
  }
  hsize_t od[2] = {(hsize_t)m->n_global_elems, 2}, xd[2] = {(hsize_t)r->n, 3};
  if (rc == HX_OK) rc = h5_write_num(f, "OffsetRP", 1, H5T_NATIVE_LLONG, 2, od, off, path);
  if (rc == HX_OK) rc = h5_write_num(f, "xF_RP", 1, H5T_NATIVE_DOUBLE, 2, xd, xs, path);
  if (rc == HX_OK) rc = h5_write_num(f, "x_RP", 1, H5T_NATIVE_DOUBLE, 2, xd, xs + 3 * r->n, path);
  if (rc == HX_OK) rc = h5_write_num(f, "xi_RP", 1, H5T_NATIVE_DOUBLE, 2, xd, xs + 6 * r->n, path);
  free(off);
  free(xs);
  free(ids);
  if (H5Fclose(f) < 0 && rc == HX_OK) rc = HX_ERROR(HX_ERR_IO, "cannot close %s", path);
  return rc;
}

/* Locate every requested point (lowest global element over the ranks), number them as FLEXI
 * does (by element, then as given), keep this rank's, write <project>_RPSet.h5. */
static int locate_requests(const Params *p, const Mesh *m, const Disc *d, RecordPoints *rp,
                           double **xi_out) {
  Requests r;
  int rc = gather_requests(p, &r);
  const int n = r.n;
  double *cand = malloc(sizeof(double) * (n + 1)), *xi_all = malloc(sizeof(double) * 3 * (n + 1));
  double *xm = malloc(sizeof(double) * 3 * (n + 1));
  int *elem = malloc(sizeof(int) * (n + 1)), *id = malloc(sizeof(int) * (n + 1));
  long *gid = malloc(sizeof(long) * (n + 1));
  Order *ord = malloc(sizeof(Order) * (n + 1));
  if (rc == HX_OK && (!cand || !xi_all || !xm || !elem || !id || !gid || !ord)) rc = HX_ERR_MEM;
  const int n3 = (m->NGeo + 1) * (m->NGeo + 1) * (m->NGeo + 1);
  for (int i = 0; rc == HX_OK && i < n; i++) {
    elem[i] = recordpoints_locate(m, r.x + 3 * i, xi_all + 3 * i);
    cand[i] = elem[i] >= 0 ? -(double)m->elem_global_id[elem[i]] : -HUGE_VAL;
  }
  if (rc == HX_OK) par_max(cand, n); /* -(lowest global element holding the point) */
  int outside = -1;
  for (int i = 0; rc == HX_OK && i < n; i++) {
    if (cand[i] == -HUGE_VAL && outside < 0) outside = i;
    gid[i] = (long)-cand[i];
    if (elem[i] >= 0 && m->elem_global_id[elem[i]] != gid[i]) elem[i] = -1; /* another's */
    for (int a = 0; a < 3; a++) { /* -0.0: the identity of the sum over the ranks */
      if (elem[i] < 0) xi_all[3 * i + a] = -0.0;
      xm[3 * i + a] = -0.0;
    }
    if (elem[i] >= 0)
      recordpoints_map(m->NGeo, m->node_coords + (size_t)elem[i] * n3 * 3, xi_all + 3 * i,
                       xm + 3 * i);
  }
  if (rc == HX_OK && outside >= 0) {
    char what[96];
    request_name(&r, outside, what, sizeof what);
    rc = HX_ERROR(HX_ERR_INPUT,
                  "record points: %s, (/%.9g, %.9g, %.9g/), lies outside the mesh %s; move it "
                  "into the domain",
                  what, r.x[3 * outside], r.x[3 * outside + 1], r.x[3 * outside + 2], m->source);
  }
  if (rc == HX_OK && par_size() > 1) {
    par_sum(xi_all, 3 * n);
    par_sum(xm, 3 * n);
  }
  int n_local = 0;
  for (int i = 0; rc == HX_OK && i < n; i++) {
    ord[i] = (Order){gid[i], i};
    n_local += elem[i] >= 0;
  }
  if (rc == HX_OK) {
    qsort(ord, n, sizeof(Order), order_cmp);
    for (int k = 0; k < n; k++)
      id[ord[k].req] = k;
    rc = alloc_local(rp, n_local);
  }
  double *xi = rc == HX_OK ? malloc(sizeof(double) * 3 * (n_local + 1)) : NULL;
  if (rc == HX_OK && !xi) rc = HX_ERR_MEM;
  for (int k = 0, l = 0; rc == HX_OK && k < n; k++) { /* local points in global order */
    const int i = ord[k].req;
    if (elem[i] < 0) continue;
    rp->local_elem[l] = elem[i];
    rp->local_id[l] = k;
    memcpy(xi + 3 * l++, xi_all + 3 * i, 3 * sizeof(double));
  }
  rp->n_global = n;
  snprintf(rp->def_file, sizeof rp->def_file, "%s_RPSet.h5", rp->project);
  int wrc = rc == HX_OK && par_is_root() ? write_rpset(rp->def_file, m, d, &r, id, gid, xi_all, xm)
                                         : HX_OK;
  if (rc == HX_OK && par_any(wrc != HX_OK)) rc = wrc != HX_OK ? wrc : HX_ERR_IO;
  free(r.x);
  free(cand);
  free(xi_all);
  free(xm);
  free(elem);
  free(id);
  free(gid);
  free(ord);
  if (rc != HX_OK) {
    free(xi);
    return rc;
  }
  *xi_out = xi;
  return HX_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Set-up, sampling, output */

int recordpoints_init(const Params *p, const Solver *s, const char *project, RecordPoints *rp) {
  memset(rp, 0, sizeof *rp);
  HX_CHECK(params_get_logical(p, "RP_inUse", &rp->on));
  if (!rp->on) return HX_OK;
  int max_mib;
  HX_CHECK(params_get_int(p, "RP_MaxMemory", &max_mib));
  HX_CHECK(params_get_int(p, "RP_SamplingOffset", &rp->sampling_offset));
  if (rp->sampling_offset < 1)
    return HX_ERROR(HX_ERR_INPUT, "RP_SamplingOffset = %d: give 1 or more time steps",
                    rp->sampling_offset);
  if (max_mib < 1) return HX_ERROR(HX_ERR_INPUT, "RP_MaxMemory = %d: give 1 MiB or more", max_mib);
  snprintf(rp->project, sizeof rp->project, "%s", project);
  snprintf(rp->mesh_file, sizeof rp->mesh_file, "%s", s->mesh->source);
  rp->var_names = (const char(*)[64])s->var_names;
  rp->n_var = s->n_var;
  rp->np = s->np;
  const bool shortcut =
      params_count(p, "RP_Point") + params_count(p, "RP_Line") + params_count(p, "RP_Plane") > 0;
  double *xi = NULL;
  if (params_is_set(p, "RP_DefFile") && shortcut)
    return HX_ERROR(HX_ERR_INPUT, "record points: give RP_DefFile or RP_Point/RP_Line/RP_Plane, "
                                  "not both");
  if (params_is_set(p, "RP_DefFile")) {
    const char *path;
    HX_CHECK(params_get_string(p, "RP_DefFile", &path));
    snprintf(rp->def_file, sizeof rp->def_file, "%s", path);
    HX_CHECK(read_def_file(path, s->mesh, rp, &xi));
  } else {
    HX_CHECK(locate_requests(p, s->mesh, &s->disc, rp, &xi));
  }
  const int np = s->np;
  rp->weights = hx_malloc(sizeof(double) * 3 * np * (rp->n_local > 0 ? rp->n_local : 1),
                          "record point weights");
  if (!rp->weights) free(xi);
  HX_ALLOC_CHECK(rp->weights);
  for (int q = 0; q < rp->n_local;
       q++) /* FLEXI's InitRPBasis: Lagrange basis at xi per direction */
    for (int d = 0; d < 3; d++)
      basis_lagrange_eval(s->disc.N, s->disc.x, s->disc.wb, xi[3 * q + d],
                          rp->weights + (3 * q + d) * np);
  free(xi);
  /* FLEXI's RP_MaxBufferSize: MiB / (8 bytes x points x (1 + nVar)), at least 2 samples */
  const size_t stride = (size_t)rp->n_global * (1 + rp->n_var);
  const size_t cap = (size_t)max_mib * 131072 / stride;
  rp->cap = cap < 2 ? 2 : cap > 1000000000 ? 1000000000 : (int)cap;
  rp->buf = hx_malloc(sizeof(double) * stride * rp->cap, "record point buffer");
  HX_ALLOC_CHECK(rp->buf);
  if (par_is_root())
    printf("hexdg: %d record points (%s), buffer of %d samples\n", rp->n_global, rp->def_file,
           rp->cap);
  return HX_OK;
}

void recordpoints_free(RecordPoints *rp) {
  free(rp->local_elem);
  free(rp->local_id);
  free(rp->weights);
  free(rp->buf);
  rp->local_elem = rp->local_id = NULL;
  rp->weights = rp->buf = NULL;
  rp->on = false;
}

bool recordpoints_due(RecordPoints *rp, double t, bool force) {
  if (!rp->on) return false;
  if (force) return !(rp->n_buffered > 0 && rp->t_last == t);
  return ++rp->steps % rp->sampling_offset == 0;
}

void recordpoints_sample(RecordPoints *rp, const Solver *s, double t) {
  const int stride = 1 + rp->n_var, n3 = s->n_dof_elem;
  double *slot = rp->buf + (size_t)rp->n_buffered * rp->n_global * stride;
  for (long q = 0; q < (long)rp->n_global * stride; q++)
    slot[q] = -0.0;
  for (int q = 0; q < rp->n_local; q++) {
    double *row = slot + (size_t)rp->local_id[q] * stride;
    const double *ue = s->U + (size_t)rp->local_elem[q] * s->n_var * n3;
    row[0] = t;
    for (int v = 0; v < rp->n_var; v++)
      row[1 + v] = recordpoints_interpolate(rp->np, rp->weights + 3 * rp->np * q, ue + v * n3);
  }
}

bool recordpoints_commit(RecordPoints *rp, double t) {
  rp->t_last = t;
  return ++rp->n_buffered == rp->cap;
}

static void tmp_name(const RecordPoints *rp, char *buf, size_t len) {
  snprintf(buf, len, "%s_RP.h5.tmp", rp->project);
}

/* The header of a new RP file and its RP_Data (nSamples x nRP x (1 + nVar), growing in time). */
static int create_rp_file(const RecordPoints *rp, const char *path, hid_t *out) {
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0) return HX_ERROR(HX_ERR_IO, "cannot create %s (write permission, disk?)", path);
  const char **names = malloc(sizeof(char *) * rp->n_var);
  if (!names) {
    H5Fclose(f);
    return HX_ERR_MEM;
  }
  for (int v = 0; v < rp->n_var; v++)
    names[v] = rp->var_names[v];
  int rc = h5_write_str_attr(f, "File_Type", "RecordPoints_Data", path);
  if (rc == HX_OK) rc = h5_write_str_attr(f, "MeshFile", rp->mesh_file, path);
  if (rc == HX_OK) rc = h5_write_str_attr(f, "ProjectName", rp->project, path);
  if (rc == HX_OK) rc = h5_write_str_attr(f, "RPDefFile", rp->def_file, path);
  if (rc == HX_OK) rc = h5_write_strings(f, "VarNames", 0, names, rp->n_var, RP_STR_LEN, path);
  free(names);
  const hsize_t row = (hsize_t)rp->n_global * (1 + rp->n_var);
  hsize_t dims[3] = {0, (hsize_t)rp->n_global, (hsize_t)(1 + rp->n_var)};
  hsize_t maxd[3] = {H5S_UNLIMITED, dims[1], dims[2]};
  hsize_t chunk[3] = {row < 131072 ? 131072 / row : 1, dims[1], dims[2]}; /* ~1 MiB chunks */
  if (chunk[0] > (hsize_t)rp->cap) chunk[0] = (hsize_t)rp->cap;
  hid_t space = H5Screate_simple(3, dims, maxd), dcpl = H5Pcreate(H5P_DATASET_CREATE), ds = -1;
  if (rc == HX_OK && H5Pset_chunk(dcpl, 3, chunk) >= 0)
    ds = H5Dcreate2(f, "RP_Data", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  if (rc == HX_OK && ds < 0) rc = HX_ERROR(HX_ERR_IO, "%s: cannot create RP_Data", path);
  if (ds >= 0) H5Dclose(ds);
  H5Pclose(dcpl);
  H5Sclose(space);
  if (rc != HX_OK) {
    H5Fclose(f);
    return rc;
  }
  *out = f;
  return HX_OK;
}

/* Root: append the buffer to the temporary file; close: Time attribute, final name. */
static int append_samples(RecordPoints *rp, double t, bool close) {
  char tmp[1100], final_name[1100];
  tmp_name(rp, tmp, sizeof tmp);
  hid_t f = -1;
  if (rp->n_in_file == 0)
    HX_CHECK(create_rp_file(rp, tmp, &f));
  else if ((f = H5Fopen(tmp, H5F_ACC_RDWR, H5P_DEFAULT)) < 0)
    return HX_ERROR(HX_ERR_IO, "cannot reopen %s to append record point samples", tmp);
  int rc = HX_OK;
  if (rp->n_buffered > 0) {
    hid_t ds = H5Dopen2(f, "RP_Data", H5P_DEFAULT);
    hsize_t dims[3] = {(hsize_t)(rp->n_in_file + rp->n_buffered), (hsize_t)rp->n_global,
                       (hsize_t)(1 + rp->n_var)};
    hsize_t start[3] = {(hsize_t)rp->n_in_file, 0, 0},
            count[3] = {(hsize_t)rp->n_buffered, dims[1], dims[2]};
    hid_t fs = -1, ms = H5Screate_simple(3, count, NULL);
    herr_t st = ds < 0 || H5Dset_extent(ds, dims) < 0 ? -1 : 0;
    if (st == 0) fs = H5Dget_space(ds);
    if (st == 0 && fs >= 0 &&
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0)
      st = H5Dwrite(ds, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, rp->buf);
    else
      st = -1;
    if (st < 0)
      rc = HX_ERROR(HX_ERR_IO, "%s: cannot append %d samples (disk full?)", tmp, rp->n_buffered);
    if (fs >= 0) H5Sclose(fs);
    H5Sclose(ms);
    if (ds >= 0) H5Dclose(ds);
  }
  if (rc == HX_OK && close)
    rc = h5_write_num(f, "Time", 0, H5T_NATIVE_DOUBLE, 1, (hsize_t[]){1}, &t, tmp);
  if (H5Fclose(f) < 0 && rc == HX_OK) rc = HX_ERROR(HX_ERR_IO, "cannot close %s", tmp);
  if (rc != HX_OK || !close) return rc;
  snprintf(final_name, sizeof final_name, "%s_RP_%017.9f.h5", rp->project, t); /* FLEXI TIMESTAMP */
  if (rename(tmp, final_name) != 0)
    return HX_ERROR(HX_ERR_IO, "cannot rename %s to %s", tmp, final_name);
  return HX_OK;
}

int recordpoints_flush(RecordPoints *rp, double t, bool close) {
  if (!rp->on) return HX_OK;
  const int stride = rp->n_global * (1 + rp->n_var);
  if (par_size() > 1 && rp->n_buffered > 0) /* each point from its rank: x + (-0.0) = x */
    par_sum(rp->buf, rp->n_buffered * stride);
  int rc = par_is_root() ? append_samples(rp, t, close) : HX_OK;
  if (par_any(rc != HX_OK)) return rc != HX_OK ? rc : HX_ERR_IO;
  rp->n_in_file += rp->n_buffered;
  rp->n_buffered = 0;
  if (close) {
    rp->n_in_file = 0;
    rp->steps = 0;
  }
  return HX_OK;
}
