/* Built-in box mesh generator: a Cartesian block of hexahedra with an optional smooth sinusoidal
 * deformation of the interior, so that elements are genuinely curved for NGeo >= 2 while the
 * outer faces (and hence periodic pairs) stay planar and matching. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "basis/basis.h"
#include "core/error.h"
#include "core/hd.h"
#include "core/params.h"
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

static char *trim_field(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  char *end = s + strlen(s);
  while (end > s && (end[-1] == ' ' || end[-1] == '\t')) *--end = '\0';
  return s;
}

int box_parse_split(const char *text, const char *source, BoxSplit *out) {
  char buf[4 * HX_MAX_NAME], *field[4];
  int n = 0;
  snprintf(buf, sizeof buf, "%s", text);
  for (char *next = buf; next && n < 4;) {
    char *comma = n < 3 ? strchr(next, ',') : NULL;
    if (comma) *comma = '\0';
    field[n++] = trim_field(next);
    next = comma ? comma + 1 : NULL;
  }
  if (n != 4 || !*field[0] || !*field[1] || !*field[2] || !*field[3] || strchr(field[3], ','))
    return HX_ERROR(HX_ERR_INPUT,
                    "%s = %s: expected four comma-separated fields 'boundary, direction, "
                    "position, new name', e.g. 'BC_yminus, x, 1/6, BC_postshock'",
                    source, text);
  const char *dirs = "xyz";
  out->dir = -1;
  for (int d = 0; d < 3; d++)
    if ((field[1][0] | 0x20) == dirs[d] && field[1][1] == '\0') out->dir = d;
  if (out->dir < 0)
    return HX_ERROR(HX_ERR_INPUT, "%s = %s: direction '%s' must be x, y or z", source, text,
                    field[1]);
  const char *why = NULL;
  if (!params_eval_real_quiet(field[2], &out->position, &why))
    return HX_ERROR(HX_ERR_INPUT, "%s = %s: position '%s' is not a number (%s)", source, text,
                    field[2], why ? why : "bad syntax");
  if (strlen(field[0]) >= HX_MAX_NAME || strlen(field[3]) >= HX_MAX_NAME)
    return HX_ERROR(HX_ERR_INPUT, "%s = %s: boundary names are limited to %d characters", source,
                    text, HX_MAX_NAME - 1);
  snprintf(out->bc, sizeof out->bc, "%s", field[0]);
  snprintf(out->name, sizeof out->name, "%s", field[3]);
  return HX_OK;
}

/* Local side -> direction of its normal; box face f carries BOX_BC_NAMES[f]. */
static const int SIDE_DIR[6] = {2, 1, 0, 1, 0, 2};

static int find_bc(const Mesh *m, const char *name) {
  for (int b = 0; b < m->n_bcs; b++)
    if (strcasecmp(m->bcs[b].name, name) == 0) return b;
  return -1;
}

/* Element layer index k (0 < k < n) of the split plane; the plane must be an inner element face. */
static int split_layer(const BoxSpec *b, const BoxSplit *sp, const char *source, int *layer) {
  const char xyz[3] = {'x', 'y', 'z'};
  int d = sp->dir, n = b->n_elems[d];
  double h = (b->upper[d] - b->lower[d]) / n, k = (sp->position - b->lower[d]) / h;
  long k_near = lround(k);
  if (!(k > 0.5 && k < n - 0.5))
    return HX_ERROR(HX_ERR_INPUT,
                    "%s: %c = %.10g lies outside the inner element faces %c = %.10g .. %.10g of "
                    "the box; the split would leave %s whole",
                    source, xyz[d], sp->position, xyz[d], b->lower[d] + h,
                    b->upper[d] - h, sp->bc);
  if (fabs(k - (double)k_near) > 1e-8) {
    long k_lo = (long)floor(k);
    return HX_ERROR(HX_ERR_INPUT,
                    "%s: %c = %.10g is not an element face of the box (%d elements of width %.6g "
                    "in %c); the nearest element faces are %c = %.10g and %.10g; move the "
                    "position there or change BoxElems",
                    source, xyz[d], sp->position, n, h, xyz[d], xyz[d],
                    b->lower[d] + k_lo * h, b->lower[d] + (k_lo + 1) * h);
  }
  *layer = (int)k_near;
  return HX_OK;
}

/* Add the BCs of the splits to m->bcs; split_src/split_dst/split_layer_of: per split, the BC it
 * splits, the BC it makes and the element layer below which sides change. bc_face: box face of
 * each BC. */
