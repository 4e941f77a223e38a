/* Unstructured hexahedral mesh: curved element geometry, boundary conditions and the side
 * connectivity that every operator step uses.
 *
 * Local sides follow FLEXI/HOPR (CGNS) numbering, 0-based here:
 *   0 zeta-  (k=0)   1 eta-  (j=0)   2 xi+  (i=N)   3 eta+  (j=N)   4 xi-  (i=0)   5 zeta+ (k=N)
 * Each side has face coordinates (p,q) that form a right-handed frame with the OUTWARD normal
 * of its element (see face_to_volume in dg/facemap.h). Sides are numbered in FLEXI's order:
 * boundary sides, inner sides, MPI sides mine, MPI sides yours (the last two empty without MPI).
 * The master element of a side owns its orientation; the slave's face coordinates are related
 * to the master's by one of four reflections, the flip (1..4; 0 = master). */
#ifndef HEXDG_MESH_H
#define HEXDG_MESH_H

#include "core/params.h"

#define HX_MAX_NAME 256

/* Boundary condition: FLEXI's 4-integer code (type, curved index, state, alpha) and name. */
typedef struct {
  char name[HX_MAX_NAME];
  int type;  /* 1 periodic, 2 exact function/ref state, 3 adiabatic wall, ... */
  int state; /* refstate / exact-function index for types that use one (0: default) */
} BoundaryCondition;

typedef struct {
  int n_elems;
  int NGeo;
  double *node_coords; /* [elem][k][j][i][3] on NGeo+1 equidistant nodes per direction */
  long *elem_global_id;

  int n_sides, n_bc_sides, n_inner_sides, n_mpi_mine_sides, n_mpi_yours_sides;
  int *elem_to_side;      /* [elem*6 + locside] -> side */
  int *elem_to_side_flip; /* [elem*6 + locside] -> 0 (master) or flip 1..4 (slave) */
  int *side_master_elem, *side_master_locside;
  int *side_slave_elem, *side_slave_locside; /* -1 on boundary sides */
  int *side_flip;                            /* flip of the slave, 0 on boundary sides */
  int *side_bc;                              /* index into bcs; -1 for inner and MPI sides */
  /* On MPI sides the element on the other rank is -1: side_slave_elem on "mine" sides,
   * side_master_elem on "yours" sides (its locside is kept). */

  int n_bcs;
  BoundaryCondition *bcs;

  /* Domain decomposition (src/mesh/partition.c); a single rank has no MPI sides. MPI sides are
   * "mine" where this rank holds the master element and computes the flux, "yours" where the
   * neighbour does; both blocks are grouped by neighbour rank (ascending) and, inside a group,
   * ordered by the global side, so that each message is one contiguous block of sides. */
  long n_global_elems;    /* elements of the whole mesh; elem_global_id runs over 1..n_global_elems */
  int n_nbr_ranks;
  int *nbr_rank;          /* [n_nbr_ranks] */
  int *nbr_mine_first, *nbr_mine_count;   /* sides of each neighbour inside the "mine" block */
  int *nbr_yours_first, *nbr_yours_count; /* ... and inside the "yours" block */
  char source[1024]; /* "box" or the mesh file path: for error messages and state files */
} Mesh;

/* Geometry of the built-in box generator (MeshFile = box). */
typedef struct {
  int n_elems[3];
  double lower[3], upper[3];
  int periodic[3];
  int NGeo;
  double curving; /* amplitude of the interior sinusoidal deformation, relative to the edge */
} BoxSpec;

/* A split of a box boundary (BoxSplitBC, `hexdg mesh box --split`): the sides of BC `bc` whose
 * coordinate `dir` (0 x, 1 y, 2 z) lies below `position` get the new BC `name` (type and state
 * of `bc`; BoundaryName/BoundaryType set them), as two zones would in HOPR. The position must be
 * an inner element face of the box in direction dir, tangential to the split boundary. */
#define HX_MAX_BOX_SPLITS 8
typedef struct {
  char bc[HX_MAX_NAME];
  int dir;
  double position;
  char name[HX_MAX_NAME];
} BoxSplit;

int mesh_define_params(Params *p);
/* Build the mesh named by MeshFile (currently: the built-in box). */
int mesh_create_from_params(const Params *p, Mesh **out);
int mesh_create_box(const BoxSpec *spec, Mesh **out);
/* The box with its boundaries split by splits[0..n_splits) in this order (a later split may split
 * a BC made by an earlier one). Errors name `source` (the parameter or option) and, for a position
 * off the element faces, the nearest element faces. */
int mesh_create_box_split(const BoxSpec *spec, int n_splits, const BoxSplit *splits,
                          const char *source, Mesh **out);
/* Parse "bc, dir, position, name" (dir x|y|z; position a number, pi and + - * / allowed), e.g.
 * "BC_yminus, x, 1/6, BC_postshock"; errors name `source`. */
int box_parse_split(const char *text, const char *source, BoxSplit *out);
void mesh_destroy(Mesh *m);

/* Side connectivity from face neighbours: neighbor[elem*6+locside] = nb_elem*6 + nb_locside, or
 * -1 for a boundary face, whose BC index is face_bc[elem*6+locside]. The flip of each pair is
 * found from the corner coordinates (equal up to a translation, which covers periodic pairs).
 * Errors name the element and side (unmatched face, inconsistent neighbour pair, no flip fits). */
int mesh_connect(Mesh *m, const int *neighbor, const int *face_bc);
/* Allocate the side arrays (n_sides) and the element-to-side maps (n_elems) of m. */
int mesh_alloc_sides(Mesh *m);

/* Mean of element e's geometry nodes. */
void mesh_elem_centroid(const Mesh *m, int e, double c[3]);

/* For an error message: over the ranks (collective), the largest global id among the elements
 * the ranks name (local_elem < 0: none on this rank) and its centroid; *gid = -1 if no rank
 * names one. Returns 1 on the rank that holds that element (its local_elem), else 0. */
int mesh_locate_elem(const Mesh *m, int local_elem, long *gid, double c[3]);

/* Reorder elements (node_coords, global ids, neighbor, face_bc) along a Hilbert curve through the
 * element centroids. */
int mesh_sort_hilbert(Mesh *m, int *neighbor, int *face_bc);

/* Hilbert index of integer coordinates (each < 2^bits) (Skilling 2004, "Programming the
 * Hilbert curve"). */
unsigned long long hilbert_index_3d(const unsigned int coord[3], int bits);

/* Side ranges in FLEXI's order: [0, first_mpi) boundary and inner sides, then the MPI sides
 * "mine" [first_mpi, first_yours) and "yours" [first_yours, n_sides). */
static inline int mesh_first_mpi_side(const Mesh *m) { return m->n_bc_sides + m->n_inner_sides; }
static inline int mesh_first_yours_side(const Mesh *m) {
  return m->n_bc_sides + m->n_inner_sides + m->n_mpi_mine_sides;
}

/* CGNS corner numbers of the face corners, in the side's face coordinates (0,0),(1,0),(1,1),(0,1). */
extern const int HX_SIDE_CORNERS[6][4];

/* useCurveds = F: keep only the corner nodes of each element (trilinear, NGeo = 1). */
int mesh_discard_curved(Mesh *m);

#endif
