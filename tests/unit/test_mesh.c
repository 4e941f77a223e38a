/* Built-in box mesh: Hilbert ordering, side numbering and the face maps that connect
 * neighbours (every face point seen from the master and from the slave must coincide). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

#include "basis/disc.h"
#include "mesh/facemap.h"
#include "mesh/constmetrics.h"
#include "mesh/mesh.h"
#include "mesh/metrics.h"
#include "physics/physics.h"
#include "face_match.h"

/* Consecutive cells of a Hilbert curve on a 2^b lattice are face neighbours. */
static void test_hilbert_curve_is_continuous(void **state) {
  (void)state;
  for (int bits = 1; bits <= 4; bits++) {
    int n = 1 << bits, total = n * n * n;
    int *cell_at = malloc(sizeof(int) * total);
    for (int c = 0; c < total; c++) cell_at[c] = -1;
    for (int z = 0; z < n; z++)
      for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
          unsigned int ic[3] = {(unsigned)x, (unsigned)y, (unsigned)z};
          unsigned long long h = hilbert_index_3d(ic, bits);
          assert_true(h < (unsigned long long)total);
          assert_int_equal(cell_at[h], -1); /* a bijection */
          cell_at[h] = (z * n + y) * n + x;
        }
    for (int h = 1; h < total; h++) {
      int a = cell_at[h - 1], b = cell_at[h];
      int dist = abs(a % n - b % n) + abs(a / n % n - b / n % n) + abs(a / (n * n) - b / (n * n));
      assert_int_equal(dist, 1);
    }
    free(cell_at);
  }
}

static Mesh *make_box(int nx, int ny, int nz, int periodic, int NGeo, double curving) {
  BoxSpec b = {{nx, ny, nz}, {-1, -1, -1}, {1, 2, 3}, {periodic, periodic, periodic}, NGeo, curving};
  Mesh *m = NULL;
  assert_int_equal(mesh_create_box(&b, &m), 0);
  return m;
}

static int shares_side(const Mesh *m, int a, int b) {
  for (int s = 0; s < 6; s++) {
    int side = m->elem_to_side[6 * a + s];
    if (m->side_master_elem[side] == b || m->side_slave_elem[side] == b) return 1;
  }
  return 0;
}

