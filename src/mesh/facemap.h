/* Face <-> volume index conventions (host+device).
 *
 * Face coordinates (p,q) of local side s, chosen so that (e_p, e_q, n_out) is right-handed
 * (CGNS face corner order):
 *   0 zeta- : (i,j,k) = (q, p, 0)      1 eta- : (p, 0, q)      2 xi+ : (N, p, q)
 *   3 eta+  : (N-p, N, q)              4 xi-  : (0, q, p)      5 zeta+ : (p, q, N)
 * A slave sees the master's face point (p,q) at its own face point flip(p,q); the four flips are
 * the orientation-reversing symmetries of the square (normals of master and slave are opposite),
 * each its own inverse: flip_master_to_slave also maps slave coordinates back to the master's. */
#ifndef HEXDG_FACEMAP_H
#define HEXDG_FACEMAP_H

#include "core/hd.h"

/* Master face coordinates -> slave face coordinates for flip 1..4 (flip 0: identity). */
HD static inline void flip_master_to_slave(int flip, int N, int p, int q, int *ps, int *qs) {
  switch (flip) {
  case 1: *ps = q; *qs = p; break;
  case 2: *ps = N - p; *qs = q; break;
  case 3: *ps = N - q; *qs = N - p; break;
  case 4: *ps = p; *qs = N - q; break;
  default: *ps = p; *qs = q; break;
  }
}

/* Face point (p,q) in the side's own coordinates -> volume indices (i,j,k) on that side. */
HD static inline void side_to_volume(int N, int locside, int p, int q, int *i, int *j, int *k) {
  switch (locside) {
  case 0: *i = q; *j = p; *k = 0; break;
  case 1: *i = p; *j = 0; *k = q; break;
  case 2: *i = N; *j = p; *k = q; break;
  case 3: *i = N - p; *j = N; *k = q; break;
  case 4: *i = 0; *j = q; *k = p; break;
  default: *i = p; *j = q; *k = N; break;
  }
}

/* Inverse of side_to_volume for a node on (or, for Gauss nodes, on a line normal to) the side:
 * the side's own face coordinates of volume node (i,j,k). */
HD static inline void volume_to_side(int N, int locside, int i, int j, int k, int *p, int *q) {
  switch (locside) {
  case 0: *p = j; *q = i; break;
  case 1: *p = i; *q = k; break;
  case 2: *p = j; *q = k; break;
  case 3: *p = N - i; *q = k; break;
  case 4: *p = k; *q = j; break;
  default: *p = i; *q = j; break;
  }
}

/* Normal direction (0 xi, 1 eta, 2 zeta) and whether the side lies at +1 of it. */
HD static inline int side_normal_dir(int locside) {
  return (locside == 2 || locside == 4) ? 0 : (locside == 1 || locside == 3) ? 1 : 2;
}
HD static inline int side_is_plus(int locside) { return locside == 2 || locside == 3 || locside == 5; }

#endif
