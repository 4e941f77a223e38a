/* State-file I/O: round trips are bitwise, the file holds FLEXI's layout and attribute types,
 * wrong or damaged files give errors (never crashes), and writes replace files atomically. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, fork, dup2, truncate, setrlimit */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hdf5.h>

#include "core/error.h"
#include "io/state.h"
#include "state_test_util.h"

static const char *const VAR_NAMES[] = {
    "Density", "MomentumX", "MomentumY", "MomentumZ", "EnergyStagnationDensity",
    "Extra1",  "Extra2"};

/* ------------------------------------------------------------------------------------------- */
/* helpers */

static StateHeader make_header(int N, int n_var, long n_elems) {
  StateHeader h;
  memset(&h, 0, sizeof h);
  strcpy(h.project_name, "tgv");
  strcpy(h.mesh_file, "meshes/tgv_004_mesh.h5");
  strcpy(h.node_type, "GAUSS");
  h.N = N;
  h.n_var = n_var;
  h.n_elems = n_elems;
  h.time = 0.1 + 0.2; /* not exactly representable: checks the time round trip is bitwise */
  return h;
}

/* Random bit patterns as doubles (no NaNs: any other value must survive bitwise), plus values that
 * a lossy path would alter: -0, subnormals, infinities. */
static void fill_random(double *U, size_t n, uint64_t seed) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (size_t m = 0; m < n; ++m) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    double d = (double)(x >> 11) * 0x1.0p-53 * 2.0 - 1.0;
    U[m] = d * (double)(1 + (x & 0xff));
  }
  if (n > 4) {
    U[0] = -0.0;
    U[1] = 4.9e-324;
    U[2] = 1.0 / 0.0;
    U[3] = -1.0 / 0.0;
  }
}

/* Index of (e,k,j,i,v) in hexdg's U[e][v][k][j][i] and in FLEXI's DG_Solution[e][k][j][i][v]. */
static size_t hexdg_index(const StateHeader *h, long e, int k, int j, int i, int v) {
  size_t np1 = (size_t)h->N + 1;
  return ((((size_t)e * (size_t)h->n_var + (size_t)v) * np1 + (size_t)k) * np1 + (size_t)j) * np1 +
         (size_t)i;
}

static size_t flexi_index(const StateHeader *h, long e, int k, int j, int i, int v) {
  size_t np1 = (size_t)h->N + 1;
  return ((((size_t)e * np1 + (size_t)k) * np1 + (size_t)j) * np1 + (size_t)i) * (size_t)h->n_var +
         (size_t)v;
}

