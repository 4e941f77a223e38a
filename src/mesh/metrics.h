/* Metric terms of the curved elements in the conservative curl form (Kopriva 2006, J. Sci.
 * Comput. 26, eq. (37)): the contravariant vectors J a^i are computed as discrete curls of
 * degree-N interpolants on Gauss-Lobatto nodes, so they satisfy the discrete metric identities
 * exactly and free stream is preserved to round-off on curved meshes, with either node type.
 * Face normals are the volume metrics restricted to the face, identical from both sides. */
#ifndef HEXDG_METRICS_H
#define HEXDG_METRICS_H

#include "dg/disc.h"
#include "mesh/mesh.h"

typedef struct {
  double *metrics;   /* [elem][dir 3][component 3][k][j][i]: J a^dir */
  double *sJ;        /* [elem][k][j][i]: 1/J */
  double *elem_x;    /* [elem][3][k][j][i]: node positions */
  double *face_nvec; /* [side][3][q][p]: unit normal of the master, outward */
  double *face_t1, *face_t2;
  double *face_surf; /* [side][q][p]: surface element |J a^dir| */
  double *face_x;    /* [side][3][q][p] */
} Geometry;

int metrics_compute(const Mesh *m, const Disc *d, Geometry *g);
void geometry_free(Geometry *g);

/* Interpolation matrix (nout x NGeo+1) from the equidistant geometry nodes to points xout. */
void geometry_interp_matrix(int NGeo, int nout, const double *xout, double *V);

#endif
