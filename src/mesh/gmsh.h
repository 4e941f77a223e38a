/* Reader for gmsh .msh files of format version 4.1 (ASCII and binary) with hexahedral elements of
 * geometry order 1..4 (gmsh element types 5, 12, 92, 93). See docs/gmsh.md. */
#ifndef HEXDG_GMSH_H
#define HEXDG_GMSH_H

#include "mesh/mesh.h"

/* Read a .msh 4.1 file into a new Mesh.
 * - Hexahedra only; any other 3-D element is an error naming its element tag. All hexahedra must
 *   have the same order, which becomes NGeo.
 * - Node coordinates are reordered from gmsh's node ordering (vertices, edges, faces, interior)
 *   to hexdg's tensor-product layout [k][j][i] on equidistant nodes; left-handed elements are
 *   mirrored in xi.
 * - Face neighbours are found by matching the corner node tags of the faces; faces left unpaired
 *   are then matched after identifying every node of a $Periodic pair with its master node (for
 *   matching only: coordinates are kept, and mesh_connect handles the translation between
 *   periodic partners). Only translations are accepted as periodic transformations.
 * - A face without neighbour must be covered by a quadrangle of a physical surface: the physical
 *   group becomes a BoundaryCondition named after $PhysicalNames ("PhysicalSurface<tag>" when the
 *   group is unnamed), type 2, state 0. Only groups used by boundary faces become BCs, ordered by
 *   physical tag.
 * - Elements are reordered along a Hilbert curve (mesh_sort_hilbert), then mesh_connect builds the
 *   sides. m->source is the path.
 * Errors (HX_ERR_INPUT/HX_ERR_IO/HX_ERR_MEM) name the file, the line (ASCII) or the section and
 * byte offset (binary), the entity/element tag concerned and what to do. */
int mesh_read_gmsh(const char *path, Mesh **out);

/* gmsh's node ordering of the Lagrange hexahedron of the given order (1..4): ijk[a] holds the
 * lattice indices (i,j,k), each in 0..order, of gmsh local node a. Returns the number of nodes,
 * (order+1)^3, or -1 for an unsupported order. */
int gmsh_hex_lattice(int order, int ijk[][3]);

#endif