static void write_text_file(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static double *write_random_state(const char *path, const StateHeader *h, uint64_t seed) {
  double *U = malloc(n_values(h) * sizeof(double));
  assert_non_null(U);
  fill_random(U, n_values(h), seed);
  assert_int_equal(state_write(path, h, VAR_NAMES, U), HX_OK);
  return U;
}

/* ------------------------------------------------------------------------------------------- */
/* fixture: one temporary directory per run */

static int setup(void **state) { return state_fixture_setup(state, "hexdg_test_state"); }

/* ------------------------------------------------------------------------------------------- */
/* tests */

static void test_file_name_matches_flexi_timestamp(void **state) {
  (void)state;
  char buf[128];
  state_file_name(buf, sizeof buf, "tgv", 1.5);
  assert_string_equal(buf, "tgv_State_0000001.500000000.h5");
  state_file_name(buf, sizeof buf, "cyl", 0.0);
  assert_string_equal(buf, "cyl_State_0000000.000000000.h5");
  state_file_name(buf, sizeof buf, "cyl", 1234567.125);
  assert_string_equal(buf, "cyl_State_1234567.125000000.h5");
  /* a short buffer gets a terminated prefix, no overflow */
  char small[8];
  state_file_name(small, sizeof small, "tgv", 1.5);
  assert_string_equal(small, "tgv_Sta");
}

/* Several sizes, one large enough to be written and read in several element blocks (with a partial
 * last block); the round trip must reproduce every bit. */
static void test_round_trip_is_bitwise(void **state) {
  Fixture *fx = *state;
  const int cases[][3] = {{3, 5, 7000}, {4, 7, 3}, {1, 1, 2}, {0, 5, 5}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    StateHeader h = make_header(cases[c][0], cases[c][1], cases[c][2]);
    char path[300];
    path_in(fx, "roundtrip.h5", path, sizeof path);
    double *U = write_random_state(path, &h, 11 + c);
    double *V = malloc(n_values(&h) * sizeof(double));
    assert_non_null(V);
    memset(V, 0xA5, n_values(&h) * sizeof(double));
    assert_int_equal(state_read(path, &h, V), HX_OK);
    assert_memory_equal(U, V, n_values(&h) * sizeof(double));
    free(U);
    free(V);
  }
}

/* Read DG_Solution with the plain HDF5 API: it must be FLEXI's [elem][k][j][i][var] array. */
static void test_file_holds_flexi_layout(void **state) {
  Fixture *fx = *state;
  StateHeader h = make_header(3, 5, 7000);
  char path[300];
  path_in(fx, "layout.h5", path, sizeof path);
  double *U = write_random_state(path, &h, 5);

  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t dset = H5Dopen2(file, "DG_Solution", H5P_DEFAULT);
  hid_t space = H5Dget_space(dset);
  hid_t type = H5Dget_type(dset);
  assert_true(H5Tequal(type, H5T_IEEE_F64LE) > 0);
  hsize_t dims[5];
  assert_int_equal(H5Sget_simple_extent_ndims(space), 5);
  H5Sget_simple_extent_dims(space, dims, NULL);
  assert_int_equal(dims[0], 7000);
  assert_int_equal(dims[1], 4);
  assert_int_equal(dims[2], 4);
  assert_int_equal(dims[3], 4);
  assert_int_equal(dims[4], 5);

  /* one value at a known position, in the third element block: (elem, k, j, i, var) */
  const long e = 6999;
  const int k = 1, j = 2, i = 3, v = 4;
  hsize_t start[5] = {(hsize_t)e, (hsize_t)k, (hsize_t)j, (hsize_t)i, (hsize_t)v};
  hsize_t one[5] = {1, 1, 1, 1, 1};
  hsize_t n1 = 1;
  hid_t mem1 = H5Screate_simple(1, &n1, NULL);
  assert_true(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, one, NULL) >= 0);
  double value = 0.0;
  assert_true(H5Dread(dset, H5T_NATIVE_DOUBLE, mem1, space, H5P_DEFAULT, &value) >= 0);
  assert_memory_equal(&value, &U[hexdg_index(&h, e, k, j, i, v)], sizeof value);
  H5Sclose(mem1);

  /* and every value */
  double *raw = malloc(n_values(&h) * sizeof(double));
  assert_non_null(raw);
  assert_true(H5Dread(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw) >= 0);
  size_t n_wrong = 0;
  for (long ee = 0; ee < h.n_elems; ++ee)
    for (int kk = 0; kk <= h.N; ++kk)
      for (int jj = 0; jj <= h.N; ++jj)
        for (int ii = 0; ii <= h.N; ++ii)
          for (int vv = 0; vv < h.n_var; ++vv)
            n_wrong += memcmp(&raw[flexi_index(&h, ee, kk, jj, ii, vv)],
                              &U[hexdg_index(&h, ee, kk, jj, ii, vv)], sizeof(double)) != 0;
  assert_int_equal(n_wrong, 0);
  free(raw);
  free(U);
  H5Tclose(type);
  H5Sclose(space);
  H5Dclose(dset);
  H5Fclose(file);
}

/* Attribute `name` must be a 1-D array of n_expected blank-padded strings of `size` bytes. */
static void assert_fortran_string_attr(hid_t file, const char *name, size_t size,
                                       hssize_t n_expected, const char *first_value) {
  hid_t attr = H5Aopen(file, name, H5P_DEFAULT);
  assert_true(attr >= 0);
  hid_t type = H5Aget_type(attr);
  hid_t space = H5Aget_space(attr);
  assert_int_equal(H5Tget_class(type), H5T_STRING);
  assert_int_equal(H5Tget_size(type), size);
  assert_int_equal(H5Tget_strpad(type), H5T_STR_SPACEPAD);
  assert_int_equal(H5Tis_variable_str(type), 0);
  assert_int_equal(H5Sget_simple_extent_ndims(space), 1);
  assert_int_equal(H5Sget_simple_extent_npoints(space), n_expected);
  char *buf = calloc((size_t)n_expected * size + 1, 1);
  assert_non_null(buf);
  assert_true(H5Aread(attr, type, buf) >= 0);
  size_t len = strlen(first_value);
  assert_memory_equal(buf, first_value, len);
  for (size_t c = len; c < size; ++c)
    assert_int_equal(buf[c], ' ');
  free(buf);
  H5Sclose(space);
  H5Tclose(type);
  H5Aclose(attr);
}

