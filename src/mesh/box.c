/* Built-in box mesh generator: a Cartesian block of hexahedra with an optional smooth sinusoidal
 * deformation of the interior, so that elements are genuinely curved for NGeo >= 2 while the
 * outer faces (and hence periodic pairs) stay planar and matching. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basis/basis.h"
#include "core/error.h"
#include "core/hd.h"
#include "mesh/mesh.h"

static const char *const BOX_BC_NAMES[6] = {"BC_zminus", "BC_yminus", "BC_xplus",
                                            "BC_yplus",  "BC_xminus", "BC_zplus"};

/* Map a point of the unit cube to the (deformed) box. The deformation vanishes on the boundary:
 * x_d += curving * L_d * sin(2 pi s_x) sin(2 pi s_y) sin(2 pi s_z), with a different phase per
 * direction so that the three displacement components differ. */
static void box_map(const BoxSpec *b, const double s[3], double x[3]) {
  const double tp = 2.0 * HX_PI;
  double bump = sin(tp * s[0]) * sin(tp * s[1]) * sin(tp * s[2]);
  for (int d = 0; d < 3; d++) {
    double len = b->upper[d] - b->lower[d];
    double phase = sin(HX_PI * s[(d + 1) % 3]); /* zero on the boundary too */
    x[d] = b->lower[d] + len * s[d] + b->curving * len * bump * (d == 0 ? 1.0 : phase);
  }
}

static int box_validate(const BoxSpec *b) {
  for (int d = 0; d < 3; d++) {
    if (b->n_elems[d] < 1)
      return HX_ERROR(HX_ERR_INPUT, "BoxElems: entry %d is %d; every direction needs >= 1 element",
                      d + 1, b->n_elems[d]);
    if (!(b->upper[d] > b->lower[d]))
      return HX_ERROR(HX_ERR_INPUT, "BoxUpper(%d)=%g must be larger than BoxLower(%d)=%g", d + 1,
                      b->upper[d], d + 1, b->lower[d]);
  }
  if (b->NGeo < 1 || b->NGeo > HX_NMAX)
    return HX_ERROR(HX_ERR_INPUT, "NGeo=%d is out of range 1..%d", b->NGeo, HX_NMAX);
  if (b->curving != 0.0 && b->NGeo < 2)
    return HX_ERROR(HX_ERR_INPUT,
                    "BoxCurving=%g needs NGeo >= 2 to represent curved elements (NGeo=%d)",
                    b->curving, b->NGeo);
  return HX_OK;
}

/* Lattice index of element (ex,ey,ez) shifted by one in direction d (dir = -1/+1), wrapping in
 * periodic directions; -1 outside a non-periodic box. */
static long box_neighbor_elem(const BoxSpec *b, int ex, int ey, int ez, int d, int dir) {
  int idx[3] = {ex, ey, ez};
  idx[d] += dir;
  if (idx[d] < 0 || idx[d] >= b->n_elems[d]) {
    if (!b->periodic[d]) return -1;
    idx[d] = (idx[d] + b->n_elems[d]) % b->n_elems[d];
  }
  return ((long)idx[2] * b->n_elems[1] + idx[1]) * b->n_elems[0] + idx[0];
}

static void box_fill_element(const BoxSpec *b, const double *xeq, int ex, int ey, int ez,
                             double *coords) {
  int ng = b->NGeo + 1;
  for (int k = 0; k < ng; k++)
    for (int j = 0; j < ng; j++)
      for (int i = 0; i < ng; i++) {
        double s[3] = {(ex + 0.5 * (xeq[i] + 1.0)) / b->n_elems[0],
                       (ey + 0.5 * (xeq[j] + 1.0)) / b->n_elems[1],
                       (ez + 0.5 * (xeq[k] + 1.0)) / b->n_elems[2]};
        box_map(b, s, &coords[3 * ((k * ng + j) * ng + i)]);
      }
}

int mesh_create_box(const BoxSpec *spec, Mesh **out) {
  HX_CHECK(box_validate(spec));
  Mesh *m = hx_calloc(1, sizeof(Mesh), "mesh");
  HX_ALLOC_CHECK(m);
  int nx = spec->n_elems[0], ny = spec->n_elems[1], nz = spec->n_elems[2];
  long n_elems = (long)nx * ny * nz;
  if (n_elems > 2000000000L)
    return HX_ERROR(HX_ERR_INPUT, "BoxElems gives %ld elements, more than supported", n_elems);
  int ng = spec->NGeo + 1, n_geo3 = ng * ng * ng;
  m->n_elems = (int)n_elems;
  m->NGeo = spec->NGeo;
  snprintf(m->source, sizeof m->source, "box");
  m->node_coords = hx_malloc(sizeof(double) * 3 * n_geo3 * n_elems, "box node coordinates");
  m->elem_global_id = hx_malloc(sizeof(long) * n_elems, "element ids");
  int *neighbor = hx_malloc(sizeof(int) * 6 * n_elems, "face neighbours");
  int *face_bc = hx_malloc(sizeof(int) * 6 * n_elems, "face BCs");
  m->bcs = hx_calloc(6, sizeof(BoundaryCondition), "boundary conditions");
  if (!m->node_coords || !m->elem_global_id || !neighbor || !face_bc || !m->bcs) return HX_ERR_MEM;

  /* one BC per non-periodic box face, in local-side order */
  int bc_of_face[6];
  const int face_dir[6] = {2, 1, 0, 1, 0, 2};
  for (int f = 0; f < 6; f++) {
    bc_of_face[f] = -1;
    if (spec->periodic[face_dir[f]]) continue;
    BoundaryCondition *bc = &m->bcs[m->n_bcs];
    snprintf(bc->name, sizeof bc->name, "%s", BOX_BC_NAMES[f]);
    bc->type = 2;
    bc->state = 0;
    bc_of_face[f] = m->n_bcs++;
  }

  double xeq[HX_NPMAX];
  basis_equidistant_nodes(spec->NGeo, xeq);
  /* local side -> (direction, sense) and the opposite local side of the neighbour */
  const int side_dir[6] = {2, 1, 0, 1, 0, 2}, side_sense[6] = {-1, -1, 1, 1, -1, 1};
  const int opposite[6] = {5, 3, 4, 1, 2, 0};
  long e = 0;
  for (int ez = 0; ez < nz; ez++)
    for (int ey = 0; ey < ny; ey++)
      for (int ex = 0; ex < nx; ex++, e++) {
        m->elem_global_id[e] = e + 1;
        box_fill_element(spec, xeq, ex, ey, ez, &m->node_coords[3 * n_geo3 * e]);
        for (int f = 0; f < 6; f++) {
          long nb = box_neighbor_elem(spec, ex, ey, ez, side_dir[f], side_sense[f]);
          neighbor[6 * e + f] = nb < 0 ? -1 : (int)(6 * nb + opposite[f]);
          face_bc[6 * e + f] = nb < 0 ? bc_of_face[f] : -1;
        }
      }
  int rc = mesh_sort_hilbert(m, neighbor, face_bc);
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
