/* HOPR HDF5 mesh files: read into a Mesh, write a Mesh.
 *
 * Layout facts from the HOPR user guide ("HOPR HDF5 Curved Mesh Format", docs/documentation/
 * userguide/meshformat.md of hopr-framework/hopr) and from what FLEXI's mesh_readin.f90 reads:
 *   ElemInfo   (nElems, 6)  type, zone, first/last side (SideInfo rows), first/last node
 *   SideInfo   (nSides, 5)  side type, +-GlobalSideID (<0: slave), nbElemID,
 *                           10*nbLocSide+flip, BCID
 *   NodeCoords (nNodes, 3)  (NGeo+1)^3 equidistant nodes per hexahedron, i fastest, then j, k
 *   BCNames    (nBCs)       fixed-length strings, 255 bytes, blank-padded
 *   BCType     (nBCs, 4)    type, curve index, state, periodic index (alpha)
 * Shapes are C order (as h5dump shows them); the guide writes them in Fortran order. Indices in
 * the file start at 1; 0 means "none". The flip of a connected pair is symmetric: the first node
 * of one side is node number `flip` of the other, in CGNS side-node order; hexdg's flips 1..4
 * (mesh/facemap.h) are the same numbers. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "basis/basis.h"
#include "core/error.h"
#include "mesh/facemap.h"
#include "mesh/hopr.h"

/* Columns of ElemInfo and SideInfo (HOPR user guide, tables "ElemInfo" and "SideInfo"). */
enum {
  ELEM_TYPE,
  ELEM_ZONE,
  ELEM_FIRST_SIDE,
  ELEM_LAST_SIDE,
  ELEM_FIRST_NODE,
  ELEM_LAST_NODE,
  ELEM_INFO_SIZE
};
enum { SIDE_TYPE, SIDE_ID, SIDE_NB_ELEM, SIDE_NB_LOCSIDE_FLIP, SIDE_BCID, SIDE_INFO_SIZE };
enum { BCTYPE_TYPE, BCTYPE_CURVE, BCTYPE_STATE, BCTYPE_ALPHA, BCTYPE_SIZE };

/* BC types that HOPR stores with a neighbour: periodic and inner ("analyze") sides. */
enum { BC_PERIODIC = 1, BC_INNER = 100 };

/* Element type codes of hexahedra: linear (affine), bilinear (straight-edged), non-linear. */
enum { HEX_LINEAR = 108, HEX_BILINEAR = 118, HEX_CURVED = 208 };
/* Quadrilateral side types: linear (parallelogram), bilinear, non-linear. */
enum { QUAD_LINEAR = 4, QUAD_BILINEAR = 14, QUAD_CURVED = 24 };

#define BC_NAME_BYTES 255 /* BCNames entries: CHARACTER(LEN=255) */
#define N_ELEM_TYPES 11   /* rows of ElemCounter */
static const int ELEM_COUNTER_TYPES[N_ELEM_TYPES] = {104, 204, 105, 115, 205, 106,
                                                     116, 206, 108, 118, 208};
static const double HOPR_MESH_VERSION = 1.0;

/* Relative tolerance for coincident points (periodic translations, affine checks). */
static const double GEOM_TOL = 1e-10;

/* ---------------------------------------------------------------------------------------------
 * HDF5 error printing: off while hexdg reports errors itself with file context. */

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

/* =============================================================================================
 * Reading */

typedef struct {
  const char *path;
  int n_elems, NGeo, n_bcs;
  long n_side_rows, n_node_rows;
  int elem_cols, side_cols;
  int *elem_info;   /* [n_elems][elem_cols] */
  int *side_info;   /* [n_side_rows][side_cols] */
  double *node_xyz; /* [n_node_rows][3] */
  char *bc_names;   /* [n_bcs][HX_MAX_NAME] */
  int *bc_type;     /* [n_bcs][4] */
} HoprData;

static void hopr_data_free(HoprData *d) {
  free(d->elem_info);
  free(d->side_info);
  free(d->node_xyz);
  free(d->bc_names);
  free(d->bc_type);
}

static int open_for_reading(const char *path, hid_t *file) {
  FILE *probe = fopen(path, "rb");
  if (!probe)
    return HX_ERROR(HX_ERR_IO, "HOPR mesh '%s': cannot open the file (%s); check MeshFile", path,
                    strerror(errno));
  fclose(probe);
  htri_t is_hdf5 = H5Fis_hdf5(path);
  if (is_hdf5 <= 0)
    return HX_ERROR(HX_ERR_INPUT,
                    "HOPR mesh '%s' is not an HDF5 file (a HOPR *_mesh.h5 file is needed)", path);
  *file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (*file < 0)
    return HX_ERROR(HX_ERR_IO,
                    "HOPR mesh '%s': HDF5 cannot open the file (truncated or corrupt? copy or "
                    "generate it again)",
                    path);
  return HX_OK;
}

static int read_int_attr(hid_t file, const char *name, int *value, const char *path) {
  if (H5Aexists(file, name) <= 0)
    return HX_ERROR(HX_ERR_INPUT,
                    "HOPR mesh '%s' has no attribute '%s': not a HOPR mesh file (generate it with "
                    "HOPR or 'hexdg mesh')",
                    path, name);
  hid_t attr = H5Aopen(file, name, H5P_DEFAULT);
  hid_t space = attr >= 0 ? H5Aget_space(attr) : -1;
  int rc = HX_OK;
  if (attr < 0 || space < 0 || H5Sget_simple_extent_npoints(space) != 1 ||
      H5Aread(attr, H5T_NATIVE_INT, value) < 0)
    rc = HX_ERROR(HX_ERR_INPUT,
                  "HOPR mesh '%s': cannot read attribute '%s' as one integer (corrupt file?)", path,
                  name);
  if (space >= 0) H5Sclose(space);
  if (attr >= 0) H5Aclose(attr);
  return rc;
}

/* Open a dataset that a HOPR file must have; a missing one means "not a HOPR mesh". */
static int open_dataset(hid_t file, const char *name, const char *path, hid_t *dset) {
  *dset = -1;
  if (H5Lexists(file, name, H5P_DEFAULT) <= 0)
    return HX_ERROR(HX_ERR_INPUT,
                    "HOPR mesh '%s' has no dataset '%s': not a HOPR mesh file (generate it with "
                    "HOPR or 'hexdg mesh')",
                    path, name);
  *dset = H5Dopen2(file, name, H5P_DEFAULT);
  if (*dset < 0)
    return HX_ERROR(HX_ERR_INPUT, "HOPR mesh '%s': cannot open dataset '%s' (corrupt file?)", path,
                    name);
  return HX_OK;
}

