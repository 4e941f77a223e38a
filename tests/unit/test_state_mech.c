/* State files of reacting runs: the mechanism travels with the file (Mechanism, MechanismHash)
 * and a restart under another mechanism is refused with a message that says what to do; several
 * element-wise datasets (FV_alpha, ElemCost, ...) are written beside DG_Solution and read back. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, dup2 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5.h>

#include "core/error.h"
#include "io/state.h"
#include "state_test_util.h"

enum { MAX_VARS = 16 };

/* 5 conservative variables, then one partial density per species. */
static const char *const VAR_NAMES[MAX_VARS] = {
    "Density",    "MomentumX",  "MomentumY",   "MomentumZ", "EnergyStagnationDensity",
    "DensityH2",  "DensityH",   "DensityO",    "DensityO2", "DensityOH",
    "DensityH2O", "DensityHO2", "DensityH2O2", "DensityAR", "DensityN2",
    "DensityHE"};

static const char *const H2O2_PATH = "mechanisms/h2o2.yaml";
static const char *const H2O2_HASH = "0123456789abcdef";
static const char *const GRI_PATH = "mechanisms/gri30.yaml";
static const char *const GRI_HASH = "fedcba9876543210";

/* ------------------------------------------------------------------------------------------- */
/* helpers */

static StateHeader air_header(int N, int n_var, long n_elems) {
  StateHeader h;
  memset(&h, 0, sizeof h);
  strcpy(h.project_name, "flame");
  strcpy(h.mesh_file, "meshes/box_mesh.h5");
  strcpy(h.node_type, "GAUSS");
  h.N = N;
  h.n_var = n_var;
  h.n_elems = n_elems;
  h.time = 0.1 + 0.2;
  return h;
}

static StateHeader reacting_header(int N, int n_var, long n_elems, const char *mechanism,
                                   const char *hash) {
  StateHeader h = air_header(N, n_var, n_elems);
  snprintf(h.mechanism, sizeof h.mechanism, "%s", mechanism);
  snprintf(h.mechanism_hash, sizeof h.mechanism_hash, "%s", hash);
  return h;
}

/* Distinct, not exactly representable values: a round trip that alters a bit shows. */
static void fill_values(double *v, size_t n, double seed) {
  for (size_t m = 0; m < n; ++m)
    v[m] = seed + 0.1 * (double)m + 1.0 / (3.0 + (double)m);
}

static double *write_state(const char *path, const StateHeader *h) {
  double *U = malloc(n_values(h) * sizeof(double));
  assert_non_null(U);
  fill_values(U, n_values(h), (double)h->n_var);
  assert_int_equal(state_write(path, h, VAR_NAMES, U), HX_OK);
  return U;
}

static void assert_lacks(const char *text, const char *part) {
  if (strstr(text, part)) fail_msg("message \"%s\" should not contain \"%s\"", text, part);
}

/* state_read of path under `expected` fails with HX_ERR_INPUT, leaves the caller's array as it
 * was, and prints a message containing every entry of parts (NULL-terminated). */
static char *expect_refused_read(const Fixture *fx, const char *path, const StateHeader *expected,
                                 const char *const *parts) {
  size_t n = n_values(expected);
  double *V = malloc(n * sizeof(double)), *sentinel = malloc(n * sizeof(double));
  assert_non_null(V);
  assert_non_null(sentinel);
  memset(V, 0x3C, n * sizeof(double));
  memcpy(sentinel, V, n * sizeof(double));
  StderrCapture cap;
  capture_begin(&cap, fx);
  int rc = state_read(path, expected, V);
  char *msg = capture_end(&cap);
  assert_int_equal(rc, HX_ERR_INPUT);
  for (const char *const *p = parts; *p; ++p)
    assert_contains(msg, *p);
  assert_memory_equal(V, sentinel, n * sizeof(double));
  free(V);
  free(sentinel);
  return msg;
}

