/* State-file I/O in FLEXI's HDF5 layout. The layout (dataset and attribute names, shapes, types,
 * string padding) follows FLEXI's src/io_hdf5/hdf5_output.f90 (GenerateFileSkeleton, WriteHeader,
 * WriteAttribute, MarkWriteSuccessfull) and hdf5_input.f90 (how FLEXI reads them back); see
 * docs/formats.md. */
#define _POSIX_C_SOURCE 200809L /* fsync, open, localtime_r, gmtime_r */

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h> /* strncasecmp */
#include <time.h>
#include <unistd.h>

#include <hdf5.h>

#include "core/error.h"
#include "io/state.h"
#include "parallel/parallel.h"

#if defined(HEXDG_HAVE_MPI) && defined(H5_HAVE_PARALLEL)
#define STATE_MPIO 1 /* one shared file written through MPI-IO */
#endif

/* This rank's elements of a file shared by all ranks: global ids (1-based, ascending) of the
 * n_local elements of U; collective: the file is opened by every rank through MPI-IO. NULL: the
 * whole U, one process. */
typedef struct {
  long n_local;
  const long *global_id;
  int collective;
} StatePart;

/* FLEXI writes VarNames as CHARACTER(LEN=255) and reads them back into CHARACTER(LEN=255) with the
 * file's type, so each name must occupy exactly 255 bytes. */
#define VAR_NAME_BYTES 255

/* Element blocks of about this many doubles are transposed and written per HDF5 call, so the
 * extra host memory stays small while the number of calls stays low. */
#define BLOCK_DOUBLES ((size_t)1 << 20)

/* Values FLEXI writes into its header (src/output/output_vars.f90: FileVersion = 0.1). */
static const double FLEXI_FILE_VERSION = 0.1;
static const char *const PROGRAM_NAME = "hexdg";
static const int SPATIAL_DIMENSION = 3;

static const char *const DATASET_NAME = "DG_Solution";
static const char *const FIELD_DATASET_NAME = "FieldData";

/* ---------------------------------------------------------------------------------------------
 * HDF5 error printing: HDF5 prints its own error stack to stderr by default; hexdg reports the
 * errors itself with file context, so printing is switched off for the duration of each call. */

typedef struct {
  H5E_auto2_t func;
  void *client_data;
} Hdf5ErrorPrinting;

static Hdf5ErrorPrinting hdf5_errors_silence(void) {
  Hdf5ErrorPrinting saved = {NULL, NULL};
  H5Eget_auto2(H5E_DEFAULT, &saved.func, &saved.client_data);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  return saved;
}

static void hdf5_errors_restore(Hdf5ErrorPrinting saved) {
  H5Eset_auto2(H5E_DEFAULT, saved.func, saved.client_data);
}

/* ---------------------------------------------------------------------------------------------
 * Layout conversion. Both layouts store the (N+1)^3 nodes of an element with i fastest, so the
 * node index p = (k*(N+1)+j)*(N+1)+i is the same in both; only the position of var changes. */

static size_t nodes_per_elem(int N) {
  return (size_t)(N + 1) * (size_t)(N + 1) * (size_t)(N + 1);
}

/* hexdg U[e][v][p] -> FLEXI out[e][p][v] for n_blk elements. */
static void hexdg_to_flexi(const double *U, double *out, long n_blk, int n_var, size_t n_nodes) {
  for (long e = 0; e < n_blk; ++e) {
    const double *src = U + (size_t)e * (size_t)n_var * n_nodes;
    double *dst = out + (size_t)e * (size_t)n_var * n_nodes;
    for (int v = 0; v < n_var; ++v)
      for (size_t p = 0; p < n_nodes; ++p)
        dst[p * (size_t)n_var + (size_t)v] = src[(size_t)v * n_nodes + p];
  }
}

/* FLEXI in[e][p][v] -> hexdg U[e][v][p] for n_blk elements. */
static void flexi_to_hexdg(const double *in, double *U, long n_blk, int n_var, size_t n_nodes) {
  for (long e = 0; e < n_blk; ++e) {
    const double *src = in + (size_t)e * (size_t)n_var * n_nodes;
    double *dst = U + (size_t)e * (size_t)n_var * n_nodes;
    for (int v = 0; v < n_var; ++v)
      for (size_t p = 0; p < n_nodes; ++p)
        dst[(size_t)v * n_nodes + p] = src[p * (size_t)n_var + (size_t)v];
  }
}

static long elems_per_block(int n_var, size_t n_nodes) {
  size_t per_elem = (size_t)n_var * n_nodes;
  size_t n = BLOCK_DOUBLES / per_elem;
  return n > 0 ? (long)n : 1;
}

/* Select elements [first, first+count) of the 5-D dataset space (elements are the slowest dim). */
static herr_t select_elem_block(hid_t space, const hsize_t dims[5], long first, long count) {
  hsize_t start[5] = {(hsize_t)first, 0, 0, 0, 0};
  hsize_t extent[5] = {(hsize_t)count, dims[1], dims[2], dims[3], dims[4]};
  return H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, extent, NULL);
}

/* ---------------------------------------------------------------------------------------------
 * Writing */

/* FLEXI's string attributes are Fortran strings: ASCII, blank-padded (H5T_FORTRAN_S1, i.e.
 * H5T_STR_SPACEPAD), stored as a 1-D dataspace of length n (n = 1 for a scalar). */
static int write_fortran_strings(hid_t loc, const char *name, const char *padded, size_t size,
                                 hsize_t n, const char *path) {
  int rc = HX_OK;
  hid_t type = H5Tcopy(H5T_FORTRAN_S1);
  hid_t space = H5Screate_simple(1, &n, NULL);
  hid_t attr = -1;
  if (type < 0 || space < 0 || H5Tset_size(type, size) < 0 ||
      H5Tset_strpad(type, H5T_STR_SPACEPAD) < 0)
    rc = HX_ERROR(HX_ERR_INTERNAL,
                  "state file '%s': cannot build the string type of attribute '%s'", path, name);
  if (rc == HX_OK) attr = H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  if (rc == HX_OK && (attr < 0 || H5Awrite(attr, type, padded) < 0))
    rc = HX_ERROR(HX_ERR_IO,
                  "state file '%s': cannot write attribute '%s' (disk full or quota exceeded?)",
                  path, name);
  if (attr >= 0) H5Aclose(attr);
  if (space >= 0) H5Sclose(space);
  if (type >= 0) H5Tclose(type);
  return rc;
}

/* A scalar string attribute sized to its trimmed length, as FLEXI's WriteAttribute does
 * (AttrLen = LEN_TRIM); an empty string is written as one blank because HDF5 strings have size
 * >= 1. */
static int write_string_attr(hid_t loc, const char *name, const char *value, const char *path) {
  size_t len = strlen(value);
  return write_fortran_strings(loc, name, len > 0 ? value : " ", len > 0 ? len : 1, 1, path);
}

static int write_var_names_attr_named(hid_t loc, const char *attr, const char *const *var_names,
                                      int n_var, const char *path) {
  char *padded = hx_malloc((size_t)n_var * VAR_NAME_BYTES, "VarNames attribute buffer");
  HX_ALLOC_CHECK(padded);
  memset(padded, ' ', (size_t)n_var * VAR_NAME_BYTES);
  for (int v = 0; v < n_var; ++v)
    memcpy(padded + (size_t)v * VAR_NAME_BYTES, var_names[v], strlen(var_names[v]));
  int rc = write_fortran_strings(loc, attr, padded, VAR_NAME_BYTES, (hsize_t)n_var, path);
  free(padded);
  return rc;
}

static int write_var_names_attr(hid_t loc, const char *const *var_names, int n_var,
                                const char *path) {
  return write_var_names_attr_named(loc, "VarNames", var_names, n_var, path);
}

static int write_numeric_attr(hid_t loc, const char *name, hid_t type, hsize_t n,
                              const void *values, const char *path) {
  int rc = HX_OK;
  hid_t space = H5Screate_simple(1, &n, NULL);
  hid_t attr = space >= 0 ? H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT) : -1;
  if (attr < 0 || H5Awrite(attr, type, values) < 0)
    rc = HX_ERROR(HX_ERR_IO,
                  "state file '%s': cannot write attribute '%s' (disk full or quota exceeded?)",
                  path, name);
  if (attr >= 0) H5Aclose(attr);
  if (space >= 0) H5Sclose(space);
  return rc;
}

/* Reacting runs only (air files stay as before): Mechanism and MechanismHash. A path longer than
 * FLEXI's 255 characters keeps its end, the file name, behind a leading "...". */