static void read_raw_attr(hid_t file, const char *name, hid_t mem_type, H5T_class_t cls,
                          size_t type_size, hssize_t n, void *out) {
  hid_t attr = H5Aopen(file, name, H5P_DEFAULT);
  assert_true(attr >= 0);
  hid_t type = H5Aget_type(attr);
  hid_t space = H5Aget_space(attr);
  assert_int_equal(H5Tget_class(type), cls);
  assert_int_equal(H5Tget_size(type), type_size);
  assert_int_equal(H5Sget_simple_extent_ndims(space), 1);
  assert_int_equal(H5Sget_simple_extent_npoints(space), n);
  assert_true(H5Aread(attr, mem_type, out) >= 0);
  H5Sclose(space);
  H5Tclose(type);
  H5Aclose(attr);
}

static void test_header_round_trip_and_flexi_attribute_types(void **state) {
  Fixture *fx = *state;
  StateHeader h = make_header(4, 5, 3);
  strcpy(h.node_type, "GAUSS-LOBATTO");
  char path[300];
  path_in(fx, "header.h5", path, sizeof path);
  free(write_random_state(path, &h, 2));

  StateHeader r;
  memset(&r, 0x5A, sizeof r);
  assert_int_equal(state_read_header(path, &r), HX_OK);
  assert_string_equal(r.project_name, h.project_name);
  assert_string_equal(r.mesh_file, h.mesh_file);
  assert_string_equal(r.node_type, h.node_type);
  assert_int_equal(r.N, h.N);
  assert_int_equal(r.n_var, h.n_var);
  assert_int_equal(r.n_elems, h.n_elems);
  assert_memory_equal(&r.time, &h.time, sizeof h.time);

  /* the attributes as FLEXI writes them (hdf5_output.f90): blank-padded strings sized to their
   * trimmed length, VarNames as 255-character strings, 1-D dataspaces of length 1 for scalars */
  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  assert_true(file >= 0);
  assert_fortran_string_attr(file, "File_Type", 5, 1, "State");
  assert_fortran_string_attr(file, "Program", 5, 1, "hexdg");
  assert_fortran_string_attr(file, "Project_Name", 3, 1, "tgv");
  assert_fortran_string_attr(file, "MeshFile", strlen(h.mesh_file), 1, h.mesh_file);
  assert_fortran_string_attr(file, "NodeType", 13, 1, "GAUSS-LOBATTO");
  assert_fortran_string_attr(file, "VarNames", 255, 5, "Density");
  char names[5][255];
  hid_t name_type = H5Tcopy(H5T_FORTRAN_S1);
  H5Tset_size(name_type, 255);
  read_raw_attr(file, "VarNames", name_type, H5T_STRING, 255, 5, names);
  H5Tclose(name_type);
  for (int v = 0; v < 5; ++v) {
    size_t len = strlen(VAR_NAMES[v]);
    assert_memory_equal(names[v], VAR_NAMES[v], len);
    assert_int_equal(names[v][len], ' ');
  }
  int N = -1, dim = -1, n_comp = -1, date[8];
  double t = 0.0, version = 0.0;
  read_raw_attr(file, "N", H5T_NATIVE_INT, H5T_INTEGER, 4, 1, &N);
  read_raw_attr(file, "Dimension", H5T_NATIVE_INT, H5T_INTEGER, 4, 1, &dim);
  read_raw_attr(file, "NComputation", H5T_NATIVE_INT, H5T_INTEGER, 4, 1, &n_comp);
  read_raw_attr(file, "Time", H5T_NATIVE_DOUBLE, H5T_FLOAT, 8, 1, &t);
  read_raw_attr(file, "File_Version", H5T_NATIVE_DOUBLE, H5T_FLOAT, 8, 1, &version);
  read_raw_attr(file, "TIME", H5T_NATIVE_INT, H5T_INTEGER, 4, 8, date);
  assert_int_equal(N, 4);
  assert_int_equal(dim, 3);
  assert_int_equal(n_comp, 4);
  assert_memory_equal(&t, &h.time, sizeof t);
  assert_true(version == 0.1);
  assert_true(date[0] >= 2024 && date[1] >= 1 && date[1] <= 12 && date[2] >= 1 && date[2] <= 31);
  assert_true(date[4] >= 0 && date[4] < 24 && date[7] >= 0 && date[7] < 1000);
  /* no ElemData / FieldData in hexdg's files */
  assert_int_equal(H5Lexists(file, "ElemData", H5P_DEFAULT), 0);
  assert_int_equal(H5Lexists(file, "FieldData", H5P_DEFAULT), 0);
  H5Fclose(file);
}