/* Dimensions of a dataset of rank 1 or 2 (rank 1: cols = 1). */
static int dataset_shape(hid_t dset, const char *name, const char *path, long *rows, int *cols) {
  hid_t space = H5Dget_space(dset);
  int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
  hsize_t dims[2] = {0, 1};
  if (rank == 1 || rank == 2) H5Sget_simple_extent_dims(space, dims, NULL);
  if (space >= 0) H5Sclose(space);
  if (rank != 1 && rank != 2)
    return HX_ERROR(HX_ERR_INPUT, "HOPR mesh '%s': dataset '%s' has rank %d, expected 1 or 2", path,
                    name, rank);
  if (dims[0] > (hsize_t)INT_MAX || dims[1] > (hsize_t)INT_MAX)
    return HX_ERROR(HX_ERR_INPUT, "HOPR mesh '%s': dataset '%s' is larger than supported", path,
                    name);
  *rows = (long)dims[0];
  *cols = (int)dims[1];
  return HX_OK;
}

/* Read a whole numeric 2-D dataset of rows x cols (cols in [min_cols, max_cols]). */
static int read_table(hid_t file, const char *name, hid_t mem_type, size_t value_size, int min_cols,
                      int max_cols, const char *path, long *rows, int *cols, void **data) {
  hid_t dset;
  HX_CHECK(open_dataset(file, name, path, &dset));
  int rc = dataset_shape(dset, name, path, rows, cols);
  if (rc == HX_OK && (*cols < min_cols || *cols > max_cols))
    rc = HX_ERROR(HX_ERR_INPUT,
                  "HOPR mesh '%s': dataset '%s' has %d columns, expected %d..%d (not a HOPR mesh "
                  "of this format version?)",
                  path, name, *cols, min_cols, max_cols);
  if (rc == HX_OK) {
    *data = hx_malloc((size_t)*rows * (size_t)*cols * value_size, name);
    if (!*data) rc = HX_ERR_MEM;
  }
  if (rc == HX_OK && H5Dread(dset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, *data) < 0)
    rc =
        HX_ERROR(HX_ERR_IO, "HOPR mesh '%s': cannot read dataset '%s' (truncated or corrupt file?)",
                 path, name);
  H5Dclose(dset);
  return rc;
}

/* Copy a fixed-length, blank- or NUL-padded name into a NUL-terminated buffer. */
static void copy_trimmed_name(const char *src, size_t size, char *dst) {
  size_t len = 0;
  while (len < size && src[len] != '\0')
    len++;
  while (len > 0 && src[len - 1] == ' ')
    len--;
  if (len > HX_MAX_NAME - 1) len = HX_MAX_NAME - 1;
  memcpy(dst, src, len);
  dst[len] = '\0';
}

static int read_bc_names(hid_t file, HoprData *d) {
  hid_t dset;
  long rows;
  int cols;
  HX_CHECK(open_dataset(file, "BCNames", d->path, &dset));
  int rc = dataset_shape(dset, "BCNames", d->path, &rows, &cols);
  hid_t ftype = H5Dget_type(dset);
  size_t size = ftype >= 0 ? H5Tget_size(ftype) : 0;
  if (rc == HX_OK && (ftype < 0 || H5Tget_class(ftype) != H5T_STRING ||
                      H5Tis_variable_str(ftype) != 0 || size == 0 || cols != 1))
    rc = HX_ERROR(HX_ERR_INPUT,
                  "HOPR mesh '%s': BCNames must be a list of fixed-length strings (as HOPR "
                  "writes them)",
                  d->path);
  char *raw = NULL;
  if (rc == HX_OK) {
    d->n_bcs = (int)rows;
    raw = hx_malloc((size_t)rows * size, "BCNames");
    d->bc_names = hx_calloc((size_t)rows, HX_MAX_NAME, "BC names");
    if (!raw || !d->bc_names) rc = HX_ERR_MEM;
  }
  /* read with the file's own string type: the bytes as stored, padding removed below */
  if (rc == HX_OK && H5Dread(dset, ftype, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw) < 0)
    rc = HX_ERROR(HX_ERR_IO, "HOPR mesh '%s': cannot read BCNames (truncated or corrupt file?)",
                  d->path);
  for (long b = 0; rc == HX_OK && b < rows; b++)
    copy_trimmed_name(raw + (size_t)b * size, size, d->bc_names + (size_t)b * HX_MAX_NAME);
  free(raw);
  if (ftype >= 0) H5Tclose(ftype);
  H5Dclose(dset);
  return rc;
}

static int read_header(hid_t file, HoprData *d) {
  long rows;
  HX_CHECK(read_int_attr(file, "Ngeo", &d->NGeo, d->path));
  if (d->NGeo < 1 || d->NGeo > HX_NMAX)
    return HX_ERROR(HX_ERR_INPUT, "HOPR mesh '%s': Ngeo = %d is out of the supported range 1..%d",
                    d->path, d->NGeo, HX_NMAX);
  HX_CHECK(read_table(file, "ElemInfo", H5T_NATIVE_INT, sizeof(int), ELEM_INFO_SIZE, 16, d->path,
                      &rows, &d->elem_cols, (void **)&d->elem_info));
  d->n_elems = (int)rows;
  int n_elems_attr = d->n_elems;
  if (H5Aexists(file, "nElems") > 0)
    HX_CHECK(read_int_attr(file, "nElems", &n_elems_attr, d->path));
  if (d->n_elems < 1 || n_elems_attr != d->n_elems)
    return HX_ERROR(HX_ERR_INPUT,
                    "HOPR mesh '%s': ElemInfo has %d rows but attribute nElems = %d (corrupt "
                    "file?)",
                    d->path, d->n_elems, n_elems_attr);
  return HX_OK;
}

/* NaN/inf would reach the connectivity and the metrics (docs/fuzzing.md) */
static int check_node_coords(const HoprData *d) {
  for (long n = 0; n < 3 * d->n_node_rows; n++)
    if (!isfinite(d->node_xyz[n]))
      return HX_ERROR(HX_ERR_INPUT,
                      "HOPR mesh '%s': NodeCoords row %ld has the non-finite coordinate %g "
                      "(corrupt file?)",
                      d->path, n / 3 + 1, d->node_xyz[n]);
  return HX_OK;
}

