/* Mesh parameters, creation from the parameter file, and clean-up. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/error.h"
#include "mesh/gmsh.h"
#include "mesh/hopr.h"
#include "mesh/mesh.h"
#include "mesh/refine.h"
#include "parallel/parallel.h"

int mesh_define_params(Params *p) {
  const char *s = "Mesh";
  HX_CHECK(params_define(p, s, "MeshFile", PARAM_STRING, 0, NULL, false,
                         "Mesh to use: a HOPR file (*.h5), a gmsh file (*.msh, format 4.1), or "
                         "'box' for the built-in generator (Box* options)."));
  HX_CHECK(params_define(p, s, "BoundaryName", PARAM_STRING, 0, "", true,
                         "Name of a boundary whose condition is overridden by the BoundaryType "
                         "given with it (repeat the pair for several boundaries)."));
  HX_CHECK(params_define(p, s, "BoundaryType", PARAM_INT_ARRAY, 2, "", true,
                         "(/type, state/) for the preceding BoundaryName: FLEXI's BC type and "
                         "its state (RefState index / exact function)."));
  HX_CHECK(params_define(p, s, "BoxElems", PARAM_INT_ARRAY, 3, "(/4,4,4/)", false,
                         "Built-in box: number of elements in x, y, z."));
  HX_CHECK(params_define(p, s, "BoxLower", PARAM_REAL_ARRAY, 3, "(/-1.,-1.,-1./)", false,
                         "Built-in box: lower corner."));
  HX_CHECK(params_define(p, s, "BoxUpper", PARAM_REAL_ARRAY, 3, "(/1.,1.,1./)", false,
                         "Built-in box: upper corner."));
  HX_CHECK(params_define(p, s, "BoxPeriodic", PARAM_LOGICAL_ARRAY, 3, "(/T,T,T/)", false,
                         "Built-in box: periodic in x, y, z. Non-periodic faces get BC type 2 "
                         "(exact function) named BC_xminus, BC_xplus, ..."));
  HX_CHECK(params_define(p, s, "BoxSplitBC", PARAM_STRING, 0, "", true,
                         "Built-in box: split a boundary in two, as two zones in HOPR: "
                         "'boundary, direction, position, new name' gives the sides of the "
                         "boundary whose coordinate (x, y or z) is below the position the new "
                         "boundary (same type; set it with BoundaryName/BoundaryType). The "
                         "position must be an inner element face; may be repeated (applied in "
                         "order). Double Mach reflection: BoxSplitBC = BC_yminus, x, 1/6, "
                         "BC_postshock."));
  HX_CHECK(params_define(p, s, "NGeo", PARAM_INT, 0, "1", false,
                         "Built-in box: polynomial degree of the element geometry."));
  HX_CHECK(params_define(p, s, "BoxCurving", PARAM_REAL, 0, "0.", false,
                         "Built-in box: amplitude (relative to the box size) of a smooth "
                         "sinusoidal deformation of the interior; needs NGeo >= 2."));
  HX_CHECK(params_define(p, s, "useCurveds", PARAM_LOGICAL, 0, "T", false,
                         "Use the high-order geometry of the mesh file (FLEXI's key). F: keep "
                         "only the 8 corner nodes of each element, i.e. trilinear elements "
                         "(NGeo = 1), as FLEXI does."));
  HX_CHECK(
      params_define(p, s, "meshScale", PARAM_REAL, 0, "1.0", false,
                    "Multiply all node coordinates of the mesh by this factor (FLEXI's key)."));
  HX_CHECK(params_define(p, s, "MeshRefine", PARAM_INT, 0, "0", false,
                         "Uniform refinement levels applied to the mesh after reading: each level "
                         "splits every element into 2x2x2 children on the parent's NGeo map "
                         "(same curved domain, nested meshes; not in FLEXI)."));
  return HX_OK;
}

static int box_spec_from_params(const Params *p, BoxSpec *b) {
  bool per[3];
  HX_CHECK(params_get_int_array(p, "BoxElems", 3, b->n_elems));
  HX_CHECK(params_get_real_array(p, "BoxLower", 3, b->lower));
  HX_CHECK(params_get_real_array(p, "BoxUpper", 3, b->upper));
  HX_CHECK(params_get_logical_array(p, "BoxPeriodic", 3, per));
  HX_CHECK(params_get_int(p, "NGeo", &b->NGeo));
  HX_CHECK(params_get_real(p, "BoxCurving", &b->curving));
  for (int d = 0; d < 3; d++)
    b->periodic[d] = per[d];
  return HX_OK;
}

/* BoxSplitBC entries (repeatable) in file order. */
static int box_splits_from_params(const Params *p, BoxSplit *splits, int *n_splits) {
  *n_splits = params_count(p, "BoxSplitBC");
  if (*n_splits > HX_MAX_BOX_SPLITS)
    return HX_ERROR(HX_ERR_INPUT, "BoxSplitBC is given %d times; at most %d are supported",
                    *n_splits, HX_MAX_BOX_SPLITS);
  for (int i = 0; i < *n_splits; i++) {
    const char *text;
    HX_CHECK(params_get_string_at(p, "BoxSplitBC", i, &text));
    HX_CHECK(box_parse_split(text, "BoxSplitBC", &splits[i]));
  }
  return HX_OK;
}

