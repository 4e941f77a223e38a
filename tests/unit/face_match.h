/* Shared check of the unit tests (after <cmocka.h>): the face nodes of both elements of an inner
 * side coincide in the side's orientation (flip), up to one translation (zero, or a period). */
#ifndef HEXDG_TEST_FACE_MATCH_H
#define HEXDG_TEST_FACE_MATCH_H

#include <math.h>

#include "mesh/facemap.h"
#include "mesh/mesh.h"
#include "mesh/metrics.h"

/* Asserts it for inner side `side` of m (geometry g at degree N) and returns the translation
 * master - slave in shift. */
static inline void assert_side_nodes_match(const Mesh *m, const Geometry *g, int N, int side,
                                           double shift[3]) {
  int np = N + 1, n3 = np * np * np;
  int em = m->side_master_elem[side], ms = m->side_master_locside[side];
  int es = m->side_slave_elem[side], ss = m->side_slave_locside[side], flip = m->side_flip[side];
  assert_true(flip >= 1 && flip <= 4);
  for (int c = 0; c < 3; c++) shift[c] = 0.0;
  for (int q = 0; q < np; q++)
    for (int p = 0; p < np; p++) {
      int i, j, k, ps, qs, i2, j2, k2;
      side_to_volume(N, ms, p, q, &i, &j, &k);
      flip_master_to_slave(flip, N, p, q, &ps, &qs);
      side_to_volume(N, ss, ps, qs, &i2, &j2, &k2);
      int a = (k * np + j) * np + i, b = (k2 * np + j2) * np + i2;
      for (int c = 0; c < 3; c++) {
        double xm = g->elem_x[(3L * em + c) * n3 + a], xs = g->elem_x[(3L * es + c) * n3 + b];
        if (p == 0 && q == 0) shift[c] = xm - xs;
        assert_true(fabs(xm - xs - shift[c]) < 1e-12);
      }
    }
}

#endif