static int write_mechanism_attrs(hid_t file, const StateHeader *h, const char *path) {
  if (h->mechanism[0] == '\0') return HX_OK;
  char shown[STATE_MAX_STRING + 1];
  size_t len = strlen(h->mechanism);
  if (len <= STATE_MAX_STRING) {
    memcpy(shown, h->mechanism, len + 1);
  } else {
    size_t keep = STATE_MAX_STRING - 3;
    memcpy(shown, "...", 3);
    memcpy(shown + 3, h->mechanism + len - keep, keep + 1);
  }
  HX_CHECK(write_string_attr(file, "Mechanism", shown, path));
  return write_string_attr(file, "MechanismHash", h->mechanism_hash, path);
}

/* What a file holds besides a state file's content: FLEXI's TimeAvg file (File_Type, AvgTime
 * and the node datasets Mean and MeanSquare, hdf5_output.f90 WriteTimeAverage). NULL: a state. */
typedef struct {
  const char *file_type;
  double avg_time;
  int n_sets;
  const StateNodeData *sets;
} FileExtras;

/* The attributes of FLEXI's WriteHeader and GenerateFileSkeleton, in the same order. */
static int write_header_attrs(hid_t file, const StateHeader *h, const char *const *var_names,
                              const FileExtras *x, const char *path) {
  HX_CHECK(write_string_attr(file, "Program", PROGRAM_NAME, path));
  HX_CHECK(write_string_attr(file, "File_Type", x ? x->file_type : "State", path));
  HX_CHECK(write_string_attr(file, "Project_Name", h->project_name, path));
  HX_CHECK(
      write_numeric_attr(file, "File_Version", H5T_NATIVE_DOUBLE, 1, &FLEXI_FILE_VERSION, path));
  HX_CHECK(write_numeric_attr(file, "N", H5T_NATIVE_INT, 1, &h->N, path));
  HX_CHECK(write_numeric_attr(file, "Dimension", H5T_NATIVE_INT, 1, &SPATIAL_DIMENSION, path));
  HX_CHECK(write_numeric_attr(file, "Time", H5T_NATIVE_DOUBLE, 1, &h->time, path));
  HX_CHECK(write_string_attr(file, "MeshFile", h->mesh_file, path));
  HX_CHECK(write_string_attr(file, "NodeType", h->node_type, path));
  HX_CHECK(write_var_names_attr(file, var_names, h->n_var, path));
  /* NComputation: the degree the solution was computed with; hexdg writes at that degree. */
  HX_CHECK(write_numeric_attr(file, "NComputation", H5T_NATIVE_INT, 1, &h->N, path));
  return write_mechanism_attrs(file, h, path);
}

/* The 8 values of Fortran's DATE_AND_TIME(VALUES=...): year, month, day, offset from UTC in
 * minutes, hour, minute, second, millisecond. */
static void wall_clock_values(int values[8]) {
  struct timespec now;
  if (timespec_get(&now, TIME_UTC) != TIME_UTC) {
    now.tv_sec = time(NULL);
    now.tv_nsec = 0;
  }
  struct tm local, utc;
  localtime_r(&now.tv_sec, &local);
  gmtime_r(&now.tv_sec, &utc);
  /* mktime reads the UTC fields as local time; the difference is the local offset from UTC. */
  utc.tm_isdst = local.tm_isdst;
  long utc_offset_s = (long)difftime(now.tv_sec, mktime(&utc));
  values[0] = local.tm_year + 1900;
  values[1] = local.tm_mon + 1;
  values[2] = local.tm_mday;
  values[3] = (int)(utc_offset_s / 60);
  values[4] = local.tm_hour;
  values[5] = local.tm_min;
  values[6] = local.tm_sec;
  values[7] = (int)(now.tv_nsec / 1000000);
}

/* FLEXI adds the attribute TIME (wall-clock date) last, to mark that the write completed. */
static int write_completion_mark(hid_t file, const char *path) {
  int values[8];
  wall_clock_values(values);
  par_bcast_int(values, 8, 0);
  return write_numeric_attr(file, "TIME", H5T_NATIVE_INT, 8, values, path);
}

/* A node-wise dataset of FLEXI's layout (nElems, N+1, N+1, N+1, n_var): DG_Solution, FieldData. */
typedef struct {
  const char *name;
  int n_var;
  const double *values; /* hexdg layout [elem][var][k][j][i] */
} NodeDataset;

static int write_elem_blocks(hid_t dset, hid_t file_space, const hsize_t dims[5],
                             const StateHeader *h, const NodeDataset *nd, const char *path) {
  const double *U = nd->values;
  size_t n_nodes = nodes_per_elem(h->N);
  size_t per_elem = (size_t)nd->n_var * n_nodes;
  long block = elems_per_block(nd->n_var, n_nodes);
  if (block > h->n_elems) block = h->n_elems;
  double *buf = hx_malloc((size_t)block * per_elem * sizeof(double), "state-file write buffer");
  HX_ALLOC_CHECK(buf);
  int rc = HX_OK;
  for (long first = 0; first < h->n_elems && rc == HX_OK; first += block) {
    long count = h->n_elems - first < block ? h->n_elems - first : block;
    hsize_t mem_dims = (hsize_t)count * per_elem;
    hid_t mem_space = H5Screate_simple(1, &mem_dims, NULL);
    hexdg_to_flexi(U + (size_t)first * per_elem, buf, count, nd->n_var, n_nodes);
    if (mem_space < 0 || select_elem_block(file_space, dims, first, count) < 0 ||
        H5Dwrite(dset, H5T_NATIVE_DOUBLE, mem_space, file_space, H5P_DEFAULT, buf) < 0)
      rc = HX_ERROR(HX_ERR_IO,
                    "state file '%s': cannot write %s elements %ld..%ld (disk full or quota "
                    "exceeded?)",
                    path, nd->name, first + 1, first + count);
    if (mem_space >= 0) H5Sclose(mem_space);
  }
  free(buf);
  return rc;
}

/* Select the elements of a part in the file space: one hyperslab per run of consecutive ids.
 * Elements are the first dimension; HDF5 reads only as many of dims as the space has (1 for an
 * element-wise dataset, 5 for DG_Solution). */
static herr_t select_part(hid_t space, const hsize_t dims[5], const StatePart *part) {
  herr_t st = H5Sselect_none(space);
  for (long e = 0; e < part->n_local && st >= 0;) {
    long run = 1;
    while (e + run < part->n_local && part->global_id[e + run] == part->global_id[e] + run)
      run++;
    hsize_t start[5] = {(hsize_t)(part->global_id[e] - 1), 0, 0, 0, 0};
    hsize_t extent[5] = {(hsize_t)run, dims[1], dims[2], dims[3], dims[4]};
    st = H5Sselect_hyperslab(space, H5S_SELECT_OR, start, NULL, extent, NULL);
    e += run;
  }
  return st;
}

/* Transfer of a part in one call (collective through MPI-IO when part->collective): HDF5 walks
 * the selection in file order, which is the order of the ascending ids in U. */
static hid_t part_transfer_plist(const StatePart *part) {
  hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
#ifdef STATE_MPIO
  if (dxpl >= 0 && part->collective) H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);
#else
  (void)part;
#endif
  return dxpl;
}

static int write_part(hid_t dset, hid_t file_space, const hsize_t dims[5], const StateHeader *h,
                      const NodeDataset *nd, const StatePart *part, const char *path) {
  size_t n_nodes = nodes_per_elem(h->N), per_elem = (size_t)nd->n_var * n_nodes;
  double *buf = hx_malloc((size_t)part->n_local * per_elem * sizeof(double), "state-file buffer");
  HX_ALLOC_CHECK(buf);
  hexdg_to_flexi(nd->values, buf, part->n_local, nd->n_var, n_nodes);
  hsize_t mem_dims = (hsize_t)part->n_local * per_elem;
  hid_t mem_space = H5Screate_simple(1, &mem_dims, NULL);
  hid_t dxpl = part_transfer_plist(part);
  int rc = HX_OK;
  if (mem_space < 0 || dxpl < 0 || select_part(file_space, dims, part) < 0 ||
      H5Dwrite(dset, H5T_NATIVE_DOUBLE, mem_space, file_space, dxpl, buf) < 0)
    rc = HX_ERROR(HX_ERR_IO,
                  "state file '%s': rank %d cannot write its %ld elements of %s (disk full or "
                  "quota exceeded?)",
                  path, par_rank(), part->n_local, nd->name);
  if (dxpl >= 0) H5Pclose(dxpl);
  if (mem_space >= 0) H5Sclose(mem_space);
  free(buf);
  return rc;
}

/* DG_Solution and FieldData: Fortran U(nVar,0:N,0:N,0:N,nElems) seen from C, i.e.
 * [elem][k][j][i][var]. */