static void test_mismatch_errors_name_attribute_found_and_expected(void **state) {
  Fixture *fx = *state;
  StateHeader h = make_header(3, 5, 4);
  char path[300];
  path_in(fx, "mismatch.h5", path, sizeof path);
  free(write_random_state(path, &h, 3));
  size_t big = n_values(&h) * 4;
  double *V = malloc(big * sizeof(double));
  double *sentinel = malloc(big * sizeof(double));
  assert_non_null(V);
  assert_non_null(sentinel);
  memset(V, 0x3C, big * sizeof(double));
  memcpy(sentinel, V, big * sizeof(double));

  struct {
    StateHeader expected;
    const char *parts[4];
  } cases[4];
  cases[0].expected = make_header(4, 5, 4);
  cases[1].expected = make_header(3, 6, 4);
  cases[2].expected = make_header(3, 5, 9);
  cases[3].expected = make_header(3, 5, 4);
  strcpy(cases[3].expected.node_type, "GAUSS-LOBATTO");
  const char *parts[4][4] = {{"'N' = 3", "N = 4", "mismatch.h5", NULL},
                             {"VarNames", "5 variables", "expects 6", "mismatch.h5"},
                             {"4 elements", "has 9", "tgv_004_mesh.h5", "mismatch.h5"},
                             {"'NodeType' = 'GAUSS'", "'GAUSS-LOBATTO'", "mismatch.h5", NULL}};
  for (int c = 0; c < 4; ++c) {
    StderrCapture cap;
    capture_begin(&cap, fx);
    int rc = state_read(path, &cases[c].expected, V);
    char *msg = capture_end(&cap);
    assert_int_equal(rc, HX_ERR_INPUT);
    for (int p = 0; p < 4 && parts[c][p]; ++p)
      assert_contains(msg, parts[c][p]);
    free(msg);
    /* nothing was written into the caller's array */
    assert_memory_equal(V, sentinel, big * sizeof(double));
  }
  /* an empty expected node_type is not compared */
  StateHeader any_node = make_header(3, 5, 4);
  any_node.node_type[0] = '\0';
  assert_int_equal(state_read(path, &any_node, V), HX_OK);
  free(V);
  free(sentinel);
}