static void assert_reads_back(const char *path, const StateHeader *expected, const double *U) {
  double *V = malloc(n_values(expected) * sizeof(double));
  assert_non_null(V);
  assert_int_equal(state_read(path, expected, V), HX_OK);
  assert_memory_equal(U, V, n_values(expected) * sizeof(double));
  free(V);
}

/* The Fortran string attribute `name` (blank-padded, sized to its text, 1-D of length 1). */
static void read_fortran_string_attr(hid_t file, const char *name, char *out, size_t out_len) {
  hid_t attr = H5Aopen(file, name, H5P_DEFAULT);
  assert_true(attr >= 0);
  hid_t type = H5Aget_type(attr);
  hid_t space = H5Aget_space(attr);
  assert_int_equal(H5Tget_class(type), H5T_STRING);
  assert_int_equal(H5Tget_strpad(type), H5T_STR_SPACEPAD);
  assert_int_equal(H5Tis_variable_str(type), 0);
  assert_int_equal(H5Sget_simple_extent_ndims(space), 1);
  assert_int_equal(H5Sget_simple_extent_npoints(space), 1);
  size_t size = H5Tget_size(type);
  assert_true(size < out_len);
  memset(out, 0, out_len);
  assert_true(H5Aread(attr, type, out) >= 0);
  H5Sclose(space);
  H5Tclose(type);
  H5Aclose(attr);
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

/* ------------------------------------------------------------------------------------------- */
/* fixture: one temporary directory per run */

static int setup(void **state) { return state_fixture_setup(state, "hexdg_test_state_mech"); }

/* ------------------------------------------------------------------------------------------- */
/* mechanism attributes */

static void test_mechanism_attributes_round_trip(void **state) {
  Fixture *fx = *state;
  StateHeader h = reacting_header(2, 14, 3, H2O2_PATH, H2O2_HASH);
  char path[300];
  path_in(fx, "mech.h5", path, sizeof path);
  double *U = write_state(path, &h);

  StateHeader r;
  memset(&r, 0x5A, sizeof r);
  assert_int_equal(state_read_header(path, &r), HX_OK);
  assert_string_equal(r.mechanism, H2O2_PATH);
  assert_string_equal(r.mechanism_hash, H2O2_HASH);
  assert_int_equal(r.n_var, 14);
  assert_null(r.elem_data_name);
  assert_int_equal(r.n_elem_extra, 0);
  assert_reads_back(path, &h, U);

  /* FLEXI's string convention, as for every other string attribute */
  char text[STATE_MAX_STRING + 1];
  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  assert_true(file >= 0);
  read_fortran_string_attr(file, "Mechanism", text, sizeof text);
  assert_string_equal(text, H2O2_PATH);
  read_fortran_string_attr(file, "MechanismHash", text, sizeof text);
  assert_string_equal(text, H2O2_HASH);
  H5Fclose(file);
  free(U);
}

/* Air files stay as they were before reacting flow: no mechanism attributes at all. */
static void test_air_file_has_no_mechanism_attributes(void **state) {
  Fixture *fx = *state;
  StateHeader h = air_header(2, 5, 3);
  char path[300];
  path_in(fx, "air.h5", path, sizeof path);
  free(write_state(path, &h));
  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  assert_true(file >= 0);
  assert_int_equal(H5Aexists(file, "Mechanism"), 0);
  assert_int_equal(H5Aexists(file, "MechanismHash"), 0);
  H5Fclose(file);
  StateHeader r;
  memset(&r, 0x5A, sizeof r);
  assert_int_equal(state_read_header(path, &r), HX_OK);
  assert_string_equal(r.mechanism, "");
  assert_string_equal(r.mechanism_hash, "");
}

/* A path beyond FLEXI's 255 characters keeps its end (the file name) and still restarts. */
static void test_long_mechanism_path_keeps_its_end(void **state) {
  Fixture *fx = *state;
  char long_path[700];
  memset(long_path, 'd', 600);
  for (int c = 50; c < 600; c += 50)
    long_path[c] = '/';
  strcpy(long_path + 600, "/h2o2_reduced.yaml");
  StateHeader h = reacting_header(1, 14, 2, long_path, H2O2_HASH);
  char path[300];
  path_in(fx, "long_mech.h5", path, sizeof path);
  double *U = write_state(path, &h);

  StateHeader r;
  assert_int_equal(state_read_header(path, &r), HX_OK);
  assert_int_equal(strlen(r.mechanism), STATE_MAX_STRING);
  assert_memory_equal(r.mechanism, "...", 3);
  size_t len = strlen(long_path);
  assert_string_equal(r.mechanism + 3, long_path + len - (STATE_MAX_STRING - 3));
  assert_string_equal(r.mechanism_hash, H2O2_HASH);
  assert_reads_back(path, &h, U); /* the hash decides, not the (shortened) path */
  free(U);
}

/* ------------------------------------------------------------------------------------------- */
/* restarts across mechanisms */

static void test_restart_with_other_mechanism_hash_fails(void **state) {
  Fixture *fx = *state;
  StateHeader h = reacting_header(2, 14, 3, H2O2_PATH, H2O2_HASH);
  char path[300];
  path_in(fx, "h2o2.h5", path, sizeof path);
  free(write_state(path, &h));
  /* the same number of variables: only the mechanism check can refuse it */
  StateHeader run = reacting_header(2, 14, 3, GRI_PATH, GRI_HASH);
  const char *parts[] = {path,     H2O2_PATH,   H2O2_HASH,           GRI_PATH,
                         GRI_HASH, "mechanism", "initial condition", NULL};
  free(expect_refused_read(fx, path, &run, parts));
  /* the same path with an edited file (another hash) is another mechanism too */
  StateHeader edited = reacting_header(2, 14, 3, H2O2_PATH, "0123456789abcdee");
  const char *edited_parts[] = {path, "0123456789abcdee", H2O2_HASH, NULL};
  free(expect_refused_read(fx, path, &edited, edited_parts));
}

/* An air file under a reacting run: refused for the mechanism, before the variable count (which
 * differs too) is compared. */
static void test_air_file_read_by_reacting_run_fails(void **state) {
  Fixture *fx = *state;
  StateHeader h = air_header(2, 5, 3);
  char path[300];
  path_in(fx, "air_restart.h5", path, sizeof path);
  free(write_state(path, &h));
  StateHeader run = reacting_header(2, 14, 3, H2O2_PATH, H2O2_HASH);
  const char *parts[] = {path,      "no mechanism (air)", H2O2_PATH,
                         H2O2_HASH, "initial condition",  NULL};
  char *msg = expect_refused_read(fx, path, &run, parts);
  assert_lacks(msg, "VarNames");
  free(msg);
}

static void test_reacting_file_read_by_air_run_fails(void **state) {
  Fixture *fx = *state;
  StateHeader h = reacting_header(2, 14, 3, H2O2_PATH, H2O2_HASH);
  char path[300];
  path_in(fx, "reacting_restart.h5", path, sizeof path);
  free(write_state(path, &h));
  StateHeader run = air_header(2, 5, 3);
  const char *parts[] = {path, H2O2_PATH, H2O2_HASH, "no mechanism (air)", NULL};
  char *msg = expect_refused_read(fx, path, &run, parts);
  assert_lacks(msg, "VarNames");
  free(msg);
}

static void test_air_and_same_mechanism_restarts_work(void **state) {
  Fixture *fx = *state;
  char path[300];
  path_in(fx, "air_air.h5", path, sizeof path);
  StateHeader air = air_header(3, 5, 4);
  double *U = write_state(path, &air);
  assert_reads_back(path, &air, U);
  free(U);

  /* the mechanism file moved (another path, the same hash): still the same mechanism */
  path_in(fx, "same_mech.h5", path, sizeof path);
  StateHeader h = reacting_header(3, 14, 4, H2O2_PATH, H2O2_HASH);
  U = write_state(path, &h);
  StateHeader moved = reacting_header(3, 14, 4, "/elsewhere/h2o2.yaml", H2O2_HASH);
  assert_reads_back(path, &moved, U);
  StateHeader upper = reacting_header(3, 14, 4, H2O2_PATH, "0123456789ABCDEF"); /* hex: any case */
  assert_reads_back(path, &upper, U);
  free(U);
}

/* MPI runs read their part through state_read_part: the same check applies. */
static void test_part_read_checks_mechanism(void **state) {
  Fixture *fx = *state;
  StateHeader h = reacting_header(1, 14, 6, H2O2_PATH, H2O2_HASH);
  char path[300];
  path_in(fx, "part_mech.h5", path, sizeof path);
  free(write_state(path, &h));
  const long ids[] = {2, 3, 5};
  StateHeader part_h = h;
  part_h.n_elems = 3; /* sizes the caller's array */
  size_t n = n_values(&part_h);
  double *V = malloc(n * sizeof(double));
  assert_non_null(V);
  assert_int_equal(state_read_part(path, &h, V, 3, ids), HX_OK);
  StateHeader run = reacting_header(1, 14, 6, GRI_PATH, GRI_HASH);
  StderrCapture cap;
  capture_begin(&cap, fx);
  int rc = state_read_part(path, &run, V, 3, ids);
  char *msg = capture_end(&cap);
  assert_int_equal(rc, HX_ERR_INPUT);
  assert_contains(msg, GRI_HASH);
  assert_contains(msg, H2O2_HASH);
  free(msg);
  free(V);
}

/* ------------------------------------------------------------------------------------------- */
/* element-wise datasets */

static void test_element_datasets_round_trip(void **state) {
  Fixture *fx = *state;
  enum { N_ELEMS = 5 };
  double alpha[N_ELEMS], cost[N_ELEMS], weight[N_ELEMS], out[N_ELEMS];
  fill_values(alpha, N_ELEMS, 0.25);
  fill_values(cost, N_ELEMS, 1234.0);
  fill_values(weight, N_ELEMS, -7.0);
  StateHeader h = reacting_header(2, 14, N_ELEMS, H2O2_PATH, H2O2_HASH);
  h.elem_data_name = "FV_alpha";
  h.elem_data = alpha;
  h.n_elem_extra = 2;
  h.elem_extra_names[0] = "ElemCost";
  h.elem_extra[0] = cost;
  h.elem_extra_names[1] = "ElemWeight";
  h.elem_extra[1] = weight;
  char path[300];
  path_in(fx, "elem_data.h5", path, sizeof path);
  double *U = write_state(path, &h);
  assert_reads_back(path, &h, U);

  const char *names[] = {"FV_alpha", "ElemCost", "ElemWeight"};
  const double *expected[] = {alpha, cost, weight};
  for (int d = 0; d < 3; ++d) {
    int found = -1;
    memset(out, 0, sizeof out);
    assert_int_equal(state_read_elem_data(path, names[d], N_ELEMS, out, &found), HX_OK);
    assert_int_equal(found, 1);
    assert_memory_equal(out, expected[d], sizeof out);
  }
  /* an absent dataset is no error; one read with the wrong element count is */
  int found = -1;
  assert_int_equal(state_read_elem_data(path, "Temperature", N_ELEMS, out, &found), HX_OK);
  assert_int_equal(found, 0);
  StderrCapture cap;
  capture_begin(&cap, fx);
  int rc = state_read_elem_data(path, "ElemCost", N_ELEMS + 1, out, &found);
  free(capture_end(&cap));
  assert_int_not_equal(rc, HX_OK);
  assert_int_equal(found, 0);

  /* extras alone, without the old single dataset */
  h.elem_data_name = NULL;
  h.elem_data = NULL;
  h.n_elem_extra = 1;
  assert_int_equal(state_write(path, &h, VAR_NAMES, U), HX_OK);
  assert_int_equal(state_read_elem_data(path, "FV_alpha", N_ELEMS, out, &found), HX_OK);
  assert_int_equal(found, 0);
  assert_int_equal(state_read_elem_data(path, "ElemCost", N_ELEMS, out, &found), HX_OK);
  assert_int_equal(found, 1);
  assert_memory_equal(out, cost, sizeof out);
  free(U);
}

/* A rank's part lands at its global ids in every element dataset (one rank, a subset of ids:
 * the elements of no rank keep HDF5's fill value 0). */
static void test_part_write_places_element_datasets_at_global_ids(void **state) {
  Fixture *fx = *state;
  enum { N_ELEMS = 7, N_LOCAL = 4 };
  const long ids[N_LOCAL] = {2, 3, 5, 6};
  double alpha[N_LOCAL], cost[N_LOCAL], out[N_ELEMS];
  fill_values(alpha, N_LOCAL, 0.5);
  fill_values(cost, N_LOCAL, 99.0);
  StateHeader h = reacting_header(1, 14, N_ELEMS, H2O2_PATH, H2O2_HASH);
  h.elem_data_name = "FV_alpha";
  h.elem_data = alpha;
  h.n_elem_extra = 1;
  h.elem_extra_names[0] = "ElemCost";
  h.elem_extra[0] = cost;
  StateHeader local = h;
  local.n_elems = N_LOCAL;
  double *U = malloc(n_values(&local) * sizeof(double));
  double *V = malloc(n_values(&local) * sizeof(double));
  assert_non_null(U);
  assert_non_null(V);
  fill_values(U, n_values(&local), 3.0);
  char path[300];
  path_in(fx, "part.h5", path, sizeof path);
  assert_int_equal(state_write_part(path, &h, VAR_NAMES, U, N_LOCAL, ids), HX_OK);
  assert_int_equal(state_read_part(path, &h, V, N_LOCAL, ids), HX_OK);
  assert_memory_equal(U, V, n_values(&local) * sizeof(double));

  const char *names[] = {"FV_alpha", "ElemCost"};
  const double *local_values[] = {alpha, cost};
  for (int d = 0; d < 2; ++d) {
    int found = 0;
    assert_int_equal(state_read_elem_data(path, names[d], N_ELEMS, out, &found), HX_OK);
    assert_int_equal(found, 1);
    double want[N_ELEMS] = {0};
    for (int e = 0; e < N_LOCAL; ++e)
      want[ids[e] - 1] = local_values[d][e];
    assert_memory_equal(out, want, sizeof out);
  }
  free(U);
  free(V);
}

/* Header mistakes are the caller's bugs: refused before any file is created. */
static void test_invalid_mechanism_or_element_datasets_are_rejected(void **state) {
  Fixture *fx = *state;
  empty_dir(fx->dir);
  double values[3] = {1.0, 2.0, 3.0};
  StateHeader good = reacting_header(1, 14, 3, H2O2_PATH, H2O2_HASH);
  enum { N_BAD = 9 };
  StateHeader bad[N_BAD];
  for (int c = 0; c < N_BAD; ++c)
    bad[c] = good;
  strcpy(bad[0].mechanism_hash, "0123456789abcdeg"); /* not hexadecimal */
  strcpy(bad[1].mechanism_hash, "0123");             /* too short */
  bad[2].mechanism_hash[0] = '\0';                   /* a mechanism without its hash */
  bad[3].mechanism[0] = '\0';                        /* a hash without its mechanism */
  bad[4].n_elem_extra = STATE_MAX_ELEM_EXTRA + 1;
  bad[5].n_elem_extra = 1; /* a name without values */
  bad[5].elem_extra_names[0] = "ElemCost";
  bad[6].elem_data_name = "ElemCost"; /* the same name twice */
  bad[6].elem_data = values;
  bad[6].n_elem_extra = 1;
  bad[6].elem_extra_names[0] = "ElemCost";
  bad[6].elem_extra[0] = values;
  bad[7].n_elem_extra = 1; /* the solution's own name */
  bad[7].elem_extra_names[0] = "DG_Solution";
  bad[7].elem_extra[0] = values;
  bad[8].elem_data_name = ""; /* no name */
  bad[8].elem_data = values;
  char path[300];
  path_in(fx, "bad.h5", path, sizeof path);
  double *U = malloc(n_values(&good) * sizeof(double));
  assert_non_null(U);
  fill_values(U, n_values(&good), 1.0);
  for (int c = 0; c < N_BAD; ++c) {
    StderrCapture cap;
    capture_begin(&cap, fx);
    int rc = state_write(path, &bad[c], VAR_NAMES, U);
    char *msg = capture_end(&cap);
    assert_int_equal(rc, HX_ERR_INTERNAL);
    assert_contains(msg, "bad.h5");
    free(msg);
    assert_int_equal(count_dir_entries(fx), 0);
  }
  assert_int_equal(state_write(path, &good, VAR_NAMES, U), HX_OK);
  assert_true(file_exists(path));
  free(U);
}

/* ------------------------------------------------------------------------------------------- */
/* tools/read_state.py */

static void test_read_state_py_prints_mechanism_and_element_datasets(void **state) {
  Fixture *fx = *state;
  char tool[600];
  snprintf(tool, sizeof tool, "%s/tools/read_state.py", HEXDG_SOURCE_DIR);
  if (access("/usr/bin/python3", X_OK) != 0 || !file_exists(tool) ||
      system("/usr/bin/python3 -c 'import numpy, h5py' >/dev/null 2>&1") != 0) {
    skip();
  }
  double alpha[3] = {0.0, 0.5, 1.0}, cost[3] = {10.0, 20.0, 60.0};
  StateHeader h = reacting_header(1, 14, 3, H2O2_PATH, H2O2_HASH);
  h.elem_data_name = "FV_alpha";
  h.elem_data = alpha;
  h.n_elem_extra = 1;
  h.elem_extra_names[0] = "ElemCost";
  h.elem_extra[0] = cost;
  char path[300], out[300], cmd[1400];
  path_in(fx, "py_mech.h5", path, sizeof path);
  path_in(fx, "py_mech.txt", out, sizeof out);
  free(write_state(path, &h));
  snprintf(cmd, sizeof cmd, "/usr/bin/python3 '%s' '%s' > '%s' 2>&1", tool, path, out);
  int rc = system(cmd);
  FILE *f = fopen(out, "rb");
  assert_non_null(f);
  char text[8192] = {0};
  size_t got = fread(text, 1, sizeof text - 1, f);
  text[got] = '\0';
  fclose(f);
  if (rc != 0) fail_msg("read_state.py failed:\n%s", text);
  assert_contains(text, "mechanism: mechanisms/h2o2.yaml (MechanismHash 0123456789abcdef)");
  assert_contains(text, "element datasets:");
  assert_contains(text, "FV_alpha");
  assert_contains(text, "ElemCost");
  assert_contains(text, "6.000000000e+01"); /* ElemCost's largest value */

  /* an air file says so */
  StateHeader air = air_header(1, 5, 3);
  free(write_state(path, &air));
  rc = system(cmd);
  f = fopen(out, "rb");
  assert_non_null(f);
  got = fread(text, 1, sizeof text - 1, f);
  text[got] = '\0';
  fclose(f);
  if (rc != 0) fail_msg("read_state.py failed:\n%s", text);
  assert_contains(text, "mechanism: none (air)");
  assert_lacks(text, "element datasets:");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mechanism_attributes_round_trip),
      cmocka_unit_test(test_air_file_has_no_mechanism_attributes),
      cmocka_unit_test(test_long_mechanism_path_keeps_its_end),
      cmocka_unit_test(test_restart_with_other_mechanism_hash_fails),
      cmocka_unit_test(test_air_file_read_by_reacting_run_fails),
      cmocka_unit_test(test_reacting_file_read_by_air_run_fails),
      cmocka_unit_test(test_air_and_same_mechanism_restarts_work),
      cmocka_unit_test(test_part_read_checks_mechanism),
      cmocka_unit_test(test_element_datasets_round_trip),
      cmocka_unit_test(test_part_write_places_element_datasets_at_global_ids),
      cmocka_unit_test(test_invalid_mechanism_or_element_datasets_are_rejected),
      cmocka_unit_test(test_read_state_py_prints_mechanism_and_element_datasets),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
