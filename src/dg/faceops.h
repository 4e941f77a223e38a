/* Face operations of the DG operator shared by the CPU loops and the CUDA kernels (host+device):
 * the value of a volume polynomial at a face point and the surface-integral weight of a node. */
#ifndef HEXDG_FACEOPS_H
#define HEXDG_FACEOPS_H

#include "core/hd.h"
#include "basis/disc.h"
#include "mesh/facemap.h"

/* Value of the variable block u (np^3 nodes) at the face point of local side locside whose
 * face-adjacent node is node0: the node itself on Gauss-Lobatto nodes, otherwise the Lagrange
 * interpolation l_l(+-1) along the line normal to the side. */
HD static inline double prolong_to_face_point(const Disc *d, const double *u, int node0,
                                              int locside) {
  if (d->node_type == NODE_GAUSS_LOBATTO) return u[node0];
  int np = d->np, dir = side_normal_dir(locside), plus = side_is_plus(locside);
  int stride = dir == 0 ? 1 : dir == 1 ? np : np * np;
  int base = node0 - (plus ? d->N : 0) * stride;
  const double *L = plus ? d->L_plus : d->L_minus;
  double s = 0.0;
  for (int l = 0; l < np; l++)
    s += L[l] * u[base + l * stride];
  return s;
}

/* Surface-integral weight Lhat_end(nidx) of a node whose index normal to locside is nidx; 0 when
 * the node does not touch the side (Gauss-Lobatto nodes off the face). */
HD static inline double surface_weight(const Disc *d, int locside, int nidx) {
  int plus = side_is_plus(locside);
  if (d->node_type == NODE_GAUSS_LOBATTO) {
    if (nidx != (plus ? d->N : 0)) return 0.0;
    return plus ? d->Lhat_plus[d->N] : d->Lhat_minus[0];
  }
  return plus ? d->Lhat_plus[nidx] : d->Lhat_minus[nidx];
}

#endif