static int has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcasecmp(s + n - k, suffix) == 0;
}

/* BoundaryName / BoundaryType pairs (FLEXI): override the condition of named boundaries. */
static int apply_boundary_overrides(const Params *p, Mesh *m) {
  int n_names = params_count(p, "BoundaryName"), n_types = params_count(p, "BoundaryType");
  if (n_names != n_types)
    return HX_ERROR(HX_ERR_INPUT,
                    "%d BoundaryName but %d BoundaryType entries: give one BoundaryType "
                    "(/type, state/) after each BoundaryName",
                    n_names, n_types);
  for (int i = 0; i < n_names; i++) {
    const char *name;
    int ts[2], found = -1;
    HX_CHECK(params_get_string_at(p, "BoundaryName", i, &name));
    HX_CHECK(params_get_int_array_at(p, "BoundaryType", i, 2, ts));
    for (int b = 0; b < m->n_bcs; b++)
      if (strcasecmp(m->bcs[b].name, name) == 0) found = b;
    if (found < 0) {
      char list[1024] = "";
      for (int b = 0; b < m->n_bcs; b++) {
        strncat(list, b ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, m->bcs[b].name, sizeof list - strlen(list) - 1);
      }
      return HX_ERROR(HX_ERR_INPUT, "BoundaryName = %s: mesh %s has no such boundary (it has: %s)",
                      name, m->source, m->n_bcs ? list : "none");
    }
    m->bcs[found].type = ts[0];
    m->bcs[found].state = ts[1];
  }
  return HX_OK;
}

/* useCurveds = F (FLEXI mesh.f90): the element corners of the NGeo node grid become a trilinear
 * element (NGeo = 1), so the geometry equals that of the straight-sided mesh. */
int mesh_discard_curved(Mesh *m) {
  if (m->NGeo == 1) return HX_OK;
  const int n = m->NGeo + 1;
  double *corners = hx_malloc((size_t)m->n_elems * 8 * 3 * sizeof(double), "trilinear nodes");
  HX_ALLOC_CHECK(corners);
  for (int e = 0; e < m->n_elems; e++) {
    const double *src = m->node_coords + (size_t)e * n * n * n * 3;
    for (int c = 0; c < 8; c++) {
      const int i = (c & 1) * m->NGeo, j = ((c >> 1) & 1) * m->NGeo, k = (c >> 2) * m->NGeo;
      for (int d = 0; d < 3; d++)
        corners[((size_t)e * 8 + c) * 3 + d] = src[((size_t)(k * n + j) * n + i) * 3 + d];
    }
  }
  free(m->node_coords);
  m->node_coords = corners;
  m->NGeo = 1;
  return HX_OK;
}