static int write_node_dataset(hid_t file, const StateHeader *h, const NodeDataset *nd,
                              const StatePart *part, const char *path) {
  hsize_t np1 = (hsize_t)h->N + 1;
  hsize_t dims[5] = {(hsize_t)h->n_elems, np1, np1, np1, (hsize_t)nd->n_var};
  hid_t space = H5Screate_simple(5, dims, NULL);
  hid_t dset = space >= 0 ? H5Dcreate2(file, nd->name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT,
                                       H5P_DEFAULT, H5P_DEFAULT)
                          : -1;
  int rc = HX_OK;
  if (dset < 0)
    rc = HX_ERROR(HX_ERR_IO,
                  "state file '%s': cannot create dataset %s of %ld x %d^3 x %d doubles (disk "
                  "full or quota exceeded?)",
                  path, nd->name, h->n_elems, h->N + 1, nd->n_var);
  else if (part)
    rc = write_part(dset, space, dims, h, nd, part, path);
  else
    rc = write_elem_blocks(dset, space, dims, h, nd, path);
  if (dset >= 0) H5Dclose(dset);
  if (space >= 0) H5Sclose(space);
  return rc;
}

static int write_solution(hid_t file, const StateHeader *h, const double *U, const StatePart *part,
                          const char *path) {
  const NodeDataset nd = {DATASET_NAME, h->n_var, U};
  return write_node_dataset(file, h, &nd, part, path);
}

/* FLEXI's additional node-wise fields: dataset FieldData, their names in the file attribute
 * VarNamesAddField (FLEXI's io_hdf5 WriteAdditionalFieldData). */
static int write_field_data(hid_t file, const StateHeader *h, const StatePart *part,
                            const char *path) {
  if (h->n_field_vars <= 0) return HX_OK;
  HX_CHECK(write_var_names_attr_named(file, "VarNamesAddField", h->field_var_names, h->n_field_vars,
                                      path));
  const NodeDataset nd = {FIELD_DATASET_NAME, h->n_field_vars, h->field_data};
  return write_node_dataset(file, h, &nd, part, path);
}

/* An element-wise dataset of a file: one double per element, shape (nElems). */
typedef struct {
  const char *name;
  const double *values; /* the local elements, in the order of U */
} ElemDataset;

/* The header's element-wise datasets, in the order they are written: elem_data (when both its
 * name and values are set, as before elem_extra existed), then elem_extra. */
static int collect_elem_datasets(const StateHeader *h, ElemDataset list[1 + STATE_MAX_ELEM_EXTRA]) {
  int n = 0;
  if (h->elem_data_name && h->elem_data) list[n++] = (ElemDataset){h->elem_data_name, h->elem_data};
  for (int x = 0; x < h->n_elem_extra && x < STATE_MAX_ELEM_EXTRA; ++x)
    list[n++] = (ElemDataset){h->elem_extra_names[x], h->elem_extra[x]};
  return n;
}

/* One element-wise dataset: the part's elements (each rank its slab), or all elements. */
static int write_elem_data(hid_t file, long n_elems, const ElemDataset *data, const StatePart *part,
                           const char *path) {
  hsize_t dims = (hsize_t)n_elems;
  hid_t space = H5Screate_simple(1, &dims, NULL);
  hid_t dset = space >= 0 ? H5Dcreate2(file, data->name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT,
                                       H5P_DEFAULT, H5P_DEFAULT)
                          : -1;
  hsize_t n_mem = part ? (hsize_t)part->n_local : dims;
  hid_t mem_space = H5Screate_simple(1, &n_mem, NULL);
  hid_t dxpl = part ? part_transfer_plist(part) : H5Pcreate(H5P_DATASET_XFER);
  herr_t st = dset >= 0 && mem_space >= 0 && dxpl >= 0 ? 0 : -1;
  const hsize_t elem_dims[5] = {dims, 1, 1, 1, 1};
  if (st >= 0 && part) st = select_part(space, elem_dims, part);
  if (st >= 0) st = H5Dwrite(dset, H5T_NATIVE_DOUBLE, mem_space, space, dxpl, data->values);
  if (dxpl >= 0) H5Pclose(dxpl);
  if (mem_space >= 0) H5Sclose(mem_space);
  if (dset >= 0) H5Dclose(dset);
  if (space >= 0) H5Sclose(space);
  if (st < 0)
    return HX_ERROR(HX_ERR_IO,
                    "state file '%s': cannot write the element dataset %s (disk full "
                    "or quota exceeded?)",
                    path, data->name);
  return HX_OK;
}

/* FLEXI's ElemData (nElems, nVarAdd) with the names in VarNamesAdd (io_hdf5
 * WriteAdditionalElemData; FV = SWITCH builds list FV_Elems): here the one column FV_Elems. */
static int write_fv_elems(hid_t file, const StateHeader *h, const StatePart *part,
                          const char *path) {
  const long n_local = part ? part->n_local : h->n_elems;
  double *values = hx_malloc(sizeof(double) * (size_t)(n_local > 0 ? n_local : 1), "FV_Elems");
  HX_ALLOC_CHECK(values);
  for (long e = 0; e < n_local; e++)
    values[e] = h->fv_elems[e];
  hsize_t dims[2] = {(hsize_t)h->n_elems, 1}, n_mem[2] = {(hsize_t)n_local, 1};
  hid_t space = H5Screate_simple(2, dims, NULL);
  hid_t dset = space >= 0 ? H5Dcreate2(file, "ElemData", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT,
                                       H5P_DEFAULT, H5P_DEFAULT)
                          : -1;
  hid_t mem_space = H5Screate_simple(2, n_mem, NULL);
  hid_t dxpl = part ? part_transfer_plist(part) : H5Pcreate(H5P_DATASET_XFER);
  herr_t st = dset >= 0 && mem_space >= 0 && dxpl >= 0 ? 0 : -1;
  const hsize_t elem_dims[5] = {dims[0], 1, 1, 1, 1};
  if (st >= 0 && part) st = select_part(space, elem_dims, part);
  if (st >= 0) st = H5Dwrite(dset, H5T_NATIVE_DOUBLE, mem_space, space, dxpl, values);
  if (dxpl >= 0) H5Pclose(dxpl);
  if (mem_space >= 0) H5Sclose(mem_space);
  if (dset >= 0) H5Dclose(dset);
  if (space >= 0) H5Sclose(space);
  free(values);
  if (st < 0)
    return HX_ERROR(HX_ERR_IO,
                    "state file '%s': cannot write the element dataset ElemData (FV_Elems; disk "
                    "full or quota exceeded?)",
                    path);
  const char *const names[1] = {"FV_Elems"};
  return write_var_names_attr_named(file, "VarNamesAdd", names, 1, path);
}

static int write_all_elem_data(hid_t file, const StateHeader *h, const StatePart *part,
                               const char *path) {
  ElemDataset list[1 + STATE_MAX_ELEM_EXTRA];
  int n = collect_elem_datasets(h, list);
  for (int d = 0; d < n; ++d)
    HX_CHECK(write_elem_data(file, h->n_elems, &list[d], part, path));
  if (h->fv_elems) HX_CHECK(write_fv_elems(file, h, part, path));
  return HX_OK;
}

/* Flush the file's data to the disk before the rename makes it visible under its final name,
 * so that after a crash the final name holds either the old or the complete new file. */
static int sync_to_disk(const char *path) {
  int fd = open(path, O_RDONLY);
  if (fd < 0 || fsync(fd) != 0) {
    int err = errno;
    if (fd >= 0) close(fd);
    return HX_ERROR(HX_ERR_IO, "state file '%s': cannot flush to disk: %s", path, strerror(err));
  }
  close(fd);
  return HX_OK;
}

/* File access: MPI-IO on every rank for a collective part, else the default (one process). */
static hid_t file_access_plist(const StatePart *part) {
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
#ifdef STATE_MPIO
  if (fapl >= 0 && part && part->collective) H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
#else
  (void)part;
#endif
  return fapl;
}

/* TimeAvg files: each node dataset with its names in VarNames_<name>, then AvgTime. */
static int write_extra_sets(hid_t file, const StateHeader *h, const FileExtras *x,
                            const StatePart *part, const char *path) {
  for (int d = 0; x && d < x->n_sets; d++) {
    const StateNodeData *sd = &x->sets[d];
    char attr[64];
    snprintf(attr, sizeof attr, "VarNames_%s", sd->name);
    HX_CHECK(write_var_names_attr_named(file, attr, sd->var_names, sd->n_var, path));
    const NodeDataset nd = {sd->name, sd->n_var, sd->values};
    HX_CHECK(write_node_dataset(file, h, &nd, part, path));
  }
  if (!x) return HX_OK;
  return write_numeric_attr(file, "AvgTime", H5T_NATIVE_DOUBLE, 1, &x->avg_time, path);
}