static int hopr_load(const char *path, HoprData *d) {
  hid_t file = -1;
  memset(d, 0, sizeof *d);
  d->path = path;
  HX_CHECK(open_for_reading(path, &file));
  int rc = read_header(file, d);
  int cols;
  long rows;
  if (rc == HX_OK)
    rc = read_table(file, "SideInfo", H5T_NATIVE_INT, sizeof(int), SIDE_INFO_SIZE, 16, path,
                    &d->n_side_rows, &d->side_cols, (void **)&d->side_info);
  if (rc == HX_OK)
    rc = read_table(file, "NodeCoords", H5T_NATIVE_DOUBLE, sizeof(double), 3, 3, path,
                    &d->n_node_rows, &cols, (void **)&d->node_xyz);
  if (rc == HX_OK) rc = check_node_coords(d);
  if (rc == HX_OK) rc = read_bc_names(file, d);
  if (rc == HX_OK)
    rc = read_table(file, "BCType", H5T_NATIVE_INT, sizeof(int), BCTYPE_SIZE, BCTYPE_SIZE, path,
                    &rows, &cols, (void **)&d->bc_type);
  if (rc == HX_OK && rows != d->n_bcs)
    rc = HX_ERROR(HX_ERR_INPUT, "HOPR mesh '%s': BCNames has %d entries but BCType has %ld", path,
                  d->n_bcs, rows);
  H5Fclose(file);
  return rc;
}

static const char *elem_type_name(int type) {
  switch (type % 10) {
  case 4:
    return "tetrahedron";
  case 5:
    return "pyramid";
  case 6:
    return "prism";
  case 8:
    return "hexahedron";
  default:
    return "unknown element";
  }
}

static int is_hexahedron(int type) {
  return type == HEX_LINEAR || type == HEX_BILINEAR || type == HEX_CURVED;
}

/* Every element: a hexahedron with 6 sides and (NGeo+1)^3 nodes inside the arrays. */
static int check_elements(const HoprData *d) {
  long n_nodes_elem = (long)(d->NGeo + 1) * (d->NGeo + 1) * (d->NGeo + 1);
  for (int e = 0; e < d->n_elems; e++) {
    const int *row = &d->elem_info[(size_t)e * d->elem_cols];
    if (!is_hexahedron(row[ELEM_TYPE]))
      return HX_ERROR(HX_ERR_INPUT,
                      "HOPR mesh '%s': element %d has type %d (%s); hexdg supports hexahedra only "
                      "(types %d, %d, %d): regenerate the mesh with hexahedra",
                      d->path, e + 1, row[ELEM_TYPE], elem_type_name(row[ELEM_TYPE]), HEX_LINEAR,
                      HEX_BILINEAR, HEX_CURVED);
    long n_sides = (long)row[ELEM_LAST_SIDE] - row[ELEM_FIRST_SIDE];
    if (n_sides > 6)
      return HX_ERROR(HX_ERR_INPUT,
                      "HOPR mesh '%s': element %d has %ld SideInfo entries: non-conforming "
                      "(mortar) meshes are not supported",
                      d->path, e + 1, n_sides);
    if (n_sides != 6 || row[ELEM_FIRST_SIDE] < 0 || row[ELEM_LAST_SIDE] > d->n_side_rows)
      return HX_ERROR(HX_ERR_INPUT,
                      "HOPR mesh '%s': element %d has SideInfo range %d+1..%d, expected 6 sides "
                      "within 1..%ld (corrupt file?)",
                      d->path, e + 1, row[ELEM_FIRST_SIDE], row[ELEM_LAST_SIDE], d->n_side_rows);
    long n_nodes = (long)row[ELEM_LAST_NODE] - row[ELEM_FIRST_NODE];
    if (n_nodes != n_nodes_elem || row[ELEM_FIRST_NODE] < 0 || row[ELEM_LAST_NODE] > d->n_node_rows)
      return HX_ERROR(HX_ERR_INPUT,
                      "HOPR mesh '%s': element %d has NodeCoords range %d+1..%d, expected "
                      "(Ngeo+1)^3 = %ld nodes within 1..%ld (corrupt file?)",
                      d->path, e + 1, row[ELEM_FIRST_NODE], row[ELEM_LAST_NODE], n_nodes_elem,
                      d->n_node_rows);
  }
  return HX_OK;
}

static const int *side_row(const HoprData *d, int elem, int locside) {
  long first = d->elem_info[(size_t)elem * d->elem_cols + ELEM_FIRST_SIDE];
  return &d->side_info[(size_t)(first + locside) * d->side_cols];
}

/* A side is connected when it names a neighbour and has no BC, or a periodic/inner BC. */
static int side_is_connected(const HoprData *d, const int *row) {
  int bcid = row[SIDE_BCID];
  if (row[SIDE_NB_ELEM] <= 0) return 0;
  if (bcid == 0) return 1;
  int type = d->bc_type[(size_t)(bcid - 1) * BCTYPE_SIZE + BCTYPE_TYPE];
  return type == BC_PERIODIC || type == BC_INNER;
}

/* neighbor[f] = 6*nb_elem + nb_locside for connected sides, else -1 and bcid_of_face[f] = BCID-1.
 */