static int box_add_split_bcs(const BoxSpec *b, int n_splits, const BoxSplit *splits,
                             const char *source, Mesh *m, int *bc_face, int *src, int *dst,
                             int *layer) {
  const char xyz[3] = {'x', 'y', 'z'};
  for (int s = 0; s < n_splits; s++) {
    const BoxSplit *sp = &splits[s];
    char where[HX_MAX_NAME + 64];
    snprintf(where, sizeof where, "%s #%d (%s)", source, s + 1, sp->bc);
    src[s] = find_bc(m, sp->bc);
    if (src[s] < 0) {
      char list[1024] = "";
      for (int i = 0; i < m->n_bcs; i++) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, m->bcs[i].name, sizeof list - strlen(list) - 1);
      }
      return HX_ERROR(HX_ERR_INPUT,
                      "%s: the box has no boundary %s to split (non-periodic boundaries: %s); "
                      "use BoxPeriodic = F in the direction of that face",
                      where, sp->bc, m->n_bcs ? list : "none");
    }
    if (SIDE_DIR[bc_face[src[s]]] == sp->dir)
      return HX_ERROR(HX_ERR_INPUT,
                      "%s: boundary %s is normal to %c; split it along one of the other two "
                      "directions",
                      where, sp->bc, xyz[sp->dir]);
    if (find_bc(m, sp->name) >= 0)
      return HX_ERROR(HX_ERR_INPUT, "%s: the new boundary name %s is already taken; choose "
                                    "another one", where, sp->name);
    HX_CHECK(split_layer(b, sp, where, &layer[s]));
    BoundaryCondition *bc = &m->bcs[m->n_bcs];
    snprintf(bc->name, sizeof bc->name, "%s", sp->name);
    bc->type = m->bcs[src[s]].type;
    bc->state = m->bcs[src[s]].state;
    bc_face[m->n_bcs] = bc_face[src[s]];
    dst[s] = m->n_bcs++;
  }
  return HX_OK;
}

/* BC of box face f of element (ex,ey,ez) after the splits, applied in order. */
static int box_face_bc(int bc, int n_splits, const int *src, const int *dst, const int *layer,
                       const BoxSplit *splits, const int idx[3]) {
  for (int s = 0; s < n_splits; s++)
    if (bc == src[s] && idx[splits[s].dir] < layer[s]) bc = dst[s];
  return bc;
}

int mesh_create_box(const BoxSpec *spec, Mesh **out) {
  return mesh_create_box_split(spec, 0, NULL, "BoxSplitBC", out);
}

int mesh_create_box_split(const BoxSpec *spec, int n_splits, const BoxSplit *splits,
                          const char *source, Mesh **out) {
  HX_CHECK(box_validate(spec));
  if (n_splits < 0 || n_splits > HX_MAX_BOX_SPLITS)
    return HX_ERROR(HX_ERR_INPUT, "%s is given %d times; at most %d splits are supported", source,
                    n_splits, HX_MAX_BOX_SPLITS);
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
  m->bcs = hx_calloc(6 + (size_t)n_splits, sizeof(BoundaryCondition), "boundary conditions");
  if (!m->node_coords || !m->elem_global_id || !neighbor || !face_bc || !m->bcs) return HX_ERR_MEM;

  /* one BC per non-periodic box face, in local-side order */
  int bc_of_face[6], bc_face[6 + HX_MAX_BOX_SPLITS];
  for (int f = 0; f < 6; f++) {
    bc_of_face[f] = -1;
    if (spec->periodic[SIDE_DIR[f]]) continue;
    BoundaryCondition *bc = &m->bcs[m->n_bcs];
    snprintf(bc->name, sizeof bc->name, "%s", BOX_BC_NAMES[f]);
    bc->type = 2;
    bc->state = 0;
    bc_face[m->n_bcs] = f;
    bc_of_face[f] = m->n_bcs++;
  }
  int split_src[HX_MAX_BOX_SPLITS], split_dst[HX_MAX_BOX_SPLITS], layer[HX_MAX_BOX_SPLITS];
  int rc = box_add_split_bcs(spec, n_splits, splits, source, m, bc_face, split_src, split_dst,
                             layer);
  if (rc != HX_OK) {
    free(neighbor);
    free(face_bc);
    mesh_destroy(m);
    return rc;
  }

  double xeq[HX_NPMAX];
  basis_equidistant_nodes(spec->NGeo, xeq);
  /* local side -> (direction, sense) and the opposite local side of the neighbour */
  const int side_sense[6] = {-1, -1, 1, 1, -1, 1};
  const int opposite[6] = {5, 3, 4, 1, 2, 0};
  long e = 0;
  for (int ez = 0; ez < nz; ez++)
    for (int ey = 0; ey < ny; ey++)
      for (int ex = 0; ex < nx; ex++, e++) {
        m->elem_global_id[e] = e + 1;
        box_fill_element(spec, xeq, ex, ey, ez, &m->node_coords[3 * n_geo3 * e]);
        for (int f = 0; f < 6; f++) {
          long nb = box_neighbor_elem(spec, ex, ey, ez, SIDE_DIR[f], side_sense[f]);
          const int idx[3] = {ex, ey, ez};
          neighbor[6 * e + f] = nb < 0 ? -1 : (int)(6 * nb + opposite[f]);
          face_bc[6 * e + f] = nb < 0 ? box_face_bc(bc_of_face[f], n_splits, split_src,
                                                    split_dst, layer, splits, idx)
                                      : -1;
        }
      }
  rc = mesh_sort_hilbert(m, neighbor, face_bc);
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