static int write_file(const char *tmp_path, const StateHeader *h, const char *const *var_names,
                      const double *U, const StatePart *part, const FileExtras *x) {
  hid_t fapl = file_access_plist(part);
  hid_t file = fapl >= 0 ? H5Fcreate(tmp_path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl) : -1;
  if (fapl >= 0) H5Pclose(fapl);
  if (file < 0)
    return HX_ERROR(HX_ERR_IO,
                    "cannot create state file '%s': check that its directory exists and is "
                    "writable",
                    tmp_path);
  int rc = write_header_attrs(file, h, var_names, x, tmp_path);
  if (rc == HX_OK) rc = write_solution(file, h, U, part, tmp_path);
  if (rc == HX_OK) rc = write_extra_sets(file, h, x, part, tmp_path);
  if (rc == HX_OK) rc = write_field_data(file, h, part, tmp_path);
  if (rc == HX_OK) rc = write_all_elem_data(file, h, part, tmp_path);
  if (rc == HX_OK) rc = write_completion_mark(file, tmp_path);
  if (H5Fclose(file) < 0 && rc == HX_OK)
    rc = HX_ERROR(HX_ERR_IO, "state file '%s': closing failed (disk full or quota exceeded?)",
                  tmp_path);
  if (rc == HX_OK && (!part || par_is_root())) rc = sync_to_disk(tmp_path);
  return rc;
}

/* A string attribute must fit FLEXI's CHARACTER(LEN=255); empty_hint is NULL where empty is
 * allowed, else what to do about an empty value. */
static int check_string(const char *path, const char *what, const char *value,
                        const char *empty_hint) {
  if (!value) return HX_ERROR(HX_ERR_INTERNAL, "state file '%s': %s is a NULL pointer", path, what);
  if (empty_hint && value[0] == '\0')
    return HX_ERROR(HX_ERR_INPUT, "state file '%s': %s is empty; %s", path, what, empty_hint);
  if (strlen(value) > STATE_MAX_STRING)
    return HX_ERROR(HX_ERR_INPUT,
                    "state file '%s': %s '%.40s...' has %zu characters; FLEXI-format files hold "
                    "at most %d; use a shorter name (e.g. a relative path)",
                    path, what, value, strlen(value), STATE_MAX_STRING);
  return HX_OK;
}

static int is_known_node_type(const char *node_type) {
  return strcmp(node_type, "GAUSS") == 0 || strcmp(node_type, "GAUSS-LOBATTO") == 0;
}

static int is_hex_digits(const char *s, size_t n) {
  for (size_t c = 0; c < n; ++c)
    if (!isxdigit((unsigned char)s[c])) return 0;
  return 1;
}

/* Mechanism and hash are set together (a restart compares the hash; the path is for people). */
static int check_mechanism_args(const char *path, const StateHeader *h) {
  size_t len = strnlen(h->mechanism, sizeof h->mechanism);
  size_t hash_len = strnlen(h->mechanism_hash, sizeof h->mechanism_hash);
  if (len == sizeof h->mechanism || hash_len == sizeof h->mechanism_hash)
    return HX_ERROR(HX_ERR_INTERNAL,
                    "state_write('%s'): header field mechanism or mechanism_hash is not "
                    "NUL-terminated",
                    path);
  if ((len == 0) != (hash_len == 0))
    return HX_ERROR(HX_ERR_INTERNAL,
                    "state_write('%s'): mechanism '%s' and mechanism_hash '%s' must both be set "
                    "(reacting run) or both be empty (air)",
                    path, h->mechanism, h->mechanism_hash);
  if (hash_len > 0 &&
      (hash_len != STATE_MECHANISM_HASH_DIGITS || !is_hex_digits(h->mechanism_hash, hash_len)))
    return HX_ERROR(HX_ERR_INTERNAL,
                    "state_write('%s'): mechanism_hash '%s' of mechanism '%s' is not %d "
                    "hexadecimal digits",
                    path, h->mechanism_hash, h->mechanism, STATE_MECHANISM_HASH_DIGITS);
  return HX_OK;
}

/* Every element dataset needs a name and values, and the names must differ from each other and
 * from DG_Solution (HDF5 would otherwise fail half way through the write). */
static int check_elem_dataset_args(const char *path, const StateHeader *h) {
  if (h->n_elem_extra < 0 || h->n_elem_extra > STATE_MAX_ELEM_EXTRA)
    return HX_ERROR(HX_ERR_INTERNAL,
                    "state_write('%s'): n_elem_extra = %d, expected 0..%d (STATE_MAX_ELEM_EXTRA)",
                    path, h->n_elem_extra, STATE_MAX_ELEM_EXTRA);
  for (int x = 0; x < h->n_elem_extra; ++x)
    if (!h->elem_extra_names[x] || !h->elem_extra[x])
      return HX_ERROR(HX_ERR_INTERNAL,
                      "state_write('%s'): element dataset %d of %d (elem_extra) has no name or "
                      "no values",
                      path, x + 1, h->n_elem_extra);
  ElemDataset list[1 + STATE_MAX_ELEM_EXTRA];
  int n = collect_elem_datasets(h, list);
  for (int d = 0; d < n; ++d) {
    if (list[d].name[0] == '\0')
      return HX_ERROR(HX_ERR_INTERNAL, "state_write('%s'): element dataset %d has an empty name",
                      path, d + 1);
    if (strcmp(list[d].name, DATASET_NAME) == 0)
      return HX_ERROR(HX_ERR_INTERNAL,
                      "state_write('%s'): element dataset name '%s' is the solution's; give it "
                      "another name",
                      path, DATASET_NAME);
    for (int other = 0; other < d; ++other)
      if (strcmp(list[d].name, list[other].name) == 0)
        return HX_ERROR(HX_ERR_INTERNAL,
                        "state_write('%s'): element datasets %d and %d are both named '%s'; give "
                        "each its own name",
                        path, other + 1, d + 1, list[d].name);
  }
  return HX_OK;
}

static int check_write_args(const char *path, const StateHeader *h, const char *const *var_names,
                            const double *U) {
  if (!h || !var_names || !U)
    return HX_ERROR(HX_ERR_INTERNAL, "state_write('%s'): header, var_names or U is NULL", path);
  if (h->N < 0 || h->n_var < 1 || h->n_elems < 1)
    return HX_ERROR(HX_ERR_INTERNAL,
                    "state_write('%s'): invalid sizes N = %d, n_var = %d, n_elems = %ld", path,
                    h->N, h->n_var, h->n_elems);
  if (!is_known_node_type(h->node_type))
    return HX_ERROR(HX_ERR_INPUT,
                    "state file '%s': NodeType '%s' is not 'GAUSS' or 'GAUSS-LOBATTO'", path,
                    h->node_type);
  HX_CHECK(
      check_string(path, "ProjectName", h->project_name, "set ProjectName in the parameter file"));
  HX_CHECK(check_string(path, "MeshFile", h->mesh_file, NULL));
  for (int v = 0; v < h->n_var; ++v) {
    char what[48];
    snprintf(what, sizeof what, "variable name %d", v + 1);
    HX_CHECK(check_string(path, what, var_names[v], "every variable needs a name (VarNames)"));
  }
  HX_CHECK(check_mechanism_args(path, h));
  if (h->n_field_vars < 0 || h->n_field_vars > STATE_MAX_FIELD_VARS ||
      (h->n_field_vars > 0 && !h->field_data))
    return HX_ERROR(HX_ERR_INTERNAL,
                    "state_write('%s'): n_field_vars = %d (0..%d, STATE_MAX_FIELD_VARS) or no "
                    "field_data",
                    path, h->n_field_vars, STATE_MAX_FIELD_VARS);
  for (int v = 0; v < h->n_field_vars; v++)
    HX_CHECK(check_string(path, "VarNamesAddField", h->field_var_names[v],
                          "every field needs a name (VarNamesAddField)"));
  return check_elem_dataset_args(path, h);
}

static int state_write_silenced(const char *path, const StateHeader *h,
                                const char *const *var_names, const double *U,
                                const StatePart *part, const FileExtras *x) {
  if (!path) return HX_ERROR(HX_ERR_INTERNAL, "state_write: path is NULL");
  HX_CHECK(check_write_args(path, h, var_names, U));
  size_t tmp_len = strlen(path) + sizeof ".tmp";
  char *tmp_path = hx_malloc(tmp_len, "state-file temporary name");
  HX_ALLOC_CHECK(tmp_path);
  snprintf(tmp_path, tmp_len, "%s.tmp", path);
  int rc = write_file(tmp_path, h, var_names, U, part, x);
  int root = !part || par_is_root(); /* a shared file is renamed once, by rank 0 */
  if (part && part->collective && par_any(rc != HX_OK) && rc == HX_OK)
    rc = HX_ERROR(HX_ERR_IO, "state file '%s': another rank failed to write its part", path);
  if (root && rc == HX_OK && rename(tmp_path, path) != 0)
    rc = HX_ERROR(HX_ERR_IO, "cannot rename '%s' to '%s': %s", tmp_path, path, strerror(errno));
  if (root && rc != HX_OK) remove(tmp_path);
  if (part && part->collective && par_any(rc != HX_OK) && rc == HX_OK) rc = HX_ERR_IO;
  free(tmp_path);
  return rc;
}

