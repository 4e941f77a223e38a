/* Uniform refinement (src/mesh/refine.c): 8 children per element on the parent's geometry map, so
 * that the refined mesh covers the same domain (same volume and boundary area, to round-off, also
 * for curved elements), with consistent connectivity (every inner face point seen at the same
 * place from both sides through the recomputed flip, all four flips on an unstructured mesh),
 * boundary conditions inherited by the children, periodic pairs kept, a HOPR round trip that
 * reproduces the refined mesh, and clean errors for bad level counts. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/error.h"
#include "basis/disc.h"
#include "mesh/facemap.h"
#include "mesh/gmsh.h"
#include "mesh/hopr.h"
#include "mesh/mesh.h"
#include "mesh/metrics.h"
#include "mesh/refine.h"
#include "face_match.h"
#include "physics/physics.h"

/* <repository>/<dir>/<name>, found from this source file's path. */
static Mesh *read_repo_mesh(const char *dir, const char *name) {
  const char *file = __FILE__, *cut = strstr(file, "tests/unit/test_refine.c");
  int len = cut ? (int)(cut - file) : 0;
  char path[2048];
  snprintf(path, sizeof path, "%.*s%s/%s", len, file, dir, name);
  Mesh *m = NULL;
  assert_int_equal(mesh_read_gmsh(path, &m), HX_OK);
  assert_non_null(m);
  return m;
}

static Mesh *refined(const Mesh *m, int levels) {
  Mesh *r = NULL;
  assert_int_equal(mesh_refine_once(m, &r), HX_OK);
  for (int l = 1; l < levels; l++) {
    Mesh *next = NULL;
    assert_int_equal(mesh_refine_once(r, &next), HX_OK);
    mesh_destroy(r);
    r = next;
  }
  return r;
}

typedef struct {
  double volume, bc_area;
  int n_periodic, n_flip[5];
} MeshSummary;

/* Volume, boundary area, flips and the face-point check: master and slave see every inner face
 * point at the same place up to one translation per side (non-zero only for periodic sides, where
 * it must have length period). */
static MeshSummary summarize(const Mesh *m, double period) {
  Disc d;
  Geometry g;
  MeshSummary s;
  memset(&s, 0, sizeof s);
  assert_int_equal(disc_init(&d, 4, NODE_GAUSS_LOBATTO, SPLIT_NONE), HX_OK);
  assert_int_equal(metrics_compute(m, &d, &g), HX_OK); /* fails for inverted elements */
  int np = d.np, N = d.N, n2 = np * np, n3 = n2 * np;
  for (long e = 0; e < m->n_elems; e++)
    for (int a = 0; a < n3; a++)
      s.volume += d.w[a % np] * d.w[(a / np) % np] * d.w[a / n2] / g.sJ[n3 * e + a];
  for (int side = 0; side < m->n_bc_sides; side++)
    for (int f = 0; f < n2; f++) s.bc_area += d.w[f % np] * d.w[f / np] * g.face_surf[(long)side * n2 + f];
  for (int side = m->n_bc_sides; side < m->n_sides; side++) {
    double shift[3];
    assert_side_nodes_match(m, &g, N, side, shift);
    s.n_flip[m->side_flip[side]]++;
    double len = sqrt(shift[0] * shift[0] + shift[1] * shift[1] + shift[2] * shift[2]);
    if (len > 1e-12) {
      assert_true(fabs(len - period) < 1e-12);
      s.n_periodic++;
    }
  }
  geometry_free(&g);
  return s;
}

/* Counts of a refinement: 8 children, 4 boundary sides per parent boundary side and BC, inner
 * sides: 4 per parent inner side and 12 inside each parent; the same BC list. */
static void check_counts(const Mesh *parent, const Mesh *child) {
  assert_int_equal(child->n_elems, 8 * parent->n_elems);
  assert_int_equal(child->NGeo, parent->NGeo);
  assert_int_equal(child->n_bc_sides, 4 * parent->n_bc_sides);
  assert_int_equal(child->n_inner_sides, 4 * parent->n_inner_sides + 12 * parent->n_elems);
  assert_int_equal(child->n_bcs, parent->n_bcs);
  assert_string_equal(child->source, parent->source);
  for (int b = 0; b < parent->n_bcs; b++) {
    assert_string_equal(child->bcs[b].name, parent->bcs[b].name);
    assert_int_equal(child->bcs[b].type, parent->bcs[b].type);
    int n_parent = 0, n_child = 0;
    for (int s = 0; s < parent->n_bc_sides; s++) n_parent += parent->side_bc[s] == b;
    for (int s = 0; s < child->n_bc_sides; s++) n_child += child->side_bc[s] == b;
    assert_int_equal(n_child, 4 * n_parent);
  }
  for (int e = 0; e < child->n_elems; e++) assert_int_equal(child->elem_global_id[e], e + 1);
}