static int classify_face(const HoprData *d, int e, int s, int *neighbor, int *bcid_of_face) {
  const int *row = side_row(d, e, s);
  int f = 6 * e + s, nb = row[SIDE_NB_ELEM], bcid = row[SIDE_BCID];
  neighbor[f] = -1;
  bcid_of_face[f] = -1;
  if (row[SIDE_TYPE] < 0 || nb < 0)
    return HX_ERROR(HX_ERR_INPUT,
                    "HOPR mesh '%s': element %d side %d belongs to a mortar interface: "
                    "non-conforming meshes are not supported",
                    d->path, e + 1, s + 1);
  if (bcid < 0 || bcid > d->n_bcs)
    return HX_ERROR(HX_ERR_INPUT, "HOPR mesh '%s': element %d side %d has BCID %d outside 0..%d",
                    d->path, e + 1, s + 1, bcid, d->n_bcs);
  if (side_is_connected(d, row)) {
    int nb_loc = row[SIDE_NB_LOCSIDE_FLIP] / 10, flip = row[SIDE_NB_LOCSIDE_FLIP] % 10;
    if (nb > d->n_elems || nb_loc < 1 || nb_loc > 6 || flip < 0 || flip > 4)
      return HX_ERROR(HX_ERR_INPUT,
                      "HOPR mesh '%s': element %d side %d names neighbour element %d, local side "
                      "%d, flip %d: expected element 1..%d, side 1..6, flip 0..4 (corrupt file?)",
                      d->path, e + 1, s + 1, nb, nb_loc, flip, d->n_elems);
    neighbor[f] = 6 * (nb - 1) + nb_loc - 1;
    return HX_OK;
  }
  if (bcid == 0)
    return HX_ERROR(HX_ERR_INPUT,
                    "HOPR mesh '%s': element %d side %d has neither a neighbour nor a boundary "
                    "condition (open mesh?); check the mesh generation",
                    d->path, e + 1, s + 1);
  if (d->bc_type[(size_t)(bcid - 1) * BCTYPE_SIZE + BCTYPE_TYPE] == BC_PERIODIC)
    return HX_ERROR(HX_ERR_INPUT,
                    "HOPR mesh '%s': element %d side %d has periodic BC '%s' but no neighbour; "
                    "check the periodic vectors in the HOPR parameter file",
                    d->path, e + 1, s + 1, d->bc_names + (size_t)(bcid - 1) * HX_MAX_NAME);
  bcid_of_face[f] = bcid - 1;
  return HX_OK;
}

/* Both sides of a connection name each other and carry the same GlobalSideID, one of them
 * negative (the slave). */
static int check_pair(const HoprData *d, const int *neighbor, int f) {
  int g = neighbor[f];
  const int *a = side_row(d, f / 6, f % 6), *b = side_row(d, g / 6, g % 6);
  if (neighbor[g] != f)
    return HX_ERROR(HX_ERR_INPUT,
                    "HOPR mesh '%s': element %d side %d names neighbour element %d side %d, whose "
                    "SideInfo entry does not name it back (inconsistent neighbour information)",
                    d->path, f / 6 + 1, f % 6 + 1, g / 6 + 1, g % 6 + 1);
  if (a[SIDE_ID] == 0 || a[SIDE_ID] != -b[SIDE_ID])
    return HX_ERROR(HX_ERR_INPUT,
                    "HOPR mesh '%s': element %d side %d (GlobalSideID %d) and its neighbour "
                    "element %d side %d (GlobalSideID %d) must carry the same ID with opposite "
                    "signs (inconsistent neighbour information)",
                    d->path, f / 6 + 1, f % 6 + 1, a[SIDE_ID], g / 6 + 1, g % 6 + 1, b[SIDE_ID]);
  return HX_OK;
}

static int build_connectivity(const HoprData *d, int *neighbor, int *bcid_of_face) {
  for (int e = 0; e < d->n_elems; e++)
    for (int s = 0; s < 6; s++)
      HX_CHECK(classify_face(d, e, s, neighbor, bcid_of_face));
  for (int f = 0; f < 6 * d->n_elems; f++)
    if (neighbor[f] >= 0) HX_CHECK(check_pair(d, neighbor, f));
  return HX_OK;
}

/* m->bcs: the file's BCs that boundary sides use, in file order; face_bc indexes them. */
static int build_bc_list(const HoprData *d, const int *bcid_of_face, Mesh *m, int *face_bc) {
  int *new_index = hx_malloc(sizeof(int) * (size_t)(d->n_bcs + 1), "BC map");
  m->bcs = hx_calloc((size_t)(d->n_bcs + 1), sizeof(BoundaryCondition), "boundary conditions");
  if (!new_index || !m->bcs) {
    free(new_index);
    return HX_ERR_MEM;
  }
  for (int b = 0; b < d->n_bcs; b++)
    new_index[b] = -1;
  for (int f = 0; f < 6 * d->n_elems; f++)
    if (bcid_of_face[f] >= 0) new_index[bcid_of_face[f]] = 0;
  m->n_bcs = 0;
  for (int b = 0; b < d->n_bcs; b++) {
    if (new_index[b] < 0) continue;
    BoundaryCondition *bc = &m->bcs[m->n_bcs];
    snprintf(bc->name, sizeof bc->name, "%s", d->bc_names + (size_t)b * HX_MAX_NAME);
    bc->type = d->bc_type[(size_t)b * BCTYPE_SIZE + BCTYPE_TYPE];
    bc->state = d->bc_type[(size_t)b * BCTYPE_SIZE + BCTYPE_STATE];
    new_index[b] = m->n_bcs++;
  }
  for (int f = 0; f < 6 * d->n_elems; f++)
    face_bc[f] = bcid_of_face[f] >= 0 ? new_index[bcid_of_face[f]] : -1;
  free(new_index);
  return HX_OK;
}

static int fill_geometry(const HoprData *d, Mesh *m) {
  size_t n_nodes_elem = (size_t)(d->NGeo + 1) * (d->NGeo + 1) * (d->NGeo + 1);
  m->n_elems = d->n_elems;
  m->NGeo = d->NGeo;
  snprintf(m->source, sizeof m->source, "%s", d->path);
  m->node_coords = hx_malloc(sizeof(double) * 3 * n_nodes_elem * (size_t)d->n_elems, "mesh nodes");
  m->elem_global_id = hx_malloc(sizeof(long) * (size_t)d->n_elems, "element ids");
  if (!m->node_coords || !m->elem_global_id) return HX_ERR_MEM;
  /* HOPR's hexahedron node list is the tensor product with i fastest: hexdg's layout */
  for (int e = 0; e < d->n_elems; e++) {
    size_t first = (size_t)d->elem_info[(size_t)e * d->elem_cols + ELEM_FIRST_NODE];
    memcpy(&m->node_coords[3 * n_nodes_elem * (size_t)e], &d->node_xyz[3 * first],
           sizeof(double) * 3 * n_nodes_elem);
    m->elem_global_id[e] = e + 1;
  }
  return HX_OK;
}

/* The file's flip must be the geometric one; masters (GlobalSideID > 0) may also store 0. */
static int check_flips(const HoprData *d, const Mesh *m, const int *neighbor) {
  for (int f = 0; f < 6 * d->n_elems; f++) {
    if (neighbor[f] < 0) continue;
    const int *row = side_row(d, f / 6, f % 6);
    int file_flip = row[SIDE_NB_LOCSIDE_FLIP] % 10;
    int geo_flip = m->side_flip[m->elem_to_side[f]];
    if (file_flip == geo_flip || (file_flip == 0 && row[SIDE_ID] > 0)) continue;
    return HX_ERROR(HX_ERR_INPUT,
                    "HOPR mesh '%s': element %d side %d has flip %d in SideInfo, but its corner "
                    "nodes match neighbour element %d side %d with flip %d (inconsistent "
                    "neighbour information; regenerate the mesh)",
                    d->path, f / 6 + 1, f % 6 + 1, file_flip, neighbor[f] / 6 + 1,
                    neighbor[f] % 6 + 1, geo_flip);
  }
  return HX_OK;
}

