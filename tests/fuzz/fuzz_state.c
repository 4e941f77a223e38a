/* Fuzz target: the state-file reader of restarts (src/io/state.c): header attributes, the shape of
 * DG_Solution, N, nVar, time, the optional element data and FieldData. The input encodes them; it
 * is written as an HDF5 state file, then read the way a restart reads it. Layout (little endian;
 * reads past the end give 0; tests/fuzz/make_seeds.py writes it from real state files):
 *   u16 flags    see enum Flag
 *   i32 N, f64 Time, u8 DG_Solution rank (0..6), u8 dims[5], u8 number of VarNames
 *   strings (length byte, bytes): File_Type, Project_Name, MeshFile, NodeType, Mechanism,
 *   MechanismHash, VarNames..., then u8 FV_alpha length, u8 FieldData dims[5], u8 number of
 *   VarNamesAddField and their strings; then f64 DG_Solution values, FV_alpha, FieldData */
#include <stdlib.h>

#include "fuzz_common.h"
#include "fuzz_h5.h"
#include "io/state.h"

enum Flag {
  OMIT_FILE_TYPE,
  OMIT_PROJECT,
  OMIT_MESHFILE,
  OMIT_NODETYPE,
  OMIT_N,
  N_AS_DOUBLE,
  OMIT_TIME,
  OMIT_VARNAMES,
  OMIT_SOLUTION,
  VLEN_STRINGS,
  MECHANISM,
  FV_ALPHA,
  FIELD_DATA,
  SOLUTION_AS_INT,
  TIME_AS_INT,
  N_TWICE
};

#define MAX_NAMES 16
#define MAX_VALUES 65536

typedef struct {
  unsigned flags;
  int32_t N;
  double time;
  int rank;
  hsize_t dims[5], field_dims[5], n_alpha;
  int n_var_names, n_field_names;
  char text[6][41]; /* File_Type, Project_Name, MeshFile, NodeType, Mechanism, MechanismHash */
  char var_names[MAX_NAMES][17], field_names[MAX_NAMES][17];
} StateLayout;

static int flag(const StateLayout *l, enum Flag f) {
  return (int)(l->flags >> f & 1);
}

static size_t count_of(int rank, const hsize_t *dims) {
  size_t n = 1;
  for (int d = 0; d < rank; d++)
    n *= (size_t)dims[d];
  return n;
}

/* n values from the input, zeros past its end (n is capped by the dims' ranges). */
static double *read_values(FuzzReader *r, size_t n) {
  double *v = calloc(n ? n : 1, sizeof *v);
  for (size_t i = 0; i < n && i < MAX_VALUES; i++)
    v[i] = fuzz_f64(r);
  return v;
}

static void decode_layout(FuzzReader *r, StateLayout *l) {
  l->flags = fuzz_u16(r);
  l->N = fuzz_i32(r);
  l->time = fuzz_f64(r);
  l->rank = fuzz_u8(r) % 7;
  l->dims[0] = fuzz_u8(r) % 17;
  for (int d = 1; d < 4; d++)
    l->dims[d] = fuzz_u8(r) % 7;
  l->dims[4] = fuzz_u8(r) % 12;
  l->n_var_names = fuzz_u8(r) % MAX_NAMES;
  for (int s = 0; s < 6; s++)
    fuzz_string(r, l->text[s], 40);
  for (int v = 0; v < l->n_var_names; v++)
    fuzz_string(r, l->var_names[v], 16);
  l->n_alpha = fuzz_u8(r) % 17;
  for (int d = 0; d < 5; d++)
    l->field_dims[d] = fuzz_u8(r) % (d == 0 ? 17 : 7);
  l->n_field_names = fuzz_u8(r) % MAX_NAMES;
  for (int v = 0; v < l->n_field_names; v++)
    fuzz_string(r, l->field_names[v], 16);
}

static void write_strings(hid_t file, const char *name, char (*list)[17], int n, int vlen) {
  const char *ptr[MAX_NAMES];
  for (int v = 0; v < n; v++)
    ptr[v] = list[v];
  fuzz_h5_string_attr(file, name, ptr, (hsize_t)n, vlen);
}

