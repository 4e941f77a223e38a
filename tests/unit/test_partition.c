/* Domain decomposition without MPI: SFC ranges (plain and weighted), METIS parts, and the local
 * meshes of every part: each global side appears once per touching part, in FLEXI's order, and the
 * "mine" block of part a towards b lists the same sides in the same order as the "yours" block of
 * b towards a (so that one contiguous message per neighbour carries the right sides). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

#include "core/error.h"
#include "mesh/mesh.h"
#include "mesh/partition.h"

static Mesh *box(int nx, int ny, int nz, int periodic) {
  BoxSpec b = {{nx, ny, nz}, {0, 0, 0}, {1, 1, 1}, {periodic, periodic, 0}, 1, 0.0};
  Mesh *m = NULL;
  assert_int_equal(mesh_create_box(&b, &m), HX_OK);
  return m;
}

static void test_sfc_ranges(void **state) {
  (void)state;
  Mesh *m = box(3, 3, 3, 1);
  int part[27];
  assert_int_equal(partition_sfc(m, NULL, 4, part), HX_OK);
  int count[4] = {0};
  for (int e = 0; e < 27; e++) {
    count[part[e]]++;
    if (e) assert_true(part[e] >= part[e - 1]); /* contiguous ranges */
  }
  assert_int_equal(count[0], 7);
  assert_int_equal(count[3], 6);
  double w[27];
  for (int e = 0; e < 27; e++) w[e] = e < 9 ? 2.0 : 1.0; /* the first third weighs half */
  assert_int_equal(partition_sfc(m, w, 2, part), HX_OK);
  for (int e = 0; e < 27; e++) assert_int_equal(part[e], e < 9 ? 0 : 1);
  mesh_destroy(m);
}

/* Global side of local side s of part p (through the master or slave element's global face). */
static long global_face(const Mesh *loc, int s) {
  int e = loc->side_master_elem[s] >= 0 ? loc->side_master_elem[s] : loc->side_slave_elem[s];
  int ls = loc->side_master_elem[s] >= 0 ? loc->side_master_locside[s] : loc->side_slave_locside[s];
  return 6 * (loc->elem_global_id[e] - 1) + ls;
}

static void check_parts(const Mesh *g, const int *part, int n_parts) {
  Mesh *loc[8];
  int elems = 0, bc = 0, inner = 0, mine = 0, yours = 0;
  for (int p = 0; p < n_parts; p++) {
    assert_int_equal(mesh_extract_part(g, part, p, &loc[p]), HX_OK);
    Mesh *m = loc[p];
    elems += m->n_elems;
    bc += m->n_bc_sides, inner += m->n_inner_sides;
    mine += m->n_mpi_mine_sides, yours += m->n_mpi_yours_sides;
    assert_int_equal(m->n_global_elems, g->n_elems);
    for (int s = 0; s < m->n_sides; s++) { /* FLEXI's order */
      int is_bc = s < m->n_bc_sides, is_mine = s >= mesh_first_mpi_side(m) && s < mesh_first_yours_side(m);
      int is_yours = s >= mesh_first_yours_side(m);
      assert_int_equal(m->side_bc[s] >= 0, is_bc);
      assert_int_equal(m->side_slave_elem[s] < 0, is_bc || is_mine);
      assert_int_equal(m->side_master_elem[s] < 0, is_yours);
    }
    for (int e = 0; e < m->n_elems; e++) /* every element face points to a side that holds it */
      for (int ls = 0; ls < 6; ls++) {
        int s = m->elem_to_side[6 * e + ls], flip = m->elem_to_side_flip[6 * e + ls];
        assert_int_equal(flip == 0 ? m->side_master_elem[s] : m->side_slave_elem[s], e);
      }
  }
  assert_int_equal(elems, g->n_elems);
  assert_int_equal(bc, g->n_bc_sides);
  assert_int_equal(inner + mine, g->n_inner_sides);
  assert_int_equal(mine, yours);
  for (int a = 0; a < n_parts; a++)
    for (int k = 0; k < loc[a]->n_nbr_ranks; k++) {
      int b = loc[a]->nbr_rank[k], kb = 0;
      while (loc[b]->nbr_rank[kb] != a) kb++;
      assert_int_equal(loc[a]->nbr_mine_count[k], loc[b]->nbr_yours_count[kb]);
      for (int i = 0; i < loc[a]->nbr_mine_count[k]; i++) {
        int sa = loc[a]->nbr_mine_first[k] + i, sb = loc[b]->nbr_yours_first[kb] + i;
        assert_int_equal(loc[a]->side_flip[sa], loc[b]->side_flip[sb]);
        /* the same global side: a holds its master, b its slave */
        long fa = global_face(loc[a], sa), fb = global_face(loc[b], sb);
        int ga = (int)(fa / 6), gb = (int)(fb / 6);
        int gs = g->elem_to_side[fa];
        assert_int_equal(g->elem_to_side[fb], gs);
        assert_int_equal(g->side_master_elem[gs], ga);
        assert_int_equal(g->side_slave_elem[gs], gb);
      }
    }
  for (int p = 0; p < n_parts; p++) mesh_destroy(loc[p]);
}

static void test_local_meshes_sfc(void **state) {
  (void)state;
  Mesh *g = box(4, 3, 3, 1);
  int part[36];
  for (int n = 2; n <= 5; n++) {
    assert_int_equal(partition_sfc(g, NULL, n, part), HX_OK);
    check_parts(g, part, n);
  }
  mesh_destroy(g);
}

static void test_local_meshes_scattered(void **state) {
  (void)state;
  Mesh *g = box(4, 3, 3, 1);
  int part[36];
  for (int e = 0; e < 36; e++) part[e] = (e * 7) % 3; /* non-contiguous parts */
  check_parts(g, part, 3);
  mesh_destroy(g);
}

static void test_metis(void **state) {
  (void)state;
  Mesh *g = box(4, 4, 4, 1);
  int part[64];
  int rc = partition_metis(g, NULL, 4, part);
  if (rc == HX_ERR_INPUT) { /* built without METIS */
    mesh_destroy(g);
    skip();
  }
  assert_int_equal(rc, HX_OK);
  int count[4] = {0};
  for (int e = 0; e < 64; e++) count[part[e]]++;
  for (int p = 0; p < 4; p++) assert_true(count[p] >= 12 && count[p] <= 20);
  check_parts(g, part, 4);
  mesh_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sfc_ranges),
      cmocka_unit_test(test_local_meshes_sfc),
      cmocka_unit_test(test_local_meshes_scattered),
      cmocka_unit_test(test_metis),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