static int mesh_from_hopr(const HoprData *d, Mesh *m) {
  HX_CHECK(check_elements(d));
  HX_CHECK(fill_geometry(d, m));
  size_t n_faces = 6 * (size_t)d->n_elems;
  int *neighbor = hx_malloc(sizeof(int) * n_faces, "face neighbours");
  int *bcid_of_face = hx_malloc(sizeof(int) * n_faces, "face BCs");
  int *face_bc = hx_malloc(sizeof(int) * n_faces, "face BCs");
  int rc = (neighbor && bcid_of_face && face_bc) ? HX_OK : HX_ERR_MEM;
  if (rc == HX_OK) rc = build_connectivity(d, neighbor, bcid_of_face);
  if (rc == HX_OK) rc = build_bc_list(d, bcid_of_face, m, face_bc);
  if (rc == HX_OK) rc = mesh_connect(m, neighbor, face_bc);
  if (rc == HX_OK) rc = check_flips(d, m, neighbor);
  free(neighbor);
  free(bcid_of_face);
  free(face_bc);
  return rc;
}

int mesh_read_hopr(const char *path, Mesh **out) {
  *out = NULL;
  Hdf5ErrorPrinting saved = hdf5_errors_silence();
  HoprData d;
  int rc = hopr_load(path, &d);
  hdf5_errors_restore(saved);
  Mesh *m = NULL;
  if (rc == HX_OK) {
    m = hx_calloc(1, sizeof(Mesh), "mesh");
    rc = m ? mesh_from_hopr(&d, m) : HX_ERR_MEM;
  }
  hopr_data_free(&d);
  if (rc != HX_OK) {
    mesh_destroy(m);
    return rc;
  }
  *out = m;
  return HX_OK;
}

/* =============================================================================================
 * Writing */

static size_t nodes_per_elem(const Mesh *m) {
  return (size_t)(m->NGeo + 1) * (m->NGeo + 1) * (m->NGeo + 1);
}

/* Index of face point (p,q) of side (elem, locside) in the mesh's node list. */
static long face_node(const Mesh *m, int elem, int locside, int p, int q) {
  int i, j, k, ng = m->NGeo + 1;
  side_to_volume(m->NGeo, locside, p, q, &i, &j, &k);
  return (long)elem * (long)nodes_per_elem(m) + (long)(k * ng + j) * ng + i;
}

static const double *node_xyz(const Mesh *m, long node) {
  return &m->node_coords[3 * node];
}

static double dist(const double *a, const double *b) {
  return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
              (a[2] - b[2]) * (a[2] - b[2]));
}

/* Translation from the master's face to the slave's (zero for ordinary inner sides) and the
 * master face's diagonal, as the length scale for tolerances. */
static void side_translation(const Mesh *m, int side, double t[3], double *diag) {
  int em = m->side_master_elem[side], sm = m->side_master_locside[side];
  int es = m->side_slave_elem[side], ss = m->side_slave_locside[side], ps, qs;
  flip_master_to_slave(m->side_flip[side], m->NGeo, 0, 0, &ps, &qs);
  const double *xm = node_xyz(m, face_node(m, em, sm, 0, 0));
  const double *xs = node_xyz(m, face_node(m, es, ss, ps, qs));
  for (int d = 0; d < 3; d++)
    t[d] = xs[d] - xm[d];
  *diag = dist(xm, node_xyz(m, face_node(m, em, sm, m->NGeo, m->NGeo)));
}

/* Periodic pairs, grouped by translation vector: vec[g] is the group's vector with its first
 * non-zero component positive; side_group[side] = g, side_sign[side] = +1 if the slave lies at
 * master + vec[g], -1 if at master - vec[g]; side_group = -1 for non-periodic sides. */
typedef struct {
  int n_groups;
  double (*vec)[3];
  int *side_group, *side_sign;
} PeriodicInfo;

static void periodic_free(PeriodicInfo *p) {
  free(p->vec);
  free(p->side_group);
  free(p->side_sign);
}

static void canonical_direction(double t[3], int *sign) {
  double scale = fabs(t[0]) + fabs(t[1]) + fabs(t[2]);
  *sign = 1;
  for (int d = 0; d < 3; d++) {
    if (fabs(t[d]) <= GEOM_TOL * scale) continue;
    if (t[d] < 0) *sign = -1;
    break;
  }
  for (int d = 0; d < 3; d++)
    t[d] *= *sign;
}

static int find_or_add_group(PeriodicInfo *p, const double v[3], int max_groups) {
  for (int g = 0; g < p->n_groups; g++)
    if (dist(p->vec[g], v) <= GEOM_TOL * (fabs(v[0]) + fabs(v[1]) + fabs(v[2]))) return g;
  if (p->n_groups >= max_groups) return -1;
  memcpy(p->vec[p->n_groups], v, sizeof(double) * 3);
  return p->n_groups++;
}

static int find_periodic_pairs(const Mesh *m, PeriodicInfo *p) {
  memset(p, 0, sizeof *p);
  int max_groups = m->n_inner_sides > 0 ? m->n_inner_sides : 1;
  p->vec = hx_malloc(sizeof(double[3]) * (size_t)max_groups, "periodic vectors");
  p->side_group = hx_malloc(sizeof(int) * (size_t)m->n_sides, "periodic sides");
  p->side_sign = hx_malloc(sizeof(int) * (size_t)m->n_sides, "periodic sides");
  if (!p->vec || !p->side_group || !p->side_sign) return HX_ERR_MEM;
  for (int side = 0; side < m->n_sides; side++) {
    p->side_group[side] = -1;
    p->side_sign[side] = 0;
    if (m->side_slave_elem[side] < 0) continue;
    double t[3], diag;
    side_translation(m, side, t, &diag);
    if (sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]) <= GEOM_TOL * diag) continue;
    canonical_direction(t, &p->side_sign[side]);
    p->side_group[side] = find_or_add_group(p, t, max_groups);
  }
  return HX_OK;
}