static void write_header(hid_t file, const StateLayout *l) {
  static const char *const names[6] = {"File_Type", "Project_Name", "MeshFile",
                                       "NodeType",  "Mechanism",    "MechanismHash"};
  const int vlen = flag(l, VLEN_STRINGS);
  for (int s = 0; s < 6; s++) {
    if (s < 4 && flag(l, (enum Flag)s)) continue; /* OMIT_FILE_TYPE..OMIT_NODETYPE */
    if (s >= 4 && !flag(l, MECHANISM)) continue;
    const char *value = l->text[s];
    fuzz_h5_string_attr(file, names[s], &value, 1, vlen);
  }
  double n_real = l->N;
  int32_t n_two[2] = {l->N, l->N};
  int32_t time_int = (int32_t)l->N;
  if (!flag(l, OMIT_N)) {
    if (flag(l, N_AS_DOUBLE))
      fuzz_h5_attr(file, "N", H5T_NATIVE_DOUBLE, 1, &n_real);
    else
      fuzz_h5_attr(file, "N", H5T_NATIVE_INT32, flag(l, N_TWICE) ? 2 : 1, n_two);
  }
  if (!flag(l, OMIT_TIME)) {
    if (flag(l, TIME_AS_INT))
      fuzz_h5_attr(file, "Time", H5T_NATIVE_INT32, 1, &time_int);
    else
      fuzz_h5_attr(file, "Time", H5T_NATIVE_DOUBLE, 1, &l->time);
  }
  if (!flag(l, OMIT_VARNAMES))
    write_strings(file, "VarNames", (char(*)[17])l->var_names, l->n_var_names, vlen);
}

static void write_state(const char *path, FuzzReader *r) {
  StateLayout l;
  memset(&l, 0, sizeof l);
  decode_layout(r, &l);
  double *u = read_values(r, count_of(l.rank < 6 ? l.rank : 5, l.dims));
  double *alpha = read_values(r, (size_t)l.n_alpha);
  double *field = read_values(r, count_of(5, l.field_dims));
  hid_t file = fuzz_h5_create(path);
  write_header(file, &l);
  if (!flag(&l, OMIT_SOLUTION) && l.rank > 0) {
    hsize_t dims[6] = {l.dims[0], l.dims[1], l.dims[2], l.dims[3], l.dims[4], 2};
    if (flag(&l, SOLUTION_AS_INT)) {
      int *ui = calloc(count_of(l.rank, dims) + 1, sizeof *ui);
      fuzz_h5_dataset(file, "DG_Solution", H5T_NATIVE_INT, l.rank, dims, ui);
      free(ui);
    } else {
      double *u6 = calloc(count_of(l.rank, dims) + 1, sizeof *u6);
      memcpy(u6, u, count_of(l.rank < 6 ? l.rank : 5, dims) * sizeof *u);
      fuzz_h5_dataset(file, "DG_Solution", H5T_NATIVE_DOUBLE, l.rank, dims, u6);
      free(u6);
    }
  }
  if (flag(&l, FV_ALPHA))
    fuzz_h5_dataset(file, "FV_alpha", H5T_NATIVE_DOUBLE, 1, &l.n_alpha, alpha);
  if (flag(&l, FIELD_DATA)) {
    write_strings(file, "VarNamesAddField", l.field_names, l.n_field_names, flag(&l, VLEN_STRINGS));
    fuzz_h5_dataset(file, "FieldData", H5T_NATIVE_DOUBLE, 5, l.field_dims, field);
  }
  if (file >= 0) H5Fclose(file);
  free(u);
  free(alpha);
  free(field);
}

/* What a restart reads: the header, then the solution for a run of the file's N and nVar (within
 * the ranges a run can have), the element data and a node-wise field. */
static int read_state(const char *path) {
  StateHeader h;
  int rc = state_read_header(path, &h);
  if (rc != 0) return rc;
  StateHeader expected = h;
  if (expected.N < 1 || expected.N > 16) expected.N = 1;
  if (expected.n_var < 1 || expected.n_var > 64) expected.n_var = 5;
  size_t n_nodes = (size_t)(expected.N + 1) * (expected.N + 1) * (expected.N + 1);
  size_t n_u = (size_t)h.n_elems * n_nodes * (size_t)expected.n_var;
  if (h.n_elems < 1 || n_u > (1u << 22)) return 0;
  double *u = malloc(n_u * sizeof *u);
  double *alpha = malloc((size_t)h.n_elems * sizeof *alpha);
  double *field = malloc((size_t)h.n_elems * n_nodes * sizeof *field);
  int found = 0;
  rc = state_read(path, &expected, u);
  rc |= state_read_elem_data(path, "FV_alpha", h.n_elems, alpha, &found);
  rc |=
      state_read_field(path, "MaxPressure", expected.N, h.n_elems, h.n_elems, NULL, field, &found);
  free(u);
  free(alpha);
  free(field);
  return rc;
}

int fuzz_reader_rc;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_temp_path("h5");
  FuzzReader r = {data, size, 0};
  write_state(path, &r);
  fuzz_reader_rc = read_state(path);
  remove(path);
  return 0;
}
