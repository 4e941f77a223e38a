/* Split boundaries of the built-in box (BoxSplitBC, `hexdg mesh box --split`): the sides of a box
 * face below a position get a new BC, found here from the sides' geometry (face centres); the
 * split survives the HOPR export and MeshRefine; bad input is refused. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "core/error.h"
#include "mesh/hopr.h"
#include "mesh/mesh.h"
#include "mesh/refine.h"

/* The double Mach reflection box: 48 x 12 x 1 elements on [0,4] x [0,1] x [0,0.1], periodic z. */
static BoxSpec dmr_box(void) {
  BoxSpec b = {{48, 12, 1}, {0, 0, 0}, {4, 1, 0.1}, {0, 0, 1}, 1, 0.0};
  return b;
}

static int bc_index(const Mesh *m, const char *name) {
  for (int b = 0; b < m->n_bcs; b++)
    if (strcasecmp(m->bcs[b].name, name) == 0) return b;
  return -1;
}

/* Centre of a side: the mean of the master element's nodes on that local face. */
static void side_centre(const Mesh *m, int side, double c[3]) {
  const int e = m->side_master_elem[side], s = m->side_master_locside[side], ng = m->NGeo + 1;
  const double *x = &m->node_coords[3L * ng * ng * ng * e];
  int n = 0;
  c[0] = c[1] = c[2] = 0.0;
  for (int k = 0; k < ng; k++)
    for (int j = 0; j < ng; j++)
      for (int i = 0; i < ng; i++) {
        const int on[6] = {k == 0, j == 0, i == ng - 1, j == ng - 1, i == 0, k == ng - 1};
        if (!on[s]) continue;
        for (int d = 0; d < 3; d++) c[d] += x[3 * ((k * ng + j) * ng + i) + d];
        n++;
      }
  for (int d = 0; d < 3; d++) c[d] /= n;
}

/* Number of sides of BC `name`; each must lie on y = y_face with lo < x < hi. */
static int count_sides(const Mesh *m, const char *name, double y_face, double lo, double hi) {
  const int b = bc_index(m, name);
  assert_true(b >= 0);
  int n = 0;
  for (int side = 0; side < m->n_bc_sides; side++) {
    if (m->side_bc[side] != b) continue;
    double c[3];
    side_centre(m, side, c);
    assert_true(fabs(c[1] - y_face) < 1e-12);
    assert_true(c[0] > lo && c[0] < hi);
    n++;
  }
  return n;
}

static void test_dmr_bottom_split(void **state) {
  (void)state;
  const BoxSpec b = dmr_box();
  BoxSplit sp;
  assert_int_equal(box_parse_split(" BC_yminus , x, 1/6 ,BC_postshock", "test", &sp), HX_OK);
  assert_string_equal(sp.bc, "BC_yminus");
  assert_string_equal(sp.name, "BC_postshock");
  assert_int_equal(sp.dir, 0);
  assert_true(fabs(sp.position - 1.0 / 6.0) < 1e-15);
  Mesh *m = NULL;
  assert_int_equal(mesh_create_box_split(&b, 1, &sp, "test", &m), HX_OK);
  assert_int_equal(m->n_bcs, 5); /* four box faces (z periodic) and the split part */
  const int post = bc_index(m, "BC_postshock"), wall = bc_index(m, "BC_yminus");
  assert_int_equal(m->bcs[post].type, m->bcs[wall].type);
  /* dx = 1/12: two bottom sides lie left of x = 1/6, 46 right of it */
  assert_int_equal(count_sides(m, "BC_postshock", 0.0, 0.0, 1.0 / 6.0), 2);
  assert_int_equal(count_sides(m, "BC_yminus", 0.0, 1.0 / 6.0, 4.0), 46);
  assert_int_equal(count_sides(m, "BC_yplus", 1.0, 0.0, 4.0), 48);
  mesh_destroy(m);
}