int state_write(const char *path, const StateHeader *h, const char *const *var_names,
                const double *U) {
  Hdf5ErrorPrinting saved = hdf5_errors_silence();
  int rc = state_write_silenced(path, h, var_names, U, NULL, NULL);
  hdf5_errors_restore(saved);
  return rc;
}

void state_file_name(char *buf, size_t len, const char *project, double sim_time) {
  snprintf(buf, len, "%s_State_%017.9f.h5", project, sim_time);
}

/* ---------------------------------------------------------------------------------------------
 * Reading */

static int open_attr(hid_t file, const char *path, const char *name, hid_t *attr) {
  if (H5Aexists(file, name) <= 0)
    return HX_ERROR(HX_ERR_INPUT,
                    "state file '%s' has no attribute '%s'; it is not a state file written by "
                    "hexdg or FLEXI (or it is damaged)",
                    path, name);
  *attr = H5Aopen(file, name, H5P_DEFAULT);
  if (*attr < 0)
    return HX_ERROR(HX_ERR_IO, "state file '%s': cannot open attribute '%s' (file damaged?)", path,
                    name);
  return HX_OK;
}

/* Number of values in an attribute, and its type class. */
static int attr_shape(hid_t attr, const char *path, const char *name, hssize_t *n_values,
                      H5T_class_t *type_class) {
  hid_t space = H5Aget_space(attr);
  hid_t type = H5Aget_type(attr);
  *n_values = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
  *type_class = type >= 0 ? H5Tget_class(type) : H5T_NO_CLASS;
  if (space >= 0) H5Sclose(space);
  if (type >= 0) H5Tclose(type);
  if (*n_values < 0 || *type_class == H5T_NO_CLASS)
    return HX_ERROR(HX_ERR_IO, "state file '%s': cannot inspect attribute '%s' (file damaged?)",
                    path, name);
  return HX_OK;
}

static int expect_attr_kind(const char *path, const char *name, hssize_t n_values,
                            H5T_class_t type_class, H5T_class_t want, const char *want_text) {
  if (n_values != 1 || type_class != want)
    return HX_ERROR(HX_ERR_INPUT,
                    "state file '%s': attribute '%s' should be one %s but has %lld value(s) of "
                    "another type; the file was not written by hexdg or FLEXI",
                    path, name, want_text, (long long)n_values);
  return HX_OK;
}

static int read_number_attr(hid_t file, const char *path, const char *name, H5T_class_t want,
                            hid_t mem_type, void *out) {
  hid_t attr = -1;
  HX_CHECK(open_attr(file, path, name, &attr));
  hssize_t n_values = 0;
  H5T_class_t type_class = H5T_NO_CLASS;
  int rc = attr_shape(attr, path, name, &n_values, &type_class);
  if (rc == HX_OK)
    rc = expect_attr_kind(path, name, n_values, type_class, want,
                          want == H5T_INTEGER ? "integer" : "floating-point number");
  if (rc == HX_OK && H5Aread(attr, mem_type, out) < 0)
    rc = HX_ERROR(HX_ERR_IO, "state file '%s': cannot read attribute '%s' (file damaged?)", path,
                  name);
  H5Aclose(attr);
  return rc;
}

/* Strip FLEXI's blank padding (and C's NUL padding) from a fixed-size string of `size` bytes. */
static void trim_padding(char *s, size_t size) {
  size_t len = strnlen(s, size);
  while (len > 0 && s[len - 1] == ' ')
    --len;
  s[len] = '\0';
}

static int copy_string_out(const char *path, const char *name, const char *value, char *out,
                           size_t out_len) {
  if (strlen(value) >= out_len)
    return HX_ERROR(HX_ERR_INPUT,
                    "state file '%s': attribute '%s' has %zu characters, more than the %zu "
                    "hexdg accepts",
                    path, name, strlen(value), out_len - 1);
  memcpy(out, value, strlen(value) + 1);
  return HX_OK;
}

/* Variable-length strings (as h5py writes by default) are read for robustness; FLEXI and hexdg
 * write fixed-size ones. */
static int read_vlen_string(hid_t attr, const char *path, const char *name, char *out,
                            size_t out_len) {
  hid_t mem_type = H5Tcopy(H5T_C_S1);
  char *value = NULL;
  int rc = HX_OK;
  if (mem_type < 0 || H5Tset_size(mem_type, H5T_VARIABLE) < 0 ||
      H5Aread(attr, mem_type, &value) < 0 || !value)
    rc = HX_ERROR(HX_ERR_IO, "state file '%s': cannot read attribute '%s' (file damaged?)", path,
                  name);
  if (rc == HX_OK) {
    trim_padding(value, strlen(value));
    rc = copy_string_out(path, name, value, out, out_len);
  }
  if (value) H5free_memory(value);
  if (mem_type >= 0) H5Tclose(mem_type);
  return rc;
}

static int read_fixed_string(hid_t attr, hid_t file_type, const char *path, const char *name,
                             char *out, size_t out_len) {
  size_t size = H5Tget_size(file_type);
  if (size == 0)
    return HX_ERROR(HX_ERR_IO, "state file '%s': cannot read the size of attribute '%s'", path,
                    name);
  char *value = hx_calloc(size + 1, 1, "string attribute buffer");
  HX_ALLOC_CHECK(value);
  /* Reading with the file's own type copies the bytes unchanged whatever their padding. */
  int rc = HX_OK;
  if (H5Aread(attr, file_type, value) < 0)
    rc = HX_ERROR(HX_ERR_IO, "state file '%s': cannot read attribute '%s' (file damaged?)", path,
                  name);
  if (rc == HX_OK) {
    trim_padding(value, size);
    rc = copy_string_out(path, name, value, out, out_len);
  }
  free(value);
  return rc;
}

static int read_string_attr(hid_t file, const char *path, const char *name, char *out,
                            size_t out_len) {
  hid_t attr = -1;
  HX_CHECK(open_attr(file, path, name, &attr));
  hssize_t n_values = 0;
  H5T_class_t type_class = H5T_NO_CLASS;
  int rc = attr_shape(attr, path, name, &n_values, &type_class);
  if (rc == HX_OK) rc = expect_attr_kind(path, name, n_values, type_class, H5T_STRING, "string");
  hid_t file_type = rc == HX_OK ? H5Aget_type(attr) : -1;
  if (rc == HX_OK && file_type < 0)
    rc = HX_ERROR(HX_ERR_IO, "state file '%s': cannot read the type of attribute '%s'", path, name);
  if (rc == HX_OK)
    rc = H5Tis_variable_str(file_type) > 0
             ? read_vlen_string(attr, path, name, out, out_len)
             : read_fixed_string(attr, file_type, path, name, out, out_len);
  if (file_type >= 0) H5Tclose(file_type);
  H5Aclose(attr);
  return rc;
}

/* A string attribute that older files lack (Mechanism, MechanismHash): empty when absent. */
static int read_optional_string_attr(hid_t file, const char *path, const char *name, char *out,
                                     size_t out_len) {
  out[0] = '\0';
  htri_t exists = H5Aexists(file, name);
  if (exists < 0)
    return HX_ERROR(HX_ERR_IO, "state file '%s': cannot look up attribute '%s' (file damaged?)",
                    path, name);
  return exists ? read_string_attr(file, path, name, out, out_len) : HX_OK;
}

/* Number of entries of the string-array attribute VarNames. */
static int read_var_name_count(hid_t file, const char *path, long *n_names) {
  hid_t attr = -1;
  HX_CHECK(open_attr(file, path, "VarNames", &attr));
  hssize_t n_values = 0;
  H5T_class_t type_class = H5T_NO_CLASS;
  int rc = attr_shape(attr, path, "VarNames", &n_values, &type_class);
  H5Aclose(attr);
  HX_CHECK(rc);
  if (type_class != H5T_STRING)
    return HX_ERROR(HX_ERR_INPUT, "state file '%s': attribute 'VarNames' is not a string array",
                    path);
  *n_names = (long)n_values;
  return HX_OK;
}

