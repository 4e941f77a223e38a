/* Uniform h-refinement (2x2x2 children per hexahedron) of a curved mesh; see refine.h.
 *
 * Child (cx,cy,cz), each 0 or 1, covers the parent's reference sub-cube
 * [cx-1, cx] x [cy-1, cy] x [cz-1, cz]; its local sides have the parent's orientation, so its
 * face on parent side s is the quadrant of that side found by treating the 2x2x2 children as
 * the nodes of a degree-1 element (volume_to_side / side_to_volume with N = 1), and the flip of
 * the parent side maps master quadrants to slave quadrants like face points. */
#include "mesh/refine.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basis/basis.h"
#include "core/error.h"
#include "mesh/facemap.h"
#include "mesh/metrics.h"

static const int OPPOSITE_SIDE[6] = {5, 3, 4, 1, 2, 0};

static int child_index(int cx, int cy, int cz) { return cx + 2 * cy + 4 * cz; }

/* V[c]: (NGeo+1) x (NGeo+1) interpolation from the parent's equidistant nodes to the equidistant
 * nodes of the half interval c (0: [-1,0], 1: [0,1]) of the reference interval. */
static void half_interval_matrices(int NGeo, double V[2][HX_NPMAX * HX_NPMAX]) {
  double xeq[HX_NPMAX], xc[HX_NPMAX];
  basis_equidistant_nodes(NGeo, xeq);
  for (int c = 0; c < 2; c++) {
    for (int i = 0; i <= NGeo; i++) xc[i] = 0.5 * (xeq[i] - 1.0) + c;
    geometry_interp_matrix(NGeo, NGeo + 1, xc, V[c]);
  }
}

/* Child geometry: the parent's map at the child's nodes, one direction at a time
 * (out[k][j][i] = sum Vz[k][c] Vy[j][b] Vx[i][a] in[c][b][a], per coordinate). */
static void child_geometry(int NGeo, const double *Vx, const double *Vy, const double *Vz,
                           const double *parent, double *child) {
  int n = NGeo + 1;
  double t1[HX_NPMAX * HX_NPMAX * HX_NPMAX * 3], t2[HX_NPMAX * HX_NPMAX * HX_NPMAX * 3];
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++)
        for (int d = 0; d < 3; d++) {
          double s = 0.0;
          for (int a = 0; a < n; a++) s += Vx[i * n + a] * parent[3 * ((k * n + j) * n + a) + d];
          t1[3 * ((k * n + j) * n + i) + d] = s;
        }
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++)
        for (int d = 0; d < 3; d++) {
          double s = 0.0;
          for (int b = 0; b < n; b++) s += Vy[j * n + b] * t1[3 * ((k * n + b) * n + i) + d];
          t2[3 * ((k * n + j) * n + i) + d] = s;
        }
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++)
        for (int d = 0; d < 3; d++) {
          double s = 0.0;
          for (int c = 0; c < n; c++) s += Vz[k * n + c] * t2[3 * ((c * n + j) * n + i) + d];
          child[3 * ((k * n + j) * n + i) + d] = s;
        }
}

/* Neighbour face (6 * child element + local side) of side s of child c of parent e, or -1 with
 * *bc set on a boundary. */
static int child_face_neighbor(const Mesh *m, int e, int cx, int cy, int cz, int s, int *bc) {
  int cidx[3] = {cx, cy, cz}, d = side_normal_dir(s);
  *bc = -1;
  if (cidx[d] != side_is_plus(s)) { /* inside the parent: the sibling across the mid-plane */
    cidx[d] = 1 - cidx[d];
    return 6 * (8 * e + child_index(cidx[0], cidx[1], cidx[2])) + OPPOSITE_SIDE[s];
  }
  int side = m->elem_to_side[6 * e + s];
  if (m->side_slave_elem[side] < 0) {
    *bc = m->side_bc[side];
    return -1;
  }
  int is_master = m->side_master_elem[side] == e && m->side_master_locside[side] == s;
  int nb_elem = is_master ? m->side_slave_elem[side] : m->side_master_elem[side];
  int nb_side = is_master ? m->side_slave_locside[side] : m->side_master_locside[side];
  int a, b, an, bn, i, j, k;
  volume_to_side(1, s, cx, cy, cz, &a, &b);
  /* each flip is its own inverse: the same map takes slave quadrants back to the master's */
  flip_master_to_slave(m->side_flip[side], 1, a, b, &an, &bn);
  side_to_volume(1, nb_side, an, bn, &i, &j, &k);
  return 6 * (8 * nb_elem + child_index(i, j, k)) + nb_side;
}