static void test_missing_foreign_and_inconsistent_files_give_errors(void **state) {
  Fixture *fx = *state;
  StateHeader h = make_header(2, 5, 3), r;
  char path[300];

  path_in(fx, "does_not_exist.h5", path, sizeof path);
  assert_int_equal(state_read_header(path, &r), HX_ERR_IO);

  path_in(fx, "text.h5", path, sizeof path);
  write_text_file(path, "this is not an HDF5 file\n");
  assert_int_equal(state_read_header(path, &r), HX_ERR_INPUT);

  /* an HDF5 file without the header attributes, and a mesh file */
  path_in(fx, "empty.h5", path, sizeof path);
  H5Fclose(H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  assert_int_equal(state_read_header(path, &r), HX_ERR_INPUT);
  hid_t file = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
  hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, 4);
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t attr = H5Acreate2(file, "File_Type", type, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(attr, type, "Mesh");
  H5Aclose(attr);
  H5Sclose(space);
  H5Tclose(type);
  H5Fclose(file);
  StderrCapture cap;
  capture_begin(&cap, fx);
  int rc = state_read_header(path, &r);
  char *msg = capture_end(&cap);
  assert_int_equal(rc, HX_ERR_INPUT);
  assert_contains(msg, "'Mesh'");
  free(msg);

  /* a state file whose dataset was removed, one without N, one whose N disagrees with the shape */
  const char *what[] = {"DG_Solution", "'N'", "inconsistent"};
  for (int c = 0; c < 3; ++c) {
    path_in(fx, "damaged.h5", path, sizeof path);
    free(write_random_state(path, &h, 4));
    file = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    if (c == 0) assert_true(H5Ldelete(file, "DG_Solution", H5P_DEFAULT) >= 0);
    if (c == 1) assert_true(H5Adelete(file, "N") >= 0);
    if (c == 2) {
      int wrong_N = 5;
      attr = H5Aopen(file, "N", H5P_DEFAULT);
      assert_true(H5Awrite(attr, H5T_NATIVE_INT, &wrong_N) >= 0);
      H5Aclose(attr);
    }
    H5Fclose(file);
    capture_begin(&cap, fx);
    rc = state_read_header(path, &r);
    msg = capture_end(&cap);
    assert_int_equal(rc, HX_ERR_INPUT);
    assert_contains(msg, what[c]);
    assert_contains(msg, "damaged.h5");
    free(msg);
  }
}

static void test_truncated_file_gives_error_not_crash(void **state) {
  Fixture *fx = *state;
  StateHeader h = make_header(3, 5, 40);
  char path[300];
  path_in(fx, "truncated.h5", path, sizeof path);
  struct stat st;
  double *V = malloc(n_values(&h) * sizeof(double));
  assert_non_null(V);
  const double fractions[] = {0.999, 0.5, 0.1, 0.02, 0.0};
  for (size_t c = 0; c < sizeof fractions / sizeof fractions[0]; ++c) {
    free(write_random_state(path, &h, 6));
    assert_int_equal(stat(path, &st), 0);
    off_t size = (off_t)((double)st.st_size * fractions[c]);
    if (c == 0) size = st.st_size - 1;
    assert_int_equal(truncate(path, size), 0);
    StateHeader r;
    assert_int_not_equal(state_read_header(path, &r), HX_OK);
    assert_int_not_equal(state_read(path, &h, V), HX_OK);
  }
  free(V);
}

static int count_dir_entries(const Fixture *fx) {
  DIR *d = opendir(fx->dir);
  assert_non_null(d);
  int n = 0;
  struct dirent *entry;
  while ((entry = readdir(d)))
    if (strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0) ++n;
  closedir(d);
  return n;
}

static void assert_file_holds(const char *path, const StateHeader *h, const double *U) {
  double *V = malloc(n_values(h) * sizeof(double));
  assert_non_null(V);
  assert_int_equal(state_read(path, h, V), HX_OK);
  assert_memory_equal(U, V, n_values(h) * sizeof(double));
  free(V);
}

/* Write in a child process limited to small files, as on a full disk: the write fails after the
 * temporary file was created. Returns the child's exit status (state_write's return code). */
static int write_with_file_size_limit(const char *path, const StateHeader *h, const double *U) {
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    signal(SIGXFSZ, SIG_IGN); /* a too-large write then fails with EFBIG instead of killing */
    struct rlimit limit = {64 * 1024, 64 * 1024};
    setrlimit(RLIMIT_FSIZE, &limit);
    _exit(state_write(path, h, VAR_NAMES, U));
  }
  int status = 0;
  waitpid(pid, &status, 0);
  assert_true(WIFEXITED(status));
  return WEXITSTATUS(status);
}