/* The dimensions of DG_Solution, which must be a 5-D floating-point dataset. */
static int read_solution_dims(hid_t file, const char *path, hsize_t dims[5]) {
  if (H5Lexists(file, DATASET_NAME, H5P_DEFAULT) <= 0)
    return HX_ERROR(HX_ERR_INPUT,
                    "state file '%s' has no dataset '%s'; it is not a state file written by "
                    "hexdg or FLEXI",
                    path, DATASET_NAME);
  hid_t dset = H5Dopen2(file, DATASET_NAME, H5P_DEFAULT);
  hid_t space = dset >= 0 ? H5Dget_space(dset) : -1;
  hid_t type = dset >= 0 ? H5Dget_type(dset) : -1;
  int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
  H5T_class_t type_class = type >= 0 ? H5Tget_class(type) : H5T_NO_CLASS;
  if (rank == 5) H5Sget_simple_extent_dims(space, dims, NULL);
  if (type >= 0) H5Tclose(type);
  if (space >= 0) H5Sclose(space);
  if (dset >= 0) H5Dclose(dset);
  if (rank < 0 || type_class == H5T_NO_CLASS)
    return HX_ERROR(HX_ERR_IO, "state file '%s': cannot open dataset '%s' (file damaged?)", path,
                    DATASET_NAME);
  if (rank != 5)
    return HX_ERROR(HX_ERR_INPUT,
                    "state file '%s': dataset '%s' has rank %d, expected 5 (nElems x (N+1)^3 x "
                    "nVar); the file was not written by hexdg or FLEXI",
                    path, DATASET_NAME, rank);
  if (type_class != H5T_FLOAT)
    return HX_ERROR(HX_ERR_INPUT,
                    "state file '%s': dataset '%s' does not hold floating-point numbers; the file "
                    "was not written by hexdg or FLEXI",
                    path, DATASET_NAME);
  return HX_OK;
}

/* The shape of DG_Solution must agree with the attributes N and VarNames. */
static int check_solution_shape(const char *path, const hsize_t dims[5], int N, long n_names) {
  /* N = -1 with 0 nodes per direction would pass the shape checks below (docs/fuzzing.md) */
  if (N < 0 || n_names < 1)
    return HX_ERROR(HX_ERR_INPUT,
                    "state file '%s': attribute 'N' = %d with %ld 'VarNames'; a state file has "
                    "N >= 0 and at least one variable: the file is damaged",
                    path, N, n_names);
  if (dims[1] != dims[2] || dims[1] != dims[3])
    return HX_ERROR(HX_ERR_INPUT,
                    "state file '%s': dataset '%s' has %llu x %llu x %llu nodes per element; "
                    "hexdg reads only hexahedra with N+1 nodes in each direction",
                    path, DATASET_NAME, (unsigned long long)dims[3], (unsigned long long)dims[2],
                    (unsigned long long)dims[1]);
  if (dims[1] != (hsize_t)N + 1)
    return HX_ERROR(HX_ERR_INPUT,
                    "state file '%s': attribute 'N' = %d but dataset '%s' has %llu nodes per "
                    "direction (N = %llu); the file is inconsistent",
                    path, N, DATASET_NAME, (unsigned long long)dims[1],
                    (unsigned long long)dims[1] - 1);
  if (dims[4] != (hsize_t)n_names)
    return HX_ERROR(HX_ERR_INPUT,
                    "state file '%s': attribute 'VarNames' lists %ld names but dataset '%s' has "
                    "%llu variables; the file is inconsistent",
                    path, n_names, DATASET_NAME, (unsigned long long)dims[4]);
  if (dims[0] < 1)
    return HX_ERROR(HX_ERR_INPUT, "state file '%s': dataset '%s' has no elements", path,
                    DATASET_NAME);
  return HX_OK;
}

static int read_header_from(hid_t file, const char *path, StateHeader *h) {
  char file_type[STATE_MAX_STRING + 1];
  HX_CHECK(read_string_attr(file, path, "File_Type", file_type, sizeof file_type));
  if (strcmp(file_type, "State") != 0)
    return HX_ERROR(HX_ERR_INPUT,
                    "'%s' has File_Type '%s', not 'State'; give a state file "
                    "(<project>_State_<time>.h5)",
                    path, file_type);
  memset(h, 0, sizeof *h);
  HX_CHECK(read_string_attr(file, path, "Project_Name", h->project_name, sizeof h->project_name));
  HX_CHECK(read_string_attr(file, path, "MeshFile", h->mesh_file, sizeof h->mesh_file));
  HX_CHECK(read_string_attr(file, path, "NodeType", h->node_type, sizeof h->node_type));
  HX_CHECK(read_number_attr(file, path, "N", H5T_INTEGER, H5T_NATIVE_INT, &h->N));
  HX_CHECK(read_number_attr(file, path, "Time", H5T_FLOAT, H5T_NATIVE_DOUBLE, &h->time));
  HX_CHECK(read_optional_string_attr(file, path, "Mechanism", h->mechanism, sizeof h->mechanism));
  HX_CHECK(read_optional_string_attr(file, path, "MechanismHash", h->mechanism_hash,
                                     sizeof h->mechanism_hash));
  long n_names = 0;
  HX_CHECK(read_var_name_count(file, path, &n_names));
  hsize_t dims[5];
  HX_CHECK(read_solution_dims(file, path, dims));
  HX_CHECK(check_solution_shape(path, dims, h->N, n_names));
  h->n_var = (int)dims[4];
  h->n_elems = (long)dims[0];
  return HX_OK;
}

static htri_t is_hdf5_file(const char *path) {
#if H5_VERSION_GE(1, 12, 0)
  return H5Fis_accessible(path, H5P_DEFAULT);
#else
  return H5Fis_hdf5(path);
#endif
}

static int open_state_file(const char *path, hid_t *file) {
  if (!path) return HX_ERROR(HX_ERR_INTERNAL, "state file path is NULL");
  FILE *probe = fopen(path, "rb");
  if (!probe)
    return HX_ERROR(HX_ERR_IO, "cannot open state file '%s': %s; check the path", path,
                    strerror(errno));
  fclose(probe);
  if (is_hdf5_file(path) <= 0)
    return HX_ERROR(HX_ERR_INPUT,
                    "'%s' is not an HDF5 file; give a state file written by hexdg or FLEXI", path);
  *file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (*file < 0)
    return HX_ERROR(HX_ERR_IO,
                    "cannot open state file '%s': the HDF5 file is truncated or damaged (was its "
                    "write interrupted?); restart from an earlier state file",
                    path);
  return HX_OK;
}

static int state_read_header_silenced(const char *path, StateHeader *h) {
  if (!h) return HX_ERROR(HX_ERR_INTERNAL, "state_read_header: header is NULL");
  hid_t file = -1;
  HX_CHECK(open_state_file(path, &file));
  int rc = read_header_from(file, path, h);
  H5Fclose(file);
  return rc;
}

int state_read_header(const char *path, StateHeader *h) {
  Hdf5ErrorPrinting saved = hdf5_errors_silence();
  int rc = state_read_header_silenced(path, h);
  hdf5_errors_restore(saved);
  return rc;
}

/* "mechanism 'h2o2.yaml' (MechanismHash 0123456789abcdef)", or "no mechanism (air)"; the
 * precisions stop at the fields' ends should a caller's header lack its NUL. */
static void describe_mechanism(char *buf, size_t len, const StateHeader *h) {
  const int mech_max = (int)sizeof h->mechanism - 1, hash_max = (int)sizeof h->mechanism_hash - 1;
  if (h->mechanism[0] == '\0' && h->mechanism_hash[0] == '\0')
    snprintf(buf, len, "no mechanism (air)");
  else
    snprintf(buf, len, "mechanism '%.*s' (MechanismHash %.*s)", mech_max, h->mechanism, hash_max,
             h->mechanism_hash[0] != '\0' ? h->mechanism_hash : "none");
}

/* The species, and so the meaning of the variables, belong to the mechanism: a restart needs the
 * file's mechanism, checked by its hash (the path may differ between machines). */
static int check_mechanism_matches(const char *path, const StateHeader *found,
                                   const StateHeader *expected) {
  /* hex digits compare in either case */
  size_t n = sizeof found->mechanism_hash;
  if (strncasecmp(found->mechanism_hash, expected->mechanism_hash, n) == 0) return HX_OK;
  char in_file[sizeof found->mechanism + 64], in_run[sizeof found->mechanism + 64];
  describe_mechanism(in_file, sizeof in_file, found);
  describe_mechanism(in_run, sizeof in_run, expected);
  return HX_ERROR(HX_ERR_INPUT,
                  "restart file '%s' was written with %s but this run uses %s; its species "
                  "(variables) and their chemistry belong to that mechanism. Restart with the "
                  "mechanism the file was written with, or start this run from its initial "
                  "condition (no restart file)",
                  path, in_file, in_run);
}

static int check_matches_expected(const char *path, const StateHeader *found,
                                  const StateHeader *expected) {
  /* first: another mechanism usually changes n_var too, and this message says why */
  HX_CHECK(check_mechanism_matches(path, found, expected));
  if (found->N != expected->N)
    return HX_ERROR(HX_ERR_INPUT,
                    "state file '%s': attribute 'N' = %d but this run uses N = %d; restart from a "
                    "file written with N = %d or set N = %d",
                    path, found->N, expected->N, expected->N, found->N);
  if (found->n_var != expected->n_var)
    return HX_ERROR(HX_ERR_INPUT,
                    "state file '%s': attribute 'VarNames' (and %s) has %d variables but this run "
                    "expects %d; the file was written for a different equation system",
                    path, DATASET_NAME, found->n_var, expected->n_var);
  if (found->n_elems != expected->n_elems)
    return HX_ERROR(HX_ERR_INPUT,
                    "state file '%s': dataset '%s' has %ld elements but this run's mesh has %ld; "
                    "restart on the mesh the file was written on (MeshFile = '%s')",
                    path, DATASET_NAME, found->n_elems, expected->n_elems, found->mesh_file);
  if (expected->node_type[0] != '\0' && strcmp(found->node_type, expected->node_type) != 0)
    return HX_ERROR(HX_ERR_INPUT,
                    "state file '%s': attribute 'NodeType' = '%s' but this run uses '%s'; set "
                    "NodeType = %s or restart from a file with NodeType %s",
                    path, found->node_type, expected->node_type, found->node_type,
                    expected->node_type);
  return HX_OK;
}

