/* Uniform h-refinement of a curved hexahedral mesh: every element is split into 2x2x2 children.
 * A child's geometry is its parent's polynomial map of degree NGeo evaluated at the child's
 * equidistant reference nodes, so the refined mesh covers exactly the same (curved) domain and a
 * series of refinements is nested; this is what a convergence study on a curved unstructured
 * mesh needs (docs/mms.md). */
#ifndef HEXDG_REFINE_H
#define HEXDG_REFINE_H

#include "mesh/mesh.h"

/* Largest number of levels accepted by mesh_refine (each level multiplies the elements by 8). */
#define HX_MAX_REFINE_LEVELS 6

/* Refine a connected mesh once into a new Mesh of 8 * n_elems elements with the same NGeo.
 * Children's faces on a parent's boundary side keep its boundary condition (the BC list is
 * copied, names, types and states included); children's faces on a parent's inner or periodic
 * side are paired with the neighbour's children through the side's flip. The children are
 * ordered along a Hilbert curve (elem_global_id = position along the curve), then mesh_connect
 * rebuilds sides and flips. m->source is kept. */
int mesh_refine_once(const Mesh *in, Mesh **out);

/* Replace *m by its refinement of the given number of levels (0: unchanged). On failure *m is
 * left as it was. Errors name the mesh, the levels and the element count. */
int mesh_refine(Mesh **m, int levels);

#endif
