/* Fuzz target: the HOPR mesh reader (src/mesh/hopr.c). The input encodes what the reader
 * interprets; it is written as a HOPR HDF5 file, then read. Layout (little endian; reads past the
 * end give 0, tests/fuzz/make_seeds.py writes it from real meshes):
 *   u8 omit      bit i set: leave out item i of {Ngeo, nElems, ElemInfo, SideInfo, NodeCoords,
 *                BCNames, BCType}; bit 7: Ngeo written as two integers
 *   i32 Ngeo, i32 nElems (attributes)
 *   u8 ElemInfo rows, u8 cols | u16 SideInfo rows, u8 cols | u16 NodeCoords rows, u8 cols
 *   u8 BCNames entries | u8 BCType rows, u8 cols
 *   i32 ElemInfo[rows][cols], i32 SideInfo[..], f64 NodeCoords[..], i32 BCType[..],
 *   BCNames: one length byte (0..32) and the bytes, per entry */
#include <stdlib.h>

#include "fuzz_common.h"
#include "fuzz_h5.h"
#include "mesh/hopr.h"

enum {
  OMIT_NGEO,
  OMIT_NELEMS,
  OMIT_ELEMINFO,
  OMIT_SIDEINFO,
  OMIT_NODES,
  OMIT_BCNAMES,
  OMIT_BCTYPE
};

typedef struct {
  unsigned omit;
  int32_t ngeo, n_elems;
  hsize_t elem[2], side[2], node[2], bctype[2], n_bcs;
} HoprLayout;

static int32_t *read_ints(FuzzReader *r, const hsize_t dims[2]) {
  size_t n = (size_t)(dims[0] * dims[1]);
  int32_t *v = malloc(n ? n * sizeof *v : 1);
  for (size_t i = 0; i < n; i++)
    v[i] = fuzz_i32(r);
  return v;
}

static void write_ints(hid_t file, const char *name, const hsize_t dims[2], const int32_t *v) {
  fuzz_h5_dataset(file, name, H5T_NATIVE_INT32, 2, dims, v);
}

static void write_mesh(const char *path, FuzzReader *r) {
  HoprLayout l;
  l.omit = fuzz_u8(r);
  l.ngeo = fuzz_i32(r);
  l.n_elems = fuzz_i32(r);
  l.elem[0] = fuzz_u8(r), l.elem[1] = fuzz_u8(r) % 20;
  l.side[0] = fuzz_u16(r) % 2048, l.side[1] = fuzz_u8(r) % 20;
  l.node[0] = fuzz_u16(r) % 8192, l.node[1] = fuzz_u8(r) % 5;
  l.n_bcs = fuzz_u8(r) % 32;
  l.bctype[0] = fuzz_u8(r) % 32, l.bctype[1] = fuzz_u8(r) % 6;
  int32_t *elem = read_ints(r, l.elem), *side = read_ints(r, l.side);
  size_t n_xyz = (size_t)(l.node[0] * l.node[1]);
  double *xyz = malloc(n_xyz ? n_xyz * sizeof *xyz : 1);
  for (size_t i = 0; i < n_xyz; i++)
    xyz[i] = fuzz_f64(r);
  int32_t *bctype = read_ints(r, l.bctype);
  char names[32][33];
  for (hsize_t b = 0; b < l.n_bcs; b++)
    fuzz_string(r, names[b], 32);

  hid_t file = fuzz_h5_create(path);
  int32_t ngeo2[2] = {l.ngeo, l.ngeo};
  if (!(l.omit >> OMIT_NGEO & 1))
    fuzz_h5_attr(file, "Ngeo", H5T_NATIVE_INT32, l.omit >> 7 & 1 ? 2 : 1, ngeo2);
  if (!(l.omit >> OMIT_NELEMS & 1)) fuzz_h5_attr(file, "nElems", H5T_NATIVE_INT32, 1, &l.n_elems);
  if (!(l.omit >> OMIT_ELEMINFO & 1)) write_ints(file, "ElemInfo", l.elem, elem);
  if (!(l.omit >> OMIT_SIDEINFO & 1)) write_ints(file, "SideInfo", l.side, side);
  if (!(l.omit >> OMIT_NODES & 1))
    fuzz_h5_dataset(file, "NodeCoords", H5T_NATIVE_DOUBLE, 2, l.node, xyz);
  if (!(l.omit >> OMIT_BCNAMES & 1)) {
    /* HOPR writes BCNames as a dataset of fixed-length strings */
    hid_t type = H5Tcopy(H5T_C_S1);
    char buf[32 * 32 + 1];
    memset(buf, ' ', sizeof buf);
    for (hsize_t b = 0; b < l.n_bcs; b++)
      memcpy(buf + b * 32, names[b], strlen(names[b]));
    H5Tset_size(type, 32);
    fuzz_h5_dataset(file, "BCNames", type, 1, &l.n_bcs, buf);
    H5Tclose(type);
  }
  if (!(l.omit >> OMIT_BCTYPE & 1)) write_ints(file, "BCType", l.bctype, bctype);
  if (file >= 0) H5Fclose(file);
  free(elem);
  free(side);
  free(xyz);
  free(bctype);
}

int fuzz_reader_rc;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_temp_path("h5");
  FuzzReader r = {data, size, 0};
  write_mesh(path, &r);
  Mesh *m = NULL;
  fuzz_reader_rc = mesh_read_hopr(path, &m);
  if (fuzz_reader_rc == 0) mesh_destroy(m);
  remove(path);
  return 0;
}
