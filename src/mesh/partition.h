/* Domain decomposition: which rank owns which element (Partitioner = sfc | metis), and the
 * rank-local mesh with FLEXI's side order (boundary, inner, MPI mine, MPI yours).
 *
 * Every rank builds the whole mesh (read or generated, connected, along the Hilbert curve), then
 * keeps its part. Master and slave of every side, and the flips, are those of the whole mesh (the
 * lower global element face is the master), so each side's flux is computed from the same data in
 * the same orientation whatever the number of ranks: results do not depend on the partition. */
#ifndef HEXDG_PARTITION_H
#define HEXDG_PARTITION_H

#include "core/params.h"
#include "mesh/mesh.h"

enum { PARTITIONER_SFC = 0, PARTITIONER_METIS = 1 };

int partition_define_params(Params *p);

/* Replace *m (the whole mesh) by this rank's part when the run has more than one rank; a no-op on
 * one rank. weights: one per element of the whole mesh (ElemCost at a weighted restart), NULL:
 * uniform. Errors name the partitioner and the rank that would get no element. */
int mesh_partition_from_params(const Params *p, const double *weights, Mesh **m);

/* elem_part[e] in 0..n_parts-1 for contiguous ranges of the element order (the Hilbert curve),
 * balanced by weight (NULL: every element weighs 1; then the first n_elems % n_parts parts take
 * one element more). */
int partition_sfc(const Mesh *m, const double *weights, int n_parts, int *elem_part);

/* elem_part from METIS k-way on the element graph (faces as edges, periodic ones included),
 * vertex weights from weights (NULL: uniform). HX_ERR_INPUT in a build without METIS. */
int partition_metis(const Mesh *m, const double *weights, int n_parts, int *elem_part);

/* The part `part` of the whole mesh g: its elements in ascending global order (elem_global_id =
 * position in g + 1), sides in FLEXI's order, MPI sides grouped by neighbour rank. */
int mesh_extract_part(const Mesh *g, const int *elem_part, int part, Mesh **out);

#endif
