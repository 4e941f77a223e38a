/* Mesh parameters, creation from the parameter file, and clean-up. */
#include <stdlib.h>
#include <strings.h>

#include "core/error.h"
#include "mesh/mesh.h"

int mesh_define_params(Params *p) {
  const char *s = "Mesh";
  HX_CHECK(params_define(p, s, "MeshFile", PARAM_STRING, 0, NULL, false,
                         "Mesh to use: 'box' for the built-in box generator (Box* options)."));
  HX_CHECK(params_define(p, s, "BoxElems", PARAM_INT_ARRAY, 3, "(/4,4,4/)", false,
                         "Built-in box: number of elements in x, y, z."));
  HX_CHECK(params_define(p, s, "BoxLower", PARAM_REAL_ARRAY, 3, "(/-1.,-1.,-1./)", false,
                         "Built-in box: lower corner."));
  HX_CHECK(params_define(p, s, "BoxUpper", PARAM_REAL_ARRAY, 3, "(/1.,1.,1./)", false,
                         "Built-in box: upper corner."));
  HX_CHECK(params_define(p, s, "BoxPeriodic", PARAM_LOGICAL_ARRAY, 3, "(/T,T,T/)", false,
                         "Built-in box: periodic in x, y, z. Non-periodic faces get BC type 2 "
                         "(exact function) named BC_xminus, BC_xplus, ..."));
  HX_CHECK(params_define(p, s, "NGeo", PARAM_INT, 0, "1", false,
                         "Built-in box: polynomial degree of the element geometry."));
  HX_CHECK(params_define(p, s, "BoxCurving", PARAM_REAL, 0, "0.", false,
                         "Built-in box: amplitude (relative to the box size) of a smooth "
                         "sinusoidal deformation of the interior; needs NGeo >= 2."));
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
  for (int d = 0; d < 3; d++) b->periodic[d] = per[d];
  return HX_OK;
}

int mesh_create_from_params(const Params *p, Mesh **out) {
  const char *file;
  HX_CHECK(params_get_string(p, "MeshFile", &file));
  if (strcasecmp(file, "box") == 0) {
    BoxSpec b;
    HX_CHECK(box_spec_from_params(p, &b));
    return mesh_create_box(&b, out);
  }
  return HX_ERROR(HX_ERR_INPUT,
                  "MeshFile = %s: only the built-in generator (MeshFile = box) is available in "
                  "this version; HOPR and gmsh meshes come with the mesh reader",
                  file);
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
  free(m);
}