static void test_overwrite_is_atomic_and_leaves_no_tmp(void **state) {
  Fixture *fx = *state;
  empty_dir(fx->dir);
  StateHeader h = make_header(3, 5, 500); /* 1.3 MB of data, beyond the child's size limit */
  char path[300], tmp_path[310];
  path_in(fx, "atomic.h5", path, sizeof path);
  snprintf(tmp_path, sizeof tmp_path, "%s.tmp", path);

  double *A = write_random_state(path, &h, 7);
  h.time = 2.0;
  double *B = write_random_state(path, &h, 8);
  assert_file_holds(path, &h, B);
  StateHeader r;
  assert_int_equal(state_read_header(path, &r), HX_OK);
  assert_true(r.time == 2.0);
  assert_false(file_exists(tmp_path));
  assert_int_equal(count_dir_entries(fx), 1);

  /* a write that fails half way (file-size limit): old file intact, no .tmp left */
  assert_int_equal(write_with_file_size_limit(path, &h, A), HX_ERR_IO);
  assert_false(file_exists(tmp_path));
  assert_file_holds(path, &h, B);

  /* a write that fails before the file is created (a directory is in the way) */
  assert_int_equal(mkdir(tmp_path, 0700), 0);
  char blocker[330];
  snprintf(blocker, sizeof blocker, "%s/keep", tmp_path);
  write_text_file(blocker, "x");
  assert_int_equal(state_write(path, &h, VAR_NAMES, A), HX_ERR_IO);
  assert_file_holds(path, &h, B);
  remove(blocker);
  rmdir(tmp_path);

  /* invalid input is rejected before anything is written */
  const char *bad_names[5] = {"Density", "MomentumX", "", "MomentumZ", "EnergyStagnationDensity"};
  assert_int_equal(state_write(path, &h, bad_names, A), HX_ERR_INPUT);
  StateHeader bad_node = h;
  strcpy(bad_node.node_type, "LEGENDRE");
  assert_int_equal(state_write(path, &bad_node, VAR_NAMES, A), HX_ERR_INPUT);
  StateHeader long_mesh = h;
  memset(long_mesh.mesh_file, 'm', 300);
  long_mesh.mesh_file[300] = '\0';
  assert_int_equal(state_write(path, &long_mesh, VAR_NAMES, A), HX_ERR_INPUT);
  assert_false(file_exists(tmp_path));
  assert_file_holds(path, &h, B);
  assert_int_equal(count_dir_entries(fx), 1);
  free(A);
  free(B);
}

/* A file made with the plain HDF5 API the way other writers may do it (C strings, variable-length
 * strings, scalar dataspaces) holding a known function of (elem,k,j,i,var): the reader must accept
 * it and put every value at its hexdg position. */
static double known_value(long e, int k, int j, int i, int v) {
  return 10000.0 * (double)e + 1000.0 * k + 100.0 * j + 10.0 * i + v + 0.5;
}

static void write_c_string_attr(hid_t file, const char *name, const char *value, int vlen) {
  hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, vlen ? H5T_VARIABLE : strlen(value) + 1);
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t attr = H5Acreate2(file, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  assert_true(H5Awrite(attr, type, vlen ? (const void *)&value : (const void *)value) >= 0);
  H5Aclose(attr);
  H5Sclose(space);
  H5Tclose(type);
}

