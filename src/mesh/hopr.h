/* HOPR HDF5 mesh files (the mesh format of FLEXI and GALAEXI), hexahedra only.
 * Layout: HOPR user guide, "HOPR HDF5 Curved Mesh Format" (docs/mesh_formats.md sums it up). */
#ifndef HEXDG_HOPR_H
#define HEXDG_HOPR_H

#include "mesh/mesh.h"

/* Read a HOPR mesh of hexahedra (element types 108, 118, 208; any NGeo) into a new Mesh.
 * Elements keep the file's order (HOPR orders them along a space-filling curve). Sides connected
 * through a periodic (type 1) or inner (type 100) BC become inner sides; mesh->bcs lists the BCs
 * that the remaining boundary sides use, in file order. The flip of every connected pair is
 * recomputed from the corner nodes by mesh_connect and checked against the file's. */
int mesh_read_hopr(const char *path, Mesh **out);

/* Write a Mesh as a HOPR file that FLEXI reads: attributes Version, Ngeo, nElems, nSides,
 * nNodes, nUniqueSides, nUniqueNodes, nBCs; datasets ElemInfo, SideInfo, NodeCoords,
 * GlobalNodeIDs, BCNames, BCType, ElemBarycenters, ElemWeight, ElemCounter. Inner sides whose
 * partners differ by a translation are written as periodic sides (BC type 1, one pair of BCs per
 * translation vector). Written to <path>.tmp and renamed, so a failed write leaves no file. */
int mesh_write_hopr(const Mesh *m, const char *path);

#endif