/* useCurveds and meshScale, applied right after reading as FLEXI does. */
static int apply_geometry_options(const Params *p, Mesh *m) {
  bool curved;
  double scale;
  HX_CHECK(params_get_logical(p, "useCurveds", &curved));
  HX_CHECK(params_get_real(p, "meshScale", &scale));
  if (!(scale > 0.0))
    return HX_ERROR(HX_ERR_INPUT, "meshScale = %g must be > 0 (a factor on the coordinates)",
                    scale);
  if (!curved) HX_CHECK(mesh_discard_curved(m));
  const size_t n = (size_t)(m->NGeo + 1) * (m->NGeo + 1) * (m->NGeo + 1) * 3 * m->n_elems;
  if (scale != 1.0)
    for (size_t i = 0; i < n; i++)
      m->node_coords[i] *= scale;
  return HX_OK;
}

int mesh_create_from_params(const Params *p, Mesh **out) {
  const char *file;
  HX_CHECK(params_get_string(p, "MeshFile", &file));
  int rc;
  if (strcasecmp(file, "box") == 0) {
    BoxSpec b;
    BoxSplit splits[HX_MAX_BOX_SPLITS];
    int n_splits;
    HX_CHECK(box_spec_from_params(p, &b));
    HX_CHECK(box_splits_from_params(p, splits, &n_splits));
    rc = mesh_create_box_split(&b, n_splits, splits, "BoxSplitBC", out);
  } else if (params_count(p, "BoxSplitBC") > 0) {
    return HX_ERROR(HX_ERR_INPUT,
                    "BoxSplitBC applies to the built-in box only (MeshFile = box), but MeshFile "
                    "= %s; split the boundary in the mesh generator (HOPR zones, gmsh physical "
                    "groups) instead",
                    file);
  } else if (has_suffix(file, ".msh")) {
    rc = mesh_read_gmsh(file, out);
  } else if (has_suffix(file, ".h5")) {
    rc = mesh_read_hopr(file, out);
  } else {
    return HX_ERROR(HX_ERR_INPUT,
                    "MeshFile = %s: unknown mesh format; use a HOPR file (*_mesh.h5), a gmsh "
                    "file (*.msh) or 'box'",
                    file);
  }
  if (rc != HX_OK) return rc;
  int levels;
  rc = apply_geometry_options(p, *out);
  if (rc == HX_OK) rc = params_get_int(p, "MeshRefine", &levels);
  if (rc == HX_OK) rc = mesh_refine(out, levels);
  if (rc == HX_OK) rc = apply_boundary_overrides(p, *out);
  if (rc != HX_OK) {
    mesh_destroy(*out);
    *out = NULL;
  }
  return rc;
}

void mesh_destroy(Mesh *m) {
  if (!m) return;
  free(m->node_coords);
  free(m->elem_global_id);
  free(m->elem_to_side);
  free(m->elem_to_side_flip);
  free(m->side_master_elem);
  free(m->side_master_locside);
  free(m->side_slave_elem);
  free(m->side_slave_locside);
  free(m->side_flip);
  free(m->side_bc);
  free(m->bcs);
  free(m->nbr_rank);
  free(m->nbr_mine_first);
  free(m->nbr_mine_count);
  free(m->nbr_yours_first);
  free(m->nbr_yours_count);
  free(m);
}

void mesh_elem_centroid(const Mesh *m, int e, double c[3]) {
  int ng = m->NGeo + 1, n3 = ng * ng * ng;
  const double *x = &m->node_coords[3 * (long)n3 * e];
  c[0] = c[1] = c[2] = 0.0;
  for (int n = 0; n < n3; n++)
    for (int d = 0; d < 3; d++) c[d] += x[3 * n + d] / n3;
}

int mesh_locate_elem(const Mesh *m, int local_elem, long *gid, double c[3]) {
  double id = local_elem >= 0 ? (double)m->elem_global_id[local_elem] : -1.0;
  par_max(&id, 1);
  /* the rank that holds that element gives its centroid; the others give -inf */
  const int held = id >= 0.0 && local_elem >= 0 && (double)m->elem_global_id[local_elem] == id;
  double x[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  if (held) mesh_elem_centroid(m, local_elem, x);
  par_max(x, 3);
  *gid = (long)id;
  for (int d = 0; d < 3; d++) c[d] = x[d];
  return held;
}
