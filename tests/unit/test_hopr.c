/* HOPR mesh files: real HOPR meshes read with the right elements, BCs and volume; a written mesh
 * reads back identical (and matches HOPR's own unique-node/side counts); bad files fail cleanly. */
#define _POSIX_C_SOURCE 200809L /* dup, dup2, getpid, opendir */

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <hdf5.h>

#include "basis/basis.h"
#include "core/error.h"
#include "mesh/hopr.h"
#include "mesh/mesh.h"

/* ---------------------------------------------------------------------------------------------
 * Helpers */

static void temp_path(char *buf, size_t size, const char *name) {
  snprintf(buf, size, "/tmp/hexdg_test_hopr_%ld_%s", (long)getpid(), name);
}

static void hopr_data_dir(char *buf, size_t size) {
  const char *src = __FILE__;
  const char *slash = strrchr(src, '/');
  int dir_len = slash ? (int)(slash - src) : 1;
  snprintf(buf, size, "%.*s/../../../shared/data/hopr_meshes", dir_len, slash ? src : ".");
}

/* stderr captured into a file, so that tests can check what an error message says */
typedef struct {
  int saved_fd;
  char path[512];
} Capture;

static void capture_begin(Capture *c) {
  temp_path(c->path, sizeof c->path, "stderr.txt");
  fflush(stderr);
  c->saved_fd = dup(2);
  int fd = open(c->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  assert_true(fd >= 0);
  dup2(fd, 2);
  close(fd);
}

static void capture_end(Capture *c, char *text, size_t size) {
  fflush(stderr);
  dup2(c->saved_fd, 2);
  close(c->saved_fd);
  FILE *f = fopen(c->path, "r");
  size_t n = f ? fread(text, 1, size - 1, f) : 0;
  text[n] = '\0';
  if (f) fclose(f);
  remove(c->path);
}

/* Read a mesh expecting failure; the message must contain each of the given words. */
static void expect_read_error(const char *path, const char *const *words, int n_words) {
  Capture cap;
  char text[4096];
  Mesh *m = (Mesh *)&cap; /* must be reset to NULL */
  capture_begin(&cap);
  int rc = mesh_read_hopr(path, &m);
  capture_end(&cap, text, sizeof text);
  assert_int_not_equal(rc, HX_OK);
  assert_null(m);
  assert_non_null(strstr(text, "hexdg error"));
  for (int w = 0; w < n_words; w++) {
    if (!strstr(text, words[w])) fprintf(stderr, "message lacks '%s': %s", words[w], text);
    assert_non_null(strstr(text, words[w]));
  }
}

static int read_int_attr(const char *path, const char *name) {
  int value = -1;
  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  assert_true(file >= 0);
  hid_t attr = H5Aopen(file, name, H5P_DEFAULT);
  assert_true(attr >= 0);
  assert_true(H5Aread(attr, H5T_NATIVE_INT, &value) >= 0);
  H5Aclose(attr);
  H5Fclose(file);
  return value;
}

/* A whole integer dataset (malloc'ed), its number of values in *n. */
static int *read_int_dataset(const char *path, const char *name, long *n) {
  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  assert_true(file >= 0);
  hid_t dset = H5Dopen2(file, name, H5P_DEFAULT);
  assert_true(dset >= 0);
  hid_t space = H5Dget_space(dset);
  *n = (long)H5Sget_simple_extent_npoints(space);
  int *data = malloc(sizeof(int) * (size_t)*n);
  assert_true(H5Dread(dset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0);
  H5Sclose(space);
  H5Dclose(dset);
  H5Fclose(file);
  return data;
}

static void write_int_dataset(const char *path, const char *name, const int *data) {
  hid_t file = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
  assert_true(file >= 0);
  hid_t dset = H5Dopen2(file, name, H5P_DEFAULT);
  assert_true(dset >= 0);
  assert_true(H5Dwrite(dset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0);
  H5Dclose(dset);
  H5Fclose(file);
}

/* Volume of a mesh: Gauss rule on the Jacobian of the equidistant NGeo interpolant. det J has
 * degree <= 3 NGeo - 1 in each direction, so 2 NGeo Gauss points per direction integrate it
 * exactly. */
static double mesh_volume(const Mesh *m) {
  int N = m->NGeo, ng = N + 1, n_gauss = 2 * N;
  double xeq[HX_NPMAX], wb[HX_NPMAX], D[HX_NPMAX * HX_NPMAX];
  double xg[2 * HX_NPMAX], wg[2 * HX_NPMAX], L[2 * HX_NPMAX][HX_NPMAX];
  basis_equidistant_nodes(N, xeq);
  basis_barycentric_weights(N, xeq, wb);
  basis_diff_matrix(N, xeq, wb, D);
  assert_int_equal(basis_nodes_weights(n_gauss - 1, NODE_GAUSS, xg, wg), HX_OK);
  for (int a = 0; a < n_gauss; a++)
    basis_lagrange_eval(N, xeq, wb, xg[a], L[a]);
  int n_nodes = ng * ng * ng;
  double *dx = malloc(sizeof(double) * 9 * (size_t)n_nodes); /* [node][dir][xyz] */
  double volume = 0.0;
  for (int e = 0; e < m->n_elems; e++) {
    const double *x = &m->node_coords[3 * (size_t)n_nodes * e];
    for (int k = 0; k < ng; k++)
      for (int j = 0; j < ng; j++)
        for (int i = 0; i < ng; i++) {
          double *d = &dx[9 * ((k * ng + j) * ng + i)];
          for (int c = 0; c < 9; c++)
            d[c] = 0.0;
          for (int l = 0; l < ng; l++)
            for (int c = 0; c < 3; c++) {
              d[c] += D[i * ng + l] * x[3 * ((k * ng + j) * ng + l) + c];
              d[3 + c] += D[j * ng + l] * x[3 * ((k * ng + l) * ng + i) + c];
              d[6 + c] += D[k * ng + l] * x[3 * ((l * ng + j) * ng + i) + c];
            }
        }
    for (int c3 = 0; c3 < n_gauss; c3++)
      for (int b = 0; b < n_gauss; b++)
        for (int a = 0; a < n_gauss; a++) {
          double J[9] = {0};
          for (int k = 0; k < ng; k++)
            for (int j = 0; j < ng; j++)
              for (int i = 0; i < ng; i++) {
                double l = L[a][i] * L[b][j] * L[c3][k];
                for (int c = 0; c < 9; c++)
                  J[c] += l * dx[9 * ((k * ng + j) * ng + i) + c];
              }
          double det = J[0] * (J[4] * J[8] - J[5] * J[7]) - J[1] * (J[3] * J[8] - J[5] * J[6]) +
                       J[2] * (J[3] * J[7] - J[4] * J[6]);
          volume += wg[a] * wg[b] * wg[c3] * det;
        }
  }
  free(dx);
  return volume;
}

static double bounding_box_volume(const Mesh *m) {
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  long n = (long)m->n_elems * (m->NGeo + 1) * (m->NGeo + 1) * (m->NGeo + 1);
  for (long p = 0; p < n; p++)
    for (int d = 0; d < 3; d++) {
      lo[d] = fmin(lo[d], m->node_coords[3 * p + d]);
      hi[d] = fmax(hi[d], m->node_coords[3 * p + d]);
    }
  return (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
}

static void assert_int_arrays_equal(const int *a, const int *b, long n) {
  for (long i = 0; i < n; i++)
    assert_int_equal(a[i], b[i]);
}

static void assert_meshes_equal(const Mesh *a, const Mesh *b) {
  long n_coords = 3L * a->n_elems * (a->NGeo + 1) * (a->NGeo + 1) * (a->NGeo + 1);
  assert_int_equal(a->n_elems, b->n_elems);
  assert_int_equal(a->NGeo, b->NGeo);
  assert_memory_equal(a->node_coords, b->node_coords, sizeof(double) * (size_t)n_coords);
  for (int e = 0; e < a->n_elems; e++)
    assert_int_equal(a->elem_global_id[e], b->elem_global_id[e]);
  assert_int_equal(a->n_sides, b->n_sides);
  assert_int_equal(a->n_bc_sides, b->n_bc_sides);
  assert_int_equal(a->n_inner_sides, b->n_inner_sides);
  assert_int_arrays_equal(a->elem_to_side, b->elem_to_side, 6L * a->n_elems);
  assert_int_arrays_equal(a->elem_to_side_flip, b->elem_to_side_flip, 6L * a->n_elems);
  assert_int_arrays_equal(a->side_master_elem, b->side_master_elem, a->n_sides);
  assert_int_arrays_equal(a->side_master_locside, b->side_master_locside, a->n_sides);
  assert_int_arrays_equal(a->side_slave_elem, b->side_slave_elem, a->n_sides);
  assert_int_arrays_equal(a->side_slave_locside, b->side_slave_locside, a->n_sides);
  assert_int_arrays_equal(a->side_flip, b->side_flip, a->n_sides);
  assert_int_arrays_equal(a->side_bc, b->side_bc, a->n_sides);
  assert_int_equal(a->n_bcs, b->n_bcs);
  for (int i = 0; i < a->n_bcs; i++) {
    assert_string_equal(a->bcs[i].name, b->bcs[i].name);
    assert_int_equal(a->bcs[i].type, b->bcs[i].type);
    assert_int_equal(a->bcs[i].state, b->bcs[i].state);
  }
}

/* Two labelings of the same nodes define the same classes iff label a <-> label b is a
 * bijection. */
static void assert_same_partition(const int *a, const int *b, long n) {
  int max_a = 0, max_b = 0;
  for (long i = 0; i < n; i++) {
    max_a = a[i] > max_a ? a[i] : max_a;
    max_b = b[i] > max_b ? b[i] : max_b;
  }
  int *a_to_b = calloc((size_t)max_a + 1, sizeof(int)),
      *b_to_a = calloc((size_t)max_b + 1, sizeof(int));
  for (long i = 0; i < n; i++) {
    assert_true(a[i] >= 1 && b[i] >= 1);
    if (a_to_b[a[i]] == 0) a_to_b[a[i]] = b[i];
    if (b_to_a[b[i]] == 0) b_to_a[b[i]] = a[i];
    assert_int_equal(a_to_b[a[i]], b[i]);
    assert_int_equal(b_to_a[b[i]], a[i]);
  }
  free(a_to_b);
  free(b_to_a);
}

/* ---------------------------------------------------------------------------------------------
 * (1) FLEXI's regression meshes (HOPR files, see ../shared/data/README.md). Expected values are
 * the files' own contents (h5dump): element counts, BC names and 4-integer codes. */

typedef struct {
  const char *file;
  int n_elems;
  int n_bc_sides; /* boundary faces of the box: 0 for fully periodic cubes */
  int n_bcs;      /* BCs of non-periodic sides, in file order */
  const char *bc_names[6];
  int bc_type[6], bc_state[6];
} KnownMesh;

static const KnownMesh KNOWN_MESHES[] = {
    {"CART_HEX_PERIODIC_001_3D_mesh.h5", 1, 0, 0, {NULL}, {0}, {0}},
    {"CART_HEX_PERIODIC_002_3D_mesh.h5", 8, 0, 0, {NULL}, {0}, {0}},
    {"CART_HEX_PERIODIC_004_3D_mesh.h5", 64, 0, 0, {NULL}, {0}, {0}},
    {"CART_HEX_PERIODIC_008_3D_mesh.h5", 512, 0, 0, {NULL}, {0}, {0}},
    {"CART_HEX_PERIODIC_016_3D_mesh.h5", 4096, 0, 0, {NULL}, {0}, {0}},
    /* 100 x 1 x 1, periodic in y and z */
    {"SOD_100_mesh.h5", 100, 2, 2, {"BC_x+", "BC_x-"}, {2, 2}, {0, 0}},
    /* 2 x 2 x 2, walls everywhere */
    {"cartbox3D_mesh.h5",
     8,
     24,
     6,
     {"BC_zminus", "BC_yminus", "BC_xplus", "BC_yplus", "BC_xminus", "BC_zplus"},
     {2, 2, 2, 2, 2, 2},
     {1, 1, 1, 1, 1, 1}},
    /* 4 x 4 x 4 */
    {"cavity4x4x4_mesh.h5",
     64,
     96,
     6,
     {"BC_zminus", "BC_zplus", "BC_wall_lower", "BC_free", "BC_wall_left", "BC_wall_right"},
     {4, 4, 4, 2, 4, 4},
     {1, 1, 1, 0, 1, 1}},
};
#define N_KNOWN_MESHES ((int)(sizeof KNOWN_MESHES / sizeof KNOWN_MESHES[0]))

static int data_dir_or_skip(char *dir, size_t size) {
  hopr_data_dir(dir, size);
  DIR *d = opendir(dir);
  if (!d) {
    printf("[  SKIP    ] %s not found: HOPR file checks skipped\n", dir);
    return 0;
  }
  closedir(d);
  return 1;
}

static void check_known_mesh(const Mesh *m, const KnownMesh *k) {
  assert_int_equal(m->n_elems, k->n_elems);
  assert_int_equal(m->n_bc_sides, k->n_bc_sides);
  assert_int_equal(m->n_bc_sides + m->n_inner_sides, m->n_sides);
  assert_int_equal(2 * m->n_inner_sides + m->n_bc_sides, 6 * m->n_elems);
  assert_int_equal(m->n_bcs, k->n_bcs);
  for (int b = 0; b < k->n_bcs; b++) {
    assert_string_equal(m->bcs[b].name, k->bc_names[b]);
    assert_int_equal(m->bcs[b].type, k->bc_type[b]);
    assert_int_equal(m->bcs[b].state, k->bc_state[b]);
  }
  double box = bounding_box_volume(m);
  assert_true(fabs(mesh_volume(m) - box) <= 1e-12 * box);
}

static void test_reads_hopr_regression_meshes(void **state) {
  (void)state;
  char dir[1024], path[2048];
  if (!data_dir_or_skip(dir, sizeof dir)) return;
  for (int i = 0; i < N_KNOWN_MESHES; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, KNOWN_MESHES[i].file);
    Mesh *m = NULL;
    assert_int_equal(mesh_read_hopr(path, &m), HX_OK);
    assert_string_equal(m->source, path);
    for (int e = 0; e < m->n_elems; e++)
      assert_int_equal(m->elem_global_id[e], e + 1);
    check_known_mesh(m, &KNOWN_MESHES[i]);
    mesh_destroy(m);
  }
  /* any other file in the folder must at least read and connect */
  DIR *d = opendir(dir);
  for (struct dirent *ent = readdir(d); ent; ent = readdir(d)) {
    size_t len = strlen(ent->d_name);
    if (len < 3 || strcmp(ent->d_name + len - 3, ".h5") != 0) continue;
    snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
    Mesh *m = NULL;
    assert_int_equal(mesh_read_hopr(path, &m), HX_OK);
    assert_true(m->n_sides > 0);
    mesh_destroy(m);
  }
  closedir(d);
}

/* hexdg's writer agrees with HOPR on the unique nodes (periodic partners distinct) and on the
 * unique sides; writing and reading back reproduces the mesh. */
static void test_rewritten_hopr_meshes_match_hopr(void **state) {
  (void)state;
  char dir[1024], path[2048], out[512];
  if (!data_dir_or_skip(dir, sizeof dir)) return;
  temp_path(out, sizeof out, "rewritten_mesh.h5");
  for (int i = 0; i < N_KNOWN_MESHES; i++) {
    if (KNOWN_MESHES[i].n_elems > 512) continue; /* keep the test short */
    snprintf(path, sizeof path, "%s/%s", dir, KNOWN_MESHES[i].file);
    Mesh *m = NULL, *back = NULL;
    assert_int_equal(mesh_read_hopr(path, &m), HX_OK);
    assert_int_equal(mesh_write_hopr(m, out), HX_OK);
    assert_int_equal(read_int_attr(out, "nUniqueNodes"), read_int_attr(path, "nUniqueNodes"));
    assert_int_equal(read_int_attr(out, "nUniqueSides"), read_int_attr(path, "nUniqueSides"));
    long n_orig, n_new;
    int *ids_orig = read_int_dataset(path, "GlobalNodeIDs", &n_orig);
    int *ids_new = read_int_dataset(out, "GlobalNodeIDs", &n_new);
    assert_int_equal(n_orig, n_new);
    assert_same_partition(ids_orig, ids_new, n_orig);
    free(ids_orig);
    free(ids_new);
    assert_int_equal(mesh_read_hopr(out, &back), HX_OK);
    assert_meshes_equal(m, back);
    mesh_destroy(back);
    mesh_destroy(m);
  }
  remove(out);
}

/* ---------------------------------------------------------------------------------------------
 * (2) Round trip of a curved box, periodic in y */

static Mesh *curved_box(int periodic_y) {
  BoxSpec b = {{3, 2, 2}, {-1, -1, -1}, {1, 2, 0.5}, {0, periodic_y, 0}, 3, 0.05};
  Mesh *m = NULL;
  assert_int_equal(mesh_create_box(&b, &m), HX_OK);
  return m;
}

static void test_curved_box_round_trip(void **state) {
  (void)state;
  char path[512], tmp[600];
  temp_path(path, sizeof path, "box_mesh.h5");
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  Mesh *m = curved_box(1), *back = NULL;
  assert_int_equal(mesh_write_hopr(m, path), HX_OK);
  assert_int_equal(access(tmp, F_OK), -1); /* renamed */
  assert_int_equal(mesh_read_hopr(path, &back), HX_OK);
  assert_meshes_equal(m, back);
  assert_string_equal(back->source, path);
  /* the deformation keeps the outer faces flat: the elements fill the box 2 x 3 x 1.5 */
  assert_true(fabs(mesh_volume(back) - 9.0) < 1e-12);

  /* attributes: counts as the format defines them; the y faces became one periodic BC pair */
  int n_nodes_elem = 4 * 4 * 4;
  assert_int_equal(read_int_attr(path, "Ngeo"), 3);
  assert_int_equal(read_int_attr(path, "nElems"), 12);
  assert_int_equal(read_int_attr(path, "nSides"), 72);
  assert_int_equal(read_int_attr(path, "nNodes"), 12 * n_nodes_elem);
  assert_int_equal(read_int_attr(path, "nUniqueSides"), m->n_sides);
  /* lattice of NGeo-spaced points: 3*3+1 in x, 2*3+1 in y (the periodic ends stay distinct),
   * 2*3+1 in z */
  assert_int_equal(read_int_attr(path, "nUniqueNodes"), 10 * 7 * 7);
  assert_int_equal(read_int_attr(path, "nBCs"), m->n_bcs + 2);
  long n;
  int *bc_type = read_int_dataset(path, "BCType", &n);
  assert_int_equal(n, 4 * (m->n_bcs + 2));
  /* the periodic pair: type 1, alpha +1 (partner at +vector) and -1 */
  assert_int_equal(bc_type[4 * m->n_bcs + 0], 1);
  assert_int_equal(bc_type[4 * m->n_bcs + 3], 1);
  assert_int_equal(bc_type[4 * m->n_bcs + 4], 1);
  assert_int_equal(bc_type[4 * m->n_bcs + 7], -1);
  free(bc_type);
  mesh_destroy(back);
  mesh_destroy(m);
  remove(path);
}

/* Elements that are their own periodic neighbours (one element across a periodic direction). */
static void test_self_periodic_boxes_round_trip(void **state) {
  (void)state;
  const BoxSpec specs[2] = {{{1, 1, 1}, {0, 0, 0}, {1, 1, 1}, {1, 1, 1}, 2, 0.0},
                            {{1, 2, 2}, {0, 0, 0}, {2, 1, 1}, {1, 0, 0}, 2, 0.05}};
  const int unique_nodes[2] = {3 * 3 * 3, 3 * 5 * 5},
            unique_sides[2] = {3, 4 + 6 + 6}; /* 4 x-pairs, 6 y, 6 z */
  char path[512];
  temp_path(path, sizeof path, "self_periodic_mesh.h5");
  for (int c = 0; c < 2; c++) {
    Mesh *m = NULL, *back = NULL;
    assert_int_equal(mesh_create_box(&specs[c], &m), HX_OK);
    assert_int_equal(mesh_write_hopr(m, path), HX_OK);
    assert_int_equal(mesh_read_hopr(path, &back), HX_OK);
    assert_meshes_equal(m, back);
    assert_int_equal(read_int_attr(path, "nUniqueNodes"), unique_nodes[c]);
    assert_int_equal(read_int_attr(path, "nUniqueSides"), unique_sides[c]);
    assert_true(fabs(mesh_volume(back) - bounding_box_volume(back)) < 1e-12);
    mesh_destroy(back);
    mesh_destroy(m);
  }
  remove(path);
}

/* Every connected side of a written file: the neighbour names it back with the same |ID| and
 * opposite sign, and the flip is the same seen from both sides. */
static void test_written_side_info_is_symmetric(void **state) {
  (void)state;
  char path[512];
  temp_path(path, sizeof path, "sym_mesh.h5");
  Mesh *m = curved_box(1);
  assert_int_equal(mesh_write_hopr(m, path), HX_OK);
  long n;
  int *side = read_int_dataset(path, "SideInfo", &n);
  assert_int_equal(n, 5L * 6 * m->n_elems);
  long n_bc;
  int *bc_type = read_int_dataset(path, "BCType", &n_bc);
  int n_periodic = 0;
  for (long r = 0; r < n / 5; r++) {
    const int *a = &side[5 * r];
    if (a[2] == 0) {
      assert_true(a[4] >= 1 && a[4] <= m->n_bcs); /* boundary side: one of the mesh's BCs */
      continue;
    }
    long nb_row = 6L * (a[2] - 1) + a[3] / 10 - 1;
    const int *b = &side[5 * nb_row];
    assert_int_equal(b[2], r / 6 + 1);
    assert_int_equal(b[3] / 10, r % 6 + 1);
    assert_int_equal(b[3] % 10, a[3] % 10);
    assert_int_equal(a[1], -b[1]);
    assert_true(a[3] % 10 >= 1 && a[3] % 10 <= 4);
    if (a[4] == 0) continue;
    /* periodic in y: the eta- side (2) of the lower face has alpha +1 (partner at +vector),
     * the eta+ side (4) of the upper face alpha -1 */
    n_periodic++;
    assert_int_equal(bc_type[4 * (a[4] - 1)], 1);
    assert_int_equal(bc_type[4 * (a[4] - 1) + 3], r % 6 + 1 == 2 ? 1 : -1);
    assert_true(r % 6 + 1 == 2 || r % 6 + 1 == 4);
  }
  assert_int_equal(n_periodic, 2 * 3 * 2); /* the y- and y+ faces: 3 x 2 elements each */
  free(bc_type);
  free(side);
  mesh_destroy(m);
  remove(path);
}

/* ---------------------------------------------------------------------------------------------
 * (3) Bad files */

static void test_missing_and_non_hdf5_files_fail(void **state) {
  (void)state;
  const char *missing[] = {"/nonexistent_dir/none_mesh.h5"};
  expect_read_error(missing[0], missing, 1);

  char path[512];
  temp_path(path, sizeof path, "text_mesh.h5");
  FILE *f = fopen(path, "w");
  fputs("this is not a mesh\n", f);
  fclose(f);
  const char *words[] = {path, "not an HDF5 file"};
  expect_read_error(path, words, 2);
  remove(path);

  /* an HDF5 file without HOPR's arrays */
  hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  H5Fclose(file);
  const char *not_hopr[] = {path, "not a HOPR mesh"};
  expect_read_error(path, not_hopr, 2);
  remove(path);
}

static void test_truncated_file_fails(void **state) {
  (void)state;
  char path[512], cut[512];
  temp_path(path, sizeof path, "full_mesh.h5");
  temp_path(cut, sizeof cut, "cut_mesh.h5");
  Mesh *m = curved_box(0);
  assert_int_equal(mesh_write_hopr(m, path), HX_OK);
  mesh_destroy(m);
  FILE *in = fopen(path, "rb"), *out = fopen(cut, "wb");
  fseek(in, 0, SEEK_END);
  long size = ftell(in);
  fseek(in, 0, SEEK_SET);
  char *buf = malloc((size_t)size);
  assert_int_equal((long)fread(buf, 1, (size_t)size, in), size);
  fwrite(buf, 1, (size_t)size / 2, out);
  fclose(in);
  fclose(out);
  free(buf);
  const char *words[] = {cut};
  expect_read_error(cut, words, 1);
  remove(path);
  remove(cut);
}

/* Write a valid box, change one integer of one dataset, expect a read error naming the words. */
static void expect_error_after_patch(const char *dataset, long index, int value,
                                     const char *const *words, int n_words) {
  char path[512];
  temp_path(path, sizeof path, "patched_mesh.h5");
  Mesh *m = curved_box(0);
  assert_int_equal(mesh_write_hopr(m, path), HX_OK);
  mesh_destroy(m);
  long n;
  int *data = read_int_dataset(path, dataset, &n);
  assert_true(index < n);
  data[index] = value;
  write_int_dataset(path, dataset, data);
  free(data);
  expect_read_error(path, words, n_words);
  remove(path);
}

/* The first SideInfo row (0-based) with a neighbour (want_neighbour) or without, of a slave side
 * when want_slave. */
static long find_side_row(int want_neighbour, int want_slave) {
  char path[512];
  temp_path(path, sizeof path, "probe_mesh.h5");
  Mesh *m = curved_box(0);
  assert_int_equal(mesh_write_hopr(m, path), HX_OK);
  mesh_destroy(m);
  long n, found = -1;
  int *side = read_int_dataset(path, "SideInfo", &n);
  for (long r = 0; r < n / 5 && found < 0; r++)
    if ((side[5 * r + 2] != 0) == want_neighbour && (!want_slave || side[5 * r + 1] < 0)) found = r;
  free(side);
  remove(path);
  assert_true(found >= 0);
  return found;
}

static void test_non_hexahedral_element_fails(void **state) {
  (void)state;
  const char *words[] = {"element 2", "104", "tetrahedron", "hexahedra"};
  expect_error_after_patch("ElemInfo", 6 * 1 + 0, 104, words, 4); /* element 2 -> tetrahedron */
}

static void test_side_without_neighbour_or_bc_fails(void **state) {
  (void)state;
  long row = find_side_row(0, 0);
  char elem_words[64];
  snprintf(elem_words, sizeof elem_words, "element %ld side %ld", row / 6 + 1, row % 6 + 1);
  const char *words[] = {elem_words, "neither a neighbour nor a boundary condition"};
  expect_error_after_patch("SideInfo", 5 * row + 4, 0, words, 2);
}

static void test_inconsistent_neighbour_fails(void **state) {
  (void)state;
  long row = find_side_row(1, 0);
  /* point the side at an element that is not its neighbour (element 1 is never row 0's) */
  const char *words[] = {"inconsistent neighbour information"};
  char path[512];
  temp_path(path, sizeof path, "nb_probe_mesh.h5");
  Mesh *m = curved_box(0);
  assert_int_equal(mesh_write_hopr(m, path), HX_OK);
  long n;
  int *side = read_int_dataset(path, "SideInfo", &n);
  int wrong = side[5 * row + 2] % m->n_elems + 1; /* another element */
  free(side);
  mesh_destroy(m);
  remove(path);
  expect_error_after_patch("SideInfo", 5 * row + 2, wrong, words, 1);
}

static void test_wrong_flip_fails(void **state) {
  (void)state;
  long row = find_side_row(1, 1);
  char path[512];
  temp_path(path, sizeof path, "flip_probe_mesh.h5");
  Mesh *m = curved_box(0);
  assert_int_equal(mesh_write_hopr(m, path), HX_OK);
  long n;
  int *side = read_int_dataset(path, "SideInfo", &n);
  int code = side[5 * row + 3], wrong = code - code % 10 + code % 10 % 4 + 1; /* another flip */
  free(side);
  mesh_destroy(m);
  remove(path);
  const char *words[] = {"flip", "inconsistent neighbour information"};
  expect_error_after_patch("SideInfo", 5 * row + 3, wrong, words, 2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_reads_hopr_regression_meshes),
      cmocka_unit_test(test_rewritten_hopr_meshes_match_hopr),
      cmocka_unit_test(test_curved_box_round_trip),
      cmocka_unit_test(test_self_periodic_boxes_round_trip),
      cmocka_unit_test(test_written_side_info_is_symmetric),
      cmocka_unit_test(test_missing_and_non_hdf5_files_fail),
      cmocka_unit_test(test_truncated_file_fails),
      cmocka_unit_test(test_non_hexahedral_element_fails),
      cmocka_unit_test(test_side_without_neighbour_or_bc_fails),
      cmocka_unit_test(test_inconsistent_neighbour_fails),
      cmocka_unit_test(test_wrong_flip_fails),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