/* Splits apply in order; the second may split the first's remainder. */
static void test_chained_splits(void **state) {
  (void)state;
  const BoxSpec b = dmr_box();
  BoxSplit sp[2];
  assert_int_equal(box_parse_split("BC_yminus, x, 1, BC_a", "test", &sp[0]), HX_OK);
  assert_int_equal(box_parse_split("bc_YMINUS, X, 2, BC_b", "test", &sp[1]), HX_OK);
  Mesh *m = NULL;
  assert_int_equal(mesh_create_box_split(&b, 2, sp, "test", &m), HX_OK);
  assert_int_equal(count_sides(m, "BC_a", 0.0, 0.0, 1.0), 12);
  assert_int_equal(count_sides(m, "BC_b", 0.0, 1.0, 2.0), 12);
  assert_int_equal(count_sides(m, "BC_yminus", 0.0, 2.0, 4.0), 24);
  mesh_destroy(m);
}

/* hexdg mesh box --split writes the split BCs into the HOPR file; MeshRefine keeps them. */
static void test_split_survives_hopr_and_refinement(void **state) {
  (void)state;
  const BoxSpec b = dmr_box();
  BoxSplit sp;
  assert_int_equal(box_parse_split("BC_yminus, x, 1/6, BC_postshock", "test", &sp), HX_OK);
  Mesh *m = NULL, *r = NULL;
  assert_int_equal(mesh_create_box_split(&b, 1, &sp, "test", &m), HX_OK);
  assert_int_equal(mesh_write_hopr(m, "box_split_mesh.h5"), HX_OK);
  assert_int_equal(mesh_read_hopr("box_split_mesh.h5", &r), HX_OK);
  assert_int_equal(r->n_bcs, m->n_bcs);
  assert_int_equal(count_sides(r, "BC_postshock", 0.0, 0.0, 1.0 / 6.0), 2);
  assert_int_equal(count_sides(r, "BC_yminus", 0.0, 1.0 / 6.0, 4.0), 46);
  mesh_destroy(r);
  remove("box_split_mesh.h5");
  assert_int_equal(mesh_refine(&m, 1), HX_OK);
  assert_int_equal(count_sides(m, "BC_postshock", 0.0, 0.0, 1.0 / 6.0), 2 * 4);
  assert_int_equal(count_sides(m, "BC_yminus", 0.0, 1.0 / 6.0, 4.0), 46 * 4);
  mesh_destroy(m);
}

static int try_split(const char *text) {
  const BoxSpec b = dmr_box();
  BoxSplit sp;
  int rc = box_parse_split(text, "test", &sp);
  if (rc != HX_OK) return rc;
  Mesh *m = NULL;
  rc = mesh_create_box_split(&b, 1, &sp, "test", &m);
  mesh_destroy(m);
  return rc;
}

static void test_bad_splits_are_refused(void **state) {
  (void)state;
  assert_int_equal(try_split("BC_yminus, x, 1/6, BC_ok"), HX_OK);
  assert_int_not_equal(try_split("BC_yminus, x, 0.2, BC_p"), HX_OK);   /* not an element face */
  assert_int_not_equal(try_split("BC_yminus, y, 0.5, BC_p"), HX_OK);   /* normal to the face */
  assert_int_not_equal(try_split("BC_zminus, x, 1, BC_p"), HX_OK);     /* z is periodic */
  assert_int_not_equal(try_split("BC_yminus, x, 4, BC_p"), HX_OK);     /* nothing left above */
  assert_int_not_equal(try_split("BC_yminus, x, 1, BC_yplus"), HX_OK); /* name taken */
  assert_int_not_equal(try_split("BC_yminus, w, 1, BC_p"), HX_OK);     /* no such direction */
  assert_int_not_equal(try_split("BC_yminus, x, 1"), HX_OK);           /* three fields */
  assert_int_not_equal(try_split("BC_yminus, x, one, BC_p"), HX_OK);   /* not a number */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dmr_bottom_split),
      cmocka_unit_test(test_chained_splits),
      cmocka_unit_test(test_split_survives_hopr_and_refinement),
      cmocka_unit_test(test_bad_splits_are_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
