/* Side connectivity: numbering of boundary and inner sides (FLEXI order), master/slave roles and
 * the flip between their face coordinate systems. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"
#include "mesh/facemap.h"
#include "mesh/mesh.h"

const int HX_SIDE_CORNERS[6][4] = {{0, 3, 2, 1}, {0, 1, 5, 4}, {1, 2, 6, 5},
                                   {2, 3, 7, 6}, {0, 4, 7, 3}, {4, 5, 6, 7}};

static const double *corner_coords(const Mesh *m, int elem, int corner) {
  static const int off[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  int ng = m->NGeo + 1, g = m->NGeo;
  long node = ((long)off[corner][2] * g * ng + off[corner][1] * g) * ng + off[corner][0] * g;
  return &m->node_coords[3 * ((long)elem * ng * ng * ng + node)];
}

/* Face corner (p,q) in {0,1}^2 -> index 0..3 in HX_SIDE_CORNERS order. */
static int face_corner_index(int p, int q) { return q == 0 ? p : 3 - p; }

static double dist2(const double *a, const double *b) {
  return (a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]);
}

/* The flip for which the slave's corners are the master's up to one translation (periodic). */
static int find_flip(const Mesh *m, int em, int sm, int es, int ss) {
  const double *xm[4], *xs[4];
  for (int c = 0; c < 4; c++) {
    xm[c] = corner_coords(m, em, HX_SIDE_CORNERS[sm][c]);
    xs[c] = corner_coords(m, es, HX_SIDE_CORNERS[ss][c]);
  }
  double h2 = dist2(xm[0], xm[2]);
  int best = -1;
  double best_err = 1e-16;
  for (int f = 1; f <= 4; f++) {
    double t[3], err = 0.0;
    for (int c = 0; c < 4; c++) {
      int p = (c == 1 || c == 2), q = (c >= 2), ps, qs;
      flip_master_to_slave(f, 1, p, q, &ps, &qs);
      const double *a = xm[c], *b = xs[face_corner_index(ps, qs)];
      if (c == 0)
        for (int d = 0; d < 3; d++) t[d] = a[d] - b[d];
      double shifted[3] = {b[0] + t[0], b[1] + t[1], b[2] + t[2]};
      err += dist2(a, shifted);
    }
    if (best < 0 || err < best_err) {
      best = f;
      best_err = err;
    }
  }
  if (best_err > 1e-16 * h2 + 1e-24) return -1;
  return best;
}

int mesh_alloc_sides(Mesh *m) {
  int n = m->n_sides;
  m->side_master_elem = hx_malloc(sizeof(int) * n, "sides");
  m->side_master_locside = hx_malloc(sizeof(int) * n, "sides");
  m->side_slave_elem = hx_malloc(sizeof(int) * n, "sides");
  m->side_slave_locside = hx_malloc(sizeof(int) * n, "sides");
  m->side_flip = hx_malloc(sizeof(int) * n, "sides");
  m->side_bc = hx_malloc(sizeof(int) * n, "sides");
  m->elem_to_side = hx_malloc(sizeof(int) * 6 * (size_t)m->n_elems, "element sides");
  m->elem_to_side_flip = hx_malloc(sizeof(int) * 6 * (size_t)m->n_elems, "element sides");
  if (!m->side_master_elem || !m->side_master_locside || !m->side_slave_elem ||
      !m->side_slave_locside || !m->side_flip || !m->side_bc || !m->elem_to_side ||
      !m->elem_to_side_flip)
    return HX_ERR_MEM;
  return HX_OK;
}

static int check_faces(const Mesh *m, const int *neighbor, const int *face_bc, int *n_bc,
                       int *n_inner) {
  *n_bc = *n_inner = 0;
  for (int f = 0; f < 6 * m->n_elems; f++) {
    int e = f / 6, s = f % 6, nb = neighbor[f];
    if (nb < 0) {
      if (face_bc[f] < 0 || face_bc[f] >= m->n_bcs)
        return HX_ERROR(HX_ERR_INPUT,
                        "mesh %s: element %ld, local side %d has no neighbour and no boundary "
                        "condition (unmatched face); check the mesh connectivity/periodicity",
                        m->source, m->elem_global_id[e], s + 1);
      (*n_bc)++;
      continue;
    }
    if (nb >= 6 * m->n_elems || neighbor[nb] != f)
      return HX_ERROR(HX_ERR_INPUT,
                      "mesh %s: element %ld, local side %d names neighbour element %d side %d, "
                      "which does not name it back (inconsistent connectivity)",
                      m->source, m->elem_global_id[e], s + 1, nb / 6 + 1, nb % 6 + 1);
    if (nb > f) (*n_inner)++;
  }
  return HX_OK;
}

int mesh_connect(Mesh *m, const int *neighbor, const int *face_bc) {
  int n_bc, n_inner;
  HX_CHECK(check_faces(m, neighbor, face_bc, &n_bc, &n_inner));
  m->n_bc_sides = n_bc;
  m->n_inner_sides = n_inner;
  m->n_mpi_mine_sides = m->n_mpi_yours_sides = 0;
  m->n_global_elems = m->n_elems;
  m->n_sides = n_bc + n_inner;
  HX_CHECK(mesh_alloc_sides(m));
  int next_bc = 0, next_inner = n_bc;
  for (int f = 0; f < 6 * m->n_elems; f++) {
    int e = f / 6, s = f % 6, nb = neighbor[f];
    int side;
    if (nb >= 0 && nb < f) continue; /* slave: handled with its master */
    side = nb < 0 ? next_bc++ : next_inner++;
    m->side_master_elem[side] = e;
    m->side_master_locside[side] = s;
    m->side_bc[side] = nb < 0 ? face_bc[f] : -1;
    m->side_slave_elem[side] = nb < 0 ? -1 : nb / 6;
    m->side_slave_locside[side] = nb < 0 ? -1 : nb % 6;
    m->side_flip[side] = 0;
    m->elem_to_side[f] = side;
    m->elem_to_side_flip[f] = 0;
    if (nb < 0) continue;
    int flip = find_flip(m, e, s, nb / 6, nb % 6);
    if (flip < 0)
      return HX_ERROR(HX_ERR_INPUT,
                      "mesh %s: the corners of element %ld side %d and of its neighbour element "
                      "%ld side %d do not match in any orientation (non-conforming face?)",
                      m->source, m->elem_global_id[e], s + 1, m->elem_global_id[nb / 6],
                      nb % 6 + 1);
    m->side_flip[side] = flip;
    m->elem_to_side[nb] = side;
    m->elem_to_side_flip[nb] = flip;
  }
  return HX_OK;
}