static void check_same_domain(const Mesh *parent, const Mesh *child, double period, int n_periodic) {
  MeshSummary a = summarize(parent, period), b = summarize(child, period);
  printf("  %-40s %6d -> %6d elements, volume %.15f -> %.15f, boundary area %.13f -> %.13f\n",
         parent->source, parent->n_elems, child->n_elems, a.volume, b.volume, a.bc_area, b.bc_area);
  assert_true(fabs(a.volume - b.volume) < 1e-12 * a.volume);
  assert_true(fabs(a.bc_area - b.bc_area) < 1e-12 * (a.bc_area + 1.0));
  assert_int_equal(a.n_periodic, n_periodic);
  assert_int_equal(b.n_periodic, 4 * n_periodic);
}

/* ------------------------------------------------------------------------------- tests */

/* Straight-sided unstructured box (split tetrahedra, all flips), two levels. */
static void test_unstructured_box(void **state) {
  (void)state;
  Mesh *m = read_repo_mesh("tests/data", "gmsh_box_unstructured_o2.msh");
  Mesh *r1 = refined(m, 1), *r2 = refined(m, 2);
  check_counts(m, r1);
  check_counts(r1, r2);
  check_same_domain(m, r2, 0.0, 0);
  MeshSummary s = summarize(r2, 0.0);
  assert_true(fabs(s.volume - 12.0) < 1e-11 && fabs(s.bc_area - 32.0) < 1e-11);
  for (int f = 1; f <= 4; f++) assert_true(s.n_flip[f] > 0);
  mesh_destroy(m);
  mesh_destroy(r1);
  mesh_destroy(r2);
}

/* Curved NGeo = 2 mesh of the MMS series: the children reproduce the curved parent domain. */
static void test_curved_mms_mesh(void **state) {
  (void)state;
  Mesh *m = read_repo_mesh("meshes", "mms_quarter_cylinder.msh");
  assert_int_equal(m->NGeo, 2);
  Mesh *r1 = refined(m, 1), *r2 = refined(r1, 1);
  check_counts(m, r1);
  check_counts(r1, r2);
  check_same_domain(m, r2, 0.0, 0);
  MeshSummary s = summarize(r2, 0.0);
  for (int f = 1; f <= 4; f++) assert_true(s.n_flip[f] > 0);
  mesh_destroy(m);
  mesh_destroy(r1);
  mesh_destroy(r2);
}

/* Periodic in x (period 2): each periodic parent side gives four periodic child sides. */
static void test_periodic_box(void **state) {
  (void)state;
  Mesh *m = read_repo_mesh("tests/data", "gmsh_box_periodic_o2.msh");
  Mesh *r = refined(m, 1);
  check_counts(m, r);
  check_same_domain(m, r, 2.0, 4);
  mesh_destroy(m);
  mesh_destroy(r);
}

/* A refined mesh written as a HOPR file reads back with the same geometry and connectivity. */
static void test_hopr_round_trip(void **state) {
  (void)state;
  char path[256];
  snprintf(path, sizeof path, "/tmp/hexdg_test_refine_%ld_mesh.h5", (long)getpid());
  Mesh *m = read_repo_mesh("meshes", "mms_quarter_cylinder.msh");
  Mesh *r = refined(m, 1), *back = NULL;
  assert_int_equal(mesh_write_hopr(r, path), HX_OK);
  assert_int_equal(mesh_read_hopr(path, &back), HX_OK);
  remove(path);
  int ng = r->NGeo + 1;
  assert_int_equal(back->n_elems, r->n_elems);
  assert_int_equal(back->n_sides, r->n_sides);
  assert_int_equal(back->n_bc_sides, r->n_bc_sides);
  assert_memory_equal(back->node_coords, r->node_coords, sizeof(double) * 3 * ng * ng * ng * r->n_elems);
  assert_memory_equal(back->elem_to_side, r->elem_to_side, sizeof(int) * 6 * r->n_elems);
  assert_memory_equal(back->elem_to_side_flip, r->elem_to_side_flip, sizeof(int) * 6 * r->n_elems);
  assert_memory_equal(back->side_bc, r->side_bc, sizeof(int) * r->n_sides);
  assert_int_equal(back->n_bcs, r->n_bcs);
  for (int b = 0; b < r->n_bcs; b++) assert_string_equal(back->bcs[b].name, r->bcs[b].name);
  mesh_destroy(m);
  mesh_destroy(r);
  mesh_destroy(back);
}

/* mesh_refine: 0 levels keep the mesh; out-of-range levels are an error that leaves it alone. */
static void test_levels(void **state) {
  (void)state;
  Mesh *m = read_repo_mesh("tests/data", "gmsh_box_o2.msh"), *keep = m;
  assert_int_equal(mesh_refine(&m, 0), HX_OK);
  assert_ptr_equal(m, keep);
  assert_int_equal(mesh_refine(&m, -1), HX_ERR_INPUT);
  assert_int_equal(mesh_refine(&m, HX_MAX_REFINE_LEVELS + 1), HX_ERR_INPUT);
  assert_ptr_equal(m, keep);
  assert_int_equal(mesh_refine(&m, 2), HX_OK);
  assert_int_equal(m->n_elems, 64 * 8);
  mesh_destroy(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_unstructured_box), cmocka_unit_test(test_curved_mms_mesh),
      cmocka_unit_test(test_periodic_box),     cmocka_unit_test(test_hopr_round_trip),
      cmocka_unit_test(test_levels),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