/* Open a node-wise dataset for reading: the dataset, its file space and its dimensions. */
static int open_node_dataset(hid_t file, const char *path, const char *name, hid_t *dset,
                             hid_t *file_space, hsize_t dims[5]) {
  *dset = H5Dopen2(file, name, H5P_DEFAULT);
  *file_space = *dset >= 0 ? H5Dget_space(*dset) : -1;
  if (*file_space < 0) {
    if (*dset >= 0) H5Dclose(*dset);
    return HX_ERROR(HX_ERR_IO, "state file '%s': cannot open dataset '%s' (file damaged?)", path,
                    name);
  }
  H5Sget_simple_extent_dims(*file_space, dims, NULL);
  return HX_OK;
}

/* Every element of the node-wise dataset (name, n_var) into U (hexdg layout), in blocks. */
static int read_elem_blocks_of(hid_t file, const char *path, const StateHeader *h, const char *name,
                               int n_var, double *U) {
  hid_t dset, file_space;
  hsize_t dims[5];
  HX_CHECK(open_node_dataset(file, path, name, &dset, &file_space, dims));
  size_t n_nodes = nodes_per_elem(h->N);
  size_t per_elem = (size_t)n_var * n_nodes;
  long block = elems_per_block(n_var, n_nodes);
  if (block > h->n_elems) block = h->n_elems;
  double *buf = hx_malloc((size_t)block * per_elem * sizeof(double), "state-file read buffer");
  int rc = buf ? HX_OK : HX_ERR_MEM;
  for (long first = 0; first < h->n_elems && rc == HX_OK; first += block) {
    long count = h->n_elems - first < block ? h->n_elems - first : block;
    hsize_t mem_dims = (hsize_t)count * per_elem;
    hid_t mem_space = H5Screate_simple(1, &mem_dims, NULL);
    if (mem_space < 0 || select_elem_block(file_space, dims, first, count) < 0 ||
        H5Dread(dset, H5T_NATIVE_DOUBLE, mem_space, file_space, H5P_DEFAULT, buf) < 0)
      rc = HX_ERROR(HX_ERR_IO,
                    "state file '%s': cannot read %s elements %ld..%ld: the file is truncated or "
                    "damaged; restart from an earlier state file",
                    path, name, first + 1, first + count);
    else
      flexi_to_hexdg(buf, U + (size_t)first * per_elem, count, n_var, n_nodes);
    if (mem_space >= 0) H5Sclose(mem_space);
  }
  free(buf);
  H5Sclose(file_space);
  H5Dclose(dset);
  return rc;
}

static int read_elem_blocks(hid_t file, const char *path, const StateHeader *h, double *U) {
  return read_elem_blocks_of(file, path, h, DATASET_NAME, h->n_var, U);
}

/* This rank's elements of the node-wise dataset (name, n_var), read in one call (every rank
 * opens the file read-only on its own). */
static int read_part_of(hid_t file, const char *path, const StateHeader *h, const char *name,
                        int n_var, double *U, const StatePart *part) {
  hid_t dset, file_space;
  hsize_t dims[5];
  HX_CHECK(open_node_dataset(file, path, name, &dset, &file_space, dims));
  size_t n_nodes = nodes_per_elem(h->N), per_elem = (size_t)n_var * n_nodes;
  double *buf = hx_malloc((size_t)part->n_local * per_elem * sizeof(double), "state-file buffer");
  hsize_t mem_dims = (hsize_t)part->n_local * per_elem;
  hid_t mem_space = H5Screate_simple(1, &mem_dims, NULL);
  int rc = buf ? HX_OK : HX_ERR_MEM;
  if (rc == HX_OK &&
      (mem_space < 0 || select_part(file_space, dims, part) < 0 ||
       H5Dread(dset, H5T_NATIVE_DOUBLE, mem_space, file_space, H5P_DEFAULT, buf) < 0))
    rc = HX_ERROR(HX_ERR_IO,
                  "state file '%s': rank %d cannot read its %ld elements of %s: the file is "
                  "truncated or damaged; restart from an earlier state file",
                  path, par_rank(), part->n_local, name);
  if (rc == HX_OK) flexi_to_hexdg(buf, U, part->n_local, n_var, n_nodes);
  if (mem_space >= 0) H5Sclose(mem_space);
  free(buf);
  H5Sclose(file_space);
  H5Dclose(dset);
  return rc;
}

static int read_part(hid_t file, const char *path, const StateHeader *h, double *U,
                     const StatePart *part) {
  return read_part_of(file, path, h, DATASET_NAME, h->n_var, U, part);
}

static int state_read_silenced(const char *path, const StateHeader *expected, double *U,
                               const StatePart *part) {
  if (!expected || !U) return HX_ERROR(HX_ERR_INTERNAL, "state_read: expected or U is NULL");
  hid_t file = -1;
  HX_CHECK(open_state_file(path, &file));
  StateHeader found;
  int rc = read_header_from(file, path, &found);
  if (rc == HX_OK) rc = check_matches_expected(path, &found, expected);
  if (rc == HX_OK)
    rc = part ? read_part(file, path, &found, U, part) : read_elem_blocks(file, path, &found, U);
  H5Fclose(file);
  return rc;
}

/* The optional element-wise dataset name (e.g. FV_alpha) of a whole file: n_elems doubles. */
int state_read_elem_data(const char *path, const char *name, long n_elems, double *out,
                         int *found) {
  *found = 0;
  Hdf5ErrorPrinting saved = hdf5_errors_silence();
  hid_t file = -1;
  int rc = open_state_file(path, &file);
  if (rc == HX_OK && H5Lexists(file, name, H5P_DEFAULT) > 0) {
    hid_t dset = H5Dopen2(file, name, H5P_DEFAULT);
    hid_t space = dset >= 0 ? H5Dget_space(dset) : -1;
    hsize_t dims[2] = {0, 0};
    int ok = space >= 0 && H5Sget_simple_extent_ndims(space) == 1 &&
             H5Sget_simple_extent_dims(space, dims, NULL) == 1 && (long)dims[0] == n_elems &&
             H5Dread(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) >= 0;
    if (ok)
      *found = 1;
    else
      rc = HX_ERROR(HX_ERR_IO,
                    "state file '%s': dataset %s is not %ld doubles (one per element) "
                    "or cannot be read; the file is damaged",
                    path, name, n_elems);
    if (space >= 0) H5Sclose(space);
    if (dset >= 0) H5Dclose(dset);
  }
  if (file >= 0) H5Fclose(file);
  hdf5_errors_restore(saved);
  return rc;
}

/* The index of name in the file's attribute attr_name (VarNamesAddField, VarNamesAdd: fixed-length,
 * space-padded strings as FLEXI and hexdg write them) into *index, -1 when it is not there;
 * *n_names: the number of names. An attribute of another kind is an error. */
static int named_var_index(hid_t file, const char *path, const char *attr_name, const char *name,
                           int *index, int *n_names) {
  *index = -1;
  *n_names = 0;
  if (H5Aexists(file, attr_name) <= 0) return HX_OK;
  hid_t attr = H5Aopen(file, attr_name, H5P_DEFAULT);
  hid_t type = attr >= 0 ? H5Aget_type(attr) : -1;
  hid_t space = attr >= 0 ? H5Aget_space(attr) : -1;
  hssize_t n = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
  size_t size = type >= 0 ? H5Tget_size(type) : 0;
  int rc = HX_OK;
  const bool fixed_strings =
      type >= 0 && H5Tget_class(type) == H5T_STRING && !H5Tis_variable_str(type) && size > 0;
  if (n != 0 && (n < 0 || !fixed_strings)) {
    rc = HX_ERROR(HX_ERR_INPUT,
                  "state file '%s': attribute %s is not an array of fixed-length "
                  "strings; the file is damaged ('%s' cannot be read)",
                  path, attr_name, name);
  } else if (n > 0) {
    char *buf = hx_malloc((size_t)n * size + size + 1, "variable names");
    char *one = buf ? buf + (size_t)n * size : NULL;
    if (!buf || H5Aread(attr, type, buf) < 0)
      rc = HX_ERROR(HX_ERR_IO, "state file '%s': cannot read attribute %s", path, attr_name);
    for (hssize_t v = 0; rc == HX_OK && v < n && *index < 0; v++) {
      memcpy(one, buf + (size_t)v * size, size);
      one[size] = '\0';
      trim_padding(one, size + 1);
      if (strcmp(one, name) == 0) *index = (int)v;
    }
    if (rc == HX_OK) *n_names = (int)n;
    free(buf);
  }
  if (space >= 0) H5Sclose(space);
  if (type >= 0) H5Tclose(type);
  if (attr >= 0) H5Aclose(attr);
  return rc;
}

