/* Metric terms of curved elements: the contravariant vectors J a^i at the solution nodes and the
 * face normals, free-stream preserving and accurate to the truncation error at every N.
 *
 * 1. Exact values: J a^1 = X_xi2 x X_xi3 (and cyclic) and J from the derivatives of the geometry
 *    polynomial (degree NGeo) at the nodes; face normals likewise at the face nodes, then shifted
 *    by one constant vector per face so that the face quadrature of the normals equals the exact
 *    flux int n dS of the face (zero summed over a closed element; identical from both sides).
 * 2. Discrete metric identities: sum_q w_q grad phi(q) . J a_c(q) = face terms of phi, for every
 *    basis function phi (weak form; by summation by parts the same for the split form on
 *    Gauss-Lobatto nodes and the FV subcells). The exact nodal values miss them by the
 *    truncation error; the smallest correction in the quadrature norm is a discrete gradient,
 *    J a^d += D_d lambda, with lambda from a discrete Neumann problem solved by fast
 *    diagonalization (Lynch, Rice & Thomas 1964).
 *
 * The conservative curl form (Kopriva 2006, J. Sci. Comput. 26) also satisfies the identities, but
 * it interpolates X_l grad X_m (degree 2 NGeo) at degree N: for N < 2 NGeo its metrics carry a
 * relative error O(h^N), which held the convergence of curved meshes below N + 1 (docs/mms.md).
 * Where N >= 2 NGeo both give the same metrics (to round-off). */
#ifndef HEXDG_METRICS_H
#define HEXDG_METRICS_H

#include "basis/disc.h"
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

/* Coordinates ([3][ng^3]) and their exact derivatives dX_a/dxi_b ([9][ng^3], at [a*3+b]) on the
 * (NGeo+1)^3 equidistant geometry nodes of element e, ng = NGeo + 1. */
void geometry_nodal_fields(const Mesh *m, int e, double *Xg, double *dXg);

/* Interpolation matrix (nout x NGeo+1) from the equidistant geometry nodes to points xout. */
void geometry_interp_matrix(int NGeo, int nout, const double *xout, double *V);

#endif