/* Unique node ids: nodes joined through ordinary (not periodic) inner sides share an id, so that
 * periodic partners stay distinct. Union-find with path halving. */
static long uf_find(long *parent, long x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

static void uf_union(long *parent, long a, long b) {
  a = uf_find(parent, a);
  b = uf_find(parent, b);
  if (a != b) parent[a < b ? b : a] = a < b ? a : b;
}

static void join_side_nodes(const Mesh *m, int side, long *parent) {
  int em = m->side_master_elem[side], sm = m->side_master_locside[side];
  int es = m->side_slave_elem[side], ss = m->side_slave_locside[side];
  for (int q = 0; q <= m->NGeo; q++)
    for (int p = 0; p <= m->NGeo; p++) {
      int ps, qs;
      flip_master_to_slave(m->side_flip[side], m->NGeo, p, q, &ps, &qs);
      uf_union(parent, face_node(m, em, sm, p, q), face_node(m, es, ss, ps, qs));
    }
}

/* ids[node] = 1..n_unique, numbered in order of first appearance. */
static int unique_node_ids(const Mesh *m, const PeriodicInfo *per, int *ids, int *n_unique) {
  long n_nodes = (long)m->n_elems * (long)nodes_per_elem(m);
  long *parent = hx_malloc(sizeof(long) * (size_t)n_nodes, "node union-find");
  HX_ALLOC_CHECK(parent);
  for (long n = 0; n < n_nodes; n++)
    parent[n] = n;
  for (int side = 0; side < m->n_sides; side++)
    if (m->side_slave_elem[side] >= 0 && per->side_group[side] < 0)
      join_side_nodes(m, side, parent);
  *n_unique = 0;
  for (long n = 0; n < n_nodes; n++)
    ids[n] = 0;
  for (long n = 0; n < n_nodes; n++) {
    long root = uf_find(parent, n);
    if (ids[root] == 0) ids[root] = ++*n_unique;
    ids[n] = ids[root];
  }
  free(parent);
  return HX_OK;
}

/* The periodic BCs follow the mesh's own: per group g, first the side whose partner lies at
 * +vec[g] (alpha = +(g+1)), then its partner (alpha = -(g+1)), as HOPR's BCType alpha says. */
static int periodic_bc_index(const Mesh *m, int group, int at_lower_end) {
  return m->n_bcs + 2 * group + (at_lower_end ? 0 : 1);
}

static void periodic_bc_name(const PeriodicInfo *p, int g, int at_lower_end, char *name,
                             size_t size) {
  const double *v = p->vec[g];
  double len = fabs(v[0]) + fabs(v[1]) + fabs(v[2]);
  int axis = -1;
  for (int d = 0; d < 3; d++)
    if (fabs(v[d]) > (1.0 - GEOM_TOL) * len) axis = d;
  const char sense = at_lower_end ? '-' : '+';
  if (axis >= 0)
    snprintf(name, size, "BC_periodic%c%c", "xyz"[axis], sense);
  else
    snprintf(name, size, "BC_periodic%d%c", g + 1, sense);
}

typedef struct {
  int n_bcs;
  char *names; /* [n_bcs][BC_NAME_BYTES], blank-padded */
  int *type;   /* [n_bcs][4] */
} FileBcs;

static int build_file_bcs(const Mesh *m, const PeriodicInfo *per, FileBcs *fb) {
  fb->n_bcs = m->n_bcs + 2 * per->n_groups;
  fb->names = hx_malloc((size_t)fb->n_bcs * BC_NAME_BYTES + 1, "BCNames");
  fb->type = hx_calloc((size_t)fb->n_bcs * BCTYPE_SIZE + 1, sizeof(int), "BCType");
  if (!fb->names || !fb->type) return HX_ERR_MEM;
  memset(fb->names, ' ', (size_t)fb->n_bcs * BC_NAME_BYTES);
  for (int b = 0; b < fb->n_bcs; b++) {
    char name[HX_MAX_NAME];
    int *type = &fb->type[b * BCTYPE_SIZE];
    if (b < m->n_bcs) {
      snprintf(name, sizeof name, "%s", m->bcs[b].name);
      type[BCTYPE_TYPE] = m->bcs[b].type;
      type[BCTYPE_STATE] = m->bcs[b].state;
    } else {
      int g = (b - m->n_bcs) / 2, lower = (b - m->n_bcs) % 2 == 0;
      periodic_bc_name(per, g, lower, name, sizeof name);
      type[BCTYPE_TYPE] = BC_PERIODIC;
      type[BCTYPE_ALPHA] = lower ? g + 1 : -(g + 1);
    }
    size_t len = strlen(name);
    memcpy(fb->names + (size_t)b * BC_NAME_BYTES, name, len < BC_NAME_BYTES ? len : BC_NAME_BYTES);
  }
  return HX_OK;
}

/* HOPR element type: non-linear for NGeo > 1, linear if the corners are an affine image of the
 * reference cube, bilinear otherwise. */
static int hopr_elem_type(const Mesh *m, int e) {
  if (m->NGeo > 1) return HEX_CURVED;
  const double *x = &m->node_coords[24 * (size_t)e]; /* 8 corners, i fastest */
  double h = dist(&x[0], &x[3 * 7]);
  for (int c = 0; c < 8; c++) {
    int i = c & 1, j = (c >> 1) & 1, k = (c >> 2) & 1;
    double affine[3];
    for (int d = 0; d < 3; d++)
      affine[d] = x[d] + i * (x[3 + d] - x[d]) + j * (x[6 + d] - x[d]) + k * (x[12 + d] - x[d]);
    if (dist(affine, &x[3 * c]) > GEOM_TOL * h) return HEX_BILINEAR;
  }
  return HEX_LINEAR;
}

static int hopr_side_type(const Mesh *m, int e, int s) {
  if (m->NGeo > 1) return QUAD_CURVED;
  const double *x00 = node_xyz(m, face_node(m, e, s, 0, 0));
  const double *x10 = node_xyz(m, face_node(m, e, s, 1, 0));
  const double *x11 = node_xyz(m, face_node(m, e, s, 1, 1));
  const double *x01 = node_xyz(m, face_node(m, e, s, 0, 1));
  double corner[3];
  for (int d = 0; d < 3; d++)
    corner[d] = x10[d] + x01[d] - x00[d];
  return dist(corner, x11) <= GEOM_TOL * dist(x00, x11) ? QUAD_LINEAR : QUAD_BILINEAR;
}

/* One SideInfo row for local side s of element e. */
static void side_info_row(const Mesh *m, const PeriodicInfo *per, int e, int s, int *row) {
  int side = m->elem_to_side[6 * e + s];
  int is_master = m->side_master_elem[side] == e && m->side_master_locside[side] == s;
  row[SIDE_TYPE] = hopr_side_type(m, e, s);
  row[SIDE_ID] = is_master ? side + 1 : -(side + 1);
  if (m->side_slave_elem[side] < 0) {
    row[SIDE_NB_ELEM] = 0;
    row[SIDE_NB_LOCSIDE_FLIP] = 0;
    row[SIDE_BCID] = m->side_bc[side] + 1;
    return;
  }
  int nb = is_master ? m->side_slave_elem[side] : m->side_master_elem[side];
  int nb_loc = is_master ? m->side_slave_locside[side] : m->side_master_locside[side];
  row[SIDE_NB_ELEM] = nb + 1;
  row[SIDE_NB_LOCSIDE_FLIP] = 10 * (nb_loc + 1) + m->side_flip[side];
  row[SIDE_BCID] = 0;
  int g = per->side_group[side];
  if (g >= 0) {
    /* the master lies at the lower end when its slave is at master + vec[g] */
    int master_lower = per->side_sign[side] > 0;
    row[SIDE_BCID] = periodic_bc_index(m, g, is_master ? master_lower : !master_lower) + 1;
  }
}

typedef struct {
  int *elem_info, *side_info, *node_ids, *elem_counter;
  double *barycenters, *weights;
  int n_unique_nodes;
  FileBcs bcs;
} HoprArrays;

static void hopr_arrays_free(HoprArrays *a) {
  free(a->elem_info);
  free(a->side_info);
  free(a->node_ids);
  free(a->elem_counter);
  free(a->barycenters);
  free(a->weights);
  free(a->bcs.names);
  free(a->bcs.type);
}

static void fill_elem_arrays(const Mesh *m, const PeriodicInfo *per, HoprArrays *a) {
  size_t n_nodes_elem = nodes_per_elem(m);
  for (int t = 0; t < N_ELEM_TYPES; t++) {
    a->elem_counter[2 * t] = ELEM_COUNTER_TYPES[t];
    a->elem_counter[2 * t + 1] = 0;
  }
  for (int e = 0; e < m->n_elems; e++) {
    int *row = &a->elem_info[ELEM_INFO_SIZE * (size_t)e];
    row[ELEM_TYPE] = hopr_elem_type(m, e);
    row[ELEM_ZONE] = 1;
    row[ELEM_FIRST_SIDE] = 6 * e;
    row[ELEM_LAST_SIDE] = 6 * e + 6;
    row[ELEM_FIRST_NODE] = (int)(n_nodes_elem * (size_t)e);
    row[ELEM_LAST_NODE] = (int)(n_nodes_elem * (size_t)(e + 1));
    for (int t = 0; t < N_ELEM_TYPES; t++)
      if (ELEM_COUNTER_TYPES[t] == row[ELEM_TYPE]) a->elem_counter[2 * t + 1]++;
    for (int s = 0; s < 6; s++)
      side_info_row(m, per, e, s, &a->side_info[SIDE_INFO_SIZE * (size_t)(6 * e + s)]);
    /* barycenter: the mean of the element's geometry nodes */
    double *xc = &a->barycenters[3 * (size_t)e];
    xc[0] = xc[1] = xc[2] = 0.0;
    for (size_t n = 0; n < n_nodes_elem; n++)
      for (int d = 0; d < 3; d++)
        xc[d] += m->node_coords[3 * (n_nodes_elem * e + n) + d];
    for (int d = 0; d < 3; d++)
      xc[d] /= (double)n_nodes_elem;
    a->weights[e] = 1.0;
  }
}

static int build_arrays(const Mesh *m, HoprArrays *a) {
  size_t n = (size_t)m->n_elems;
  memset(a, 0, sizeof *a);
  a->elem_info = hx_malloc(sizeof(int) * ELEM_INFO_SIZE * n, "ElemInfo");
  a->side_info = hx_malloc(sizeof(int) * SIDE_INFO_SIZE * 6 * n, "SideInfo");
  a->node_ids = hx_malloc(sizeof(int) * nodes_per_elem(m) * n, "GlobalNodeIDs");
  a->elem_counter = hx_malloc(sizeof(int) * 2 * N_ELEM_TYPES, "ElemCounter");
  a->barycenters = hx_malloc(sizeof(double) * 3 * n, "ElemBarycenters");
  a->weights = hx_malloc(sizeof(double) * n, "ElemWeight");
  if (!a->elem_info || !a->side_info || !a->node_ids || !a->elem_counter || !a->barycenters ||
      !a->weights)
    return HX_ERR_MEM;
  PeriodicInfo per;
  int rc = find_periodic_pairs(m, &per);
  if (rc == HX_OK) rc = unique_node_ids(m, &per, a->node_ids, &a->n_unique_nodes);
  if (rc == HX_OK) rc = build_file_bcs(m, &per, &a->bcs);
  if (rc == HX_OK) fill_elem_arrays(m, &per, a);
  periodic_free(&per);
  return rc;
}

/* ---- HDF5 output */

static int write_attr(hid_t file, const char *name, hid_t file_type, hid_t mem_type,
                      const void *value, const char *path) {
  hsize_t one = 1;
  hid_t space = H5Screate_simple(1, &one, NULL);
  hid_t attr = space >= 0 ? H5Acreate2(file, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT) : -1;
  int rc = HX_OK;
  if (attr < 0 || H5Awrite(attr, mem_type, value) < 0)
    rc =
        HX_ERROR(HX_ERR_IO, "HOPR mesh '%s': cannot write attribute '%s' (disk full?)", path, name);
  if (attr >= 0) H5Aclose(attr);
  if (space >= 0) H5Sclose(space);
  return rc;
}

static int write_int_attr(hid_t file, const char *name, int value, const char *path) {
  return write_attr(file, name, H5T_STD_I32LE, H5T_NATIVE_INT, &value, path);
}

static int write_dataset(hid_t file, const char *name, hid_t file_type, hid_t mem_type, int rank,
                         hsize_t rows, hsize_t cols, const void *data, const char *path) {
  hsize_t dims[2] = {rows, cols};
  hid_t space = H5Screate_simple(rank, dims, NULL);
  hid_t dset = space >= 0
                   ? H5Dcreate2(file, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)
                   : -1;
  int rc = HX_OK;
  if (dset < 0 || H5Dwrite(dset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
    rc = HX_ERROR(HX_ERR_IO, "HOPR mesh '%s': cannot write dataset '%s' (disk full?)", path, name);
  if (dset >= 0) H5Dclose(dset);
  if (space >= 0) H5Sclose(space);
  return rc;
}

static int write_bc_names(hid_t file, const FileBcs *fb, const char *path) {
  hid_t type = H5Tcopy(H5T_C_S1);
  int rc = HX_OK;
  if (type < 0 || H5Tset_size(type, BC_NAME_BYTES) < 0 || H5Tset_strpad(type, H5T_STR_SPACEPAD) < 0)
    rc = HX_ERROR(HX_ERR_INTERNAL, "HOPR mesh '%s': cannot build the BCNames string type", path);
  if (rc == HX_OK)
    rc = write_dataset(file, "BCNames", type, type, 1, (hsize_t)fb->n_bcs, 1, fb->names, path);
  if (type >= 0) H5Tclose(type);
  return rc;
}

static int write_attributes(hid_t file, const Mesh *m, const HoprArrays *a, const char *path) {
  int n_nodes = (int)(nodes_per_elem(m) * (size_t)m->n_elems);
  HX_CHECK(
      write_attr(file, "Version", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &HOPR_MESH_VERSION, path));
  HX_CHECK(write_int_attr(file, "Ngeo", m->NGeo, path));
  HX_CHECK(write_int_attr(file, "nElems", m->n_elems, path));
  HX_CHECK(write_int_attr(file, "nSides", 6 * m->n_elems, path));
  HX_CHECK(write_int_attr(file, "nNodes", n_nodes, path));
  HX_CHECK(write_int_attr(file, "nUniqueSides", m->n_sides, path));
  HX_CHECK(write_int_attr(file, "nUniqueNodes", a->n_unique_nodes, path));
  HX_CHECK(write_int_attr(file, "nBCs", a->bcs.n_bcs, path));
  return HX_OK;
}

static int write_datasets(hid_t file, const Mesh *m, const HoprArrays *a, const char *path) {
  hsize_t n = (hsize_t)m->n_elems, n_nodes = (hsize_t)nodes_per_elem(m) * n;
  HX_CHECK(write_bc_names(file, &a->bcs, path));
  HX_CHECK(write_dataset(file, "BCType", H5T_STD_I32LE, H5T_NATIVE_INT, 2, (hsize_t)a->bcs.n_bcs,
                         BCTYPE_SIZE, a->bcs.type, path));
  HX_CHECK(write_dataset(file, "ElemInfo", H5T_STD_I32LE, H5T_NATIVE_INT, 2, n, ELEM_INFO_SIZE,
                         a->elem_info, path));
  HX_CHECK(write_dataset(file, "SideInfo", H5T_STD_I32LE, H5T_NATIVE_INT, 2, 6 * n, SIDE_INFO_SIZE,
                         a->side_info, path));
  HX_CHECK(write_dataset(file, "NodeCoords", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 2, n_nodes, 3,
                         m->node_coords, path));
  HX_CHECK(write_dataset(file, "GlobalNodeIDs", H5T_STD_I32LE, H5T_NATIVE_INT, 1, n_nodes, 1,
                         a->node_ids, path));
  HX_CHECK(write_dataset(file, "ElemBarycenters", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 2, n, 3,
                         a->barycenters, path));
  HX_CHECK(write_dataset(file, "ElemWeight", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, n, 1, a->weights,
                         path));
  HX_CHECK(write_dataset(file, "ElemCounter", H5T_STD_I32LE, H5T_NATIVE_INT, 2, N_ELEM_TYPES, 2,
                         a->elem_counter, path));
  return HX_OK;
}

static int write_file(const char *tmp_path, const Mesh *m, const HoprArrays *a, const char *path) {
  hid_t file = H5Fcreate(tmp_path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0)
    return HX_ERROR(HX_ERR_IO,
                    "HOPR mesh '%s': cannot create '%s' (directory missing or not writable?)", path,
                    tmp_path);
  int rc = write_attributes(file, m, a, path);
  if (rc == HX_OK) rc = write_datasets(file, m, a, path);
  if (H5Fclose(file) < 0 && rc == HX_OK)
    rc = HX_ERROR(HX_ERR_IO, "HOPR mesh '%s': closing '%s' failed (disk full?)", path, tmp_path);
  return rc;
}

static int check_writable_mesh(const Mesh *m, const char *path) {
  if (m->n_elems < 1 || m->NGeo < 1)
    return HX_ERROR(HX_ERR_INPUT, "HOPR mesh '%s': nothing to write (%d elements, NGeo %d)", path,
                    m->n_elems, m->NGeo);
  if (m->n_mpi_mine_sides + m->n_mpi_yours_sides > 0)
    return HX_ERROR(HX_ERR_INPUT,
                    "HOPR mesh '%s': the mesh has MPI sides; write the global mesh, not one "
                    "rank's part",
                    path);
  if (nodes_per_elem(m) * (size_t)m->n_elems > (size_t)INT_MAX)
    return HX_ERROR(HX_ERR_INPUT,
                    "HOPR mesh '%s': %d elements of NGeo %d exceed the 32-bit node indices of the "
                    "format",
                    path, m->n_elems, m->NGeo);
  return HX_OK;
}

int mesh_write_hopr(const Mesh *m, const char *path) {
  HX_CHECK(check_writable_mesh(m, path));
  size_t len = strlen(path) + 5;
  char *tmp_path = hx_malloc(len, "file name");
  HX_ALLOC_CHECK(tmp_path);
  snprintf(tmp_path, len, "%s.tmp", path);
  HoprArrays a;
  int rc = build_arrays(m, &a);
  if (rc == HX_OK) {
    Hdf5ErrorPrinting saved = hdf5_errors_silence();
    rc = write_file(tmp_path, m, &a, path);
    hdf5_errors_restore(saved);
  }
  if (rc == HX_OK && rename(tmp_path, path) != 0)
    rc = HX_ERROR(HX_ERR_IO, "HOPR mesh '%s': cannot rename '%s' to it (%s)", path, tmp_path,
                  strerror(errno));
  if (rc != HX_OK) remove(tmp_path);
  hopr_arrays_free(&a);
  free(tmp_path);
  return rc;
}