int state_read_fv_elems(const char *path, long n_elems, double *out, int *found) {
  *found = 0;
  Hdf5ErrorPrinting saved = hdf5_errors_silence();
  hid_t file = -1;
  int rc = open_state_file(path, &file), col = -1, n_names = 0;
  if (rc == HX_OK) rc = named_var_index(file, path, "VarNamesAdd", "FV_Elems", &col, &n_names);
  if (rc == HX_OK && col >= 0 && H5Lexists(file, "ElemData", H5P_DEFAULT) > 0) {
    hid_t dset = H5Dopen2(file, "ElemData", H5P_DEFAULT);
    hid_t space = dset >= 0 ? H5Dget_space(dset) : -1;
    hsize_t dims[2] = {0, 0};
    double *all = hx_malloc(sizeof(double) * (size_t)(n_elems > 0 ? n_elems : 1) *
                                (size_t)(n_names > 0 ? n_names : 1),
                            "ElemData");
    int ok = all && space >= 0 && H5Sget_simple_extent_ndims(space) == 2 &&
             H5Sget_simple_extent_dims(space, dims, NULL) == 2 && (long)dims[0] == n_elems &&
             (int)dims[1] == n_names &&
             H5Dread(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, all) >= 0;
    for (long e = 0; ok && e < n_elems; e++)
      out[e] = all[e * n_names + col];
    if (ok)
      *found = 1;
    else
      rc = HX_ERROR(HX_ERR_IO,
                    "state file '%s': dataset ElemData is not %ld x %d doubles (elements x "
                    "VarNamesAdd) or cannot be read; the file is damaged",
                    path, n_elems, n_names);
    free(all);
    if (space >= 0) H5Sclose(space);
    if (dset >= 0) H5Dclose(dset);
  }
  if (file >= 0) H5Fclose(file);
  hdf5_errors_restore(saved);
  return rc;
}

static int read_field_from(hid_t file, const char *path, const char *name, const StateHeader *h,
                           long n_local, const long *global_id, double *out, int *found) {
  int n_field = 0, v = -1;
  HX_CHECK(named_var_index(file, path, "VarNamesAddField", name, &v, &n_field));
  if (v < 0 || H5Lexists(file, FIELD_DATASET_NAME, H5P_DEFAULT) <= 0) return HX_OK;
  hid_t dset, space;
  hsize_t dims[5] = {0, 0, 0, 0, 0};
  HX_CHECK(open_node_dataset(file, path, FIELD_DATASET_NAME, &dset, &space, dims));
  int ndims = H5Sget_simple_extent_ndims(space);
  H5Sclose(space);
  H5Dclose(dset);
  const hsize_t np1 = (hsize_t)h->N + 1;
  if (ndims != 5 || dims[0] != (hsize_t)h->n_elems || dims[1] != np1 || dims[2] != np1 ||
      dims[3] != np1 || dims[4] != (hsize_t)n_field)
    return HX_ERROR(HX_ERR_INPUT,
                    "state file '%s': dataset %s is not %ld x %d^3 x %d (elements, nodes at N = "
                    "%d, VarNamesAddField); the file is damaged or of another mesh",
                    path, FIELD_DATASET_NAME, h->n_elems, h->N + 1, n_field, h->N);
  const size_t n_nodes = nodes_per_elem(h->N);
  double *all = hx_malloc((size_t)n_local * n_field * n_nodes * sizeof(double), "FieldData");
  HX_ALLOC_CHECK(all);
  StatePart part = {n_local, global_id, 0};
  int rc = global_id ? read_part_of(file, path, h, FIELD_DATASET_NAME, n_field, all, &part)
                     : read_elem_blocks_of(file, path, h, FIELD_DATASET_NAME, n_field, all);
  for (long e = 0; rc == HX_OK && e < n_local; e++)
    memcpy(out + (size_t)e * n_nodes, all + ((size_t)e * n_field + v) * n_nodes,
           n_nodes * sizeof(double));
  free(all);
  if (rc == HX_OK) *found = 1;
  return rc;
}

int state_read_field(const char *path, const char *name, int N, long n_elems, long n_local,
                     const long *global_id, double *out, int *found) {
  *found = 0;
  Hdf5ErrorPrinting saved = hdf5_errors_silence();
  hid_t file = -1;
  int rc = open_state_file(path, &file);
  StateHeader h;
  memset(&h, 0, sizeof h);
  h.N = N;
  h.n_elems = n_elems;
  if (rc == HX_OK) rc = read_field_from(file, path, name, &h, n_local, global_id, out, found);
  if (file >= 0) H5Fclose(file);
  hdf5_errors_restore(saved);
  return rc;
}

int state_read(const char *path, const StateHeader *expected, double *U) {
  Hdf5ErrorPrinting saved = hdf5_errors_silence();
  int rc = state_read_silenced(path, expected, U, NULL);
  hdf5_errors_restore(saved);
  return rc;
}

/* ---------------------------------------------------------------------------------------------
 * Parts of a file shared by the ranks of an MPI run */

static int ids_are_all(long n_local, const long *global_id, long n_elems) {
  if (n_local != n_elems) return 0;
  for (long e = 0; e < n_local; e++)
    if (global_id[e] != e + 1) return 0;
  return 1;
}

/* Several ranks write one file only through parallel HDF5. */
static int check_parallel_hdf5(const char *path) {
#ifndef STATE_MPIO
  if (par_size() > 1)
    return HX_ERROR(HX_ERR_INPUT,
                    "state file '%s': writing one file from %d ranks needs parallel HDF5; "
                    "reconfigure with HEXDG_MPI=ON against a parallel HDF5 (libhdf5-mpich-dev, "
                    "-DHDF5_PREFER_PARALLEL=ON)",
                    path, par_size());
#else
  (void)path;
#endif
  return HX_OK;
}

int state_write_part(const char *path, const StateHeader *h, const char *const *var_names,
                     const double *U, long n_local, const long *global_id) {
  if (par_size() == 1 && ids_are_all(n_local, global_id, h->n_elems))
    return state_write(path, h, var_names, U);
  HX_CHECK(check_parallel_hdf5(path));
  StatePart part = {n_local, global_id, par_size() > 1};
  Hdf5ErrorPrinting saved = hdf5_errors_silence();
  int rc = state_write_silenced(path, h, var_names, U, &part, NULL);
  hdf5_errors_restore(saved);
  return rc;
}

/* FLEXI's WriteTimeAverage: a one-variable DG_Solution of zeros named DUMMY_DO_NOT_VISUALIZE
 * (FLEXI writes it so that its posti tools open the file), then the sets and AvgTime. */
int state_write_timeavg_part(const char *path, const StateHeader *h, double avg_time, int n_sets,
                             const StateNodeData *sets, long n_local, const long *global_id) {
  static const char *const dummy_name[1] = {"DUMMY_DO_NOT_VISUALIZE"};
  const int all = par_size() == 1 && ids_are_all(n_local, global_id, h->n_elems);
  if (!all) HX_CHECK(check_parallel_hdf5(path));
  StateHeader dummy = *h;
  dummy.n_var = 1;
  dummy.n_field_vars = dummy.n_elem_extra = 0;
  dummy.elem_data_name = NULL;
  dummy.elem_data = NULL;
  dummy.fv_elems = NULL;
  size_t n = (size_t)n_local * nodes_per_elem(h->N);
  double *zeros = hx_calloc(n > 0 ? n : 1, sizeof(double), "TimeAvg dummy DG_Solution");
  HX_ALLOC_CHECK(zeros);
  StatePart part = {n_local, global_id, par_size() > 1};
  FileExtras x = {"TimeAvg", avg_time, n_sets, sets};
  Hdf5ErrorPrinting saved = hdf5_errors_silence();
  int rc = state_write_silenced(path, &dummy, dummy_name, zeros, all ? NULL : &part, &x);
  hdf5_errors_restore(saved);
  free(zeros);
  return rc;
}

int state_read_part(const char *path, const StateHeader *expected, double *U, long n_local,
                    const long *global_id) {
  if (ids_are_all(n_local, global_id, expected->n_elems)) return state_read(path, expected, U);
  StatePart part = {n_local, global_id, 0};
  Hdf5ErrorPrinting saved = hdf5_errors_silence();
  int rc = state_read_silenced(path, expected, U, &part);
  hdf5_errors_restore(saved);
  return rc;
}