static void test_reads_file_from_another_writer(void **state) {
  Fixture *fx = *state;
  const int N = 2, n_var = 5;
  const long n_elems = 3;
  char path[300];
  path_in(fx, "other_writer.h5", path, sizeof path);
  hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  write_c_string_attr(file, "File_Type", "State", 1);
  write_c_string_attr(file, "Project_Name", "channel", 0);
  write_c_string_attr(file, "MeshFile", "channel_mesh.h5", 1);
  write_c_string_attr(file, "NodeType", "GAUSS", 0);
  hid_t scalar = H5Screate(H5S_SCALAR);
  hid_t attr = H5Acreate2(file, "N", H5T_STD_I64LE, scalar, H5P_DEFAULT, H5P_DEFAULT);
  long long N_attr = N;
  H5Awrite(attr, H5T_NATIVE_LLONG, &N_attr);
  H5Aclose(attr);
  attr = H5Acreate2(file, "Time", H5T_IEEE_F64LE, scalar, H5P_DEFAULT, H5P_DEFAULT);
  double t = 12.25;
  H5Awrite(attr, H5T_NATIVE_DOUBLE, &t);
  H5Aclose(attr);
  H5Sclose(scalar);
  hsize_t n_names = (hsize_t)n_var;
  hid_t names_space = H5Screate_simple(1, &n_names, NULL);
  hid_t names_type = H5Tcopy(H5T_C_S1);
  H5Tset_size(names_type, H5T_VARIABLE);
  attr = H5Acreate2(file, "VarNames", names_type, names_space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(attr, names_type, VAR_NAMES);
  H5Aclose(attr);
  H5Tclose(names_type);
  H5Sclose(names_space);

  hsize_t dims[5] = {(hsize_t)n_elems, N + 1, N + 1, N + 1, n_var};
  StateHeader h = make_header(N, n_var, n_elems);
  double *raw = malloc(n_values(&h) * sizeof(double));
  assert_non_null(raw);
  for (long e = 0; e < n_elems; ++e)
    for (int k = 0; k <= N; ++k)
      for (int j = 0; j <= N; ++j)
        for (int i = 0; i <= N; ++i)
          for (int v = 0; v < n_var; ++v)
            raw[flexi_index(&h, e, k, j, i, v)] = known_value(e, k, j, i, v);
  hid_t space = H5Screate_simple(5, dims, NULL);
  hid_t dset =
      H5Dcreate2(file, "DG_Solution", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  assert_true(H5Dwrite(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw) >= 0);
  H5Dclose(dset);
  H5Sclose(space);
  H5Fclose(file);

  StateHeader r;
  assert_int_equal(state_read_header(path, &r), HX_OK);
  assert_string_equal(r.project_name, "channel");
  assert_string_equal(r.mesh_file, "channel_mesh.h5");
  assert_string_equal(r.node_type, "GAUSS");
  assert_int_equal(r.N, N);
  assert_int_equal(r.n_var, n_var);
  assert_int_equal(r.n_elems, n_elems);
  assert_true(r.time == 12.25);
  double *U = malloc(n_values(&h) * sizeof(double));
  assert_non_null(U);
  assert_int_equal(state_read(path, &r, U), HX_OK);
  for (long e = 0; e < n_elems; ++e)
    for (int k = 0; k <= N; ++k)
      for (int j = 0; j <= N; ++j)
        for (int i = 0; i <= N; ++i)
          for (int v = 0; v < n_var; ++v)
            assert_true(U[hexdg_index(&h, e, k, j, i, v)] == known_value(e, k, j, i, v));
  free(U);
  free(raw);
}

/* Root of the source tree, from this file's path as the compiler saw it (absolute under CMake,
 * relative to the repository root with a direct gcc call). */
static void source_root(char *buf, size_t len) {
  const char *self = __FILE__;
  const char *suffix = "tests/unit/test_state.c";
  size_t n = strlen(self) >= strlen(suffix) ? strlen(self) - strlen(suffix) : 0;
  if (n == 0) {
    snprintf(buf, len, ".");
    return;
  }
  snprintf(buf, len, "%.*s", (int)(n - 1), self);
}

static void test_read_state_py_prints_header(void **state) {
  Fixture *fx = *state;
  char root[512], tool[600];
  source_root(root, sizeof root);
  snprintf(tool, sizeof tool, "%s/tools/read_state.py", root);
  if (access("/usr/bin/python3", X_OK) != 0 || !file_exists(tool) ||
      system("/usr/bin/python3 -c 'import numpy, h5py' >/dev/null 2>&1") != 0) {
    skip();
  }
  StateHeader h = make_header(4, 5, 3);
  char path[300], out[300], cmd[1400];
  path_in(fx, "py.h5", path, sizeof path);
  path_in(fx, "py.txt", out, sizeof out);
  free(write_random_state(path, &h, 9));
  snprintf(cmd, sizeof cmd, "/usr/bin/python3 '%s' '%s' --stats > '%s' 2>&1", tool, path, out);
  int rc = system(cmd);
  FILE *f = fopen(out, "rb");
  assert_non_null(f);
  char text[8192] = {0};
  size_t got = fread(text, 1, sizeof text - 1, f);
  text[got] = '\0';
  fclose(f);
  if (rc != 0) fail_msg("read_state.py failed:\n%s", text);
  assert_contains(text, "File_Type");
  assert_contains(text, "State");
  assert_contains(text, "EnergyStagnationDensity");
  assert_contains(text, "string[255]");
  assert_contains(text, "(3, 5, 5, 5, 5)");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_file_name_matches_flexi_timestamp),
      cmocka_unit_test(test_round_trip_is_bitwise),
      cmocka_unit_test(test_file_holds_flexi_layout),
      cmocka_unit_test(test_header_round_trip_and_flexi_attribute_types),
      cmocka_unit_test(test_mismatch_errors_name_attribute_found_and_expected),
      cmocka_unit_test(test_missing_foreign_and_inconsistent_files_give_errors),
      cmocka_unit_test(test_truncated_file_gives_error_not_crash),
      cmocka_unit_test(test_overwrite_is_atomic_and_leaves_no_tmp),
      cmocka_unit_test(test_reads_file_from_another_writer),
      cmocka_unit_test(test_read_state_py_prints_header),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