static int check_refinable(const Mesh *in) {
  if (in->n_elems > INT_MAX / 48)
    return HX_ERROR(HX_ERR_INPUT,
                    "mesh %s: refining %d elements gives more than %d; use fewer refinement "
                    "levels or a coarser mesh",
                    in->source, in->n_elems, INT_MAX / 6);
  if (in->n_mpi_mine_sides || in->n_mpi_yours_sides)
    return HX_ERROR(HX_ERR_INTERNAL, "mesh %s: refine the whole mesh before partitioning it",
                    in->source);
  if (in->NGeo < 1 || in->NGeo > HX_NMAX)
    return HX_ERROR(HX_ERR_INPUT, "mesh %s: NGeo = %d is out of range 1..%d", in->source, in->NGeo,
                    HX_NMAX);
  return HX_OK;
}

static int alloc_children(const Mesh *in, Mesh *m) {
  int ng = in->NGeo + 1;
  size_t n3 = (size_t)ng * ng * ng;
  m->n_elems = 8 * in->n_elems;
  m->NGeo = in->NGeo;
  snprintf(m->source, sizeof m->source, "%s", in->source);
  m->node_coords = hx_malloc(sizeof(double) * 3 * n3 * m->n_elems, "refined node coordinates");
  m->elem_global_id = hx_malloc(sizeof(long) * m->n_elems, "refined element ids");
  m->bcs = hx_calloc((size_t)in->n_bcs + 1, sizeof(BoundaryCondition), "boundary conditions");
  if (!m->node_coords || !m->elem_global_id || !m->bcs) return HX_ERR_MEM;
  m->n_bcs = in->n_bcs;
  if (in->n_bcs) memcpy(m->bcs, in->bcs, sizeof(BoundaryCondition) * in->n_bcs);
  return HX_OK;
}

/* Geometry and face neighbours of all children; children of parent e are 8e..8e+7. */
static void fill_children(const Mesh *in, Mesh *m, int *neighbor, int *face_bc) {
  int ng = in->NGeo + 1;
  size_t n3 = (size_t)ng * ng * ng;
  double V[2][HX_NPMAX * HX_NPMAX];
  half_interval_matrices(in->NGeo, V);
  for (int e = 0; e < in->n_elems; e++)
    for (int cz = 0; cz < 2; cz++)
      for (int cy = 0; cy < 2; cy++)
        for (int cx = 0; cx < 2; cx++) {
          int ce = 8 * e + child_index(cx, cy, cz);
          m->elem_global_id[ce] = ce + 1;
          child_geometry(in->NGeo, V[cx], V[cy], V[cz], &in->node_coords[3 * n3 * e],
                         &m->node_coords[3 * n3 * ce]);
          for (int s = 0; s < 6; s++)
            neighbor[6 * ce + s] = child_face_neighbor(in, e, cx, cy, cz, s, &face_bc[6 * ce + s]);
        }
}

int mesh_refine_once(const Mesh *in, Mesh **out) {
  *out = NULL;
  HX_CHECK(check_refinable(in));
  Mesh *m = hx_calloc(1, sizeof(Mesh), "refined mesh");
  HX_ALLOC_CHECK(m);
  int *neighbor = hx_malloc(sizeof(int) * 48 * (size_t)in->n_elems, "refined face neighbours");
  int *face_bc = hx_malloc(sizeof(int) * 48 * (size_t)in->n_elems, "refined face BCs");
  int rc = neighbor && face_bc ? alloc_children(in, m) : HX_ERR_MEM;
  if (rc == HX_OK) {
    fill_children(in, m, neighbor, face_bc);
    rc = mesh_sort_hilbert(m, neighbor, face_bc);
  }
  if (rc == HX_OK) rc = mesh_connect(m, neighbor, face_bc);
  free(neighbor);
  free(face_bc);
  if (rc != HX_OK) {
    mesh_destroy(m);
    return rc;
  }
  *out = m;
  return HX_OK;
}

int mesh_refine(Mesh **m, int levels) {
  if (levels < 0 || levels > HX_MAX_REFINE_LEVELS)
    return HX_ERROR(HX_ERR_INPUT,
                    "mesh %s: %d refinement levels requested (MeshRefine, --refine, --levels); "
                    "use 0..%d (each level multiplies the %d elements by 8)",
                    (*m)->source, levels, HX_MAX_REFINE_LEVELS, (*m)->n_elems);
  Mesh *cur = *m;
  for (int l = 0; l < levels; l++) {
    Mesh *next = NULL;
    int rc = mesh_refine_once(cur, &next);
    if (cur != *m) mesh_destroy(cur);
    if (rc != HX_OK) return rc;
    cur = next;
  }
  if (cur != *m) {
    mesh_destroy(*m);
    *m = cur;
  }
  return HX_OK;
}