static void test_box_elements_follow_the_curve(void **state) {
  (void)state;
  BoxSpec b = {{8, 8, 8}, {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, 1, 0.0};
  Mesh *m = NULL;
  assert_int_equal(mesh_create_box(&b, &m), 0);
  for (int e = 1; e < m->n_elems; e++) assert_true(shares_side(m, e - 1, e));
  mesh_destroy(m);
}

static void test_side_counts_and_order(void **state) {
  (void)state;
  Mesh *m = make_box(3, 2, 4, 1, 1, 0.0);
  assert_int_equal(m->n_sides, 3 * m->n_elems);
  assert_int_equal(m->n_bc_sides, 0);
  mesh_destroy(m);
  m = make_box(3, 2, 4, 0, 1, 0.0);
  assert_int_equal(m->n_bc_sides, 2 * (3 * 2 + 2 * 4 + 3 * 4));
  assert_int_equal(m->n_sides, m->n_bc_sides + (6 * m->n_elems - m->n_bc_sides) / 2);
  for (int s = 0; s < m->n_sides; s++) /* boundary sides first, then inner sides */
    assert_int_equal(m->side_bc[s] >= 0, s < m->n_bc_sides);
  assert_int_equal(m->n_bcs, 6);
  mesh_destroy(m);
}

/* Positions of master and slave face points agree up to one translation (the period). */
static void check_face_points(int periodic, int nelem) {
  Mesh *m = make_box(nelem, 2, 3, periodic, 3, 0.07);
  Disc d;
  assert_int_equal(disc_init(&d, 4, NODE_GAUSS_LOBATTO, SPLIT_NONE), 0);
  Geometry g;
  assert_int_equal(metrics_compute(m, &d, &g), 0);
  int np = d.np, N = d.N, n3 = np * np * np;
  for (int side = m->n_bc_sides; side < m->n_sides; side++) {
    double shift[3];
    assert_side_nodes_match(m, &g, N, side, shift);
    /* the face coordinates stored for the side are the master's */
    int em = m->side_master_elem[side], ms = m->side_master_locside[side];
    for (int q = 0; q < np; q++)
      for (int p = 0; p < np; p++) {
        int i, j, k;
        side_to_volume(N, ms, p, q, &i, &j, &k);
        int a = (k * np + j) * np + i;
        for (int c = 0; c < 3; c++)
          assert_true(fabs(g.face_x[(3L * side + c) * np * np + q * np + p] -
                           g.elem_x[(3L * em + c) * n3 + a]) < 1e-12);
      }
    for (int c = 0; c < 3; c++) /* zero or a whole period of the box (2, 3, 4) */
      assert_true(fabs(shift[c]) < 1e-12 || fabs(fabs(shift[c]) - (c + 2.0)) < 1e-12);
  }
  geometry_free(&g);
  mesh_destroy(m);
}

static void test_face_points_match(void **state) {
  (void)state;
  check_face_points(0, 3);
  check_face_points(1, 3);
  check_face_points(1, 1); /* an element that is its own periodic neighbour */
  check_face_points(1, 2); /* two elements that are neighbours on both sides */
}

/* volume_to_side inverts side_to_volume, and every flip is its own inverse (the GPU surface
 * integral relies on both to find a node's face point in the master frame). */
static void test_face_maps_invert(void **state) {
  (void)state;
  for (int N = 1; N <= 4; N++)
    for (int s = 0; s < 6; s++)
      for (int q = 0; q <= N; q++)
        for (int p = 0; p <= N; p++) {
          int i, j, k, p2, q2;
          side_to_volume(N, s, p, q, &i, &j, &k);
          volume_to_side(N, s, i, j, k, &p2, &q2);
          assert_int_equal(p2, p);
          assert_int_equal(q2, q);
          int idx[3] = {i, j, k}, dir = side_normal_dir(s);
          assert_int_equal(idx[dir], side_is_plus(s) ? N : 0);
          for (int f = 0; f <= 4; f++) {
            int ps, qs, pb, qb;
            flip_master_to_slave(f, N, p, q, &ps, &qs);
            flip_master_to_slave(f, N, ps, qs, &pb, &qb);
            assert_int_equal(pb, p);
            assert_int_equal(qb, q);
          }
        }
}

static void test_inverted_element_is_reported(void **state) {
  (void)state;
  Mesh *m = make_box(2, 2, 2, 1, 2, 2.0); /* strong curving folds the elements */
  Disc d;
  assert_int_equal(disc_init(&d, 3, NODE_GAUSS, SPLIT_NONE), 0);
  Geometry g;
  assert_int_not_equal(metrics_compute(m, &d, &g), 0);
  geometry_free(&g);
  mesh_destroy(m);
}

/* Constant metric terms (constmetrics.h): every element and side of a straight box counts as
 * constant, with the exact values of its axis-aligned cells (half-widths h: J a^d = the product of
 * the two other h along axis d, 1/J = 1 / (h0 h1 h2), the surface element of a side the product of
 * its two h); a curved box keeps its curved elements nodal. */
static void test_const_metrics(void **state) {
  (void)state;
  const int n[3] = {3, 2, 4};
  const double len[3] = {2, 3, 4}; /* make_box: from (-1, -1, -1) to (1, 2, 3) */
  double h[3];
  for (int c = 0; c < 3; c++) h[c] = 0.5 * len[c] / n[c];
  for (int NGeo = 1; NGeo <= 2; NGeo++) {
    Mesh *m = make_box(n[0], n[1], n[2], 0, NGeo, 0.0);
    Disc d;
    assert_int_equal(disc_init(&d, 3, NODE_GAUSS, SPLIT_NONE), 0);
    Geometry g;
    assert_int_equal(metrics_compute(m, &d, &g), 0);
    ConstMetrics c;
    assert_int_equal(const_metrics_find(&g, m->n_elems, m->n_sides, d.np * d.np * d.np,
                                        d.np * d.np, &c), 0);
    assert_int_equal(c.n_elems_const, m->n_elems);
    assert_int_equal(c.n_sides_const, m->n_sides);
    for (int e = 0; e < m->n_elems; e++) {
      const double *v = c.elem + CM_ELEM_VALUES * e;
      for (int dir = 0; dir < 3; dir++)
        for (int k = 0; k < 3; k++) {
          double exact = k == dir ? h[(dir + 1) % 3] * h[(dir + 2) % 3] : 0.0;
          assert_true(fabs(v[3 * dir + k] - exact) < 1e-13);
        }
      assert_true(fabs(v[CM_ELEM_SJ] * h[0] * h[1] * h[2] - 1.0) < 1e-13);
    }
    for (int s = 0; s < m->n_sides; s++) {
      const double *v = c.side + CM_SIDE_VALUES * s;
      int axis = fabs(v[0]) > 0.5 ? 0 : fabs(v[1]) > 0.5 ? 1 : 2;
      assert_true(fabs(fabs(v[axis]) - 1.0) < 1e-13);
      assert_true(fabs(v[CM_SIDE_SURF] - h[(axis + 1) % 3] * h[(axis + 2) % 3]) < 1e-13);
      double dots[3] = {0, 0, 0}; /* n, t1, t2 orthogonal */
      for (int k = 0; k < 3; k++) {
        dots[0] += v[k] * v[3 + k];
        dots[1] += v[k] * v[6 + k];
        dots[2] += v[3 + k] * v[6 + k];
      }
      for (int k = 0; k < 3; k++) assert_true(fabs(dots[k]) < 1e-13);
    }
    const_metrics_free(&c);
    geometry_free(&g);
    mesh_destroy(m);
  }
  Mesh *m = make_box(n[0], n[1], n[2], 1, 3, 0.07);
  Disc d;
  assert_int_equal(disc_init(&d, 3, NODE_GAUSS, SPLIT_NONE), 0);
  Geometry g;
  assert_int_equal(metrics_compute(m, &d, &g), 0);
  ConstMetrics c;
  assert_int_equal(const_metrics_find(&g, m->n_elems, m->n_sides, 64, 16, &c), 0);
  assert_true(c.n_elems_const < m->n_elems);
  for (int e = 0; e < m->n_elems; e++) { /* a constant element's nodes agree with its values */
    const double *v = c.elem + CM_ELEM_VALUES * e;
    if (v[CM_ELEM_SJ] == 0.0) continue;
    for (int q = 0; q < 64; q++)
      assert_true(fabs(g.sJ[64 * e + q] - v[CM_ELEM_SJ]) <= 1e-13 * fabs(v[CM_ELEM_SJ]));
  }
  const_metrics_free(&c);
  geometry_free(&g);
  mesh_destroy(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hilbert_curve_is_continuous),
      cmocka_unit_test(test_box_elements_follow_the_curve),
      cmocka_unit_test(test_side_counts_and_order),
      cmocka_unit_test(test_face_points_match),
      cmocka_unit_test(test_face_maps_invert),
      cmocka_unit_test(test_inverted_element_is_reported),
      cmocka_unit_test(test_const_metrics),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
